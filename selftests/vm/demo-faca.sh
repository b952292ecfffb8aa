#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FaCa's demonstration "make demo-faca" runs in the VM (the module is
# loaded): sluicectl experiment faca, both parts: the flow-level model at
# the paper's size (Sections 7.1 and 7.3), then the micro-benchmark on a
# fabric of namespaces (4 leaves, 4 spines, two of them slower): ECMP,
# WCMP and FaCa's agents, three runs each, predictions, measurements
# beside the paper's, a verdict.  Its text and plots are copied out of the
# VM to build/demo/faca.txt and build/demo/faca-*.svg.
#
# Exits non-zero if a step fails; a part that did not do what the paper
# predicts is said (exit 3 of the experiment) but does not fail the demo.
# About 8 minutes under TCG.

set -eu

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}
export PATH=$REPO/userspace/sluicectl:$PATH
WORK=$(mktemp -d)
NAME=fademo

source "$REPO/selftests/vm/demo-out.sh"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

for m in veth mpls_router mpls_iptunnel; do
	modprobe "$m"
done
cleanup() {
	sluicectl fabric down --name $NAME >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

say "FaCa: the flow-level model, then the micro-benchmark on a fabric"
echo "\$ sluicectl experiment faca --name $NAME --svg faca"
rc=0
start=$(date +%s)
sluicectl experiment faca --name $NAME --svg faca >faca.txt || rc=$?
cat faca.txt
echo "(the experiment took $(($(date +%s) - start)) s of the VM's time)"
case $rc in
0) echo "(exit 0: every part did what the paper predicts)" ;;
3) echo "(exit 3: a part did not do what the paper predicts; said above)" ;;
*) echo "demo: FAILED: the experiment exited $rc"; exit 1 ;;
esac

demo_out "plots and text" faca-*.svg faca.txt
