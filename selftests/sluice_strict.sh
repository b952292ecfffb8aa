#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Strict priority: with the port shaped to a slow rate and two classes
# loaded, the higher class drains first.  sluice has no shaper of its own
# yet, so tbf shapes and sluice is its child (tbf peeks, then dequeues:
# this also checks that peek and dequeue agree).
#
#   +--------------------------- ns ----------------------------+
#   | sendframes -> a0 [tbf 80kbit 1: -> sluice 2:] --- b0 (tcpdump) |
#   +-----------------------------------------------------------+
#
# 10 low frames (DSCP 0, class 0) are queued first, then 10 high frames
# (DSCP 40, class 1).  At 80 kbit/s a 1000-byte frame takes 100 ms, so
# only the frames tbf took before the high ones arrived may precede them.

ALL_TESTS="
	strict_higher_class_first
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq tcpdump
sluice_load

FRAMES=10
# Low frames tbf may have taken before the high ones were queued: the
# first goes out at once (burst), the next while sendframes starts again.
MAX_LOW_AHEAD=3

# The DSCP of each IPv4 frame in a capture, in arrival order.
captured_dscps()
{
	tcpdump -r "$1" -nn -v ip 2>/dev/null |
		sed -n 's/.*tos 0x\([0-9a-f]*\).*/\1/p' |
		while read -r tos; do echo $((0x$tos >> 2)); done
}

strict_higher_class_first()
{
	local pcap dscps low_ahead order n peak

	netns_add NS || return
	veth_add "$NS" a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 80kbit \
			burst 1600 latency 10s &&
		tc -n "$NS" qdisc add dev a0 parent 1:1 handle 2: sluice \
			classes 2 tag dscp
	check_err $? "setup"

	pcap=$(mktemp /tmp/strict.XXXXXX.pcap)
	defer rm -f "$pcap"
	ip netns exec "$NS" tcpdump -i b0 -U -w "$pcap" -s 64 ip 2>/dev/null &
	defer kill $!
	sleep 2

	send "$NS" a0 -4 0 -s 1000 -c $FRAMES >/dev/null &&
		send "$NS" a0 -4 40 -s 1000 -c $FRAMES >/dev/null
	check_err $? "send"
	log_info "frames queued after sending: $(class_stats "$NS" a0 qlen)"

	# 20 frames at 100 ms each; wait for the queues to empty.
	for ((n = 0; n < 100; n++)); do
		[[ "$(class_stats "$NS" a0 qlen)" == "0 0" ]] && break
		sleep 0.1
	done
	sleep 0.5
	check_eq "$(class_stats "$NS" a0 packets)" "$FRAMES $FRAMES" "sent"
	check_eq "$(class_stats "$NS" a0 drops)" "0 0" "drops"
	# The low class really held its frames while the high one drained.
	peak=$(class_stat "$NS" a0 2:1 peak_backlog)
	((peak >= (FRAMES - MAX_LOW_AHEAD) * 1000))
	check_err $? "low class peak backlog $peak is too small to have queued"

	dscps=$(captured_dscps "$pcap")
	order=$(echo $dscps | tr -d ' ' | sed 's/40/H/g; s/0/L/g')
	log_info "arrival order: $order"
	check_eq "${#order}" $((2 * FRAMES)) "frames captured"
	# L* H{10} L*: all high frames back to back, few lows ahead of them.
	[[ "$order" =~ ^(L*)H{$FRAMES}L*$ ]]
	check_err $? "high frames were interleaved with low ones: $order"
	low_ahead=${#BASH_REMATCH[1]}
	((low_ahead <= MAX_LOW_AHEAD))
	check_err $? "$low_ahead low frames went ahead of the high class"
}

tests_run
