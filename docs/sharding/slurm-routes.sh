#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A route set on a Slurm cluster: COUNT shards as one array job, and the
# merge as a job that starts once every shard succeeded.
#
#	slurm-routes.sh COUNT TOPOLOGY OUTDIR [route compute options]
#
# Run it from the directory that holds these scripts (or set
# SLUICE_SHARDING to it); TOPOLOGY and OUTDIR on storage every node sees.
# Prints the two job ids.  The options default to "--algo fc"; a failed
# task can be resubmitted alone (sbatch --array=I ...): route-shard.sh
# skips shards already written.
set -eu

[ $# -ge 3 ] || {
	echo "usage: slurm-routes.sh COUNT TOPOLOGY OUTDIR [OPTIONS...]" >&2
	exit 2
}
count=$1
topo=$2
outdir=$3
shift 3
dir=${SLUICE_SHARDING:-$(pwd)}
export SLUICE_SHARDING=$dir
shards=$(sbatch --parsable --array="0-$((count - 1))" \
	"$dir/slurm-shard.sbatch" "$count" "$topo" "$outdir" "$@")
merge=$(sbatch --parsable --dependency="afterok:$shards" \
	"$dir/slurm-merge.sbatch" "$count" "$topo" "$outdir")
echo "shards $shards merge $merge"
