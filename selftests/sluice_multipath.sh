#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A fabric's multipath modes (sluice/multipath.h): how the ingress switch
# spreads a pair's flows over its paths, measured by which spine carries
# the frames each source port sends.
#
#          spine0      spine1       a leaf-spine of 2 leaves and 2 spines,
#           |   \      /   |        one host each; ecmp's routes: leaf0 ->
#          l0   l2    l1   l3       leaf1 takes path 0 (l0 l2, by spine0)
#           |     \  /     |        or path 1 (l1 l3, by spine1)
#          leaf0   \/     leaf1
#           |      /\       |       what went where: the tx packets of
#         leaf0-h0   leaf1-h0       spine0's l2 and spine1's l3 (toward
#                                   leaf1), read by sportprobe around each
#                                   source port's probes
#
#   mp_hash    fabric up with no --multipath: "multipath hash", policy 1,
#              nexthops of weight 1, no rule; 16 TCP connection attempts
#              from one source port use both spines (each socket's random
#              hash, not its ports, picks), 3 UDP datagrams from one port
#              one spine
#   mp_hash5   --multipath hash5: policy 3 hashing the 5-tuple; 16 source
#              ports, 4 TCP attempts each: every port's 4 on one spine, and
#              both spines used
#   mp_sport   --multipath sport: policy 3 hashing the addresses and the
#              source port (0x13); from each of 16 ports a UDP datagram to
#              port 7771 (an INT probe's) and a TCP attempt to 5001 take the
#              same spine, and both spines are used
#   mp_exact   route load --multipath exact on a hash fabric: refused by
#              leaf1 (a route of its own in a path table), everything put
#              back (rules, routes, policy; the state, which the next load
#              reports "was hash"); then loaded: a rule per
#              path and protocol, a table per path index; UDP and TCP from
#              the first and last port of each path's range (route sport
#              says which) take exactly that path's spine, a port outside
#              every range falls through to the hash; reloaded without
#              --multipath (the mode kept, nothing changed), unloaded (no
#              rule or table of sluice's left), loaded in hash again
#   mp_wcmp    --node-rate spine0=3800kbit at --rate 4mbit, --multipath
#              wcmp: spine0's links shaped at 3.8 Mbit/s at both ends, the
#              others at 4; leaf0's route weighs the paths 19 and 20
#
# Runs in the VM (selftests/vm/run sluice_multipath); needs veth,
# mpls_router and mpls_iptunnel.

ALL_TESTS="
	mp_hash
	mp_hash5
	mp_sport
	mp_exact
	mp_wcmp
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc awk sysctl
sluice_load

fabric_require

SPORTPROBE=$SELFTESTS_DIR/tools/sportprobe
[[ -x $SPORTPROBE ]] || skip_all "$SPORTPROBE is not built (make tools)"

export LC_ALL=C
NAME=smp
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TOPO=$TMP/ls.json
ROUTES=$TMP/ls.routes
# the two spines' ports toward leaf1, in spine order
WATCH=$NAME-spine0/l2,$NAME-spine1/l3

sc() { "$SLUICECTL" "$@"; }

sc topo gen leafspine --leaves 2 --spines 2 --host-ports 1 -o "$TOPO" >/dev/null &&
	sc route compute --topo "$TOPO" --algo ecmp -o "$ROUTES" >/dev/null ||
	skip_all "cannot generate the leaf-spine or its routes"

# mp_up [OPTIONS]: the fabric, taken down when the test ends.
mp_up()
{
	local out

	out=$(sc fabric up "$TOPO" --name $NAME --rate 4mbit "$@" 2>&1)
	check_err $? "fabric up: $out"
	log_info "$out"
	defer sc fabric down --name $NAME
}

# probe ARGS...: sportprobe from leaf0-h0 to leaf1-h0 (port 5001, where
# nothing listens), watching both spines: "SPORT SPINE0 SPINE1" lines.
probe()
{
	ip netns exec $NAME-leaf0-h0 "$SPORTPROBE" -d 10.0.1.1 -w $WATCH "$@"
}

# Under TCG a process start costs about 0.1 s (more with the host busy):
# the checks below read each namespace once and match in bash.

# policy SWITCH: its "hash_policy hash_fields".
policy()
{
	local v

	v=$(ip netns exec "$NAME-$1" sysctl -n net.ipv4.fib_multipath_hash_policy \
		net.ipv4.fib_multipath_hash_fields)
	echo ${v//$'\n'/ }
}

# squeeze TEXT: its runs of blanks, tabs and newlines as one space.
squeeze()
{
	local s=${1//[$'\t\n']/ }

	while [[ $s == *'  '* ]]; do
		s=${s//  / }
	done
	echo "$s"
}

# sluice_of SWITCH: its rules and IPv4 routes of protocol 177 (sluice's),
# every table, squeezed.
sluice_of()
{
	local out

	out=$(ip -4 -n "$NAME-$1" -b - <<-EOF
		rule show
		route show table all proto 177
	EOF
	)
	out=$(squeeze "$out")
	out=${out#*lookup local }
	out=$(squeeze "${out/32766: from all lookup main 32767: from all lookup default/}")
	echo "${out# }"
}

mp_hash()
{
	local out

	mp_up
	out=$(sc fabric show --name $NAME -j)
	[[ $out == *'"lanes":0,"multipath":"hash","node_rates":{},'* ]]
	check_err $? "fabric show -j: $out"
	out=$(policy leaf0)
	[[ $out == "1 "* ]]
	check_err $? "leaf0's hash policy 1: $out"
	out=$(sc route load "$ROUTES" --name $NAME)
	check_err $? "route load: $out"
	check_eq "$(sluice_of leaf0)" \
		"10.0.1.0/24 nexthop encap mpls 101 via 172.16.0.1 dev l0 weight 1 nexthop encap mpls 101 via 172.16.0.3 dev l1 weight 1 " \
		"leaf0: no rule, two nexthops of weight 1"
	# the socket's hash picks: a port's attempts go both ways
	out=$(probe -t -c 1 $(printf '40000 %.0s' {1..16}))
	log_info "TCP from 40000, 16 attempts: $(awk '{ a += $2; b += $3 } END { print a, b }' <<<"$out")"
	check_eq "$(awk '$2 + $3 != 1 { bad++ } $2 { s0++ } $3 { s1++ }
			 END { print bad + 0, (s0 > 0 && s1 > 0) }' <<<"$out")" \
		"0 1" "16 TCP attempts from one port: one frame each, both spines used"
	out=$(probe -u -c 3 40000)
	[[ $out =~ ^40000\ (3\ 0|0\ 3)$ ]]
	check_err $? "3 UDP datagrams from one port, one spine: $out"
}

mp_hash5()
{
	local out

	mp_up --multipath hash5
	[[ $(sc fabric show --name $NAME) == *" multipath hash5 qdisc sluice rate 4mbit"* ]]
	check_err $? "fabric show: multipath hash5"
	check_eq "$(policy leaf0)" "3 55" "leaf0: policy 3, the 5-tuple (0x37)"
	out=$(sc route load "$ROUTES" --name $NAME)
	check_err $? "route load: $out"
	out=$(probe -t -c 2 $(seq 40000 40015))
	log_info "TCP, 2 attempts per port: ${out//$'\n'/, }"
	check_eq "$(awk '!(($2 == 2 && $3 == 0) || ($2 == 0 && $3 == 2)) { bad = bad " " $1 }
			 $2 { s0++ } $3 { s1++ }
			 END { print bad "", (s0 > 0 && s1 > 0) }' <<<"$out")" \
		" 1" "ports split over the spines (listed), or one spine for all"
}

mp_sport()
{
	local out udp tcp

	mp_up --multipath sport
	check_eq "$(policy leaf0)" "3 19" "leaf0: policy 3, addresses and source port (0x13)"
	out=$(sc route load "$ROUTES" --name $NAME)
	check_err $? "route load: $out"
	udp=$(probe -u -p 7771 -c 1 $(seq 40000 40015))
	tcp=$(probe -t -c 1 $(seq 40000 40015))
	log_info "UDP to 7771: ${udp//$'\n'/, }; TCP to 5001: ${tcp//$'\n'/, }"
	check_eq "$tcp" "$udp" "each port's UDP probe and TCP attempt on one spine"
	check_eq "$(awk '$2 { s0++ } $3 { s1++ } END { print (s0 > 0 && s1 > 0) }' <<<"$udp")" \
		1 "both spines used"
}

# expected COUNT: "SPORT SPINE0 SPINE1" for the first and last port of each
# path of leaf0 -> leaf1, as the library gives them (route sport), COUNT on
# the path's spine.
expected()
{
	local line d re='sport ([0-9]+)-([0-9]+) nodes leaf0 (spine[01]) leaf1 '

	sc route sport --topo "$TOPO" "$ROUTES" --pair leaf0,leaf1 |
	while read -r line; do
		[[ $line =~ $re ]] || { echo "unexpected: $line"; continue; }
		[[ ${BASH_REMATCH[3]} == spine0 ]] && d="$1 0" || d="0 $1"
		echo "${BASH_REMATCH[1]} $d"
		echo "${BASH_REMATCH[2]} $d"
	done
}

mp_exact()
{
	local out want ports

	mp_up
	# leaf1 holds a route of its own where its path 1 to leaf0 goes
	ip -n $NAME-leaf1 route add 10.0.0.0/24 dev l3 table 1801
	out=$(sc route load "$ROUTES" --name $NAME --multipath exact 2>&1)
	check_fail $? "a load leaf1 refuses"
	[[ $out == *"switch leaf1: route to leaf0 on path 1 (10.0.0.0/24 table 1801; paths 3 1): File exists"* &&
	   $out == *"nothing changed: every switch holds the routes it held"* ]]
	check_err $? "the refusal: $out"
	check_eq "$(sluice_of leaf0)" "" "leaf0: no rule, no route"
	out="$(policy leaf0) $(policy leaf1)"
	[[ $out =~ ^1\ [0-9]+\ 1\ [0-9]+$ ]]
	check_err $? "the hash policy put back: $out"
	ip -n $NAME-leaf1 route del 10.0.0.0/24 dev l3 table 1801

	out=$(sc route load "$ROUTES" --name $NAME --multipath exact)
	check_eq "$out" "loaded 4 switches: 22 routes, 22 changed (22 added, 0 replaced, 0 deleted)
multipath exact (was hash)" "route load --multipath exact (the state said hash)"
	check_eq "$(sluice_of leaf0)" \
		"1800: from all ipproto tcp sport 20000-20063 lookup 1800 proto 177 1800: from all ipproto udp sport 20000-20063 lookup 1800 proto 177 1801: from all ipproto tcp sport 20064-20127 lookup 1801 proto 177 1801: from all ipproto udp sport 20064-20127 lookup 1801 proto 177 10.0.1.0/24 encap mpls 101 via 172.16.0.1 dev l0 table 1800 10.0.1.0/24 encap mpls 101 via 172.16.0.3 dev l1 table 1801 10.0.1.0/24 nexthop encap mpls 101 via 172.16.0.1 dev l0 weight 1 nexthop encap mpls 101 via 172.16.0.3 dev l1 weight 1 " \
		"leaf0's rules, path tables and multipath route"
	want=$(expected 3)
	ports=$(while read -r p _; do echo "$p"; done <<<"$want")
	check_eq "$(probe -u -c 3 $ports)" "$want" "UDP: the library's path, counted"
	check_eq "$(probe -t -c 3 $ports)" "$want" "TCP: the library's path, counted"
	# path 2's range: the pair has no path 2, the hash picks
	out=$(probe -u -c 3 20128)
	[[ $out =~ ^20128\ (3\ 0|0\ 3)$ ]]
	check_err $? "a port past the ranges: one spine, the hash's: $out"

	out=$(sc route load "$ROUTES" --name $NAME)
	check_eq "$out" "loaded 4 switches: 22 routes, 0 changed (0 added, 0 replaced, 0 deleted)" \
		"reloaded in the fabric's mode: in sync"
	out=$(sc route unload --name $NAME)
	check_eq "$out" "unloaded 4 switches: 22 routes removed" "unload"
	check_eq "$(sluice_of leaf0)$(sluice_of leaf1)" "" "nothing of sluice's left"
	out=$(sc route load "$ROUTES" --name $NAME --multipath hash)
	check_eq "$out" "loaded 4 switches: 10 routes, 10 changed (10 added, 0 replaced, 0 deleted)
multipath hash (was exact)" "back to hash"
	out=$(policy leaf1)
	[[ $out == "1 "* ]]
	check_err $? "leaf1's policy back to 1: $out"
}

mp_wcmp()
{
	local out

	mp_up --node-rate spine0=3800kbit --multipath wcmp
	out=$(sc fabric show --name $NAME -j)
	[[ $out == *'"multipath":"wcmp","node_rates":{"spine0":3800000},'* ]]
	check_err $? "fabric show -j: $out"
	check_eq "$(policy leaf1)" "3 55" "leaf1: the 5-tuple"
	# spine0's links, at either end, and no other link
	out=$(squeeze "$(tc -n $NAME-leaf0 qdisc show; tc -n $NAME-spine0 qdisc show)")
	[[ $out =~ dev\ l0\ [^q]*\ rate\ 3800Kbit.*dev\ l1\ [^q]*\ rate\ 4Mbit.*dev\ l2\ [^q]*\ rate\ 3800Kbit ]]
	check_err $? "link rates: leaf0's l0 and spine0's l2 at 3800Kbit, leaf0's l1 at 4Mbit: $out"
	out=$(sc route load "$ROUTES" --name $NAME)
	check_err $? "route load: $out"
	check_eq "$(sluice_of leaf0)" \
		"10.0.1.0/24 nexthop encap mpls 101 via 172.16.0.1 dev l0 weight 19 nexthop encap mpls 101 via 172.16.0.3 dev l1 weight 20 " \
		"leaf0's weights: 3.8 to 4"
	sc route show "$ROUTES" --name $NAME >/dev/null
	check_err $? "route show in sync, weights included"
}

tests_run
