#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FaCa for unmodified programs on a fabric: sluicectl faca agent --hook,
# the netfilter hook served in the agent's loop with Flowing&Jumping
# choosing the ports (sluice/faca.h, lib/faca/serve_hook.c), on
# sluice_faca.sh's two-path leaf-spine with spine1 slowed (faca_lib.sh has
# the diagram).  The senders' agents run the hook for leaf1's hosts, their
# pool and path names from the fabric (--fabric --routes); leaf1's agents
# answer the probes.
#
#   faca_hook_steer
#                unmodified nc, the senders' own ports in spine1's range
#                (20100-20127): without a hook the four flows share
#                spine1; with "faca agent --hook" in the senders (no
#                destination given: the flows add them), the hook rewrites
#                each flow to a port of spine0's path (the servers see it),
#                and the four deliver at least 3 times what the unhooked
#                ones did; "faca show" lists the hooked flow under its
#                path, with the hook's counters.  A connect to a
#                destination the agent has never probed waits for the
#                first round and gets spine0's path too; its time and the
#                next connects' are printed
#   faca_hook_restart
#                a held rewritten flow keeps its lease past the lease's
#                time (--lease 1s: conntrack has it open), and a new flow
#                gets another port; the hook agent SIGKILLed: the held
#                flow goes on,
#                a new connect passes with its own port at once (the
#                queue's bypass); started again, it replaces the table,
#                the held flow echoes 100 kB intact and new flows get
#                ports of the pool again
#
# The numbers faca_hook_steer prints are docs/faca.md's ("FaCa agent").
# Runs in the VM (selftests/vm/run sluice_faca_agent_hook); needs veth,
# mpls_router, mpls_iptunnel, and netfilter's queue, conntrack and NAT.

ALL_TESTS="
	faca_hook_steer
	faca_hook_restart
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq stat nc ss timeout
sluice_load

fabric_require
CONNTIME=$SELFTESTS_DIR/tools/conntime
[[ -x $CONNTIME ]] || skip_all "$CONNTIME is not built"
# one modprobe for all (a process start is dear under TCG)
modprobe -a nf_tables nft_queue nfnetlink_queue nf_conntrack nft_ct nft_nat \
	nft_chain_nat nf_conntrack_netlink 2>/dev/null ||
	skip_all "cannot load netfilter's queue, conntrack and NAT modules"

source "$(dirname "$0")/faca_lib.sh"

# hook_agents LOG ARGS I...: leaf0-hI's agents with the hook for leaf1's
# hosts, their pool and path names from the fabric, ARGS more (words;
# "" for none), -v into LOG<I>; AGENT[I] their pids.  Started together (a
# hook's start takes seconds under TCG); returns once every hook is
# installed (20 s).
declare -A AGENT
hook_agents()
{
	local log=$1 args=$2 end=$((SECONDS + 20)) i

	shift 2
	for i in "$@"; do
		# shellcheck disable=SC2086 # ARGS are words
		ip netns exec $NAME-leaf0-h$i "$SLUICECTL" faca agent --hook \
			--dst 10.0.1.0/24 --fabric $NAME --routes "$TMP/routes" \
			--interval 500ms --timeout 2s --records 4 --sweep 1 -v \
			$args 2>"$log$i" &
		AGENT[$i]=$!
		defer kill ${AGENT[$i]}
	done
	for i in "$@"; do
		while ((SECONDS <= end)); do
			[[ -e $log$i && $(<"$log$i") == *"hook on NFQUEUE"* ]] &&
				continue 2
			kill -0 "${AGENT[$i]}" 2>/dev/null || break
			nap 0.05
		done
		log_info "leaf0-h$i's agent did not start: $(<"$log$i")"
		return 1
	done
}

# listening NS PORT: until NS listens on TCP PORT (10 s).
listening()
{
	local end=$((SECONDS + 10))

	while ((SECONDS <= end)); do
		[[ -n $(ip netns exec "$1" ss -Hltn "sport = :$2") ]] && return 0
		nap 0.1
	done
	return 1
}

# nc_rates OUT: unmodified nc from leaf0-hI to an nc server in leaf1-hI
# (port 5001, into $TMP/rxI); in OUT the bit/s each server received in
# NC_TIME s from 1 s after the start (each file's growth over bash's
# clock), in PEERS the ports the servers saw then.  Both ends are killed
# after (timeout only bounds a test gone wrong): the servers' sockets,
# closed with bytes unread, reset the flows, whose senders would otherwise
# go on sending what their buffers hold.
NC_TIME=2
nc_rates()
{
	local i t0 t1 s0 s1 pids=() rates=()

	for i in 0 1 2 3; do
		ip netns exec $NAME-leaf1-h$i nc -l -p 5001 >"$TMP/rx$i" &
		pids+=($!)
	done
	listening $NAME-leaf1-h3 5001 || return 1
	for i in 0 1 2 3; do
		ip netns exec $NAME-leaf0-h$i timeout 60 \
			nc 10.0.1.$((2 * i + 1)) 5001 </dev/zero &
		pids+=($!)
	done
	nap 1
	t0=${EPOCHREALTIME//[!0-9]/}
	mapfile -t s0 < <(stat -c %s "$TMP"/rx{0..3})
	nap $NC_TIME
	t1=${EPOCHREALTIME//[!0-9]/}
	mapfile -t s1 < <(stat -c %s "$TMP"/rx{0..3})
	PEERS=
	for i in 0 1 2 3; do
		PEERS+=" $(ip netns exec $NAME-leaf1-h$i ss -Htn state established '( sport = :5001 )' |
			awk '{ sub(/.*:/, "", $4); print $4 }')"
	done
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	for i in 0 1 2 3; do
		rates+=($(((s1[i] - s0[i]) * 8000000 / (t1 - t0))))
	done
	echo "${rates[*]}" >"$1"
}

# drained: until the queues the unhooked flows filled on leaf0-h0's way
# over spine1 (its eth0, leaf0's l1, spine1's l3) are empty (5 s), so that
# the next probes do not wait behind their bytes (32 KB at 250 kbit/s is a
# second).
drained()
{
	local end=$((SECONDS + 5)) out

	while ((SECONDS <= end)); do
		out=$(tc -n $NAME-leaf0-h0 -s qdisc show dev eth0
		      tc -n $NAME-leaf0 -s qdisc show dev l1
		      tc -n $NAME-spine1 -s qdisc show dev l3)
		[[ $out == *"backlog "* && $out != *"backlog "[1-9]* ]] && return 0
		nap 0.1
	done
	return 1
}

# in_range PORTS MIN MAX N: PORTS are N at least, each from MIN to MAX.
in_range()
{
	local p n=0

	for p in $1; do
		((p >= $2 && p <= $3)) || return 1
		n=$((n + 1))
	done
	((n >= $4))
}

# in_pool PORT: PORT is one of the agents' pool ($POOL).
in_pool()
{
	(($1 >= 20000 && $1 <= 20007 || $1 >= 20064 && $1 <= 20071))
}

# echo_peer FILE N: the source port of the N-th connection the echo
# server writing FILE accepted, once it has (5 s).  It accepts one after
# another, each once the one before is over.
echo_peer()
{
	local end=$((SECONDS + 5)) lines

	while ((SECONDS <= end)); do
		mapfile -t lines <"$1"
		((${#lines[@]} >= $2)) && break
		nap 0.05
	done
	echo "${lines[$2 - 1]#peer }"
}

faca_hook_steer()
{
	local i v log=$TMP/hook first next port slow fast

	faca_up || return
	responders 0 1 2 3
	for i in 0 1 2 3; do
		# without the hook, every flow's own port takes spine1
		ip netns exec $NAME-leaf0-h$i sysctl -qw \
			net.ipv4.ip_local_port_range="20100 20127"
	done
	ip netns exec $NAME-leaf1-h0 "$CONNTIME" -l 5002 >"$TMP/echo" &
	defer kill $!
	listening $NAME-leaf1-h0 5002
	check_err $? "the echo server does not listen"

	nc_rates "$TMP/unhooked"
	check_err $? "the nc servers do not listen"
	read -ra slow <"$TMP/unhooked"
	# spine1 drops some of their SYNs: those wait a retransmission
	in_range "$PEERS" 20100 20127 1
	check_err $? "the unhooked flows came from $PEERS, not their own ports"

	drained
	check_err $? "the slow path's queues do not drain"
	hook_agents "$log" "" 0 1 2 3 || { check_err 1 "hook agents' start"; return; }
	# a destination the agent never probed: the SYN waits for its round
	v=$(ip netns exec $NAME-leaf0-h0 "$CONNTIME" 10.0.1.1 5002)
	check_err $? "the first connect: $v"
	first=${v##*median_connect_us }
	port=$(echo_peer "$TMP/echo" 1)
	((port >= 20000 && port <= 20007))
	check_err $? "the first connect came from $port, not spine0's path"
	v=$(ip netns exec $NAME-leaf0-h0 "$CONNTIME" -n 3 10.0.1.1 5002)
	check_err $? "the next connects: $v"
	next=${v##*median_connect_us }
	log_info "connect through the agent's hook: $((first / 1000)) ms to a destination never probed (its SYN waits for the first round), $((next / 1000)) ms then (median of 3)"
	((first < 1000000))
	check_err $? "the first connect took $first us: its SYN was sent again"

	nc_rates "$TMP/hooked"
	check_err $? "the nc servers do not listen"
	read -ra fast <"$TMP/hooked"
	in_range "$PEERS" 20000 20007 4
	check_err $? "the hooked flows came from $PEERS, not ports of spine0's path"
	# leaf0-h0's 5 flows, the first alone waiting; nc's lease, its flow
	sockets
	v=$(sc faca show --socket "${SOCK[leaf0-h0]}" -j)
	check_eq "$(jq -c '[.hook.queued, .hook.rewritten, .hook.deferred, .hook.waiting,
		[.destinations[0].paths[0].leases[].flow | select(.dport == 5001) | .saddr]]' <<<"$v")" \
		'[5,5,1,0,["10.0.0.1"]]' "leaf0-h0's hook: [queued, rewritten, waited, waiting, nc's lease on path 0]"
	v=$(((fast[0] + fast[1] + fast[2] + fast[3]) * 10 /
	     (slow[0] + slow[1] + slow[2] + slow[3] + 1)))
	log_info "nc, delivered bit/s: own ports ${slow[*]}, through the hook ${fast[*]} (ratio $v/10)"
	((v >= 30))
	check_err $? "the hooked flows delivered $v/10 of the unhooked ones"
	v=$(<"${log}0")
	[[ $v == *"hook: tcp 10.0.0.1:"*" -> 10.0.1.1:5001: port 2000"[0-7]", path 0"* ]]
	check_err $? "leaf0-h0's agent's log: $v"
}

faca_hook_restart()
{
	local log=$TMP/restart i held held_port port got

	faca_up || return
	responders 0
	# one echo server for the held flow, one for the others
	ip netns exec $NAME-leaf1-h0 "$CONNTIME" -l 5002 >"$TMP/echo" &
	defer kill $!
	ip netns exec $NAME-leaf1-h0 "$CONNTIME" -l 5003 >"$TMP/echo3" &
	defer kill $!
	listening $NAME-leaf1-h0 5002 && listening $NAME-leaf1-h0 5003
	check_err $? "the echo servers do not listen"
	hook_agents "$log" "--lease 1s 10.0.1.1" 0 ||
		{ check_err 1 "hook agent start"; return; }
	sockets
	paths_known 0
	check_err $? "the agent did not learn both paths"
	defer touch "$TMP/go"
	ip netns exec $NAME-leaf0-h0 "$CONNTIME" -b 100000 -w "$TMP/go" -t 30 \
		10.0.1.1 5002 >"$TMP/held" &
	held=$!
	defer kill $held
	for ((i = 0; i < 100; i++)); do
		[[ -s $TMP/held ]] && break
		nap 0.1
	done
	held_port=$(echo_peer "$TMP/echo" 1)
	in_pool "$held_port"
	check_err $? "the held flow came from $held_port, not a port of the pool"
	# past its 1 s, the held flow's lease lasts: conntrack has it open
	nap 2
	got=$(sc faca show --socket "${SOCK[leaf0-h0]}" -j)
	check_eq "$(jq -c "[.destinations[0].paths[].leases[] | select(.sport == $held_port) | .flow.dport]" <<<"$got")" \
		"[5002]" "the held flow's lease, 2 s on"
	got=$(ip netns exec $NAME-leaf0-h0 "$CONNTIME" 10.0.1.1 5003)
	check_err $? "a connect beside the held flow: $got"
	port=$(echo_peer "$TMP/echo3" 1)
	in_pool "$port" && ((port != held_port))
	check_err $? "a flow beside the held one came from $port (the held one's $held_port)"

	kill -KILL "${AGENT[0]}"
	wait "${AGENT[0]}" 2>/dev/null
	got=$(ip netns exec $NAME-leaf0-h0 "$CONNTIME" 10.0.1.1 5003)
	check_err $? "a connect with the agent killed: $got"
	check_eq "$(echo_peer "$TMP/echo3" 2)" "$(awk '$1 == "port" { print $2 }' <<<"$got")" \
		"the port the server saw with the agent killed (the flow's own)"
	((${got##*median_connect_us } < 500000))
	check_err $? "a connect with the agent killed waited: $got"

	hook_agents "$log.2." 10.0.1.1 0 || { check_err 1 "hook agent restart"; return; }
	touch "$TMP/go"
	wait $held
	check_err $? "the held flow after the agent's kill and restart: $(<"$TMP/held")"
	got=$(ip netns exec $NAME-leaf0-h0 "$CONNTIME" 10.0.1.1 5003)
	check_err $? "a connect after the restart: $got"
	port=$(echo_peer "$TMP/echo3" 3)
	in_pool "$port"
	check_err $? "a flow after the restart came from $port, not a port of the pool"
}

tests_run
