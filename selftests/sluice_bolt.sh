#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TCP-Bolt on a fabric's hosts (sluicectl host, fabric up --ecn and
# --host-profile, experiment bolt).
#
#   x-h0..x-h3 -- x --l0-- m --l1-- y -- y-h0..y-h4     every port 4mbit,
#                                                        PFC on priority 0
#
# x's frames to y carry one MPLS label on l0 (m's out port) and none on l1.
#
#   bolt_profile       "host bolt" with a given round trip: every host's
#                      routes out of eth0 read "congctl lock dctcp features
#                      ecn initcwnd 30 initrwnd 30" in "ip route show";
#                      applied again it changes nothing; "host show" prints
#                      it; "host off" gives back exactly the routes before;
#                      bad arguments are refused before anything changes
#   bolt_first_window  the receiver's ACKs delayed 300 ms (netem on its eth0),
#                      so that a round trip is longer than the first window
#                      takes to leave: a capture on the sender counts the
#                      data segments sent before the first ACK of data
#                      comes back, 30 with the profile and 10 (the kernel's
#                      own) without
#   bolt_dctcp_ce      fabric up --ecn 3000 --host-profile bolt: three DCTCP
#                      flows from x's hosts to y's for 6 s meet on l0, where
#                      every frame is MPLS-labelled: x's l0 class marks CE
#                      (ecn_marks > 0), the senders' TCP saw CE echoed
#                      (TcpExtTCPDeliveredCE > 0), nothing is dropped, and
#                      the flows deliver at least 85 % of the link
#   bolt_fairness      experiment bolt --parts fairness (unit 2 s): with PFC,
#                      B keeps about half of A's link (per-port fairness,
#                      share >= 0.35 with 5 flows); TCP-Bolt shares it per
#                      flow (Jain's index >= 0.9 with 5 flows)
#
# Runs in the VM (selftests/vm/run sluice_bolt); needs veth, mpls_router,
# mpls_iptunnel, tcp_dctcp and sch_netem.

ALL_TESTS="
	bolt_profile
	bolt_first_window
	bolt_dctcp_ce
	bolt_fairness
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq nc tcpdump nstat
sluice_load

fabric_require
for m in tcp_dctcp sch_netem; do
	modprobe "$m" 2>/dev/null || skip_all "cannot load $m"
done

export LC_ALL=C
NAME=sbt
TOPO=$SELFTESTS_DIR/topo/bolt-line.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
QOPTS="--rate 4mbit --pfc 0 --limit 64kb --xoff 20000 --xon 17000"

sc() { "$SLUICECTL" "$@"; }

sc route compute --topo "$TOPO" --algo ecmp -o "$TMP/routes" >/dev/null ||
	skip_all "cannot compute the routes"

# bolt_up [OPTIONS]: the fabric with its routes, down when the test ends.
bolt_up()
{
	local out

	out=$(sc fabric up "$TOPO" --name $NAME $QOPTS "$@" 2>&1)
	check_err $? "fabric up: $out"
	defer sc fabric down --name $NAME
	((RET)) && return 1
	log_info "$out"
	out=$(sc route load "$TMP/routes" --name $NAME 2>&1)
	check_err $? "route load: $out"
	((RET == 0))
}

hroutes() { ip -n "$NAME-$1" route show; }

# wait_listen NS: until something listens on TCP port 5001 in NS (5 s).
wait_listen()
{
	local i

	for ((i = 0; i < 50; i++)); do
		[[ -n $(ip netns exec "$1" ss -Hltn 'sport = :5001') ]] && return 0
		nap 0.1
	done
	return 1
}

bolt_profile()
{
	local before after out h

	bolt_up || return
	before=$(hroutes x-h0)
	out=$(sc host bolt --fabric $NAME 2>&1)
	check_eq "$?:${out%%$'\n'*}" "2:sluicectl host bolt: --rate RATE is needed: the hosts' link rate (as tc writes it: 10mbit, 25gbit)" \
		"host bolt without a rate"
	out=$(sc host bolt --dev eth0 --rate 4mbit 2>&1)
	check_eq "$?:${out%%$'\n'*}" "2:sluicectl host bolt: the round trip: --rtt TIME, or --ping ADDR to measure it" \
		"host bolt --dev without a round trip"
	check_eq "$(hroutes x-h0)" "$before" "routes after refused commands"

	# 4 Mbit/s x 86 ms = 43000 bytes: 30 segments of 1448
	out=$(sc host bolt --fabric $NAME --rate 4mbit --rtt 86ms -j)
	check_err $? "host bolt: $out"
	check_eq "$(jq -c '[.hosts, .routes, .changed, .initcwnd, .congctl]' <<<"$out")" \
		'[9,18,18,30,"dctcp"]' "host bolt -j"
	for h in x-h0 y-h4; do
		[[ $(hroutes $h) == *"default via "*" dev eth0 proto 177 initcwnd 30 features ecn initrwnd 30 congctl lock dctcp"* ]]
		check_err $? "$h's default route: $(hroutes $h)"
	done
	out=$(sc host bolt --fabric $NAME --rate 4mbit --rtt 86ms -j)
	check_eq "$(jq -c '[.changed, .unchanged]' <<<"$out")" '[0,18]' \
		"host bolt applied again"
	out=$(sc host show --fabric $NAME x-h1)
	check_eq "${out%%$'\n'*}" "x-h1: default via 10.0.0.2 dev eth0 congctl lock dctcp features ecn initcwnd 30 initrwnd 30" \
		"host show"
	out=$(sc host off --fabric $NAME)
	check_eq "$out" "off: 18 routes on 9 hosts of fabric $NAME, 18 changed, 0 unchanged" \
		"host off"
	after=$(hroutes x-h0)
	check_eq "$after" "$before" "x-h0's routes after host off"

	# one namespace's device, as on a machine of its own
	out=$(sc -n $NAME-x-h0 host bolt --dev eth0 --rate 4mbit --rtt 86ms 2>&1)
	check_err $? "host bolt --dev: $out"
	[[ $(hroutes x-h0) == *"initcwnd 30 features ecn initrwnd 30 congctl lock dctcp"* ]]
	check_err $? "x-h0's routes after host bolt --dev: $(hroutes x-h0)"
	[[ $(hroutes x-h1) != *congctl* ]]
	check_err $? "x-h1's routes changed by x-h0's --dev: $(hroutes x-h1)"
	out=$(sc -n $NAME-x-h0 host off --dev eth0 2>&1)
	check_err $? "host off --dev: $out"
	check_eq "$(hroutes x-h0)" "$before" "x-h0's routes after host off --dev"
}

# first_window CAP: FW, the data segments x-h0 sends before y-h0's first
# ACK of data, from a capture CAP on x-h0's eth0 (not in a subshell: the
# capture is the test's, stopped when it ends).
first_window()
{
	local cap=$TMP/$1 dst pid

	FW=none
	dst=$(ip -n $NAME-y-h0 -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4 }')
	ip netns exec $NAME-y-h0 nc -l 5001 >/dev/null </dev/null &
	pid=$!
	wait_listen $NAME-y-h0 || { check_err 1 "nc does not listen in y-h0"; return 1; }
	tcpdump_start $NAME-x-h0 eth0 "$cap" tcp port 5001 </dev/null >/dev/null ||
		return 1
	head -c 200000 /dev/zero |
		ip netns exec $NAME-x-h0 timeout 20 nc -N "$dst" 5001
	check_err $? "nc to $dst"
	nap 0.5
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	# data from x until an ACK from y acknowledges data (ack > 1)
	FW=$(tcpdump -nr "$cap" 2>/dev/null | awk -v dst="$dst" '
		/Flags \[S/ { next }	# the handshake acks absolute numbers
		$3 ~ ("^" dst "\\.") && / ack [0-9]+/ {
			for (i = 1; i <= NF; i++)
				if ($i == "ack") { a = $(i + 1); sub(",", "", a) }
			if (a + 0 > 1) { print n + 0; exit }
		}
		$5 ~ ("^" dst "\\.") && / length [1-9]/ { n++ }')
	FW=${FW:-none}
}

bolt_first_window()
{
	bolt_up || return
	tc -n $NAME-y-h0 qdisc replace dev eth0 root netem delay 300ms limit 10000
	check_err $? "netem on y-h0"
	sc host bolt --fabric $NAME --rate 4mbit --rtt 86ms >/dev/null
	check_err $? "host bolt"
	first_window bolt.pcap
	check_eq "$FW" 30 "segments in the first round trip with initcwnd 30"
	sc host off --fabric $NAME >/dev/null
	check_err $? "host off"
	first_window plain.pcap
	check_eq "$FW" 10 "segments in the first round trip without a profile"
}

bolt_dctcp_ce()
{
	local i dst pids=() senders=() bytes=0 marks peak drops pauses ce out

	bolt_up --ecn 3000 --host-profile bolt --host-rtt 20ms || return
	out=$(sc fabric show --name $NAME)
	[[ $out == *" ecn 3000 host-profile bolt initcwnd 10 "* ]]
	check_err $? "fabric show: ${out}"
	for i in 0 1 2; do
		dst=$(ip -n $NAME-y-h$i -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4 }')
		ip netns exec $NAME-y-h$i nc -l 5001 >"$TMP/rx$i" </dev/null &
		pids+=($!)
	done
	for i in 0 1 2; do
		wait_listen $NAME-y-h$i
		check_err $? "nc does not listen in y-h$i"
	done
	for i in 0 1 2; do
		dst=$(ip -n $NAME-y-h$i -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4 }')
		ip netns exec $NAME-x-h$i nstat -n
		head -c 100000000 /dev/zero |
			ip netns exec $NAME-x-h$i timeout 6 nc "$dst" 5001 &
		senders+=($!)
	done
	wait "${senders[@]}" 2>/dev/null
	nap 1
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	for i in 0 1 2; do
		bytes=$((bytes + $(stat -c %s "$TMP/rx$i")))
		ce=$(ip netns exec $NAME-x-h$i nstat -az TcpExtTCPDeliveredCE |
		     awk '$1 == "TcpExtTCPDeliveredCE" { print $2 }')
		((ce > 0))
		check_err $? "x-h$i's TCP saw no CE echoed (TcpExtTCPDeliveredCE $ce)"
	done
	marks=$(class_stat $NAME-x l0 1:1 ecn_marks)
	peak=$(class_stat $NAME-x l0 1:1 peak_backlog)
	drops=$(class_stat $NAME-x l0 1:1 drops)
	pauses=$(class_stat $NAME-m l0 1:1 xoff_tx)
	log_info "x l0: ecn_marks $marks peak_backlog $peak drops $drops; m's pauses to x $pauses; delivered $bytes bytes in 6 s"
	((marks > 0))
	check_err $? "x's l0 marked nothing (ecn_marks $marks)"
	check_eq "$drops" 0 "drops at x's l0"
	# 85 % of 4 Mbit/s for 6 s, less a second for the starts
	((bytes * 8 >= 4000000 * 5 * 85 / 100))
	check_err $? "the flows delivered $bytes bytes in 6 s"
}

bolt_fairness()
{
	local out

	out=$(sc experiment bolt --name $NAME --parts fairness --modes tcp-pfc,bolt \
		--unit 2 -j 2>"$TMP/fair.log")
	check_err $? "experiment bolt: $(tail -3 "$TMP/fair.log")"
	log_info "$(jq -c '.fairness | map_values({b_share_5, jain_5, ce_marks, pauses})' <<<"$out")"
	check_eq "$(jq -c '[.fairness."tcp-pfc".b_share_5 >= 0.35, .fairness.bolt.jain_5 >= 0.9]' <<<"$out")" \
		'[true,true]' "per-port under PFC, per-flow under TCP-Bolt"
}

tests_run
