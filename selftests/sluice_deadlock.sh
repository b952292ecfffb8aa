#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# FC's Section 6 in software: "sluicectl experiment deadlock" (1 Mbit/s
# links, priority 3 lossless, XOFF 20 KB / XON 17 KB: see THRESHOLDS),
# every host sending UDP greedily to every host under another switch,
# asserted from its JSON.  FC's testbed (the ring s1..s4, links doubled,
# 4 hosts each) for the CBD-free sets; a plain 4-ring (s0..s3, 4 hosts
# each, see RING) for the runs that must deadlock.
#
#   testbed_cbd_free fc and edst on the testbed, $DURATION s each: both
#                    deliver in every sample, PFC pauses sent, no cycle, no
#                    lossless drop; exit 0 (as the CBD check predicts); the
#                    SVG has a polyline per set
#   ring_deadlock    ecmp-cw (clockwise paths only: a CBD) and edst on the
#                    ring: ecmp-cw deadlocks (nothing delivered over the
#                    last 2 s, every flow stopped, the live detector finds
#                    a cycle, the lossless queues left paused with frames),
#                    edst delivers in every sample; exit 0
#   detector_keep    ecmp-cw on the ring with --keep: "sluicectl fabric
#                    deadlock" on the fabric left up exits 3 and names s0,
#                    s1, s2, s3
#   watchdog_drop    the same with the PFC watchdog dropping (detection
#                    200 ms): storms detected, frames dropped, delivering
#                    at the end, verdict "broken by watchdog", exit 0
#   watchdog_alert   the same with the watchdog only alerting: storms
#                    reported, the deadlock stays (verdict deadlock)
#   fc_lossless      fc at the paper's XOFF 50 KB / XON 47 KB and the
#                    derived headroom (Tagger's eq. 1 + 10 ms of catch-up,
#                    8486 bytes at 1 Mbit/s), a steady overload of the
#                    ring for $DURATION s: no lossless frame dropped, none
#                    discarded by the ARP layer (the fabric's neighbours
#                    are permanent: no ARP starves behind class 3 and no
#                    burst of held frames bypasses the accounts), and
#                    every ingress account stayed within xoff + headroom
#
# A run where ecmp-cw does not deadlock fails, saying so: the parameters
# are meant to make it form every time (docs/experiment-deadlock.md has the measured
# times).  SLUICE_DEADLOCK_DURATION sets the seconds per run.
#
# Runs in the VM (selftests/vm/run sluice_deadlock.sh); needs veth,
# mpls_router and mpls_iptunnel (loaded here with modprobe).

ALL_TESTS="
	testbed_cbd_free
	ring_deadlock
	detector_keep
	watchdog_drop
	watchdog_alert
	fc_lossless
"

source "$(dirname "$0")/lib.sh"

require_cmd jq
sluice_load
fabric_require

export LC_ALL=C
NAME=sdl
DURATION=${SLUICE_DEADLOCK_DURATION:-15}
# The experiment's defaults, spelled out: lower than the paper's 50 KB /
# 47 KB, with greedy senders (twice the link rate), so that the deadlock
# forms within seconds on every run instead of most runs (docs/experiment-deadlock.md).
THRESHOLDS=(--xoff "${SLUICE_DEADLOCK_XOFF:-20Kb}" --xon "${SLUICE_DEADLOCK_XON:-17Kb}"
	    --send-rate "${SLUICE_DEADLOCK_SEND_RATE:-2mbit}")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

sc() { "$SLUICECTL" "$@"; }

# The runs that must deadlock use a plain ring of 4 switches (single
# links, 4 hosts each): ecmp-cw has one path per pair there, so the
# clockwise load and the cycle do not depend on how the kernel's multipath
# hash, seeded anew at each boot, splits flows over the testbed's doubled
# links - which made whole boots of the testbed run lock or not (docs/experiment-deadlock.md).
RING=$TMP/ring4.json
sc topo gen ring --switches 4 --host-ports 4 -o "$RING" ||
	{ echo "cannot generate the ring topology"; exit 1; }

# experiment OUT [OPTIONS...]: the experiment's JSON into OUT; its exit
# status returned.
experiment()
{
	local out=$1 rc start=$SECONDS

	shift
	sc experiment deadlock --name $NAME --duration "$DURATION" \
		"${THRESHOLDS[@]}" -j "$@" \
		>"$out" 2>"$out.err"
	rc=$?
	log_info "experiment deadlock --duration $DURATION ${THRESHOLDS[*]} $* -> exit $rc in $((SECONDS - start)) s"
	[[ -s $out.err ]] && log_info "stderr: $(head -c 600 "$out.err")"
	load "$out"
	return $rc
}

# The per-set lines worth keeping in the log.
summary()
{
	jq -r '.sets[] | "\(.routes): \(.verdict), mean \(.mean_mbps) Mbit/s, final \(.final_mbps), stopped at \(.stopped_at_s) s, zero flows \(.zero_flows)/\(.flows), pfc_tx \(.pfc_tx), lossless drops \(.lossless_drops), ingress peak \(.ingress_peak) at \(.ingress_peak_port), ARP discards \(.neigh_discards), storms \(.wd_storms), wd drops \(.wd_drops), cpu \(.cpu_busy); detector: \(.detector_text)",
		"  Mbit/s: " + ([.samples[].mbps | tostring] | join(" "))' "$1" |
	while read -r line; do log_info "$line"; done
}

# The jq expressions the tests ask of each set (field) and of the run
# (field JSON "" EXPR): load evaluates them all in one jq per JSON, since
# a jq start costs a quarter of a second under TCG.
SET_EXPRS=(.verdict .stopped_at_s .longest_zero_s .why .cbd .detector
	.detector_text .lossless_drops .headroom_drops .wd_drops .ingress_peak
	.ingress_peak_port .neigh_discards '.final_mbps == 0' '.final_mbps > 0'
	'.zero_flows == .flows' '.paused_with_frames > 0' '.pfc_tx > 0'
	'.wd_storms > 0' '.wd_drops > 0' '[.samples[].rx_bytes] | min > 0')
RUN_EXPRS=(.as_predicted .xoff .headroom .headroom_derived)
declare -A FIELD=()

# load JSON: every expression above, of every set and of the run, into
# FIELD[JSON|ROUTES|EXPR] (ROUTES "-" for the run's own: a tab is IFS
# white space, so an empty first field would vanish).
load()
{
	local j=$1 e prog sets=() run=() r k v

	for e in "${SET_EXPRS[@]}"; do
		sets+=("([\$r, \"$e\", ($e | tostring)] | @tsv)")
	done
	for e in "${RUN_EXPRS[@]}"; do
		run+=("([\"-\", \"$e\", ($e | tostring)] | @tsv)")
	done
	prog="(.sets[] | .routes as \$r | $(IFS=,; echo "${sets[*]}")), $(IFS=,; echo "${run[*]}")"
	while IFS=$'\t' read -r r k v; do
		FIELD[$j|$r|$k]=$v
	done < <(jq -r "$prog" "$j")
}

# field JSON ROUTES EXPR: one field of one set ("" ROUTES: of the run), as
# loaded; an expression load does not know is asked of jq.
field()
{
	local key="$1|${2:--}|$3"

	if [[ -v FIELD[$key] ]]; then
		echo "${FIELD[$key]}"
	elif [[ -z $2 ]]; then
		jq -r "$3" "$1"
	else
		jq -r --arg r "$2" ".sets[] | select(.routes == \$r) | $3" "$1"
	fi
}

# The ecmp-cw set of JSON deadlocked, or the test says why not.
expect_deadlock()
{
	local j=$1 what=$2 v

	v=$(field "$j" ecmp-cw .verdict)
	if [[ $v != deadlock ]]; then
		check_err 1 "$what: ecmp-cw did not deadlock in this run (verdict '$v', stopped at $(field "$j" ecmp-cw .stopped_at_s) s, longest stop $(field "$j" ecmp-cw .longest_zero_s) s): $(field "$j" ecmp-cw .why)"
		return
	fi
	check_eq "$(field "$j" ecmp-cw '.final_mbps == 0')" "true" "$what: nothing delivered in ecmp-cw's last 2 s"
	check_eq "$(field "$j" ecmp-cw '.zero_flows == .flows')" "true" "$what: every ecmp-cw flow stopped"
	check_eq "$(field "$j" ecmp-cw .detector)" "1" "$what: the detector's cycle ($(field "$j" ecmp-cw .detector_text))"
	check_eq "$(field "$j" ecmp-cw '.paused_with_frames > 0')" "true" "$what: lossless queues left paused with frames"
}

# FC's testbed, the CBD-free sets: fc and edst deliver throughout.
testbed_cbd_free()
{
	local j=$TMP/testbed.json svg=$TMP/testbed.svg r rc

	experiment "$j" --routes fc,edst --svg "$svg"
	rc=$?
	summary "$j"
	for r in fc edst; do
		check_eq "$(field "$j" $r .cbd)" "false" "$r's CBD check"
		check_eq "$(field "$j" $r .verdict)" "flowing" "$r's verdict"
		check_eq "$(field "$j" $r '[.samples[].rx_bytes] | min > 0')" "true" "$r delivered in every sample"
		check_eq "$(field "$j" $r '.pfc_tx > 0')" "true" "$r: PFC pauses sent"
		check_eq "$(field "$j" $r .detector)" "0" "$r: no wait-for cycle"
		check_eq "$(field "$j" $r .lossless_drops)" "0" "$r: lossless frames dropped"
	done
	check_eq "$rc" "0" "exit status (0: every set as its CBD check predicts)"
	check_eq "$(field "$j" "" .as_predicted)" "true" "as_predicted"
	check_eq "$(grep -c '<polyline ' "$svg")" "2" "polylines in the SVG"
	check_eq "$(tail -n 1 "$svg")" "</svg>" "the SVG's last line"
}

# The ring: ecmp-cw (a CBD) deadlocks, edst on the same fabric does not.
ring_deadlock()
{
	local j=$TMP/ring.json rc

	experiment "$j" --topo "$RING" --routes ecmp-cw,edst
	rc=$?
	summary "$j"
	check_eq "$(field "$j" ecmp-cw .cbd)" "true" "ecmp-cw's CBD check"
	expect_deadlock "$j" "ring"
	check_eq "$(field "$j" edst .cbd)" "false" "edst's CBD check"
	check_eq "$(field "$j" edst .verdict)" "flowing" "edst's verdict"
	check_eq "$(field "$j" edst '[.samples[].rx_bytes] | min > 0')" "true" "edst delivered in every sample"
	check_eq "$rc" "0" "exit status (0: every set as its CBD check predicts)"
}

detector_keep()
{
	local j=$TMP/keep.json out rc s

	if ! sc fabric deadlock --help >/dev/null 2>&1; then
		skip "this sluicectl has no \"fabric deadlock\" command"
		return
	fi
	experiment "$j" --topo "$RING" --routes ecmp-cw --keep
	check_err $? "experiment --keep"
	defer sc fabric down --name $NAME
	summary "$j"
	expect_deadlock "$j" "keep"
	out=$(sc fabric deadlock --name $NAME 2>&1)
	rc=$?
	log_info "fabric deadlock: exit $rc"
	while read -r s; do log_info "  $s"; done <<<"$out"
	check_eq "$rc" "3" "fabric deadlock's exit status"
	for s in s0 s1 s2 s3; do
		grep -qw "$s" <<<"$out"
		check_err $? "fabric deadlock does not name $s"
	done
}

# The sluicectl and the qdisc under test know the PFC watchdog.
watchdog_require()
{
	sc fabric up --help 2>&1 | grep -q -- '--watchdog-action' ||
		{ skip "this sluicectl has no --watchdog qdisc options"; return 1; }
}

watchdog_drop()
{
	local j=$TMP/drop.json rc

	watchdog_require || return
	experiment "$j" --topo "$RING" --routes ecmp-cw --watchdog drop \
		--detection-time 200 \
		--restoration-time 200
	rc=$?
	summary "$j"
	check_eq "$(field "$j" ecmp-cw '.wd_storms > 0')" "true" "watchdog storms"
	check_eq "$(field "$j" ecmp-cw '.wd_drops > 0')" "true" "watchdog drops"
	check_eq "$(field "$j" ecmp-cw '.final_mbps > 0')" "true" "delivering at the end"
	check_eq "$(field "$j" ecmp-cw .verdict)" "broken by watchdog" "verdict"
	check_eq "$rc" "0" "exit status"
}

watchdog_alert()
{
	local j=$TMP/alert.json rc

	watchdog_require || return
	experiment "$j" --topo "$RING" --routes ecmp-cw --watchdog alert \
		--detection-time 200
	rc=$?
	summary "$j"
	expect_deadlock "$j" "watchdog alert"
	check_eq "$(field "$j" ecmp-cw '.wd_storms > 0')" "true" "watchdog storms reported"
	check_eq "$(field "$j" ecmp-cw .wd_drops)" "0" "nothing dropped in alert mode"
	check_eq "$rc" "0" "exit status"
}

fc_lossless()
{
	local j=$TMP/lossless.json rc xoff headroom peak

	# The paper's thresholds: the headroom is what is under test.
	sc experiment deadlock --name $NAME --duration "$DURATION" \
		--routes fc --xoff 50Kb --xon 47Kb -j >"$j" 2>"$j.err"
	rc=$?
	log_info "experiment deadlock --routes fc --duration $DURATION --xoff 50Kb --xon 47Kb -> exit $rc"
	[[ -s $j.err ]] && log_info "stderr: $(head -c 600 "$j.err")"
	load "$j"
	summary "$j"
	xoff=$(field "$j" "" .xoff)
	headroom=$(field "$j" "" .headroom)
	peak=$(field "$j" fc .ingress_peak)
	log_info "headroom $headroom bytes (derived: $(field "$j" "" .headroom_derived)); largest ingress account $peak bytes at $(field "$j" fc .ingress_peak_port), xoff + $((peak - xoff)); ARP discards $(field "$j" fc .neigh_discards)"
	check_eq "$rc" "0" "exit status"
	check_eq "$(field "$j" fc .verdict)" "flowing" "fc's verdict"
	check_eq "$(field "$j" "" .headroom_derived)" "true" "the headroom derived"
	check_eq "$(field "$j" fc '.pfc_tx > 0')" "true" "PFC pauses sent"
	check_eq "$(field "$j" fc .lossless_drops)" "0" "lossless frames dropped"
	check_eq "$(field "$j" fc .headroom_drops)" "0" "headroom drops"
	if [[ $(field "$j" fc .neigh_discards) == -1 ]]; then
		log_info "no /proc/net/stat/arp_cache: ARP discards not checked"
	else
		check_eq "$(field "$j" fc .neigh_discards)" "0" "frames the ARP layer discarded unresolved"
	fi
	check_eq "$(( peak > xoff && peak <= xoff + headroom ))" "1" "largest ingress account $peak within xoff $xoff + headroom $headroom"
}

tests_run
