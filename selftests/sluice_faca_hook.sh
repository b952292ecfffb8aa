#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FaCa for unmodified applications: sluicectl faca hook, the netfilter hook
# that gives new flows source ports of its choosing by conntrack NAT
# (sluice/faca_hook.h).  No fabric and no sluice qdisc: two namespaces.
#
#   C 10.0.0.1 --c0-- veth --s0-- S 10.0.0.2, 10.0.1.2
#
# The hook runs in C for flows to 10.0.0.2; C's own ports are 50000-60999,
# so a port of a hook's range is never one C picked itself.
#
#   faca_hook_rewrite  --sports 40000-40009: nc (knowing nothing) sends a
#                      file each way; S's ss shows the connection from
#                      40000, C's ss shows nc's own port, which the hook
#                      reported; both files arrive intact (cmp).  A flow to
#                      10.0.1.2 (not configured) keeps its port and is not
#                      queued.  12 connections to one server port get
#                      40001..40009, 40000, then their own ports (every
#                      port held by a flow in TIME_WAIT), none waits for a
#                      retransmission.  The queue saw 13 packets, the
#                      rewrite 11; a SIGTERM removes the table
#   faca_hook_cost     connect times, median of 20 in one process, with no
#                      hook, with it, and with it killed (bypass); 4 MB
#                      echoed with and without the table (only the first
#                      packet of each flow is queued: the counter says so);
#                      a SYN queued when the hook is killed waits one
#                      retransmission timeout (1 s), then passes; the next
#                      start replaces the killed hook's table and rewrites
#   faca_hook_restart  a rewritten TCP flow, held open, and a rewritten UDP
#                      flow (--udp) survive a SIGTERM (the table stays for
#                      them) and a new start (it replaces the table in one
#                      transaction): the held flow then echoes 300 kB
#                      intact.  Without the table (nft delete), another
#                      held rewritten flow is reset: what the staying
#                      prevents
#   faca_hook_guard    a second hook on the same queue, or on another one,
#                      is refused and leaves the running hook's table and
#                      flows alone; a table of that name that is not a
#                      hook's is refused too
#
# The numbers faca_hook_cost prints are docs/faca.md's ("FaCa for unmodified
# applications").  Runs in the VM (selftests/vm/run sluice_faca_hook).

ALL_TESTS="
	faca_hook_rewrite
	faca_hook_cost
	faca_hook_restart
	faca_hook_guard
"

source "$(dirname "$0")/lib.sh"

require_cmd ip ss nc nft conntrack cmp
sluicectl_require
CONNTIME=$SELFTESTS_DIR/tools/conntime
[[ -x $CONNTIME ]] || skip_all "$CONNTIME is not built"
MODULES=(veth nf_tables nft_queue nfnetlink_queue nf_conntrack nft_ct nft_nat
	nft_chain_nat nf_conntrack_netlink)
# one modprobe for all (a process start is dear under TCG); one each to
# name the missing one
if ! modprobe -a "${MODULES[@]}" 2>/dev/null; then
	for m in "${MODULES[@]}"; do
		modprobe "$m" 2>/dev/null || skip_all "cannot load $m"
	done
fi

export LC_ALL=C
TMP=$(mktemp -d)
C=sluice-fh-c-$$
S=sluice-fh-s-$$
SERVER_PID=

cleanup()
{
	[[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null
	ip netns del "$C" 2>/dev/null
	ip netns del "$S" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

if ! ip netns add "$C" || ! ip netns add "$S"; then
	skip_all "cannot create namespaces"
fi
ip -n "$C" -b - <<-EOF || skip_all "cannot set up $C"
	link set lo up
	link add c0 type veth peer name s0 netns $S
	addr add 10.0.0.1/24 dev c0
	link set c0 up
	route add 10.0.1.0/24 dev c0
EOF
ip -n "$S" -b - <<-EOF || skip_all "cannot set up $S"
	link set lo up
	addr add 10.0.0.2/24 dev s0
	addr add 10.0.1.2/24 dev s0
	link set s0 up
EOF
ip netns exec "$C" sysctl -qw net.ipv4.ip_local_port_range="50000 60999" ||
	skip_all "cannot set C's port range"
if ! links_wait_up "$C" c0 || ! links_wait_up "$S" s0; then
	skip_all "the veth is not up"
fi

# In the foreground only: a function in the background is a subshell, and
# $! would be its pid, not the program's (ip netns exec execs it).
inc() { ip netns exec "$C" "$@"; }
ins() { ip netns exec "$S" "$@"; }

# An echo server for every test: "peer PORT" per accepted connection.
ip netns exec "$S" "$CONNTIME" -l 5001 >"$TMP/srv" &
SERVER_PID=$!

# wait_listen PORT: until S listens on TCP PORT (10 s).
wait_listen()
{
	local end=$((SECONDS + 10))

	while ((SECONDS <= end)); do
		[[ -n $(ins ss -Hltn "sport = :$1") ]] && return 0
		nap 0.1
	done
	return 1
}
wait_listen 5001 || skip_all "the echo server does not listen"

# hook_start OUT ARGS...: sluicectl faca hook ARGS -j in C, output in
# OUT; HOOK_PID its pid; returns once it printed its start line (20 s).
hook_start()
{
	local out=$1 end=$((SECONDS + 20))

	shift
	rm -f "$out"	# a start line left from before would be taken as this one's
	ip netns exec "$C" "$SLUICECTL" faca hook "$@" -j >"$out" 2>&1 &
	HOOK_PID=$!
	while ((SECONDS <= end)); do
		[[ -e $out && $(<"$out") == *'"event":"start"'* ]] && return 0
		kill -0 "$HOOK_PID" 2>/dev/null || break
		nap 0.05
	done
	log_info "hook did not start: $(<"$out")"
	return 1
}

# queue_wait N: until N packets wait in the hook's queue (10 s), as its
# netns's /proc/net/netfilter/nfnetlink_queue says (its third field).
queue_wait()
{
	local end=$((SECONDS + 10)) total

	while ((SECONDS <= end)); do
		read -r _ _ total _ <"/proc/$HOOK_PID/net/netfilter/nfnetlink_queue" &&
			((total >= $1)) && return 0
		nap 0.05
	done
	return 1
}

# connected OUT: until conntime, holding its connection, has said its
# port in OUT (10 s).
connected()
{
	local end=$((SECONDS + 10))

	while ((SECONDS <= end)); do
		[[ -s $1 ]] && return 0
		nap 0.05
	done
	return 1
}

# hook_kill: SIGKILL, and the job reaped without bash's "Killed" line.
hook_kill()
{
	kill -KILL "$HOOK_PID"
	wait "$HOOK_PID" 2>/dev/null
	return 0
}

# hook_stop: SIGTERM, and its exit status.
hook_stop()
{
	kill -TERM "$HOOK_PID" && wait "$HOOK_PID"
}

# stop_line OUT: the hook's stop event, the fields tests check.
stop_line()
{
	local line

	line=$(grep '"event":"stop"' "$1")
	[[ $line =~ \"queued\":([0-9]+),\"rewritten\":([0-9]+),\"kept\":([0-9]+),\"refused\":([0-9]+),\"failed\":([0-9]+),.*\"table_removed\":(true|false)(,\"open_rewritten\":([0-9]+))? ]] &&
		echo "queued=${BASH_REMATCH[1]} rewritten=${BASH_REMATCH[2]} kept=${BASH_REMATCH[3]} refused=${BASH_REMATCH[4]} failed=${BASH_REMATCH[5]} removed=${BASH_REMATCH[6]} open=${BASH_REMATCH[8]:-0}"
}

# flow_of OUT SPORT: "NEW_SPORT OUTCOME" the hook reported for the flow
# from C's port SPORT.
flow_of()
{
	local line

	while read -r line; do
		[[ $line =~ \"sport\":$2,\"daddr\":\"[0-9.]+\",\"dport\":[0-9]+,\"new_sport\":([0-9]+),\"outcome\":\"([a-z]+)\" ]] &&
			echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
	done < <(grep '"event":"flow"' "$1")
}

# counters: "QUEUED REWRITTEN", the packets the two rules counted.
counters()
{
	inc nft list table ip sluice_faca | awk '
		/queue/ { for (i = 1; i < NF; i++) if ($i == "packets") q = $(i + 1) }
		/snat/ { for (i = 1; i < NF; i++) if ($i == "packets") r = $(i + 1) }
		END { print q + 0, r + 0 }'
}

# table_queue: the queue the table in C names, "none" without a table.
table_queue()
{
	local t

	t=$(inc nft list table ip sluice_faca 2>/dev/null) || { echo none; return; }
	[[ $t =~ comment\ \"sluice\ faca\ hook,\ queue\ ([0-9]+)\" ]] &&
		echo "${BASH_REMATCH[1]}" || echo foreign
}

# srv_lines: how many connections the echo server has accepted so far.
srv_lines()
{
	local lines

	mapfile -t lines <"$TMP/srv"
	echo "${#lines[@]}"
}

# peers_since MARK N: the ports of the N connections the echo server
# accepted after its first MARK, on one line, once it has (10 s): it
# accepts one connection at a time, after the client is done with it.
peers_since()
{
	local end=$((SECONDS + 10)) lines

	while ((SECONDS <= end)); do
		mapfile -t lines <"$TMP/srv"
		((${#lines[@]} >= $1 + $2)) && break
		nap 0.05
	done
	printf '%s\n' "${lines[@]:$1:$2}" |
		awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }'
}

# check_peers_in MARK N MIN MAX WHAT: the N connections the echo server
# accepted after its first MARK all came from ports MIN..MAX.
check_peers_in()
{
	local p

	for p in $(peers_since "$1" "$2"); do
		((p >= $3 && p <= $4)) || check_err 1 "$5 came from $p, not $3-$4"
	done
}

# own_ports OUT: the ports conntime's sockets had, on one line.
own_ports()
{
	awk '$1 == "port" { printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }' <<<"$1"
}

# ct_settled: until C's conntrack has no TCP entry short of TIME_WAIT or
# CLOSE (5 s): every flow closed, so the hook's stop may remove its table.
ct_settled()
{
	local end=$((SECONDS + 5))

	while ((SECONDS <= end)); do
		inc conntrack -L -p tcp 2>/dev/null | grep -qv -e TIME_WAIT -e CLOSE ||
			return 0
		nap 0.1
	done
	return 1
}

faca_hook_rewrite()
{
	local out=$TMP/rewrite cli srv lport peer got want ports p mark spid cpid end

	hook_start "$out" --sports 40000-40009 --dst 10.0.0.2 -v || {
		check_err 1 "hook start"; return; }
	defer kill -KILL "$HOOK_PID"
	head -c 300000 /dev/urandom >"$TMP/a"
	head -c 200000 /dev/urandom >"$TMP/b"
	# each nc sends its file, then holds the connection until $TMP/go
	# (made at the end whatever happens: no loop outlives the test)
	defer touch "$TMP/go"
	{ cat "$TMP/b"; while [[ ! -e $TMP/go ]]; do nap 0.05; done; } |
		ip netns exec "$S" nc -l -N -p 5002 >"$TMP/ra" &
	spid=$!
	defer kill "$spid"
	wait_listen 5002
	check_err $? "nc does not listen on 5002"
	{ cat "$TMP/a"; while [[ ! -e $TMP/go ]]; do nap 0.05; done; } |
		ip netns exec "$C" nc -N 10.0.0.2 5002 >"$TMP/rb" &
	cpid=$!
	end=$((SECONDS + 10))
	while ((SECONDS <= end)); do
		srv=$(ins ss -Htn state established '( sport = :5002 )')
		[[ -n $srv ]] && break
		nap 0.05
	done
	cli=$(inc ss -Htn state established '( dport = :5002 )')
	touch "$TMP/go"
	wait "$cpid"
	check_err $? "nc's client failed"
	wait "$spid"
	check_err $? "nc's server failed"
	read -r _ _ _ peer <<<"$srv"
	read -r _ _ lport _ <<<"$cli"
	peer=${peer##*:}
	lport=${lport##*:}
	log_info "nc: C's socket has port $lport, S sees $peer"
	[[ $peer =~ ^[0-9]+$ ]] && ((peer >= 40000 && peer <= 40009))
	check_err $? "S sees the connection from '$peer' (ss: '$srv'), not from 40000-40009"
	[[ $lport =~ ^[0-9]+$ ]] && ((lport >= 50000 && lport <= 60999))
	check_err $? "C's socket has port '$lport' (ss: '$cli'), not its own"
	check_eq "$(flow_of "$out" "$lport")" "$peer rewritten" "the hook's report of nc's flow"
	cmp -s "$TMP/a" "$TMP/ra"
	check_err $? "the file C sent arrived changed"
	cmp -s "$TMP/b" "$TMP/rb"
	check_err $? "the file S sent arrived changed"

	# not a configured destination: untouched, not queued
	mark=$(srv_lines)
	got=$(inc "$CONNTIME" 10.0.1.2 5001)
	check_err $? "connect to 10.0.1.2: $got"
	lport=$(own_ports "$got")
	check_eq "$(peers_since "$mark" 1)" "$lport" "the port S sees from a flow to 10.0.1.2"
	check_eq "$(flow_of "$out" "$lport")" "" "the hook's report of a flow to 10.0.1.2"

	# the range's ports in turn; every one in use: the flows' own ports
	mark=$(srv_lines)
	got=$(inc "$CONNTIME" -n 12 10.0.0.2 5001)
	check_err $? "12 connections: $got"
	read -ra ports <<<"$(own_ports "$got")"
	want="40001 40002 40003 40004 40005 40006 40007 40008 40009 40000"
	want+=" ${ports[10]} ${ports[11]}"
	check_eq "$(peers_since "$mark" 12)" "$want" "ports S sees from 12 flows"
	while read -r p; do
		((p < 1000000)) || check_err 1 "a connect took $p us: a SYN was dropped"
	done < <(awk '$1 == "port" { print $4 }' <<<"$got")
	check_eq "$(counters)" "13 11" "packets queued, and rewritten"

	ct_settled
	check_err $? "C's TCP flows do not close"
	hook_stop
	check_err $? "hook stop: $(tail -n 2 "$out")"
	check_eq "$(stop_line "$out")" \
		"queued=13 rewritten=11 kept=0 refused=2 failed=0 removed=true open=0" \
		"the hook's stop line"
	check_eq "$(table_queue)" none "the table after SIGTERM"
}

# median_of OUT: the median conntime printed.
median_of()
{
	sed -n 's/^median_connect_us //p' <<<"$1"
}

# bulk: the fewest microseconds conntime took to echo 4 MB, of three
# tries (the best is the least disturbed by the rest of the machine).
bulk()
{
	local us best=

	for _ in 1 2 3; do
		us=$(inc "$CONNTIME" -b 4000000 10.0.0.2 5001 | sed -n 's/.* transfer_us //p')
		[[ -z $best ]] || ((us < best)) && best=$us
	done
	echo "$best"
}

faca_hook_cost()
{
	local out=$TMP/cost out2=$TMP/cost2 n=20 got own with killed t0 start
	local bulk_without bulk_with syn mark

	got=$(inc "$CONNTIME" -n $n 10.0.0.2 5001)
	check_err $? "connects without the hook: $got"
	own=$(median_of "$got")
	bulk_without=$(bulk)

	t0=$(date +%s%N)
	hook_start "$out" --sports 41000-41099 --dst 10.0.0.2 || {
		check_err 1 "hook start"; return; }
	start=$((($(date +%s%N) - t0) / 1000000))
	defer kill -KILL "$HOOK_PID"
	mark=$(srv_lines)
	got=$(inc "$CONNTIME" -n $n 10.0.0.2 5001)
	check_err $? "connects with the hook: $got"
	with=$(median_of "$got")
	check_peers_in "$mark" $n 41000 41099 "a flow with the hook"
	bulk_with=$(bulk)
	check_eq "$(counters)" "$((n + 3)) $((n + 3))" \
		"packets queued and rewritten: one per flow, whatever the flow carried"

	# a SYN waiting for a verdict when the hook dies
	kill -STOP "$HOOK_PID"
	mark=$(srv_lines)
	ip netns exec "$C" "$CONNTIME" -t 5 10.0.0.2 5001 >"$TMP/syn" &
	queue_wait 1
	check_err $? "the SYN never waited in the stopped hook's queue"
	hook_kill
	wait $!
	check_err $? "the connect queued when the hook died: $(<"$TMP/syn")"
	syn=$(median_of "$(<"$TMP/syn")")
	((syn >= 800000 && syn < 3000000))
	check_err $? "the connect queued when the hook died took $syn us, not a retransmission timeout (1 s)"
	check_eq "$(peers_since "$mark" 1)" "$(own_ports "$(<"$TMP/syn")")" \
		"the port S sees from the flow whose SYN passed bypassed"

	mark=$(srv_lines)
	got=$(inc "$CONNTIME" -n $n 10.0.0.2 5001)
	check_err $? "connects with the hook killed: $got"
	killed=$(median_of "$got")
	check_eq "$(peers_since "$mark" $n)" "$(own_ports "$got")" \
		"ports S sees with the hook killed (their own)"
	check_eq "$(table_queue)" 0 "the killed hook's table"

	hook_start "$out2" --sports 41000-41099 --dst 10.0.0.2 || {
		check_err 1 "hook restart"; return; }
	defer kill -KILL "$HOOK_PID"
	mark=$(srv_lines)
	got=$(inc "$CONNTIME" 10.0.0.2 5001)
	check_err $? "connect after the restart: $got"
	check_peers_in "$mark" 1 41000 41099 "the flow after the restart"
	ct_settled
	hook_stop
	check_err $? "hook stop"
	check_eq "$(table_queue)" none "the table after SIGTERM"

	log_info "connect, median of $n: no hook $own us, hook $with us, hook killed $killed us"
	log_info "4 MB echoed (best of 3): $((bulk_without / 1000)) ms without the table, $((bulk_with / 1000)) ms with it"
	log_info "a SYN queued when the hook died: connected after $((syn / 1000)) ms; hook start: $start ms"
	((with < 500000))
	check_err $? "a connect through the hook takes $with us (median)"
	# A loose bound: conntrack and NAT cost each packet a little, the
	# queue nothing (the counters above); the machine's noise is larger.
	((bulk_with < 3 * bulk_without))
	check_err $? "4 MB took $bulk_with us with the table, $bulk_without us without"
}

faca_hook_restart()
{
	local out=$TMP/restart out2=$TMP/restart2 held udp lport

	# its own echo server: one whose flow is reset would hang the shared one
	ip netns exec "$S" "$CONNTIME" -l 5004 >/dev/null &
	defer kill $!
	wait_listen 5004
	check_err $? "no echo server on 5004"
	rm -f "$TMP/go" "$TMP/go2"
	defer touch "$TMP/go" "$TMP/go2"
	# the flow reset below keeps an ESTABLISHED entry in C (its reset
	# came untranslated): gone with the test
	defer inc conntrack -F
	hook_start "$out" --sports 42000-42009 --dst 10.0.0.2 --udp -v || {
		check_err 1 "hook start"; return; }
	defer kill -KILL "$HOOK_PID"
	ip netns exec "$C" "$CONNTIME" -b 300000 -w "$TMP/go" -t 30 10.0.0.2 5004 >"$TMP/held" &
	held=$!
	defer kill $held
	connected "$TMP/held"
	check_err $? "the held flow did not connect"
	inc bash -c 'echo faca >/dev/udp/10.0.0.2/5005'
	udp=$(inc conntrack -L -p udp 2>/dev/null)
	[[ $udp =~ dport=5005\ .*dport=420[0-9][0-9] ]]
	check_err $? "the UDP flow is not rewritten: $udp"

	hook_stop
	check_err $? "hook stop"
	check_eq "$(stop_line "$out")" \
		"queued=2 rewritten=2 kept=0 refused=0 failed=0 removed=false open=2" \
		"the stop line with a TCP and a UDP flow open"
	check_eq "$(table_queue)" 0 "the table left for the open flows"

	hook_start "$out2" --sports 42000-42009 --dst 10.0.0.2 --udp -v || {
		check_err 1 "hook restart"; return; }
	defer kill -KILL "$HOOK_PID"
	touch "$TMP/go"
	wait $held
	check_err $? "the held flow after a stop and a start: $(<"$TMP/held")"
	log_info "the held flow, after a stop and a start: $(grep -o 'bytes .*' "$TMP/held")"

	# what the staying prevents: a held rewritten flow, its table deleted
	ip netns exec "$C" "$CONNTIME" -b 300000 -w "$TMP/go2" 10.0.0.2 5004 >"$TMP/held2" 2>&1 &
	held=$!
	defer kill $held
	connected "$TMP/held2"
	check_err $? "the held flow did not connect"
	lport=$(own_ports "$(<"$TMP/held2")")
	[[ $(flow_of "$out2" "$lport") == 420[0-9][0-9]" rewritten" ]]
	check_err $? "the second held flow is not rewritten: $(flow_of "$out2" "$lport")"
	hook_kill
	inc nft delete table ip sluice_faca
	touch "$TMP/go2"
	wait $held
	check_fail $? "a rewritten flow whose table was deleted still works: $(<"$TMP/held2")"
	log_info "without the table, the held flow: $(grep -o 'conntime: .*' "$TMP/held2")"
}

faca_hook_guard()
{
	local out=$TMP/guard got mark

	hook_start "$out" --sports 43000-43009 --dst 10.0.0.2 || {
		check_err 1 "hook start"; return; }
	defer kill -KILL "$HOOK_PID"
	got=$(inc "$SLUICECTL" faca hook --sports 44000-44009 2>&1)
	check_eq "$?:$got" "1:sluicectl: NFQUEUE 0 is bound by another program (a hook already running?)" \
		"a second hook on queue 0"
	got=$(inc "$SLUICECTL" faca hook --sports 44000-44009 --queue 1 2>&1)
	check_eq "$?:$got" "1:sluicectl: a hook on NFQUEUE 0 runs in this network namespace (table ip sluice_faca)" \
		"a second hook on queue 1"
	check_eq "$(table_queue)" 0 "the running hook's table"
	mark=$(srv_lines)
	inc "$CONNTIME" 10.0.0.2 5001 >/dev/null
	check_peers_in "$mark" 1 43000 43009 "the running hook's flow"
	ct_settled
	hook_stop
	check_err $? "hook stop"

	inc nft add table ip sluice_faca
	got=$(inc "$SLUICECTL" faca hook --sports 44000-44009 2>&1)
	check_eq "$?:$got" "1:sluicectl: table ip sluice_faca exists and is not a sluice hook's: not replacing it" \
		"a hook beside a foreign table of its name"
	check_eq "$(table_queue)" foreign "the foreign table"
	inc nft delete table ip sluice_faca
}

tests_run
