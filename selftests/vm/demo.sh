#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demonstration "make demo" runs in the VM (the module is loaded): the
# main job end to end, on the 4-switch testbed of the FC paper's Fig. 4a.
#
#   1. the topology: 4 switches in a ring, every link doubled, each switch
#      split into virtual layers of 1, 2 and 1 ports, 4 hosts per switch
#      (selftests/topo/fc-testbed.json: sluicectl topo gen fc cannot make
#      it, as it never puts two links between two switches)
#   2. FC's routes, checked free of cyclic buffer dependencies - and ECMP's,
#      which have one, for contrast
#   3. the fabric: a namespace per switch and per host, veths, a sluice
#      qdisc on every port (100 Mbit/s, PFC on priority 3, XOFF 50 KB and
#      XON 47 KB as on the paper's testbed)
#   4. the routes loaded into the switches as MPLS label stacks
#   5. all-pairs connectivity, and live per-port, per-class counters while
#      hosts send in priorities 0 and 3
#
# Natively, on a machine that loads modules: the same script, as root,
# with sch_sluice, veth, mpls_router and mpls_iptunnel loaded.

set -eu

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}
export PATH=$REPO/userspace/sluicectl:$PATH
TOPO=$REPO/selftests/topo/fc-testbed.json
WORK=$(mktemp -d)
NAME=demo

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "# $*"; "$@"; }

for m in veth mpls_router mpls_iptunnel; do
	modprobe "$m"
done
cleanup() {
	sluicectl fabric down --name $NAME >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

say "FC's testbed (Fig. 4a): 4 switches, virtual layers of 1, 2, 1 ports, 4 hosts each"
run sluicectl topo show "$TOPO"

say "FC's edge-disjoint virtual up-down routes, free of cyclic buffer dependencies"
run sluicectl route compute --topo "$TOPO" --algo fc -o fc.routes
run sluicectl route stats --topo "$TOPO" fc.routes
run sluicectl route check --topo "$TOPO" fc.routes
sed -n '/^s1 /p' fc.routes

say "ECMP on the same switches: the 4-cycle of FC's Fig. 2, a deadlock waiting to happen"
run sluicectl route compute --topo "$TOPO" --algo ecmp -o ecmp.routes
run sluicectl route check --topo "$TOPO" ecmp.routes || echo "(exit $?: a CBD)"

say "The fabric: 20 namespaces, 24 veths, a sluice qdisc on all 48 ports"
run sluicectl fabric up "$TOPO" --name $NAME --rate 100mbit --pfc 3 \
	--xoff 50Kb --xon 47Kb --headroom 20Kb -v
run sluicectl fabric show --name $NAME

say "FC's routes into the switches: a label route per port, a label stack per path"
run sluicectl route load fc.routes --name $NAME -v
run ip -n $NAME-s1 -f mpls route show
run ip -n $NAME-s1 route show proto 177
run sluicectl route load fc.routes --name $NAME
run sluicectl route show fc.routes --name $NAME

say "All-pairs connectivity: 16 hosts, 240 pairs"
run sluicectl fabric ping --name $NAME --count 3
run sluicectl fabric exec --name $NAME s1-h0 -- ping -c 3 -i 0.2 10.0.2.1

say "Live per-port, per-class counters: DSCP 24 (class 3, lossless) and DSCP 0 (class 0)"
# Ports classify by DSCP: frames that still carry labels (MPLS TC 0, no
# DSCP in sight) go to the default class until Tagger's tables are loaded;
# the last hop of a path and host ports see plain IPv4.
sluicectl fabric stats --name $NAME -j >before.json
flows=("s1-h0 10.0.2.1 0x60" "s2-h1 10.0.3.3 0x60" "s3-h2 10.0.0.5 0x00"
       "s4-h3 10.0.1.7 0x00")
pids=()
for f in "${flows[@]}"; do
	read -r src dst tos <<<"$f"
	echo "# $src -> $dst, TOS $tos: 400 pings, 100 a second"
	sluicectl fabric exec --name $NAME "$src" -- \
		ping -q -c 400 -i 0.01 -Q "$tos" "$dst" >"ping.$src" 2>&1 &
	pids+=($!)
done
for i in 1 2 3; do
	sleep 1.5
	echo "-- snapshot $i: switch ports that sent, packets per class since the start"
	sluicectl fabric stats --name $NAME -j | jq -r --slurpfile b before.json '
		($b[0] | map({key: (.node + "/" + .dev), value: .}) | from_entries) as $old
		| .[] | (.node + "/" + .dev) as $k
		| select(.tx_packets - $old[$k].tx_packets > 0)
		| "  \($k)\tsent \(.tx_packets - $old[$k].tx_packets)\t" +
		  ([.classes[] | select(.packets - $old[$k].classes[.class].packets > 0)
		    | "class \(.class): \(.packets - $old[$k].classes[.class].packets)"] | join(", "))'
done
wait "${pids[@]}"
for f in "${flows[@]}"; do
	read -r src _ <<<"$f"
	echo "$src: $(grep transmitted "ping.$src")"
done

say "The switch's own counters of one port, per class and ingress priority (sluicectl stats)"
run sluicectl -n $NAME-s1 stats l6

say "The hosts' side: the sender's eth0 queues by DSCP"
run sluicectl fabric stats --name $NAME s1-h0 s3-h2
say "Qdisc drops, PFC frames sent and received on s1's ports (tc -s)"
tc -n $NAME-s1 -s qdisc show | awk '/^qdisc/ { on = $2 == "sluice" } on'

say "Unload and take the fabric down"
run sluicectl route unload --name $NAME
run sluicectl fabric down --name $NAME
