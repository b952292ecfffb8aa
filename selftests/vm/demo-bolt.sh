#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The TCP-Bolt demonstration "make demo-bolt" runs in the VM (the module is
# loaded): sluicectl experiment bolt, every part (the first window, per-port
# against per-flow fairness, head-of-line blocking, TCP-Bolt's workload,
# EDST against ECMP), each mode on a fresh fabric: predictions,
# measurements, verdicts.  Its text and plots are copied out of the VM to
# build/demo/bolt.txt and build/demo/bolt-*.svg.
#
# Exits non-zero if a step fails; a part that did not do what the paper
# predicts is said (exit 3 of the experiment) but does not fail the demo.
# About 6 minutes under TCG; the edst part needs about 900 MB (the
# route sets of 225 switches with up to 8 lanes), so the VM gets 2 GB.

set -eu

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}
export PATH=$REPO/userspace/sluicectl:$PATH
WORK=$(mktemp -d)
NAME=btdemo

source "$REPO/selftests/vm/demo-out.sh"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

for m in veth mpls_router mpls_iptunnel tcp_dctcp sch_netem; do
	modprobe "$m"
done
cleanup() {
	sluicectl fabric down --name $NAME >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

say "TCP-Bolt: every part, every mode, a fresh fabric each"
echo "\$ sluicectl experiment bolt --name $NAME --svg bolt"
rc=0
sluicectl experiment bolt --name $NAME --svg bolt >bolt.txt || rc=$?
cat bolt.txt
case $rc in
0) echo "(exit 0: every part did what the paper predicts)" ;;
3) echo "(exit 3: a part did not do what the paper predicts; said above)" ;;
*) echo "demo: FAILED: the experiment exited $rc"; exit 1 ;;
esac

demo_out "plots and text" bolt-*.svg bolt.txt
