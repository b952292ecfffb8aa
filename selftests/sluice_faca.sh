#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FaCa's host agent (sluicectl faca agent, sluice/faca.h) on a two-path
# fabric with one path slowed: it steers new flows to the faster path,
# where ECMP's random source ports do not.
#
#   leaf0-h0..h3 -- leaf0 ==l0== spine0 ==l2== leaf1 -- leaf1-h0..h3
#                         \==l1== spine1 ==l3==/
#
# leaf0's hosts send at 500 kbit/s (their eth0), the rest runs at 2 Mbit/s
# (spine0's path has room for four such flows) but spine1's links, at
# 250 kbit/s: the slow path.  Every port
# stamps INT probes (int-port 7771).  Multipath exact: leaf0's path 0 to
# leaf1 (spine0) takes source ports 20000-20063, path 1 (spine1)
# 20064-20127, probes and TCP alike, so that the path of every flow is
# known from its port.  Every host runs an agent probing 8 ports of each
# path (the senders' pool from the fabric: --fabric); leaf0-hI's probes
# leaf1-hI, its partner.
#
#   faca_steer   the agents learn both paths (B: the senders' 500 kbit/s
#                and spine1's 250 kbit/s), the senders' pool the first 8
#                ports of each path's range; FaCa's IP pairs (sluice-flowgen --workload
#                pairs, leaf0-hI to leaf1-hI) for 6 s with --faca: every
#                port from the agents, all four flows on spine0's path,
#                each delivering at least 60 % of its host's link; then
#                the same pairs with ECMP's random ports (--sports
#                20000-20127 --seed 2: two flows on each path, the likely
#                split): the agents' flows deliver at least 1.3 times
#                ECMP's in all, and ECMP's two flows on spine1 less than
#                its two on spine0; "faca sport", as an application
#                asks, gets a port of spine0's path
#
# Runs in the VM (selftests/vm/run sluice_faca); needs veth, mpls_router
# and mpls_iptunnel.

ALL_TESTS="
	faca_steer
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq stat
sluice_load

fabric_require
FLOWGEN=$REPO/userspace/flowgen/sluice-flowgen
[[ -x $FLOWGEN ]] || skip_all "$FLOWGEN is not built"

export LC_ALL=C
NAME=sfc
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TOPO=$TMP/ls.json
HOST_RATE=500000
DURATION=6
# each path's first 8 ports (exact: 64 a path from 20000), as --fabric
# makes it for the senders
POOL=20000-20007,20064-20071

sc() { "$SLUICECTL" "$@"; }

sc topo gen leafspine --leaves 2 --spines 2 --host-ports 4 -o "$TOPO" >/dev/null &&
	sc route compute --topo "$TOPO" --algo ecmp -o "$TMP/routes" >/dev/null 2>&1 ||
	skip_all "cannot generate the leaf-spine or its routes"

faca_up()
{
	local out i

	out=$(sc fabric up "$TOPO" --name $NAME --rate 2mbit --limit 32kb \
		--node-rate spine1=250kbit --multipath exact --int-port 7771 2>&1)
	check_err $? "fabric up: $out"
	defer sc fabric down --name $NAME
	((RET)) && return 1
	log_info "$out"
	# the senders' own links: their flows fit spine0 all four
	for i in 0 1 2 3; do
		tc -n $NAME-leaf0-h$i qdisc change dev eth0 root sluice \
			rate 500kbit
		check_err $? "leaf0-h$i's eth0 at 500kbit"
	done
	out=$(sc route load "$TMP/routes" --name $NAME 2>&1)
	check_err $? "route load: $out"
	((RET == 0))
}

# agents: one per host, leaf0's probing their partners; their sockets
# (each namespace's default) in SOCK[leaf0-hI].
declare -A SOCK
agents()
{
	local i ino

	for i in 0 1 2 3; do
		ip netns exec $NAME-leaf0-h$i "$SLUICECTL" faca agent \
			--fabric $NAME --routes "$TMP/routes" --interval 500ms \
			--timeout 2s --records 4 --sweep 1 \
			10.0.1.$((2 * i + 1)) 2>"$TMP/agent$i.log" &
		defer kill $!
		ip netns exec $NAME-leaf1-h$i "$SLUICECTL" faca agent \
			--sports $POOL --records 4 2>/dev/null &
		defer kill $!
	done
	i=0
	for ino in $(stat -L -c %i /run/netns/$NAME-leaf0-h{0..3}); do
		SOCK[leaf0-h$i]=/run/sluice/faca-net$ino.sock
		i=$((i + 1))
	done
}

# paths_known: until every sender's agent knows 2 paths (20 s at most).
paths_known()
{
	local i t out n

	for i in 0 1 2 3; do
		for ((t = 0; t < 100; t++)); do
			out=$(sc faca show --socket "${SOCK[leaf0-h$i]}" -j 2>/dev/null)
			n=${out//\"index\"/@}
			n=${n//[^@]/}
			((${#n} == 2)) && break
			nap 0.2
		done
		((${#n} == 2)) || { log_info "leaf0-h$i: $out"; return 1; }
	done
}

# pairs FILE ARGS...: FaCa's IP pairs for the duration, the summary in FILE.
pairs()
{
	local out=$1

	shift
	"$FLOWGEN" --fabric $NAME --workload pairs --duration $DURATION \
		-j "$out" "$@" >/dev/null
}

faca_steer()
{
	local out v port slow fast

	faca_up || return
	agents
	paths_known
	check_err $? "the agents did not learn both paths"
	((RET)) && return
	# leaf0-h0's table: a path of the hosts' rate, one of spine1's
	out=$(sc faca show --socket "${SOCK[leaf0-h0]}" -j)
	check_eq "$(jq -c '[.sports, ([.destinations[0].paths[].B] | sort)]' <<<"$out")" \
		"[\"$POOL\",[250000,500000]]" "leaf0-h0's pool (--fabric) and paths' B"
	pairs "$TMP/faca.json" --faca
	check_err $? "the pairs with --faca"
	v=$(jq -c '[.from_agent, .failed, [.pairs[] | select(.sport >= 20000 and .sport <= 20063)] | length]' \
		"$TMP/faca.json")
	check_eq "$v" "[4,0,4]" "[ports from the agents, failed, flows on spine0's path]"
	v=$(jq "[.pairs[].rate_bps] | min" "$TMP/faca.json")
	((v >= HOST_RATE * 6 / 10))
	check_err $? "a flow of the agents' delivered $v bit/s: $(jq -c '.pairs' "$TMP/faca.json")"

	pairs "$TMP/ecmp.json" --sports 20000-20127 --seed 2
	check_err $? "the pairs with random ports"
	slow=$(jq -c '[.pairs[] | select(.sport >= 20064) | .rate_bps]' "$TMP/ecmp.json")
	fast=$(jq -c '[.pairs[] | select(.sport < 20064) | .rate_bps]' "$TMP/ecmp.json")
	check_eq "$(jq length <<<"$slow") $(jq length <<<"$fast")" "2 2" \
		"ECMP's flows on spine1's path and spine0's"
	(($(jq max <<<"$slow") < $(jq min <<<"$fast")))
	check_err $? "ECMP's flows: on spine1 $slow, on spine0 $fast"
	v=$(jq -s '.[0].aggregate_bps * 10 / .[1].aggregate_bps | floor' \
		"$TMP/faca.json" "$TMP/ecmp.json")
	log_info "delivered: the agents' $(jq -c '[.pairs[].rate_bps]' "$TMP/faca.json"), ECMP's $(jq -c '[.pairs[].rate_bps]' "$TMP/ecmp.json") (ratio $v/10)"
	((v >= 13))
	check_err $? "the agents' flows delivered $v/10 of ECMP's"
	# as an application asks: a port of spine0's path
	port=$(ip netns exec $NAME-leaf0-h0 "$SLUICECTL" faca sport 10.0.1.1)
	check_err $? "faca sport: $port"
	((port >= 20000 && port <= 20007))
	check_err $? "faca sport: port $port, not one of spine0's path"
}

tests_run
