#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The manual pages: groff formats each without a warning (-ww), and
# tc-sluice(8) names every option the tc plugin's parser takes (its
# keyword tables in lib/qopt.c and the maps' names in lib/tag.c) as a
# bold word, so that the page and the plugin cannot drift apart.
#
# Run by run-ktap without its wrapper.

set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/ktap.sh"

ktap_plan 2

warn=""
for page in "$here"/man/*.[1-8]; do
	out=$(groff -man -ww -z "$page" 2>&1) || out="$out (exit $?)"
	[ -z "$out" ] || warn="$warn${page##*/}: $out
"
done
[ -z "$warn" ]
result $? groff_clean "$warn"

page="$here/man/tc-sluice.8"
words=$( { sed -n 's/^	{ "\([a-z-]*\)",.*/\1/p' "$here/userspace/lib/qopt.c"
	   sed -n 's/.*\.map_name[[:space:]]*= "\([a-z-]*\)".*/\1/p' \
		"$here/userspace/lib/tag.c"; } | sort -u)
missing=""
count=0
for w in $words; do
	count=$((count + 1))
	# a bold word of the page: .B word, .BR word ..., .BI word, \fBword\fR
	grep -Eq "(^\\.B[IR]? .*\\b$w\\b|\\\\fB$w\\\\fR|^\\.B[IR]? \"?$w)" "$page" ||
		missing="$missing $w"
done
[ -z "$missing" ] && [ "$count" -ge 30 ]
result $? tc_sluice_options "not in tc-sluice(8):$missing ($count options read)"

ktap_exit
