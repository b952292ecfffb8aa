#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One shard of a route set: the unit of work a batch engine runs.
#
#	route-shard.sh INDEX COUNT TOPOLOGY OUTDIR [route compute options]
#
# Computes shard INDEX/COUNT of TOPOLOGY's routes (the options default to
# "--algo fc") into OUTDIR/shard-INDEX-of-COUNT.routes.  An empty INDEX is
# the engine's: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), else
# SLURM_ARRAY_TASK_ID (a Slurm array job).  sluicectl writes the file under
# a temporary name and renames it once whole, so a shard file is there
# only complete; one already there is kept, so that a retried task does no
# work twice.  SLUICECTL names the binary (default: sluicectl in PATH).
# Exit status: sluicectl's.
set -eu

[ $# -ge 4 ] || {
	echo "usage: route-shard.sh INDEX COUNT TOPOLOGY OUTDIR [OPTIONS...]" >&2
	exit 2
}
index=$1
count=$2
topo=$3
outdir=$4
shift 4
[ -n "$index" ] || index=${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:-}}
case $index in
''|*[!0-9]*)
	echo "route-shard.sh: no shard index (INDEX, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)" >&2
	exit 2 ;;
esac
[ $# -gt 0 ] || set -- --algo fc
out=$outdir/shard-$index-of-$count.routes
[ -e "$out" ] && exit 0
mkdir -p "$outdir"
exec "${SLUICECTL:-sluicectl}" route compute --topo "$topo" "$@" \
	--shard "$index/$count" -o "$out"
