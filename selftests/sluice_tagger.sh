#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tagger's switch model (uapi: "Tagger's switch model"): the switch's
# three maps, loaded with "sluicectl map load", decide each frame's ingress
# priority, egress class and new tag, hop by hop, in namespaces that route
# with the kernel's IPv4 forwarding.
#
# A bounce (tagger_bounce_*): H1 sends to H2 under S2, and S2 sends what
# comes from S1 on to S3 (ip rule iif), which sends it back: the path
# turns at S3, a Tagger boundary, where S3 rewrites flow A's DSCP 8 to 16.
#
#   H1 h1 -- s1h1 S1 s1s2 -- s2s1 S2 s2s3 -- s3s2 S3
#                                 s2h2
#                                  |
#                                 h2 H2
#
#   flow A, DSCP 8: class 4 at S1, S2 and S3; S3 writes DSCP 16; at S2
#                   again class 6 towards H2, charged to s2s3's ingress
#                   priority 4, the class S3 queued it in
#   flow B, DSCP 24: class 5 everywhere, never rewritten
#
# TTL tags (tagger_ttl_*): hosts one, two and three hops away send to HD;
# the IPv4 TTL each frame arrives with picks its class.  HA also sends to
# HE, through S3 and back (S3 routes it out of the port it came in on).
#
#   HA -- S1 -- S2 -- S3 -- HD
#               | |   |
#              HB HE  HC
#
# Lossless by the ingress priority (tagger_lossless_by_ingress_prio): the
# in map makes DSCP 8 priority 3, lossless on the in port sa, the eg map
# sends it to class 5 of the out port sb, lossy there; the frame is
# lossless all the same, as the pause that protects it is priority 3's on
# sa.
#
#   HA ha -- sa [pfc 3 xoff 3000 headroom 1500] S sb [class 5 limit 2000] -- hb HB
#
# Atomic replacement (tagger_atomic_reload): S1 switches between two
# tables while H1 sends steadily; S2 classifies by the tag S1 wrote.
#
#   H1 -- s1h1 S1 s1s2 -- s2s1 S2 s2h2 -- H2
#
# The qdiscs' own tag source is PCP everywhere, so a frame that the
# switch's maps did not classify would land in the default class.

ALL_TESTS="
	tagger_bounce_retag
	tagger_bounce_pause
	tagger_lossless_by_ingress_prio
	tagger_ttl_hops
	tagger_ttl_local
	tagger_atomic_reload
	tagger_half_loaded
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip tcpdump
sluice_load

sluicectl_require

PAUSE_DST=01:80:c2:00:00:01
FRAME=500		# bytes of every data frame, as the qdiscs count them

sctl()
{
	"$SLUICECTL" "$@"
}

# ------------------------------------------------------------ topology
#
# A test first describes its namespaces, links, addresses, routes,
# neighbours and ports (ns_add, sw_add, wire, ipc, neigh, port), then
# topo_apply sets them all up: one ip batch in the root namespace creates
# the namespaces (their sysctls run from it) and every veth pair in its
# two namespaces, then one ip batch and one tc batch per namespace.  ip
# and tc each take a tenth of a second to start under TCG, and a bounce
# took seventy of them one by one.

NSLIST=()		# the namespaces of the test, in order
PORTNS=()		# the namespaces with ports, in order
NSB=			# the root namespace's ip batch: namespaces
LINKS=			# the root namespace's ip batch: veth pairs
declare -A IPB		# NS: its ip batch
declare -A TCB		# NS: its tc batch
declare -A PORTS	# NS: its ports
declare -A MACS		# NS/DEV: the MAC address wire gave DEV
NMAC=0

# ns_add VAR [SYSCTL=VALUE...]: netns_add's namespace at topo_apply
# (named alike, loopback up, no IPv6 autoconfiguration), with the sysctls
# given set in the same sysctl run; its name is in VAR now.
ns_add()
{
	local -n _ns=$1

	_ns=sluice-$1-$$-$RANDOM
	shift
	NSLIST+=("$_ns")
	NSB+="netns add $_ns"$'\n'
	# No IPv6 autoconfiguration: its solicitations would be counted.
	NSB+="netns exec $_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1"
	NSB+=" net.ipv6.conf.default.disable_ipv6=1 $*"$'\n'
	IPB[$_ns]="link set lo up"$'\n'
}

# nss_del: deletes the namespaces of ns_add.
nss_del()
{
	printf 'netns del %s\n' "${NSLIST[@]}" | ip -force -batch -
}

# sw_add VAR: a namespace that forwards IPv4, and lets a path turn back
# (no reverse-path filter, no ICMP redirects).
sw_add()
{
	ns_add "$1" net.ipv4.ip_forward=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		net.ipv4.conf.all.send_redirects=0 \
		net.ipv4.conf.default.send_redirects=0
}

# ipc NS ARGS...: "ip -n NS ARGS" at topo_apply.
ipc()
{
	local ns=$1

	shift
	IPB[$ns]+="$*"$'\n'
}

# wire NSA DEVA ADDRA NSB DEVB ADDRB: a veth pair between two namespaces,
# with an address (CIDR, or - for none) on each end, up.  Each end gets
# its MAC address here (locally administered, 02:...), so that neigh
# knows it before the pair exists.
wire()
{
	local nsa=$1 deva=$2 addra=$3 nsb=$4 devb=$5 addrb=$6 ma mb

	printf -v ma '02:00:00:00:%02x:%02x' $((NMAC >> 8)) $((NMAC & 255))
	printf -v mb '02:00:00:00:%02x:%02x' $(((NMAC + 1) >> 8)) $(((NMAC + 1) & 255))
	NMAC=$((NMAC + 2))
	MACS[$nsa/$deva]=$ma
	MACS[$nsb/$devb]=$mb
	LINKS+="link add $deva netns $nsa address $ma type veth"
	LINKS+=" peer name $devb netns $nsb address $mb"$'\n'
	ipc "$nsa" link set "$deva" up
	ipc "$nsb" link set "$devb" up
	if [[ $addra != - ]]; then
		ipc "$nsa" addr add "$addra" dev "$deva"
	fi
	if [[ $addrb != - ]]; then
		ipc "$nsb" addr add "$addrb" dev "$devb"
	fi
}

# mac NS DEV: DEV's MAC address: the one wire gave it, or else the one
# "ip -br" shows (NAME STATE MAC FLAGS).
mac()
{
	local m=${MACS[$1/$2]}

	[[ $m ]] || read -r _ _ m _ < <(ip -n "$1" -br link show "$2")
	echo "$m"
}

# neigh NS IP DEV PEERNS PEERDEV: a permanent neighbour entry, so that no
# ARP frame ever crosses a port (it would be counted as untagged).
neigh()
{
	ipc "$1" neigh add "$2" lladdr "$(mac "$4" "$5")" dev "$3" nud permanent
}

# port NS DEV OPTIONS...: a sluice root qdisc, the port of a switch, at
# topo_apply.  Frames held by a pause keep their namespace alive until the
# qdisc goes: ports_del deletes them first at teardown.
port()
{
	local ns=$1 dev=$2

	shift 2
	[[ ${TCB[$ns]} ]] || PORTNS+=("$ns")
	TCB[$ns]+="qdisc add dev $dev root handle 1: sluice $*"$'\n'
	PORTS[$ns]+=" $dev"
}

# ports_del NS DEV...: deletes the root qdiscs of the devices.
ports_del()
{
	local ns=$1

	shift
	printf 'qdisc del dev %s root\n' "$@" | tc -n "$ns" -force -batch -
}

# topo_apply: what ns_add, wire, ipc, neigh and port described, in that
# order: the namespaces and the veth pairs, then each namespace's links,
# addresses, routes and neighbours, then the ports.  Fails at the first
# command that fails.
topo_apply()
{
	local ns

	if [[ $NSB$LINKS ]]; then
		((${#NSLIST[@]})) && defer nss_del
		ip -batch - <<<"$NSB$LINKS" || return 1
	fi
	for ns in "${NSLIST[@]}"; do
		ip -n "$ns" -batch - <<<"${IPB[$ns]}" || return 1
	done
	for ns in "${PORTNS[@]}"; do
		# shellcheck disable=SC2086 # the ports' names
		defer ports_del "$ns" ${PORTS[$ns]}
		tc -n "$ns" -batch - <<<"${TCB[$ns]}" || return 1
	done
}

# maps NS: loads the map file read from stdin into NS's switch.
maps()
{
	sctl map load -n "$1" - >/dev/null
}

# sw_stats NS KEY...: switch-wide values (generation, counters) of NS's
# switch on one line, each the first of its name, as jq's
# 'first(.. | objects | select(has(KEY)) | .[KEY])' would find it in
# "sluicectl switch show -j".  Read from the text "switch show" prints,
# the same names and values in the same order ("tag-source" is the JSON's
# tag_source, "maps" its map_entries), with awk: a jq start costs a
# quarter of a second under TCG.
sw_stats()
{
	local ns=$1

	shift
	sctl switch show -n "$ns" | awk -v keys="$*" '
		# "tag-source S generation N ports N", "maps in N eg N tag N
		# ports N", "tagged N untagged N ...": KEY VALUE pairs
		{
			for (i = ($1 == "maps") ? 2 : 1; i < NF; i += 2) {
				k = $i
				gsub("-", "_", k)
				if (!(k in v))
					v[k] = $(i + 1)
			}
		}
		END {
			n = split(keys, ks, " ")
			for (i = 1; i <= n; i++)
				printf "%s%s", (i > 1 ? " " : ""), ((ks[i] in v) ? v[ks[i]] : "")
			print ""
		}'
}

# sw_stat NS KEY: one switch-wide value.
sw_stat()
{
	sw_stats "$1" "$2"
}

# prio_stats NS DEV KEY: an ingress value (ingress_peak, ingress_bytes,
# xoff_tx, xon_tx) of priorities 0..7 of port DEV, one line.
prio_stats()
{
	class_stats "$1" "$2" "$3"
}

# wait_class NS DEV CLASSID N: wait up to 10 s until the class sent N.
# (Deadlines, not counts of tries: under TCG one look at the counters
# takes a good part of a second.)
wait_class()
{
	local end=$((SECONDS + 10))

	while ((SECONDS < end)); do
		(($(class_stat "$1" "$2" "$3" packets) >= $4)) && return 0
		sleep 0.1
	done
	return 1
}

# capture NS DEV: tcpdump of IPv4 on DEV into a new file, whose name is
# left in PCAP; it runs until the test ends.  Returns once tcpdump says it
# is listening: it needs a moment under TCG before it captures, seconds on
# a busy host.  --immediate-mode: each frame is written as it comes, not
# with its buffer's block up to a second later.
capture()
{
	local pid log line end

	PCAP=$(mktemp /tmp/sluice-tagger.XXXXXX.pcap)
	log=$PCAP.log
	: >"$log"
	defer rm -f "$PCAP" "$log"
	ip netns exec "$1" tcpdump -i "$2" -U --immediate-mode -w "$PCAP" ip \
		2>"$log" &
	pid=$!
	defer kill $pid
	end=$((SECONDS + 30))
	while ((SECONDS < end)) && kill -0 $pid 2>/dev/null; do
		while read -r line; do
			[[ $line == *"listening on $2"* ]] && return 0
		done <"$log"
		sleep 0.1
	done
	log_info "tcpdump on $2 is not listening: $(<"$log")"
	return 1
}

# ip_fields PCAP: "TTL DSCP CHECKSUM-STATUS" of each IPv4 frame, counted
# (uniq -c), the header checksum verified by tcpdump -v (1 good, 0 bad, as
# tshark's ip.checksum.status; 2, unverified, for a header cut short).
# tcpdump, not tshark: under TCG tshark takes seven seconds to start.
ip_fields()
{
	tcpdump -r "$1" -nn -v ip 2>/dev/null | awk '
		function hex(s,   i, n) {
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		# "... IP (tos 0x40, ttl 61, ..., length 486[, bad cksum ...])"
		match($0, / IP \(tos 0x[0-9a-f]+/) {
			tos = hex(substr($0, RSTART + 11, RLENGTH - 11))
			match($0, /, ttl [0-9]+/)
			ttl = substr($0, RSTART + 6, RLENGTH - 6)
			print ttl, int(tos / 4), /bad cksum/ ? 0 : /\[\|ip\]/ ? 2 : 1
		}' | sort | uniq -c | awk '{ print $2, $3, $4, "x" $1 }'
}

# ------------------------------------------------------------- bounce

# setup_bounce [S2S3-PFC-OPTIONS...]: the five namespaces of the bounce,
# routed, with their ports and maps.  With options for s2s3 (PFC there),
# s2h2 and s3s2 honour PFC too, as a port does only for its own pfc
# priorities: s2h2 for 6, where H2 pauses flow A, s3s2 for 4, where S2
# pauses it; their xoff, which pfc needs, is never reached.
setup_bounce()
{
	local s2h2= s3s2=

	(($#)) && s2h2="pfc 6 xoff 64k" s3s2="pfc 4 xoff 64k"
	sw_add S1; sw_add S2; sw_add S3; ns_add H1; ns_add H2
	wire "$H1" h1 10.1.1.1/24 "$S1" s1h1 10.1.1.254/24
	wire "$S1" s1s2 10.1.12.1/24 "$S2" s2s1 10.1.12.2/24
	wire "$S2" s2s3 10.1.23.2/24 "$S3" s3s2 10.1.23.3/24
	wire "$S2" s2h2 10.1.2.254/24 "$H2" h2 10.1.2.1/24

	# S1 -> S2; S2 sends what came from S1 to S3, S3 returns it.
	ipc "$S1" route add 10.1.2.0/24 via 10.1.12.2
	ipc "$S2" rule add iif s2s1 lookup 100 pref 100
	ipc "$S2" route add 10.1.2.0/24 via 10.1.23.3 table 100
	ipc "$S3" route add 10.1.2.0/24 via 10.1.23.2
	neigh "$S1" 10.1.12.2 s1s2 "$S2" s2s1
	neigh "$S2" 10.1.23.3 s2s3 "$S3" s3s2
	neigh "$S2" 10.1.2.1 s2h2 "$H2" h2
	neigh "$S3" 10.1.23.2 s3s2 "$S2" s2s3

	port "$S1" s1h1 tag pcp rate 10mbit
	port "$S1" s1s2 tag pcp rate 10mbit
	port "$S2" s2s1 tag pcp rate 10mbit
	port "$S2" s2s3 tag pcp rate 10mbit "$@"
	port "$S2" s2h2 tag pcp rate 1mbit $s2h2
	port "$S3" s3s2 tag pcp rate 10mbit $s3s2
	topo_apply || return 1

	sctl switch set -n "$S1" tag-source dscp >/dev/null &&
	sctl switch set -n "$S2" tag-source dscp >/dev/null &&
	sctl switch set -n "$S3" tag-source dscp >/dev/null || return 1

	maps "$S1" <<-EOF || return 1
	sluice-maps 1
	# flow A on every port, flow B from H1
	in * 8 4
	eg * 8 4
	in s1h1 24 5
	eg s1h1 24 5
	end
	EOF
	maps "$S2" <<-EOF || return 1
	sluice-maps 1
	# first pass, from S1 to S3
	in s2s1 8 4
	eg s2s1 8 4
	in s2s1 24 5
	eg s2s1 24 5
	# back from S3: flow A carries 16 now and waited in class 4 at S3.
	# The port's own in entry wins over every port's, the out port's eg
	# entry over the in port's.
	in s2s3 16 4
	in * 16 7
	eg s2s3 16 3
	eg-out s2h2 16 6
	in s2s3 24 5
	eg * 24 5
	end
	EOF
	maps "$S3" <<-EOF || return 1
	sluice-maps 1
	# the bounce: flow A leaves on the link it came from, tagged 16
	in s3s2 8 4
	eg s3s2 8 4
	tag s3s2 8 16
	in s3s2 24 5
	eg s3s2 24 5
	end
	EOF

	links_wait_up "$H1" h1 && links_wait_up "$S1" s1h1 s1s2 &&
	links_wait_up "$S2" s2s1 s2s3 s2h2 && links_wait_up "$S3" s3s2 &&
	links_wait_up "$H2" h2
}

# send_flows N: H1 sends N frames of flow A, then N of flow B, to H2.
send_flows()
{
	local dst

	dst=$(mac "$S1" s1h1)
	send "$H1" h1 -d "$dst" -a 10.1.1.1,10.1.2.1 -4 8 -s $FRAME -c "$1" \
		>/dev/null &&
	send "$H1" h1 -d "$dst" -a 10.1.1.1,10.1.2.1 -4 24 -s $FRAME -c "$1" \
		>/dev/null
}

# Flow A changes class at S2's second pass only, its DSCP is rewritten
# on the link after S3 (with a valid checksum), and S2 charges the frames
# from S3 to the ingress priority S3 queued them in.
tagger_bounce_retag()
{
	local h2pcap pkts drops peak bytes

	setup_bounce
	check_err $? "setup"
	capture "$H2" h2
	check_err $? "capture at H2"
	h2pcap=$PCAP
	capture "$S3" s3s2
	check_err $? "capture at S3"

	send_flows 10
	check_err $? "send"
	wait_class "$S2" s2h2 1:6 10 && wait_class "$S2" s2h2 1:7 10
	check_err $? "frames did not reach H2"
	sleep 0.5

	check_eq "$(class_stats "$S1" s1s2 packets)" "0 0 0 0 10 10 0 0" \
		"S1 towards S2"
	check_eq "$(class_stats "$S2" s2s3 packets)" "0 0 0 0 10 10 0 0" \
		"S2 towards S3"
	check_eq "$(class_stats "$S3" s3s2 packets)" "0 0 0 0 10 10 0 0" \
		"S3 back to S2"
	{ read -r pkts; read -r drops; } < <(class_table "$S2" s2h2 packets drops)
	check_eq "$pkts" "0 0 0 0 0 10 10 0" "S2 towards H2"
	check_eq "$drops" "0 0 0 0 0 0 0 0" "drops towards H2"

	# On S3's link, both ways: in with TTL 62 and the old tags, out with
	# TTL 61, flow A rewritten.  At H2 (TTL 60): four routing hops.
	check_eq "$(ip_fields "$PCAP" | paste -sd ' ')" \
		"61 16 1 x10 61 24 1 x10 62 24 1 x10 62 8 1 x10" \
		"TTL DSCP checksum-ok xCOUNT on S3's link"
	check_eq "$(ip_fields "$h2pcap" | paste -sd ' ')" \
		"60 16 1 x10 60 24 1 x10" "TTL DSCP checksum-ok xCOUNT at H2"

	# Ingress priorities at S2: from S1 the frames were charged to 4 and
	# 5; from S3 flow A to 4 (its own in entry, not every port's 7), not
	# to the 6 it waits in now.
	check_eq "$(prio_stats "$S2" s2s1 ingress_peak |
		awk '{ print ($5 >= 500), ($6 >= 500), $1 + $2 + $3 + $4 + $7 + $8 }')" \
		"1 1 0" "s2s1 ingress peaks (4 and 5 used, others zero)"
	{ read -r peak; read -r bytes; } < <(class_table "$S2" s2s3 ingress_peak ingress_bytes)
	check_eq "$(awk '{ print ($5 >= 500), ($6 >= 500), $1 + $2 + $3 + $4 + $7 + $8 }' <<<"$peak")" \
		"1 1 0" "s2s3 ingress peaks (4 and 5 used, others zero)"
	check_eq "$bytes" "0 0 0 0 0 0 0 0" \
		"s2s3 ingress accounts after draining"

	check_eq "$(sw_stats "$S3" tagged untagged in_miss eg_miss tag_miss retagged retag_failed class_invalid)" \
		"20 0 0 0 10 10 0 0" \
		"S3 tagged untagged in_miss eg_miss tag_miss retagged retag_failed class_invalid"
	check_eq "$(sw_stats "$S2" tagged untagged in_miss eg_miss retagged)" \
		"40 0 0 0 0" "S2 tagged untagged in_miss eg_miss retagged"
	check_eq "$(sw_stats "$S1" tagged untagged in_miss eg_miss retagged)" \
		"20 0 0 0 0" "S1 tagged untagged in_miss eg_miss retagged"
}

# H2 pauses priority 6 at S2: exactly flow A's frames stop there, flow B
# keeps going.  The frames held are charged to s2s3's priority 4, so S2
# pauses priority 4 at S3 (where flow A waits), never 6; once H2
# resumes, everything drains and S2 resumes S3.
tagger_bounce_pause()
{
	local q6 sent3 q3 ingress v

	setup_bounce pfc 4 xoff 1500 xon 600 pause-time 10000
	check_err $? "setup"

	send "$H2" h2 -d $PAUSE_DST -e 0x8808 \
		-x "$(pfc_payload 0x40 0 0 0 0 0 0 65535 0)" >/dev/null
	check_err $? "pause from H2"
	send_flows 10
	check_err $? "send"
	wait_class "$S2" s2h2 1:6 10
	check_err $? "flow B did not get through while flow A was paused"
	sleep 0.5

	# One look at each port's counters while flow A is held: S2's port
	# to H2, S2's port from S3 (ingress), S3's port back to S2.
	mapfile -t v < <(class_table "$S2" s2h2 1:7/paused 1:7/pfc_rx \
		1:6/paused packets 1:7/qlen)
	check_eq "${v[0]}" 1 "class 6 paused"
	check_eq "${v[1]}" 1 "class 6 pfc_rx"
	check_eq "${v[2]}" 0 "class 5 paused"
	check_eq "${v[3]}" "0 0 0 0 0 10 0 0" "S2 towards H2 while 6 is paused"
	q6=${v[4]}
	mapfile -t ingress < <(class_table "$S2" s2s3 ingress_bytes \
		ingress_peak 1:5/xoff_tx xoff_tx)
	mapfile -t v < <(class_table "$S3" s3s2 1:5/packets 1:5/qlen \
		1:6/packets 1:5/pfc_rx 1:6/pfc_rx)
	sent3=${v[0]}
	q3=${v[1]}
	log_info "flow A: $q6 frames held at S2, $q3 at S3 (S3 sent $sent3)"
	((q6 >= 3))
	check_err $? "only $q6 frames of flow A queued at S2"
	check_eq "$q6" "$sent3" "frames held at S2 = frames S3 sent"
	check_eq "$((sent3 + q3))" 10 "flow A frames at S3, sent and held"
	check_eq "${v[2]}" 10 "flow B at S3"

	# What S2 holds is charged to the priority S3 queued it in.
	check_eq "${ingress[0]}" "0 0 0 0 $((q6 * FRAME)) 0 0 0" \
		"s2s3 ingress accounts"
	check_eq "$(awk '{ print $7 }' <<<"${ingress[1]}")" 0 \
		"s2s3 ingress peak of priority 6"
	((ingress[2] >= 1))
	check_err $? "S2 sent no XOFF for priority 4 to S3"
	check_eq "$(awk '{ $5 = "-"; print }' <<<"${ingress[3]}")" \
		"0 0 0 0 - 0 0 0" "XOFF sent to S3 for priorities other than 4"
	((v[3] >= 1))
	check_err $? "S3's class 4 received no pause"
	check_eq "${v[4]}" 0 "S3's class 5 pfc_rx"

	send "$H2" h2 -d $PAUSE_DST -e 0x8808 \
		-x "$(pfc_payload 0x40 0 0 0 0 0 0 0 0)" >/dev/null
	wait_class "$S2" s2h2 1:7 10
	check_err $? "flow A did not drain after the resume"
	sleep 0.5
	check_eq "$(class_stats "$S2" s2h2 packets)" "0 0 0 0 0 10 10 0" \
		"S2 towards H2 after the resume"
	mapfile -t v < <(class_table "$S2" s2s3 ingress_bytes 1:5/xon_tx)
	check_eq "${v[0]}" "0 0 0 0 0 0 0 0" \
		"s2s3 ingress accounts after draining"
	((v[1] >= 1))
	check_err $? "S2 never resumed priority 4 at S3"
	check_eq "$(class_stat "$S3" s3s2 1:5 paused)" 0 "S3's class 4 paused"
}

# ------------------------------------------------------ lossless by prio

# sb_wait N: until sb's class 5 holds or dropped N frames in all, up to
# 10 s; its counters are in CS then.
sb_wait()
{
	local end=$((SECONDS + 10))

	while ((SECONDS <= end)); do
		class_read "$S" sb &&
			((CS[1:6 qlen] + CS[1:6 drops] >= $1)) && return 0
		nap 0.1
	done
	return 1
}

# Whether a frame is lossless is decided by its priority on its ingress
# port, the port a pause would stop, not by the egress class the eg map
# picks.  HB holds sb with an 802.3x PAUSE (sb has no pfc, so it honours
# PAUSE), HA sends 10 frames of DSCP 8 at a time:
#  - class 5's limit (2000) below sa's XOFF (3000): 4 are queued, 6 dropped
#    at the limit, as headroom drops (a lossy frame would be a limit
#    drop); sa's account never reaches XOFF: no XOFF.
#  - limit 100000: the frames are held back by sa's XOFF + headroom
#    (4500) instead: 5 more are queued, 5 dropped as headroom drops, and
#    sa sends an XOFF for priority 3 (its pause lasts 33 s at 1 Mbit/s: no
#    refresh is sent while the test runs).
tagger_lossless_by_ingress_prio()
{
	local dst end

	sw_add S; ns_add HA; ns_add HB
	wire "$HA" ha 10.4.1.1/24 "$S" sa 10.4.1.254/24
	wire "$S" sb 10.4.2.254/24 "$HB" hb 10.4.2.1/24
	neigh "$S" 10.4.2.1 sb "$HB" hb
	port "$S" sa tag pcp rate 1mbit pfc 3 xoff 3000 xon 1500 headroom 1500
	port "$S" sb tag pcp rate 1mbit
	topo_apply &&
		tc -n "$S" class change dev sb classid 1:6 sluice limit 2000 &&
		sctl switch set -n "$S" tag-source dscp >/dev/null
	check_err $? "setup"
	maps "$S" <<-EOF
	sluice-maps 1
	in sa 8 3
	eg sa 8 5
	end
	EOF
	check_err $? "maps"
	links_wait_up "$HA" ha && links_wait_up "$S" sa sb &&
		links_wait_up "$HB" hb
	check_err $? "links"
	((RET == 0)) || return

	send "$HB" hb -d $PAUSE_DST -e 0x8808 -x 0001ffff >/dev/null
	check_err $? "PAUSE from HB"
	dst=$(mac "$S" sa)
	send "$HA" ha -d "$dst" -a 10.4.1.1,10.4.2.1 -4 8 -s $FRAME -c 10 \
		>/dev/null
	check_err $? "send"
	sb_wait 10
	check_err $? "sb's class 5 did not see the 10 frames"
	check_eq "${CS[1:6 qlen]} ${CS[1:6 drops]} ${CS[1:6 limit_drops]} ${CS[1:6 packets]}" \
		"4 6 0 0" "class 5 below XOFF: qlen drops limit_drops packets"
	qdisc_read "$S" sb
	check_eq "${QS[pause_rx]} ${QS[headroom_drops]} ${QS[limit_drops]}" \
		"1 6 0" "sb below XOFF: pause_rx headroom_drops limit_drops"
	class_read "$S" sa
	check_eq "$(cs_line ingress_bytes) / $(cs_line xoff_tx)" \
		"0 0 0 2000 0 0 0 0 / 0 0 0 0 0 0 0 0" \
		"sa below XOFF: ingress_bytes / xoff_tx"

	tc -n "$S" class change dev sb classid 1:6 sluice limit 100000
	check_err $? "limit 100000"
	send "$HA" ha -d "$dst" -a 10.4.1.1,10.4.2.1 -4 8 -s $FRAME -c 10 \
		>/dev/null
	check_err $? "send"
	sb_wait 20
	check_err $? "sb's class 5 did not see the 20 frames"
	check_eq "${CS[1:6 qlen]} ${CS[1:6 drops]} ${CS[1:6 limit_drops]} ${CS[1:6 packets]}" \
		"9 11 0 0" "class 5 past XOFF: qlen drops limit_drops packets"
	qdisc_read "$S" sb
	check_eq "${QS[headroom_drops]} ${QS[limit_drops]}" "11 0" \
		"sb past XOFF: headroom_drops limit_drops"
	# The XOFF leaves from sa's timer, a moment after the frame.
	end=$((SECONDS + 5))
	while class_read "$S" sa && ((CS[1:4 xoff_tx] < 1 && SECONDS <= end)); do
		nap 0.1
	done
	check_eq "$(cs_line ingress_bytes) / $(cs_line xoff_tx)" \
		"0 0 0 4500 0 0 0 0 / 0 0 0 1 0 0 0 0" \
		"sa past XOFF: ingress_bytes / xoff_tx"
}

# ---------------------------------------------------------------- TTL

TTL_MAPS="sluice-maps 1
in * 64 1
eg * 64 1
in * 63 2
eg * 63 2
in * 62 3
eg * 62 3
in * 61 4
eg * 61 4
end"

# Each host sends with TTL 64; a switch sees TTL 64 from its own hosts,
# 63 from a host one switch away, 62 from two, 61 from three.  The maps
# give those classes 1, 2, 3 and 4; anything else would miss and go to
# class 7.  A frame S3 sends back where it came from was routed too: it
# arrived with TTL 62.
tagger_ttl_hops()
{
	local ns d end pkts peak

	sw_add S1; sw_add S2; sw_add S3
	ns_add HA; ns_add HB; ns_add HC; ns_add HD; ns_add HE
	wire "$HA" ha 10.2.1.1/24 "$S1" s1ha 10.2.1.254/24
	wire "$S1" s1s2 10.2.12.1/24 "$S2" s2s1 10.2.12.2/24
	wire "$HB" hb 10.2.2.1/24 "$S2" s2hb 10.2.2.254/24
	wire "$S2" s2s3 10.2.23.2/24 "$S3" s3s2 10.2.23.3/24
	wire "$HC" hc 10.2.3.1/24 "$S3" s3hc 10.2.3.254/24
	wire "$S3" s3hd 10.2.4.254/24 "$HD" hd 10.2.4.1/24
	wire "$S2" s2he 10.2.5.254/24 "$HE" he0 10.2.5.1/24
	ipc "$S1" route add 10.2.0.0/16 via 10.2.12.2
	ipc "$S2" route add 10.2.4.0/24 via 10.2.23.3
	ipc "$S2" rule add iif s2s1 to 10.2.5.0/24 lookup 100 pref 100
	ipc "$S2" route add 10.2.5.0/24 via 10.2.23.3 table 100
	ipc "$S3" route add 10.2.5.0/24 via 10.2.23.2
	neigh "$S1" 10.2.12.2 s1s2 "$S2" s2s1
	neigh "$S2" 10.2.23.3 s2s3 "$S3" s3s2
	neigh "$S2" 10.2.5.1 s2he "$HE" he0
	neigh "$S3" 10.2.23.2 s3s2 "$S2" s2s3
	neigh "$S3" 10.2.4.1 s3hd "$HD" hd
	for d in "$S1 s1ha" "$S1 s1s2" "$S2 s2s1" "$S2 s2hb" "$S2 s2s3" \
		 "$S2 s2he" "$S3 s3s2" "$S3 s3hc" "$S3 s3hd"; do
		# shellcheck disable=SC2086 # "NS DEV"
		port $d tag pcp default 7 rate 10mbit
	done
	topo_apply
	check_err $? "topology and ports"
	for ns in "$S1" "$S2" "$S3"; do
		sctl switch set -n "$ns" tag-source ip-ttl >/dev/null &&
			maps "$ns" <<<"$TTL_MAPS"
		check_err $? "maps of $ns"
	done
	for d in "$HA ha" "$HB hb" "$HC hc" "$S1 s1ha s1s2" \
		 "$S2 s2s1 s2hb s2s3 s2he" "$S3 s3s2 s3hc s3hd" "$HD hd" \
		 "$HE he0"; do
		# shellcheck disable=SC2086 # "NS DEV..."
		links_wait_up $d
	done

	send "$HA" ha -d "$(mac "$S1" s1ha)" -a 10.2.1.1,10.2.4.1 -4 0 \
		-s $FRAME -c 5 >/dev/null &&
	send "$HB" hb -d "$(mac "$S2" s2hb)" -a 10.2.2.1,10.2.4.1 -4 0 \
		-s $FRAME -c 4 >/dev/null &&
	send "$HC" hc -d "$(mac "$S3" s3hc)" -a 10.2.3.1,10.2.4.1 -4 0 \
		-s $FRAME -c 3 >/dev/null &&
	send "$HA" ha -d "$(mac "$S1" s1ha)" -a 10.2.1.1,10.2.5.1 -4 0 \
		-s $FRAME -c 2 >/dev/null
	check_err $? "send"
	end=$((SECONDS + 10))
	while ((SECONDS < end)); do
		[[ $(class_stats "$S3" s3hd packets) == "0 3 4 5 0 0 0 0" &&
		   $(class_stats "$S2" s2he packets) == "0 0 0 0 2 0 0 0" ]] &&
			break
		sleep 0.1
	done
	check_eq "$(class_stats "$S1" s1s2 packets)" "0 7 0 0 0 0 0 0" \
		"S1 towards S2 (HA's at TTL 64)"
	check_eq "$(class_stats "$S2" s2s3 packets)" "0 4 7 0 0 0 0 0" \
		"S2 towards S3 (HB's at 64, HA's at 63)"
	check_eq "$(class_stats "$S3" s3hd packets)" "0 3 4 5 0 0 0 0" \
		"S3 towards HD (HC's at 64, HB's at 63, HA's at 62)"
	{ read -r pkts; read -r peak; } < <(class_table "$S3" s3s2 packets ingress_peak)
	check_eq "$pkts" "0 0 0 2 0 0 0 0" "S3 back to S2 (HA's to HE, at 62)"
	check_eq "$(class_stats "$S2" s2he packets)" "0 0 0 0 2 0 0 0" \
		"S2 towards HE (HA's at 61)"
	# The ingress priorities follow the same maps, per in port.
	check_eq "$(awk '{ print $1 + $2 + $5 + $6 + $7 + $8, ($3 >= 500), ($4 >= 500) }' <<<"$peak")" \
		"0 1 1" "s3s2 ingress peaks (2 and 3 used, others zero)"
	check_eq "$(prio_stats "$S3" s3hc ingress_peak |
		awk '{ print $1 + $3 + $4 + $5 + $6 + $7 + $8, ($2 >= 500) }')" \
		"0 1" "s3hc ingress peaks (1 used, others zero)"
	check_eq "$(sw_stats "$S3" tagged in_miss eg_miss tag_miss retagged)" \
		"14 0 0 14 0" "S3 tagged in_miss eg_miss tag_miss retagged"
}

# Frames the switch sends itself (no in port) are read as they are: no
# routing decremented their TTL.  IPv4 TTL, IPv6 hop limit, behind a VLAN
# tag; a frame without the tag goes to the qdisc's default class, a TTL
# without an eg entry falls back to it too; MPLS TTL the same way.  An eg
# entry keyed by the in port a0 cannot match a frame that has no in port.
tagger_ttl_local()
{
	netns_add NS && veth_add "$NS" a0 b0 &&
		port "$NS" a0 tag pcp default 7 rate 100mbit && topo_apply &&
		sctl switch set -n "$NS" tag-source ip-ttl >/dev/null
	check_err $? "setup"
	maps "$NS" <<-EOF
	sluice-maps 1
	in * 1 1
	in * 10 1
	in * 63 1
	in * 64 1
	eg * 64 1
	eg * 63 2
	eg-out a0 1 3
	eg a0 10 5
	end
	EOF
	check_err $? "maps"

	# in order, in one sendframes
	send_batch "$NS" a0 >/dev/null <<-EOF
	-4 0 -T 64 -c 1
	-4 0 -T 63 -c 2
	-6 0 -T 1 -c 3
	-v 10:5 -4 0 -T 63 -c 4
	-e 0x88b6 -c 2
	-4 0 -T 10 -c 1
	EOF
	check_err $? "send"
	check_eq "$(class_stats "$NS" a0 packets)" "0 1 6 3 0 0 0 3" \
		"packets per class"
	# 13 frames: 2 without a TTL, of the 11 with one only TTL 10 has no
	# eg entry; none has a tag entry (a TTL source takes none).
	check_eq "$(sw_stats "$NS" tagged untagged in_miss eg_miss tag_miss retagged)" \
		"11 2 0 1 11 0" "tagged untagged in_miss eg_miss tag_miss retagged"

	sctl switch set -n "$NS" tag-source mpls-ttl >/dev/null
	check_err $? "mpls-ttl"
	send_batch "$NS" a0 >/dev/null <<-EOF
	-m 0 -T 63 -c 2
	-4 0 -T 64 -c 1
	EOF
	check_err $? "send MPLS"
	check_eq "$(class_stats "$NS" a0 packets)" "0 1 8 3 0 0 0 4" \
		"packets per class under mpls-ttl"
	check_eq "$(sw_stats "$NS" untagged eg_miss)" "3 1" \
		"untagged eg_miss under mpls-ttl"
}

# ------------------------------------------------------------- reloads

# Table A gives DSCP 8 class 1 and writes 16, table B class 2 and 24.
TABLE_A="sluice-maps 1
in * 8 1
eg * 8 1
tag s1s2 8 16
end"
TABLE_B="sluice-maps 1
in * 8 2
eg * 8 2
tag s1s2 8 24
end"

setup_reload()
{
	sw_add S1; sw_add S2; ns_add H1; ns_add H2
	wire "$H1" h1 10.3.1.1/24 "$S1" s1h1 10.3.1.254/24
	wire "$S1" s1s2 10.3.12.1/24 "$S2" s2s1 10.3.12.2/24
	wire "$S2" s2h2 10.3.2.254/24 "$H2" h2 10.3.2.1/24
	ipc "$S1" route add 10.3.2.0/24 via 10.3.12.2
	neigh "$S1" 10.3.12.2 s1s2 "$S2" s2s1
	neigh "$S2" 10.3.2.1 s2h2 "$H2" h2
	# S1's own DSCP map sends 8 to class 3: where a missing eg entry
	# falls back to.
	port "$S1" s1h1 tag pcp rate 10mbit
	port "$S1" s1s2 tag pcp dscp-map 8:3 rate 10mbit
	port "$S2" s2s1 tag pcp rate 10mbit
	port "$S2" s2h2 tag pcp rate 10mbit
	topo_apply &&
	sctl switch set -n "$S1" tag-source dscp >/dev/null &&
	sctl switch set -n "$S2" tag-source dscp >/dev/null &&
	maps "$S1" <<<"$TABLE_A" || return 1
	# S2 classifies by the tag S1 wrote: 16 to class 5, 24 to class 6.
	maps "$S2" <<-EOF || return 1
	sluice-maps 1
	in s2s1 16 5
	eg s2s1 16 5
	in s2s1 24 6
	eg s2s1 24 6
	end
	EOF
	links_wait_up "$H1" h1 && links_wait_up "$S1" s1h1 s1s2 &&
	links_wait_up "$S2" s2s1 s2h2 && links_wait_up "$H2" h2
}

# reload_send ARGS...: H1 sends DSCP 8 frames to H2.
reload_send()
{
	send "$H1" h1 -d "$(mac "$S1" s1h1)" -a 10.3.1.1,10.3.2.1 -4 8 "$@"
}

# wait_total NS DEV N: wait up to 10 s until the classes of DEV sent N in
# all.
wait_total()
{
	local end=$((SECONDS + 10)) p

	while ((SECONDS < end)); do
		p=$(class_stats "$1" "$2" packets)
		((${p// /+} >= $3)) && return 0
		sleep 0.1
	done
	return 1
}

# Class c at S1 must be class c + 4 at S2: a frame classified by one
# table and tagged by the other would be counted in mismatching classes.
check_same_split()
{
	local up down c

	read -ra c < <(class_stats "$S1" s1s2 packets)
	up="${c[1]} ${c[2]}"
	read -ra c < <(class_stats "$S2" s2h2 packets)
	down="${c[5]} ${c[6]}"
	log_info "$1: classes 1 2 at S1: $up, classes 5 6 at S2: $down"
	check_eq "$down" "$up" "$1: S2's classes 5 6 against S1's 1 2"
}

tagger_atomic_reload()
{
	local gen0 gen1 sender out sent i reloads=20 total

	setup_reload
	check_err $? "setup"

	# Before: table A only.
	reload_send -c 20 >/dev/null
	wait_total "$S2" s2h2 20
	check_eq "$(class_stats "$S1" s1s2 packets)" "0 20 0 0 0 0 0 0" \
		"before: S1"
	check_eq "$(class_stats "$S2" s2h2 packets)" "0 0 0 0 0 20 0 0" \
		"before: S2"

	# During: a steady sender while S1 switches tables.
	gen0=$(sw_stat "$S1" generation)
	out=$(mktemp /tmp/sluice-sender.XXXXXX)
	defer rm -f "$out"
	# The sender is its own process (not a function's subshell, which
	# would ignore the signal as a background job of a script).
	ip netns exec "$H1" "$SENDFRAMES" -i h1 -d "$(mac "$S1" s1h1)" \
		-a 10.3.1.1,10.3.2.1 -4 8 -c 0 -r 200 >"$out" &
	sender=$!
	defer kill $sender
	sleep 0.5
	for ((i = 1; i <= reloads; i++)); do
		if ((i % 2)); then
			maps "$S1" <<<"$TABLE_B"
		else
			maps "$S1" <<<"$TABLE_A"
		fi
		check_err $? "reload $i"
	done
	maps "$S1" <<<"$TABLE_B"
	check_err $? "last reload"
	sleep 0.5
	kill -TERM $sender
	wait $sender
	sent=$(sed -n 's/^sent=\([0-9]*\) .*/\1/p' "$out")
	log_info "during: $sent frames sent under $((reloads + 1)) reloads"
	gen1=$(sw_stat "$S1" generation)
	check_eq "$((gen1 - gen0))" $((reloads + 1)) "generations"
	total=$((20 + sent))
	wait_total "$S2" s2h2 $total
	check_err $? "S2 did not forward all $total frames"
	sleep 0.3
	check_same_split "during"
	class_stats "$S1" s1s2 packets | {
		read -r c0 c1 c2 rest
		((c1 > 20 && c2 > 0)) &&
			[[ "$c0 $rest" == "0 0 0 0 0 0" ]] &&
			((c1 + c2 == total))
	}
	check_err $? "S1's classes do not add up to both tables: $(class_stats "$S1" s1s2 packets)"
	check_eq "$(sw_stats "$S1" in_miss eg_miss tag_miss untagged)" \
		"0 0 0 0" "S1 in_miss eg_miss tag_miss untagged"
	check_eq "$(sw_stats "$S2" in_miss eg_miss untagged)" "0 0 0" \
		"S2 in_miss eg_miss untagged"

	# After: table B only.
	read -r _ c1 c2 _ < <(class_stats "$S1" s1s2 packets)
	reload_send -c 20 >/dev/null
	wait_total "$S2" s2h2 $((total + 20))
	check_eq "$(class_stats "$S1" s1s2 packets | awk '{ print $2, $3 }')" \
		"$c1 $((c2 + 20))" "after: S1's classes 1 2"
	check_same_split "after"
}

# A table without eg entries, then one without in and tag entries: the
# frames fall back (to S1's own DSCP map, to S2's default one) and the
# miss counters say so, frame by frame.
tagger_half_loaded()
{
	local before

	setup_reload
	check_err $? "setup"

	maps "$S1" <<-EOF
	sluice-maps 1
	in * 8 1
	tag s1s2 8 16
	end
	EOF
	check_err $? "table without eg entries"
	reload_send -c 5 >/dev/null
	wait_total "$S2" s2h2 5
	check_eq "$(class_stats "$S1" s1s2 packets)" "0 0 0 5 0 0 0 0" \
		"S1 without eg entries (fallback: S1's DSCP map, 8:3)"
	check_eq "$(class_stats "$S2" s2h2 packets)" "0 0 0 0 0 5 0 0" \
		"S2 (the tag was still written)"
	check_eq "$(sw_stats "$S1" tagged in_miss eg_miss tag_miss retagged)" \
		"5 0 5 0 5" "S1 tagged in_miss eg_miss tag_miss retagged"

	maps "$S1" <<-EOF
	sluice-maps 1
	eg * 8 2
	end
	EOF
	check_err $? "table with eg entries only"
	before=$(sw_stats "$S2" in_miss eg_miss)
	reload_send -c 5 >/dev/null
	wait_total "$S2" s2h2 10
	check_eq "$(class_stats "$S1" s1s2 packets)" "0 0 5 5 0 0 0 0" \
		"S1 with eg entries only"
	# DSCP 8 reaches S2, which has no entry for it: its own default map.
	check_eq "$(class_stats "$S2" s2h2 packets)" "0 5 0 0 0 5 0 0" \
		"S2 (tag 8 kept: S2's default DSCP map)"
	check_eq "$(sw_stats "$S1" tagged in_miss eg_miss tag_miss retagged)" \
		"10 5 5 5 5" "S1 tagged in_miss eg_miss tag_miss retagged"
	check_eq "$before" "0 0" "S2 misses before"
	check_eq "$(sw_stats "$S2" in_miss eg_miss)" "5 5" "S2 in_miss eg_miss"

	# Flushed maps miss everything; the tag source stays.
	sctl map flush -n "$S1" >/dev/null
	check_err $? "flush"
	check_eq "$(sw_stat "$S1" tag_source)" dscp "tag source after flush"
	reload_send -c 5 >/dev/null
	wait_total "$S2" s2h2 15
	check_eq "$(class_stats "$S1" s1s2 packets)" "0 0 5 10 0 0 0 0" \
		"S1 after a flush"
	check_eq "$(sw_stats "$S1" tagged in_miss eg_miss tag_miss)" \
		"15 10 10 10" "S1 tagged in_miss eg_miss tag_miss after a flush"
}

tests_run
