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

# opts: the sluice options of a0's root qdisc as compact JSON.
opts()
{
	tc -n "$NS" -j qdisc show dev a0 | jq -cS '.[0].options'
}

# A configuration that sets every option to something non-default.
FULL="classes 4 tag pcp default 3 limit 64Kb pcp-map 0-3:0 4-5:1 6:2 7:3
      dscp-map 46:3 mpls-tc-map 5:0 prio-map 0-15:1"

full_expected()
{
	local dscp=() d

	for d in {0..63}; do
		dscp+=($((d * 4 / 64)))
	done
	dscp[46]=3
	jq -ncS --argjson dscp "[$(IFS=,; echo "${dscp[*]}")]" '{
		classes: 4, tag: "pcp", default: 3, limit: 65536,
		rate: 0, pfc: [], pause_rx: true, xoff: 0, xon: 0, headroom: 0,
		pause_time: 65535,
		watchdog: [], watchdog_action: "drop", detection_time: 200,
		restoration_time: 200, watchdog_poll: 100,
		pcp_map: [0,0,0,0,1,1,2,3], dscp_map: $dscp,
		mpls_tc_map: [0,0,1,1,2,0,3,3],
		prio_map: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],
		default_maps: []}'
}

options_roundtrip_json()
{
	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice $FULL
	check_err $? "add"
	check_eq "$(opts)" "$(full_expected)" "dumped options"
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
	check_eq "$(echo "$text" | grep -c pcp-map)" 0 "default map in text"
	roundtrip_text
}

options_defaults()
{
	local limit

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice
	check_err $? "add"
	# As bfifo: txqueuelen (1000 on veth) MTU-sized frames.
	limit=$((1000 * 1514))
	check_eq "$(opts | jq -c '[.classes, .tag, .default, .limit]')" \
		"[8,\"dscp\",0,$limit]" "scalars"
	check_eq "$(opts | jq -c '.pcp_map')" "[0,1,2,3,4,5,6,7]" "pcp map"
	check_eq "$(opts | jq -c '.dscp_map | map(tostring) | join("")')" \
		"\"$(for d in {0..63}; do printf %d $((d >> 3)); done)\"" \
		"dscp map is the class selector"
	check_eq "$(opts | jq -c '.prio_map')" \
		"[0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7]" "priority map"
	check_eq "$(tc -n "$NS" class show dev a0 | grep -c 'class sluice')" 8 \
		"classes listed"
	check_eq "$(class_json "$NS" a0 | jq -c '[.[].handle]')" \
		'["1:1","1:2","1:3","1:4","1:5","1:6","1:7","1:8"]' "class handles"
	check_eq "$(opts | jq -c '.default_maps')" \
		'["priority","pcp","dscp","mpls-tc"]' "all maps default"
}

# "change" touches only what it names; map entries merge.
options_change_merges()
{
	local before

	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice $FULL
	check_err $? "add"
	before=$(opts)
	tc -n "$NS" qdisc change dev a0 root sluice tag dscp
	check_err $? "change tag"
	check_eq "$(opts)" "$(echo "$before" | jq -cS '.tag = "dscp"')" \
		"only the tag changed"
	tc -n "$NS" qdisc change dev a0 root sluice pcp-map 0:2 dscp-map 0:1
	check_err $? "change maps"
	check_eq "$(opts)" \
		"$(echo "$before" | jq -cS '.tag = "dscp" | .pcp_map[0] = 2 |
					    .dscp_map[0] = 1')" \
		"map entries merged"
}

# Maps the user never set are recomputed for a new class count; a set
# map is kept.
options_maps_follow_classes()
{
	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4 \
		pcp-map 7:0
	check_err $? "add"
	tc -n "$NS" qdisc change dev a0 root sluice classes 8
	check_err $? "grow"
	check_eq "$(opts | jq -c '.mpls_tc_map')" "[0,1,2,3,4,5,6,7]" \
		"default map follows"
	check_eq "$(opts | jq -c '.pcp_map')" "[0,0,1,1,2,2,3,0]" \
		"set map kept"
	check_eq "$(tc -n "$NS" class show dev a0 | grep -c 'class sluice')" 8 \
		"classes after growing"
	check_eq "$(opts | jq -c '.default_maps')" '["priority","dscp","mpls-tc"]' \
		"default maps"
	# Reset to default, the map follows the class count again.
	tc -n "$NS" qdisc change dev a0 root sluice pcp-map default classes 4
	check_err $? "reset and shrink"
	check_eq "$(opts | jq -c '.pcp_map')" "[0,0,1,1,2,2,3,3]" \
		"reset map follows"
	check_eq "$(opts | jq -c '.default_maps')" \
		'["priority","pcp","dscp","mpls-tc"]' "default maps after reset"
}

options_class_limit()
{
	setup || return
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4 limit 10Kb
	check_err $? "add"
	tc -n "$NS" class change dev a0 classid 1:3 sluice limit 3000
	check_err $? "class change"
	check_eq "$(class_json "$NS" a0 |
		    jq -c '[.[].options.limit]')" "[10240,10240,3000,10240]" \
		"class limits"
	# The class limit holds: two 1400-byte frames do not fit in 3000.
	send "$NS" a0 -4 32 -s 1400 -c 1 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "0 0 1 0" "one fits"
	# A qdisc-level limit sets every class's limit.
	tc -n "$NS" qdisc change dev a0 root sluice limit 20Kb
	check_err $? "qdisc limit"
	check_eq "$(class_json "$NS" a0 |
		    jq -c '[.[].options.limit]')" "[20480,20480,20480,20480]" \
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

# slow_opts: the options of the sluice child in a slow_port setup.
slow_opts()
{
	tc -n "$NS" -j -s qdisc show dev a0 |
		jq -c '.[] | select(.kind == "sluice")'
}

options_change_keeps_frames()
{
	local before after

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
	check_eq "$(slow_opts | jq -c '[.options.tag, .options.limit]')" \
		'["pcp",102400]' "new options applied"
	check_eq "$(slow_opts | jq .drops)" 0 "no drops"
	check_eq "$(slow_opts | jq '.packets + .qlen')" 10 "frames sent or queued"
}

# Shrinking the class count drops what the removed classes held, and
# says so in the drop counter; the other classes keep their frames.
options_shrink_drops_removed()
{
	local queued stats sent dropped qlen

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
	stats=$(slow_opts | jq -r '"\(.packets) \(.drops) \(.qlen)"')
	log_info "sent, dropped, queued: $stats"
	read -r sent dropped qlen <<<"$stats"
	check_eq $((sent + dropped + qlen)) 10 "frames accounted for"
	((dropped >= 1 && dropped <= 4))
	check_err $? "$dropped frames dropped, expected 1 to 4 from class 3"
	# Class 0 lost nothing: each of its frames is sent or queued.
	check_eq "$(class_json "$NS" a0 |
		    jq '[.[] | select(.class == "sluice") |
			 .stats.packets + .stats.qlen]')" "$(jq -n '[5, 0]')" \
		"class 0 frames kept, class 1 empty"
}

# TCP over veth is sent as GSO frames of up to 64 KB.  With a 16 KB class
# limit such a frame can never be queued whole, so sluice must segment it
# rather than drop it: the transfer completes and the class counts
# MTU-sized frames.  The segments of one GSO frame arrive at once, so those
# beyond the limit are tail-dropped like any frame (TCP recovers).
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
	sleep 1
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
