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
#
# The IP header need not follow the Ethernet header: under an MPLS label
# stack (sendframes -L) or behind two VLAN tags (QinQ, sent on a0 and
# forwarded to it from x0 by mirred), sluice marks the header where
# classification finds it, which the stack's INET_ECN_set_ce() (by
# skb->protocol and the network header offset) does not.  Those tests read
# every captured frame as bytes: ECN set to CE and the IPv4 checksum
# updated, not one other byte changed, and ecn_marks counts exactly the
# frames marked (not those already CE).

ALL_TESTS="
	ecn_marks_above_threshold_ipv4
	ecn_marks_above_threshold_ipv6
	ecn_leaves_not_ect_alone
	ecn_marks_under_labels
	ecn_marks_qinq
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

# capture_start ARGS...: tcpdump ARGS... on b0 into $PCAP, capturing on
# return.
capture_start()
{
	PCAP=$(mktemp /tmp/ecn.XXXXXX.pcap)
	defer rm -f "$PCAP"
	tcpdump_start "$NS" b0 "$PCAP" "$@"
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

# ------------------------------------------- frames checked byte by byte

# frames_hex: each frame of $PCAP as one line of hex digits, in arrival
# order.
frames_hex()
{
	pcap_hex "$PCAP"
}

# ip_locate HEX: IPOFF, the byte offset of the IP header in the frame HEX
# (behind up to two VLAN tags, under an MPLS label stack), and IPVER, its
# version (4 or 6; something else if the frame holds no IP header there).
ip_locate()
{
	local h=$1 o=12 n

	for ((n = 0; n < 2; n++)); do
		[[ ${h:2 * o:4} == 8100 || ${h:2 * o:4} == 88a8 ]] || break
		o=$((o + 4))
	done
	if [[ ${h:2 * o:4} == 8847 ]]; then
		o=$((o + 2))
		# The bottom of the stack: bit 0 of an entry's third byte.
		for ((n = 0; n < 32; n++)); do
			[[ ${h:2 * o + 4:2} =~ ^[0-9a-f]{2}$ ]] || break
			o=$((o + 4))
			((0x${h:2 * o - 4:2} & 1)) && break
		done
	else
		o=$((o + 2))
	fi
	IPOFF=$o
	IPVER=${h:2 * o:1}
}

# ecn_of HEX: ECN, the ECN field of the frame's IP header (- if none).
# These helpers set variables rather than print: a subshell a frame would
# cost more than the rest of the test's parsing under TCG.
ecn_of()
{
	ip_locate "$1"
	case $IPVER in
	4) ECN=$((0x${1:2 * IPOFF + 2:2} & 3)) ;;
	# Traffic class: the low nibble of byte 0, the high one of byte 1.
	6) ECN=$((0x${1:2 * IPOFF + 2:1} & 3)) ;;
	*) ECN=- ;;
	esac
}

# ipv4_sum HEX OFF: SUM, the folded ones' complement sum of the 20-byte
# IPv4 header at byte OFF of HEX; 65535 (0xffff) when its checksum is right.
ipv4_sum()
{
	local i

	SUM=0
	for ((i = 0; i < 20; i += 2)); do
		SUM=$((SUM + 0x${1:2 * ($2 + i):4}))
	done
	while ((SUM >> 16)); do
		SUM=$(((SUM & 0xffff) + (SUM >> 16)))
	done
}

# ce_of HEX: CE, the frame as CE marking must leave it: the ECN field 11
# and, for IPv4, the header checksum recomputed; every other byte as it was.
ce_of()
{
	local h=$1 b o

	ip_locate "$h"
	o=$((2 * IPOFF))
	case $IPVER in
	4)
		printf -v b %02x $((0x${h:o + 2:2} | 3))
		h=${h:0:o + 2}$b${h:o + 4:16}0000${h:o + 24}
		ipv4_sum "$h" $IPOFF
		printf -v b %04x $((~SUM & 0xffff))
		h=${h:0:o + 20}$b${h:o + 24}
		;;
	6)
		printf -v b %02x $((0x${h:o + 2:2} | 0x30))
		h=${h:0:o + 2}$b${h:o + 4}
		;;
	esac
	CE=$h
}

# burst DEV MARKS V4-ECT V6-ECT V4-NOT-ECT V6-NOT-ECT V4-CE: one burst of
# 20 frames of 1000 bytes sent on DEV (in $NS; a0, or a device whose
# frames reach a0), queued while the port is held, each kind of frame
# given as its sendframes options (without -s and -c):
#
#   frame  0 1 2 3 | 4..8  9..13 | 14 15 | 16 17 | 18 19
#   kind   A B C D | A     B     | C  C  | D  D  | E  E
#
# Frames 0..3 find at most 3000 bytes ahead and are not looked at: they
# are the captured originals the others are compared with.  Above the
# threshold the ECT frames (A, B) must come out as ce_of their original,
# the not-ECT ones (C, D) untouched, and the frames already CE (E, built
# by sendframes with ECN 3, so the same bytes as A marked) as sent and not
# counted: ecn_marks grows by exactly 10, to MARKS.  The burst's frames
# are the last 20 of the capture ($PCAP, tcpdump -Q in on b0).  BURST_BITS,
# if set, is the ECN field expected per frame (by default ECT(0) for both
# ECT kinds).
burst()
{
	local dev=$1 marks=$2 i a bits= bad=
	local -a f want

	shift 2
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 0001ffff >/dev/null
	send_batch "$NS" "$dev" >/dev/null <<-EOF
		$1 -s 1000
		$2 -s 1000
		$3 -s 1000
		$4 -s 1000
		$1 -s 1000 -c 5
		$2 -s 1000 -c 5
		$3 -s 1000 -c 2
		$4 -s 1000 -c 2
		$5 -s 1000 -c 2
	EOF
	check_err $? "send on $dev"
	check_eq "$(class_stat "$NS" a0 1:1 qlen)" $BURST "burst from $dev held"
	send "$NS" b0 -d 01:80:c2:00:00:01 -e 0x8808 -x 00010000 >/dev/null
	wait_drained
	check_err $? "the burst from $dev did not drain"
	sleep 0.5

	mapfile -t f < <(frames_hex)
	# Ten marks a burst: MARKS / 10 bursts so far.
	check_eq "${#f[@]}" $((marks / 10 * BURST)) "frames captured"
	((RET == 0)) || return
	f=("${f[@]: -BURST}")
	for ((i = 0; i < BURST; i++)); do
		ecn_of "${f[i]}"
		bits+=$ECN
		[[ $IPVER == 4 ]] || continue
		ipv4_sum "${f[i]}" $IPOFF
		((SUM == 0xffff)) || bad+=" $i"
	done
	log_info "ECN field per frame from $dev (0 not-ECT, 2 ECT, 3 CE): $bits"
	# What each frame must be (E is A with CE, and so is A marked); the
	# first frame that is not, in its first 60 bytes.
	ce_of "${f[0]}"
	a=$CE
	ce_of "${f[1]}"
	want=("${f[@]:0:4}" $a $a $a $a $a $CE $CE $CE $CE $CE
		"${f[2]}" "${f[2]}" "${f[3]}" "${f[3]}" $a $a)
	for ((i = 4; i < BURST; i++)); do
		[[ ${f[i]} == "${want[i]}" ]] && continue
		check_err 1 "frame $i from $dev is not its original with CE set: got ${f[i]:0:120}, expected ${want[i]:0:120}"
		break
	done
	check_eq "$bits" "${BURST_BITS:-22003333333333000033}" \
		"ECN field per frame from $dev"
	check_eq "$bad" "" "frames from $dev with a bad IPv4 header checksum"
	check_eq "$(class_stat "$NS" a0 1:1 ecn_marks)" $marks \
		"ecn_marks counter after the burst from $dev"
}

# Label stacks of three (IPv4) and two (IPv6) entries, as a switch that
# pins paths with label stacks forwards them.  The IPv6 frames are ECT(1),
# L4S's codepoint, which is marked as ECT(0) is.
ecn_marks_under_labels()
{
	setup
	check_err $? "setup"
	capture_start -Q in
	check_err $? "capture"
	BURST_BITS=21003333333333000033 \
		burst a0 10 "-L 3 -4 0 -E 2" "-L 2 -6 0 -E 1" "-L 3 -4 0 -E 0" \
		"-L 2 -6 0 -E 0" "-L 3 -4 0 -E 3"
}

# qinq_frame VERSION ECN: sendframes options for a 1000-byte frame with an
# 802.1ad tag (VID 100) and an 802.1Q tag (VID 22) in the frame, then an
# IPv4 (checksummed) or IPv6 header with ECN: sendframes -v puts one tag.
# The inner TCI's low byte, 0x16, looks like ECT(0) to a TOS writer off by
# the tag: such a write changes the frame instead of being a no-op.
qinq_frame()
{
	local ip sum

	if (($1 == 4)); then
		# Version/IHL, TOS, total length 1000 - 22, ID, fragment,
		# TTL 64, protocol 253, checksum, 198.18.0.1 > 198.18.0.2.
		ip=$(printf '45%02x03d20000000040fd0000c6120001c6120002' "$2")
		ipv4_sum "$ip" 0
		printf -v sum %04x $((~SUM & 0xffff))
		ip=0800${ip:0:20}$sum${ip:24}
	else
		# Traffic class 0 but ECN, payload length 1000 - 22 - 40,
		# protocol 253, hop limit 64, 2001:db8::1 > 2001:db8::2.
		ip=86dd$(printf '60%02x000003aafd40' $(($2 << 4)))
		ip+=20010db8000000000000000000000001
		ip+=20010db8000000000000000000000002
	fi
	echo "-e 0x88a8 -x 00648100$(printf %04x 22)$ip"
}

# Two VLAN tags in the frame, neither taken into skb->vlan_tci on the way
# out: skb->protocol is the outer tag's type.  Then the same frames
# forwarded to a0 as a switch forwards them (x0 -> c0, redirected by
# mirred to a0): the receive path took the outer tag into skb->vlan_tci
# and left the network header at the inner tag, so there the IP header is
# found only by reading the frame.
ecn_marks_qinq()
{
	local specs=("$(qinq_frame 4 2)" "$(qinq_frame 6 2)" \
		"$(qinq_frame 4 0)" "$(qinq_frame 6 0)" "$(qinq_frame 4 3)")

	setup &&
		ip -n "$NS" -b - <<-EOF &&
			link add x0 type veth peer name c0
			link set x0 up
			link set c0 up
		EOF
		tc -n "$NS" -b - <<-EOF &&
			qdisc add dev c0 clsact
			filter add dev c0 ingress matchall action mirred egress redirect dev a0
		EOF
		links_wait_up "$NS" x0 c0
	check_err $? "setup"
	capture_start -Q in
	check_err $? "capture"
	burst a0 10 "${specs[@]}"
	burst x0 20 "${specs[@]}"
}

tests_run
