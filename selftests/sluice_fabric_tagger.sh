#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tagger's tables loaded with a fabric's routes (sluicectl route load
# --tags), and the class of labelled frames.
#
#   tags_load           FC's testbed (a ring of 4 switches, links doubled)
#                       with ECMP's routes, which have a CBD, and Tagger's
#                       tables for them (greedy, 2 priorities) loaded under
#                       the dscp tag source: every pair answers, class 1
#                       (the climb) shows only on s1's and s3's ports
#                       towards s2 and, as many frames, on s2's host ports;
#                       route show --tags in sync; a second load changes
#                       nothing; unload empties the maps, source none
#   tags_errors         a tag file of another route set (both hashes
#                       named), a tag s3's source cannot hold: refused
#                       before anything changes, routes and tag tables
#                       as they were
#   labelled_class      "default 3" with PFC on priority 3: a DSCP 24 flow
#                       (class 3 by the DSCP map) is in class 3 on every
#                       port of its path, also where it carries a label
#   depth_bounce        a chain s1 - s2 - s3 whose route s1 -> s2 bounces
#                       off s3 (links 0 1 1: two labels pushed at s1, one
#                       popped at s2 and at s3): under mpls-depth with
#                       "tag compute --mode depth" tables, each hop's
#                       frames are in the class of the hops still to go
#                       (2 on s1's link, 1 on s2's first pass, 0 on s3's
#                       way back and to s2's host); under mpls-ttl with ttl
#                       tables the same frames read one TTL on both
#                       labelled hops (the inner label's TTL is never
#                       decremented) and none after the last pop; depth
#                       tables under dscp refused, route show in sync
#
# Runs in the VM (selftests/vm/run sluice_fabric_tagger).

ALL_TESTS="
	tags_load
	tags_errors
	labelled_class
	depth_bounce
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc jq ping
sluice_load

fabric_require

export LC_ALL=C
TESTBED=$SELFTESTS_DIR/topo/fc-testbed.json
NAME=sft
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

sc() { "$SLUICECTL" "$@"; }

fabric_up()
{
	local out

	out=$(sc fabric up "$@" --name $NAME 2>&1)
	check_err $? "fabric up $*: $out"
	defer sc fabric down --name $NAME
}

routes()
{
	local out=$TMP/$1.routes

	sc route compute --topo "$TESTBED" --algo "$1" -o "$out" >/dev/null || return 1
	echo "$out"
}

# class_tx: "NODE/DEV CLASS PACKETS" of every switch port, classes that sent.
class_tx()
{
	sc fabric stats --name $NAME -j |
		jq -r '.[] | select(.node | test("-h") | not) | .node + "/" + .dev as $p
		       | .classes[] | select(.packets > 0) | "\($p) \(.class) \(.packets)"' | sort
}

# tags NS: "SOURCE ENTRIES" of a switch.  Read from sluicectl's plain JSON
# with bash ({"tag_source":"S",...,"map_entries":{"in":N,"eg":N,"tag":N,
# ...}}): no jq, whose start costs a quarter of a second under TCG.
tags_of()
{
	local js

	js=$(sc -n "$1" switch show -j) || return
	if [[ $js =~ \"tag_source\":\"([^\"]*)\".*\"map_entries\":\{\"in\":([0-9]+),\"eg\":([0-9]+),\"tag\":([0-9]+)[,}] ]]; then
		echo "${BASH_REMATCH[1]} $((BASH_REMATCH[2] + BASH_REMATCH[3] + BASH_REMATCH[4]))"
	else
		echo "unexpected switch show -j: $js"
	fi
}

tags_load()
{
	local r tags out c1 n1 other tx ping sw rc
	local -A map

	fabric_up "$TESTBED"
	r=$(routes ecmp) || { check_err 1 "route compute"; return; }
	sc route check --topo "$TESTBED" "$r" >/dev/null
	check_eq "$?" "3" "ecmp's routes have a CBD"
	tags=$TMP/ecmp.tags
	out=$(sc tag compute --topo "$TESTBED" --routes "$r" --max-priorities 2 -o "$tags" 2>&1)
	check_err $? "tag compute: $out"
	log_info "$out"
	out=$(sc route load "$r" --name $NAME --tags "$tags" 2>&1)
	check_err $? "route load --tags: $out"
	log_info "$out"
	for s in s1 s2 s3 s4; do
		out=$(tags_of $NAME-$s)
		check_eq "${out%% *}" "dscp" "$s's tag source"
	done
	out=$(sc route show "$r" --name $NAME --tags "$tags")
	check_err $? "route show --tags: $out"
	check_eq "$(grep -c 'tag tables in sync' <<<"$out")" "4" "route show: tag tables"

	out=$(sc fabric ping --name $NAME -j)
	rc=$?
	# What the checks need of it from one jq: the summary of losses and
	# the count of answers.
	mapfile -t ping < <(jq -c '{lost, lost_pairs: .lost_pairs[:5]}, .received' <<<"$out")
	check_err $rc "fabric ping: ${ping[0]}"
	check_eq "${ping[1]}" "240" "pairs answering"
	# Class 1 exactly where the tables put frames in it: every port that
	# sent class 1 has an eg-out entry to class 1 (labelled hops too: the
	# DSCP is read under the label stack), and the paths that climb
	# towards s2 (s4's requests, 16 pairs) reach s2's hosts in class 1.
	tx=$(class_tx)
	c1=$(awk '$2 == 1' <<<"$tx")
	log_info "class 1: $(tr '\n' ' ' <<<"$c1")"
	while read -r port cls n; do
		[[ -n $port ]] || continue
		# Each switch's maps read once, however many of its ports.
		sw=${port%%/*}
		[[ -v map[$sw] ]] || map[$sw]=$(sc -n "$NAME-$sw" map show)
		grep -Eq "^eg-out ${port#*/} [0-9]+ 1\$" <<<"${map[$sw]}"
		check_err $? "class 1 ($n frames) on $port, which no eg-out entry sends to class 1"
	done <<<"$c1"
	n1=$(awk '$1 ~ /^s2\/h/ { n += $3 } END { print n + 0 }' <<<"$c1")
	((n1 >= 16))
	check_err $? "class 1 on s2's host ports: $n1 frames, expected at least 16"
	# Read again: nothing may have gone above class 1 since either.
	tx=$(class_tx)
	check_eq "$(awk '$2 > 1' <<<"$tx")" "" "classes above 1"

	out=$(sc route load "$r" --name $NAME --tags "$tags")
	check_eq "$out" "loaded 4 switches: 28 routes, 0 changed (0 added, 0 replaced, 0 deleted)" "second load"
	out=$(sc route unload --name $NAME)
	check_eq "$out" "unloaded 4 switches: 28 routes removed
tag tables emptied and tag source none on 4 switches" "unload"
	check_eq "$(tags_of $NAME-s2)" "none 0" "s2 after unload"
}

tags_errors()
{
	local fc ecmp ksp tags out before after

	fabric_up "$TESTBED"
	fc=$(routes fc) && ecmp=$(routes ecmp) && ksp=$(routes ksp) ||
		{ check_err 1 "route compute"; return; }
	tags=$TMP/ecmp.tags
	sc tag compute --topo "$TESTBED" --routes "$ecmp" --max-priorities 2 -o "$tags" >/dev/null
	sc route load "$fc" --name $NAME >/dev/null
	snap() { for s in s1 s2 s3 s4; do ip -n $NAME-$s route show proto 177; ip -n $NAME-$s -f mpls route show; tags_of $NAME-$s; done; }
	before=$(snap)

	# ksp's routes with ecmp's tag tables
	out=$(sc route load "$ksp" --name $NAME --tags "$tags" 2>&1)
	check_eq "$?" "1" "another route set's tags: exit status"
	[[ $out == *"the tag file is for routes with hash $(awk '/^routes/ { print $11 }' "$tags") (algo ecmp), the route file's hash is "* ]]
	check_err $? "another route set's tags: $out"
	check_eq "$(snap)" "$before" "after another route set's tags"

	# under PCP (tags 0-7), s3's new tag 9 is refused before anything
	# changes
	awk '/^node / { n = $2 } /^mode / { $NF = 10 }
	     n == "s3" && $0 == "out 2 0 0 1" { $0 = "out 2 0 0 9" } { print }' "$tags" >"$TMP/bad.tags"
	out=$(sc route load "$ecmp" --name $NAME --tags "$TMP/bad.tags" --tag-source pcp 2>&1)
	check_eq "$?" "1" "refused entry: exit status"
	log_info "$out"
	check_eq "$out" "sluicectl: switch s3: tag tables: node s3: \"out 2 0 0 9\": tag 9 does not fit pcp (0 to 7)
sluicectl: nothing loaded"
	check_err $? "refused entry: $out"
	after=$(snap)
	check_eq "$after" "$before" "routes and tag tables after the refused entry"
}

labelled_class()
{
	local fc b a out

	fabric_up "$TESTBED" --rate 10mbit --pfc 3 --xoff 50Kb --xon 47Kb --headroom 20Kb --default 3
	fc=$(routes fc) || { check_err 1 "route compute"; return; }
	sc route load "$fc" --name $NAME >/dev/null
	b=$(class_tx)
	# s1-h0 -> s3-h0 (2 links: labelled on s1's link port), DSCP 24
	out=$(sc fabric exec --name $NAME s1-h0 -- ping -q -c 30 -i 0.02 -Q 0x60 10.0.2.1 2>&1)
	check_err $? "ping: $out"
	a=$(class_tx)
	out=$(join -a2 -e0 -o 2.1,2.2,1.3,2.3 <(awk '{print $1":"$2, $2, $3}' <<<"$b" | sort) \
		<(awk '{print $1":"$2, $2, $3}' <<<"$a" | sort) |
		awk '{ d = $4 - $3; if (d) print $1, d }')
	log_info "per port and class: $(tr '\n' ' ' <<<"$out")"
	# requests s1 -> x -> s3 and replies s3 -> y -> s1: 4 link ports, 2 host ports
	check_eq "$(awk '$1 ~ /\/l[0-9]+:3$/ && $2 >= 30' <<<"$out" | wc -l)" "4" "link ports with the flow in class 3"
	check_eq "$(awk '$1 ~ /\/h0:3$/ && $2 >= 30' <<<"$out" | wc -l)" "2" "host ports with the flow in class 3"
	check_eq "$(awk '$1 !~ /:3$/' <<<"$out")" "" "other classes"
}



# ping_classes: "NODE/DEV:CLASS ..." into CLASSES, each switch port and
# class that sent at least 20 frames of "ping -c 20" s1-h0 -> s2-h0 (and
# its replies), in one line.
ping_classes()
{
	local b a out

	b=$(class_tx)
	out=$(sc fabric exec --name $NAME s1-h0 -- ping -q -c 20 -i 0.02 10.0.1.1 2>&1)
	check_err $? "ping: $out"
	a=$(class_tx)
	out=$(join -a2 -e0 -o 2.1,1.2,2.2 <(awk '{print $1":"$2, $3}' <<<"$b" | sort) \
		<(awk '{print $1":"$2, $3}' <<<"$a" | sort) |
		awk '{ d = $3 - $2; if (d) print $1, d }')
	log_info "per port and class: $(tr '\n' ' ' <<<"$out")"
	CLASSES=$(awk '$2 >= 20 { print $1 }' <<<"$out" | tr '\n' ' ')
}

depth_bounce()
{
	local topo=$TMP/chain.json r=$TMP/bounce.routes out

	cat >"$topo" <<-EOF
	{
	  "format": "sluice-topology",
	  "version": 1,
	  "nodes": [
	    {"name":"s1","hosts":1},
	    {"name":"s2","hosts":1},
	    {"name":"s3","hosts":1}
	  ],
	  "links": [
	    {"a":"s1","b":"s2"},
	    {"a":"s2","b":"s3"}
	  ]
	}
	EOF
	fabric_up "$topo" --default 7
	# ecmp's routes, but s1 -> s2 (link 0) turns back at s3: 0 1 1
	sc route compute --topo "$topo" --algo ecmp -o "$TMP/chain.routes" >/dev/null &&
		sed 's/^s1 s2: 0$/s1 s2: 0 1 1/; s/ hops 8 / hops 10 /' \
			"$TMP/chain.routes" >"$r" &&
		sc tag compute --topo "$topo" --routes "$r" --mode depth \
			-o "$TMP/depth.tags" >/dev/null &&
		sc tag compute --topo "$topo" --routes "$r" --mode ttl \
			-o "$TMP/ttl.tags" >/dev/null
	check_err $? "routes and tag tables"
	check_eq "$(grep -c '^s1 s2: 0 1 1$' "$r")" "1" "the bounce in the routes"

	out=$(sc route load "$r" --name $NAME --tags "$TMP/depth.tags" --tag-source mpls-depth 2>&1)
	check_err $? "route load --tags (depth): $out"
	check_eq "$(tags_of $NAME-s2)" "mpls-depth 8" "s2's tag source and entries"
	out=$(sc route show "$r" --name $NAME --tags "$TMP/depth.tags" --tag-source mpls-depth)
	check_err $? "route show --tags (depth): $out"
	check_eq "$(grep -c 'tag tables in sync' <<<"$out")" "3" "route show: depth tables"
	# requests: s1 l0 with 2 labels, s2 l1 with 1, s3 l1 (back) and s2
	# h0 with none; replies s2 -> s1 in one hop, with none
	ping_classes
	check_eq "$CLASSES" "s1/h0:0 s1/l0:2 s2/h0:0 s2/l0:0 s2/l1:1 s3/l1:0 " \
		"classes under mpls-depth"

	# depth tables need the depth: under the default source (dscp) they
	# are refused before anything changes
	out=$(sc route load "$r" --name $NAME --tags "$TMP/depth.tags" 2>&1)
	check_eq "$out" "sluicectl: switch s1: tag tables: node s1: depth tables under dscp: they are keyed by the label stack's depth, which only the mpls-depth tag source reads
sluicectl: nothing loaded" "depth tables under dscp"
	check_eq "$(tags_of $NAME-s2)" "mpls-depth 8" "s2 after the refusal"

	out=$(sc route load "$r" --name $NAME --tags "$TMP/ttl.tags" --tag-source mpls-ttl 2>&1)
	check_err $? "route load --tags (ttl): $out"
	# what ttl's tables want of s2's first pass: TTL 63 (tag 1), class 1
	grep -qx "eg-out l1 63 1" <<<"$(sc -n $NAME-s2 map show)"
	check_err $? "s2's ttl tables: no eg-out l1 63 1"
	# ttl's tables want class 0 on s1's link and 1 on s2's first pass;
	# both read the TTL s1 gave both labels, and the frames without a
	# label fall to the default class
	ping_classes
	check_eq "$CLASSES" "s1/h0:7 s1/l0:0 s2/h0:7 s2/l0:7 s2/l1:0 s3/l1:7 " \
		"classes under mpls-ttl"
}

tests_run
