#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcb on sluice ports (kmod/dcb.c): iproute2's dcb tool, which a veth
# alone answers "Operation not supported", works on a device while a
# sluice root qdisc is on it, and not once it is gone (deleted, replaced,
# the device moved away).  "dcb pfc set" sets the lossless priorities and,
# by its delay, the headroom, as "tc qdisc change" does, refused alike and
# whole; "dcb -s pfc show" prints the PFC frames the port sent and
# received, as tc -s and sluicectl count them; "dcb app" DSCP entries set
# the DSCP map, classify real frames, and give back the map's class when
# deleted, one entry of a request at a time.  A device whose ifindex
# another namespace's DCB device has, a dying namespace's too, gets no ops
# (dcbnl's APP table is keyed by ifindex alone), and nothing of a port
# stays in that table once its qdisc, device or module is gone: a new
# device of its ifindex gets the ops, with an empty table.  The module
# unloads clean after all of it.
#
#   NS:  a0 [sluice] ---- b0          most tests
#   H1: h1 ---- p1 [sluice pfc 3] SW p2 [sluice rate 1mbit] ---- h2 :H2
#                                      (dcb_counters)
#
# Debian 12's dcb (iproute2 6.1) takes a set's answer from the ack of the
# read before it, so it reports a refused set as done; selftests/tools/
# dcbraw sends the set alone and prints the kernel's answer.

ALL_TESTS="
	dcb_only_with_sluice
	dcb_pfc_set
	dcb_delay_headroom
	dcb_delay_mtu_bound
	dcb_counters
	dcb_app_dscp
	dcb_app_restores
	dcb_replace_move
	dcb_ifindex_alias
	dcb_ifindex_dying
	dcb_unload
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip dcb dmesg
sluice_load
sluicectl_require

DCBRAW=$SELFTESTS_DIR/tools/dcbraw
[[ -x $DCBRAW ]] || skip_all "$DCBRAW is not built"

# The default DSCP map of 8 classes, as tc prints a map (text leaves a
# default map out; a map made the user's prints whole).
DSCP_DEFAULT="0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7"

# dcbraw NS DEV ARGS...: prints "error=E status=S".
dcbraw()
{
	local ns=$1

	shift
	ip netns exec "$ns" "$DCBRAW" "$@"
}

# pfc_read NS DEV: "dcb -s pfc show" into PFC[KEY]: pfc-cap,
# macsec-bypass, delay, and per priority P prio-pfc:P, requests:P,
# indications:P.  Fails if dcb does.
declare -A PFC
pfc_read()
{
	local -a w
	local i key rc=1

	PFC=()
	while read -ra w; do
		case ${w[0]} in
		pfc-cap)
			for ((i = 0; i + 1 < ${#w[@]}; i += 2)); do
				PFC[${w[i]}]=${w[i + 1]}
			done ;;
		prio-pfc|requests|indications)
			for ((i = 1; i < ${#w[@]}; i++)); do
				key=${w[0]}:${w[i]%%:*}
				PFC[$key]=${w[i]#*:}
			done ;;
		rc)
			rc=${w[1]} ;;
		esac
	done < <(dcb -n "$1" -s pfc show dev "$2" 2>&1; echo "rc $?")
	((rc == 0))
}

# qdisc_line NS DEV: the text of DEV's root qdisc, with a space at its end.
qdisc_line()
{
	local line

	line=$(tc -n "$1" qdisc show dev "$2" root) || return
	echo "${line% } "
}

# app_show NS DEV: "dcb -N app show" of DEV with its errors, then "rc" and
# dcb's exit status: "rc 0" alone is an empty APP table.
app_show()
{
	dcb -n "$1" -N app show dev "$2" 2>&1
	echo "rc $?"
}

# ifindex_of NS DEV: DEV's ifindex.
ifindex_of()
{
	[[ $(ip -n "$1" -o link show dev "$2") =~ ^([0-9]+): ]] &&
		echo "${BASH_REMATCH[1]}"
}

# alias_free NS DEV IFINDEX: DEV, a new veth of IFINDEX, with a sluice
# root; dcbnl's list must hold nothing of an earlier device of IFINDEX
# (it would make DEV aliased, without ops): "dcb app show" works, empty.
alias_free()
{
	ip -n "$1" link add "$2" index "$3" type veth peer name "$2"p &&
		tc -n "$1" qdisc add dev "$2" root handle 1: sluice
	check_err $? "sluice on $2, ifindex $3"
	check_eq "$(app_show "$1" "$2")" "rc 0" \
		"dcb app show on a new device of ifindex $3"
}

# mark: a line in the kernel log; kmsg_since prints what came after it.
MARK=
mark()
{
	MARK="sluice_dcb-mark-$RANDOM$RANDOM"
	echo "<6>$MARK" >/dev/kmsg
}

kmsg_since()
{
	dmesg | sed -n "/$MARK/,\$p"
}

# setup_ns [OPTIONS...]: NS with a0 - b0, a0 a sluice root with OPTIONS.
setup_ns()
{
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice "$@" &&
		defer tc -n "$NS" qdisc del dev a0 root
}

# No ops on a plain veth; ops while a sluice root is on it, and only then.
dcb_only_with_sluice()
{
	local out

	netns_veth NS a0 b0
	check_err $? "setup"
	out=$(dcb -n "$NS" pfc show dev a0 2>&1)
	check_fail $? "dcb pfc show on a plain veth"
	check_eq "$out" "Attribute read: Operation not supported" \
		"dcb pfc show on a plain veth"
	check_eq "$(dcbraw "$NS" a0 pfc 8 0)" "error=-95 status=0" \
		"a set on a plain veth"

	tc -n "$NS" qdisc add dev a0 root handle 1: sluice rate 100mbit
	check_err $? "sluice"
	out=$(dcb -n "$NS" pfc show dev a0)
	check_err $? "dcb pfc show on a sluice port"
	check_eq "$out" "pfc-cap 8 macsec-bypass off delay 0 "$'\n'"prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off " \
		"dcb pfc show on a sluice port"
	check_eq "$(dcb -n "$NS" dcbx show dev a0)" "host ieee " "dcbx"
	check_eq "$(app_show "$NS" a0)" "rc 0" "empty APP table"
	# Only the root is a port: a sluice under another qdisc gives no ops.
	tc -n "$NS" qdisc add dev b0 root handle 1: prio &&
		tc -n "$NS" qdisc add dev b0 parent 1:1 handle 2: sluice
	check_err $? "sluice under prio"
	out=$(dcb -n "$NS" pfc show dev b0 2>&1)
	check_fail $? "dcb pfc show with sluice under prio"
	check_eq "$out" "Attribute read: Operation not supported" \
		"dcb pfc show with sluice under prio"

	tc -n "$NS" qdisc del dev a0 root
	check_err $? "qdisc del"
	out=$(dcb -n "$NS" pfc show dev a0 2>&1)
	check_eq "$out" "Attribute read: Operation not supported" \
		"dcb pfc show once the qdisc is gone"
}

# prio-pfc is "tc qdisc change pfc": the same checks, whole or nothing.
dcb_pfc_set()
{
	local line

	setup_ns rate 100mbit xoff 10000 headroom 9000 &&
		tc -n "$NS" qdisc add dev b0 root handle 1: sluice
	check_err $? "setup"

	dcb -n "$NS" pfc set dev a0 prio-pfc 3:on 5:on
	check_err $? "dcb pfc set prio-pfc"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" pfc 3,5 "* && $line == *" headroom 9000b "* ]]
	check_err $? "tc after prio-pfc 3:on 5:on (headroom kept): $line"
	pfc_read "$NS" a0
	check_eq "${PFC[prio-pfc:3]} ${PFC[prio-pfc:5]} ${PFC[prio-pfc:4]}" \
		"on on off" "dcb after prio-pfc 3:on 5:on"

	# The watchdog watches lossless priorities only: 5 must stay one.
	# Refused whole: neither pfc nor the headroom the delay would set.
	tc -n "$NS" qdisc change dev a0 root sluice watchdog 5
	check_err $? "watchdog 5"
	mark
	check_eq "$(dcbraw "$NS" a0 pfc 0x08 800)" "error=0 status=-22" \
		"prio 5 off and a delay, with the watchdog on 5"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" pfc 3,5 "* && $line == *" headroom 9000b "* ]]
	check_err $? "tc after a refused set: $line"
	[[ $(kmsg_since) == *"a0: sch_sluice: dcb pfc set refused: watchdog watches lossless priorities only: add them to pfc (-22)"* ]]
	check_err $? "the reason in the log"

	# A port without a rate takes no PFC setting, from tc or dcb.
	check_eq "$(dcbraw "$NS" b0 pfc 0x08 0)" "error=0 status=-22" \
		"prio-pfc on a port without a rate"
	[[ $(qdisc_line "$NS" b0) == *" pfc none "* ]]
	check_err $? "b0's pfc after a refused set"
	[[ $(kmsg_since) == *"b0: sch_sluice: dcb pfc set refused: pfc needs the link rate (-22)"* ]]
	check_err $? "b0's reason in the log"
	check_eq "$(dcbraw "$NS" a0 pfc 0x28 0 1)" "error=0 status=-95" \
		"macsec-bypass"

	tc -n "$NS" qdisc change dev a0 root sluice watchdog none &&
		dcb -n "$NS" pfc set dev a0 prio-pfc all:off
	check_err $? "prio-pfc all:off"
	[[ $(qdisc_line "$NS" a0) == *" pfc none "* ]]
	check_err $? "tc after prio-pfc all:off"
}

# delay, in bit times, is the headroom's cable allowance: the headroom of
# "xoff auto cable M" less its other terms (2 (MTU + 14 + 64) + 3840).
dcb_delay_headroom()
{
	local line

	# 100 Mbit/s over 100 m: 500 ns each way, 100 bits the round trip.
	setup_ns rate 100mbit limit 200000 xoff auto cable 100 &&
		tc -n "$NS" qdisc add dev b0 root handle 1: sluice rate 100mbit
	check_err $? "setup"
	[[ $(qdisc_line "$NS" a0) == *" headroom 7009b "* ]]
	check_err $? "xoff auto's headroom"

	pfc_read "$NS" b0
	check_eq "${PFC[delay]}" 0 "delay of headroom 0"
	dcb -n "$NS" pfc set dev b0 delay 100
	check_err $? "dcb pfc set delay"
	line=$(qdisc_line "$NS" b0)
	[[ $line == *" headroom 7009b "* ]]
	check_err $? "headroom of delay 100: $line"
	# Kept in whole bytes: 13 bytes shows as 104 bit times.
	pfc_read "$NS" b0
	check_eq "${PFC[delay]}" 104 "delay shown"
	pfc_read "$NS" a0
	check_eq "${PFC[delay]}" 104 "xoff auto's headroom as a delay"
	# dcb sends the delay it read back: the headroom stays.
	dcb -n "$NS" pfc set dev b0 prio-pfc 3:off
	check_err $? "dcb pfc set prio-pfc"
	[[ $(qdisc_line "$NS" b0) == *" headroom 7009b "* ]]
	check_err $? "headroom after a set without a delay"
	# The other terms follow the MTU: 2 (1000 + 78) + 3840 = 5996.
	ip -n "$NS" link set b0 mtu 1000 &&
		pfc_read "$NS" b0
	check_eq "${PFC[delay]}" $(((7009 - 5996) * 8)) "delay at MTU 1000"
}

# A dummy has no maximum MTU: the headroom's other terms, 2 (MTU + 78) +
# 3840, may pass 4 GiB.  They are not wrapped, and a delay whose headroom
# would pass tc's bound (2^32 / 32 - 1 bytes, "below 128 MiB") is refused.
dcb_delay_mtu_bound()
{
	local line

	netns_add NS && ip -n "$NS" link add d0 type dummy &&
		tc -n "$NS" qdisc add dev d0 root handle 1: sluice rate 100mbit \
			xoff 10000 headroom 9000 &&
		ip -n "$NS" link set d0 mtu 2147483647
	check_err $? "setup"
	pfc_read "$NS" d0
	check_eq "${PFC[delay]}" 0 "delay of headroom 9000 at MTU 2^31 - 1"
	mark
	check_eq "$(dcbraw "$NS" d0 pfc 0 8)" "error=0 status=-22" \
		"delay 8 at MTU 2^31 - 1"
	[[ $(qdisc_line "$NS" d0) == *" headroom 9000b "* ]]
	check_err $? "the headroom after a refused delay"
	[[ $(kmsg_since) == *"d0: sch_sluice: dcb pfc set refused: the headroom of that delay at this MTU is above 128 MiB (-22)"* ]]
	check_err $? "the reason in the log"

	# At MTU 67106865 the other terms are 134217726 bytes: delay 8 gives
	# the bound itself, delay 16 a byte more.
	ip -n "$NS" link set d0 mtu 67106865
	check_err $? "MTU 67106865"
	check_eq "$(dcbraw "$NS" d0 pfc 0 16)" "error=0 status=-22" \
		"delay 16: a byte above the bound"
	check_eq "$(dcbraw "$NS" d0 pfc 0 8)" "error=0 status=0" \
		"delay 8: the bound"
	line=$(qdisc_line "$NS" d0)
	[[ $line == *" headroom 134217727b "* ]]
	check_err $? "the headroom of delay 8: $line"
	pfc_read "$NS" d0
	check_eq "${PFC[delay]}" 8 "delay shown"
}

# requests and indications are the PFC frames p1 sent and received per
# priority, the sums tc -s (xoff_tx + xon_tx, pfc_rx + xon_rx) and
# sluicectl's SAI names count.
dcb_counters()
{
	local i p1mac sai p

	h1_sw_h2 &&
		tc -n "$SW" qdisc add dev p1 root handle 1: sluice rate 10mbit \
			pfc 3 xoff 6000 xon 3000 pause-time 1000 &&
		tc -n "$SW" qdisc add dev p2 root handle 1: sluice rate 1mbit &&
		links_wait_up "$H1" h1 && links_wait_up "$SW" p1 p2 &&
		links_wait_up "$H2" h2 &&
		[[ $(ip -n "$SW" link show p1) =~ link/ether\ ([0-9a-f:]+) ]] &&
		p1mac=${BASH_REMATCH[1]}
	check_err $? "setup"

	# Pauses received: priority 3 for 100 quanta, then resumed.
	send_batch "$H1" h1 >/dev/null <<-EOF
		-d 01:80:c2:00:00:01 -e 0x8808 -x $(pfc_payload 0x08 0 0 0 100 0 0 0 0)
		-d 01:80:c2:00:00:01 -e 0x8808 -x $(pfc_payload 0x08 0 0 0 0 0 0 0 0)
	EOF
	check_err $? "send PFC"
	# Pauses sent: 20 frames of priority 3 past the 1 Mbit/s p2.
	send "$H1" h1 -d "$p1mac" -a 198.18.1.1,198.18.2.1 -4 24 -s 1000 \
		-c 20 >/dev/null
	check_err $? "send"
	for ((i = 0; i < 50; i++)); do
		class_read "$SW" p2 && [[ ${CS[1:4 packets]} == 20 ]] && break
		nap 0.1
	done
	for ((i = 0; i < 50; i++)); do
		class_read "$SW" p1 && [[ ${CS[1:4 xon_tx]} == 1 ]] && break
		nap 0.1
	done
	pfc_read "$SW" p1
	check_err $? "dcb -s pfc show"
	log_info "p1: requests ${PFC[requests:3]} (xoff_tx ${CS[1:4 xoff_tx]}, xon_tx ${CS[1:4 xon_tx]}), indications ${PFC[indications:3]}"
	((${CS[1:4 xoff_tx]} > 0))
	check_err $? "p1 sent no pause"
	check_eq "${PFC[requests:3]}" $((CS[1:4 xoff_tx] + CS[1:4 xon_tx])) \
		"requests of priority 3"
	check_eq "${PFC[indications:3]}" 2 "indications of priority 3"
	check_eq "${CS[1:4 pfc_rx]} ${CS[1:4 xon_rx]}" "1 1" "tc's pfc_rx xon_rx"
	for p in 0 1 2 4 5 6 7; do
		check_eq "${PFC[requests:$p]} ${PFC[indications:$p]}" "0 0" \
			"priority $p"
	done
	# sluicectl's SAI names count the same.
	sai=$("$SLUICECTL" -n "$SW" stats --format sai p1)
	check_err $? "sluicectl stats"
	[[ $sai == *"SAI_PORT_STAT_PFC_3_TX_PKTS ${PFC[requests:3]}"* &&
	   $sai == *"SAI_PORT_STAT_PFC_3_RX_PKTS ${PFC[indications:3]}"* ]]
	check_err $? "sluicectl stats --format sai: $sai"
}

# DSCP entries set the DSCP map, classify frames, and are dcb's: tc may
# not change them; several priorities for a DSCP: the highest.
dcb_app_dscp()
{
	local out line

	setup_ns && tc -n "$NS" qdisc add dev b0 root handle 1: sluice classes 4
	check_err $? "setup"

	dcb -n "$NS" app add dev a0 dscp-prio 10:3
	check_err $? "dcb app add"
	check_eq "$(app_show "$NS" a0)" "dscp-prio 10:3 "$'\n'"rc 0" \
		"dcb app show"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" dscp-map 0-7:0 8-9:1 10:3 11-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7 "* ]]
	check_err $? "tc's dscp-map: $line"
	# A frame of DSCP 10 is in class 3 (1:4), one of DSCP 11 in class 1.
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 10 -c 3
		-4 11 -c 2
	EOF
	check_err $? "send"
	class_read "$NS" a0
	check_eq "${CS[1:4 packets]} ${CS[1:2 packets]}" "3 2" \
		"classes 3 and 1 sent"

	out=$(tc -n "$NS" qdisc change dev a0 root sluice dscp-map 10:4 2>&1)
	check_fail $? "tc changed an entry dcb sets"
	[[ $out == *"sch_sluice: a dscp-map entry that dcb app sets changes only with dcb app"* ]]
	check_err $? "tc's message: $out"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice dscp-map default 2>&1)
	check_fail $? "tc reset a map dcb sets"
	[[ $out == *"sch_sluice: dcb app entries set the dscp-map: it cannot return to the default"* ]]
	check_err $? "tc's message: $out"
	# The other entries are tc's to change.
	tc -n "$NS" qdisc change dev a0 root sluice dscp-map 11:2
	check_err $? "tc changed another entry"

	# replace adds 10:6, then deletes 10:3.
	dcb -n "$NS" app replace dev a0 dscp-prio 10:6 &&
		dcb -n "$NS" app add dev a0 dscp-prio 10:2
	check_err $? "dcb app replace, add"
	check_eq "$(app_show "$NS" a0)" "dscp-prio 10:2 10:6 "$'\n'"rc 0" \
		"dcb app show"
	[[ $(qdisc_line "$NS" a0) == *" 8-9:1 10:6 11:2 12-15:1 "* ]]
	check_err $? "DSCP 10 in class 6"
	dcb -n "$NS" app del dev a0 dscp-prio 10:6
	check_err $? "dcb app del"
	[[ $(qdisc_line "$NS" a0) == *" 8-9:1 10-11:2 12-15:1 "* ]]
	check_err $? "DSCP 10 in class 2"

	# Only DSCP entries, and only for classes there are.
	check_eq "$(dcbraw "$NS" a0 app-add 1 0x8906 3)" "error=0 status=-95" \
		"an EtherType entry"
	check_eq "$(dcbraw "$NS" a0 cee-app 0 0x8906 8)" "error=-95 status=0" \
		"a CEE APP entry"
	check_eq "$(dcbraw "$NS" b0 app-add 5 10 5)" "error=0 status=-22" \
		"DSCP to priority 5 of 4 classes"
	check_eq "$(dcbraw "$NS" a0 app-add 5 10 2)" "error=0 status=-17" \
		"an entry twice"
	check_eq "$(dcbraw "$NS" a0 app-del 5 12 2)" "error=0 status=-2" \
		"an entry that is not there"
	check_eq "$(app_show "$NS" a0)" "dscp-prio 10:2 "$'\n'"rc 0" \
		"dcb app show after refusals"
	check_eq "$(app_show "$NS" b0)" "rc 0" "b0's APP table"

	# One entry at a time: dcbnl applies 10:1, stops at 11:7 (no class 7
	# of 4) and does not undo 10:1.
	out=$(dcb -n "$NS" app add dev b0 dscp-prio 10:1 11:7 2>&1)
	check_fail $? "dcb app add 10:1 11:7 on 4 classes"
	check_eq "$out" "Attribute write: Invalid argument" "dcb's message"
	check_eq "$(app_show "$NS" b0)" "dscp-prio 10:1 "$'\n'"rc 0" \
		"the first entry stays"
	line=$(qdisc_line "$NS" b0)
	[[ $line == *" dscp-map 0-9:0 10:1 11-15:0 16-31:1 32-47:2 48-63:3 "* ]]
	check_err $? "b0's dscp-map: $line"
}

# What a DSCP goes back to: the class it had, or the default map.
dcb_app_restores()
{
	local line out

	setup_ns dscp-map 10:5
	check_err $? "setup"
	dcb -n "$NS" app add dev a0 dscp-prio 10:2 dscp-prio 12:7
	check_err $? "dcb app add"
	[[ $(qdisc_line "$NS" a0) == *" 8-9:1 10:2 11:1 12:7 13-15:1 "* ]]
	check_err $? "entries set"
	dcb -n "$NS" app del dev a0 dscp-prio 10:2 dscp-prio 12:7
	check_err $? "dcb app del"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" 8-9:1 10:5 11-15:1 "* ]]
	check_err $? "the user's map back: $line"

	# Fewer classes: what a held DSCP goes back to must stay a class.
	dcb -n "$NS" app add dev a0 dscp-prio 10:2
	check_err $? "dcb app add 10:2"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice classes 4 \
		dscp-map 0-9:0 11-63:0 2>&1)
	check_fail $? "classes 4 with DSCP 10 going back to class 5"
	check_eq "$out" "Error: sch_sluice: a dscp-map entry that dcb app sets would go back to a class beyond the number of classes." \
		"tc's message"
	dcb -n "$NS" app del dev a0 dscp-prio 10:2
	check_err $? "dcb app del 10:2"

	# A default map is default again once its last entry is gone.
	tc -n "$NS" qdisc change dev a0 root sluice dscp-map default &&
		dcb -n "$NS" app add dev a0 dscp-prio 40:1 dscp-prio 41:1
	check_err $? "default map, dcb app add"
	dcb -n "$NS" app del dev a0 dscp-prio 40:1
	check_err $? "dcb app del 40:1"
	[[ $(qdisc_line "$NS" a0) == *" 40:5 41:1 42-47:5 "* ]]
	check_err $? "DSCP 40 back to its default class"
	dcb -n "$NS" app flush dev a0
	check_err $? "dcb app flush"
	[[ $(qdisc_line "$NS" a0) != *dscp-map* ]]
	check_err $? "the map is default again"
	check_eq "$(app_show "$NS" a0)" "rc 0" "dcb app show"

	# tc changing the classes makes the map the user's as it is: DSCP 40
	# goes back to its class in the 8-class default, and the map stays.
	dcb -n "$NS" app add dev a0 dscp-prio 40:1 dscp-prio 41:1 &&
		tc -n "$NS" qdisc change dev a0 root sluice classes 16
	check_err $? "dcb app add, classes 16"
	dcb -n "$NS" app del dev a0 dscp-prio 40:1
	check_err $? "dcb app del 40:1"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" dscp-map 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40:5 41:1 42-47:5 48-55:6 56-63:7 "* ]]
	check_err $? "DSCP 40 back to the 8-class default: $line"
	dcb -n "$NS" app del dev a0 dscp-prio 41:1
	check_err $? "dcb app del 41:1"
	line=$(qdisc_line "$NS" a0)
	[[ $line == *" classes 16 "* && $line == *" dscp-map $DSCP_DEFAULT "* ]]
	check_err $? "the map stays the user's: $line"
	# Of a default map, a held DSCP goes back to its default class as of
	# the classes change: DSCP 40 of 16 classes to 10, which 4 lack.
	tc -n "$NS" qdisc change dev a0 root sluice dscp-map default &&
		dcb -n "$NS" app add dev a0 dscp-prio 40:1
	check_err $? "default map of 16 classes, dcb app add 40:1"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice classes 4 \
		dscp-map 0-39:0 41-63:0 2>&1)
	check_fail $? "classes 4 with DSCP 40 going back to class 10"
	[[ $out == *"would go back to a class beyond the number of classes"* ]]
	check_err $? "tc's message: $out"
}

# The ops stay while a sluice root replaces another (its entries go), and
# go with the last one, or with the device into another namespace.
dcb_replace_move()
{
	local out idx

	setup_ns rate 100mbit xoff 10000 pfc 3 && netns_add NS2
	check_err $? "setup"
	dcb -n "$NS" app add dev a0 dscp-prio 10:3
	check_err $? "dcb app add"
	# Another handle: a new qdisc, not a change of this one.
	tc -n "$NS" qdisc replace dev a0 root handle 2: sluice rate 100mbit
	check_err $? "sluice replaces sluice"
	pfc_read "$NS" a0
	check_err $? "dcb after a sluice replaced sluice"
	check_eq "${PFC[prio-pfc:3]}" off "the new qdisc's pfc"
	check_eq "$(app_show "$NS" a0)" "rc 0" "the old qdisc's entries"
	[[ $(qdisc_line "$NS" a0) != *dscp-map* ]]
	check_err $? "the new qdisc's map"

	dcb -n "$NS" app add dev a0 dscp-prio 12:1 &&
		tc -n "$NS" qdisc replace dev a0 root handle 3: pfifo
	check_err $? "dcb app add, pfifo replaces sluice"
	out=$(dcb -n "$NS" pfc show dev a0 2>&1)
	check_eq "$out" "Attribute read: Operation not supported" \
		"dcb with pfifo"

	# The entry went with the ops: a new sluice root gets them, empty.
	tc -n "$NS" qdisc replace dev a0 root handle 4: sluice
	check_err $? "sluice replaces pfifo"
	check_eq "$(app_show "$NS" a0)" "rc 0" "a new sluice root's APP table"

	idx=$(ifindex_of "$NS" a0)
	dcb -n "$NS" app add dev a0 dscp-prio 10:3 &&
		ip -n "$NS" link set a0 netns "$NS2"
	check_err $? "dcb app add, move"
	out=$(dcb -n "$NS2" app show dev a0 2>&1)
	check_eq "$out" "Attribute read: Operation not supported" \
		"dcb in the new namespace"
	alias_free "$NS" z0 "$idx"
}

# Devices of one ifindex in two namespaces: the second gets no ops.
dcb_ifindex_alias()
{
	local i n

	netns_add X && netns_add Y
	check_err $? "namespaces"
	ip -n "$X" link add x0 index 4242 type veth peer name x1 &&
		ip -n "$Y" link add y0 index 4242 type veth peer name y1 &&
		tc -n "$X" qdisc add dev x0 root handle 1: sluice &&
		mark &&
		tc -n "$Y" qdisc add dev y0 root handle 1: sluice
	check_err $? "setup"
	check_eq "$(app_show "$X" x0)" "rc 0" "dcb on the first"
	check_eq "$(app_show "$Y" y0)" "Attribute read: Operation not supported"$'\n'"rc 1" \
		"dcb on the second"
	[[ $(kmsg_since) == *"y0: sch_sluice: no dcb: a device of ifindex 4242 in another namespace has DCB ops"* ]]
	check_err $? "the reason in the log"
	# Rate-limited, 10 lines in 5 s: 60 more qdiscs in well under 5 s
	# log 20 lines at most (a window an earlier line began may end).
	for ((i = 0; i < 60; i++)); do
		echo "qdisc replace dev y0 root handle $((i + 2)): sluice"
	done | tc -n "$Y" -batch -
	check_err $? "60 sluice roots on y0"
	n=$(kmsg_since | grep -c "y0: sch_sluice: no dcb:")
	((n >= 1 && n <= 20))
	check_err $? "$n lines of no dcb for 61 qdiscs"
	log_info "$n lines of no dcb for 61 qdiscs"
	# Decided when a qdisc is created: the next one gets them.
	tc -n "$X" qdisc del dev x0 root &&
		tc -n "$Y" qdisc replace dev y0 root handle 2: sluice
	check_err $? "x0's qdisc gone, y0's replaced"
	dcb -n "$Y" app add dev y0 dscp-prio 10:3
	check_err $? "dcb on the second now"
}

# sluice_roots DEV N: a tc batch that adds and deletes a sluice root on
# DEV N times.
sluice_roots()
{
	local i

	for ((i = 0; i < $2; i++)); do
		echo "qdisc add dev $1 root handle 1: sluice"
		echo "qdisc del dev $1 root"
	done
}

# A namespace being deleted leaves the list of namespaces before its
# devices go: while they are there, a device of the same ifindex elsewhere
# gets no ops (and no kernel warning); once they are gone, it does.  x0's
# peer is in this namespace: it goes when x0 is unregistered.
dcb_ifindex_dying()
{
	local i n t pid peer=sdcbx$$ taint

	netns_add X && netns_add Y
	check_err $? "namespaces"
	ip -n "$X" link add x0 index 4243 type veth peer name "$peer" netns 1 &&
		ip -n "$Y" link add y0 index 4243 type veth peer name y1 &&
		tc -n "$X" qdisc add dev x0 root handle 1: sluice &&
		tc -n "$Y" qdisc add dev y0 root handle 1: sluice
	check_err $? "setup"
	check_eq "$(app_show "$Y" y0)" "Attribute read: Operation not supported"$'\n'"rc 1" \
		"y0's dcb while x0 is there"
	tc -n "$Y" qdisc del dev y0 root
	# Sluice roots come and go on y0, back to back, while X is deleted:
	# as many as 50 take 3 s for, timed here (about 1.5 s: tc's start
	# counts too), so that a debug kernel is not kept for minutes.  The
	# kernel's W taint says whether a WARN fired.
	t=${EPOCHREALTIME/./}
	tc -n "$Y" -batch - <<<"$(sluice_roots y0 50)"
	check_err $? "50 sluice roots on y0"
	t=$((${EPOCHREALTIME/./} - t))
	n=$((3000000 * 50 / (t + 1)))
	((n = n < 50 ? 50 : n > 1500 ? 1500 : n))
	log_info "$n sluice roots on y0 (50 took $((t / 1000)) ms)"
	taint=$(</proc/sys/kernel/tainted)
	((taint & 512)) && log_info "the kernel was W-tainted before"
	sluice_roots y0 "$n" | tc -n "$Y" -batch - &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		[[ $(tc -n "$Y" qdisc show dev y0) == *sluice* ]] && break
		nap 0.02
	done
	ip netns del "$X"
	wait "$pid"
	check_err $? "tc -batch of sluice roots on y0"
	for ((i = 0; i < 50; i++)); do
		[[ -e /sys/class/net/$peer ]] || break
		nap 0.1
	done
	[[ ! -e /sys/class/net/$peer ]]
	check_err $? "x0 still there"
	tc -n "$Y" qdisc add dev y0 root handle 1: sluice
	check_err $? "sluice on y0"
	check_eq "$(app_show "$Y" y0)" "rc 0" "y0's dcb once x0 is gone"
	((taint & 512 || !($(</proc/sys/kernel/tainted) & 512)))
	check_err $? "a kernel warning"
}

# Ports with entries go with their namespace; the module unloads clean.
dcb_unload()
{
	local ns_name idx

	setup_ns && dcb -n "$NS" app add dev a0 dscp-prio 10:3 &&
		idx=$(ifindex_of "$NS" a0)
	check_err $? "setup"
	ns_name=$NS
	ip netns del "$ns_name"
	for _ in $(seq 50); do
		[[ "$(cat /sys/module/sch_sluice/refcnt)" == 0 ]] && break
		nap 0.1
	done
	mark
	rmmod sch_sluice
	check_err $? "rmmod"
	[[ $(kmsg_since) != *WARNING* ]]
	check_err $? "a warning at unload"
	insmod "$SLUICE_KO"
	check_err $? "insmod"
	netns_add NS3
	check_err $? "a namespace"
	alias_free "$NS3" z0 "$idx"
}

tests_run
