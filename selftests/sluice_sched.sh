#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scheduling: strict priority serves the higher class first; classes with
# a DWRR quantum share what the strict ones leave in proportion to their
# quanta.
#
# The first two tests hold the port with an 802.3x pause while its classes
# are loaded, so the order in which frames leave after the resume is the
# scheduler's alone, whatever the speed of the (emulated) CPU:
#
#   sendframes -> a0 [sluice rate 400kbit] ---- b0 (tcpdump)
#                       ^ 802.3x hold / resume from b0
#
# Strict: 10 low frames (DSCP 0, class 0) are queued first, then 10 high
# frames (DSCP 40, class 1); all high frames leave first.
#
# DWRR: class 0 has quantum 1000, class 1 quantum 3000, class 2 is
# strict; with 1000-byte frames that is SSSS, then rounds of L HHH.
#
# Under a parent: sluice with a rate as the child of tbf, hfsc and drr,
# each far faster than sluice's 400 kbit/s, so sluice alone sets the pace.
# Those parents peek before they dequeue (hfsc also right after a class's
# first enqueue): a burst must leave at sluice's rate, measured between
# the first and the last frame's arrival at b0 (the capture's kernel
# timestamps, not the emulated CPU's polls), all of it, and the parent and
# sluice must count the same frames.  A shaping child's peek returns NULL
# while the link is busy, which hfsc and drr log once as "non-work-
# conserving?": a notice, not a splat.

ALL_TESTS="
	strict_higher_class_first
	dwrr_shares_by_quantum
	sched_under_parents
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq tcpdump
sluice_load

FRAMES=10
PAUSE_DST=01:80:c2:00:00:01

# The DSCP of each IPv4 frame in a capture, in arrival order.
captured_dscps()
{
	tcpdump -r "$1" -nn -v ip 2>/dev/null |
		sed -n 's/.*tos 0x\([0-9a-f]*\).*/\1/p' |
		while read -r tos; do echo $((0x$tos >> 2)); done
}

# setup CLASSES: a0 with a sluice root of CLASSES classes by DSCP, held by
# an 802.3x pause, and tcpdump on b0 writing to $PCAP.
setup()
{
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes "$1" \
			tag dscp rate 400kbit &&
		defer tc -n "$NS" qdisc del dev a0 root || return 1
	PCAP=$(mktemp /tmp/sched.XXXXXX.pcap)
	defer rm -f "$PCAP"
	tcpdump_start "$NS" b0 "$PCAP" -s 64 ip &&
		send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 0001ffff >/dev/null
}

# release_and_drain: resume the port and wait for its queues to empty.
release_and_drain()
{
	local i q

	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 00010000 >/dev/null
	for ((i = 0; i < 100; i++)); do
		q=$(class_stats "$NS" a0 qlen)
		[[ -z ${q//[0 ]/} ]] && break	# all zero
		nap 0.1
	done
	sleep 0.5
}

strict_higher_class_first()
{
	local order frames

	setup 2
	check_err $? "setup"
	# Low first, then high, from one sendframes.
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 0 -s 1000 -c $FRAMES
		-4 40 -s 1000 -c $FRAMES
	EOF
	check_err $? "send"
	check_eq "$(class_stats "$NS" a0 qlen)" "$FRAMES $FRAMES" \
		"both classes loaded while held"
	release_and_drain
	order=$(captured_dscps "$PCAP" | tr -d '\n' | sed 's/40/H/g; s/0/L/g')
	log_info "departure order: $order"
	printf -v frames '%*s' $FRAMES ''
	check_eq "$order" "${frames// /H}${frames// /L}" \
		"the high class drains first"
	check_eq "$(class_stats "$NS" a0 packets)" "$FRAMES $FRAMES" "sent"
	check_eq "$(class_stats "$NS" a0 drops)" "0 0" "drops"
}

# dwrr_shares_by_quantum: classes 0 and 1 (1000 and 3000 byte quanta) get
# 1 and 3 frames of 1000 bytes a round; strict class 2 goes before both.
dwrr_shares_by_quantum()
{
	local order

	setup 3 &&
		tc -n "$NS" -b - <<-EOF
			class change dev a0 classid 1:1 sluice quantum 1000
			class change dev a0 classid 1:2 sluice quantum 3000
		EOF
	check_err $? "setup"
	# Classes 0, 1 and 2, from one sendframes.
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 0 -s 1000 -c 20
		-4 30 -s 1000 -c 30
		-4 60 -s 1000 -c 4
	EOF
	check_err $? "send"
	check_eq "$(class_stats "$NS" a0 qlen)" "20 30 4" "loaded while held"
	release_and_drain
	order=$(captured_dscps "$PCAP" | tr '\n' ' ' |
		sed 's/\b60\b/S/g; s/\b30\b/H/g; s/\b0\b/L/g' | tr -d ' ')
	log_info "departure order: $order"
	check_eq "${#order}" 54 "frames captured"
	# Strict first, then L HHH rounds while both are loaded (10 rounds
	# drain class 1), then what is left of class 0.
	check_eq "${order:0:4}" SSSS "strict class first"
	check_eq "${order:4:40}" "$(printf 'LHHH%.0s' {1..10})" "DWRR rounds"
	check_eq "${order:44}" "$(printf 'L%.0s' {1..10})" "class 0 alone"
}

# parent_test PARENT: a burst of PARENT_FRAMES frames of 1000 bytes through
# PARENT (tbf, hfsc or drr) at a0's root with sluice rate 400kbit as the
# child of its class 1:1.
PARENT_FRAMES=30
parent_test()
{
	local parent=$1 i n t0 t1 kbit qd=() sent=() drops=() w pcap

	netns_veth NS a0 b0 || return 1
	case $parent in
	tbf)
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 100mbit \
			burst 64k latency 1s ;;
	hfsc)
		# sc: a real-time curve, whose class hfsc peeks on its first
		# enqueue, and a link-sharing one.
		tc -n "$NS" -b - <<-EOF ;;
			qdisc add dev a0 root handle 1: hfsc default 1
			class add dev a0 parent 1: classid 1:1 hfsc sc rate 100mbit ul rate 100mbit
		EOF
	drr)
		tc -n "$NS" -b - <<-EOF ;;
			qdisc add dev a0 root handle 1: drr
			class add dev a0 parent 1: classid 1:1 drr
			filter add dev a0 parent 1: matchall classid 1:1
		EOF
	esac
	check_err $? "$parent at the root"
	tc -n "$NS" qdisc add dev a0 parent 1:1 handle 10: sluice rate 400kbit
	check_err $? "sluice under $parent"
	pcap=$(mktemp /tmp/sched.XXXXXX.pcap)
	defer rm -f "$pcap"
	tcpdump_start "$NS" b0 "$pcap" -Q in ip
	check_err $? "capture"
	((RET == 0)) || return 1

	send "$NS" a0 -4 0 -s 1000 -c $PARENT_FRAMES >/dev/null
	check_err $? "send"
	# 30 frames at 400 kbit/s: 0.6 s.  Stalled if not gone after 10.
	for ((i = 0; i < 100; i++)); do
		qdisc_counts
		((QD_QLEN == 0)) && break
		nap 0.1
	done
	check_eq "$QD_QLEN" 0 "$parent: frames still queued after 10 s"
	sleep 0.5

	# Arrival times at b0 (tcpdump -tt), in microseconds.
	n=0
	while read -r w _; do
		t1=${w//./}
		((n++ == 0)) && t0=$t1
	done < <(tcpdump -r "$pcap" -nn -tt 2>/dev/null)
	check_eq "$n" $PARENT_FRAMES "$parent: frames delivered"
	((n > 1)) && kbit=$(((n - 1) * 1000 * 8 * 1000 / (t1 - t0)))
	log_info "under $parent: $n frames, $((n - 1)) of them in $(((t1 - t0) / 1000)) ms: ${kbit:-?} kbit/s"
	# At most 10% above 400 kbit/s, at most 25% below: a host that stalls
	# the emulated CPU can only lose wire time (sluice catches up 10 ms
	# of it, no more), never gain any.  Half the rate or less is a frame
	# that waits a period more than it should.
	((kbit >= 300 && kbit <= 440))
	check_err $? "$parent: sluice's rate, 400 kbit/s, not kept: ${kbit:-?} kbit/s"
	check_eq "${QD_PKTS[*]}" "$PARENT_FRAMES $PARENT_FRAMES" \
		"$parent: packets counted by $parent and by sluice"
	check_eq "${QD_DROPS[*]}" "0 0" "$parent: drops at $parent and at sluice"
}

# qdisc_counts: the Sent packets and drops of a0's root (the parent) and
# of sluice 10: in QD_PKTS and QD_DROPS (root first), the root's qlen in
# QD_QLEN, from one tc.
qdisc_counts()
{
	local -a w
	local q=

	QD_PKTS=() QD_DROPS=() QD_QLEN=
	while read -ra w; do
		case ${w[0]} in
		qdisc)
			q=${w[2]} ;;
		Sent)
			[[ $q == 1: || $q == 10: ]] || continue
			QD_PKTS+=("${w[3]}")
			QD_DROPS+=("${w[6]%,}") ;;
		backlog)
			[[ $q == 1: ]] && QD_QLEN=${w[2]%p} ;;
		esac
	done < <(tc -n "$NS" -s qdisc show dev a0)
}

sched_under_parents()
{
	local parent

	for parent in tbf hfsc drr; do
		# A test function's subshell per parent: its own namespace,
		# torn down before the next.
		(
			trap run_deferred EXIT
			parent_test $parent
			((RET == 0)) || log_info "under $parent: $RETMSG"
			exit $RET
		)
		check_err $? "under $parent (the first failure: see above)"
	done
}

tests_run
