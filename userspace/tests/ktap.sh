# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the unit tests written in shell (tests/test_*.sh): KTAP results
# as tests/ktap.h prints them for C.  ktap_plan N, then result RC NAME
# [DIAGNOSTIC...] per test (a diagnostic of several lines is commented line
# by line), then ktap_exit.

ktap_n=0
ktap_failed=0

ktap_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

result() {
	ktap_rc=$1
	ktap_name=$2
	shift 2
	ktap_n=$((ktap_n + 1))
	if [ "$ktap_rc" -eq 0 ]; then
		echo "ok $ktap_n $ktap_name"
		return
	fi
	for line in "$@"; do
		echo "$line" | sed 's/^/# /'
	done
	echo "not ok $ktap_n $ktap_name"
	ktap_failed=$((ktap_failed + 1))
}

ktap_exit() {
	[ "$ktap_failed" -eq 0 ]
}
