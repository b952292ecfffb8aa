#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# BCube fabrics of servers that forward (PortFC, ICS'25), every port a
# sluice qdisc, and PortFC's results on them (sluicectl experiment bcube):
#
#   bcube_fabric     BCube(4,1) --flow-control portfc: 8 switches and 16
#                    servers, each server its own host (its address on lo,
#                    no host namespace); BuildPathSet's routes loaded, a
#                    server's routes with its address as source; all 240
#                    pairs answer fabric ping; each switch port "portfc
#                    switch" with its port number as index, each server
#                    port "portfc server", n 4, k 1, the thresholds of a
#                    round trip of two MTU frames (xoff 18168, xon 12112 at
#                    1 Mbit/s), one segment a frame (gso_max_segs 1);
#                    then BCube(8,1) (16 switches, 64 servers,
#                    4032 pairs) the same way, timed
#   bcube_modes      plain PFC: priority 3 lossless on every port; PFC*:
#                    every priority, and route load refuses routes without
#                    their tag tables or with another tag source, then
#                    takes them with "tag compute --mode depth" tables (tag
#                    source mpls-depth at every node); refusals that change
#                    nothing: a qdisc option through route load on a
#                    fabric with flow control
#   bcube_deadlock   Fig. 5: four 4-hop flows round a ring of four servers
#                    and four switches (a CBD): under PFC delivery stops
#                    (nothing in the last 2 s) and the live detector
#                    names a 16-queue cycle through
#                    all eight nodes; under PortFC every flow delivers to
#                    the end, no frame dropped
#   bcube_holb       Fig. 4: a congested flow X -> M -> P (P's port three
#                    times oversubscribed) and a victim V -> M sharing the
#                    switch port into M: under PFC the victim falls to
#                    about the congested flow's rate; under PortFC it keeps
#                    at least 3/4 of its fair share (2/3 of a link), and
#                    more than under PFC
#   bcube_incast     8 servers to 1 on BuildPathSet's routes under PFC,
#                    PFC* and PortFC: no frame dropped, delivery near the
#                    receiver's two links, its switch ports' queues sampled
#
# Runs in the VM (selftests/vm/run sluice_bcube); needs veth, mpls_router
# and mpls_iptunnel (loaded here with modprobe).

ALL_TESTS="
	bcube_fabric
	bcube_modes
	bcube_deadlock
	bcube_holb
	bcube_incast
"

source "$(dirname "$0")/lib.sh"

require_cmd ip jq tc
sluice_load

fabric_require

export LC_ALL=C
NAME=sbc
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# the experiment's runs: short, at 1 Mbit/s (a frame is 12 ms on a link)
DURATION=${SLUICE_BCUBE_DURATION:-8}

sc() { "$SLUICECTL" "$@"; }

topo()
{
	[[ -e $TMP/b$1$2.json ]] ||
		sc topo gen bcube --n "$1" --k "$2" -o "$TMP/b$1$2.json" >/dev/null
	echo "$TMP/b$1$2.json"
}

routes()
{
	[[ -e $TMP/b$1$2.routes ]] ||
		sc route compute --topo "$(topo "$1" "$2")" --algo bcube \
			-o "$TMP/b$1$2.routes" >/dev/null 2>&1
	echo "$TMP/b$1$2.routes"
}

# qdisc NODE DEV: the port's root qdisc line
qdisc() { tc -n "$NAME-$1" qdisc show dev "$2" | head -1; }

bcube_fabric()
{
	local out t0 secs n

	out=$(sc fabric up "$(topo 4 1)" --name $NAME --rate 1mbit \
		--flow-control portfc 2>&1)
	check_err $? "fabric up: $out"; ((RET == 0)) || return
	defer sc fabric down --name $NAME
	check_eq "$(head -1 <<<"$out" | sed 's/ in [0-9.]* s$//')" \
		"fabric $NAME up: 8 switches, 16 servers (each its own host), 32 links, 64 qdiscs, flow control portfc" \
		"fabric up"
	check_eq "$(ip netns list | grep -c "^$NAME-")" "24" "namespaces: one per node, none for hosts"
	check_eq "$(ip -n $NAME-srv12 -o -4 addr show dev lo | awk '{ print $4 }' | sort | tr '\n' ' ')" \
		"10.0.6.1/32 127.0.0.1/8 " "srv12's own address on lo"
	out=$(sc fabric show --name $NAME -j)
	check_eq "$(jq -c '[.flow_control, ([.switches[] | select(.server)] | length), (.hosts | length), .hosts[5].name, .hosts[5].port, .hosts[5].gateway]' <<<"$out")" \
		'["portfc",16,16,"srv11","lo",null]' "fabric show -j"
	out=$(sc route load "$(routes 4 1)" --name $NAME 2>&1)
	check_err $? "route load: $out"; ((RET == 0)) || return
	check_eq "$(ip -n $NAME-srv00 route show 10.0.5.0/24 | head -1)" \
		"10.0.5.0/24 proto 177 src 10.0.0.1 " "a server's route has its address as source"
	out=$(sc fabric ping --name $NAME --count 1 -j)
	check_eq "$(jq -c '[.hosts, .pairs, .received, .lost]' <<<"$out")" \
		"[16,240,240,0]" "fabric ping, all pairs"
	# switch sw0-1's port l6 is its third (links 4..7): index 2
	check_eq "$(qdisc sw0-1 l6 | grep -o 'portfc switch portfc-n 4 portfc-k 1 portfc-index 2 portfc-label-base 100 portfc-xoff-a 18168b portfc-xon-a 12112b portfc-xoff-b 18168b portfc-xon-b 12112b')" \
		"portfc switch portfc-n 4 portfc-k 1 portfc-index 2 portfc-label-base 100 portfc-xoff-a 18168b portfc-xon-a 12112b portfc-xoff-b 18168b portfc-xon-b 12112b" \
		"a switch port's options"
	check_eq "$(qdisc srv12 l22 | grep -o 'classes [0-9]*\|portfc server portfc-n 4 portfc-k 1' | tr '\n' ' ')" \
		"classes 10 portfc server portfc-n 4 portfc-k 1 " "a server port's options"
	check_eq "$(ip -n $NAME-srv12 -d link show dev l22 | grep -o 'gso_max_segs [0-9]*')" \
		"gso_max_segs 1" "one segment a frame"
	run_deferred

	t0=$(date +%s%N)
	out=$(sc fabric up "$(topo 8 1)" --name $NAME --rate 1mbit \
		--flow-control portfc 2>&1) &&
		defer sc fabric down --name $NAME &&
		out=$(sc route load "$(routes 8 1)" --name $NAME 2>&1) &&
		out=$(sc fabric ping --name $NAME --count 1 -j)
	check_err $? "BCube(8,1): $out"; ((RET == 0)) || return
	secs=$((($(date +%s%N) - t0) / 1000000))
	check_eq "$(jq -c '[.hosts, .pairs, .received]' <<<"$out")" \
		"[64,4032,4032]" "BCube(8,1) fabric ping"
	n=$(qdisc srv77 l127 | grep -o 'classes [0-9]*')
	check_eq "$n" "classes 18" "a BCube(8,1) server port: (k + 1) n + 2 classes"
	log_info "BCube(8,1): 80 namespaces, 128 links, 256 qdiscs up, 4288 routes loaded and 4032 pairs pinged in $((secs / 1000)).$((secs % 1000 / 100)) s"
}

bcube_modes()
{
	local out tags=$TMP/b41.tags

	out=$(sc fabric up "$(topo 4 1)" --name $NAME --rate 1mbit \
		--flow-control pfc --xoff 18168 --xon 12112 --headroom 8486 2>&1)
	check_err $? "fabric up pfc: $out"; ((RET == 0)) || return
	defer sc fabric down --name $NAME
	check_eq "$(qdisc sw1-2 l26 | grep -o ' pfc [^ ]*')" " pfc 3" "PFC: priority 3"
	check_eq "$(qdisc srv22 l10 | grep -o ' pfc [^ ]*')" " pfc 3" "PFC at servers too"
	out=$(sc route load "$(routes 4 1)" --name $NAME --pfc 3 2>&1)
	check_eq "$?" "2" "qdisc options through route load: refused"
	check_eq "$out" "sluicectl: fabric $NAME has flow control pfc, chosen at fabric up: its qdisc options are not changed by route load" \
		"its message"
	check_eq "$(ip -n $NAME-srv00 route show proto 177 | wc -l)" "0" "no route loaded"
	run_deferred

	out=$(sc fabric up "$(topo 4 1)" --name $NAME --rate 1mbit \
		--flow-control pfc-star --xoff 18168 --xon 12112 2>&1)
	check_err $? "fabric up pfc-star: $out"; ((RET == 0)) || return
	defer sc fabric down --name $NAME
	check_eq "$(qdisc sw1-2 l26 | grep -o ' pfc [^ ]*')" " pfc 0,1,2,3,4,5,6,7" \
		"PFC*: every priority"
	out=$(sc route load "$(routes 4 1)" --name $NAME 2>&1)
	check_eq "$?" "2" "PFC* routes without tag tables: refused"
	grep -q "runs PFC\*: load its routes with their tag tables" <<<"$out"
	check_err $? "its message: $out"
	sc tag compute --topo "$(topo 4 1)" --routes "$(routes 4 1)" --mode depth \
		-o "$tags" >/dev/null
	out=$(sc route load "$(routes 4 1)" --name $NAME --tags "$tags" 2>&1)
	check_eq "$?" "2" "PFC* tag tables read by another source: refused"
	out=$(sc route load "$(routes 4 1)" --name $NAME --tags "$tags" \
		--tag-source mpls-depth -j 2>&1)
	check_err $? "route load --tags: $out"; ((RET == 0)) || return
	check_eq "$(sc -n $NAME-srv13 switch show -j | jq -r .tag_source)" \
		"mpls-depth" "tag source at a server"
	check_eq "$(sc -n $NAME-sw0-3 switch show -j | jq -r .tag_source)" \
		"mpls-depth" "tag source at a switch"
	out=$(sc fabric ping --name $NAME --count 1 -j)
	check_eq "$(jq -c '[.pairs, .received]' <<<"$out")" "[240,240]" \
		"PFC* fabric ping"
}

# experiment PARTS MODES: the experiment's JSON in OUT (exit status in RC)
experiment()
{
	OUT=$(sc experiment bcube --name $NAME --parts "$1" --modes "$2" \
		--duration "$DURATION" -j 2>"$TMP/err")
	RC=$?
	[[ -n $OUT ]] || OUT='{}'
	WHY=$(grep -v '^experiment: ' "$TMP/err"; jq -r '[.parts[]?.runs[] | select(.as_predicted | not) | "\(.mode): \(.why)"] | join("; ")' <<<"$OUT")
}

# jrun PART MODE FILTER: one value of one run's JSON
jrun() { jq -r --arg p "$1" --arg m "$2" ".parts[] | select(.part == \$p) | .runs[] | select(.mode == \$m) | $3" <<<"$OUT"; }

bcube_deadlock()
{
	local v

	experiment deadlock pfc,portfc
	check_eq "$RC" "0" "exit status: $WHY"
	check_eq "$(jq -r '.parts[0].cbd' <<<"$OUT" | cut -d: -f1)" "a CBD" \
		"the ring's paths have a CBD"
	check_eq "$(jrun deadlock pfc '[.verdict, .detector_cycle, .drops] | @tsv')" \
		"$(printf 'deadlock\t1\t0')" "PFC: deadlock, a cycle, no drop"
	check_eq "$(jrun deadlock pfc '[.flows[].samples_mbps[-4:][]] | max')" "0" \
		"PFC: nothing delivered in the last 2 s"
	v=$(jrun deadlock pfc .detector)
	[[ $v == "1 cycle; 8 switches, 16 queues and accounts in the first:"* ]]
	check_err $? "the detector's cycle: $v"
	log_info "PFC: $(jrun deadlock pfc '"stopped at \(.stopped_at) s"'); $v"
	check_eq "$(jrun deadlock portfc '[.verdict, .detector_cycle, .drops] | @tsv')" \
		"$(printf 'flowing\t0\t0')" "PortFC: flowing, no cycle, no drop"
	v=$(jrun deadlock portfc '[.flows[].last_half_mbps] | min')
	check_eq "$(awk -v v="$v" 'BEGIN { print (v > 0.3) }')" "1" \
		"PortFC: every flow delivers (slowest $v Mbit/s in the last half)"
	log_info "PortFC: $(jrun deadlock portfc '[.flows[] | .last_half_mbps * 1000 | round / 1000] | map(tostring) | join(" ")') Mbit/s per flow"
}

bcube_holb()
{
	local pfc portfc fair

	experiment holb pfc,portfc
	check_eq "$RC" "0" "exit status: $WHY"
	fair=$(jq -r '.parts[0].victim_fair_mbps * 1000 | round / 1000' <<<"$OUT")
	pfc=$(jrun holb pfc '.flows[] | select(.role == "victim") | .last_half_mbps * 1000 | round / 1000')
	portfc=$(jrun holb portfc '.flows[] | select(.role == "victim") | .last_half_mbps * 1000 | round / 1000')
	check_eq "$(jrun holb pfc .drops)$(jrun holb portfc .drops)" "00" "no drop"
	check_eq "$(awk -v a="$portfc" -v f="$fair" 'BEGIN { print (a >= 0.75 * f) }')" "1" \
		"PortFC: the victim keeps 3/4 of its fair share ($portfc of $fair Mbit/s)"
	check_eq "$(awk -v a="$portfc" -v b="$pfc" 'BEGIN { print (a > 1.3 * b) }')" "1" \
		"PortFC's victim well above PFC's ($portfc vs $pfc Mbit/s)"
	log_info "victim: PFC $pfc, PortFC $portfc Mbit/s; fair share $fair"
}

bcube_incast()
{
	local m

	experiment incast pfc,pfc-star,portfc
	check_eq "$RC" "0" "exit status: $WHY"
	for m in pfc pfc-star portfc; do
		check_eq "$(jrun incast $m '[.drops, .verdict] | @tsv')" \
			"$(printf '0\tflowing')" "$m: no drop, delivering"
		check_eq "$(jrun incast $m '(.delivered_last_half_mbps > 1.8)')" \
			"true" "$m: near the receiver's two links ($(jrun incast $m .delivered_last_half_mbps))"
		log_info "$m: queue peaks $(jrun incast $m '"\(.queue_a.port) \(.queue_a.peak_bytes), \(.queue_b.port) \(.queue_b.peak_bytes)"') bytes"
	done
}

tests_run
