#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PFC watchdog (SONiC's pfcwd semantics): a class paused with frames
# queued for detection-time is in storm, detected within detection-time
# plus one poll of the storm's start; drop flushes it, drops its arrivals
# and what arrives on the port with the priority (its ingress, wherever
# it is queued: wd_ingress_drops), and stops the port pausing its
# upstream for the priority; forward sends its frames anyway; alert only
# reports.  Restoration follows restoration-time without a pause.
# Counters, flags, STORM/RESTORED on the netlink events group through
# "sluicectl monitor", and the options with their errors (a watched
# priority must be lossless).
#
# One namespace, a raw-socket PFC storm from b0 on a0's class 3 (the
# watchdog watches only PFC-enabled priorities, and a port honours PFC only
# for those: a0 has pfc 3 wherever it watches 3):
#
#   sendframes -> a0 [sluice rate 1mbit pfc 3 watchdog 3] ---- b0 <- sendframes
#                                                                 (PFC storm)
#
# Three, for the drop action's effect upstream (kernel IPv4 forwarding):
#
#   H1: h1 ---- p1 [sluice rate 100kbit] SW p2 [sluice rate 10mbit pfc 3
#                                               xoff 6000 watchdog 3] ---- h2 :H2
#
# h2 sends class-3 traffic to h1 that p1 drains slowly, so p2's ingress
# account holds XOFF towards h2, and storms p2's class 3.  For the
# ingress drops, a third host H3 sends priority 3 to h1 too, through p3
# [sluice rate 10mbit pfc 3 xoff 6000].
#
# Storms are 50 PFC frames/s pausing priority 3 for ~307 ms each (600
# quanta at 1 Mbit/s, 6000 at 10 Mbit/s): fifteen times the gap between
# frames, so that a stalled emulated sender (over 100 ms on a loaded
# host) does not end a pause, which would let the class's frames out or
# restart the detection; a pause outlives the storm by at most ~307 ms
# (PAUSE_MS), which restoration waits out: a pause in effect is the storm
# still going on.

ALL_TESTS="
	pfcwd_options
	pfcwd_errors
	pfcwd_alert_timing
	pfcwd_drop
	pfcwd_drop_ingress
	pfcwd_forward
	pfcwd_change_restores
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq
sluicectl_require
sluice_load

TCRAW=$SELFTESTS_DIR/tools/tcraw
PAUSE_DST=01:80:c2:00:00:01
# The defaults, which the tests use: ms.
DETECT=200 RESTORE=200 POLL=100
PAUSE_MS=307
STORM_RATE=50
# Storms measured for the timing figures.
CYCLES=${SLUICE_PFCWD_CYCLES:-5}
# Allowances for the emulated CPU beyond detection + one poll, ms.  The
# kernel's own figure (paused_us when the storm is detected, the time
# since the first pause) adds only the wait for the next data frame (10 ms
# at 100 frames/s) and the poll work's scheduling delay: KSLACK.  The
# wall-clock one also counts starting ip and sendframes (300 ms to over
# 1 s under TCG on a loaded host) and the monitor's wakeup: its lower
# bound is the check (never before the detection time); USLACK is a
# ceiling against a poll that does not run, not a measure of the watchdog.
KSLACK=50
USLACK=2000

# Attribute numbers, from include/uapi/linux/sluice.h.
CLASSES=1 WD_PRIOS=18 WD_ACTION=19 WD_DETECT=20 WD_RESTORE=21 WD_POLL=22

now_us()
{
	echo "${EPOCHREALTIME//[!0-9]/}"
}

# The watchdog watches only lossless priorities, and a port honours PFC
# only for them: a0's priority 3 is lossless wherever it is watched.  a0
# forwards nothing, so its ingress account never reaches this XOFF, which
# pfc needs.
LOSSLESS="pfc 3 xoff 64k"

# setup_rx OPTIONS...: a0's root qdisc, 1 Mbit/s, with OPTIONS.
setup_rx()
{
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice rate 1mbit "$@" &&
		defer tc -n "$NS" qdisc del dev a0 root
}

# opts: the options object of a0's root qdisc, as tc prints it in JSON
# (compact, keys in a fixed order), cut out of the document by bash: the
# options are compared as they are, and a jq, which costs a quarter second
# under TCG, reads values from them once a state.  Without -s the options
# are the qdisc's last member.
opts()
{
	local json

	json=$(tc -n "$NS" -j qdisc show dev a0) || return
	json=${json#*\"options\":}
	echo "${json%\}\]}"
}

declare -A P

# prio_read NS DEV PRIO: PRIO's row of "sluicectl stats" into P, by bash
# (the text has every field of the JSON: "prio 3 flags class,watched
# packets 0 ..."): P[flags] comma separated, empty for none as in the
# JSON's list, and P[KEY] for each counter.  One process, where the JSON
# took a jq more.  Fails if there is no such row.
prio_read()
{
	local -a w
	local i

	P=()
	while read -ra w; do
		[[ ${w[0]} == prio && ${w[1]} == "$3" ]] || continue
		for ((i = 2; i + 1 < ${#w[@]}; i += 2)); do
			P[${w[i]}]=${w[i + 1]}
		done
	done < <("$SLUICECTL" stats -n "$1" "$2")
	[[ -n ${P[flags]+set} ]] || return 1
	[[ ${P[flags]} == - ]] && P[flags]=
	return 0
}

has_flag()
{
	prio_read "$1" "$2" "$3" && [[ ",${P[flags]}," == *",$4,"* ]]
}

# wait_flag NS DEV PRIO FLAG yes|no SECONDS: by the wall clock, as every
# wait here (a stats call costs a good part of a second under TCG).
wait_flag()
{
	local end=$(($(now_us) + $6 * 1000000)) want

	while (($(now_us) < end)); do
		if has_flag "$1" "$2" "$3" "$4"; then want=yes; else want=no; fi
		[[ $want == "$5" ]] && return 0
		nap 0.05
	done
	return 1
}

# wait_pstat NS DEV PRIO KEY MIN SECONDS: until PRIO's KEY >= MIN.
wait_pstat()
{
	local end=$(($(now_us) + $6 * 1000000))

	while (($(now_us) < end)); do
		prio_read "$1" "$2" "$3" && ((P[$4] >= $5)) && return 0
		nap 0.05
	done
	return 1
}

# storm_start NS DEV QUANTA: PFC frames pausing priority 3 for QUANTA,
# STORM_RATE a second, from DEV until storm_stop.
storm_start()
{
	local payload

	payload=$(pfc_payload 0x08 0 0 0 "$3" 0 0 0 0)
	ip netns exec "$1" "$SENDFRAMES" -i "$2" -d $PAUSE_DST -e 0x8808 \
		-x "$payload" -c 0 -r $STORM_RATE >/dev/null &
	STORM_PID=$!
	defer kill "$STORM_PID"
}

storm_stop()
{
	kill "$STORM_PID"
	wait "$STORM_PID" 2>/dev/null
}

# monitor_start NS FILE [-j]: sluicectl monitor in NS, each line stamped
# with the time it was read (us); returns once subscribed.
monitor_start()
{
	local i

	"$SLUICECTL" monitor -n "$1" $3 --timeout 120 > >(
		while IFS= read -r line; do
			echo "${EPOCHREALTIME//[!0-9]/} $line"
		done >"$2") &
	defer kill $!
	for ((i = 0; i < 100; i++)); do
		[[ $(<"$2") == *monitoring* ]] && return 0
		nap 0.1
	done
	return 1
}

# events FILE KIND: how many events of KIND the monitor printed so far
# (grep -c, by bash: it runs in polling loops).
events()
{
	local line n=0

	while IFS= read -r line; do
		[[ $line == *"\"event\":\"$2\""* ]] && n=$((n + 1))
	done <"$1"
	echo $n
}

wait_events()
{
	local end=$(($(now_us) + $4 * 1000000))

	while (($(now_us) < end)); do
		(($(events "$1" "$2") >= $3)) && return 0
		nap 0.05
	done
	return 1
}

# event_field FILE KIND N JQ: JQ of the Nth event of KIND (from 1); the
# time it was read is .t (us).
event_field()
{
	local line

	line=$(event_line "$1" "$2" "$3") || return 1
	jq -r --argjson t "${line%% *}" ". + {t: \$t} | $4" <<<"${line#* }"
}

# event_line FILE KIND N: the Nth line of FILE with an event of KIND (grep
# | sed -n Np, by bash); fails if there is none.
event_line()
{
	local line n=0

	while IFS= read -r line; do
		[[ $line == *"\"event\":\"$2\""* ]] && n=$((n + 1)) &&
			((n == $3)) && echo "$line" && return 0
	done <"$1"
	return 1
}

# median V...: the middle one of the sorted values (the lower of the two
# middle ones for an even count), by bash.
median()
{
	local -a v=("$@")
	local i j x

	((${#v[@]})) || { echo; return; }
	for ((i = 1; i < ${#v[@]}; i++)); do
		x=${v[i]}
		for ((j = i - 1; j >= 0 && v[j] > x; j--)); do
			v[j + 1]=${v[j]}
		done
		v[j + 1]=$x
	done
	echo "${v[(${#v[@]} + 1) / 2 - 1]}"
}

pfcwd_options()
{
	local text defaults before stats v

	setup_rx
	check_err $? "setup"
	((RET == 0)) || return
	defaults=$(opts)
	tc -n "$NS" qdisc change dev a0 root sluice pfc 3,5 xoff 64k watchdog 3,5 \
		watchdog-action forward detection-time 1s \
		restoration-time 300ms watchdog-poll 50
	check_err $? "change"
	before=$(opts)
	# One jq for both states; a missing one shifts the other.
	mapfile -t v < <(printf '%s\n' "$defaults" "$before" |
		jq -c '[.watchdog, .watchdog_action, .detection_time,
			.restoration_time, .watchdog_poll]')
	check_eq "${v[0]}" '[[],"drop",200,200,100]' "defaults"
	check_eq "${v[1]}" '[[3,5],"forward",1000,300,50]' "dumped"
	# What follows "refcnt N " (sed -n 's/.* refcnt [0-9]* //p', by bash).
	text=$(tc -n "$NS" qdisc show dev a0)
	[[ $text =~ \ refcnt\ [0-9]*\ (.*)$ ]] && text=${BASH_REMATCH[1]} ||
		text=
	log_info "text dump: $text"
	[[ "$text" == *"watchdog 3,5 watchdog-action forward detection-time 1000ms restoration-time 300ms watchdog-poll 50ms"* ]]
	check_err $? "text dump: $text"
	tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice $text
	check_err $? "re-add from the text dump"
	check_eq "$(opts)" "$before" "options after re-add"

	# The JSON stats, one jq for all their checks.
	mapfile -t v < <("$SLUICECTL" stats -n "$NS" -j a0 | jq -rc '.[0] |
		[.wd_prios, .wd_action, .wd_detect_ms, .wd_restore_ms, .wd_poll_ms],
		(.prios[3].flags | join(",")), (.prios[4].flags | join(",")),
		(.prios[3] | [.wd_storms, .wd_restored, .wd_drops, .wd_forwarded,
			      .wd_ingress_drops] |
		 map(tostring) | join(" "))')
	check_eq "${v[0]}" '[40,1,1000,300,50]' "stats -j settings"
	check_eq "${v[1]}" "class,lossless,watched" "prio 3 flags"
	check_eq "${v[2]}" "class" "prio 4 flags"
	check_eq "${v[3]}" "0 0 0 0 0" "stats -j counters"
	# The text stats, read once for both checks.
	stats=$("$SLUICECTL" stats -n "$NS" a0)
	grep -q " wd_prios 40 wd_action 1 wd_detect_ms 1000 wd_restore_ms 300 wd_poll_ms 50$" \
		<<<"$stats"
	check_err $? "stats text settings"
	grep -q "^  prio 3 flags class,lossless,watched .* wd_storms 0 wd_restored 0 wd_drops 0 wd_forwarded 0 wd_ingress_drops 0$" \
		<<<"$stats"
	check_err $? "stats text prio row"
	class_read "$NS" a0
	check_eq "${CS[1:4 wd_storms]} ${CS[1:4 storm]} ${CS[1:4 wd_ingress_drops]}" \
		"0 0 0" "class xstats"

	# Off again: the settings stay, nothing is watched.
	tc -n "$NS" qdisc change dev a0 root sluice watchdog none
	check_err $? "watchdog none"
	check_eq "$(opts | jq -c '[.watchdog, .watchdog_action]')" \
		'[[],"forward"]' "after watchdog none"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# rejects "EXPECTED" TCRAW-ARGS...: exactly that extack.  (The options
# are compared once, after all rejections.)
rejects()
{
	local expected=$1 out

	shift
	out=$("$TCRAW" -n "$NS" a0 "$@")
	check_eq "$out" "error: $expected" "tcraw $*"
}

# tc_rejects "EXPECTED" TC-ARGS...: tc fails and prints exactly that first.
tc_rejects()
{
	local expected=$1 out

	shift
	out=$(tc -n "$NS" "$@" 2>&1)
	check_fail $? "tc $* accepted"
	check_eq "${out%%$'\n'*}" "$expected" "tc $*"	# the first line
}

pfcwd_errors()
{
	local out before after

	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4
	check_err $? "setup"
	tc_rejects "Error: sch_sluice: watchdog needs the link rate." \
		qdisc change dev a0 root sluice watchdog 3
	# Only PFC-enabled priorities are ever paused: a watched one must be
	# lossless.  Checked after the rate (above) and the root (below).
	tc_rejects "Error: sch_sluice: watchdog watches lossless priorities only: add them to pfc." \
		qdisc change dev a0 root sluice rate 1mbit watchdog 3
	tc -n "$NS" qdisc change dev a0 root sluice rate 1mbit $LOSSLESS watchdog 3
	check_err $? "watchdog 3"
	before=$(opts)
	tc_rejects "Error: sch_sluice: watchdog watches lossless priorities only: add them to pfc." \
		qdisc change dev a0 root sluice pfc none
	tc_rejects "Error: sch_sluice: watchdog watches lossless priorities only: add them to pfc." \
		qdisc change dev a0 root sluice watchdog 1,3
	rejects "sch_sluice: watchdog watches lossless priorities only: add them to pfc" \
		qdisc-change 1: sluice u8 $WD_PRIOS 0x0c
	tc_rejects "Error: sch_sluice: watchdog names a priority beyond the number of classes." \
		qdisc change dev a0 root sluice classes 3
	tc_rejects "Error: sch_sluice: watchdog poll must not be above the detection time." \
		qdisc change dev a0 root sluice watchdog-poll 300
	tc_rejects "Error: sch_sluice: watchdog poll must not be above the detection time." \
		qdisc change dev a0 root sluice detection-time 50
	# (pfc none: pfc would need the rate first.)
	tc_rejects "Error: sch_sluice: watchdog needs the link rate." \
		qdisc change dev a0 root sluice rate 0 pfc none
	rejects "sch_sluice: unknown watchdog action" \
		qdisc-change 1: sluice u8 $WD_ACTION 3
	rejects "sch_sluice: watchdog times must be 10 to 60000 ms" \
		qdisc-change 1: sluice u32 $WD_DETECT 9
	rejects "sch_sluice: watchdog times must be 10 to 60000 ms" \
		qdisc-change 1: sluice u32 $WD_RESTORE 60001
	rejects "sch_sluice: watchdog times must be 10 to 60000 ms" \
		qdisc-change 1: sluice u32 $WD_POLL 0
	rejects "sch_sluice: watchdog names a priority beyond the number of classes" \
		qdisc-change 1: sluice u8 $WD_PRIOS 0x80
	rejects "sch_sluice: watchdog names a priority beyond the number of classes" \
		qdisc-change 1: sluice u8 $CLASSES 2
	after=$(opts)
	check_eq "$after" "$before" "options after the rejections"
	check_eq "$(jq -c '[.classes, .watchdog]' <<<"$after")" '[4,[3]]' \
		"classes and watchdog after the rejections"

	# The plugin's own checks.
	tc_rejects 'sluice: "watchdog-action" must be drop, forward or alert, not "bogus"' \
		qdisc change dev a0 root sluice watchdog-action bogus
	tc_rejects 'sluice: "detection-time" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not "5"' \
		qdisc change dev a0 root sluice detection-time 5
	tc_rejects 'sluice: "watchdog-poll" must be at most "detection-time" (100ms), not "1s"' \
		qdisc change dev a0 root sluice detection-time 100ms watchdog-poll 1s
	tc_rejects 'sluice: "watchdog" item "8": priority must be 0..7' \
		qdisc change dev a0 root sluice watchdog 3,8
	tc_rejects 'sluice: "watchdog 1,3" watches lossless priorities only, not all in "pfc 3"' \
		qdisc change dev a0 root sluice pfc 3 watchdog 1,3

	# Only a root qdisc is a port.
	tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 1mbit \
			burst 1600 latency 1s
	check_err $? "tbf"
	out=$(tc -n "$NS" qdisc add dev a0 parent 1:1 sluice rate 1mbit \
		watchdog 3 2>&1)
	check_eq "$out" "Error: sch_sluice: watchdog needs sluice as the root qdisc." \
		"not a root"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# Alert changes nothing but counts and reports: the class stays paused,
# its frames stay queued.  Storms are started and stopped CYCLES times to
# measure detection and restoration:
#  - kernel: paused_us in the STORM event (the class was not paused before
#    the storm) is the time from the first pause to detection;
#  - wall clock: from just before the storm's sender starts (stop for
#    restoration) to the monitor reading the event.
pfcwd_alert_timing()
{
	local mon k t0=() t1=() v kind t paused storms restored action prio \
		ifname kern=() user=() rest=() base=0 ns=0 nr=0 sent qlen flags

	setup_rx $LOSSLESS watchdog 3 watchdog-action alert
	check_err $? "setup"
	((RET == 0)) || return
	mon=$(mktemp /tmp/pfcwd.XXXXXX)
	defer rm -f "$mon"
	monitor_start "$NS" "$mon" -j
	check_err $? "monitor"
	# Class 3's frames at 100/s: it holds some whenever it is paused.
	ip netns exec "$NS" "$SENDFRAMES" -i a0 -4 24 -s 200 -c 0 -r 100 \
		>/dev/null &
	defer kill $!
	sleep 0.5

	for ((k = 1; k <= CYCLES; k++)); do
		t0+=($(now_us))
		storm_start "$NS" b0 600
		wait_events "$mon" storm $k 5
		check_err $? "storm $k not detected"
		if ((k == 1)); then
			# Two reads 0.3 s apart: the time between them is
			# the exposure to a stalled storm sender.
			prio_read "$NS" a0 3
			v=${P[packets]}
			sleep 0.3
			prio_read "$NS" a0 3
			sent=${P[packets]} qlen=${P[qlen]} flags=${P[flags]}
			check_eq "$flags" "class,paused,lossless,watched,storm" \
				"flags in an alert storm"
			check_eq "$sent" "$v" "class 3 sent during an alert storm"
			((qlen > 0))
			check_err $? "class 3 holds no frames in an alert storm"
			check_eq "$(class_stat "$NS" a0 1:4 storm)" 1 "xstats storm"
		fi
		t1+=($(now_us))
		storm_stop
		wait_events "$mon" restored $k 5
		check_err $? "storm $k not restored"
		((RET == 0)) || return
	done

	# One line per event: kind, read time, and what it carried.
	while read -r kind t paused storms restored action prio ifname; do
		check_eq "$action $prio $ifname" "alert 3 a0" "$kind event"
		if [[ $kind == storm ]]; then
			check_eq "$storms" $((ns + 1)) "wd_storms in storm event"
			kern+=($(((paused - base) / 1000)))
			user+=($(((t - t0[ns]) / 1000)))
			ns=$((ns + 1))
		else
			check_eq "$restored" $((nr + 1)) "wd_restored in restored event"
			# Not paused any more: its time is final.
			base=$paused
			rest+=($(((t - t1[nr]) / 1000)))
			nr=$((nr + 1))
		fi
	done < <(sed -nE 's/^([0-9]+) (\{"event":"(storm|restored)".*)$/\2 {"t":\1}/p' "$mon" |
		 jq -rn 'inputs as $e | input as $t |
			 [$e.event, $t.t, $e.stats.paused_us, $e.stats.wd_storms,
			  $e.stats.wd_restored, $e.action, $e.prio, $e.ifname] |
			 map(tostring) | join(" ")')
	check_eq "$ns $nr" "$CYCLES $CYCLES" "events"
	v=$(event_line "$mon" storm 1)
	log_info "first storm event: ${v#* }"
	log_info "detection, kernel (first pause to detection), ms: ${kern[*]}; median $(median "${kern[@]}")"
	log_info "detection, wall clock (storm sender started to event read), ms: ${user[*]}; median $(median "${user[@]}")"
	log_info "restoration, wall clock (storm stopped to event read), ms: ${rest[*]}; median $(median "${rest[@]}")"
	for v in "${kern[@]}"; do
		((v >= DETECT && v <= DETECT + POLL + KSLACK))
		check_err $? "detection $v ms after the first pause, not in [$DETECT, $DETECT + $POLL + $KSLACK]"
	done
	# The poll's phase is uniform: half a poll late on average.
	v=$(median "${kern[@]}")
	((v <= DETECT + POLL))
	check_err $? "median detection $v ms after the first pause, above $DETECT + $POLL"
	# Starting the sender is part of it: a lower bound, and a ceiling
	# against a watchdog that does not poll at all.
	for v in "${user[@]}"; do
		((v >= DETECT && v <= DETECT + POLL + USLACK))
		check_err $? "detection $v ms after starting the storm, not in [$DETECT, $DETECT + $POLL + $USLACK]"
	done
	# The last pause left at most one storm interval (20 ms) before the
	# stop and held the class PAUSE_MS from then; restoration follows
	# RESTORE later, at a poll; the monitor reads the event a little after.
	for v in "${rest[@]}"; do
		((v >= PAUSE_MS - 20 + RESTORE &&
		  v <= PAUSE_MS + RESTORE + POLL + KSLACK + 100))
		check_err $? "restoration $v ms after the storm, not in [$PAUSE_MS - 20 + $RESTORE, $PAUSE_MS + $RESTORE + $POLL + $KSLACK + 100]"
	done
	prio_read "$NS" a0 3
	check_eq "${P[wd_storms]} ${P[wd_restored]} ${P[wd_drops]} ${P[wd_forwarded]}" \
		"$CYCLES $CYCLES 0 0" "counters"
	check_eq "$(class_stat "$NS" a0 1:4 drops)" 0 "drops"
	check_eq "${P[flags]}" "class,lossless,watched" "flags after the storms"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# The switch of the drop tests (see the top).  With "h3", a third host
# H3 (h3, 198.18.3.1) on a third port p3 [sluice rate 10mbit pfc 3 xoff
# 6000], as lossless for priority 3 as p2.  Sets P2MAC, P3MAC, XOFF.
setup_sw()
{
	XOFF=6000
	h1_sw_h2 &&
		tc -n "$SW" qdisc add dev p1 root handle 1: sluice rate 100kbit &&
		defer tc -n "$SW" qdisc del dev p1 root &&
		tc -n "$SW" qdisc add dev p2 root handle 1: sluice rate 10mbit \
			pfc 3 xoff $XOFF xon 3000 pause-time 1000 watchdog 3 &&
		defer tc -n "$SW" qdisc del dev p2 root &&
		links_wait_up "$H1" h1 && links_wait_up "$SW" p1 p2 &&
		links_wait_up "$H2" h2 || return
	# "link/ether MAC brd ...", by bash rather than ip -j and a jq.
	[[ $(ip -n "$SW" link show p2) =~ link/ether\ ([0-9a-f:]+) ]] &&
		P2MAC=${BASH_REMATCH[1]} || return
	[[ ${1-} == h3 ]] || return 0
	netns_add H3 &&
		ip -n "$H3" -b - <<-EOF &&
			link add h3 type veth peer name p3 netns $SW
			link set h3 up
			addr add 198.18.3.1/24 dev h3
		EOF
		ip -n "$SW" -b - <<-EOF &&
			link set p3 up
			addr add 198.18.3.254/24 dev p3
		EOF
		tc -n "$SW" qdisc add dev p3 root handle 1: sluice rate 10mbit \
			pfc 3 xoff $XOFF &&
		defer tc -n "$SW" qdisc del dev p3 root &&
		links_wait_up "$H3" h3 && links_wait_up "$SW" p3 &&
		[[ $(ip -n "$SW" link show p3) =~ link/ether\ ([0-9a-f:]+) ]] &&
		P3MAC=${BASH_REMATCH[1]}
}

pfcwd_drop()
{
	local mon out x1 x2 x3 xon qlen backlog wd_drops drops xon_now account \
		flags restored

	setup_sw
	check_err $? "setup"
	((RET == 0)) || return
	mon=$(mktemp /tmp/pfcwd.XXXXXX)
	defer rm -f "$mon"
	monitor_start "$SW" "$mon"
	check_err $? "monitor"

	# h2 -> h1 at 400 kbit/s, p1 drains 100: p2 pauses h2 for priority 3.
	ip netns exec "$H2" "$SENDFRAMES" -i h2 -d "$P2MAC" \
		-a 198.18.2.1,198.18.1.1 -4 24 -s 1000 -c 0 -r 50 >/dev/null &
	defer kill $!
	wait_flag "$SW" p2 3 xoff yes 5
	check_err $? "p2 never paused h2"
	prio_read "$SW" p2 3
	xon=${P[xon_tx]}

	storm_start "$H2" h2 6000
	wait_flag "$SW" p2 3 paused yes 5
	check_err $? "the storm does not pause p2"
	# Five frames of p2's own for class 3: held by the storm.
	ip netns exec "$SW" "$SENDFRAMES" -i p2 -4 24 -s 1000 -c 5 >/dev/null
	wait_flag "$SW" p2 3 storm yes 5
	check_err $? "storm not detected"
	# One read: a stats call costs much under TCG.
	prio_read "$SW" p2 3
	qlen=${P[qlen]} backlog=${P[backlog]} wd_drops=${P[wd_drops]}
	drops=${P[drops]} xon_now=${P[xon_tx]} account=${P[ingress_bytes]}
	flags=${P[flags]}
	# Sent by class 3 despite the storm: a pause that ran out (a stalled
	# storm sender) lets frames out before detection.
	log_info "class 3 at the storm: packets ${P[packets]} wd_drops $wd_drops"
	check_eq "$qlen $backlog" "0 0" "class 3 not flushed"
	check_eq "$wd_drops" 5 "wd_drops after the flush"
	check_eq "$drops" 5 "class drops after the flush"
	# XON at once, although the account is still above XOFF.
	check_eq "$xon_now" $((xon + 1)) "XON sent at the storm"
	check_eq "$flags" "class,paused,lossless,watched,storm" \
		"flags in a drop storm (no xoff)"
	((account >= XOFF))
	check_err $? "p2's ingress account fell below XOFF: the test proves nothing"

	# Arrivals are dropped; no XOFF while h2 keeps sending.
	out=$(ip netns exec "$SW" "$SENDFRAMES" -i p2 -4 24 -s 1000 -c 3)
	check_eq "$out" "sent=0 refused=3" "arrivals in a drop storm"
	prio_read "$SW" p2 3
	wd_drops=${P[wd_drops]} x2=${P[xoff_tx]}
	check_eq "$wd_drops" 8 "wd_drops after arrivals"
	sleep 0.5
	prio_read "$SW" p2 3
	x3=${P[xoff_tx]} flags=${P[flags]}
	check_eq "$x3" "$x2" "XOFF sent for priority 3 during a drop storm"
	check_eq "$flags" "class,paused,lossless,watched,storm" \
		"flags while the storm runs"

	storm_stop
	wait_flag "$SW" p2 3 storm no 5
	check_err $? "storm not restored"
	# Pausing upstream again: h2's frames, dropped at p1 during the
	# storm, are queued there again and take the account to XOFF.
	wait_flag "$SW" p2 3 xoff yes 5
	check_err $? "p2 does not pause h2 again after the storm"
	# And the class takes frames again.
	out=$(ip netns exec "$SW" "$SENDFRAMES" -i p2 -4 24 -s 1000 -c 3)
	check_eq "$out" "sent=3 refused=0" "frames after restoration"
	prio_read "$SW" p2 3
	restored=${P[wd_restored]} x1=${P[xoff_tx]} wd_drops=${P[wd_drops]}
	check_eq "$restored" 1 "wd_restored"
	((x1 > x3))
	check_err $? "no XOFF after restoration"
	check_eq "$wd_drops" 8 "wd_drops after restoration"
	# The same under SONiC's names (stats --format sai) and as OpenMetrics:
	# a queue's counters with the queue after a colon, a priority's with
	# the priority in the name (its count moves while pauses go on).
	sai=$("$SLUICECTL" stats -n "$SW" --format sai p2)
	out=$(grep ' PFC_WD_QUEUE_STATS_[A-Z_]*:3 ' <<<"$sai" | tr '\n' '|')
	check_eq "$out" "p2 PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED:3 1|p2 PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED:3 1|p2 PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS:3 8|p2 PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS:3 ${P[wd_ingress_drops]}|" \
		"stats --format sai"
	grep -Eqx 'p2 SAI_PORT_STAT_PFC_3_TX_PKTS [1-9][0-9]*' <<<"$sai"
	check_err $? "stats --format sai: $(grep 'PFC_3_TX' <<<"$sai")"
	out=$("$SLUICECTL" stats -n "$SW" --format openmetrics p2)
	grep -qx "sluice_pfcwd_deadlock_detected_total{netns=\"$SW\",device=\"p2\",queue=\"3\"} 1" <<<"$out" &&
		[[ ${out##*$'\n'} == "# EOF" ]]
	check_err $? "stats --format openmetrics: $(grep deadlock_detected_total <<<"$out")"

	log_info "monitor: $(cut -d' ' -f2- "$mon" | tr '\n' '|')"
	grep -Eq '^[0-9]+ storm p2 ifindex [0-9]+ prio 3 action drop storms 1 restored 0 drops 5 forwarded 0 pfc_rx [0-9]+ backlog 0 qlen 0$' "$mon"
	check_err $? "monitor's storm line"
	grep -Eq '^[0-9]+ restored p2 ifindex [0-9]+ prio 3 action drop storms 1 restored 1 drops 8 forwarded 0 pfc_rx [0-9]+ backlog 0 qlen 0$' "$mon"
	check_err $? "monitor's restored line"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# p1_wait N: until p1's class 3 has taken in N frames (sent, queued or
# dropped), up to 5 s; its counters are in CS then.
p1_wait()
{
	local end=$((SECONDS + 5))

	while ((SECONDS <= end)); do
		class_read "$SW" p1 &&
			((CS[1:4 packets] + CS[1:4 qlen] + CS[1:4 drops] >= $1)) &&
			return 0
		nap 0.1
	done
	return 1
}

# The drop action also ends the storming port's ingress traffic of the
# priority, as SONiC's pfcwd does: what arrives on p2 with priority 3
# while p2's class 3 is in a dropping storm is dropped where it would be
# queued (p1's class 3), and counted on p2 (wd_ingress_drops: p2's class
# 1:4 and prio 3's row of sluicectl stats).  Priority 3 arriving on
# another port, p3, still goes out of p1's class 3; after restoration p2's
# arrivals do again.  Discrete sends, no background sender: the counts
# are exact.
pfcwd_drop_ingress()
{
	local pfx=198.18

	setup_sw h3
	check_err $? "setup"
	((RET == 0)) || return
	storm_start "$H2" h2 6000
	wait_flag "$SW" p2 3 paused yes 5
	check_err $? "the storm does not pause p2"
	# Two frames of p2's own held by the storm make it one.
	send "$SW" p2 -4 24 -s 1000 -c 2 >/dev/null
	wait_flag "$SW" p2 3 storm yes 5
	check_err $? "storm not detected"
	((RET == 0)) || return

	# To H1 through p1's class 3: 10 arriving on p2, 5 on p3.
	send "$H2" h2 -d "$P2MAC" -a $pfx.2.1,$pfx.1.1 -4 24 -s 1000 -c 10 \
		>/dev/null &&
		send "$H3" h3 -d "$P3MAC" -a $pfx.3.1,$pfx.1.1 -4 24 -s 1000 \
			-c 5 >/dev/null
	check_err $? "send in the storm"
	p1_wait 15
	check_err $? "p1's class 3 did not see the 15 frames"
	check_eq "$((CS[1:4 packets] + CS[1:4 qlen])) ${CS[1:4 drops]}" "5 10" \
		"p1's class 3 in the storm: p3's sent or queued, p2's dropped"
	check_eq "${CS[1:4 wd_ingress_drops]}" 0 "p1's own wd_ingress_drops"
	class_read "$SW" p2
	check_eq "${CS[1:4 wd_ingress_drops]} ${CS[1:4 wd_drops]} ${CS[1:4 storm]}" \
		"10 2 1" "p2's class 3 wd_ingress_drops wd_drops storm"
	check_eq "$(class_stat "$SW" p3 1:4 wd_ingress_drops)" 0 \
		"p3's wd_ingress_drops"
	prio_read "$SW" p2 3
	check_eq "${P[wd_ingress_drops]} ${P[wd_storms]} ${P[wd_restored]} ${P[flags]}" \
		"10 1 0 class,paused,lossless,watched,storm" \
		"sluicectl stats: p2's prio 3 wd_ingress_drops wd_storms wd_restored flags"

	storm_stop
	wait_flag "$SW" p2 3 storm no 5
	check_err $? "storm not restored"
	send "$H2" h2 -d "$P2MAC" -a $pfx.2.1,$pfx.1.1 -4 24 -s 1000 -c 10 \
		>/dev/null
	check_err $? "send after restoration"
	p1_wait 25
	check_err $? "p1's class 3 did not see the 25 frames"
	check_eq "$((CS[1:4 packets] + CS[1:4 qlen])) ${CS[1:4 drops]}" "15 10" \
		"p1's class 3 after restoration: p2's sent or queued again"
	prio_read "$SW" p2 3
	check_eq "${P[wd_ingress_drops]} ${P[wd_storms]} ${P[wd_restored]}" \
		"10 1 1" \
		"p2's prio 3 wd_ingress_drops wd_storms wd_restored after restoration"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# Forward sends the class's frames despite the pauses; once restored, a
# pause holds the class again.
pfcwd_forward()
{
	local mon

	setup_rx $LOSSLESS watchdog 3 watchdog-action forward
	check_err $? "setup"
	((RET == 0)) || return
	mon=$(mktemp /tmp/pfcwd.XXXXXX)
	defer rm -f "$mon"
	monitor_start "$NS" "$mon" -j
	check_err $? "monitor"
	storm_start "$NS" b0 600
	wait_flag "$NS" a0 3 paused yes 5
	check_err $? "the storm does not pause a0"
	send "$NS" a0 -4 24 -s 200 -c 20 >/dev/null
	wait_events "$mon" storm 1 5
	check_err $? "storm not detected"
	# Held until detected, then sent.
	check_eq "$(event_field "$mon" storm 1 '[.action, .stats.packets, .stats.qlen] | map(tostring) | join(" ")')" \
		"forward 0 20" "class at detection"
	wait_pstat "$NS" a0 3 packets 20 5
	check_err $? "forward storm did not send"
	send "$NS" a0 -4 24 -s 200 -c 10 >/dev/null
	wait_pstat "$NS" a0 3 packets 30 5
	check_err $? "arrivals in a forward storm not sent"
	prio_read "$NS" a0 3
	check_eq "${P[wd_forwarded]} ${P[flags]}" \
		"30 class,paused,lossless,watched,storm" "wd_forwarded and flags in a forward storm"

	storm_stop
	wait_events "$mon" restored 1 5
	check_err $? "not restored"
	prio_read "$NS" a0 3
	check_eq "${P[wd_storms]} ${P[wd_restored]}" "1 1" "counters"
	# A long detection time, so that the next pause cannot be a storm
	# while it is checked: it pauses the class as before the storm.
	tc -n "$NS" qdisc change dev a0 root sluice detection-time 10s
	check_err $? "detection-time 10s"
	send "$NS" b0 -d $PAUSE_DST -e 0x8808 \
		-x "$(pfc_payload 0x08 0 0 0 8000 0 0 0 0)" >/dev/null
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	sleep 0.5
	prio_read "$NS" a0 3
	check_eq "${P[packets]} ${P[qlen]} ${P[wd_forwarded]} ${P[flags]}" \
		"30 5 30 class,paused,lossless,watched" "a pause after restoration"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

# Stopping to watch a priority, or changing the action, ends its storm as
# a restoration does; deleting the qdisc in a storm is clean.
pfcwd_change_restores()
{
	local mon

	setup_rx $LOSSLESS watchdog 3 watchdog-action forward
	check_err $? "setup"
	((RET == 0)) || return
	mon=$(mktemp /tmp/pfcwd.XXXXXX)
	defer rm -f "$mon"
	monitor_start "$NS" "$mon" -j
	check_err $? "monitor"
	# Pauses of ~307 ms: a stalled emulated sender must not let the
	# class go while the test counts what it holds.
	storm_start "$NS" b0 600
	wait_flag "$NS" a0 3 paused yes 5
	check_err $? "the storm does not pause a0"
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	wait_events "$mon" storm 1 5
	check_err $? "storm not detected"

	tc -n "$NS" qdisc change dev a0 root sluice watchdog none
	check_err $? "watchdog none"
	check_eq "$(events "$mon" restored)" 1 "RESTORED when no longer watched"
	# One read for both checks.
	prio_read "$NS" a0 3
	check_eq "${P[wd_storms]} ${P[wd_restored]}" "1 1" "counters"
	check_eq "${P[flags]}" "class,paused,lossless" "flags"
	# Paused as ever: the storm still runs, nothing forwards.
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	sleep 0.5
	prio_read "$NS" a0 3
	check_eq "${P[qlen]}" 5 "queued, unwatched"

	tc -n "$NS" qdisc change dev a0 root sluice watchdog 3
	wait_events "$mon" storm 2 5
	check_err $? "storm not detected again"
	# Forwarded: the class is empty until it gets frames again.
	wait_pstat "$NS" a0 3 wd_forwarded 10 5
	check_err $? "the second storm did not forward"
	tc -n "$NS" qdisc change dev a0 root sluice watchdog-action alert
	check_err $? "action alert"
	send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	wait_events "$mon" storm 3 5
	check_err $? "storm not detected under the new action"
	check_eq "$(event_field "$mon" restored 2 '[.action, .stats.wd_restored] | map(tostring) | join(" ")')" \
		"forward 2" "RESTORED on an action change"
	check_eq "$(event_field "$mon" storm 3 '[.action, .stats.wd_storms] | map(tostring) | join(" ")')" \
		"alert 3" "STORM under the new action"
	# Deleted in a storm, the poll still running.
	tc -n "$NS" qdisc del dev a0 root
	check_err $? "delete in a storm"
	# And with the namespace: its devices, hence the qdisc, go with it
	# once the storm's sender (which holds it) is gone.  The VM's kernel
	# log is checked for splats after the run.
	tc -n "$NS" qdisc add dev a0 root handle 1: sluice rate 1mbit $LOSSLESS \
		watchdog 3 watchdog-poll 10 detection-time 10 &&
		wait_flag "$NS" a0 3 paused yes 5 &&
		send "$NS" a0 -4 24 -s 200 -c 5 >/dev/null
	check_err $? "re-add"
	wait_events "$mon" storm 4 5
	check_err $? "no storm after re-adding"
	ip netns del "$NS" &&
		storm_stop
	check_err $? "namespace deleted in a storm"
	log_info "${FUNCNAME[0]} done, ${SECONDS} s into the script"
}

tests_run
