#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-band telemetry: every sluice port a probe leaves stamps the next
# record of it (uapi: "In-band telemetry"), read back by "sluicectl int
# probe" from the echo of "sluicectl int echo".
#
#   H1 h1 --l1-- a1 S1 b1 --l2-- a2 S2 b2 --l3-- a3 S3 b3 --l4-- h2 H2
#
# Five namespaces, IPv4 forwarded by S1..S3, every neighbour permanent (no
# ARP) and IPv6 off, so that nothing but what a test sends crosses a port.
# The six switch ports are sluice ports (rate 5mbit, priority 3 lossless,
# int-port 7771, int-node the switch's number, int-link the number of the
# link the port is on); the hosts' ports are not.  A probe from H1 to H2
# leaves b1, b2 and b3: three records, (node, link) (1, 2), (2, 3), (3, 4).
# Its echo goes back to the prober's own port, which no port stamps.
#
#   int_records     one record per port, in path order: node, ifindex,
#                   link, rate, class right; timestamps from the sender's
#                   on, increasing hop by hop, then the echo's; int_stamped
#                   counts on b1..b3 and nowhere else
#   int_tx_bytes    between two probes H1 sends 20 frames of 300 bytes:
#                   each port's tx_bytes grows by exactly those and the
#                   first probe
#   int_backlog     a PFC pause from S3 holds priority 3 on b2, which then
#                   queues 6 frames of DSCP 24: a probe in class 0 naming
#                   priority 3 records at b2 the class's backlog as "tc -s
#                   class show" reports it, paused, and 0 elsewhere
#   int_checksum    H1 computes UDP checksums in software (tx off): the
#                   stamped probe arrives at H2 with a checksum tcpdump
#                   finds right, and UdpInCsumErrors does not move
#   int_full        a probe of 2 records: stamped by b1 and b2, flagged full
#                   by b3, whose int_full counts it
#   int_malformed   datagrams to the port that are no probe (bad magic; a
#                   header promising more records than the datagram holds)
#                   arrive byte for byte as sent, counted as int_malformed
#   int_off         int-port 0 on b2: it stamps nothing, the others do
#
# Runs in the VM (selftests/vm/run sluice_int).

ALL_TESTS="
	int_records
	int_tx_bytes
	int_backlog
	int_checksum
	int_full
	int_malformed
	int_off
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc tcpdump ethtool
sluice_load
sluicectl_require

PORT=7771
PAUSE_DST=01:80:c2:00:00:01
# The bytes a probe of N records takes on the wire: Ethernet, IPv4, UDP,
# the header and N records.
probe_len() { echo $((14 + 20 + 8 + 32 + 48 * $1)); }

TMP=$(mktemp -d)
H1=sluice-int-h1-$$ S1=sluice-int-s1-$$ S2=sluice-int-s2-$$
S3=sluice-int-s3-$$ H2=sluice-int-h2-$$
ECHO_PID=

cleanup()
{
	local ns

	[[ -n $ECHO_PID ]] && kill "$ECHO_PID" 2>/dev/null
	for ns in $H1 $S1 $S2 $S3 $H2; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# The MAC of each end: 02:00:00:00:LINK:HOST.
MAC_h1=02:00:00:00:01:01 MAC_a1=02:00:00:00:01:fe
MAC_b1=02:00:00:00:02:01 MAC_a2=02:00:00:00:02:02
MAC_b2=02:00:00:00:03:01 MAC_a3=02:00:00:00:03:02
MAC_b3=02:00:00:00:04:fe MAC_h2=02:00:00:00:04:01

# port_qdisc NODE LINK DEV: tc's batch line for port DEV of switch NODE on
# LINK.
port_qdisc()
{
	echo "qdisc add dev $3 root handle 1: sluice rate 5mbit pfc 3" \
		"xoff 100000 int-port $PORT int-node $1 int-link $2"
}

# The chain, once for all tests (each leaves it as it found it).
setup()
{
	local ns

	for ns in $H1 $S1 $S2 $S3 $H2; do
		ip netns add "$ns" || return 1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv4.ip_forward=1 || return 1
	done
	ip -n "$H1" -b - <<-EOF &&
		link set lo up
		link add h1 address $MAC_h1 type veth peer name a1 address $MAC_a1 netns $S1
		link set h1 up
		addr add 198.18.1.1/24 dev h1
		neigh add 198.18.1.254 lladdr $MAC_a1 dev h1
		route add default via 198.18.1.254
	EOF
	ip -n "$S1" -b - <<-EOF &&
		link set lo up
		link add b1 address $MAC_b1 type veth peer name a2 address $MAC_a2 netns $S2
		link set a1 up
		link set b1 up
		addr add 198.18.1.254/24 dev a1
		addr add 198.18.2.1/24 dev b1
		neigh add 198.18.1.1 lladdr $MAC_h1 dev a1
		neigh add 198.18.2.2 lladdr $MAC_a2 dev b1
		route add 198.18.3.0/24 via 198.18.2.2
		route add 198.18.4.0/24 via 198.18.2.2
	EOF
	ip -n "$S2" -b - <<-EOF &&
		link set lo up
		link add b2 address $MAC_b2 type veth peer name a3 address $MAC_a3 netns $S3
		link set a2 up
		link set b2 up
		addr add 198.18.2.2/24 dev a2
		addr add 198.18.3.1/24 dev b2
		neigh add 198.18.2.1 lladdr $MAC_b1 dev a2
		neigh add 198.18.3.2 lladdr $MAC_a3 dev b2
		route add 198.18.1.0/24 via 198.18.2.1
		route add 198.18.4.0/24 via 198.18.3.2
	EOF
	ip -n "$S3" -b - <<-EOF &&
		link set lo up
		link add b3 address $MAC_b3 type veth peer name h2 address $MAC_h2 netns $H2
		link set a3 up
		link set b3 up
		addr add 198.18.3.2/24 dev a3
		addr add 198.18.4.254/24 dev b3
		neigh add 198.18.3.1 lladdr $MAC_b2 dev a3
		neigh add 198.18.4.1 lladdr $MAC_h2 dev b3
		route add 198.18.1.0/24 via 198.18.3.1
		route add 198.18.2.0/24 via 198.18.3.1
	EOF
	ip -n "$H2" -b - <<-EOF &&
		link set lo up
		link set h2 up
		addr add 198.18.4.1/24 dev h2
		neigh add 198.18.4.254 lladdr $MAC_b3 dev h2
		route add default via 198.18.4.254
	EOF
	tc -n "$S1" -b - <<-EOF &&
		$(port_qdisc 1 1 a1)
		$(port_qdisc 1 2 b1)
	EOF
	tc -n "$S2" -b - <<-EOF &&
		$(port_qdisc 2 2 a2)
		$(port_qdisc 2 3 b2)
	EOF
	tc -n "$S3" -b - <<-EOF &&
		$(port_qdisc 3 3 a3)
		$(port_qdisc 3 4 b3)
	EOF
	links_wait_up "$H1" h1 && links_wait_up "$S1" a1 b1 &&
		links_wait_up "$S2" a2 b2 && links_wait_up "$S3" a3 b3 &&
		links_wait_up "$H2" h2 || return 1
	ip netns exec "$H2" "$SLUICECTL" int echo --port $PORT -j \
		>"$TMP/echo.log" 2>&1 &
	ECHO_PID=$!
	echo_wait
}

# echo_wait: until the responder's socket is bound (5 s at most), so
# that no probe goes unanswered for being early.
echo_wait()
{
	local end=$((SECONDS + 5)) hex

	printf -v hex ':%04X ' $PORT
	while ((SECONDS <= end)); do
		[[ $(ip netns exec "$H2" cat /proc/net/udp) == *"$hex"* ]] &&
			return 0
		nap 0.1
	done
	log_info "sluicectl int echo does not listen: $(<"$TMP/echo.log")"
	return 1
}

setup || skip_all "cannot build the chain of namespaces"

# ifindex NS DEV
ifindex()
{
	local line

	line=$(ip -n "$1" -o link show dev "$2") && echo "${line%%:*}"
}

IFX_B1=$(ifindex "$S1" b1) IFX_B2=$(ifindex "$S2" b2)
IFX_B3=$(ifindex "$S3" b3)

# probe ARGS...: one probe from H1 to H2 ("sluicectl int probe" options);
# its JSON in PROBE, and in HOPS, TX_NS, ECHO_NS, FULL and the arrays
# NODE IFX LINK CLASS BACKLOG PORT_BACKLOG PAUSED TX_BYTES TS RATE, one
# entry per record.  The JSON is read by bash: jq's numbers are doubles,
# which cannot hold a nanosecond timestamp.
probe()
{
	PROBE=$(ip netns exec "$H1" "$SLUICECTL" int probe --to 198.18.4.1 \
		--port $PORT -j "$@" 2>&1)
	[[ $PROBE == '[{'* ]] || { log_info "probe: $PROBE"; return 1; }
	HOPS=$(json_ints hops) TX_NS=$(json_ints tx_ns)
	ECHO_NS=$(json_ints echo_ns) FULL=$(json_ints full)
	read -ra NODE <<<"$(json_ints node)"
	read -ra IFX <<<"$(json_ints ifindex)"
	read -ra LINK <<<"$(json_ints link)"
	read -ra CLASS <<<"$(json_ints class)"
	read -ra BACKLOG <<<"$(json_ints backlog)"
	read -ra PORT_BACKLOG <<<"$(json_ints port_backlog)"
	read -ra PAUSED <<<"$(json_ints paused)"
	read -ra TX_BYTES <<<"$(json_ints tx_bytes)"
	read -ra TS <<<"$(json_ints ts_ns)"
	read -ra RATE <<<"$(json_ints rate)"
}

# json_ints KEY: the values of KEY in PROBE, in order ("key": only whole
# keys, so tx_ns is not since_tx_ns).
json_ints()
{
	local s=$PROBE re="\"$1\":(true|false|[0-9]+)(.*)" out=()

	while [[ $s =~ $re ]]; do
		out+=("${BASH_REMATCH[1]}")
		s=${BASH_REMATCH[2]}
	done
	echo "${out[*]}"
}

# counters KEY: KEY of the xstats of b1, b2 and b3, on one line.
counters()
{
	local ns out=()

	for ns in "$S1 b1" "$S2 b2" "$S3 b3"; do
		qdisc_read $ns || return 1
		out+=("${QS[$1]}")
	done
	echo "${out[*]}"
}

# counters_all KEY: the same of a1, b1, a2, b2, a3, b3.
counters_all()
{
	local ns out=()

	for ns in "$S1 a1" "$S1 b1" "$S2 a2" "$S2 b2" "$S3 a3" "$S3 b3"; do
		qdisc_read $ns || return 1
		out+=("${QS[$1]}")
	done
	echo "${out[*]}"
}

# add_each "A B C" N: each of A B C plus N.
add_each()
{
	local v out=()

	for v in $1; do
		out+=($((v + $2)))
	done
	echo "${out[*]}"
}

int_records()
{
	local before after i

	before=$(counters_all int_stamped)
	probe
	check_err $? "probe"
	((RET == 0)) || return
	log_info "$PROBE"
	check_eq "$HOPS $FULL" "3 false" "records and full flag"
	check_eq "${NODE[*]}" "1 2 3" "node per hop"
	check_eq "${IFX[*]}" "$IFX_B1 $IFX_B2 $IFX_B3" "ifindex per hop"
	check_eq "${LINK[*]}" "2 3 4" "link per hop"
	check_eq "${RATE[*]}" "5000000 5000000 5000000" "rate per hop"
	# TOS 0, DSCP 0: class 0 on every port; its own class, just left.
	check_eq "${CLASS[*]}" "0 0 0" "class per hop"
	check_eq "${PAUSED[*]}" "false false false" "paused per hop"
	((TX_NS <= TS[0] && TS[0] < TS[1] && TS[1] < TS[2] && TS[2] <= ECHO_NS))
	check_err $? "times not in path order: sent $TX_NS, stamped ${TS[*]}, echoed $ECHO_NS"
	after=$(counters_all int_stamped)
	check_eq "$after" "$(add_each "$before" 0 | awk '{ $2++; $4++; $6++ } 1')" \
		"int_stamped of a1 b1 a2 b2 a3 b3"
}

int_tx_bytes()
{
	local first i delta want

	probe --records 4
	check_err $? "first probe"
	first=("${TX_BYTES[@]}")
	ip netns exec "$H1" "$SENDFRAMES" -i h1 -d $MAC_a1 \
		-a 198.18.1.1,198.18.4.1 -4 0 -s 300 -c 20 >/dev/null
	check_err $? "sendframes"
	probe --records 4
	check_err $? "second probe"
	((RET == 0)) || return
	want=$(($(probe_len 4) + 20 * 300))
	for i in 0 1 2; do
		delta=$((TX_BYTES[i] - first[i]))
		check_eq "$delta" "$want" "tx_bytes growth at hop $((i + 1))"
	done
	log_info "tx_bytes: ${first[*]} then ${TX_BYTES[*]}"
}

# pfc_to_b2 TIME: S3 pauses priority 3 of b2 for TIME quanta (0: resume).
pfc_to_b2()
{
	ip netns exec "$S3" "$SENDFRAMES" -i a3 -d $PAUSE_DST -e 0x8808 \
		-x "$(pfc_payload 0x08 0 0 0 "$1" 0 0 0 0)" >/dev/null
}

# wait_b2 QLEN: until b2's class 1:4 holds QLEN frames (5 s at most).
wait_b2()
{
	local end=$((SECONDS + 5))

	while ((SECONDS <= end)); do
		class_read "$S2" b2 && [[ ${CS[1:4 qlen]} == "$1" ]] && return 0
		nap 0.1
	done
	return 1
}

int_backlog()
{
	local held

	# 65535 quanta at 5 Mbit/s: 6.7 s, resumed at the end.
	pfc_to_b2 65535
	defer wait_b2 0
	defer pfc_to_b2 0
	ip netns exec "$H1" "$SENDFRAMES" -i h1 -d $MAC_a1 \
		-a 198.18.1.1,198.18.4.1 -4 24 -s 500 -c 6 >/dev/null
	wait_b2 6
	check_err $? "6 frames of DSCP 24 held in b2's class 1:4"
	# 3000 bytes: a size tc prints exactly ("3000b").
	held=${CS[1:4 backlog]}
	check_eq "$held ${CS[1:4 paused]}" "3000 1" "b2's class 1:4 backlog and paused"
	probe --prio 3
	check_err $? "probe"
	((RET == 0)) || return
	check_eq "${CLASS[*]}" "3 3 3" "class of priority 3 per hop"
	check_eq "${BACKLOG[*]}" "0 $held 0" "backlog of priority 3's class per hop"
	check_eq "${PORT_BACKLOG[*]}" "0 $held 0" "port backlog per hop"
	check_eq "${PAUSED[*]}" "false true false" "paused per hop"
}

# udp_csum_errors: H2's UdpInCsumErrors.
udp_csum_errors()
{
	ip netns exec "$H2" awk '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) k[i] = $i; h = 1; next }
		$1 == "Udp:" { for (i = 2; i <= NF; i++) if (k[i] == "InCsumErrors") print $i }' \
		/proc/net/snmp
}

int_checksum()
{
	local before sums

	ip netns exec "$H1" ethtool -K h1 tx off >/dev/null
	check_err $? "ethtool -K h1 tx off"
	defer ip netns exec "$H1" ethtool -K h1 tx on
	tcpdump_start "$H2" h2 "$TMP/csum.pcap" -Q in udp dst port $PORT
	check_err $? "tcpdump"
	before=$(udp_csum_errors)
	probe
	check_err $? "probe (its echo proves the datagram was delivered)"
	check_eq "$HOPS" 3 "records"
	check_eq "$(udp_csum_errors)" "$before" "H2's UdpInCsumErrors"
	sleep 0.3
	sums=$(tcpdump -r "$TMP/csum.pcap" -nn -vv 2>/dev/null |
		grep -o 'udp sum ok\|bad udp cksum[^,]*')
	check_eq "$sums" "udp sum ok" "tcpdump's check of the probe's UDP checksum"
}

int_full()
{
	local stamped full

	stamped=$(counters int_stamped)
	full=$(counters int_full)
	probe --records 2
	check_err $? "probe"
	check_eq "$HOPS $FULL" "2 true" "records used and full flag"
	check_eq "${NODE[*]}" "1 2" "node per record"
	check_eq "$(counters int_stamped)" \
		"$(add_each "$stamped" 1 | awk '{ $3-- } 1')" "int_stamped of b1 b2 b3"
	check_eq "$(counters int_full)" "$(add_each "$full" 0 | awk '{ $3++ } 1')" \
		"int_full of b1 b2 b3"
}

int_malformed()
{
	local bad short malformed stamped got

	# Magic "BADM", then a probe's 32 + 48 bytes; and a good header
	# (magic "SLIT", version 1, 4 records) with room for 1 record only.
	printf -v bad '42414d44%0152d' 0
	printf -v short '534c49540104%0148d' 0
	malformed=$(counters int_malformed)
	stamped=$(counters int_stamped)
	tcpdump_start "$H2" h2 "$TMP/bad.pcap" -Q in udp dst port $PORT
	check_err $? "tcpdump"
	ip netns exec "$H1" bash -c "printf '$(sed 's/../\\x&/g' <<<"$bad")' \
		>/dev/udp/198.18.4.1/$PORT &&
		printf '$(sed 's/../\\x&/g' <<<"$short")' >/dev/udp/198.18.4.1/$PORT"
	check_err $? "send the datagrams"
	sleep 0.5
	check_eq "$(counters int_malformed)" "$(add_each "$malformed" 2)" \
		"int_malformed of b1 b2 b3"
	check_eq "$(counters int_stamped)" "$stamped" "int_stamped of b1 b2 b3"
	# The UDP payloads as they arrived: after 14 + 20 + 8 bytes.
	got=$(tcpdump -r "$TMP/bad.pcap" -nn -xx 2>/dev/null | awk '
		/^\t0x/ { sub(/^\t0x[0-9a-f]+: */, ""); gsub(/ /, ""); h = h $0; next }
		h != "" { print substr(h, 85); h = "" }
		END { if (h != "") print substr(h, 85) }')
	check_eq "$got" "$bad"$'\n'"$short" "payloads as they arrived"
}

int_off()
{
	local stamped

	tc -n "$S2" qdisc change dev b2 root sluice int-port 0
	check_err $? "int-port 0 on b2"
	defer tc -n "$S2" qdisc change dev b2 root sluice int-port $PORT
	tc -n "$S2" qdisc show dev b2 | grep -q "int-port 0 int-node 2 int-link 3 "
	check_err $? "b2 shows int-port 0 and keeps its ids"
	stamped=$(counters int_stamped)
	probe
	check_err $? "probe"
	check_eq "$HOPS ${NODE[*]} ${LINK[*]}" "2 1 3 2 4" "records: nodes and links"
	check_eq "$(counters int_stamped)" \
		"$(add_each "$stamped" 1 | awk '{ $2-- } 1')" "int_stamped of b1 b2 b3"
}

tests_run
