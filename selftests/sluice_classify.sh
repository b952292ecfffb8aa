#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Classification: frames carrying each PCP (in the frame and offloaded by a
# VLAN device), DSCP (IPv4, IPv6, behind a VLAN tag), MPLS TC and
# skb->priority value land in the class the map names; frames without the
# tag go to the default class and are counted as untagged.
#
#   +------------------ ns ------------------+
#   | sendframes -> a0 [sluice 1:] ---- b0   |
#   |   a0.10 (VLAN 10, egress-qos-map) --^  |
#   +----------------------------------------+
#
# Each test sends a known number of frames per tag value and compares the
# per-class packet counters with the counts the map predicts.

ALL_TESTS="
	classify_pcp
	classify_pcp_offloaded
	classify_dscp_ipv4
	classify_dscp_ipv6
	classify_dscp_behind_vlan
	classify_dscp_under_labels
	classify_mpls_tc
	classify_priority
	classify_untagged
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq
sluice_load

# IEEE 802 Local Experimental EtherType 2: 0x88b5, the first, is PortFC's
# signal, which a sluice port sends ahead of data, unclassified.
ETH_P_EXPERIMENTAL=0x88b6

# setup N OPTIONS...: ns with a0-b0, sluice with N classes on a0.
setup()
{
	netns_add NS || return 1
	veth_add "$NS" a0 b0 || return 1
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes "$@"
}

# expect_counts MAP COUNTS N: MAP[v] is v's class, COUNTS[v] the frames
# sent with v; prints the expected packets of classes 0..N-1.
expect_counts()
{
	local -n _map=$1 _counts=$2
	local n=$3 v
	local -a exp

	for ((v = 0; v < n; v++)); do
		exp[v]=0
	done
	for v in "${!_map[@]}"; do
		exp[_map[v]]=$((exp[_map[v]] + _counts[v]))
	done
	echo "${exp[*]}"
}

# default_map R N: the default map of an R-valued tag over N classes.
default_map()
{
	local r=$1 n=$2 v out=()

	for ((v = 0; v < r; v++)); do
		out+=($((v * n / r)))
	done
	echo "${out[*]}"
}

classify_pcp()
{
	local map=(3 2 1 0 2 2 2 1) counts=() v

	setup 4 tag pcp pcp-map 0:3 1:2 2:1 3:0 4-6:2 7:1
	check_err $? "setup"
	for v in {0..7}; do
		counts[v]=$((v + 1))
	done
	for v in {0..7}; do
		echo "-v 10:$v -e $ETH_P_EXPERIMENTAL -c ${counts[v]}"
	done | send_batch "$NS" a0 >/dev/null
	check_err $? "send PCP 0..7"
	check_eq "$(class_stats "$NS" a0 packets)" \
		"$(expect_counts map counts 4)" "packets per class"
	check_eq "$(qdisc_stat "$NS" a0 untagged)" 0 "untagged"
}

# The VLAN device puts the tag in skb metadata (veth offloads it), so
# sluice must read skb->vlan_tci rather than the frame.
classify_pcp_offloaded()
{
	local v

	setup 8 tag pcp
	check_err $? "setup"
	ip -n "$NS" link add link a0 name a0.10 type vlan id 10 \
		egress-qos-map 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 &&
		ip -n "$NS" link set a0.10 up
	check_err $? "VLAN device"
	for v in {0..7}; do
		echo "-p $v -e $ETH_P_EXPERIMENTAL -c $((v + 1))"
	done | send_batch "$NS" a0.10 >/dev/null
	check_err $? "send priority 0..7"
	check_eq "$(class_stats "$NS" a0 packets)" "1 2 3 4 5 6 7 8" \
		"packets per class"
}

# dscp_test FAMILY-FLAG VLAN-ARGS: one frame per DSCP value, with a map
# that overrides a few entries of the default d * 8 / 64 = d >> 3.
dscp_test()
{
	local flag=$1 vlan=$2
	local map=($(default_map 64 8)) counts=() d

	setup 8 tag dscp dscp-map 46:7 26:5 0-3:6
	check_err $? "setup"
	map[46]=7
	map[26]=5
	map[0]=6 map[1]=6 map[2]=6 map[3]=6
	for d in {0..63}; do
		counts[d]=1
	done
	for d in {0..63}; do
		echo "$vlan $flag $d"
	done | send_batch "$NS" a0 >/dev/null
	check_err $? "send DSCP 0..63"
	check_eq "$(class_stats "$NS" a0 packets)" \
		"$(expect_counts map counts 8)" "packets per class"
	check_eq "$(qdisc_stat "$NS" a0 untagged)" 0 "untagged"
}

classify_dscp_ipv4()
{
	dscp_test -4 ""
}

classify_dscp_ipv6()
{
	dscp_test -6 ""
}

classify_dscp_behind_vlan()
{
	dscp_test -4 "-v 20:0"
}

# A path pinned by a label stack keeps the frame's DSCP in sight: IPv4
# under three labels, IPv6 under one, each DSCP to its mapped class; a
# label stack over something that is not IP is untagged.
classify_dscp_under_labels()
{
	dscp_test -4 "-L 3"
	dscp_test -6 "-L 1"
	send "$NS" a0 -m 0 -c 2 >/dev/null
	check_eq "$(qdisc_stat "$NS" a0 untagged)" 2 "MPLS over no IP: untagged"
}

classify_mpls_tc()
{
	local map=(0 0 1 1 0 2 3 3) counts=() t

	setup 4 tag mpls-tc mpls-tc-map 4:0
	check_err $? "setup"
	for t in {0..7}; do
		counts[t]=$((t + 1))
	done
	for t in {0..7}; do
		echo "-m $t -c ${counts[t]}"
	done | send_batch "$NS" a0 >/dev/null
	check_err $? "send MPLS TC 0..7"
	check_eq "$(class_stats "$NS" a0 packets)" \
		"$(expect_counts map counts 4)" "packets per class"
}

# skb->priority as prio reads it: 1:MINOR names class MINOR - 1 of this
# qdisc (1:), a minor beyond the classes goes to the default class, and
# any other value indexes the map with its low 4 bits (1000 -> entry 8).
classify_priority()
{
	local map=($(default_map 16 8)) counts=() p

	setup 8 tag priority prio-map 15:0 default 6
	check_err $? "setup"
	map[15]=0
	for p in {0..15}; do
		counts[p]=1
	done
	for p in {0..15}; do
		echo "-p $p -e $ETH_P_EXPERIMENTAL"
	done | send_batch "$NS" a0 >/dev/null
	check_err $? "send priority 0..15"
	counts[8]=4
	# 1:3 is class 2; 1:17 does not exist and goes to the default, 6.
	send_batch "$NS" a0 >/dev/null <<-EOF
	-p 1000 -e $ETH_P_EXPERIMENTAL -c 3
	-p $((0x10003)) -e $ETH_P_EXPERIMENTAL -c 5
	-p $((0x10011)) -e $ETH_P_EXPERIMENTAL -c 7
	EOF
	check_err $? "send priority 1000, 1:3, 1:17"
	map[16]=2 counts[16]=5
	map[17]=6 counts[17]=7
	check_eq "$(class_stats "$NS" a0 packets)" \
		"$(expect_counts map counts 8)" "packets per class"
}

# Frames without the tag go to the default class under every tag source
# that can be missing.
classify_untagged()
{
	setup 4 tag pcp default 2
	check_err $? "setup"
	send "$NS" a0 -4 46 -c 5 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "0 0 5 0" "untagged PCP"

	tc -n "$NS" qdisc change dev a0 root sluice tag dscp default 1
	check_err $? "change to dscp"
	send "$NS" a0 -e 0x0806 -c 3 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "0 3 5 0" "ARP under DSCP"

	tc -n "$NS" qdisc change dev a0 root sluice tag mpls-tc default 3
	check_err $? "change to mpls-tc"
	send "$NS" a0 -6 46 -c 2 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "0 3 5 2" "IPv6 under MPLS TC"
	check_eq "$(qdisc_stat "$NS" a0 untagged)" 10 "untagged"
}

tests_run
