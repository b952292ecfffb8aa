#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Progress of long work (sluicectl/progress.c): on a terminal (script(1)
# gives the command one) route compute counts its sources, analyze the
# max-min model's runs and fptas's phases, tag compute its reading, its
# priorities and tables, each line ended; with stderr a
# pipe or a file, nothing is added to it.

set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ctl=${SLUICECTL:-$here/sluicectl/sluicectl}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/ktap.sh"

ktap_plan 6

# on_tty COMMAND...: what COMMAND writes to a terminal as stderr, its
# stdout thrown away, carriage returns as newlines.
on_tty() {
	script -qec "$* > /dev/null" /dev/null | tr '\r' '\n'
}

"$ctl" topo gen jellyfish --switches 12 --inter-ports 4 --host-ports 1 \
	-o "$tmp/j.json" > /dev/null &&
	"$ctl" route compute --topo "$tmp/j.json" --algo ksp --paths 2 \
	-o "$tmp/j.routes" 2> "$tmp/err" > /dev/null
[ $? -eq 0 ] && [ ! -s "$tmp/err" ]
result $? quiet_off_a_terminal "stderr not a terminal, yet: $(head -c 200 "$tmp/err")"

out=$(on_tty "$ctl" route compute --topo "$tmp/j.json" --algo ksp --paths 2)
echo "$out" | grep -qx 'sluicectl: routing 12/12 sources'
result $? route_compute "no 'routing 12/12 sources' line: $out"

out=$(on_tty "$ctl" analyze --topo "$tmp/j.json" --routes "$tmp/j.routes" \
	--traffic permutation --model maxmin --runs 7)
echo "$out" | grep -qx 'sluicectl: max-min 7/7 runs'
result $? maxmin_runs "no 'max-min 7/7 runs' line: $out"

# fptas stops before its cap, at convergence or with a warning: the line
# is ended either way, the warning on a line of its own
out=$(on_tty "$ctl" analyze --topo "$tmp/j.json" --routes "$tmp/j.routes" \
	--traffic all2all --method fptas --max-phases 500)
echo "$out" | grep -Eq '^sluicectl: fptas [0-9]+/500 phases \(at most\)$' &&
	echo "$out" | grep -q '^sluicectl: warning: fptas stopped after 500 phases'
result $? fptas_phases "no 'fptas N/500 phases' line ended before the warning: $out"

# tag compute: the route file read, the priorities, the tables, each its
# line; quick work within the delay draws nothing
out=$(SLUICECTL_PROGRESS_DELAY=0 on_tty "$ctl" tag compute --topo "$tmp/j.json" \
	--routes "$tmp/j.routes" -o "$tmp/j.tags")
pairs=$(sed -n 's/^pairs \([0-9]*\) paths \([0-9]*\) hops \([0-9]*\).*/\1 \2 \3/p' "$tmp/j.routes")
set -- $pairs
echo "$out" | grep -qx "sluicectl: $tmp/j.routes $1/$1 pairs" &&
	echo "$out" | grep -qx "sluicectl: priorities $3/$3 hops" &&
	echo "$out" | grep -qx "sluicectl: tables $2/$2 paths"
result $? tag_compute "no lines for the $1 pairs read, $3 hops and $2 paths: $out"

out=$(on_tty "$ctl" tag compute --topo "$tmp/j.json" --routes "$tmp/j.routes" \
	-o "$tmp/j.tags")
[ -z "$out" ]
result $? tag_compute_quick "work within the delay drew: $out"

ktap_exit
