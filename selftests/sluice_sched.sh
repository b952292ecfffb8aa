#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scheduling: strict priority serves the higher class first; classes with
# a DWRR quantum share what the strict ones leave in proportion to their
# quanta.
#
# Strict (sluice has a rate of its own now, but this test keeps tbf as the
# shaper and sluice as its child: tbf peeks, then dequeues, which checks
# that peek and dequeue agree):
#
#   +--------------------------- ns ----------------------------+
#   | sendframes -> a0 [tbf 80kbit 1: -> sluice 2:] --- b0 (tcpdump) |
#   +-----------------------------------------------------------+
#
# 10 low frames (DSCP 0, class 0) are queued first, then 10 high frames
# (DSCP 40, class 1).  At 80 kbit/s a 1000-byte frame takes 100 ms, so
# only the frames tbf took before the high ones arrived may precede them.
#
# DWRR: a0 [sluice rate 400kbit; class 0 quantum 1000, class 1 quantum
# 3000, class 2 strict] --- b0 (tcpdump).  An 802.3x pause holds the
# port while all three classes are loaded, so the order in which they
# leave after the resume is the scheduler's alone.

ALL_TESTS="
	strict_higher_class_first
	dwrr_shares_by_quantum
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

# dwrr_shares_by_quantum: classes 0 and 1 (1000 and 3000 byte quanta) get
# 1 and 3 frames of 1000 bytes a round; strict class 2 goes before both.
dwrr_shares_by_quantum()
{
	local pcap order

	netns_add NS || return
	veth_add "$NS" a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 3 \
			tag dscp rate 400kbit &&
		defer tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" class change dev a0 classid 1:1 sluice quantum 1000 &&
		tc -n "$NS" class change dev a0 classid 1:2 sluice quantum 3000
	check_err $? "setup"

	pcap=$(mktemp /tmp/dwrr.XXXXXX.pcap)
	defer rm -f "$pcap"
	ip netns exec "$NS" tcpdump -i b0 -U -w "$pcap" -s 64 ip 2>/dev/null &
	defer kill $!
	sleep 2

	# Hold the port (802.3x, 65535 quanta), load it, let it go.
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 0001ffff >/dev/null
	send "$NS" a0 -4 0 -s 1000 -c 20 >/dev/null &&	# class 0
		send "$NS" a0 -4 30 -s 1000 -c 30 >/dev/null &&	# class 1
		send "$NS" a0 -4 60 -s 1000 -c 4 >/dev/null	# class 2
	check_err $? "send"
	check_eq "$(class_stats "$NS" a0 qlen)" "20 30 4" "loaded while paused"
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 00010000 >/dev/null

	for _ in $(seq 100); do
		[[ "$(class_stats "$NS" a0 qlen)" == "0 0 0" ]] && break
		sleep 0.1
	done
	sleep 0.5
	order=$(captured_dscps "$pcap" | tr '\n' ' ' |
		sed 's/\b60\b/S/g; s/\b30\b/H/g; s/\b0\b/L/g' | tr -d ' ')
	log_info "departure order: $order"
	check_eq "${#order}" 54 "frames captured"
	# Strict first, then L HHH rounds while both are loaded (10 rounds
	# drain class 1), then what is left of class 0.
	check_eq "${order:0:4}" SSSS "strict class first"
	check_eq "${order:4:40}" "$(printf 'LHHH%.0s' $(seq 10))" "DWRR rounds"
	check_eq "${order:44}" "$(printf 'L%.0s' $(seq 10))" "class 0 alone"
}

tests_run
