#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live deadlock detection (sluicectl fabric deadlock) on FC's testbed
# (selftests/topo/fc-testbed.json, 1 Mbit/s links, PFC on priority 3, XOFF
# 50 KB, XON 47 KB):
#
#   deadlock_idle       a fabric without traffic: no deadlock, exit 0,
#                       nothing stuck or holding (text and -j)
#   deadlock_storm      a PFC storm (sendframes, pause priority 3) into
#                       s1's l0 from s2 while s1-h0 sends DSCP 24 over l0:
#                       s1's class 3 on l0 is stuck, paused from outside
#                       the graph, s1's h0 account holds: no cycle, exit 0
#   deadlock_ring       routes that send every pair two hops apart
#                       clockwise (a cyclic buffer dependency: route check
#                       exit 3) and two DSCP 24 flows per switch at its
#                       links' rate: the ring deadlocks; exit 3 naming the
#                       cycle s1 l0 -> s2 l0 -> s2 l2 -> ... -> s1 l6 (8
#                       queues on 4 switches, each stuck or holding, nothing
#                       sent), still so after the senders stop; the same
#                       from collected "stats -j" files (--state, with and
#                       without --state-later)
#
# Runs in the VM (selftests/vm/run sluice_fabric_deadlock); needs veth,
# mpls_router and mpls_iptunnel (loaded here with modprobe).

ALL_TESTS="
	deadlock_idle
	deadlock_storm
	deadlock_ring
"

source "$(dirname "$0")/lib.sh"

require_cmd ip jq
sluice_load

fabric_require

export LC_ALL=C
TESTBED=$SELFTESTS_DIR/topo/fc-testbed.json
NAME=sfd
LL=3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

sc() { "$SLUICECTL" "$@"; }

ip4() { echo "10.0.$((${1#s} - 1)).$((2 * $2 + 1))"; }
# mac SW DEV: the MAC address of DEV in SW's namespace, from "ip -o link"
# ("... link/ether ADDR brd ..."): no jq, a quarter second under TCG.
mac()
{
	local out

	out=$(ip -n "$NAME-$1" -o link show dev "$2") &&
		[[ $out =~ link/ether\ ([0-9a-f:]+) ]] &&
		echo "${BASH_REMATCH[1]}"
}

# The testbed with PFC on priority 3, routes FILE loaded; down at the end.
fabric_up()
{
	local out

	out=$(sc fabric up "$TESTBED" --name $NAME --rate 1mbit --pfc $LL \
		--xoff 50Kb --xon 47Kb --headroom 20Kb 2>&1)
	check_err $? "fabric up: $out"
	defer sc fabric down --name $NAME
	out=$(sc route load "$1" --name $NAME 2>&1)
	check_err $? "route load: $out"
}

# Every pair two hops apart routed clockwise s1 -> s2 -> s3 -> s4 -> s1 over
# the first link of each doubled pair: a 4-cycle of buffer dependencies.
cw_routes()
{
	local r=$TMP/cw.routes

	sc route compute --topo "$TESTBED" --algo ecmp -o "$TMP/ecmp.routes" \
		>/dev/null 2>&1 || return 1
	awk '
	/^pairs / { print "pairs 12 paths 12 hops 16 truncated 0"; next }
	/^s[0-9] s[0-9]:/ { next }
	/^end$/ {
		print "s1 s2: 0\ns1 s3: 0 2\ns1 s4: 6"
		print "s2 s1: 0\ns2 s3: 2\ns2 s4: 2 4"
		print "s3 s1: 4 6\ns3 s2: 2\ns3 s4: 4"
		print "s4 s1: 6\ns4 s2: 6 0\ns4 s3: 4"
	}
	{ print }
	' "$TMP/ecmp.routes" >"$r" || return 1
	echo "$r"
}

# flow SW H DSW DH: a steady DSCP 24 sender at about 1 Mbit/s (its pid
# added to SENDERS), stopped at the end of the test.  sluicectl itself is
# put in the background: "fabric exec" becomes the sender, so that killing
# it stops the sender.
SENDERS=()
flow()
{
	"$SLUICECTL" fabric exec --name $NAME "$1-h$2" -- "$SENDFRAMES" -i eth0 \
		-d "$(mac "$1" "h$2")" -a "$(ip4 "$1" "$2"),$(ip4 "$3" "$4")" \
		-4 24 -s 1442 -c 0 -r 85 >/dev/null 2>&1 &
	SENDERS+=($!)
	defer kill $!
}

deadlock_idle()
{
	local r out rc res

	r=$(cw_routes) || { check_err 1 "route compute"; return; }
	fabric_up "$r"
	out=$(sc fabric deadlock --name $NAME)
	rc=$?
	check_eq "$rc" "0" "exit status: $out"
	check_eq "$(head -1 <<<"$out")" \
		"fabric $NAME: no deadlock (4 switches: 0 stuck egress classes, 0 holding ingress accounts, 0 wait-for edges)" \
		"summary"
	out=$(sc fabric deadlock --name $NAME -j --interval 200)
	check_eq "$?" "0" "exit status of -j"
	# Both values from one jq.
	mapfile -t res < <(jq -c '[.deadlock, .progress_checked, .stuck_egress, .holding_ingress, (.cycles | length)], {interval_s}' <<<"$out")
	check_eq "${res[0]}" "[false,true,0,0,0]" "-j"
	log_info "${res[1]}"
}

deadlock_storm()
{
	local r out rc i

	r=$(cw_routes) || { check_err 1 "route compute"; return; }
	fabric_up "$r"
	# s2 pauses priority 3 on link 0 for 65535 quanta, 200 times a second
	"$SLUICECTL" fabric exec --name $NAME s2 -- "$SENDFRAMES" -i l0 \
		-d 01:80:c2:00:00:01 -e 0x8808 \
		-x "$(pfc_payload 0x08 0 0 0 65535 0 0 0 0)" -c 0 -r 200 \
		>/dev/null 2>&1 &
	defer kill $!
	flow s1 0 s2 0
	for ((i = 0; i < 30; i++)); do
		sleep 1
		out=$(sc fabric deadlock --name $NAME -j --interval 300)
		rc=$?
		# Polled with bash on sluicectl's plain JSON (no jq start each
		# second); the checks below read it with jq.
		[[ $out =~ \"paused_from_outside\":([0-9]+) ]] &&
			((BASH_REMATCH[1] > 0)) && break
	done
	check_eq "$rc" "0" "exit status: $out"
	check_eq "$(jq -c '[.deadlock, .paused_from_outside, .stuck_egress]' <<<"$out")" \
		"[false,1,1]" "the stormed class: $out"
	out=$(sc fabric deadlock --name $NAME)
	check_eq "$?" "0" "exit status (text)"
	grep -q "^1 stuck egress class paused from outside the graph" <<<"$out"
	check_err $? "text: $out"
	log_info "$(head -1 <<<"$out")"
}

deadlock_ring()
{
	local r out rc i s want f res

	r=$(cw_routes) || { check_err 1 "route compute"; return; }
	sc route check --topo "$TESTBED" "$r" >/dev/null
	check_eq "$?" "3" "the clockwise routes have a CBD"
	fabric_up "$r"
	for f in "s1 0 s3 0" "s2 0 s4 0" "s3 0 s1 0" "s4 0 s2 0" \
		 "s1 1 s3 1" "s2 1 s4 1" "s3 1 s1 1" "s4 1 s2 1"; do
		# shellcheck disable=SC2086 # SW H DSW DH
		flow $f
	done
	for ((i = 0; i < 40; i++)); do
		sleep 1
		out=$(sc fabric deadlock --name $NAME -j --interval 300)
		rc=$?
		((rc != 0)) && break
	done
	check_eq "$rc" "3" "exit status with the senders running ($i s): $out"
	log_info "deadlocked within $((i + 1)) s"
	# the senders stop; the deadlock stays
	kill "${SENDERS[@]}"
	wait "${SENDERS[@]}" 2>/dev/null
	sleep 2
	out=$(sc fabric deadlock --name $NAME -j)
	check_eq "$?" "3" "exit status after the senders stopped"
	want='[true,true,1,4,8,["s1 l0 egress 3","s2 l0 ingress 3","s2 l2 egress 3","s3 l2 ingress 3","s3 l4 egress 3","s4 l4 ingress 3","s4 l6 egress 3","s1 l6 ingress 3"]]'
	# Both values from one jq, a line each.
	mapfile -t res < <(jq -c '[.deadlock, .progress_checked, (.cycles | length), .cycles[0].switches, .cycles[0].scc_size, [.cycles[0].cycle[] | "\(.switch) \(.port) \(.role) \(.prio)"]],
		([.cycles[0].cycle[] | select(.role == "egress" and .backlog == 0)] | length)' <<<"$out")
	check_eq "${res[0]}" "$want" "the cycle"
	check_eq "${res[1]}" "0" "every stuck class holds frames"
	out=$(sc fabric deadlock --name $NAME)
	check_eq "$?" "3" "exit status (text)"
	grep -q "^fabric $NAME: DEADLOCK: 1 cycle of paused queues" <<<"$out" &&
		grep -q "^  s1       l0    egress class  3  paused, .*, nothing sent$" <<<"$out"
	check_err $? "text: $out"
	log_info "$(head -1 <<<"$out")"
	# the real-host procedure: each switch's stats -j, twice
	mkdir "$TMP/st" "$TMP/st2"
	for s in s1 s2 s3 s4; do
		sc -n $NAME-$s stats -j >"$TMP/st/$s.json"
	done
	sleep 1
	for s in s1 s2 s3 s4; do
		sc -n $NAME-$s stats -j >"$TMP/st2/$s.json"
	done
	out=$(sc fabric deadlock --topo "$TESTBED" --state "$TMP/st")
	check_eq "$?" "3" "--state: $out"
	grep -q "^one snapshot: progress not checked" <<<"$out"
	check_err $? "--state says one snapshot: $out"
	out=$(sc fabric deadlock --topo "$TESTBED" --state "$TMP/st" \
		--state-later "$TMP/st2" -j)
	check_eq "$?" "3" "--state-later"
	check_eq "$(jq -c '[.progress_checked, .cycles[0].scc_size]' <<<"$out")" \
		"[true,8]" "--state-later -j"
}

tests_run
