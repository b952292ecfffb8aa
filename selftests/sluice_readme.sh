#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's quick starts that need the kernel, run as the README has
# them (scripts/readme-example NAME), from the top of the tree, with
# "set -e": what they print must be what the README says they show.
#
#   readme_link    "the qdisc on one link": h1 -> sw -> h2 with PFC on
#                  priority 3 and a 1 Mbit/s egress; the ping loses
#                  nothing, sw's port to h1 sent XOFFs and XONs (xoff_tx,
#                  xon_tx > 0), h1's port honoured PFC frames (pfc_rx > 0).
#                  The module is loaded already: its insmod line is left
#                  out. The namespaces are removed afterwards.
#   readme_fabric  "a fabric": FC's testbed up, FC's routes loaded, all 240
#                  pairs pinged with none lost, s1's counters, down again
#                  (no namespace of the fabric left).
#
# Runs in the VM (selftests/vm/run sluice_readme).

ALL_TESTS="
	readme_link
	readme_fabric
"

source "$(dirname "$0")/lib.sh"

require_cmd ip tc ping awk
sluice_load
fabric_require

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# example NAME: the README's block, prefixed by "set -e", less its lines
# matching the regular expression $2 (if given), in $TMP/NAME.sh.
example()
{
	{
		echo "set -e"
		"$REPO/scripts/readme-example" "$1" | grep -Ev "${2:-^\$^}"
	} >"$TMP/$1.sh"
}

readme_link()
{
	local out n

	example link '^insmod ' || { check_err 1 "no example \"link\""; return; }
	defer ip netns del h2
	defer ip netns del sw
	defer ip netns del h1
	out=$(cd "$REPO" && bash "$TMP/link.sh" 2>&1)
	check_err $? "the example failed: $(tail -n 5 <<<"$out")"
	log_info "$(grep -E 'packets transmitted|xoff_tx|pfc_rx' <<<"$out" |
		grep -oE '[0-9]+ packets transmitted.*loss|(xoff_tx|xon_tx|pfc_rx) [0-9]+' | tr '\n' ' ')"

	grep -q '^300 packets transmitted, 300 received, 0% packet loss' <<<"$out"
	check_err $? "the ping lost echoes: $(grep 'packets transmitted' <<<"$out")"
	n=$(grep -oE ' xoff_tx [0-9]+' <<<"$out" | awk '{ print $2 }')
	((n > 0))
	check_err $? "sw1 sent no XOFF (xoff_tx '$n')"
	n=$(grep -oE ' xon_tx [0-9]+' <<<"$out" | awk '{ print $2 }')
	((n > 0))
	check_err $? "sw1 sent no XON (xon_tx '$n')"
	n=$(grep -oE ' pfc_rx [0-9]+ pfc_tx' <<<"$out" | awk '{ print $2 }')
	((n > 0))
	check_err $? "h1 honoured no PFC frame (qdisc pfc_rx '$n')"
}

readme_fabric()
{
	local out

	example fabric || { check_err 1 "no example \"fabric\""; return; }
	defer "$SLUICECTL" fabric down
	out=$(cd "$REPO" && bash "$TMP/fabric.sh" 2>&1)
	check_err $? "the example failed: $(tail -n 5 <<<"$out")"
	log_info "$(grep -E '^(fabric|loaded|ping)' <<<"$out" | tr '\n' ';')"

	grep -q '^loaded 4 switches: ' <<<"$out"
	check_err $? "routes not loaded on 4 switches"
	grep -q '^ping 16 hosts: 240 pairs, 240 sent, 240 received, 0 lost' <<<"$out"
	check_err $? "fabric ping: $(grep '^ping' <<<"$out")"
	grep -q '^s1 ' <<<"$out"
	check_err $? "no counters of s1"
	grep -q '^fabric sluice down: 20 namespaces removed' <<<"$out"
	check_err $? "fabric down: $(tail -n 1 <<<"$out")"
	[[ -z $(ip netns list | grep '^sluice-') ]]
	check_err $? "namespaces left: $(ip netns list | grep '^sluice-' | head -n 3)"
}

tests_run
