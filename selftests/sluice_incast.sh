#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast through a two-switch chain: three hosts send into one receiver,
# three times faster than the bottleneck drains.
#
# In a lossless priority (3, DSCP 24) nothing is dropped anywhere (no
# qdisc drop of any kind, no softnet or device drop), every frame sent
# arrives, and the pauses that made it so went hop by hop: SW2 paused
# SW1's uplink, SW1's queue for it grew and SW1 paused each sender, whose
# own sluice qdisc held its frames.  Every PFC frame sent was received and
# honoured by the neighbour (xoff_tx = pfc_rx, xon_tx = xon_rx on each
# link), and at the end nothing is queued, charged or paused.
#
# In a lossy priority (1, DSCP 8) the same load drops, only at the
# bottleneck's class limit; no PFC frame is sent although SW2's ingress
# account passes XOFF; every frame is accounted for: sent = received +
# dropped.
#
#   S1: h1 ---- p1 \
#   S2: h2 ---- p2 -- SW1 p4 ========== p1 SW2 p2 ---- r0 :R
#   S3: h3 ---- p3 /
#      320 kbit/s each       2 Mbit/s         320 kbit/s
#                                          (the bottleneck)
#
# Every port (both ends of every link) has a sluice root qdisc with the
# link's rate, pfc 3, xoff 3000 xon 1500 and the headroom sluicectl gives
# for it.  Switch ports hold 8000 bytes per class, 256 KiB in the lossless
# class 3; hosts 64 MiB per class, so a paused sender queues all it sends
# and sendframes is never refused.  SW1 and SW2 forward IPv4 with static
# routes and neighbours; R counts the frames (IP protocol 253) and drops
# them.  Frames are 100 bytes: 400 frames/s at the bottleneck, little
# enough for TCG.  Under TCG every process costs 0.1-0.5 s, so the script
# batches ip and tc commands per namespace and reads device and IP
# counters from /proc of a process parked in each namespace.

ALL_TESTS="
	incast_lossless
	incast_lossy
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip
sluice_load

sluicectl_require

SIZE=100				# bytes per frame, as the qdiscs count it
COUNT=${SLUICE_INCAST_COUNT:-3334}	# frames per sender: 10002 in all
HOST_BPS=320000				# S1..S3 <-> SW1
UP_BPS=2000000				# SW1 <-> SW2
BOTTLENECK_BPS=320000			# SW2 <-> R
XOFF=3000
XON=1500
# The neighbour's response time the headroom allows for, in quanta: 1000
# (256 ms at 2 Mbit/s) rather than 802.1Qbb's 60 (15 ms), as TCG can stall
# a vCPU for tens of ms.  Accounts peak a few frames above XOFF (logged).
RESPONSE=1000
# Switch ports: 80 frames per class (a late shaper makes up for up to an
# MTU's time, so each sender may burst 15 frames: SW1's uplink must not
# fill, only the bottleneck), 256 KiB in the lossless class.
SWITCH_LIMIT=8000
LOSSLESS_LIMIT=256Kb
HOST_LIMIT=64Mb
LOSSLESS_PRIO=3
LOSSLESS_DSCP=24
LOSSY_PRIO=1
LOSSY_DSCP=8
QUIET_US=1500000			# no frame moving this long, and
QUIET_POLLS=5				# this many polls: drained

# The ports, upstream first, as NAMESPACE-VARIABLE/DEVICE.
PORTS=(S1/h1 S2/h2 S3/h3 SW1/p1 SW1/p2 SW1/p3 SW1/p4 SW2/p1 SW2/p2 R/r0)
NAMESPACES=(S1 S2 S3 SW1 SW2 R)
# The links pauses go up: "downstream upstream".
PAUSE_LINKS=("SW2/p1 SW1/p4" "SW1/p1 S1/h1" "SW1/p2 S2/h2" "SW1/p3 S3/h3")

declare -A MAC=(
	[S1/h1]=02:00:00:00:01:01 [SW1/p1]=02:00:00:00:01:fe
	[S2/h2]=02:00:00:00:02:01 [SW1/p2]=02:00:00:00:02:fe
	[S3/h3]=02:00:00:00:03:01 [SW1/p3]=02:00:00:00:03:fe
	[SW1/p4]=02:00:00:00:04:01 [SW2/p1]=02:00:00:00:04:02
	[SW2/p2]=02:00:00:00:05:fe [R/r0]=02:00:00:00:05:01
)
declare -A RATE=(
	[S1/h1]=$HOST_BPS [S2/h2]=$HOST_BPS [S3/h3]=$HOST_BPS
	[SW1/p1]=$HOST_BPS [SW1/p2]=$HOST_BPS [SW1/p3]=$HOST_BPS
	[SW1/p4]=$UP_BPS [SW2/p1]=$UP_BPS
	[SW2/p2]=$BOTTLENECK_BPS [R/r0]=$BOTTLENECK_BPS
)
declare -A ANCHOR		# namespace variable -> pid of a process in it
declare -A HEADROOM		# rate -> bytes
declare -A ST			# snapshot: PORT/q/KEY, PORT/CLASS/KEY
declare -A NETDEV		# NSVAR/DEV/{rx,tx}_{packets,drop}
declare -A SNMP			# Ip: counters of the last snmp_read

# ns_add VAR [SYSCTL=VALUE...]: a namespace as lib.sh's netns_add makes
# one (IPv6 off: its solicitations would be counted), named in VAR, with
# a process parked in it, ANCHOR[VAR], whose /proc/PID/net/ shows the
# namespace's counters and /proc/PID/root/sys/ its devices without a
# process per read.  That process also sets the sysctls (PATH=VALUE under
# /proc/sys): two execs per namespace, not four, as each costs ~0.3 s
# under TCG.  lo goes up with the namespace's ip batch.
ns_add()
{
	local var=$1 pid comm='' i
	local -n _ns=$1

	shift
	_ns=sluice-$var-$$-$RANDOM
	ip netns add "$_ns" || return 1
	defer ip netns del "$_ns"
	# shellcheck disable=SC2016 # sh expands them
	ip netns exec "$_ns" sh -c '
		for kv; do echo "${kv#*=}" >"/proc/sys/${kv%%=*}" || exit 1; done
		exec sleep 3600' sh net/ipv6/conf/all/disable_ipv6=1 \
		net/ipv6/conf/default/disable_ipv6=1 "$@" &
	pid=$!
	defer kill "$pid"
	for ((i = 0; i < 100; i++)); do
		read -r comm <"/proc/$pid/comm" 2>/dev/null
		[[ $comm == sleep ]] && break
		kill -0 "$pid" 2>/dev/null || break
		nap 0.1
	done
	[[ $comm == sleep ]] || return 1
	ANCHOR[$var]=$pid
}

# ns_wait_up VAR DEV...: until the devices transmit.  Until linkwatch has
# seen the carrier (operstate up, set just before it activates the
# qdisc), a device's qdisc is noop and drops every frame.
ns_wait_up()
{
	local var=$1 dev state i

	shift
	for dev in "$@"; do
		for ((i = 0; i < 50; i++)); do
			read -r state <"/proc/${ANCHOR[$var]}/root/sys/class/net/$dev/operstate"
			[[ $state == up ]] && break
			nap 0.1
		done
		if [[ $state != up ]]; then
			log_info "$dev in $var is $state"
			return 1
		fi
	done
}

# headroom_of BPS: sluicectl's headroom for a port of that rate into
# HEADROOM[BPS], once per rate.
headroom_of()
{
	local bps=$1 word bytes

	[[ -n ${HEADROOM[$bps]:-} ]] && return 0
	read -r word bytes _ < <("$SLUICECTL" headroom --rate "${bps}bit" \
		--cable 0 --mtu $SIZE --response $RESPONSE)
	[[ $word == headroom ]] || return 1
	HEADROOM[$bps]=$bytes
}

# qdiscs_del NS DEV...: the root qdiscs of the devices, in one tc.
qdiscs_del()
{
	local ns=$1 dev

	shift
	for dev in "$@"; do
		echo "qdisc del dev $dev root"
	done | tc -n "$ns" -force -b -
}

# The sluice qdiscs of the ports in namespace variable VAR, in one tc.
qdiscs_add()
{
	local var=$1 port dev lim devs=() cmds=

	for port in "${PORTS[@]}"; do
		[[ ${port%/*} == "$var" ]] || continue
		dev=${port#*/}
		lim=$SWITCH_LIMIT
		headroom_of "${RATE[$port]}" || return 1
		[[ $var == S? ]] && lim=$HOST_LIMIT
		cmds+="qdisc add dev $dev root handle 1: sluice rate ${RATE[$port]}bit"
		cmds+=" pfc $LOSSLESS_PRIO xoff $XOFF xon $XON"
		cmds+=" headroom ${HEADROOM[${RATE[$port]}]} limit $lim"$'\n'
		if [[ $var != S? ]]; then
			cmds+="class change dev $dev classid 1:$((LOSSLESS_PRIO + 1))"
			cmds+=" sluice limit $LOSSLESS_LIMIT"$'\n'
		fi
		devs+=("$dev")
	done
	# Frames a sender's qdisc holds keep its socket, hence its
	# namespace, alive: its qdisc goes before the namespaces (defer
	# runs in reverse), which frees them.  The switches' frames belong
	# to no socket and go with the namespaces' devices.
	[[ $var == S? ]] && defer qdiscs_del "${!var}" "${devs[@]}"
	tc -n "${!var}" -b - <<<"$cmds"
}

# link_cmds PORT PEER: ip batch lines creating the veth PORT-PEER, PEER
# in its own namespace.
link_cmds()
{
	local peer_var=${2%/*}

	echo "link add name ${1#*/} address ${MAC[$1]} type veth" \
		"peer name ${2#*/} address ${MAC[$2]} netns ${!peer_var}"
}

fabric_setup()
{
	local i var fwd=net/ipv4/ip_forward=1

	ns_add S1 && ns_add S2 && ns_add S3 && ns_add SW1 $fwd &&
		ns_add SW2 $fwd && ns_add R || return 1
	HOSTS=("" "$S1" "$S2" "$S3")
	for i in 1 2 3; do
		ip -n "${HOSTS[i]}" -b - <<-EOF || return 1
			link set dev lo up
			$(link_cmds S$i/h$i SW1/p$i)
			link set dev h$i up
			addr add 198.18.$i.1/24 dev h$i
		EOF
	done
	# Static neighbours: no ARP to race the first frames.  R has no
	# route back, so it sends nothing (no ICMP) into the fabric.
	ip -n "$SW1" -b - <<-EOF &&
		link set dev lo up
		$(link_cmds SW1/p4 SW2/p1)
		link set dev p1 up
		link set dev p2 up
		link set dev p3 up
		link set dev p4 up
		addr add 198.18.1.254/24 dev p1
		addr add 198.18.2.254/24 dev p2
		addr add 198.18.3.254/24 dev p3
		addr add 198.18.4.1/24 dev p4
		route add 198.18.5.0/24 via 198.18.4.2
		neigh add 198.18.4.2 lladdr ${MAC[SW2/p1]} dev p4
	EOF
	ip -n "$SW2" -b - <<-EOF &&
		link set dev lo up
		$(link_cmds SW2/p2 R/r0)
		link set dev p1 up
		link set dev p2 up
		addr add 198.18.4.2/24 dev p1
		addr add 198.18.5.254/24 dev p2
		neigh add 198.18.5.1 lladdr ${MAC[R/r0]} dev p2
	EOF
	ip -n "$R" -b - <<-EOF || return 1
		link set dev lo up
		link set dev r0 up
		addr add 198.18.5.1/24 dev r0
	EOF

	ns_wait_up S1 h1 && ns_wait_up S2 h2 && ns_wait_up S3 h3 &&
		ns_wait_up SW1 p1 p2 p3 p4 && ns_wait_up SW2 p1 p2 &&
		ns_wait_up R r0 || return 1
	for var in "${NAMESPACES[@]}"; do
		qdiscs_add "$var" || return 1
	done
}

# Softnet drops (column 2, hex) summed over the CPUs.  The file is
# global: every namespace reads the same numbers.
softnet_drops()
{
	local -a f
	local sum=0

	while read -ra f; do
		sum=$((sum + 16#${f[1]}))
	done </proc/net/softnet_stat
	echo $sum
}

# netdev_read VAR: every device's packets and drops into NETDEV.
netdev_read()
{
	local var=$1 line name
	local -a f

	while IFS= read -r line; do
		[[ $line == *:* ]] || continue
		name=${line%%:*}
		read -ra f <<<"${line#*:}"
		NETDEV[$var/${name// /}/rx_packets]=${f[1]}
		NETDEV[$var/${name// /}/rx_drop]=${f[3]}
		NETDEV[$var/${name// /}/tx_packets]=${f[9]}
		NETDEV[$var/${name// /}/tx_drop]=${f[11]}
	done <"/proc/${ANCHOR[$var]}/net/dev"
}

# snmp_read VAR: the Ip: counters of the namespace into SNMP.
snmp_read()
{
	local -a keys vals
	local i

	SNMP=()
	{
		while read -ra keys; do
			[[ ${keys[0]} == Ip: ]] && break
		done
		read -ra vals
	} <"/proc/${ANCHOR[$1]}/net/snmp"
	for ((i = 1; i < ${#keys[@]}; i++)); do
		SNMP[${keys[i]}]=${vals[i]}
	done
}

# counters: the counters the tests compare before and after, as globals.
counters()
{
	local var key

	NETDEV=()
	for var in "${NAMESPACES[@]}"; do
		netdev_read "$var"
	done
	C_RX=${NETDEV[R/r0/rx_packets]}
	C_DEVDROPS=0
	for key in "${!NETDEV[@]}"; do
		[[ $key == */*_drop ]] && C_DEVDROPS=$((C_DEVDROPS + NETDEV[$key]))
	done
	snmp_read R
	C_INRECEIVES=${SNMP[InReceives]}
	snmp_read SW1
	C_FWD1=${SNMP[ForwDatagrams]}
	snmp_read SW2
	C_FWD2=${SNMP[ForwDatagrams]}
	C_SOFTNET=$(softnet_drops)
}

# Every packet counter of every device of the fabric, one string.
fabric_motion()
{
	local var key

	NETDEV=()
	for var in "${NAMESPACES[@]}"; do
		netdev_read "$var"
	done
	MOTION=
	for key in "${!NETDEV[@]}"; do
		[[ $key == *_packets ]] && MOTION+="$key=${NETDEV[$key]} "
	done
}

# The time in microseconds.
now_us()
{
	NOW=${EPOCHREALTIME//[!0-9]/}
}

# wait_drained TIMEOUT: until no frame has moved on any device for
# QUIET_US (and QUIET_POLLS polls, in case the whole VM stalled) and no
# qdisc holds a frame.  Leaves its last snapshot in ST, and the time the
# last frame moved in T_LAST_MOVE.
wait_drained()
{
	local tmo_us=$(($1 * 1000000)) start last='' quiet=0 port held

	now_us
	start=$NOW
	T_LAST_MOVE=$NOW
	while :; do
		fabric_motion
		now_us
		if [[ $MOTION != "$last" ]]; then
			last=$MOTION
			T_LAST_MOVE=$NOW
			quiet=0
		elif ((++quiet >= QUIET_POLLS && NOW - T_LAST_MOVE >= QUIET_US)); then
			snapshot
			held=0
			for port in "${PORTS[@]}"; do
				((held += ${ST[$port/q/qlen]:-1}))
			done
			((held == 0)) && return 0
			quiet=0
		fi
		((NOW - start >= tmo_us)) && break
		nap 0.25
	done
	snapshot
	return 1
}

# snapshot: every counter of every port into ST, one tc per namespace.
snapshot()
{
	local var port ports cmds label scope c i
	local -a w

	ST=()
	for var in "${NAMESPACES[@]}"; do
		ports=()
		cmds=
		for port in "${PORTS[@]}"; do
			[[ ${port%/*} == "$var" ]] || continue
			ports+=("$port")
			cmds+="qdisc show dev ${port#*/}"$'\n'
			cmds+="class show dev ${port#*/}"$'\n'
		done
		i=-1
		while read -ra w; do
			case ${w[0]} in
			qdisc)
				i=$((i + 1))
				label=${ports[i]}
				scope=q ;;
			class)
				c=${w[2]#*:}
				scope=$((c - 1)) ;;
			Sent)
				ST[$label/$scope/bytes]=${w[1]}
				ST[$label/$scope/packets]=${w[3]}
				ST[$label/$scope/drops]=${w[6]%,} ;;
			backlog)
				ST[$label/$scope/qlen]=${w[2]%p} ;;
			untagged|limit_drops)
				for ((c = 0; c + 1 < ${#w[@]}; c += 2)); do
					ST[$label/$scope/${w[c]}]=${w[c + 1]%b}
				done ;;
			esac
		done < <(tc -n "${!var}" -s -b - <<<"$cmds")
	done
}

# wait_pids TIMEOUT PID...: until they have all exited.
wait_pids()
{
	local tmo=$1 t p alive

	shift
	for ((t = 0; t < tmo * 4; t++)); do
		alive=0
		for p in "$@"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		((alive)) || return 0
		nap 0.25
	done
	return 1
}

# incast DSCP: the three senders at once, COUNT frames each, to R; waits
# for them and for the fabric to drain.  Sets SENT, REFUSED, RECEIVED,
# IN_RECEIVES, FORWARDED_SW1/2, SOFTNET_DROPS, DEV_DROPS, and ST.
incast()
{
	local dscp=$1 i out pids=() t0 tmo sent refused dir ms by=
	local rx0 in0 fwd10 fwd20 softnet0 devdrops0

	dir=$(mktemp -d /tmp/incast.XXXXXX)
	defer rm -rf "$dir"
	counters
	rx0=$C_RX in0=$C_INRECEIVES fwd10=$C_FWD1 fwd20=$C_FWD2
	softnet0=$C_SOFTNET devdrops0=$C_DEVDROPS

	# Three times what the bottleneck needs for all of it, and a minute.
	tmo=$((3 * 3 * COUNT * SIZE * 8 / BOTTLENECK_BPS + 60))
	now_us
	t0=$NOW
	for i in 1 2 3; do
		send "${HOSTS[i]}" h$i -d "${MAC[SW1/p$i]}" \
			-a 198.18.$i.1,198.18.5.1 -4 "$dscp" -s $SIZE \
			-c "$COUNT" >"$dir/s$i" 2>&1 &
		pids+=($!)
		defer kill "${pids[-1]}"
	done
	if ! wait_pids $tmo "${pids[@]}"; then
		check_err 1 "senders still running after $tmo s"
		log_info "senders still running after $tmo s"
	fi
	now_us
	T_SENT=$NOW
	wait_drained 60
	check_err $? "frames still queued or moving 60 s after the senders ended"

	SENT=0
	REFUSED=0
	for i in 1 2 3; do
		out=$(<"$dir/s$i")
		if [[ ! ${out##*$'\n'} =~ ^sent=([0-9]+)\ refused=([0-9]+)$ ]]; then
			check_err 1 "sender S$i: $out"
			continue
		fi
		sent=${BASH_REMATCH[1]}
		refused=${BASH_REMATCH[2]}
		by+=" S$i $sent/$refused"
		SENT=$((SENT + sent))
		REFUSED=$((REFUSED + refused))
	done
	counters
	RECEIVED=$((C_RX - rx0))
	IN_RECEIVES=$((C_INRECEIVES - in0))
	FORWARDED_SW1=$((C_FWD1 - fwd10))
	FORWARDED_SW2=$((C_FWD2 - fwd20))
	SOFTNET_DROPS=$((C_SOFTNET - softnet0))
	DEV_DROPS=$((C_DEVDROPS - devdrops0))

	ms=$(((T_LAST_MOVE - t0) / 1000))
	log_info "sent (sent/refused):$by, $SENT in all; senders done after $(((T_SENT - t0) / 1000)) ms, last frame moved at $ms ms"
	log_info "received at R: $RECEIVED frames (r0 rx_packets), $IN_RECEIVES (Ip InReceives), $((RECEIVED * SIZE * 8 / (ms ? ms : 1))) kbit/s; forwarded by SW1 $FORWARDED_SW1, SW2 $FORWARDED_SW2"
}

# The drops of every kind at every port, and the others.
log_drops()
{
	local port line=

	for port in "${PORTS[@]}"; do
		line+=" $port ${ST[$port/q/drops]-?}/${ST[$port/q/limit_drops]-?}/${ST[$port/q/headroom_drops]-?}"
	done
	log_info "qdisc drops/limit_drops/headroom_drops:$line"
	log_info "softnet drops $SOFTNET_DROPS, device drops $DEV_DROPS"
}

# Checks common to both tests: the senders were never refused, nothing
# was lost on the way to the switches' queues, R's two counts agree.
check_delivery()
{
	check_eq "$REFUSED" 0 "frames refused by the senders' qdiscs"
	check_eq "$SENT" $((3 * COUNT)) "frames sent"
	check_eq "$SOFTNET_DROPS" 0 "softnet drops (/proc/net/softnet_stat)"
	check_eq "$DEV_DROPS" 0 "device drops (/proc/net/dev)"
	check_eq "$IN_RECEIVES" "$RECEIVED" "R's Ip InReceives vs r0 rx_packets"
	check_eq "$FORWARDED_SW1" "$SENT" "frames SW1 forwarded"
	check_eq "$FORWARDED_SW2" "$SENT" "frames SW2 forwarded"
}

incast_lossless()
{
	local port link down up p=$LOSSLESS_PRIO line=

	fabric_setup
	check_err $? "setup"
	((RET == 0)) || return
	incast $LOSSLESS_DSCP
	log_drops
	for link in "${PAUSE_LINKS[@]}"; do
		read -r down up <<<"$link"
		log_info "pauses $down -> $up: sent xoff ${ST[$down/$p/xoff_tx]-?} xon ${ST[$down/$p/xon_tx]-?} (PFC frames ${ST[$down/q/pfc_tx]-?}), received pfc_rx ${ST[$up/$p/pfc_rx]-?} xon_rx ${ST[$up/$p/xon_rx]-?}, paused $((${ST[$up/$p/paused_us]:-0} / 1000)) ms"
	done
	for port in SW1/p1 SW1/p2 SW1/p3 SW2/p1; do
		line+=" $port ${ST[$port/$p/ingress_peak]-?}"
	done
	log_info "ingress peaks (xoff $XOFF, headroom ${HEADROOM[$HOST_BPS]}):$line"
	line=
	for port in S1/h1 S2/h2 S3/h3 SW1/p4 SW2/p2; do
		line+=" $port ${ST[$port/$p/peak_backlog]-?}"
	done
	log_info "class $p peak backlogs:$line"

	for port in "${PORTS[@]}"; do
		check_eq "${ST[$port/q/drops]-?}" 0 "$port qdisc drops"
		check_eq "${ST[$port/q/limit_drops]-?}" 0 "$port limit_drops"
		check_eq "${ST[$port/q/headroom_drops]-?}" 0 \
			"$port headroom_drops"
	done
	check_delivery
	check_eq "$RECEIVED" "$SENT" "frames received at R"
	for port in "${PORTS[@]}"; do
		# Nothing held, charged or paused once drained.
		check_eq "${ST[$port/q/qlen]-?}" 0 "$port qlen after the drain"
		check_eq "${ST[$port/$p/ingress_bytes]-?}" 0 \
			"$port ingress account after the drain"
		check_eq "${ST[$port/$p/paused]-?}" 0 \
			"$port class $p paused after the drain"
	done
	# Hop by hop: each downstream port paused its upstream neighbour,
	# which received and honoured every PFC frame, the last an XON.
	for link in "${PAUSE_LINKS[@]}"; do
		read -r down up <<<"$link"
		((${ST[$down/$p/xoff_tx]:-0} > 0))
		check_err $? "$down sent no XOFF for priority $p"
		((${ST[$up/$p/pfc_rx]:-0} > 0 && ${ST[$up/$p/paused_us]:-0} > 0))
		check_err $? "$up was never paused"
		check_eq "${ST[$up/$p/pfc_rx]-?}" "${ST[$down/$p/xoff_tx]-?}" \
			"$up pfc_rx vs $down xoff_tx"
		check_eq "${ST[$up/$p/xon_rx]-?}" "${ST[$down/$p/xon_tx]-?}" \
			"$up xon_rx vs $down xon_tx"
		check_eq "${ST[$up/q/pfc_rx]-?}" "${ST[$down/q/pfc_tx]-?}" \
			"$up PFC frames received vs $down sent"
		((${ST[$down/$p/xon_tx]:-0} > 0))
		check_err $? "$down never sent XON"
	done
	# No other port had anything to pause.
	for port in S1/h1 S2/h2 S3/h3 SW1/p4 SW2/p2 R/r0; do
		check_eq "${ST[$port/q/pfc_tx]-?}" 0 "$port PFC frames sent"
	done
	for port in SW1/p1 SW1/p2 SW1/p3 SW2/p1 SW2/p2 R/r0; do
		check_eq "${ST[$port/q/pfc_rx]-?}" 0 "$port PFC frames received"
	done
}

incast_lossy()
{
	local port c=$LOSSY_PRIO p=$LOSSLESS_PRIO neck=SW2/p2 line=

	fabric_setup
	check_err $? "setup"
	((RET == 0)) || return
	incast $LOSSY_DSCP
	log_drops
	for port in SW1/p1 SW1/p2 SW1/p3 SW2/p1; do
		line+=" $port ${ST[$port/$c/ingress_peak]-?}"
	done
	log_info "class $c ingress peaks (xoff $XOFF; lossy, no PFC):$line"
	log_info "class $c peak backlogs: SW1/p4 ${ST[SW1/p4/$c/peak_backlog]-?} $neck ${ST[$neck/$c/peak_backlog]-?} (limit $SWITCH_LIMIT)"
	log_info "$neck class $c: sent ${ST[$neck/$c/packets]-?}, limit_drops ${ST[$neck/$c/limit_drops]-?}"
	log_info "sent $SENT = received $RECEIVED + dropped at $neck ${ST[$neck/$c/drops]-?}"

	check_delivery
	# The drops are at the bottleneck's class limit, and only there.
	((${ST[$neck/$c/limit_drops]:-0} > 0))
	check_err $? "no limit drops at the bottleneck $neck"
	check_eq "${ST[$neck/$c/drops]-?}" "${ST[$neck/$c/limit_drops]-?}" \
		"$neck class $c drops vs limit_drops"
	check_eq "${ST[$neck/q/drops]-?}" "${ST[$neck/$c/drops]-?}" \
		"$neck qdisc drops vs class $c drops"
	check_eq "${ST[$neck/q/limit_drops]-?}" "${ST[$neck/$c/drops]-?}" \
		"$neck qdisc limit_drops vs class $c drops"
	check_eq "$SENT" $((RECEIVED + ${ST[$neck/$c/drops]:-0})) \
		"sent vs received + dropped at $neck"
	for port in "${PORTS[@]}"; do
		if [[ $port != "$neck" ]]; then
			check_eq "${ST[$port/q/drops]-?}" 0 "$port qdisc drops"
		fi
		check_eq "${ST[$port/q/headroom_drops]-?}" 0 \
			"$port headroom_drops"
		check_eq "${ST[$port/$p/drops]-?}" 0 \
			"$port lossless class $p drops"
		# No PFC frame for a lossy priority, sent or received.
		check_eq "${ST[$port/q/pfc_tx]-?}" 0 "$port PFC frames sent"
		check_eq "${ST[$port/q/pfc_rx]-?}" 0 "$port PFC frames received"
		check_eq "${ST[$port/$c/paused_us]-?}" 0 "$port class $c paused"
		check_eq "${ST[$port/q/qlen]-?}" 0 "$port qlen after the drain"
		check_eq "${ST[$port/$c/ingress_bytes]-?}" 0 \
			"$port ingress account after the drain"
	done
	# SW2's account for priority 1 passed XOFF: lossy, so no pause.
	((${ST[SW2/p1/$c/ingress_peak]:-0} > XOFF))
	check_err $? "SW2/p1's priority $c account never reached xoff"
}

tests_run
