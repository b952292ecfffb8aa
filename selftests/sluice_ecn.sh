#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ECN: ECT frames through a class with "ecn K" are CE-marked exactly while
# the class holds more than K bytes; not-ECT frames never are.
#
#   sendframes -> a0 [sluice rate 400kbit, class 1:1 ecn 3000] ---- b0 (tcpdump)
#
# An 802.3x pause from b0 holds the port while a burst of 20 frames of
# 1000 bytes is queued, so frame i finds exactly i * 1000 bytes ahead of
# it whatever the CPU's speed: frames 0..3 (at most 3000 bytes) pass
# unmarked, frames 4..19 are marked.  Frames sent one at a time after the
# queue drained find it empty and pass unmarked.

ALL_TESTS="
	ecn_marks_above_threshold_ipv4
	ecn_marks_above_threshold_ipv6
	ecn_leaves_not_ect_alone
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq tcpdump
sluice_load

THRESHOLD=3000
BURST=20

setup()
{
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 1 \
			rate 400kbit &&
		defer tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" class change dev a0 classid 1:1 sluice \
			ecn $THRESHOLD
}

# capture_start FILTER: tcpdump on b0 into $PCAP, capturing on return.
capture_start()
{
	PCAP=$(mktemp /tmp/ecn.XXXXXX.pcap)
	defer rm -f "$PCAP"
	tcpdump_start "$NS" b0 "$PCAP" "$1"
}

# ecn_bits: the ECN field of each captured IP frame, in arrival order.
ecn_bits()
{
	tcpdump -r "$PCAP" -nn -v 2>/dev/null |
		sed -n 's/.*\(tos\|class\) 0x\([0-9a-f]*\).*/\2/p' |
		while read -r tc; do printf %d $((0x$tc & 3)); done
}

wait_drained()
{
	local i

	for ((i = 0; i < 100; i++)); do
		class_read "$NS" a0 && [[ ${CS[1:1 qlen]} == 0 ]] && return 0
		nap 0.1
	done
	return 1
}

# marks_test FAMILY-FLAG FILTER: a burst of ECT(0) frames, then 3 frames
# sent one at a time.
marks_test()
{
	local bits marked

	setup
	check_err $? "setup"
	capture_start "$2"
	check_err $? "capture"
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 0001ffff >/dev/null
	send "$NS" a0 "$1" 0 -E 2 -s 1000 -c $BURST >/dev/null
	check_eq "$(class_stat "$NS" a0 1:1 qlen)" $BURST "burst held"
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 00010000 >/dev/null
	wait_drained
	check_err $? "the burst did not drain"
	for _ in 1 2 3; do
		send "$NS" a0 "$1" 0 -E 2 -s 1000 >/dev/null
		wait_drained
	done
	sleep 0.5

	bits=$(ecn_bits)
	log_info "ECN field per frame (2 ECT, 3 CE): $bits"
	# Unmarked while at most 3000 bytes were queued, marked after, and
	# unmarked again once the queue is empty.
	check_eq "$bits" "2222$(printf '3%.0s' {1..16})222" \
		"ECN field per frame"
	marked=${bits//[^3]/}	# tr -cd 3 | wc -c
	marked=${#marked}
	check_eq "$(class_stat "$NS" a0 1:1 ecn_marks)" "$marked" \
		"ecn_marks counter"
}

ecn_marks_above_threshold_ipv4()
{
	marks_test -4 ip
}

ecn_marks_above_threshold_ipv6()
{
	marks_test -6 ip6
}

ecn_leaves_not_ect_alone()
{
	local bits zeros

	setup
	check_err $? "setup"
	capture_start ip
	check_err $? "capture"
	send "$NS" a0 -4 0 -E 0 -s 1000 -c $BURST >/dev/null
	wait_drained
	sleep 0.5
	bits=$(ecn_bits)
	printf -v zeros '%*s' $BURST ''
	check_eq "$bits" "${zeros// /0}" "ECN field of not-ECT frames"
	class_read "$NS" a0
	check_eq "${CS[1:1 ecn_marks]}" 0 "ecn_marks counter"
	((${CS[1:1 peak_backlog]:-0} > THRESHOLD))
	check_err $? "the queue never passed the threshold"
}

tests_run
