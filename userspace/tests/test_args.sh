#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sluicectl's argument layer (sluicectl/args.c), through the commands that
# use it: getopt_long's conventions (--opt=value, -ovalue, bundled flags,
# "--", options after operands), no prefixes of option names, a repeated
# option, a missing value, an out-of-range value with its exact message,
# tc's TIME syntax, the global options before the command, "help COMMAND
# SUBCOMMAND" and the --help generated from an option table.  Each check
# runs before any work: none needs root or the kernel module.

set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ctl=${SLUICECTL:-$here/sluicectl/sluicectl}
ctl=$(cd "$(dirname "$ctl")" && pwd)/${ctl##*/}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/ktap.sh"

ktap_plan 17

# run ARGS...: sluicectl's exit code in $rc, stdout in $tmp/out, stderr
# in $tmp/err.
run() {
	"$ctl" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

# usage_is EXPECTED-FIRST-LINE: exit 2 and stderr's first line exactly so.
usage_is() {
	[ "$rc" -eq 2 ] && [ "$(head -1 "$tmp/err")" = "$1" ]
}

"$ctl" topo gen ring --switches 4 --host-ports 1 -o "$tmp/ring.json" &&
	"$ctl" topo show "$tmp/ring.json" > "$tmp/want"
result $? setup "topo gen ring failed"

# --opt=value, -ovalue, "--" before an operand that starts with a dash,
# and an operand before the options.
cp "$tmp/ring.json" "$tmp/-ring.json"
ok=1
run topo gen ring --switches=4 --host-ports=1 "-o$tmp/r2.json" &&
	cmp -s "$tmp/ring.json" "$tmp/r2.json" || ok=0
(cd "$tmp" && "$ctl" topo show -- -ring.json) > "$tmp/out" 2>&1 &&
	cmp -s "$tmp/want" "$tmp/out" || ok=0
run topo dot "$tmp/ring.json" --output "$tmp/dot" && [ -s "$tmp/dot" ] || ok=0
[ "$ok" -eq 1 ]
result $? getopt_forms "$(cat "$tmp/err" "$tmp/out")"

# bundled flags: -jp is -j -p (sluicectl's own, before the command), and
# -jj is --json twice
run -jp version
ok=$?
[ "$ok" -eq 0 ] && [ "$(cat "$tmp/out")" = '{
  "version":"0.1.0"
}' ]
ok=$?
run monitor -jj
[ "$ok" -eq 0 ] && usage_is 'sluicectl monitor: --json given twice'
result $? bundled_flags "rc $rc: $(cat "$tmp/out" "$tmp/err")"

# a repeated option, a missing value, an unknown option, a flag with a value
ok=1
run topo gen ring --switches 4 --switches 5
usage_is 'sluicectl topo gen ring: --switches given twice' || ok=0
run topo gen ring --switches
usage_is 'sluicectl topo gen ring: --switches needs a value' || ok=0
run monitor -n
usage_is 'sluicectl monitor: -n (--netns) needs a value' || ok=0
run topo show --jsonx "$tmp/ring.json"
usage_is 'sluicectl topo show: unknown option "--jsonx"' || ok=0
run topo show --json=yes "$tmp/ring.json"
usage_is 'sluicectl topo show: --json takes no value' || ok=0
[ "$ok" -eq 1 ]
result $? parse_errors "rc $rc: $(cat "$tmp/err")"

# a prefix of an option is not the option: scripts must not break when an
# option is added
run topo gen ring --switch 4
usage_is 'sluicectl topo gen ring: unknown option "--switch"'
result $? no_prefixes "rc $rc: $(cat "$tmp/err")"

# out of range, with the library's bound, before any work: no file written
run topo gen ring --switches 99999999 -o "$tmp/big.json"
usage_is 'sluicectl topo gen ring: --switches: "99999999" is not a number from 0 to 4194304' &&
	[ ! -e "$tmp/big.json" ] &&
	sed -n 2p "$tmp/err" | grep -qx 'Usage: sluicectl topo gen ring --switches N \[--host-ports H\] \[--output FILE\]'
result $? out_of_range "rc $rc: $(cat "$tmp/err")"

# an operand too many, one missing, an option it does not take
ok=1
run topo show "$tmp/ring.json" extra
usage_is 'sluicectl topo show: unexpected argument "extra"' || ok=0
run topo show
usage_is 'sluicectl topo show: missing FILE, the topology' || ok=0
run topo show --paths 2 "$tmp/ring.json"
usage_is 'sluicectl topo show: unknown option "--paths"' || ok=0
[ "$ok" -eq 1 ]
result $? operands "rc $rc: $(cat "$tmp/err")"

# TIME as tc writes it: checked before monitor connects, so an accepted one
# is seen by the --count error after it
ok=""
for t in 200ms 2s 1.5s 1500 20000usec 3000000us 1s; do
	run monitor --timeout "$t" --count 0
	usage_is 'sluicectl monitor: --count: "0" is not a number of 1 or more' ||
		ok="$ok $t"
done
for t in 2x 1.5m 0.0001ms 0 -1s 1e3 "" 604801s; do
	run monitor --timeout "$t" --count 0
	usage_is "sluicectl monitor: --timeout: \"$t\" is not a time from 1ms to 604800s in whole milliseconds (a bare number is seconds)" ||
		ok="$ok !$t"
done
[ -z "$ok" ]
result $? time_syntax "wrongly read:$ok"

# global options before the command, and the same after it
ok=1
run -j version
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = '{"version":"0.1.0"}' ] || ok=0
run version -j
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = '{"version":"0.1.0"}' ] || ok=0
run -V
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = 'sluicectl 0.1.0' ] || ok=0
"$ctl" topo show --json "$tmp/ring.json" > "$tmp/json"
run -j topo show "$tmp/ring.json"
[ "$rc" -eq 0 ] && grep -q '^{"' "$tmp/out" && cmp -s "$tmp/json" "$tmp/out" ||
	ok=0
run -j -j topo show "$tmp/ring.json"
usage_is 'sluicectl: --json given twice' || ok=0
run -v topo show "$tmp/ring.json"
usage_is 'sluicectl topo show: -v (before the command): this command has no --verbose' || ok=0
run -x version
usage_is 'sluicectl: unknown option "-x"' || ok=0
[ "$ok" -eq 1 ]
result $? global_options "rc $rc: $(cat "$tmp/out" "$tmp/err")"

# "help COMMAND SUBCOMMAND" is "COMMAND SUBCOMMAND --help"; exit 0
run help topo show
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && cp "$tmp/out" "$tmp/help1" &&
	run topo show --help && cmp -s "$tmp/help1" "$tmp/out" &&
	run topo help show && cmp -s "$tmp/help1" "$tmp/out" &&
	head -1 "$tmp/help1" | grep -qx 'Usage: sluicectl topo show FILE \[-j | --json\]'
result $? help_sub "rc $rc: $(cat "$tmp/help1" "$tmp/err")"

# an unknown command or subcommand in help: exit 2 and a message
ok=1
run help nosuch
[ "$rc" -eq 2 ] && [ "$(head -1 "$tmp/err")" = 'sluicectl: unknown command "nosuch"' ] || ok=0
run help topo nosuch
usage_is 'sluicectl topo: unknown topo command "nosuch"' || ok=0
run help version extra
usage_is 'sluicectl help: "version" has no subcommands, so no "extra"' || ok=0
[ "$ok" -eq 1 ]
result $? help_unknown "rc $rc: $(cat "$tmp/err")"

# --help lists every option with what it means and what it takes
run topo gen fc --help
ok=1
for line in \
	'      --switches N          ToR switches [a number from 0 to 4194304]' \
	'      --host-ports H        ports to hosts, default 0 [a number from 0 to 65535]' \
	'      --layers K            virtual layers, default by the paper'"'"'s strategy [a number from 2 to 16]' \
	'  -o, --output FILE         write to FILE (whole or not at all) instead of stdout' \
	'  -h, --help                print this help and exit'; do
	grep -qxF -- "$line" "$tmp/out" || ok=0
done
[ "$rc" -eq 0 ] && [ "$ok" -eq 1 ] &&
	[ "$(grep -c '^  ' "$tmp/out")" -eq 9 ]
result $? help_lists_options "rc $rc: $(cat "$tmp/out")"

run monitor --help
grep -qxF '      --timeout TIME        stop after TIME [a time from 1ms to 604800s in whole milliseconds (a bare number is seconds)]' "$tmp/out"
result $? help_time "$(cat "$tmp/out")"

# route compute's help: every option it takes, with its range and meaning,
# the same from "help route compute"
run help route compute
cp "$tmp/out" "$tmp/help2"
ok=1
[ "$rc" -eq 0 ] && run route compute --help && cmp -s "$tmp/help2" "$tmp/out" || ok=0
for opt in --topo --algo --paths --lanes --seed --orient --root --threads \
	--shard --output --json --help; do
	grep -qE -- "^  (-[a-z], |    )$opt( |\$)" "$tmp/help2" || ok="$ok $opt"
done
grep -qxF '      --paths K             ksp: paths per pair; ecmp, updown: at most K equal-cost paths [a number from 1 to 65536]' "$tmp/help2" || ok="$ok paths-line"
[ "$ok" = 1 ]
result $? help_route_compute "missing:$ok $(cat "$tmp/help2")"

# experiment deadlock takes tc's TIME, as fabric up does: 200ms is read (the
# message is about what follows), 200x is not
ok=1
run experiment deadlock --watchdog drop --detection-time 200ms --restoration-time 1.5s --bogus
usage_is 'sluicectl experiment deadlock: unknown option "--bogus"' || ok=0
run experiment deadlock --watchdog drop --detection-time 200x
usage_is 'sluicectl experiment deadlock: --detection-time: "200x" is not a time from 10ms to 60s in whole milliseconds (a bare number is milliseconds)' || ok=0
[ "$ok" -eq 1 ]
result $? experiment_time "rc $rc: $(head -2 "$tmp/err")"

# -j -p before a group's command: route stats prints pretty JSON
"$ctl" route compute --topo "$tmp/ring.json" --algo ecmp -o "$tmp/ring.routes" > /dev/null
run -j -p route stats --topo "$tmp/ring.json" "$tmp/ring.routes"
[ "$rc" -eq 0 ] && [ "$(head -1 "$tmp/out")" = '{' ] && "$ctl" route stats --topo "$tmp/ring.json" -j "$tmp/ring.routes" |
	tr -d ' \n' > "$tmp/flat" && [ "$(tr -d ' \n' < "$tmp/out")" = "$(cat "$tmp/flat")" ]
result $? global_json_pretty "rc $rc: $(head -5 "$tmp/out") $(cat "$tmp/err")"

# an enum names its words, in help and in the message
run stats --format xml
usage_is 'sluicectl stats: --format: "xml" is not text, json, sai or openmetrics'
result $? enum_words "rc $rc: $(cat "$tmp/err")"

ktap_exit
