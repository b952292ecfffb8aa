#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Options round-trip through tc and the q_sluice.so plugin: what is set is
# what is dumped (JSON and text), the text dump re-parses to the same
# configuration, "change" merges, maps follow the class count only until
# the user sets them, per-class limits, and a change keeps queued frames.
#
#   +------------ ns -------------+
#   | a0 [sluice 1:] -------- b0  |
#   +-----------------------------+

ALL_TESTS="
	options_roundtrip_json
	options_roundtrip_text
	options_defaults
	options_change_merges
	options_maps_follow_classes
	options_class_limit
	options_change_keeps_frames
	options_shrink_drops_removed
	options_gso_segmented
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq
sluice_load

setup()
{
	netns_veth NS a0 b0
}

# qjson: a0's qdiscs as tc dumps them in JSON.  Values are taken out of it
# with one jq for all the checks of a state, as a jq costs a quarter
# second under TCG.
qjson()
{
	tc -n "$NS" -j qdisc show dev a0
}

# opts: the options of a0's root qdisc, cut out of the JSON by bash, for
# comparisons: tc prints them compact, keys in a fixed order.  Without -s
# the options are the qdisc's last member.
opts()
{
	local json

	json=$(qjson) || return
	json=${json#*\"options\":}
	echo "${json%\}\]}"
}

# sluice_classes: how many lines of "tc class show dev a0" name a sluice
# class (grep -c 'class sluice', in bash).
sluice_classes()
{
	local line n=0

	while IFS= read -r line; do
		[[ $line == *"class sluice"* ]] && n=$((n + 1))
	done < <(tc -n "$NS" class show dev a0)
	echo $n
}

# A configuration that sets every option to something non-default.
FULL="classes 4 tag pcp default 3 limit 64Kb pcp-map 0-3:0 4-5:1 6:2 7:3
      dscp-map 46:3 mpls-tc-map 5:0 prio-map 0-15:1"

# full_expected: the options FULL sets, sorted compact JSON, then those of
# the JSON qdisc dump read from stdin, the same way (one jq for both; the
# expected first, so that a missing dump cannot compare equal).
full_expected()
{
	local dscp=() d

	for d in {0..63}; do
		dscp+=($((d * 4 / 64)))
	done
	dscp[46]=3
	jq -cS --argjson dscp "[$(IFS=,; echo "${dscp[*]}")]" -n '{
		classes: 4, tag: "pcp", default: 3, limit: 65536,
		rate: 0, pfc: [], pause_rx: true, xoff: 0, xon: 0, headroom: 0,
		pause_time: 65535,
		watchdog: [], watchdog_action: "drop", detection_time: 200,
		restoration_time: 200, watchdog_poll: 100,
		pcp_map: [0,0,0,0,1,1,2,3], dscp_map: $dscp,
		mpls_tc_map: [0,0,1,1,2,0,3,3],
		prio_map: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],
		default_maps: []}, (input | .[0].options)'
}

options_roundtrip_json()
{
	local v

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice $FULL
	check_err $? "add"
	mapfile -t v < <(qjson | full_expected)
	check_eq "${v[1]}" "${v[0]}" "dumped options"
}

# The text dump, fed back to tc, must give the same configuration, also
# which maps are the user's (the text shows only those).  Leaves the text
# in $text.
roundtrip_text()
{
	local before

	tc -n "$NS" qdisc add dev a0 root handle 1: sluice "$@"
	check_err $? "add $*"
	before=$(opts)
	text=$(tc -n "$NS" qdisc show dev a0 | sed -n 's/.* refcnt [0-9]* //p')
	log_info "text dump: $text"
	tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice $text
	check_err $? "re-add from the text dump"
	check_eq "$(opts)" "$before" "options after re-add"
	tc -n "$NS" qdisc del dev a0 root
}

options_roundtrip_text()
{
	local text

	setup || return
	roundtrip_text $FULL
	roundtrip_text classes 4 dscp-map 46:3
	[[ $text != *pcp-map* ]]
	check_err $? "default map in text: $text"
	roundtrip_text
}

options_defaults()
{
	local limit v

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice
	check_err $? "add"
	# As bfifo: txqueuelen (1000 on veth) MTU-sized frames.
	limit=$((1000 * 1514))
	# One jq for the qdisc's options and the classes' handles.
	mapfile -t v < <({ qjson; class_json "$NS" a0; } | jq -cn '
		input[0].options as $o | input as $c |
		[$o.classes, $o.tag, $o.default, $o.limit], $o.pcp_map,
		($o.dscp_map | map(tostring) | join("")), $o.prio_map,
		[$c[].handle], $o.default_maps')
	check_eq "${v[0]}" "[8,\"dscp\",0,$limit]" "scalars"
	check_eq "${v[1]}" "[0,1,2,3,4,5,6,7]" "pcp map"
	check_eq "${v[2]}" \
		"\"$(for d in {0..63}; do printf %d $((d >> 3)); done)\"" \
		"dscp map is the class selector"
	check_eq "${v[3]}" "[0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7]" "priority map"
	check_eq "$(sluice_classes)" 8 "classes listed"
	check_eq "${v[4]}" '["1:1","1:2","1:3","1:4","1:5","1:6","1:7","1:8"]' \
		"class handles"
	check_eq "${v[5]}" '["priority","pcp","dscp","mpls-tc"]' \
		"all maps default"
}

# "change" touches only what it names; map entries merge.
options_change_merges()
{
	local before tagged merged v

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice $FULL
	check_err $? "add"
	before=$(opts)
	tc -n "$NS" qdisc change dev a0 root sluice tag dscp
	check_err $? "change tag"
	tagged=$(opts)
	tc -n "$NS" qdisc change dev a0 root sluice pcp-map 0:2 dscp-map 0:1
	check_err $? "change maps"
	merged=$(opts)
	# One jq for the three states: each dump, then what it should be.  A
	# missing or broken dump stops jq: four lines or the test fails.
	mapfile -t v < <(printf '%s\n' "$before" "$tagged" "$merged" |
		jq -cSn 'input as $b | input as $t | input as $m |
			 $t, ($b | .tag = "dscp"),
			 $m, ($b | .tag = "dscp" | .pcp_map[0] = 2 |
				   .dscp_map[0] = 1)')
	check_eq "${#v[@]}" 4 "the three dumps read (before, tagged, merged)"
	check_eq "${v[0]}" "${v[1]}" "only the tag changed"
	check_eq "${v[2]}" "${v[3]}" "map entries merged"
}

# Maps the user never set are recomputed for a new class count; a set
# map is kept.
options_maps_follow_classes()
{
	local v

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4 \
		pcp-map 7:0
	check_err $? "add"
	tc -n "$NS" qdisc change dev a0 root sluice classes 8
	check_err $? "grow"
	mapfile -t v < <(qjson |
		jq -c '.[0].options | .mpls_tc_map, .pcp_map, .default_maps')
	check_eq "${v[0]}" "[0,1,2,3,4,5,6,7]" "default map follows"
	check_eq "${v[1]}" "[0,0,1,1,2,2,3,0]" "set map kept"
	check_eq "$(sluice_classes)" 8 "classes after growing"
	check_eq "${v[2]}" '["priority","dscp","mpls-tc"]' "default maps"
	# Reset to default, the map follows the class count again.
	tc -n "$NS" qdisc change dev a0 root sluice pcp-map default classes 4
	check_err $? "reset and shrink"
	mapfile -t v < <(qjson | jq -c '.[0].options | .pcp_map, .default_maps')
	check_eq "${v[0]}" "[0,0,1,1,2,2,3,3]" "reset map follows"
	check_eq "${v[1]}" '["priority","pcp","dscp","mpls-tc"]' \
		"default maps after reset"
}

options_class_limit()
{
	local classes v

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4 limit 10Kb
	check_err $? "add"
	tc -n "$NS" class change dev a0 classid 1:3 sluice limit 3000
	check_err $? "class change"
	classes=$(class_json "$NS" a0)
	# The class limit holds: two 1400-byte frames do not fit in 3000.
	send "$NS" a0 -4 32 -s 1400 -c 1 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "0 0 1 0" "one fits"
	# A qdisc-level limit sets every class's limit.
	tc -n "$NS" qdisc change dev a0 root sluice limit 20Kb
	check_err $? "qdisc limit"
	# One jq for both dumps of the classes.
	mapfile -t v < <(printf '%s\n' "$classes" "$(class_json "$NS" a0)" |
		jq -c '[.[].options.limit]')
	check_eq "${v[0]}" "[10240,10240,3000,10240]" "class limits"
	check_eq "${v[1]}" "[20480,20480,20480,20480]" \
		"class limits after qdisc limit"
}

# Load a slow port so frames stay queued: tbf at 8 kbit/s sends a
# 1000-byte frame every second.
slow_port()
{
	tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 8kbit \
		burst 1600 latency 100s &&
	tc -n "$NS" qdisc add dev a0 parent 1:1 handle 2: sluice "$@"
}

options_change_keeps_frames()
{
	local before after v

	setup || return
	slow_port classes 2 tag dscp
	check_err $? "setup"
	send "$NS" a0 -4 0 -s 1000 -c 10 >/dev/null
	before=$(class_stats "$NS" a0 qlen)
	tc -n "$NS" qdisc change dev a0 parent 1:1 handle 2: sluice tag pcp \
		limit 100Kb dscp-map 0-63:1
	check_err $? "change"
	after=$(class_stats "$NS" a0 qlen)
	log_info "queued before change: $before, after: $after"
	# At most one frame may leave between the two reads.
	(( ${before% *} - ${after% *} <= 1 ))
	check_err $? "queued frames lost by change: $before -> $after"
	# One read, one jq: the options, drops, and sent + queued (constant
	# while tbf moves frames from one to the other).
	mapfile -t v < <(tc -n "$NS" -j -s qdisc show dev a0 |
		jq -c '.[] | select(.kind == "sluice") |
		       [.options.tag, .options.limit], .drops, .packets + .qlen')
	check_eq "${v[0]}" '["pcp",102400]' "new options applied"
	check_eq "${v[1]}" 0 "no drops"
	check_eq "${v[2]}" 10 "frames sent or queued"
}

# Shrinking the class count drops what the removed classes held, and
# says so in the drop counter; the other classes keep their frames.
options_shrink_drops_removed()
{
	local queued stats sent dropped qlen v

	setup || return
	slow_port classes 4 tag dscp
	check_err $? "setup"
	send "$NS" a0 -4 63 -s 1000 -c 1 >/dev/null	# into tbf at once
	send "$NS" a0 -4 0 -s 1000 -c 5 >/dev/null	# class 0
	send "$NS" a0 -4 63 -s 1000 -c 4 >/dev/null	# class 3
	queued=$(class_stats "$NS" a0 qlen)
	log_info "queued: $queued"
	tc -n "$NS" qdisc change dev a0 parent 1:1 handle 2: sluice classes 2
	check_err $? "shrink"
	# tbf may take a class 3 frame between the read and the change, so
	# check what holds whatever the timing: every frame is either sent,
	# dropped by the shrink, or still queued in class 0.
	# The qdisc's counters, then the classes' (read after them, as
	# before), in one jq.
	mapfile -t v < <({ tc -n "$NS" -j -s qdisc show dev a0
			   class_json "$NS" a0; } | jq -rn '
		(input[] | select(.kind == "sluice") |
		 "\(.packets) \(.drops) \(.qlen)"),
		(input | [.[] | select(.class == "sluice") |
			  .stats.packets + .stats.qlen] | tojson)')
	stats=${v[0]}
	log_info "sent, dropped, queued: $stats"
	read -r sent dropped qlen <<<"$stats"
	check_eq $((sent + dropped + qlen)) 10 "frames accounted for"
	((dropped >= 1 && dropped <= 4))
	check_err $? "$dropped frames dropped, expected 1 to 4 from class 3"
	# Class 0 lost nothing: each of its frames is sent or queued.
	check_eq "${v[1]}" "[5,0]" "class 0 frames kept, class 1 empty"
}

# TCP over veth is sent as GSO frames of up to 64 KB.  With a 16 KB class
# limit such a frame can never be queued whole, so sluice must segment it
# rather than drop it: the transfer completes and the class counts
# MTU-sized frames.  The segments of one GSO frame arrive at once, so those
# beyond the limit are tail-dropped like any frame (TCP recovers).
# listening PID PORT: wait until a TCP socket listens on PORT in the
# network namespace of PID (its /proc/PID/net/tcp and tcp6, read by bash:
# a process a poll costs much under TCG), for up to 10 s.
listening()
{
	local i f addr st port

	port=$(printf ':%04X' "$2")
	for ((i = 0; i < 100; i++)); do
		for f in tcp tcp6; do
			# "sl local_address rem_address st ...": 0A is LISTEN.
			while read -r _ addr _ st _; do
				[[ $addr == *"$port" && $st == 0A ]] && return 0
			done 2>/dev/null <"/proc/$1/net/$f"
		done
		[[ -d /proc/$1 ]] || return 1
		nap 0.1
	done
	return 1
}

options_gso_segmented()
{
	local ns2 bytes=2000000 out packets

	setup || return
	netns_add ns2 || return
	ip -n "$NS" link set b0 netns "$ns2" &&
		ip -n "$ns2" link set b0 up &&
		ip -n "$NS" addr add 198.18.0.1/24 dev a0 &&
		ip -n "$ns2" addr add 198.18.0.2/24 dev b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 1 \
			limit 16Kb
	check_err $? "setup"
	out=$(mktemp /tmp/gso.XXXXXX)
	defer rm -f "$out"
	ip netns exec "$ns2" timeout 60 nc -l -p 5000 >"$out" &
	listening "$!" 5000
	check_err $? "nc does not listen"
	head -c $bytes /dev/zero |
		ip netns exec "$NS" timeout 60 nc -N 198.18.0.2 5000
	check_err $? "transfer"
	wait
	check_eq "$(stat -c %s "$out")" $bytes "bytes received"
	packets=$(class_stat "$NS" a0 1:1 packets)
	log_info "frames through the class: $packets," \
		"limit drops: $(class_stat "$NS" a0 1:1 limit_drops)"
	((packets >= bytes / 1500))
	check_err $? "only $packets frames: GSO frames were not segmented"
}

tests_run
