#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sluicectl experiment faca --parts micro, shortened: FaCa's micro-benchmark
# on a fabric of namespaces, one run of each policy, 2 rounds.
#
#   leaf0-h0..h3 -- leaf0 ==== spine0, spine1 (fast) ==== leaf2 -- leaf2-h0..h3
#   leaf1-h0..h3 -- leaf1 ==== spine2, spine3 (slow) ==== leaf3 -- leaf3-h0..h3
#                         (every leaf to every spine)
#
#   faca_micro_table   the JSON has what the table prints: every policy's
#                      runs, rounds and numbers in their ranges, each
#                      round's flows on the spines (the kernel's routes)
#                      adding up to its flows; the prediction's rounds; the
#                      paper's numbers; the exit status saying what
#                      as_predicted says; both plots, a line per policy
#                      measured and expected; the fabric taken down
#   faca_micro_agents  FaCa's run: every flow's source port from its
#                      host's agent (none fell back to the kernel's), every
#                      sending agent knowing the 4 paths, every flow's path
#                      known
#
# Runs in the VM (selftests/vm/run sluice_faca_micro); needs veth,
# mpls_router and mpls_iptunnel.

ALL_TESTS="
	faca_micro_table
	faca_micro_agents
"

source "$(dirname "$0")/lib.sh"

require_cmd ip jq
sluice_load

fabric_require

export LC_ALL=C
NAME=sfm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One run of every policy, 2 rounds of 2 flows a leaf pair started at once,
# 5 s each: 3 x 10 s of traffic.
"$SLUICECTL" experiment faca --parts micro --name $NAME --runs 1 --rounds 2 \
	--flows 2 --stagger 0s --duration 5s --svg "$TMP/p" -j >"$TMP/out.json" \
	2>"$TMP/err.log"
STATUS=$?

faca_micro_table()
{
	local out=$TMP/out.json v p

	[[ $STATUS == 0 || $STATUS == 3 ]]
	check_err $? "experiment faca exited $STATUS: $(tail -3 "$TMP/err.log")"
	((RET)) && return
	check_eq "$(jq -c '.micro.as_predicted == .as_predicted' "$out")" true \
		"the micro part's verdict is the command's"
	check_eq "$STATUS" "$(jq 'if .as_predicted then 0 else 3 end' "$out")" \
		"the exit status says what as_predicted says"
	check_eq "$(jq -c '[.micro.fabric | .leaves, .spines, .hosts_per_leaf, .rounds, .runs]' "$out")" \
		"[4,4,4,2,1]" "[leaves, spines, hosts a leaf, rounds, runs]"
	check_eq "$(jq -c '[.micro.expect[].flows]' "$out")" "[2,4]" \
		"the prediction's flows a leaf pair, round by round"
	check_eq "$(jq -c '[.micro.paper | .port_sd_ecmp, .port_sd_faca]' "$out")" \
		"[148.06,2.96]" "the paper's numbers beside ours"
	for p in ecmp wcmp faca; do
		v=$(jq -c --arg p "$p" '.micro[$p] |
			[.runs, .flows, .failed, (.mean | length),
			 ([.mean[].flows] == [4, 8]),
			 all(.mean[]; .congestion >= 0 and .congestion <= 1 and
			     .goodput_bps > 0 and .port_sd_bps >= 0 and
			     .pair_sd_bps >= 0 and .pauses >= 0),
			 all(.each[0][]; ([.on_spine[][]] | add) == .flows)]' "$out")
		check_eq "$v" "[1,8,0,2,true,true,true]" \
			"$p: [runs, flows, failed, rounds, flows a round, numbers in range, flows on spines add up]"
	done
	log_info "congestion by round: $(jq -c '.micro | [.ecmp, .wcmp, .faca] | map([.mean[].congestion])' "$out"), $(jq -c '.micro.seconds' "$out") s"
	for p in micro micro-goodput; do
		v=$(grep -c '<polyline' "$TMP/p-$p.svg")
		check_eq "$v" 6 "$p.svg: a line per policy, measured and expected"
	done
	[[ ! -e /run/netns/$NAME-leaf0 ]]
	check_err $? "the fabric is still up"
}

faca_micro_agents()
{
	local out=$TMP/out.json

	[[ -s $out ]]
	check_err $? "no output: $(tail -3 "$TMP/err.log")"
	((RET)) && return
	check_eq "$(jq -c '.micro.faca | [.from_agent, .flows, .unknown_path, .agent_paths_min, .agent_paths_max, .multipath]' "$out")" \
		'[8,8,0,4,4,"sport"]' \
		"[ports from the agents, flows, paths unknown, paths an agent knew (fewest, most), multipath] (a fallback's reason: $(jq -r '.micro.faca.agent_error // "none"' "$out"))"
	check_eq "$(jq -c '[.micro.ecmp.from_agent, .micro.ecmp.multipath, .micro.wcmp.multipath]' "$out")" \
		'[0,"hash5","wcmp"]' "ECMP's and WCMP's ports are random: no agent"
}

tests_run
