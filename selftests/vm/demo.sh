#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demonstration "make demo" runs in the VM (the module is loaded): a
# port shaped to 128 kbit/s with a four-class sluice qdisc under it, loaded
# with bulk, assured and expedited traffic plus untagged ARP, and its
# per-class counters shown live while the queues drain - highest class
# first.
#
#   +------------------------- ns sluice-demo ---------------------------+
#   | sendframes -> a0 [tbf 128kbit 1: -> sluice 2: (4 classes by DSCP)] -- b0 |
#   +--------------------------------------------------------------------+
#
# Later releases replace this with the FC testbed deadlock experiment.

set -eu

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SEND=$REPO/selftests/tools/sendframes
NS=sluice-demo
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "# $*"; "$@"; }

ip netns add $NS
trap 'ip netns del $NS' EXIT
ip netns exec $NS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
	net.ipv6.conf.default.disable_ipv6=1
ip -n $NS link add a0 type veth peer name b0
ip -n $NS link set a0 up
ip -n $NS link set b0 up

say "A 128 kbit/s port with four sluice classes, classified by DSCP"
run tc -n $NS qdisc add dev a0 root handle 1: tbf rate 128kbit burst 1600 latency 2s
run tc -n $NS qdisc add dev a0 parent 1:1 handle 2: sluice classes 4 tag dscp \
	dscp-map 26:2 46:3 limit 200Kb default 1
run tc -n $NS qdisc show dev a0

say "Offered at once: 60 bulk (DSCP 0), 30 assured (AF31, DSCP 26), 15 expedited (EF, DSCP 46), 10 ARP"
ip netns exec $NS "$SEND" -i a0 -4 0 -s 1000 -c 60
ip netns exec $NS "$SEND" -i a0 -4 26 -s 1000 -c 30
ip netns exec $NS "$SEND" -i a0 -4 46 -s 1000 -c 15
ip netns exec $NS "$SEND" -i a0 -e 0x0806 -s 60 -c 10

say "Live per-class counters: class 3 (EF, 2:4) drains first, then 2, 1, 0"
for i in 0 1 2 3 4 5 6 7; do
	echo "-- after $i s"
	tc -n $NS -s class show dev a0 | awk '
		/^class sluice/ { cls = $3 }
		/Sent/ { sent = $4 }
		$1 == "backlog" { printf "  class %s  sent %4d pkt  queued %s\n", cls, sent, $3 }'
	sleep 1
done

say "Full statistics (tc -s class show; xstats: limit_drops, peak_backlog)"
run tc -n $NS -s class show dev a0
say "Qdisc as JSON (tc -s -j qdisc show; maps left out here)"
tc -n $NS -s -j qdisc show dev a0 |
	jq -M '.[] | select(.kind == "sluice") | .options |= {classes, tag, default, limit}'
