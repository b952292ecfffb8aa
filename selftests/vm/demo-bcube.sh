#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PortFC demonstration "make demo-bcube" runs in the VM (the module is
# loaded), on BCube(4,1): 16 servers that forward, 8 switches.
#
#   1. the topology and BuildPathSet's routes (sluicectl topo gen bcube,
#      route compute --algo bcube), checked for cyclic buffer dependencies
#   2. a fabric of it under PortFC: every server its own host, every port a
#      sluice qdisc with PortFC's thresholds for 1 Mbit/s; the routes
#      loaded (with route load's warning about the detours PortFC does not
#      cover), all pairs pinged, a switch port's and a server port's
#      options as tc shows them
#   3. the experiment (sluicectl experiment bcube): deadlock, head-of-line
#      blocking, incast, and WebSearch's and Hadoop's flow completion
#      times, under PFC, PFC*, PortFC and lossy tail drop, each on a fresh
#      fabric: predictions, measurements, verdicts; its plots (per part,
#      and per flow for each run of the deadlock and HoLB parts) and its
#      JSON copied out of the VM to build/demo/bcube-*.svg and bcube.json
#
# Exits non-zero if a step fails; a run that did not do what its mode
# predicts is said (exit 3 of the experiment) but does not fail the demo.
# About 8 minutes under TCG.

set -eu

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}
export PATH=$REPO/userspace/sluicectl:$PATH
WORK=$(mktemp -d)
NAME=bcdemo

source "$REPO/selftests/vm/demo-out.sh"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

for m in veth mpls_router mpls_iptunnel; do
	modprobe "$m"
done
cleanup() {
	sluicectl fabric down --name $NAME >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

say "BCube(4,1): 16 servers, 8 switches; BuildPathSet's routes"
run sluicectl topo gen bcube --n 4 --k 1 -o b41.json
run sluicectl route compute --topo b41.json --algo bcube -o b41.routes 2>/dev/null
run sluicectl route stats --topo b41.json b41.routes
rc=0
run sluicectl route check --topo b41.json b41.routes || rc=$?
echo "(exit $rc: 3 is a cyclic buffer dependency, which plain PFC can deadlock on)"

say "The fabric under PortFC: each server its own host, a sluice qdisc on all 64 ports"
run sluicectl fabric up b41.json --name $NAME --rate 1mbit --flow-control portfc
run sluicectl route load b41.routes --name $NAME
run sluicectl fabric ping --name $NAME --count 1
echo "\$ tc -n $NAME-sw0-0 qdisc show dev l1    # a switch port"
tc -n $NAME-sw0-0 qdisc show dev l1
echo "\$ tc -n $NAME-srv00 qdisc show dev l0    # a server port"
tc -n $NAME-srv00 qdisc show dev l0
run sluicectl fabric down --name $NAME

say "The experiment: every part under pfc, pfc-star, portfc and lossy, a fresh fabric each"
rc=0
run sluicectl experiment bcube --name $NAME --svg bcube || rc=$?
case $rc in
0) echo "(exit 0: every run did what its mode predicts)" ;;
3) echo "(exit 3: a run did not do what its mode predicts; said above)" ;;
*) echo "demo: FAILED: the experiment exited $rc"; exit 1 ;;
esac
# The numbers as JSON for docs/experiment-bcube.md's table: the same experiment again
# would take as long, so the text above is what the JSON would say; the
# short parts are repeated with -j, for the record.
rc=0
sluicectl experiment bcube --name $NAME --parts deadlock,holb,incast -j \
	>bcube.json || rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || { echo "demo: FAILED: -j exited $rc"; exit 1; }

demo_out "plots and JSON" bcube-*.svg bcube.json
