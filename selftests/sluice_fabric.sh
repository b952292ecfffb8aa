#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fabrics of namespaces (sluicectl fabric) and routes loaded into their
# switches (sluicectl route load): kernel MPLS source routing, one label
# stack per computed path.
#
#   fabric_fc_testbed   FC's Fig. 4a testbed (selftests/topo/fc-testbed.json:
#                       a ring of 4 switches, every link doubled, layers
#                       1,2,1, 4 hosts each): up, fc routes CBD-free, all
#                       loaded, 240 host pairs answer, "route show" in sync, a
#                       second load changes nothing, unload empties the
#                       switches, one switch loaded alone as on a real
#                       machine (--topo, --switch), down leaves no namespace
#   fabric_jellyfish    a 16-switch Jellyfish with edst, ksp and updown
#                       routes, and a 16-switch FC with fc routes: all
#                       240 pairs each time, the loads replacing each other
#   path_adherence      one path pinned for s1 -> s3 (and its reverse): 30
#                       pings move the device counters of exactly that
#                       path's ports, none elsewhere
#   reload_traffic      lossless class 0 (PFC, shaped links): fc, ksp and
#                       edst routes loaded in turn under a ping flood, not
#                       one packet lost, no qdisc drop
#   load_errors         routes of another topology, an unknown switch, a
#                       label the kernel refuses (on the third switch, so
#                       the first two are put back), a switch's namespace
#                       gone: each refused with its message, every switch
#                       keeping its routes
#   load_qdisc_options  route load with qdisc options (fabric up at 100mbit):
#                       every switch port gets them, host ports keep theirs,
#                       a second load changes 0 ports; options the kernel
#                       refuses on the last switch's port (xon above the
#                       xoff it holds) leave every port as it was; fabric
#                       show prints what the ports hold, in tc's words (the
#                       changed port as tc shows it)
#   fc50_up             FC with 50 switches (s = 18, k = 4) and 2 hosts per
#                       switch up in under 60 s (the time is printed), its
#                       fc routes loaded, all 9900 pairs answering
#
# Runs in the VM (selftests/vm/run sluice_fabric); needs veth,
# mpls_router and mpls_iptunnel (loaded here with modprobe).

ALL_TESTS="
	fabric_fc_testbed
	fabric_jellyfish
	path_adherence
	reload_traffic
	load_errors
	load_qdisc_options
	fc50_up
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq ping
sluice_load

fabric_require

export LC_ALL=C
TESTBED=$SELFTESTS_DIR/topo/fc-testbed.json
NAME=sft
FC50_LIMIT=${SLUICE_FC50_LIMIT:-60}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

sc() { "$SLUICECTL" "$@"; }

# fabric_up TOPO [OPTIONS...]: the fabric NAME, taken down when the test ends.
fabric_up()
{
	local out

	out=$(sc fabric up "$@" --name $NAME 2>&1)
	check_err $? "fabric up $*: $out"
	log_info "$out"
	defer sc fabric down --name $NAME
}

# routes TOPO ALGO [OPTIONS...]: a route file, its path printed.
routes()
{
	local topo=$1 algo=$2 out=${1##*/}

	out=$TMP/${out%.json}.$2

	shift 2
	sc route compute --topo "$topo" --algo "$algo" "$@" -o "$out" >/dev/null || return 1
	echo "$out"
}

# load FILE: route load into the fabric; prints its summary line.
load()
{
	sc route load "$1" --name $NAME
}

# ping_all PAIRS [WHAT]: every host pair answers; logs the summary.  One
# jq for the three values (its start costs a quarter second under TCG).
ping_all()
{
	local out rc v

	out=$(sc fabric ping --name $NAME -j)
	rc=$?
	mapfile -t v < <(jq -r '({lost, lost_pairs: .lost_pairs[:5]} | tojson),
		.pairs,
		"pinged \(.pairs) pairs: \(.received) of \(.sent) answered, rtt avg \(.rtt_ms.avg) ms"' <<<"$out")
	check_err $rc "${2:+$2: }fabric ping: ${v[0]}"
	check_eq "${v[1]}" "$1" "${2:+$2: }pairs pinged"
	log_info "${2:+$2: }${v[2]}"
}

fabric_fc_testbed()
{
	local r out n

	fabric_up "$TESTBED"
	check_eq "$(sc fabric show --name $NAME -j | jq -c '[(.switches | length), (.hosts | length), (.links | length), ([.switches[], .hosts[] | select(.up)] | length)]')" \
		"[4,16,8,20]" "fabric show"
	check_eq "$(ip -n $NAME-s1 -j link show | jq -r '[.[] | .ifname + "/" + (.mtu | tostring)] | join(" ")')" \
		"lo/65536 l0/1620 l1/1620 l6/1620 l7/1620 h0/1500 h1/1500 h2/1500 h3/1500" "s1's devices"
	check_eq "$(tc -n $NAME-s1-h0 qdisc show dev eth0 | awk '{print $2}')" "sluice" "a host's qdisc"
	r=$(routes "$TESTBED" fc) || { check_err 1 "route compute"; return; }
	out=$(sc route check --topo "$TESTBED" "$r")
	check_err $? "fc routes of the testbed have a CBD: $out"
	out=$(load "$r")
	check_eq "$out" "loaded 4 switches: 28 routes, 28 changed (28 added, 0 replaced, 0 deleted)" "first load"
	# s1 -> s3 has paths 7 4 | 0 3: s4's port l4 is its label 100, s2's l3 its 103
	out=$(ip -n $NAME-s1 route show 10.0.2.0/24 proto 177)
	check_eq "$(grep -c nexthop <<<"$out")" "2" "s1's route to s3"
	grep -q "encap mpls  100 via 172.16.0.14 dev l7" <<<"$out" &&
		grep -q "encap mpls  103 via 172.16.0.1 dev l0" <<<"$out"
	check_err $? "s1's label stacks to s3 over s4 and s2: $out"
	check_eq "$(ip -n $NAME-s2 -f mpls route show | grep -c 'proto 177')" "4" "s2's label routes"
	ping_all 240
	out=$(load "$r")
	check_eq "$out" "loaded 4 switches: 28 routes, 0 changed (0 added, 0 replaced, 0 deleted)" "second load"
	sc route show --name $NAME "$r" >/dev/null
	check_err $? "route show after load"
	out=$(sc route unload --name $NAME)
	check_eq "$out" "unloaded 4 switches: 28 routes removed" "unload"
	sc route show --name $NAME "$r" >/dev/null
	check_eq "$?" "3" "route show after unload"
	check_eq "$(ip -n $NAME-s1 -f mpls route show | wc -l)" "0" "labels after unload"
	# one switch, as on a real machine: the topology given, no fabric state
	out=$(sc route load "$r" --topo "$TESTBED" --switch s1 --netns $NAME-s1)
	check_eq "$out" "loaded 1 switch: 7 routes, 7 changed (7 added, 0 replaced, 0 deleted)" "one switch"
	out=$(sc route show "$r" --topo "$TESTBED" --switch s1 --netns $NAME-s1)
	check_eq "$out" "switch s1: 7 routes in the file, 7 in the kernel: in sync" "one switch shown"
	check_eq "$(ip -n $NAME-s2 route show proto 177 | wc -l)" "0" "s2 untouched"
	out=$(sc route unload --local --netns $NAME-s1)
	check_eq "$out" "unloaded 1 switch: 7 routes removed" "one switch unloaded"
	out=$(sc fabric down --name $NAME)
	check_eq "$out" "fabric sft down: 20 namespaces removed" "fabric down"
	n=$(ip netns list | grep -c "^$NAME-")
	check_eq "$n" "0" "namespaces left"
	check_fail "$(test -e /run/sluice/$NAME; echo $?)" "state left in /run/sluice"
}

fabric_jellyfish()
{
	local jf=$TMP/jf16.json fc=$TMP/fc16.json algo r out

	sc topo gen jellyfish --switches 16 --inter-ports 4 --host-ports 1 -o "$jf" >/dev/null
	check_err $? "topo gen jellyfish"
	fabric_up "$jf"
	for algo in edst ksp updown; do
		r=$(routes "$jf" $algo) || { check_err 1 "route compute $algo"; return; }
		out=$(load "$r")
		check_err $? "route load $algo: $out"
		log_info "$algo: $out"
		ping_all 240 $algo
	done
	sc fabric down --name $NAME >/dev/null
	# s = 8: the layers (*) picks (1,2,3,2) give every pair a path
	sc topo gen fc --switches 16 --inter-ports 8 --host-ports 1 -o "$fc" >/dev/null
	check_err $? "topo gen fc"
	fabric_up "$fc"
	r=$(routes "$fc" fc) || { check_err 1 "route compute fc"; return; }
	out=$(load "$r")
	check_err $? "route load fc: $out"
	log_info "fc: $out"
	ping_all 240 fc
}

# recount FILE: fixes the totals line of a hand-edited route file.
recount()
{
	awk '
	NR == FNR {
		if (/^s[0-9]+ s[0-9]+:/) {
			sub(/^[^:]*: ?/, "")
			if ($0 != "") {
				n = split($0, p, / \| /)
				paths += n
				for (i = 1; i <= n; i++)
					hops += split(p[i], h, " ") - (p[i] ~ /^@/)
			}
			pairs++
		}
		next
	}
	/^pairs / { $0 = "pairs " pairs " paths " paths " hops " hops " truncated 0" }
	{ print }
	' "$1" "$1" >"$1.new" && mv "$1.new" "$1"
}

# fabric_ns: the fabric's namespaces, one a line.
fabric_ns()
{
	local ns

	ip netns list | while read -r ns _; do
		[[ $ns == "$NAME-"* ]] && echo "$ns"
	done
}

# ns_json CMD...: for each namespace read from stdin, its name as a JSON
# string, then the JSON of "CMD -n NS ..." (e.g. ip -s -j link show): one
# stream for one jq (ns_jq), not a jq a namespace.
ns_json()
{
	local ns

	while read -r ns; do
		echo "\"$ns\""
		"$1" -n "$ns" "${@:2}"
	done
}

# ns_jq [JQ-OPTIONS...] FILTER: FILTER on each document of ns_json's
# stream, with $ns its namespace's name.
ns_jq()
{
	jq -n "${@:1:$#-1}" "foreach inputs as \$x (null;
		if (\$x | type) == \"string\" then \$x else . end;
		if (\$x | type) == \"string\" then empty
		else . as \$ns | \$x | ${!#} end)"
}

# tx_counts: "NS/DEV packets" of every switch port and host eth0.
tx_counts()
{
	fabric_ns | ns_json ip -s -j link show |
		ns_jq -r '.[] | select(.ifname != "lo") | "\($ns)/\(.ifname) \(.stats64.tx.packets)"' |
		sort
}

path_adherence()
{
	local r out before after port delta on_path moved=0 quiet=0 bad=""
	# s1 -l0- s2 -l3- s3, and back: both ends of 0 and 3, and the hosts
	local path_ports=" $NAME-s1/l0 $NAME-s2/l0 $NAME-s2/l3 $NAME-s3/l3 $NAME-s1/h0 $NAME-s3/h0 $NAME-s1-h0/eth0 $NAME-s3-h0/eth0 "

	fabric_up "$TESTBED"
	r=$(routes "$TESTBED" fc) || { check_err 1 "route compute"; return; }
	sed -i -e 's/^s1 s3:.*/s1 s3: 0 3/' -e 's/^s3 s1:.*/s3 s1: 3 0/' "$r"
	recount "$r"
	out=$(load "$r")
	check_err $? "load the pinned routes: $out"
	check_eq "$(ip -n $NAME-s1 route show 10.0.2.0/24 proto 177)" \
		"10.0.2.0/24  encap mpls  103 via 172.16.0.1 dev l0 " "s1's one stack to s3"
	# resolve the neighbours first, then count
	ip netns exec $NAME-s1-h0 ping -c 1 -W 2 10.0.2.1 >/dev/null
	check_err $? "first ping"
	sleep 1
	before=$(tx_counts)
	ip netns exec $NAME-s1-h0 ping -q -c 30 -i 0.02 -W 2 10.0.2.1 >/dev/null
	check_err $? "ping s1-h0 -> s3-h0"
	after=$(tx_counts)
	while read -r port delta; do
		on_path=0
		[[ $path_ports == *" $port "* ]] && on_path=1
		if ((on_path)); then
			((delta >= 30)) && moved=$((moved + 1)) || bad+=" $port:$delta(want>=30)"
		else
			((delta == 0)) && quiet=$((quiet + 1)) || bad+=" $port:$delta(want 0)"
		fi
	done < <(join <(echo "$before") <(echo "$after") | awk '{print $1, $3 - $2}')
	log_info "$moved ports on the path moved, $quiet others did not"
	check_eq "$bad" "" "ports off their expected counts"
	check_eq "$moved" "8" "ports on the path"
}

reload_traffic()
{
	local fc ksp edst out i pid loss drops

	fabric_up "$TESTBED" --rate 100mbit --pfc 0 --xoff 30Kb --xon 20Kb --headroom 60Kb
	fc=$(routes "$TESTBED" fc) && ksp=$(routes "$TESTBED" ksp) &&
		edst=$(routes "$TESTBED" edst) || { check_err 1 "route compute"; return; }
	load "$fc" >/dev/null
	ip netns exec $NAME-s1-h0 ping -c 1 -W 2 10.0.2.1 >/dev/null
	ip netns exec $NAME-s2-h1 ping -c 1 -W 2 10.0.3.3 >/dev/null
	ip netns exec $NAME-s1-h0 ping -q -c 600 -i 0.005 -W 5 10.0.2.1 >"$TMP/p1" 2>&1 &
	pid=$!
	ip netns exec $NAME-s2-h1 ping -q -c 600 -i 0.005 -W 5 10.0.3.3 >"$TMP/p2" 2>&1 &
	for i in 1 2 3; do
		for r in "$ksp" "$edst" "$fc"; do
			out=$(load "$r")
			check_err $? "reload under traffic: $out"
		done
	done
	log_info "last reload: $out"
	wait $pid
	wait
	for i in 1 2; do
		loss=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$TMP/p$i")
		check_eq "$loss" "600" "pings answered (flow $i): $(grep transmitted "$TMP/p$i")"
	done
	drops=$(fabric_ns | while read -r ns; do
		tc -n "$ns" -s qdisc show
	done | awk '/dropped/ { sub(",", "", $7); s += $7 } END { print s + 0 }')
	check_eq "$drops" "0" "qdisc drops"
}

load_errors()
{
	local fc other jf out before after

	fabric_up "$TESTBED"
	fc=$(routes "$TESTBED" fc) || { check_err 1 "route compute"; return; }
	load "$fc" >/dev/null

	# routes computed for another topology
	sc topo gen jellyfish --switches 4 --inter-ports 3 --host-ports 1 -o "$TMP/jf4.json" >/dev/null
	jf=$(routes "$TMP/jf4.json" ksp)
	out=$(load "$jf" 2>&1)
	check_eq "$?" "1" "another topology's routes: exit status"
	[[ $out == *"the routes belong to another topology (4 nodes, 6 links, hash "*"; this one has 4, 8, $(awk '/^topology/ { print $7 }' "$fc"))"* ]]
	check_err $? "another topology's routes: $out"

	# an unknown switch
	out=$(sc route load "$fc" --name $NAME --switch s9 2>&1)
	check_eq "$?" "1" "unknown switch: exit status"
	check_eq "$out" "sluicectl: fabric sft has no switch \"s9\"" "unknown switch"

	# a label s3 cannot hold: ksp's routes go into s1 and s2, then s3
	# refuses its label routes; s1 and s2 must be put back
	ip netns exec $NAME-s3 sysctl -qw net.mpls.platform_labels=101
	before=$(for s in s1 s2 s3 s4; do ip -n $NAME-$s route show proto 177; ip -n $NAME-$s -f mpls route show; done)
	other=$(routes "$TESTBED" ksp)
	out=$(load "$other" 2>&1)
	check_eq "$?" "1" "refused label: exit status"
	log_info "$out"
	check_eq "$out" "sluicectl: switch s3: label 101 (port l3 to s2): Invalid argument: Label >= configured maximum in platform_labels
sluicectl: nothing changed: every switch holds the routes it held" "refused label"
	after=$(for s in s1 s2 s3 s4; do ip -n $NAME-$s route show proto 177; ip -n $NAME-$s -f mpls route show; done)
	check_eq "$after" "$before" "routes after the refused load"
	ip netns exec $NAME-s3 sysctl -qw net.mpls.platform_labels=104
	load "$fc" >/dev/null

	# a switch's namespace gone: nothing is loaded anywhere
	ip netns del $NAME-s4
	before=$(for s in s1 s2 s3; do ip -n $NAME-$s route show proto 177; done)
	out=$(load "$other" 2>&1)
	check_eq "$?" "1" "missing namespace: exit status"
	check_eq "$out" "sluicectl: switch s4: network namespace sft-s4 does not exist
sluicectl: nothing loaded" "missing namespace"
	after=$(for s in s1 s2 s3; do ip -n $NAME-$s route show proto 177; done)
	check_eq "$after" "$before" "routes after the refused load"
	out=$(sc fabric show --name $NAME | grep "^switch s4")
	check_eq "$out" "switch s4 netns sft-s4 missing ports l4 l5 l6 l7 h0 h1 h2 h3" "fabric show"
}

# qsnap NS...: every sluice qdisc's device and options, one line per NS.
qsnap()
{
	(($#)) || return 0
	printf '%s\n' "$@" | ns_json tc -j qdisc show |
		ns_jq -c '[.[] | select(.kind == "sluice") | {ns: $ns, dev, options}]'
}

load_qdisc_options()
{
	local fc out sw hosts hbefore before after n v

	fabric_up "$TESTBED" --hosts-per-switch 1 --rate 100mbit
	fc=$(routes "$TESTBED" fc) || { check_err 1 "route compute"; return; }
	sw=$(for s in s1 s2 s3 s4; do echo $NAME-$s; done)
	hosts=$(fabric_ns | grep -vx "$sw")
	check_eq "$(wc -w <<<"$hosts")" "4" "host namespaces"
	hbefore=$(qsnap $hosts)
	n=$(qsnap $sw | jq -s '[.[][] | select(.dev | test("^[lh][0-9]+$"))] | length')

	out=$(sc route load "$fc" --name $NAME --rate 10mbit --pfc 3 --xoff 50Kb --xon 47Kb --headroom 20Kb 2>&1)
	check_err $? "route load with qdisc options: $out"
	log_info "$out"
	check_eq "$(tail -n 1 <<<"$out")" "qdisc options: $n ports, $n changed" "first load"
	# the switch ports' options, alike; the first's rate and pfc; how many
	mapfile -t v < <(qsnap $sw | jq -s -c '[.[][] | select(.dev | test("^[lh][0-9]+$")) | .options | {rate, pfc, xoff, xon, headroom}] | unique |
		., (.[0] | {rate, pfc}), length')
	out=${v[0]}
	check_eq "${v[1]}" '{"rate":10000000,"pfc":[3]}' "switch ports: rate and pfc"
	check_eq "${v[2]}" "1" "switch ports: all alike: $out"
	check_eq "$(qsnap $hosts)" "$hbefore" "host ports untouched"

	out=$(sc route load "$fc" --name $NAME --rate 10mbit --pfc 3 --xoff 50Kb --xon 47Kb --headroom 20Kb 2>&1)
	check_err $? "second load: $out"
	check_eq "$(tail -n 1 <<<"$out")" "qdisc options: $n ports, 0 changed" "second load"

	# s4's l4 holds a lower xoff: xon 45Kb goes into s1..s3, then the
	# kernel refuses it on s4 l4; every port must be put back
	tc -n $NAME-s4 qdisc change dev l4 root sluice xoff 44Kb xon 40Kb
	check_err $? "tc qdisc change on s4 l4"

	# fabric show: what the ports hold (not what fabric up set), in tc's
	# words: the loaded options on all but s4's l4, which has its own
	out=$(sc fabric show --name $NAME)
	check_err $? "fabric show: $out"
	v=$(tc -n $NAME-s4 qdisc show dev l4 |
		sed -n 's/^qdisc sluice [0-9a-f]*: root refcnt [0-9]* //p')
	grep -qxF "ports 1 qdisc sluice ${v% } on s4/l4" <<<"$out"
	check_err $? "fabric show: s4/l4 as tc shows it ('${v% }'): $(grep '^ports' <<<"$out")"
	# the others (link and host ports differ in limit: their MTUs do)
	check_eq "$(awk '/^ports / { n += $2 } END { print n }' <<<"$out")" "$n" \
		"fabric show: ports listed"
	check_eq "$(grep '^ports ' <<<"$out" | grep -v ' on s4/l4$' |
		grep -vc ' rate 10Mbit pfc 3 pause-rx on xoff 50Kb xon 47Kb headroom 20Kb ')" \
		"0" "fabric show: the loaded options on the other ports"
	check_eq "$(sc fabric show --name $NAME -j |
		jq -r '[(.port_qdiscs | length), (.port_qdiscs[] | select(.node == "s4" and .dev == "l4") | .options | test("xoff 44Kb xon 40Kb"))] | @tsv')" \
		"$n	true" "fabric show -j: port_qdiscs"
	before=$(qsnap $sw $hosts)
	out=$(sc route load "$fc" --name $NAME --xon 45Kb 2>&1)
	check_eq "$?" "1" "refused options: exit status"
	log_info "$out"
	[[ $out == "sluicectl: switch s4: port l4: qdisc options refused: Invalid argument: "*"xon must not be above xoff"*"
sluicectl: nothing changed: every switch holds the routes and qdisc options it held" ]]
	check_err $? "refused options: $out"
	after=$(qsnap $sw $hosts)
	check_eq "$after" "$before" "qdisc options after the refused load"

	check_eq "$(sc fabric down --name $NAME -j)" \
		'{"name":"sft","namespaces_removed":8}' "fabric down -j"
}

fc50_up()
{
	local topo=$TMP/fc50.json r out secs v

	sc topo gen fc --switches 50 --inter-ports 18 --layers 4 --host-ports 2 -o "$topo" >/dev/null
	check_err $? "topo gen fc"
	out=$(sc fabric up "$topo" --name $NAME --hosts-per-switch 2 -j -v)
	check_err $? "fabric up: $out"
	defer sc fabric down --name $NAME
	{ read -r secs; read -r v; } < <(jq -r -c '.seconds.total, .seconds' <<<"$out")
	log_info "50 switches, 100 hosts, 450 links, 1100 qdiscs up in $secs s (limit $FC50_LIMIT s): $v"
	check_eq "$(awk -v s="$secs" -v l="$FC50_LIMIT" 'BEGIN { print (s < l) }')" "1" "time to bring the fabric up"
	r=$(routes "$topo" fc) || { check_err 1 "route compute"; return; }
	out=$(load "$r")
	check_err $? "route load: $out"
	log_info "$out"
	ping_all 9900
}

tests_run
