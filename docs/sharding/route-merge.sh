#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The whole route set from its shards, once all are done.
#
#	route-merge.sh COUNT TOPOLOGY OUTDIR
#
# Joins OUTDIR/shard-0-of-COUNT.routes .. shard-(COUNT-1)-of-COUNT.routes,
# which route-shard.sh wrote, into OUTDIR/routes (sluicectl route merge
# reads each shard through, checked, and never holds the set), then checks
# it for cyclic buffer dependencies (sluicectl route check, exit 3 if it
# has one).  A missing shard is named, and nothing is written.  SLUICECTL
# names the binary (default: sluicectl in PATH).
set -eu

[ $# -eq 3 ] || {
	echo "usage: route-merge.sh COUNT TOPOLOGY OUTDIR" >&2
	exit 2
}
count=$1
topo=$2
outdir=$3
sluicectl=${SLUICECTL:-sluicectl}
i=0
set --
while [ "$i" -lt "$count" ]; do
	f=$outdir/shard-$i-of-$count.routes
	[ -e "$f" ] || {
		echo "route-merge.sh: $f is missing: shard $i/$count not done" >&2
		exit 1
	}
	set -- "$@" "$f"
	i=$((i + 1))
done
"$sluicectl" route merge --topo "$topo" -o "$outdir/routes" "$@"
exec "$sluicectl" route check --topo "$topo" "$outdir/routes"
