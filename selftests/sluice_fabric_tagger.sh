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
#
# Runs in the VM (selftests/vm/run sluice_fabric_tagger).

ALL_TESTS="
	tags_load
	tags_errors
	labelled_class
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

tests_run

