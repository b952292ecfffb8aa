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
# 250 kbit/s: the slow path.  Every port stamps INT probes (int-port
# 7771), its records naming it by the topology.  Multipath exact: leaf0's path 0 to
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
#   faca_names   an agent given --fabric and --routes names its two paths
#                by the route file's nodes ("faca show": "path 0 = leaf0
#                spine0 leaf1 (route 0)"), from the records fabric up's
#                labels fill: the host's cable, leaf0's link 0 or 1, the
#                spine's link 2 or 3, leaf1's cable to its host
#
# Runs in the VM (selftests/vm/run sluice_faca); needs veth, mpls_router
# and mpls_iptunnel.  sluice_faca_agent_hook.sh has the agent's hook for
# unmodified programs on the same fabric (faca_lib.sh).

ALL_TESTS="
	faca_steer
	faca_names
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq stat
sluice_load

fabric_require
FLOWGEN=$REPO/userspace/flowgen/sluice-flowgen
[[ -x $FLOWGEN ]] || skip_all "$FLOWGEN is not built"

source "$(dirname "$0")/faca_lib.sh"
HOST_RATE=500000
DURATION=6

# agents: one per host, leaf0's probing their partners.
agents()
{
	local i

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
	sockets
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

# The records leaf0-h0's probes to leaf1-h0 gather, as fabric up labels
# ports (sluice/fabric.h): [node, link] of host 0's eth0, leaf0's link
# port, the spine's, leaf1's port to its host 0 (host 4 of the fabric).
HOST=2147483648
faca_names()
{
	local out v

	faca_up || return
	ip netns exec $NAME-leaf1-h0 "$SLUICECTL" faca agent --sports $POOL \
		--records 4 2>/dev/null &
	defer kill $!
	ip netns exec $NAME-leaf0-h0 "$SLUICECTL" faca agent --fabric $NAME \
		--routes "$TMP/routes" --interval 500ms --timeout 2s --records 4 \
		--sweep 1 10.0.1.1 2>/dev/null &
	defer kill $!
	sockets
	paths_known 0
	check_err $? "the agent did not learn both paths"
	((RET)) && return
	out=$(sc faca show --socket "${SOCK[leaf0-h0]}" -j)
	v=$(jq -c '[.destinations[0].paths[] | [(.route.nodes | join(" ")), .route.index, [.hops[] | [.node, .link]]]]' <<<"$out")
	check_eq "$v" "[[\"leaf0 spine0 leaf1\",0,[[$HOST,$HOST],[0,0],[2,2],[1,$((HOST + 4))]]],[\"leaf0 spine1 leaf1\",1,[[$HOST,$HOST],[0,1],[3,3],[1,$((HOST + 4))]]]]" \
		"each path's route and records"
	out=$(sc faca show --socket "${SOCK[leaf0-h0]}")
	[[ $out == *"  path 0 = leaf0 spine0 leaf1 (route 0): B 500Kbit "* &&
	   $out == *"  path 1 = leaf0 spine1 leaf1 (route 1): B 250Kbit "* ]]
	check_err $? "faca show does not name the paths: $out"
}

tests_run
