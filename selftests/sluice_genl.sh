#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "sluice" generic netlink family through sluicectl (and genlraw, for
# what sluicectl never sends): only CAP_NET_ADMIN in the namespace's own
# user namespace changes its switch, everyone reads it; every bad request
# is refused with its extack message and changes nothing; events reach
# the namespace's monitors; a table of tens of thousands of entries over
# many ports dumps back as it was loaded; the per-port stats agree with
# tc's; a fuzz loop of random requests leaves no splat behind.
#
#   +------------- ns --------------+
#   | a0 [sluice] ----------- b0    |   (plus dummy devices d0..d29 for
#   +-------------------------------+    the large table)
#
# Tools (selftests/tools): genlraw sends hand-built requests and prints
# "ok" or "error: ERRNO: MESSAGE [attribute N]"; nlfuzz sends random ones;
# uns is "unshare -U -r [-n]" that also works from the VM's chroot, where
# the kernel refuses a user namespace to a chrooted process.

ALL_TESTS="
	genl_permissions
	genl_own_namespace
	genl_rejects_cli
	genl_rejects_kernel
	genl_events
	genl_dump_large
	genl_stats
	genl_fuzz
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq nsenter setpriv
sluice_load

sluicectl_require
GENLRAW=$SELFTESTS_DIR/tools/genlraw
NLFUZZ=$SELFTESTS_DIR/tools/nlfuzz
UNS=$SELFTESTS_DIR/tools/uns
for tool in "$SLUICECTL" "$GENLRAW" "$NLFUZZ" "$UNS"; do
	[[ -x $tool ]] || skip_all "$tool is not built"
done

# Attribute numbers, from include/uapi/linux/sluice.h.
A_TAG_SOURCE=2 A_MAP_ENTRY=4 A_IFINDEX=8

sctl()
{
	"$SLUICECTL" "$@"
}

setup()
{
	netns_add NS || return 1
	veth_add "$NS" a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice rate 10mbit &&
		defer tc -n "$NS" qdisc del dev a0 root
}

# mapfile VAR: a new map file, readable by every user, filled from stdin.
# The files of a test are in one directory of its own, made on the first
# call and removed at the end of the test; bash writes them (mktemp, cat,
# chmod and rm for each would be four process starts, each a tenth of a
# second under TCG).
MAPDIR=
MAPN=0
mapfile_new()
{
	local -n _f=$1
	local text

	if [[ -z $MAPDIR ]]; then
		MAPDIR=/tmp/sluice-genl.$BASHPID.$RANDOM
		mkdir -m 0755 "$MAPDIR" || return 1
		defer rm -rf "$MAPDIR"
	fi
	_f=$MAPDIR/map$((MAPN++))
	IFS= read -rd '' text
	(umask 022 && printf '%s' "$text" >"$_f")
}

# sw_settings JSON: "switch show -j" but the switch's counters, as jq -c
# 'del(.stats)' prints it (sluicectl prints plain JSON, "stats" last),
# without a jq start (a quarter of a second under TCG).
sw_settings()
{
	if [[ $1 =~ ^(\{.*),\"stats\":\{[^{}]*\}\}$ ]]; then
		echo "${BASH_REMATCH[1]}}"
	else
		echo "unexpected switch show -j: $1"
	fi
}

# The switch's settings and map sizes (its counters left out).
settings()
{
	local js

	js=$(sctl switch show -n "$1" -j)
	sw_settings "$js"
}

# sw_gen JSON: the generation in "switch show -j" output.
sw_gen()
{
	[[ $1 =~ \"generation\":([0-9]+)[,}] ]] && echo "${BASH_REMATCH[1]}"
}

gen()
{
	local js

	js=$(sctl switch show -n "$1" -j)
	sw_gen "$js"
}

# ---------------------------------------------------------- permissions

# as_userns CMD...: CMD in NS, but in a user namespace of its own (root
# there, nobody in the user namespace that owns NS).  uns is "unshare -U
# -r" that also works from the VM's chroot; nsenter, unlike "ip netns
# exec", keeps the mount namespace, whose root uns needs.
as_userns()
{
	nsenter --net="/run/netns/$NS" "$UNS" "$@"
}

# as_nobody CMD...: CMD in NS as uid and gid 65534, without capabilities.
as_nobody()
{
	ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all "$@"
}

# as_who WHO CMD... [-- CMD...]...: each command run by WHO, all of them
# in one process tree (nsenter and uns, or ip and setpriv, would cost two
# process starts, a fifth of a second under TCG, for each command).
# Prints, NUL-terminated, each one's exit status and output (its stderr
# too).
as_who()
{
	local who=$1

	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	"$who" bash -c '
		while (($#)); do
			cmd=()
			while (($#)) && [[ $1 != -- ]]; do
				cmd+=("$1")
				shift
			done
			shift
			out=$("${cmd[@]}" 2>&1)
			printf "%s\0%s\0" $? "$out"
		done' - "$@"
}

genl_permissions()
{
	local file settings0 maps0 stats0 who res

	setup
	check_err $? "setup"
	sctl switch set -n "$NS" tag-source dscp &&
	mapfile_new file <<-EOF &&
	sluice-maps 1
	in a0 8 1
	eg a0 8 2
	tag a0 8 16
	end
	EOF
	sctl map load -n "$NS" "$file" >/dev/null
	check_err $? "maps"
	settings0=$(settings "$NS")
	maps0=$(sctl map show -n "$NS")
	stats0=$(sctl stats -n "$NS" -j)

	mapfile_new file <<-EOF
	sluice-maps 1
	in * 0 7
	end
	EOF
	for who in as_userns as_nobody; do
		mapfile -d '' res < <(as_who $who \
			"$SLUICECTL" switch set tag-source pcp -- \
			"$SLUICECTL" map load "$file" -- \
			"$SLUICECTL" map flush -- \
			"$SLUICECTL" switch set tag-source none -- \
			"$GENLRAW" -q map-load entry a0 in 0 0 -- \
			"$SLUICECTL" switch show -j -- \
			"$SLUICECTL" map show -- \
			"$SLUICECTL" stats -j)
		# Each write fails with EPERM.
		check_eq "${res[0]}" 1 "$who: exit status of sluicectl switch set tag-source pcp"
		check_eq "${res[1]}" "sluicectl: switch set: Operation not permitted" \
			"$who: sluicectl switch set tag-source pcp"
		check_eq "${res[2]}" 1 "$who: exit status of sluicectl map load $file"
		check_eq "${res[3]}" "sluicectl: map load: Operation not permitted" \
			"$who: sluicectl map load $file"
		check_eq "${res[4]}" 1 "$who: exit status of sluicectl map flush"
		check_eq "${res[5]}" "sluicectl: map flush: Operation not permitted" \
			"$who: sluicectl map flush"
		check_eq "${res[6]}" 1 "$who: exit status of sluicectl switch set tag-source none"
		check_eq "${res[7]}" "sluicectl: switch set: Operation not permitted" \
			"$who: sluicectl switch set tag-source none"
		# The kernel says so, not sluicectl: a request that gets there.
		check_eq "${res[9]}" "error: EPERM: Operation not permitted" \
			"$who: genlraw map-load"
		# Reading is open to everyone in the namespace.
		check_eq "$(sw_settings "${res[11]}")" "$settings0" "$who: switch show"
		check_eq "${res[13]}" "$maps0" "$who: map show"
		check_eq "${res[15]}" "$stats0" "$who: stats"
	done
	check_eq "$(settings "$NS")" "$settings0" "settings after the refusals"
	check_eq "$(sctl map show -n "$NS")" "$maps0" "maps after the refusals"
	# And root in the owning user namespace may.
	sctl map flush -n "$NS"
	check_err $? "map flush by root"
}

# A user namespace's own network namespace is its own to change: the
# same commands that were refused above work there.
genl_own_namespace()
{
	local file out res

	mapfile_new file <<-EOF
	sluice-maps 1
	in v0 8 1
	eg v0 8 2
	tag v0 8 16
	end
	EOF
	# shellcheck disable=SC2016 # expanded by the inner shell
	out=$("$UNS" -n bash -c '
		ip link add v0 type veth peer name v1 &&
		tc qdisc add dev v0 root handle 1: sluice &&
		"$0" switch set tag-source dscp &&
		"$0" map load "$1" >/dev/null &&
		"$0" switch show -j &&
		"$0" map flush &&
		"$0" switch show -j' "$SLUICECTL" "$file" 2>&1)
	check_err $? "commands in an own namespace: $out"
	# The first and the last line, from one jq.
	mapfile -t res < <(jq -nRc '[inputs] |
		(.[0] | fromjson | [.tag_source, .ports, .map_entries]),
		(.[-1] | fromjson | [.tag_source, .map_entries])' <<<"$out")
	check_eq "${res[0]}" \
		'["dscp",1,{"in":1,"eg":1,"tag":1,"ports":1}]' "after the load"
	check_eq "${res[1]}" \
		'["dscp",{"in":0,"eg":0,"tag":0,"ports":0}]' "after the flush"
}

# ---------------------------------------------------------- rejections

# rejects_cli "EXPECTED" ARGS...: sluicectl ARGS fails (status 1) printing
# exactly EXPECTED, and the switch is as it was (generation included): as
# $SW, its settings that the test read after its last change (a refusal
# changes nothing, so one read serves a series of them).
rejects_cli()
{
	local expected=$1 out rc

	shift
	out=$(sctl "$@" 2>&1)
	rc=$?
	check_eq "$rc" 1 "exit status of sluicectl $*"
	check_eq "$out" "$expected" "sluicectl $*"
	check_eq "$(settings "$NS")" "$SW" "switch after sluicectl $*"
}

genl_rejects_cli()
{
	local file gen0 SW

	setup
	check_err $? "setup"
	sctl switch set -n "$NS" tag-source dscp
	check_err $? "dscp"
	SW=$(settings "$NS")

	# A tag beyond the DSCP's 64 values: only the kernel knows the source.
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 8 1
	in a0 64 1
	end
	EOF
	rejects_cli "sluicectl: map load: Invalid argument: sch_sluice: map entry: tag beyond the tag source's range: \"in a0 64 1\"" \
		map load -n "$NS" "$file"
	mapfile_new file <<-EOF
	sluice-maps 1
	eg * 8 1
	tag a0 8 64
	end
	EOF
	rejects_cli "sluicectl: map load: Invalid argument: sch_sluice: map entry: new tag beyond the tag source's range: \"tag a0 8 64\"" \
		map load -n "$NS" "$file"

	# A stale generation.
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 8 1
	tag a0 8 16
	end
	EOF
	sctl map load -n "$NS" "$file" >/dev/null
	check_err $? "load"
	SW=$(settings "$NS")
	gen0=$(sw_gen "$SW")
	rejects_cli "sluicectl: map load: Stale file handle: sch_sluice: the maps changed since that generation" \
		map load -n "$NS" "$file" --generation $((gen0 - 1))
	sctl map load -n "$NS" "$file" --generation "$gen0" >/dev/null
	check_err $? "load at the current generation"
	SW=$(settings "$NS")
	check_eq "$(sw_gen "$SW")" $((gen0 + 1)) "generation after a load"

	# Tag entries are loaded: a TTL source would have to ignore them.
	rejects_cli "sluicectl: switch set: Invalid argument: sch_sluice: map entry: a TTL tag source takes no tag entries" \
		switch set -n "$NS" tag-source ip-ttl
	sctl map flush -n "$NS" && sctl switch set -n "$NS" tag-source ip-ttl
	check_err $? "ip-ttl without tag entries"
	SW=$(settings "$NS")
	rejects_cli "sluicectl: map load: Invalid argument: sch_sluice: map entry: a TTL tag source takes no tag entries: \"tag a0 8 16\"" \
		map load -n "$NS" "$file"
	# The label stack's depth: none either, and tags 0 to 32.
	sctl switch set -n "$NS" tag-source mpls-depth
	check_err $? "mpls-depth without tag entries"
	SW=$(settings "$NS")
	rejects_cli "sluicectl: map load: Invalid argument: sch_sluice: map entry: the label stack depth takes no tag entries: \"tag a0 8 16\"" \
		map load -n "$NS" "$file"
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 32 1
	in a0 33 1
	end
	EOF
	rejects_cli "sluicectl: map load: Invalid argument: sch_sluice: map entry: tag beyond the tag source's range: \"in a0 33 1\"" \
		map load -n "$NS" "$file"
	sctl switch set -n "$NS" tag-source ip-ttl
	check_err $? "back to ip-ttl"
	SW=$(settings "$NS")

	# What sluicectl refuses itself: a device that is not there, a key
	# given twice, a priority beyond 7 (the kernel's checks of the last
	# two are genl_rejects_kernel's).
	mapfile_new file <<-EOF
	sluice-maps 1
	in nosuchdev 8 1
	end
	EOF
	rejects_cli "sluicectl: map load: device \"nosuchdev\": No such device in netns $NS" \
		map load -n "$NS" "$file"
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 8 1
	in a0 8 2
	end
	EOF
	rejects_cli "sluicectl: $file:3: in a0 8: given twice (first on line 2)" \
		map load -n "$NS" "$file"
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 8 9
	end
	EOF
	rejects_cli "sluicectl: $file:2: in a0 8 VALUE: VALUE must be PRIO 0 to 7" \
		map load -n "$NS" "$file"
}

# The ifindex of a device, from "N: NAME..." (no jq).
ifindex()
{
	local out

	out=$(ip -n "$NS" -o link show dev "$1") && echo "${out%%:*}"
}

# rejects "EXPECTED" GENLRAW-ARGS...: the request is refused with exactly
# that errno and message ("ERRNO: MESSAGE"), and the switch is as it was
# (generation included): as $SW and $MAPS, its settings and maps that the
# test read after its last change (a refusal changes nothing, so one read
# serves a series of them).
rejects()
{
	local expected=$1 out

	shift
	out=$("$GENLRAW" -N "$NS" -q "$@")
	check_eq "$out" "error: $expected" "genlraw $*"
	check_eq "$(settings "$NS")" "$SW" "switch after genlraw $*"
	check_eq "$(sctl map show -n "$NS")" "$MAPS" "maps after genlraw $*"
}

genl_rejects_kernel()
{
	local a0 gen0 e SW MAPS

	setup
	check_err $? "setup"
	a0=$(ifindex a0)
	sctl switch set -n "$NS" tag-source dscp
	check_err $? "dscp"
	check_eq "$("$GENLRAW" -N "$NS" -q map-load \
		entry a0 in 8 1 entry a0 tag 8 16)" ok "a good load"
	SW=$(settings "$NS")
	MAPS=$(sctl map show -n "$NS")
	gen0=$(sw_gen "$SW")

	# SWITCH_SET.  "[attribute N]": the kernel points at the request's
	# attribute N (counted from 0).
	rejects "EINVAL: sch_sluice: tag source missing" switch-set
	rejects "EINVAL: sch_sluice: unknown tag source [attribute 0]" \
		switch-set source 7
	rejects "EINVAL: invalid attribute length [attribute 0]" \
		switch-set u32 $A_TAG_SOURCE 1
	rejects "EINVAL: Unknown attribute type [attribute 1]" \
		switch-set source dscp u8 99 1
	rejects "EINVAL: Unsupported attribute [attribute 1]" \
		switch-set source dscp u32 $A_IFINDEX "$a0"
	rejects "EINVAL: invalid attribute length [attribute 0]" \
		switch-set nest $A_TAG_SOURCE u8 1 1 end
	rejects "EINVAL: NLA_F_NESTED not expected [attribute 0]" \
		switch-set hex $((0x8000 | A_TAG_SOURCE)) 03
	rejects "EINVAL: sch_sluice: map entry: a TTL tag source takes no tag entries [attribute 0]" \
		switch-set source ip-ttl
	rejects "EINVAL: sch_sluice: map entry: the label stack depth takes no tag entries [attribute 0]" \
		switch-set source mpls-depth

	# MAP_LOAD: one bad entry after a good one, nothing applied; the
	# kernel names the bad one.
	e=(entry a0 in 0 0)
	rejects "EINVAL: sch_sluice: map entry: priority above 7 [attribute 1]" \
		map-load "${e[@]}" entry a0 in 1 8
	rejects "EINVAL: sch_sluice: map entry: class above 31 [attribute 1]" \
		map-load "${e[@]}" entry a0 eg 1 32
	rejects "EINVAL: sch_sluice: map entry: unknown map [attribute 1]" \
		map-load "${e[@]}" entry a0 3 1 1
	rejects "EINVAL: sch_sluice: map entry: unknown flag [attribute 1]" \
		map-load "${e[@]}" entry a0 eg 1 1 flags 2
	rejects "EINVAL: sch_sluice: map entry: only eg entries take flags [attribute 1]" \
		map-load "${e[@]}" entry a0 in 1 1 out
	rejects "EINVAL: sch_sluice: map entry: out-port entries name one port [attribute 1]" \
		map-load "${e[@]}" entry '*' eg 1 1 out
	rejects "EINVAL: sch_sluice: map entry: tag beyond the tag source's range [attribute 1]" \
		map-load "${e[@]}" entry a0 in 64 1
	rejects "EINVAL: sch_sluice: map entry: new tag beyond the tag source's range [attribute 1]" \
		map-load "${e[@]}" entry a0 tag 1 64
	rejects "EINVAL: sch_sluice: map entry: no such device in the namespace [attribute 1]" \
		map-load "${e[@]}" entry 99999 in 1 1
	rejects "EINVAL: sch_sluice: map entry: duplicate of an earlier entry [attribute 2]" \
		map-load "${e[@]}" entry a0 eg 0 1 entry a0 in 0 5
	rejects "ERANGE: binary attribute size out of range [attribute 1]" \
		map-load "${e[@]}" hex $A_MAP_ENTRY 01000000000000
	rejects "ESTALE: sch_sluice: the maps changed since that generation [attribute 0]" \
		map-load gen $((gen0 + 1)) "${e[@]}"
	rejects "ESTALE: sch_sluice: the maps changed since that generation [attribute 0]" \
		map-load gen $((gen0 - 1)) "${e[@]}"
	rejects "EINVAL: Unsupported attribute [attribute 1]" \
		map-load "${e[@]}" source dscp
	rejects "EINVAL: NLA_F_NESTED not expected [attribute 0]" \
		map-load nest $A_MAP_ENTRY u32 1 1 u32 2 2 end

	# An eg entry is keyed by port and flag: eg and eg-out of one port
	# and tag are two entries; GENERATION names the current one.
	check_eq "$("$GENLRAW" -N "$NS" -q map-load gen "$gen0" \
		entry a0 eg 1 1 entry a0 eg 1 2 out)" ok \
		"eg and eg-out of one port and tag"
	SW=$(settings "$NS")
	MAPS=$(sctl map show -n "$NS")
	check_eq "$(sw_gen "$SW")" $((gen0 + 1)) "generation after the good load"

	# Reads: a dump of a port that is not one, a do of a dump command.
	rejects "ENODEV: sch_sluice: no port has this ifindex" \
		stats-get ifindex "$(ifindex b0)"
	rejects "EINVAL: sch_sluice: ifindex out of range" stats-get ifindex 0
	rejects "EOPNOTSUPP: Operation not supported" -D map-get
}

# ------------------------------------------------------------- events

# events_wait FILE: wait until the monitor writing FILE is subscribed.
events_wait()
{
	local i

	for ((i = 0; i < 100; i++)); do
		grep -q monitoring "$1" && return 0
		sleep 0.1
	done
	return 1
}

# events_of FILE...: each monitor's events on a line, one [event, what]
# per event (the {"monitoring":true} line left out); one jq for all.
events_of()
{
	jq -nr '(reduce inputs as $e ({};
		if $e | has("monitoring") then . else
			.[input_filename] += [[$e.event,
				$e.tag_source // $e.generation // $e.ifname]]
		end)) as $ev
		| $ARGS.positional[] | $ev[.] // [] | map(tojson) | join(" ")' \
		"$@" --args "$@"
}

# Each change of the switch is one event, in order, to every monitor of
# the namespace (a process without any capability too), and to no other
# namespace's.
genl_events()
{
	local out out2 file pid pid2 gen0 expected ev

	setup
	check_err $? "setup"
	netns_add OTHER
	check_err $? "other namespace"
	mapfile_new file <<-EOF
	sluice-maps 1
	in a0 8 1
	eg * 8 2
	end
	EOF
	gen0=$(gen "$NS")
	out=$(mktemp /tmp/sluice-events.XXXXXX)
	out2=$(mktemp /tmp/sluice-events.XXXXXX)
	defer rm -f "$out" "$out2"
	"$SLUICECTL" monitor -n "$NS" -j --count 6 --timeout 60 >"$out" &
	pid=$!
	defer kill $pid
	as_nobody "$SLUICECTL" monitor -j --count 6 --timeout 60 >"$out2" &
	pid2=$!
	defer kill $pid2
	events_wait "$out" && events_wait "$out2"
	check_err $? "a monitor never said it was monitoring"

	# Another namespace's switch is not this one's.
	sctl switch set -n "$OTHER" tag-source pcp
	check_err $? "other switch"

	sctl switch set -n "$NS" tag-source dscp &&
		sctl map load -n "$NS" "$file" >/dev/null &&
		tc -n "$NS" qdisc add dev b0 root handle 1: sluice &&
		tc -n "$NS" qdisc del dev b0 root &&
		sctl map flush -n "$NS" &&
		sctl switch set -n "$NS" tag-source none
	check_err $? "events' causes"
	wait $pid
	check_err $? "monitor exit status"
	wait $pid2
	check_err $? "exit status of the monitor without capabilities"
	expected="[\"switch\",\"dscp\"] [\"maps\",$((gen0 + 1))]"
	expected+=" [\"port-add\",\"b0\"] [\"port-del\",\"b0\"]"
	expected+=" [\"maps\",$((gen0 + 2))] [\"switch\",\"none\"]"
	mapfile -t ev < <(events_of "$out" "$out2")
	log_info "events: ${ev[0]}"
	check_eq "${ev[0]}" "$expected" "events"
	check_eq "${ev[1]}" "$expected" "events seen without capabilities"
}

# ---------------------------------------------------------------- dumps

NDEV=30

# The large table: every TTL of every one of NDEV ports in the in map,
# the eg map keyed by the in port and the eg map keyed by the out port,
# plus every TTL for every port: (3 * NDEV + 1) * 256 entries.
large_table()
{
	awk -v n=$NDEV 'BEGIN {
		print "sluice-maps 1"
		for (t = 0; t < 256; t++)
			printf "in * %d %d\n", t, t % 8
		for (d = 0; d < n; d++)
			for (t = 0; t < 256; t++) {
				printf "in d%d %d %d\n", d, t, (t + d) % 8
				printf "eg d%d %d %d\n", d, t, (t * 7 + d) % 16
				printf "eg-out d%d %d %d\n", d, t, (t + 3 * d) % 16
			}
		print "end"
	}'
}

# A map file without comments and blank lines, in a fixed order.
normalized()
{
	grep -v -e '^#' -e '^$' "$1" | LC_ALL=C sort
}

# dump_started PID FILE: wait until "genlraw -W FILE" (PID) has read the
# first piece of its dump and created FILE; fails if it ends first.
dump_started()
{
	local end=$((SECONDS + 30))

	while [[ ! -e $2 ]]; do
		kill -0 "$1" 2>/dev/null && ((SECONDS < end)) || return 1
		sleep 0.05
	done
}

genl_dump_large()
{
	local file shown again d t0 gen0 pid js sync

	setup
	check_err $? "setup"
	for ((d = 0; d < NDEV; d++)); do
		echo "link add d$d type dummy"
	done | ip -n "$NS" -b -
	check_err $? "dummy devices"
	sctl switch set -n "$NS" tag-source ip-ttl
	check_err $? "ip-ttl"
	mapfile_new file </dev/null && large_table >"$file"
	mapfile_new shown </dev/null
	mapfile_new again </dev/null

	# Times from bash's clock (EPOCHREALTIME, in microseconds): no date.
	t0=${EPOCHREALTIME//[!0-9]/}
	sctl map load -n "$NS" "$file" >/dev/null
	check_err $? "load of $((3 * NDEV * 256 + 256)) entries"
	log_info "load of $((3 * NDEV * 256 + 256)) entries: $(((${EPOCHREALTIME//[!0-9]/} - t0) / 1000)) ms"
	# One switch show for the sizes (its "map_entries" object, what jq -c
	# .map_entries prints of sluicectl's plain JSON) and the generation.
	js=$(sctl switch show -n "$NS" -j)
	[[ $js =~ \"map_entries\":(\{[^{}]*\}) ]]
	check_eq "${BASH_REMATCH[1]}" \
		"{\"in\":$(((NDEV + 1) * 256)),\"eg\":$((2 * NDEV * 256)),\"tag\":0,\"ports\":$((NDEV + 1))}" \
		"map entries"
	gen0=$(sw_gen "$js")

	t0=${EPOCHREALTIME//[!0-9]/}
	sctl map show -n "$NS" >"$shown"
	check_err $? "map show"
	log_info "map show: $(((${EPOCHREALTIME//[!0-9]/} - t0) / 1000)) ms"
	check_eq "$(normalized "$shown" | md5sum)" "$(normalized "$file" | md5sum)" \
		"map show against the file loaded"
	check_eq "$(grep -c '^in d7 ' "$shown")" 256 "in entries of d7"

	# What map show prints loads back to the same table.
	sctl map load -n "$NS" "$shown" >/dev/null
	check_err $? "load of what map show printed"
	check_eq "$(gen "$NS")" $((gen0 + 1)) "generation"
	sctl map show -n "$NS" >"$again"
	check_eq "$(md5sum <"$again")" "$(md5sum <"$shown")" "second map show"
	check_eq "$(sctl map show -n "$NS" -j | jq '.entries | length')" \
		$((3 * NDEV * 256 + 256)) "entries in map show -j"

	# A dump read in small pieces is consistent on its own and says so
	# when a reload happened while it ran: genlraw -W stops after its
	# first piece until the reload is done (no guess of how long a dump
	# lasts: sleeps would cost seconds).
	check_eq "$("$GENLRAW" -N "$NS" -q -b 4096 map-get)" ok \
		"a dump in small pieces"
	sync=$MAPDIR/sync
	"$GENLRAW" -N "$NS" -q -b 4096 -W "$sync" map-get >"$again" &
	pid=$!
	dump_started $pid "$sync"
	check_err $? "the dump never stopped after its first piece"
	sctl map load -n "$NS" "$shown" >/dev/null
	check_err $? "load during a dump"
	echo go >"$sync"
	wait $pid
	check_eq "$(<"$again")" "ok intr" "a dump that spanned a reload"

	# The same for the stats of the ports, when one more comes.
	for ((d = 0; d < NDEV; d++)); do
		echo "qdisc add dev d$d root handle 1: sluice"
	done | tc -n "$NS" -b -
	check_err $? "qdiscs on the dummy devices"
	check_eq "$(sctl stats -n "$NS" -j | jq length)" $((NDEV + 1)) \
		"ports in stats -j"
	check_eq "$("$GENLRAW" -N "$NS" -q -b 4096 stats-get)" ok \
		"a stats dump in small pieces"
	sync=$MAPDIR/sync2
	"$GENLRAW" -N "$NS" -q -b 4096 -W "$sync" stats-get >"$again" &
	pid=$!
	dump_started $pid "$sync"
	check_err $? "the stats dump never stopped after its first piece"
	tc -n "$NS" qdisc add dev b0 root handle 1: sluice
	check_err $? "a port during a dump"
	echo go >"$sync"
	wait $pid
	check_eq "$(<"$again")" "ok intr" "a stats dump that spanned a new port"
	check_eq "$(sctl stats -n "$NS" -j | jq length)" $((NDEV + 2)) \
		"ports in stats -j afterwards"
}

# Per-port stats: one object per port with its settings and one row per
# class (and priority), the numbers tc reads from the qdisc.
genl_stats()
{
	local js d specs res one

	setup
	check_err $? "setup"
	veth_add "$NS" a1 b1 && veth_add "$NS" a2 b2 &&
		tc -n "$NS" qdisc add dev a1 root handle 1: sluice classes 4 &&
		defer tc -n "$NS" qdisc del dev a1 root &&
		tc -n "$NS" qdisc add dev a2 root handle 1: sluice classes 16 \
			rate 100mbit pfc 3,5 xoff 6000 &&
		defer tc -n "$NS" qdisc del dev a2 root
	check_err $? "ports"
	# Each port's frames in one sendframes (send_batch): DSCP 0, 8, 24,
	# 40 and 56, 1 to 8 frames.
	for d in 0 8 24 40 56; do
		specs+="-4 $d -c $((d / 8 + 1))"$'\n'
	done
	for d in a0 a1 a2; do
		send_batch "$NS" $d <<<"$specs" >/dev/null
		check_err $? "send on $d"
	done

	js=$(sctl stats -n "$NS" -j)
	check_err $? "stats -j"
	one=$(sctl stats -n "$NS" -j a1)
	check_err $? "stats -j a1"
	# Every value the checks need, from one jq, a line each.
	mapfile -t res < <(jq -nrc --argjson js "$js" --argjson one "$one" '
		($js | [.[] | .ifname]),
		(("a0", "a1", "a2") as $d | $js[] | select(.ifname == $d)
		 | [.prios[] | select(any(.flags[]; . == "class")) | .packets
		 | tostring] | join(" ")),
		($js | [.[] | [.classes, .rate, .pfc, (.prios | length)]]),
		($js | .[1].prios | map(.flags)),
		($js | .[2].prios | map(.flags) | .[2:6]),
		($one | [.[] | .ifname]),
		($one | .[0]),
		($js | .[1])')
	check_eq "${res[0]}" '["a0","a1","a2"]' "ports, by ifindex"
	for d in 0 1 2; do
		check_eq "${res[d + 1]}" "$(class_stats "$NS" a$d packets)" \
			"a$d: packets per class"
	done
	check_eq "${res[4]}" '[[8,10000000,0,8],[4,0,0,8],[16,100000000,40,16]]' \
		"classes, rate, pfc and rows of each port"
	# A port of 4 classes still has 8 ingress priorities.
	check_eq "${res[5]}" \
		'[["class"],["class"],["class"],["class"],[],[],[],[]]' \
		"a1's rows"
	check_eq "${res[6]}" \
		'[["class"],["class","lossless"],["class"],["class","lossless"]]' \
		"a2's rows 2 to 5"
	check_eq "${res[7]}" '["a1"]' "stats of one port"
	check_eq "${res[8]}" "${res[9]}" "stats of one port against all"
}

# --------------------------------------------------------------- fuzz

# Random requests of every command, attributes of random types, lengths
# and nesting, from a process that may (root) and one that may not write,
# while frames cross the port.  The seed is random: the log says which.
genl_fuzz()
{
	local marker splats end t0 summary sender seed=$((RANDOM * 32768 + RANDOM))

	setup
	check_err $? "setup"
	sctl switch set -n "$NS" tag-source dscp
	check_err $? "dscp"
	marker="sluice-genl-fuzz $$ $RANDOM"
	echo "<6>$marker start" >/dev/kmsg

	# Frames keep crossing the port while the tables change under them.
	ip netns exec "$NS" "$SENDFRAMES" -i a0 -4 8 -c 0 -r 300 >/dev/null &
	sender=$!
	defer kill $sender
	t0=$SECONDS
	summary=$(ip netns exec "$NS" "$NLFUZZ" -n 200000 -s "$seed")
	check_err $? "nlfuzz as root"
	log_info "nlfuzz as root, $((SECONDS - t0)) s: $summary"
	t0=$SECONDS
	summary=$(as_userns "$NLFUZZ" -n 20000 -s $((seed + 1)))
	check_err $? "nlfuzz in a user namespace"
	log_info "nlfuzz in a user namespace, $((SECONDS - t0)) s: $summary"
	kill $sender
	wait $sender
	(($(class_stats "$NS" a0 packets | tr ' ' '+') > 0))
	check_err $? "no frame crossed a0 during the fuzz"

	echo "<6>$marker end" >/dev/kmsg
	splats=$(dmesg | awk -v m="$marker start" 'found; index($0, m) { found = 1 }' |
		grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t:|UBSAN:|KASAN:|Call Trace:|list_(add|del) corruption')
	check_eq "$splats" "" "dmesg after the fuzz"

	# The module still works, and still unloads.
	check_eq "$(sctl switch show -n "$NS" -j | jq -r .ports)" 1 "ports after the fuzz"
	tc -n "$NS" qdisc del dev a0 root
	check_err $? "qdisc del"
	ip netns del "$NS"
	# Namespaces are torn down asynchronously: wait for their qdiscs.
	end=$((SECONDS + 20))
	while ((SECONDS < end)); do
		[[ $(cat /sys/module/sch_sluice/refcnt) == 0 ]] && break
		sleep 0.1
	done
	rmmod sch_sluice
	check_err $? "rmmod after the fuzz"
	insmod "$SLUICE_KO"
	check_err $? "insmod again"
}

tests_run
