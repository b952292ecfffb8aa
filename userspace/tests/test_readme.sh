#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The README's quick start "routing and CBD checks, without a kernel or
# root", run as the README has it (scripts/readme-example routing): as an
# unprivileged user when the suite runs as root (nobody, through setpriv),
# from the top of the tree, with "set -e". Its "make" line is left out:
# the suite has built what it builds. The output must say what the README
# says it does: FC's routes CBD-free, KSP's with a cycle and exit 3,
# Tagger's tags safe, a throughput, route stats as JSON.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/ktap.sh"

ktap_plan 6

"$top/scripts/readme-example" routing > "$tmp/example" 2> "$tmp/err"
result $? extracted "$(cat "$tmp/err")"

{
	echo "set -e"
	grep -v '^make ' "$tmp/example"
} > "$tmp/run.sh"
chmod 755 "$tmp" && chmod 644 "$tmp/run.sh"

# As nobody when root: the README says no root is needed.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	who=nobody
else
	as=
	who=$(id -un)
fi
(cd "$top" && $as env HOME=/ bash "$tmp/run.sh") > "$tmp/out" 2>&1
rc=$?
result $rc "runs as $who" "exit $rc" "$(tail -n 5 "$tmp/out")"

# FC's routes: the check's verdict line, before KSP's cycle
grep -q '^cbd-free yes ' "$tmp/out"
result $? fc_cbd_free "no \"cbd-free yes\" for FC's routes"

grep -q '^cycle ' "$tmp/out" && grep -q '^exit 3: a CBD$' "$tmp/out"
result $? ksp_cycle "no cycle and exit 3 for KSP's routes"

grep -q '^ok yes consistent yes cbd-free yes ' "$tmp/out"
result $? tags_safe "tag check did not say ok, consistent, cbd-free"

# the last command's JSON: route stats of FC's routes, every pair routed
json=$(sed -n '/^{/,$p' "$tmp/out")
[ "$(echo "$json" | jq -r '.pairs')" = 992 ] &&
	[ "$(echo "$json" | jq -r '.pairs_without_path')" = 0 ] &&
	grep -q '^theta [0-9.]* theta-upper ' "$tmp/out"
result $? throughput_and_stats "$(echo "$json" | head -n 5)"

ktap_exit
