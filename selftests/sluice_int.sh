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
#                   counts on b1..b3 and nowhere else, in tc's xstats and
#                   in sluicectl stats
#   int_tx_bytes    between two probes H1 sends 20 frames of 300 bytes:
#                   each port's tx_bytes grows by exactly those and the
#                   first probe
#   int_backlog     a PFC pause from S3 holds priority 3 on b2, which then
#                   queues 6 frames of DSCP 24: a probe in class 0 naming
#                   priority 3 records at b2 the class's backlog as "tc -s
#                   class show" reports it, paused, and 0 elsewhere
#   int_checksum    two probes; for the first H1 computes the UDP checksum
#                   in software (tx off) and each port updates it; for the
#                   second H1 leaves it to the device (CHECKSUM_PARTIAL),
#                   which only b3's cannot do (tx off): b3 computes it as it
#                   transmits, over all three records.  Both arrive at H2
#                   with a checksum tcpdump finds right, and UdpInCsumErrors
#                   does not move
#   int_full        a probe of 2 records: stamped by b1 and b2, flagged full
#                   by b3, whose int_full counts it
#   int_malformed   datagrams to the port that are no probe (bad magic; a
#                   header promising more records than the datagram holds)
#                   arrive byte for byte as sent, counted as int_malformed
#   int_off         int-port 0 on b2: it stamps nothing, the others do
#   int_encaps      frames sendframes crafts on a port of a namespace of
#                   its own, each sent with int-port 0 then 7771: plain,
#                   under a VLAN tag, two (QinQ), two MPLS labels, and
#                   without a checksum; the stamped frame is the unstamped
#                   one but for the header's nused, the record and the UDP
#                   checksum, which stays right (or 0)
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
	int_encaps
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc tcpdump ethtool jq
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
	for ns in "${NSS[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# Link k (1..4) is 198.18.k.0/24: its end towards H1 is .1, with MAC
# 02:00:00:00:0k:01, its end towards H2 .2, with MAC 02:00:00:00:0k:02.
# Switch k has port ak on link k and bk on link k + 1.
NSS=("$H1" "$S1" "$S2" "$S3" "$H2")
H2_ADDR=198.18.4.2
MAC_a1=02:00:00:00:01:02

# mac LINK END: the MAC of END (1 or 2) of LINK.
mac()
{
	printf '02:00:00:00:%02x:%02x' "$1" "$2"
}

# switch_batch K: ip's batch for switch K: its ports, addresses,
# neighbours, and a route to every link beyond its own two.
switch_batch()
{
	local k=$1 n=$(($1 + 1)) peer=a$(($1 + 1)) j

	((k == 3)) && peer=h2
	echo "link set lo up"
	echo "link add b$k address $(mac $n 1) type veth peer name $peer" \
		"address $(mac $n 2) netns ${NSS[n]}"
	echo "link set a$k up"
	echo "link set b$k up"
	echo "addr add 198.18.$k.2/24 dev a$k"
	echo "addr add 198.18.$n.1/24 dev b$k"
	echo "neigh add 198.18.$k.1 lladdr $(mac $k 1) dev a$k"
	echo "neigh add 198.18.$n.2 lladdr $(mac $n 2) dev b$k"
	for ((j = 1; j <= 4; j++)); do
		((j < k)) && echo "route add 198.18.$j.0/24 via 198.18.$k.1"
		((j > n)) && echo "route add 198.18.$j.0/24 via 198.18.$n.2"
	done
}

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
	local ns k

	for ns in "${NSS[@]}"; do
		ip netns add "$ns" || return 1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 \
			net.ipv4.ip_forward=1 || return 1
	done
	ip -n "$H1" -b - <<-EOF || return 1
		link set lo up
		link add h1 address $(mac 1 1) type veth peer name a1 address $MAC_a1 netns $S1
		link set h1 up
		addr add 198.18.1.1/24 dev h1
		neigh add 198.18.1.2 lladdr $MAC_a1 dev h1
		route add default via 198.18.1.2
	EOF
	for k in 1 2 3; do
		switch_batch $k | ip -n "${NSS[k]}" -b - &&
			tc -n "${NSS[k]}" -b - <<-EOF || return 1
				$(port_qdisc $k $k a$k)
				$(port_qdisc $k $((k + 1)) b$k)
			EOF
	done
	ip -n "$H2" -b - <<-EOF &&
		link set lo up
		link set h2 up
		addr add $H2_ADDR/24 dev h2
		neigh add 198.18.4.1 lladdr $(mac 4 1) dev h2
		route add default via 198.18.4.1
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
	PROBE=$(ip netns exec "$H1" "$SLUICECTL" int probe --to $H2_ADDR \
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

# snapshot: the INT counters of the six switch ports into INT["DEV KEY"]
# (DEV a1 .. b3, KEY int_stamped, int_full, ...), one tc a switch.
declare -A INT BEFORE
snapshot()
{
	local -a w
	local ns dev i

	INT=()
	for ns in $S1 $S2 $S3; do
		while read -ra w; do
			case ${w[0]} in
			qdisc)	# qdisc sluice 1: dev DEV root ...
				dev=${w[4]} ;;
			untagged)
				for ((i = 0; i + 1 < ${#w[@]}; i += 2)); do
					[[ ${w[i]} == int_* ]] &&
						INT[$dev ${w[i]}]=${w[i + 1]}
				done ;;
			esac
		done < <(tc -n "$ns" -s qdisc show)
	done
}

# remember: the last snapshot, as what moved() counts from.
remember()
{
	local k

	BEFORE=()
	for k in "${!INT[@]}"; do
		BEFORE[$k]=${INT[$k]}
	done
}

# moved KEY: how much KEY grew on a1 b1 a2 b2 a3 b3 from the snapshot
# remembered to the last one, on one line.
moved()
{
	local d out=()

	for d in a1 b1 a2 b2 a3 b3; do
		out+=($((${INT[$d $1]:-0} - ${BEFORE[$d $1]:-0})))
	done
	echo "${out[*]}"
}

int_records()
{
	snapshot
	remember
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
	snapshot
	check_eq "$(moved int_stamped)" "0 1 0 1 0 1" \
		"int_stamped of a1 b1 a2 b2 a3 b3"
	# The same through the generic netlink family: sluicectl stats -j.
	check_eq "$("$SLUICECTL" stats -n "$S2" -j b2 | jq -r '.[0] |
		"\(.int_port) \(.int_node) \(.int_link) \(.int_stamped) \(.int_full)"')" \
		"$PORT 2 3 ${INT[b2 int_stamped]} ${INT[b2 int_full]}" \
		"sluicectl stats of b2: port, node, link, stamped, full"
}

int_tx_bytes()
{
	local first i delta want

	probe --records 4
	check_err $? "first probe"
	first=("${TX_BYTES[@]}")
	ip netns exec "$H1" "$SENDFRAMES" -i h1 -d $MAC_a1 \
		-a 198.18.1.1,$H2_ADDR -4 0 -s 300 -c 20 >/dev/null
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

	# 65535 quanta last 67 s at 500 kbit/s (6.7 s at 5 Mbit/s, which a
	# debug kernel's process starts can outlast), resumed at the end.
	tc -n "$S2" qdisc change dev b2 root sluice rate 500kbit
	check_err $? "b2 at 500kbit"
	defer tc -n "$S2" qdisc change dev b2 root sluice rate 5mbit
	pfc_to_b2 65535
	defer wait_b2 0
	defer pfc_to_b2 0
	ip netns exec "$H1" "$SENDFRAMES" -i h1 -d $MAC_a1 \
		-a 198.18.1.1,$H2_ADDR -4 24 -s 500 -c 6 >/dev/null
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

# checksum_probe NS DEV: a probe with "ethtool -K DEV tx off" in NS.
checksum_probe()
{
	ip netns exec "$1" ethtool -K "$2" tx off >/dev/null
	check_err $? "ethtool -K $2 tx off"
	probe
	check_err $? "probe with $2 tx off (its echo proves it was delivered)"
	check_eq "$HOPS" 3 "records with $2 tx off"
	ip netns exec "$1" ethtool -K "$2" tx on >/dev/null
}

int_checksum()
{
	local before sums

	defer ip netns exec "$H1" ethtool -K h1 tx on
	defer ip netns exec "$S3" ethtool -K b3 tx on
	tcpdump_start "$H2" h2 "$TMP/csum.pcap" -Q in udp dst port $PORT
	check_err $? "tcpdump"
	before=$(udp_csum_errors)
	checksum_probe "$H1" h1
	checksum_probe "$S3" b3
	check_eq "$(udp_csum_errors)" "$before" "H2's UdpInCsumErrors"
	sleep 0.3
	sums=$(tcpdump -r "$TMP/csum.pcap" -nn -vv 2>/dev/null |
		grep -o 'udp sum ok\|bad udp cksum[^,]*')
	check_eq "$sums" "udp sum ok"$'\n'"udp sum ok" \
		"tcpdump's check of the probes' UDP checksums"
}

int_full()
{
	snapshot
	remember
	probe --records 2
	check_err $? "probe"
	check_eq "$HOPS $FULL" "2 true" "records used and full flag"
	check_eq "${NODE[*]}" "1 2" "node per record"
	snapshot
	check_eq "$(moved int_stamped)" "0 1 0 1 0 0" "int_stamped of a1 .. b3"
	check_eq "$(moved int_full)" "0 0 0 0 0 1" "int_full of a1 .. b3"
}

int_malformed()
{
	local bad short
	local -a got

	# Magic "BADM", then a probe's 32 + 48 bytes; and a good header
	# (magic "SLIT", version 1, 4 records) with room for 1 record only.
	printf -v bad '42414d44%0152d' 0
	printf -v short '534c49540104%0148d' 0
	snapshot
	remember
	tcpdump_start "$H2" h2 "$TMP/bad.pcap" -Q in udp dst port $PORT
	check_err $? "tcpdump"
	# 14 + 20 + 8 + 80 bytes each, routed from H1 to H2.
	send_batch "$H1" h1 >/dev/null <<-EOF
		-d $MAC_a1 -a 198.18.1.1,$H2_ADDR -4 0 -U $PORT -x $bad -s 122
		-d $MAC_a1 -a 198.18.1.1,$H2_ADDR -4 0 -U $PORT -x $short -s 122
	EOF
	check_err $? "send the datagrams"
	sleep 0.5
	snapshot
	check_eq "$(moved int_malformed)" "0 2 0 2 0 2" "int_malformed of a1 .. b3"
	check_eq "$(moved int_stamped)" "0 0 0 0 0 0" "int_stamped of a1 .. b3"
	# The UDP payloads as they arrived: after 14 + 20 + 8 bytes.
	mapfile -t got < <(pcap_hex "$TMP/bad.pcap")
	check_eq "${got[0]:84} ${got[1]:84}" "$bad $short" "payloads as they arrived"
}

int_off()
{
	tc -n "$S2" qdisc change dev b2 root sluice int-port 0
	check_err $? "int-port 0 on b2"
	defer tc -n "$S2" qdisc change dev b2 root sluice int-port $PORT
	tc -n "$S2" qdisc show dev b2 | grep -q "int-port 0 int-node 2 int-link 3 "
	check_err $? "b2 shows int-port 0 and keeps its ids"
	snapshot
	remember
	probe
	check_err $? "probe"
	check_eq "$HOPS ${NODE[*]} ${LINK[*]}" "2 1 3 2 4" "records: nodes and links"
	snapshot
	check_eq "$(moved int_stamped)" "0 1 0 0 0 1" "int_stamped of a1 .. b3"
}

# ------------------------------------------ frames crafted, byte by byte

# The probe header sendframes puts after the UDP header: magic, version
# 1, 2 records, none used, no flags, prio own, seq 7, times 0.
ENC_HDR=534c495401020000ff00000000000007$(printf '%032d' 0)

# udp_sum HEX IP: SUM, the folded ones' complement sum of the IPv4 UDP
# datagram whose IP header is at byte IP of frame HEX, with its
# pseudo-header: 65535 when its checksum is right.
udp_sum()
{
	local h=$1 ip=$2 len i

	len=$((0x${h:2 * (ip + 24):4}))
	SUM=$((17 + len))
	for ((i = 12; i < 20; i += 2)); do
		SUM=$((SUM + 0x${h:2 * (ip + i):4}))
	done
	for ((i = 0; i + 1 < len; i += 2)); do
		SUM=$((SUM + 0x${h:2 * (ip + 20 + i):4}))
	done
	((len & 1)) && SUM=$((SUM + (0x${h:2 * (ip + 20 + len - 1):2} << 8)))
	while ((SUM >> 16)); do
		SUM=$(((SUM & 0xffff) + (SUM >> 16)))
	done
}

# masked HEX IP: the frame with what a stamp may change replaced by dots:
# the UDP checksum, the header's version..flags word, record 0.
masked()
{
	local h=$1 u=$((2 * ($2 + 20))) p=$((2 * ($2 + 28)))

	h=${h:0:u + 12}....${h:u + 16}
	h=${h:0:p + 8}........${h:p + 16}
	echo "${h:0:p + 64}$(printf '.%.0s' {1..96})${h:p + 160}"
}

int_encaps()
{
	# kind: sendframes options, offset of the IP header
	local -a kinds=("-s 170" "-v 5:0 -s 174" "-v 5:0 -Q 100 -s 178"
		"-L 2 -s 178" "-Z -s 170")
	local -a ipoff=(14 18 22 22 14) names=(plain vlan qinq mpls nocsum)
	local -a f
	local i k ip p ifx rec want tx=0 ts=0 spec=

	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice int-port 0 \
			int-node 9 int-link 11 &&
		defer tc -n "$NS" qdisc del dev a0 root
	check_err $? "setup"
	ifx=$(ifindex "$NS" a0)
	tcpdump_start "$NS" b0 "$TMP/enc.pcap" -Q in
	check_err $? "tcpdump"
	for k in "${kinds[@]}"; do
		spec+="-4 0 -U $PORT -x $ENC_HDR $k"$'\n'
	done
	send_batch "$NS" a0 >/dev/null <<<"$spec"
	check_err $? "send the unstamped frames"
	tc -n "$NS" qdisc change dev a0 root sluice int-port $PORT
	check_err $? "int-port $PORT"
	send_batch "$NS" a0 >/dev/null <<<"$spec"
	check_err $? "send the frames to stamp"
	sleep 0.5
	mapfile -t f < <(pcap_hex "$TMP/enc.pcap")
	check_eq "${#f[@]}" 10 "frames captured"
	((RET == 0)) || return
	for ((i = 0; i < 5; i++)); do
		tx=$((tx + ${#f[i]} / 2))
	done
	for ((i = 0; i < 5; i++)); do
		ip=${ipoff[i]} k=${f[i + 5]}
		p=$((2 * (ip + 28)))
		[[ $(masked "$k" "$ip") == "$(masked "${f[i]}" "$ip")" ]]
		check_err $? "${names[i]}: bytes a stamp does not write changed: ${f[i]:0:120} became ${k:0:120}"
		check_eq "${k:p + 8:8}" 01020100 "${names[i]}: version, nrec, nused, flags"
		# node, ifindex, link, backlogs, class, paused, reserved
		printf -v want '%08x%08x%08x%08x%08x%02x%02x%04x' 9 "$ifx" 11 0 0 0 0 0
		rec=${k:p + 64:96}
		check_eq "${rec:0:48}" "$want" "${names[i]}: record up to tx_bytes"
		check_eq "$((0x${rec:48:16}))" "$tx" "${names[i]}: tx_bytes"
		((0x${rec:64:16} > ts))
		check_err $? "${names[i]}: timestamp ${rec:64:16} not after the last"
		ts=$((0x${rec:64:16}))
		check_eq "${rec:80:16}" 0000000000000000 "${names[i]}: rate (unshaped)"
		if [[ ${names[i]} == nocsum ]]; then
			check_eq "${k:2 * (ip + 26):4}" 0000 "${names[i]}: no checksum"
		else
			udp_sum "$k" "$ip"
			check_eq "$SUM" 65535 "${names[i]}: UDP checksum sum"
		fi
		tx=$((tx + ${#k} / 2))
	done
	check_eq "$(qdisc_stat "$NS" a0 int_stamped)" 5 "int_stamped"
}

tests_run
