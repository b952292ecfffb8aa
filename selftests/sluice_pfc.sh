#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PFC in software: received PFC and 802.3x pause frames stop exactly the
# classes they name for exactly their time, time 0 resumes at once, a
# paused class never slows another, bad frames are counted and ignored,
# and a port whose ingress account crosses XOFF sends PFC frames that an
# independent decoder (tshark) reads back with the right class-enable
# vector and times, then XON once the account drains.  As 802.1Qbb and
# SONiC's PFC test plan want, PFC acts on the port's lossless priorities
# only, PAUSE and PFC exclude each other, and only frames to the MAC
# control address count.  Dumping the counters in a loop during a pause
# storm never lets a paused class send; a port whose device goes down
# stops trying to send its pause frames until it is up again; a frame
# that is dropped never pauses the upstream.
#
# Pause reception (one namespace):
#
#   sendframes -> a0 [sluice rate 1mbit pfc 3] ---- b0 <- sendframes (PFC)
#
# Pause generation (four namespaces, kernel IPv4 forwarding in SW):
#
#   H1: h1 ---- p1 [sluice pfc 3 xoff 6000] SW p2 [sluice rate 1mbit] ---- h2 :H2
#       (tshark)                                (the bottleneck)
#
# At 1 Mbit/s one quantum (512 bit times) is 512 us.

ALL_TESTS="
	pfc_rx_pauses_one_class
	pfc_rx_time_zero_resumes
	pfc_rx_8023_pauses_all
	pfc_rx_bad_frames_ignored
	pfc_rx_paused_class_does_not_block
	pfc_rx_lossy_prios_ignored
	pfc_rx_pause_and_pfc_exclusive
	pfc_rx_foreign_dst
	pfc_rx_dumps_during_storm
	pfc_tx_xoff_then_xon
	pfc_tx_parked_while_down
	pfc_tx_not_for_dropped
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq tcpdump tshark
sluice_load

PAUSE_DST=01:80:c2:00:00:01
QUANTUM_US=512		# at 1 Mbit/s

# pfc_to_a0 ENABLE T0 .. T7: b0 sends a PFC frame to a0.
pfc_to_a0()
{
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x "$(pfc_payload "$@")" >/dev/null
}

# setup_rx [OPTION...]: a0's qdisc, by default with priority 3 lossless
# (PFC acts on lossless priorities only; xoff is never reached here).
# Frames held by a pause keep their sender's socket, hence the namespace,
# alive until the pause ends: delete the qdisc first, which frees them.
setup_rx()
{
	(($#)) || set -- pfc 3 xoff 100000
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice \
			rate "${RATE:-1mbit}" "$@" &&
		defer tc -n "$NS" qdisc del dev a0 root
}

qstat()
{
	qdisc_stat "$NS" a0 "$1"
}

# wait_cs CLASSID KEY MIN TIMEOUT: wait until a0's class has KEY >= MIN.
# Leaves the last read of a0's classes in CS (class_read).
wait_cs()
{
	local end=$((SECONDS + $4))

	# A deadline, not a count of tries: a try's length depends on the load.
	while ((SECONDS <= end)); do
		class_read "$NS" a0 && ((${CS[$1 $2]:-0} >= $3)) && return 0
		nap 0.1
	done
	return 1
}

# wait_sent CLASSID N TIMEOUT: until the class has sent N frames.
wait_sent()
{
	wait_cs "$1" packets "$2" "$3"
}

# wait_paused CLASSID TIMEOUT: until the class is paused.
wait_paused()
{
	wait_cs "$1" paused 1 "$2"
}

# Priority 3 paused for 8000 quanta (4.1 s: long enough for the checks to
# run under TCG): class 3 (DSCP 24) holds its frames that long and no
# longer, class 1 (DSCP 8) is not touched.
pfc_rx_pauses_one_class()
{
	local paused_us expect_us=$((8000 * QUANTUM_US))

	setup_rx
	check_err $? "setup"
	pfc_to_a0 0x08 0 0 0 8000 0 0 0 0
	# Both classes' frames from one sendframes (class 3's first).
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 24 -s 200 -c 5
		-4 8 -s 200 -c 5
	EOF
	sleep 0.3
	# One read for the checks in the pause, well within it.
	class_read "$NS" a0
	check_eq "${CS[1:2 packets]}" 5 "class 1 sent"
	check_eq "${CS[1:4 packets]}" 0 "class 3 sent while paused"
	check_eq "${CS[1:4 qlen]}" 5 "class 3 queued"
	check_eq "${CS[1:4 paused]}" 1 "class 3 paused"
	check_eq "${CS[1:2 paused]}" 0 "class 1 paused"

	wait_sent 1:4 5 10
	check_err $? "class 3 never resumed"
	# From wait_sent's last read, once class 3 has sent its frames.
	paused_us=${CS[1:4 paused_us]}
	log_info "class 3 paused for $paused_us us, pause was $expect_us us"
	# The pause ends on time: the watchdog wakes dequeue at expiry.
	((paused_us >= expect_us && paused_us <= expect_us * 13 / 10))
	check_err $? "paused $paused_us us for a $expect_us us pause"
	check_eq "${CS[1:4 paused]}" 0 "class 3 paused after expiry"
	check_eq "${CS[1:4 pfc_rx]}" 1 "class 3 pfc_rx"
	check_eq "${CS[1:2 pfc_rx]}" 0 "class 1 pfc_rx"
	check_eq "$(qstat pfc_rx)" 1 "qdisc pfc_rx"
}

pfc_rx_time_zero_resumes()
{
	setup_rx
	check_err $? "setup"
	pfc_to_a0 0x08 0 0 0 65535 0 0 0 0
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	sleep 0.3
	class_read "$NS" a0
	check_eq "${CS[1:4 packets]}" 0 "sent while paused"
	pfc_to_a0 0x08 0 0 0 0 0 0 0 0
	wait_sent 1:4 5 1
	check_err $? "time 0 did not resume class 3 within 1 s"
	# wait_sent's last read, class 3 resumed.
	check_eq "${CS[1:4 xon_rx]}" 1 "xon_rx"
	check_eq "${CS[1:4 paused]}" 0 "paused"
}

# 802.3x PAUSE (opcode 1) pauses every class of a port without PFC.
pfc_rx_8023_pauses_all()
{
	setup_rx pause-rx on
	check_err $? "setup"
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 00011f40 >/dev/null	# 8000
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 24 -s 200 -c 3
		-4 0 -s 200 -c 3
	EOF
	sleep 0.3
	class_read "$NS" a0
	check_eq "$(cs_line packets)" "0 0 0 0 0 0 0 0" "sent while paused"
	check_eq "$(cs_line paused)" "1 1 1 1 1 1 1 1" "paused"
	wait_sent 1:4 3 10 && wait_sent 1:1 3 1
	check_err $? "classes did not resume after 8000 quanta"
	check_eq "$(qstat pause_rx)" 1 "pause_rx"
}

# Unknown opcodes, and any pause on a port that does not trust pauses or
# has no rate, are counted and change nothing.
pfc_rx_bad_frames_ignored()
{
	setup_rx
	check_err $? "setup"
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 0202ffff >/dev/null
	tc -n "$NS" qdisc change dev a0 root sluice pause-rx off
	check_err $? "pause-rx off"
	pfc_to_a0 0xff 65535 65535 65535 65535 65535 65535 65535 65535
	send "$NS" a0 -4 24 -s 200 -c 3 >/dev/null
	wait_sent 1:4 3 1
	check_err $? "a bad frame paused class 3"
	qdisc_read "$NS" a0
	check_eq "${QS[pause_malformed]}" 1 "pause_malformed"
	check_eq "${QS[pause_untrusted]}" 1 "pause_untrusted"
	check_eq "${QS[pfc_rx]}" 0 "pfc_rx"
	class_read "$NS" a0
	check_eq "$(cs_line paused)" "0 0 0 0 0 0 0 0" "paused"

	# A port without a rate can take no PFC settings: PAUSE then.
	tc -n "$NS" qdisc change dev a0 root sluice pause-rx on pfc none rate 0
	check_err $? "rate 0"
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 0001ffff >/dev/null
	check_eq "$(qstat pause_untrusted)" 2 "pause_untrusted without a rate"
}

# The arrival times of the frames with DSCP dscp in a capture, one a line.
arrivals()
{
	tcpdump -r "$1" -nn -tt -v ip 2>/dev/null |
		awk -v tos="$(printf 'tos 0x%x,' $(($2 << 2)))" \
			'index($0, tos) { print $1 }'
}

# With class 3 paused and loaded, class 1 still gets the whole link.  The
# link is slower here (50 frames/s) so that the emulated CPU, even shared
# with other VMs, is never what limits the rate measured.
pfc_rx_paused_class_does_not_block()
{
	local pcap times first last n bps link=400000

	RATE=${link}bit setup_rx
	check_err $? "setup"
	pcap=$(mktemp /tmp/pfc.XXXXXX.pcap)
	defer rm -f "$pcap"
	tcpdump_start "$NS" b0 "$pcap" ip
	check_err $? "capture"
	pfc_to_a0 0x08 0 0 0 65535 0 0 0 0
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 24 -s 1000 -c 20
		-4 8 -s 1000 -c 50
	EOF
	# 50 frames at 50 a second take a second at least: no poll (a tc
	# each) competes with the traffic measured meanwhile.
	nap 1
	wait_sent 1:2 50 10
	check_err $? "class 1 did not send its 50 frames"
	sleep 0.5
	class_read "$NS" a0
	check_eq "${CS[1:4 packets]}" 0 "class 3 sent while paused"

	mapfile -t times < <(arrivals "$pcap" 8)
	n=${#times[@]}
	first=${times[0]}
	last=${times[*]: -1}
	check_eq "$n" 50 "class 1 frames captured"
	# 49 frames of 1000 bytes after the first one, at the link's rate.
	bps=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%d", 49 * 8000 / (b - a) }')
	log_info "class 1 rate with class 3 paused: $bps bit/s of $link"
	((bps >= link * 9 / 10 && bps <= link * 11 / 10))
	check_err $? "class 1 got $bps bit/s of a $link bit/s link"
}

# A port with pfc 3,4 pauses classes 3 and 4 when a PFC frame names all
# eight priorities, and no other (802.1Qbb: PFC-enabled priorities only;
# SONiC's test plan: lossy priorities unaffected).  A frame that names
# only lossy priorities is counted as ignored.
pfc_rx_lossy_prios_ignored()
{
	setup_rx pfc 3,4 xoff 100000
	check_err $? "setup"
	pfc_to_a0 0xff 8000 8000 8000 8000 8000 8000 8000 8000
	pfc_to_a0 0x02 0 8000 0 0 0 0 0 0
	send_batch "$NS" a0 >/dev/null <<-EOF
		-4 0 -s 200 -c 2
		-4 8 -s 200 -c 2
		-4 24 -s 200 -c 2
		-4 32 -s 200 -c 2
		-4 40 -s 200 -c 2
	EOF
	sleep 0.3
	class_read "$NS" a0
	check_eq "$(cs_line paused)" "0 0 0 1 1 0 0 0" "classes paused"
	check_eq "$(cs_line pfc_rx)" "0 0 0 1 1 0 0 0" "classes' pfc_rx"
	check_eq "$(cs_line packets)" "2 2 0 0 0 2 0 0" "classes that sent"
	qdisc_read "$NS" a0
	check_eq "${QS[pfc_rx]}" 1 "pfc_rx"
	check_eq "${QS[pause_ignored]}" 1 "pause_ignored"
}

# PAUSE and PFC exclude each other on a link: a port with PFC enabled
# ignores 802.3x PAUSE, one without ignores PFC; both count it.
pfc_rx_pause_and_pfc_exclusive()
{
	setup_rx
	check_err $? "setup"
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 -x 0001ffff >/dev/null
	send "$NS" a0 -4 24 -s 200 -c 3 >/dev/null
	wait_sent 1:4 3 2
	check_err $? "PAUSE held class 3 of a PFC port"
	check_eq "$(cs_line paused)" "0 0 0 0 0 0 0 0" "paused by PAUSE"
	qdisc_read "$NS" a0
	check_eq "${QS[pause_ignored]}" 1 "PAUSE ignored"
	check_eq "${QS[pause_rx]}" 0 "pause_rx"

	tc -n "$NS" qdisc change dev a0 root sluice pfc none
	check_err $? "pfc none"
	pfc_to_a0 0x08 0 0 0 65535 0 0 0 0
	send "$NS" a0 -4 24 -s 200 -c 3 >/dev/null
	wait_sent 1:4 6 2
	check_err $? "PFC held class 3 of a port without PFC"
	qdisc_read "$NS" a0
	check_eq "${QS[pause_ignored]}" 2 "PFC ignored"
	check_eq "${QS[pfc_rx]}" 0 "pfc_rx"
}

# Only MAC control frames to 01:80:c2:00:00:01 act (and, for 802.3x, to
# the port's own address); frames to another address are malformed.
pfc_rx_foreign_dst()
{
	local a0mac

	setup_rx pause-rx on
	check_err $? "setup"
	[[ $(ip -n "$NS" link show a0) =~ link/ether\ ([0-9a-f:]+) ]] &&
		a0mac=${BASH_REMATCH[1]}
	send_batch "$NS" b0 >/dev/null <<-EOF
		-d ff:ff:ff:ff:ff:ff -e 0x8808 -x 0001ffff
		-d 02:00:00:00:00:01 -e 0x8808 -x 0001ffff
	EOF
	send "$NS" a0 -4 0 -s 200 -c 2 >/dev/null
	wait_sent 1:1 2 2
	check_err $? "a PAUSE to another address held class 0"
	check_eq "$(qstat pause_malformed)" 2 "pause_malformed"
	# 802.3x also lets a station be paused at its own address.
	send "$NS" b0 -d "$a0mac" -e 0x8808 -x 00011f40 >/dev/null
	send "$NS" a0 -4 0 -s 200 -c 2 >/dev/null
	sleep 0.3
	class_read "$NS" a0
	check_eq "${CS[1:1 packets]}" 2 "class 0 sent while paused at its address"
	check_eq "${CS[1:1 paused]}" 1 "paused at its address"
	check_eq "$(qstat pause_rx)" 1 "pause_rx"
}

# Counter dumps only read: "tc -s class show" in a tight loop (one tc,
# 300 dumps) while b0 keeps class 3 paused (1000 quanta, renewed every
# 5 ms) never lets class 3 send.  Before dumps only read, a dump could
# expire a pause concurrently with the softirq applying the next one and
# lose its bit, letting the class send while paused.
pfc_rx_dumps_during_storm()
{
	local storm i

	setup_rx
	check_err $? "setup"
	ip netns exec "$NS" "$SENDFRAMES" -i b0 -d $PAUSE_DST -e 0x8808 \
		-x "$(pfc_payload 0x08 0 0 0 1000 0 0 0 0)" -c 0 -r 200 \
		>/dev/null &
	storm=$!
	defer kill "$storm"
	# Class 3 paused first: the storm's sender may take a while to start.
	wait_paused 1:4 5
	check_err $? "the storm never paused class 3"
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	for ((i = 0; i < 300; i++)); do
		echo "class show dev a0"
	done | tc -s -n "$NS" -batch - >/dev/null
	check_err $? "dumps"
	class_read "$NS" a0
	check_eq "${CS[1:4 packets]}" 0 "class 3 sent during the storm"
	check_eq "${CS[1:4 paused]}" 1 "class 3 paused during the storm"
	kill "$storm"
	wait "$storm" 2>/dev/null
	wait_sent 1:4 5 3
	check_err $? "class 3 did not resume after the storm"
}

# The PFC frames in a capture: "enable t3" per line, as tshark decodes them.
pfc_decoded()
{
	tshark -r "$1" -Y 'macc.opcode == 0x0101' -T fields \
		-e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 2>/dev/null
}

# p1 receives class-3 frames faster than p2 can send them: once 6000
# bytes from p1 are queued at p2, p1 sends XOFF for priority 3 (and
# refreshes it), and XON when fewer than 3000 remain.
pfc_tx_xoff_then_xon()
{
	local pcap p1mac decoded line xon xoff p2drops i

	h1_sw_h2 &&
		tc -n "$SW" qdisc add dev p1 root handle 1: sluice rate 10mbit \
			pfc 3 xoff 6000 xon 3000 pause-time 1000 &&
		tc -n "$SW" qdisc add dev p2 root handle 1: sluice rate 1mbit &&
		links_wait_up "$H1" h1 && links_wait_up "$SW" p1 p2 &&
		links_wait_up "$H2" h2
	check_err $? "setup"
	# "link/ether MAC brd ...", by bash rather than ip -j and a jq.
	[[ $(ip -n "$SW" link show p1) =~ link/ether\ ([0-9a-f:]+) ]] &&
		p1mac=${BASH_REMATCH[1]}

	pcap=$(mktemp /tmp/pfc.XXXXXX.pcap)
	defer rm -f "$pcap"
	tcpdump_start "$H1" h1 "$pcap" ether proto 0x8808
	check_err $? "capture"
	send "$H1" h1 -d "$p1mac" -a 198.18.1.1,198.18.2.1 -4 24 -s 1000 \
		-c 20 >/dev/null
	check_err $? "send"
	for ((i = 0; i < 50; i++)); do
		class_read "$SW" p2 && [[ ${CS[1:4 packets]} == 20 ]] && break
		nap 0.1
	done
	sleep 0.5
	# One read of each port for all its checks: p2, then p1.
	class_read "$SW" p2
	check_eq "${CS[1:4 packets]}" 20 "forwarded"
	p2drops=$(cs_line drops)
	class_read "$SW" p1
	check_eq "${CS[1:4 ingress_bytes]}" 0 "account drained"

	# A line per frame, "ENABLE<tab>TIME".
	mapfile -t decoded < <(pfc_decoded "$pcap")
	log_info "PFC frames (enable vector, class 3 time): $(echo ${decoded[*]})"
	[[ ${decoded[0]} == $'0x0008\t1000' ]]
	check_err $? "first frame is not XOFF for priority 3 with 1000 quanta"
	[[ ${decoded[*]: -1} == $'0x0008\t0' ]]
	check_err $? "last frame is not XON for priority 3"
	# grep -c $'\t0$' and $'\t1000$'.
	xon=0 xoff=0
	for line in "${decoded[@]}"; do
		[[ $line == *$'\t0' ]] && xon=$((xon + 1))
		[[ $line == *$'\t1000' ]] && xoff=$((xoff + 1))
	done
	check_eq "$xon" 1 "XON frames"
	check_eq "${CS[1:4 xon_tx]}" 1 "xon_tx counter"
	check_eq "${CS[1:4 xoff_tx]}" "$xoff" "xoff_tx counter"
	((${CS[1:4 ingress_peak]:-0} >= 6000))
	check_err $? "ingress peak below xoff"
	check_eq "$p2drops" "0 0 0 0 0 0 0 0" "drops at p2"
}

# setup_tx P2_RATE: h1 -- p1 [pfc 3 xoff 6000 xon 3000] SW p2 -- h2, and
# P1MAC, p1's address, for h1's frames.
setup_tx()
{
	h1_sw_h2 &&
		tc -n "$SW" qdisc add dev p1 root handle 1: sluice rate 10mbit \
			pfc 3 xoff 6000 xon 3000 pause-time 1000 &&
		tc -n "$SW" qdisc add dev p2 root handle 1: sluice rate "$1" &&
		links_wait_up "$H1" h1 && links_wait_up "$SW" p1 p2 &&
		links_wait_up "$H2" h2 &&
		[[ $(ip -n "$SW" link show p1) =~ link/ether\ ([0-9a-f:]+) ]] &&
		P1MAC=${BASH_REMATCH[1]}
}

# timer_runs SECONDS: how often the signal sender's timer ran meanwhile,
# from the hrtimer_expire_entry trace event (which names the function).
timer_runs()
{
	local t=/sys/kernel/tracing

	[[ -d $t/events ]] || mount -t tracefs nodev $t || return 1
	echo 0 >$t/tracing_on &&
		echo >$t/trace &&
		echo 1 >$t/events/timer/hrtimer_expire_entry/enable &&
		echo 1 >$t/tracing_on || return 1
	nap "$1"
	echo 0 >$t/tracing_on
	echo 0 >$t/events/timer/hrtimer_expire_entry/enable
	# port_timer: the sender's callback before it was signal.c's.
	awk '/function=(sluice_signal_timer|port_timer)/ { n++ } END { print n + 0 }' \
		$t/trace
}

# A port that holds an XOFF while its device goes down sends nothing and
# retries nothing (its timer does not run) until the device is up again;
# then it sends the XON the drained account owes.  Before, the timer
# re-armed every 20 us, allocating a frame each time.
pfc_tx_parked_while_down()
{
	local pcap runs decoded i

	setup_tx 20kbit
	check_err $? "setup"
	pcap=$(mktemp /tmp/pfc.XXXXXX.pcap)
	defer rm -f "$pcap"
	send "$H1" h1 -d "$P1MAC" -a 198.18.1.1,198.18.2.1 -4 24 -s 1000 \
		-c 10 >/dev/null
	check_err $? "send"
	# Still above XON (p2 drains 10 kB in 4 s): the XOFF is in force.
	class_read "$SW" p1
	((${CS[1:4 xoff_tx]:-0} >= 1 && ${CS[1:4 ingress_bytes]:-0} >= 3000))
	check_err $? "no XOFF in force: xoff_tx ${CS[1:4 xoff_tx]}, account ${CS[1:4 ingress_bytes]}"
	ip -n "$SW" link set p1 down
	check_err $? "p1 down"
	# The XOFF's refreshes (every 25 ms) are due meanwhile.
	runs=$(timer_runs 1.5)
	check_err $? "tracing"
	log_info "signal timer ran $runs times in 1.5 s with p1 down"
	((runs <= 2))
	check_err $? "timer ran $runs times while the device was down"
	# p2 drains the account below XON: the XON is due, p1 still down.
	for ((i = 0; i < 100; i++)); do
		class_read "$SW" p1 && ((${CS[1:4 ingress_bytes]:-1} == 0)) && break
		nap 0.1
	done
	check_eq "${CS[1:4 ingress_bytes]}" 0 "account drained"
	check_eq "${CS[1:4 xon_tx]}" 0 "XON sent while down"
	check_eq "$(qdisc_stat "$SW" p1 pfc_tx_failed)" 0 "pfc_tx_failed"

	tcpdump_start "$H1" h1 "$pcap" ether proto 0x8808
	check_err $? "capture"
	ip -n "$SW" link set p1 up && links_wait_up "$SW" p1
	check_err $? "p1 up"
	nap 0.5
	class_read "$SW" p1
	check_eq "${CS[1:4 xon_tx]}" 1 "XON once up"
	mapfile -t decoded < <(pfc_decoded "$pcap")
	[[ ${decoded[*]: -1} == $'0x0008\t0' ]]
	check_err $? "no XON on the wire once up: ${decoded[*]}"
}

# A frame that is dropped pauses nobody: with p2's class 3 limited to
# 5500 bytes, p1's account never holds 6000 admitted bytes, so p1 sends
# no XOFF however many frames p2 drops (lossless ones: priority 3 is
# lossless on p1, the port a pause would stop; headroom drops).  Before,
# the account was checked before admission, with the dropped frame in it.
pfc_tx_not_for_dropped()
{
	setup_tx 1mbit &&
		tc -n "$SW" class change dev p2 parent 1: classid 1:4 sluice \
			limit 5500
	check_err $? "setup"
	send "$H1" h1 -d "$P1MAC" -a 198.18.1.1,198.18.2.1 -4 24 -s 1000 \
		-c 20 >/dev/null
	check_err $? "send"
	sleep 0.5
	class_read "$SW" p2
	((${CS[1:4 headroom_drops]:-0} > 0))
	check_err $? "p2 dropped no lossless frame: ${CS[1:4 headroom_drops]}"
	check_eq "${CS[1:4 limit_drops]}" 0 "lossy drops of a lossless frame"
	class_read "$SW" p1
	check_eq "${CS[1:4 xoff_tx]}" 0 "XOFF for frames dropped"
	check_eq "${CS[1:4 xon_tx]}" 0 "XON for frames dropped"
}

tests_run
