#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EDST lanes in the datapath: a fabric brought up with --lanes 2 (DSCP i
# into lane i's lossless priority on every port), routes of "--algo edst
# --lanes 2" loaded as per-lane tables and DSCP rules (sluice/fabric.h).
#
#     h0        h0          a ring of 4 switches, one host each; edst
#     s0 --l0-- s1          with 2 lanes (seed 0): s0 -> s2 takes 3 2 on
#     |          |          both lanes, s0 -> s1 takes 3 2 1 on lane 0 and
#     l3         l1         0 on lane 1
#     |          |
#     s3 --l2-- s2          lane 0: DSCP 0, priority 3 (main table)
#     h0        h0          lane 1: DSCP 1, priority 4 (table 1771)
#
#   lanes_fabric     fabric up --lanes 2 --flow-control pfc: "fabric show"
#                    says 2 lanes; link ports, switch host ports and hosts'
#                    eth0 classify by DSCP with the lanes' map (DSCP d to
#                    the priority of lane d & 7, else lane 0's), PFC on
#                    3 and 4; hosts reflect TCP's TOS; every switch class
#                    is DWRR with a quantum of 1514 bytes
#   lanes_datapath   the routes CBD-free (route check), loaded: a rule "tos
#                    0x04 lookup 1771" and lane 1's table at every switch;
#                    five pings at once, two lanes from s0-h0 to s2-h0 and
#                    to s1-h0 and lane 1 from s3-h0 to s1-h0: every port's
#                    per-class packet counters move by exactly what the
#                    route file's paths predict, requests and (same lane)
#                    echo replies, each lane in its own class on every hop
#                    and nowhere else
#   lanes_reload     a load the kernel refuses on s2 (a route of its own in
#                    table 1771) puts s0 and s1 back, rules and tables
#                    included; then loaded, loaded again ("0 changed",
#                    "route show" in sync), replaced by one lane's routes
#                    (the lane's table and rule go), and unloaded: no rule
#                    and no route of sluice's left
#
# Runs in the VM (selftests/vm/run sluice_lanes); needs veth, mpls_router
# and mpls_iptunnel.

ALL_TESTS="
	lanes_fabric
	lanes_datapath
	lanes_reload
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq ping awk
sluice_load

fabric_require

export LC_ALL=C
NAME=sln
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TOPO=$TMP/ring4.json
NODES="s0 s1 s2 s3 s0-h0 s1-h0 s2-h0 s3-h0"

sc() { "$SLUICECTL" "$@"; }

sc topo gen ring --switches 4 --host-ports 1 -o "$TOPO" >/dev/null ||
	skip_all "cannot generate the ring"
sc route compute --topo "$TOPO" --algo edst --lanes 2 -o "$TMP/lanes" >/dev/null &&
	sc route compute --topo "$TOPO" --algo edst -o "$TMP/one" >/dev/null ||
	skip_all "cannot compute the routes"

# The fabric, taken down when the test ends.
lanes_up()
{
	local out

	out=$(sc fabric up "$TOPO" --name $NAME --lanes 2 --flow-control pfc \
		--rate 100mbit --xoff 30Kb --xon 20Kb --headroom 60Kb 2>&1)
	check_err $? "fabric up: $out"
	log_info "$out"
	defer sc fabric down --name $NAME
}

# sluice_rules NS: the rules of protocol 177 (sluice's) in switch NS.
sluice_rules()
{
	ip -n "$NAME-$1" rule show | grep "proto 177"
}

lanes_fabric()
{
	local v

	lanes_up
	check_eq "$(sc fabric show --name $NAME -j | jq -c '[.lanes, .flow_control]')" \
		'[2,"pfc"]' "fabric show"
	sc fabric show --name $NAME | grep -q "flow-control pfc lanes 2 qdisc"
	check_err $? "fabric show: no lanes"
	# a link port, a switch's host port, a host's eth0: the same options
	mapfile -t v < <( { tc -n $NAME-s0 -j qdisc show dev l0
			    tc -n $NAME-s0 -j qdisc show dev h0
			    tc -n $NAME-s0-h0 -j qdisc show dev eth0; } |
		jq -s -c '[.[][0].options | {tag, pfc, d: [.dscp_map[0, 1, 2, 7, 9, 63]]}] |
			(unique | length), .[0]')
	check_eq "${v[0]}" "1" "ports alike"
	check_eq "${v[1]}" '{"tag":"dscp","pfc":[3,4],"d":[3,4,3,3,4,3]}' "a port's options"
	check_eq "$(ip netns exec $NAME-s1-h0 sysctl -n net.ipv4.tcp_reflect_tos)" \
		"1" "a host's tcp_reflect_tos"
	# the lanes share a link by DWRR: every switch class has a quantum
	check_eq "$(tc -n $NAME-s2 class show dev l1 | grep -c 'quantum 1514b')" \
		"8" "switch classes with quantum 1514"
}

# counts: "NODE/DEV/CLASS packets" of every port of every switch and host.
counts()
{
	sc fabric stats --name $NAME -j $NODES |
		jq -r '.[] | "\(.node)/\(.dev)/" as $p | .classes[] |
			"\($p)\(.class) \(.packets)"' | sort
}

# expect FLOWS: what "counts" should move by, from the route file and the
# links: FLOWS is "SRC DST LANE N" lines, N echo requests from SRC's host
# 0 to DST's in LANE, each answered in the same lane over DST -> SRC's path
# of that lane.  Priorities: lane 0 is 3, lane 1 is 4.  A pair of more than
# one path in a lane would leave the hash to choose: an error line.
expect()
{
	sc fabric show --name $NAME -j | jq -r '.links[] | "link \(.id) \(.a) \(.b)"' |
		cat - "$TMP/lanes" <(echo "$1" | sed 's/^/flow /') |
		awk -v prio="3 4" '
		BEGIN { split(prio, P, " ") }
		$1 == "link" { A[$2] = $3; B[$2] = $4; next }
		/^s[0-9]+ s[0-9]+:/ {
			pair = $1 " " substr($2, 1, length($2) - 1)
			sub(/^[^:]*: ?/, "")
			n = split($0, seg, / \| /)
			for (i = 1; i <= n; i++) {
				lane = 0
				if (seg[i] ~ /^@/) {
					lane = substr(seg[i], 2, index(seg[i], " ") - 2)
					seg[i] = substr(seg[i], index(seg[i], " ") + 1)
				}
				paths[pair " " lane]++
				path[pair " " lane] = seg[i]
			}
			next
		}
		function walk(from, to, lane, n,    k, m, hop, at, cls) {
			if (paths[from " " to " " lane] != 1) {
				print "error " from " -> " to " lane " lane ": " \
					paths[from " " to " " lane] + 0 " paths"
				return
			}
			cls = P[lane + 1]
			cnt[from "-h0/eth0/" cls] += n
			m = split(path[from " " to " " lane], hop, " ")
			at = from
			for (k = 1; k <= m; k++) {
				cnt[at "/l" hop[k] "/" cls] += n
				at = A[hop[k]] == at ? B[hop[k]] : A[hop[k]]
			}
			if (at != to)
				print "error " from " -> " to " lane " lane " ends at " at
			cnt[to "/h0/" cls] += n
		}
		$1 == "flow" { walk($2, $3, $4, $5); walk($3, $2, $4, $5) }
		END { for (k in cnt) print k, cnt[k] }' | sort
}

# ping_lane SRC DST LANE N: N pings from SRC's host to DST's in LANE.
ping_lane()
{
	ip netns exec "$NAME-$1-h0" ping -q -c "$4" -i 0.02 -W 3 -Q $(($3 << 2)) \
		"10.0.${2#s}.1"
}

lanes_datapath()
{
	local out before after bad n pids=() i
	local flows="s0 s2 0 11
s0 s2 1 13
s0 s1 0 17
s0 s1 1 19
s3 s1 1 7"

	lanes_up
	out=$(sc route check --topo "$TOPO" "$TMP/lanes")
	check_err $? "edst with 2 lanes has a CBD: $out"
	out=$(sc route load "$TMP/lanes" --name $NAME)
	check_eq "$out" "loaded 4 switches: 36 routes, 36 changed (36 added, 0 replaced, 0 deleted)" "load"
	out=$(sluice_rules s3)
	check_eq "$(wc -l <<<"$out")" "1" "s3's rules: $out"
	grep -q "^1771:.*from all tos 0x04 lookup 1771 proto 177" <<<"$out"
	check_err $? "s3's rule: $out"
	check_eq "$(ip -n $NAME-s0 route show table 1771 proto 177 | grep -c '^10\.')" "3" "s0's lane 1 table"
	check_eq "$(ip -n $NAME-s0 route show 10.0.1.0/24 table 1771 proto 177)" \
		"10.0.1.0/24 via 172.16.0.1 dev l0 " "s0's lane 1 route to s1"
	expect "$flows" >"$TMP/expected"
	bad=$(grep '^error' "$TMP/expected")
	check_eq "$bad" "" "the route file's paths"
	before=$(counts)
	while read -r i; do
		# shellcheck disable=SC2086
		ping_lane $i >"$TMP/ping.$((${#pids[@]}))" 2>&1 &
		pids+=($!)
	done <<<"$flows"
	n=0
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || { n=$((n + 1)); log_info "$(cat "$TMP/ping.$i")"; }
	done
	check_eq "$n" "0" "pings that lost packets"
	after=$(counts)
	# every port and class: the move, against what the paths predict
	bad=$(join -a 1 <(join <(echo "$before") <(echo "$after") |
			  awk '{print $1, $3 - $2}') "$TMP/expected" |
		awk '{ want = NF > 2 ? $3 : 0; if ($2 != want) printf " %s:%d(want %d)", $1, $2, want; moved += $2 }
		     END { printf "\n%d\n", moved }')
	log_info "$(tail -n 1 <<<"$bad") class packets counted over the fabric's ports"
	check_eq "$(head -n 1 <<<"$bad")" "" "ports and classes off their expected counts"
	check_eq "$(join -v 2 <(echo "$before") "$TMP/expected")" "" "expected ports missing"
}

lanes_reload()
{
	local out

	lanes_up
	out=$(sc route load "$TMP/one" --name $NAME)
	check_err $? "load one lane: $out"
	# s2 holds a route of its own where lane 1's route to s1 goes
	ip -n $NAME-s2 route add 10.0.1.0/24 dev l1 table 1771
	out=$(sc route load "$TMP/lanes" --name $NAME 2>&1)
	check_fail $? "a load s2 refuses"
	grep -q "switch s2: route to s1 on lane 1 (10.0.1.0/24 table 1771; paths .*): File exists" <<<"$out" &&
		grep -q "nothing changed: every switch holds the routes it held" <<<"$out"
	check_err $? "the refusal: $out"
	check_eq "$(sluice_rules s0)$(sluice_rules s1)" "" "s0 and s1: their rules gone again"
	check_eq "$(ip -n $NAME-s0 route show table 1771 proto 177)" "" "s0: lane 1's table empty again"
	sc route show "$TMP/one" --name $NAME >/dev/null
	check_err $? "one lane's routes in sync again"
	ip -n $NAME-s2 route del 10.0.1.0/24 dev l1 table 1771

	out=$(sc route load "$TMP/lanes" --name $NAME)
	check_err $? "load: $out"
	log_info "$out"
	out=$(sc route load "$TMP/lanes" --name $NAME -j | jq -c '[.routes, .changed, .unchanged]')
	check_eq "$out" "[36,0,36]" "second load"
	sc route show "$TMP/lanes" --name $NAME >/dev/null
	check_err $? "route show in sync"
	out=$(sc route load "$TMP/one" --name $NAME -j | jq -c '[.routes, .deleted]')
	check_eq "$out" "[20,16]" "one lane again: each switch's lane 1 table and rule deleted"
	check_eq "$(sluice_rules s1)$(ip -n $NAME-s1 route show table 1771)" "" "s1: no rule, no lane table"
	sc route load "$TMP/lanes" --name $NAME >/dev/null
	out=$(sc route unload --name $NAME)
	check_eq "$out" "unloaded 4 switches: 36 routes removed" "unload"
	check_eq "$(for s in s0 s1 s2 s3; do sluice_rules $s
			ip -n $NAME-$s route show table all proto 177
			ip -n $NAME-$s -f mpls route show | grep "proto 177"; done)" \
		"" "nothing of sluice's left"
}

tests_run
