#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style runner: runs the selftests/sluice_*.sh scripts (sorted) or
# the ones named, and prints one KTAP v1 document on stdout, each script's
# own KTAP nested under "# Subtest: <name>" and then its result.
#
#   selftests/run_tests.sh [TEST...]        TEST: sluice_foo or sluice_foo.sh
#   TESTS="sluice_a sluice_b" selftests/run_tests.sh
#
# A script exits 0 (pass), 4 (skip) or anything else (fail).  It gets the
# seconds its line in selftests/timeouts gives it (SLUICE_TEST_TIMEOUT, if
# set, for every script), times SLUICE_TIMEOUT_SCALE (default 1; make
# check-debug's kernel is slower), and a timeout is a failure that names the
# script and how long it ran.
# Lines a script prints that are not KTAP (stderr too) become diagnostics.
# Exits 1 if any script failed.  Run it as root in the VM (selftests/vm/run)
# or on a host that can load modules (selftests/vm/run --native).

set -uo pipefail

KSFT_SKIP=4

cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1

# Each script's bound: "NAME SECONDS" lines of ./timeouts (kselftest keeps
# its per-directory timeout in a settings file; ours is per script).
declare -A BOUND=()
while read -r name secs _; do
	[[ $name == sluice_* && $secs =~ ^[1-9][0-9]*$ ]] && BOUND[$name]=$secs
done < <(grep -v '^#' timeouts 2>/dev/null)

# timeout_of NAME: the seconds NAME may run.
timeout_of() {
	local scale=${SLUICE_TIMEOUT_SCALE:-1}

	[[ $scale =~ ^[1-9][0-9]*$ ]] || scale=1
	if [[ -n ${SLUICE_TEST_TIMEOUT:-} ]]; then
		echo "$((SLUICE_TEST_TIMEOUT * scale))"
	else
		echo "$((${BOUND[$1]:-600} * scale))"
	fi
}

# Test boundaries in the kernel log, so a splat can be traced to its test.
kmsg() {
	if [[ -w /dev/kmsg ]]; then
		echo "<6>sluice-selftests: $*" >/dev/kmsg
	fi
	return 0
}

# Indent a script's output one level; drop its own version line; turn
# whatever is not KTAP into a diagnostic.
nest() {
	sed -u -e '0,/^K\?TAP version/{/^K\?TAP version/d}' \
		-e '/^\(ok \|not ok \|#\|1\.\.\|[[:space:]]\|$\)/!s/^/# /' \
		-e 's/^./    &/'
}

# Why a script that exited 0 still failed, judging by its own KTAP.
doc_problem() {
	awk '
	/^1\.\.[0-9]+/ && !has_plan { has_plan = 1; plan = substr($0, 4) + 0 }
	/^(not )?ok [0-9]/ { n++ }
	/^not ok/ && !/# *([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])/ { failed++ }
	END {
		if (failed)
			print "reported " failed " failure(s) but exited 0"
		else if (!has_plan)
			print "printed no KTAP plan"
		else if (plan != n)
			print "planned " plan " tests but reported " n
	}
	' "$1"
}

skip_reason() {
	sed -n 's/^\(1\.\.0\|ok [0-9].*\) *# *[Ss][Kk][Ii][Pp] *//p' "$1" | tail -n 1
}

# Runs one script nested at test number $1; returns 0 pass, 4 skip, 1 fail.
run_one() {
	local num=$1 name=$2 script=$2.sh raw rc problem reason start bound

	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	if [[ ! -f $script ]]; then
		echo "    # no such test: selftests/$script"
		echo "not ok $num $name"
		return 1
	fi
	local cmd=(bash "./$script")
	[[ -x $script ]] && cmd=("./$script")

	raw=$(mktemp)
	bound=$(timeout_of "$name")
	kmsg "start $name"
	start=$SECONDS
	timeout -k 10 "$bound" "${cmd[@]}" </dev/null 2>&1 | tee "$raw" | nest
	rc=${PIPESTATUS[0]}
	kmsg "end $name status $rc"
	echo "    # $name: exit status $rc after $((SECONDS - start)) s"
	problem=
	[[ $rc == 0 ]] && problem=$(doc_problem "$raw")
	reason=$(skip_reason "$raw")
	rm -f "$raw"

	case $rc in
	0)
		if [[ -n $problem ]]; then
			echo "    # FAIL: $name $problem"
			echo "not ok $num $name"
			return 1
		fi
		echo "ok $num $name"
		return 0 ;;
	"$KSFT_SKIP")
		echo "ok $num $name # SKIP ${reason:-exit status $KSFT_SKIP}"
		return "$KSFT_SKIP" ;;
	124|137)
		echo "    # TIMEOUT: $name killed after $((SECONDS - start)) s (its bound: $bound s, selftests/timeouts${SLUICE_TIMEOUT_SCALE:+ x $SLUICE_TIMEOUT_SCALE})"
		echo "not ok $num $name"
		return 1 ;;
	*)
		echo "not ok $num $name"
		return 1 ;;
	esac
}

main() {
	local tests=() t num=0 failed=0

	local names=("$@")

	((${#names[@]})) || read -ra names <<<"${TESTS:-}"
	if ((${#names[@]})); then
		for t in "${names[@]}"; do
			t=${t##*/}
			tests+=("${t%.sh}")
		done
	else
		for t in sluice_*.sh; do
			[[ -e $t ]] && tests+=("${t%.sh}")
		done
		mapfile -t tests < <(((${#tests[@]})) && printf '%s\n' "${tests[@]}" | LC_ALL=C sort)
	fi

	echo "KTAP version 1"
	echo "1..${#tests[@]}"
	if ((${#tests[@]} == 0)); then
		echo "# no selftests/sluice_*.sh found"
		return 1
	fi
	for t in "${tests[@]}"; do
		run_one $((++num)) "$t" || [[ $? == "$KSFT_SKIP" ]] || failed=$((failed + 1))
	done
	echo "# $failed of $num failed"
	((failed == 0))
}

main "$@"
