#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared code of the sluice selftests, in the style of the kernel's
# tools/testing/selftests/net/forwarding/lib.sh:
#
#   ALL_TESTS="a b c"        test functions of the script, in order
#   SUBTESTS="b" ./t.sh      run only some of them
#   check_err $? "msg"       fail the running test if $? != 0
#   check_fail $? "msg"      fail the running test if $? == 0
#   check_eq ACT EXP "msg"   fail the running test if ACT != EXP
#   defer CMD...             run CMD when the running test ends, in
#                            reverse order of registration (teardown
#                            registered right after each setup step)
#   tests_run                run them; prints a KTAP document
#
# Each test function runs in a subshell, so its state and its deferred
# teardown cannot leak into the next test.  Exit status: 0 all passed,
# 1 something failed, 4 (kselftest's skip) everything skipped.

SELFTESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$SELFTESTS_DIR")
: "${SLUICE_KO:=$REPO/sch_sluice.ko}"
: "${TC_LIB_DIR:=$REPO/userspace}"
export TC_LIB_DIR
SENDFRAMES=$SELFTESTS_DIR/tools/sendframes
ksft_skip=4

RET=0
RETMSG=
SKIP_REASON=
DEFERRED=()

# ---------------------------------------------------------------- KTAP

log_info()
{
	echo "# $*"
}

check_err()
{
	local err=$1 msg=$2

	if ((RET == 0 && err != 0)); then
		RET=$err
		RETMSG=$msg
	fi
}

check_fail()
{
	local err=$1 msg=$2

	if ((RET == 0 && err == 0)); then
		RET=1
		RETMSG=$msg
	fi
}

check_eq()
{
	local actual=$1 expected=$2 msg=$3

	if ((RET == 0)) && [[ "$actual" != "$expected" ]]; then
		RET=1
		RETMSG="$msg: expected '$expected', got '$actual'"
	fi
}

# Mark the running test skipped (it still runs its teardown).
skip()
{
	SKIP_REASON=$1
}

defer()
{
	DEFERRED+=("$*")
}

run_deferred()
{
	local i

	for ((i = ${#DEFERRED[@]} - 1; i >= 0; i--))
	do
		eval "${DEFERRED[i]}" >/dev/null 2>&1
	done
	DEFERRED=()
}

# Skip the whole script, before tests_run, e.g. for a missing tool.
skip_all()
{
	echo "TAP version 13"
	echo "1..0 # SKIP $1"
	exit $ksft_skip
}

require_cmd()
{
	local cmd

	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || skip_all "$cmd is not installed"
	done
}

# Runs one test function in a subshell and prints its KTAP result.
run_one()
{
	local num=$1 name=$2

	(
		trap run_deferred EXIT
		RET=0
		"$name"
		run_deferred
		if [[ -n "$SKIP_REASON" ]]; then
			echo "ok $num $name # SKIP $SKIP_REASON"
			exit $ksft_skip
		elif ((RET == 0)); then
			echo "ok $num $name"
		else
			echo "# $name: $RETMSG"
			echo "not ok $num $name"
			exit 1
		fi
	)
}

tests_run()
{
	local tests=(${SUBTESTS:-$ALL_TESTS})
	local t num=0 rc status=0 passed=0

	echo "TAP version 13"
	echo "1..${#tests[@]}"
	for t in "${tests[@]}"; do
		num=$((num + 1))
		if ! declare -F "$t" >/dev/null; then
			echo "not ok $num $t # no such test"
			status=1
			continue
		fi
		run_one "$num" "$t"
		rc=$?
		if ((rc == 0)); then
			passed=$((passed + 1))
		elif ((rc != ksft_skip)); then
			status=1
		fi
	done
	if ((status == 0 && passed == 0 && num > 0)); then
		status=$ksft_skip
	fi
	exit $status
}

# ------------------------------------------------------------ sluice

# Load the module under test once; tests leave it loaded for the next.
sluice_load()
{
	if ! grep -q '^sch_sluice ' /proc/modules; then
		insmod "$SLUICE_KO" || skip_all "cannot insmod $SLUICE_KO"
	fi
}

# The sluicectl under test; skips the script if it is not built.
sluicectl_require()
{
	SLUICECTL=$REPO/userspace/sluicectl/sluicectl
	[[ -x $SLUICECTL ]] || skip_all "$SLUICECTL is not built"
}

# Fabrics (sluicectl fabric): sluicectl and the kernel's veth and MPLS.
fabric_require()
{
	local m

	sluicectl_require
	for m in veth mpls_router mpls_iptunnel; do
		modprobe "$m" 2>/dev/null || skip_all "cannot load $m"
	done
}

# pfc_payload ENABLE T0 .. T7: a PFC MAC control payload in hex, for
# sendframes -e 0x8808 -x.
pfc_payload()
{
	local hex t

	hex=$(printf '0101%04x' "$1")
	shift
	for t in "$@"; do
		hex+=$(printf '%04x' "$t")
	done
	echo "$hex"
}

# netns_add VAR: create a uniquely named namespace, store its name in VAR.
netns_add()
{
	local -n _ns=$1

	_ns=sluice-$1-$$-$RANDOM
	ip netns add "$_ns" || return 1
	defer ip netns del "$_ns"
	ip -n "$_ns" link set lo up
	# No IPv6 autoconfiguration: its solicitations would be counted.
	ip netns exec "$_ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
}

# h1_sw_h2: H1 -- h1/p1 -- SW -- p2/h2 -- H2 (namespaces $H1 $SW $H2),
# links up, 198.18.1.0/24 and 198.18.2.0/24 forwarded by SW, each host a
# permanent neighbour of SW (no ARP to count or to wait for).  No qdisc.
h1_sw_h2()
{
	local mac1 mac2

	netns_add H1 && netns_add SW && netns_add H2 || return
	# An ip batch a namespace; MACs from the text ("link/ether MAC"), by
	# bash: under TCG each process costs ~0.1 s, a jq ~0.3 s.
	ip -n "$H1" -b - <<-EOF &&
		link add h1 type veth peer name p1 netns $SW
		link set h1 up
		addr add 198.18.1.1/24 dev h1
	EOF
	ip -n "$H2" -b - <<-EOF &&
		link add h2 type veth peer name p2 netns $SW
		link set h2 up
		addr add 198.18.2.1/24 dev h2
	EOF
		ip netns exec "$SW" sysctl -qw net.ipv4.ip_forward=1 &&
		[[ $(ip -n "$H1" link show h1) =~ link/ether\ ([0-9a-f:]+) ]] &&
		mac1=${BASH_REMATCH[1]} &&
		[[ $(ip -n "$H2" link show h2) =~ link/ether\ ([0-9a-f:]+) ]] &&
		mac2=${BASH_REMATCH[1]} &&
		ip -n "$SW" -b - <<-EOF
			link set p1 up
			link set p2 up
			addr add 198.18.1.254/24 dev p1
			addr add 198.18.2.254/24 dev p2
			neigh add 198.18.1.1 lladdr $mac1 dev p1
			neigh add 198.18.2.1 lladdr $mac2 dev p2
		EOF
}

# link_wait_up NS DEV: wait until DEV transmits.  Until linkwatch sees the
# carrier, a device's qdisc is noop and drops every frame sent on it.
link_wait_up()
{
	local i

	for ((i = 0; i < 50; i++)); do
		tc -n "$1" qdisc show dev "$2" | grep -q '^qdisc noop' || return 0
		sleep 0.1
	done
	log_info "$2 in $1 is still not transmitting"
	return 1
}

# veth_add NS A B: a veth pair A-B, both in NS, up and transmitting.
veth_add()
{
	local ns=$1 a=$2 b=$3

	ip -n "$ns" link add "$a" type veth peer name "$b" &&
	ip -n "$ns" link set "$a" up &&
	ip -n "$ns" link set "$b" up &&
	link_wait_up "$ns" "$a" && link_wait_up "$ns" "$b"
}

# send NS DEV ARGS...: sendframes inside NS; prints "sent=N refused=M".
send()
{
	local ns=$1 dev=$2

	shift 2
	ip netns exec "$ns" "$SENDFRAMES" -i "$dev" "$@"
}

# send_batch NS DEV: sendframes inside NS for every spec line read from
# stdin (sendframes -B: the options of send but -i, e.g. "-4 46 -c 3"), in
# one process; prints a "sent=N refused=M" line per spec.  Fails if a spec
# is bad or a frame could not be sent.
send_batch()
{
	ip netns exec "$1" "$SENDFRAMES" -i "$2" -B
}

# class_json NS DEV: the classes of DEV as a JSON array, one object per
# class: {class, handle, options: {limit}, stats: {bytes, packets, drops,
# qlen}, xstats: {limit_drops, peak_backlog, ...every xstats pair}}.  tc
# 6.1 has no JSON output for classes, so its text is converted by one awk
# (no jq: its start costs a quarter of a second under TCG).  Sizes the
# sluice plugin prints are exact; a parent's limit, rounded by tc, is
# scaled back.
class_json()
{
	tc -n "$1" -s class show dev "$2" | awk '
	function bytes(s,   n) {
		n = s + 0
		if (s ~ /Gb$/) return n * 1073741824
		if (s ~ /Mb$/) return n * 1048576
		if (s ~ /Kb$/) return n * 1024
		return n
	}
	function flush(   i) {
		if (cls == "") return
		printf "%s{\"class\":\"%s\",\"handle\":\"%s\"", sep, cls, handle
		printf ",\"options\":{%s}", opts
		printf ",\"stats\":{\"bytes\":%d,\"packets\":%d,\"drops\":%d,\"qlen\":%d}", st["bytes"], st["packets"], st["drops"], st["qlen"]
		printf ",\"xstats\":{"
		for (i = 1; i <= nx; i++)
			printf "%s\"%s\":%s", (i > 1 ? "," : ""), xk[i], xs[xk[i]]
		printf "}}"
		sep = ","
		cls = ""
	}
	BEGIN { printf "[" }
	$1 == "class" {
		flush()
		cls = $2; handle = $3; opts = ""; nx = 0
		split("", st); split("", xs); split("", xk)
		for (i = 4; i < NF; i++)
			if ($i == "limit")
				opts = "\"limit\":" bytes($(i + 1))
	}
	$1 == "Sent" { st["bytes"] = $2; st["packets"] = $4; st["drops"] = $7 + 0 }
	$1 == "backlog" { st["qlen"] = $3 + 0 }
	$1 == "limit_drops" {
		for (i = 1; i < NF; i += 2) {
			if (!($i in xs))
				xk[++nx] = $i
			xs[$i] = bytes($(i + 1))
		}
	}
	END { flush(); print "]" }'
}

# class_stat NS DEV CLASSID KEY: one statistic of one sluice class ("null"
# for a key the class does not have, nothing for a class DEV does not
# have), from one tc read by class_read.
class_stat()
{
	class_read "$1" "$2" || return
	[[ " ${CS_CLASSES[*]} " == *" $3 "* ]] && echo "${CS[$3 $4]-null}"
	return 0
}

# class_stats NS DEV KEY: KEY of every sluice class on one line, in class
# order (the order of the qdisc's walk); other classes of the device, e.g.
# a parent tbf's, are left out.
class_stats()
{
	class_read "$1" "$2" && cs_line "$3"
}

# qdisc_stat NS DEV KEY: one xstats value of DEV's root sluice qdisc
# ("null" if it has none such), from one tc read by qdisc_read.
qdisc_stat()
{
	qdisc_read "$1" "$2" && echo "${QS[$3]-null}"
}

# class_table NS DEV SPEC...: several statistics from one look at DEV's
# classes (one tc, read by class_read), a line per SPEC: for KEY what
# "class_stats NS DEV KEY" prints, for CLASSID/KEY (e.g. 1:7/qlen) what
# "class_stat NS DEV CLASSID KEY" prints, an empty line where they print
# nothing.  Values read at one moment:
#   { read -r pkts; read -r q6; } < <(class_table "$NS" dev packets 1:7/qlen)
class_table()
{
	local spec id

	class_read "$1" "$2" || return
	shift 2
	for spec; do
		if [[ $spec == */* ]]; then
			id=${spec%%/*}
			if [[ " ${CS_CLASSES[*]} " == *" $id "* ]]; then
				echo "${CS[$id ${spec#*/}]-null}"
			else
				echo
			fi
		else
			cs_line "$spec"
		fi
	done
}

# links_wait_up NS DEV...: link_wait_up for several devices of NS, with one
# tc a poll for all of them (a process start costs ~70 ms under TCG).
links_wait_up()
{
	local ns=$1 kind dev waiting end=$((SECONDS + 10))

	shift
	# A deadline, not a count of tries: a try's length depends on the load.
	while ((SECONDS <= end)); do
		waiting=
		# "qdisc KIND HANDLE dev DEV ...", a line per qdisc.
		while read -r _ kind _ _ dev _; do
			[[ $kind == noop && " $* " == *" $dev "* ]] &&
				waiting+=" $dev"
		done < <(tc -n "$ns" qdisc show)
		[[ -z $waiting ]] && return 0
		nap 0.1
	done
	log_info "$waiting in $ns still not transmitting"
	return 1
}

# netns_veth VAR A B: netns_add VAR, then veth_add "${!VAR}" A B, with one
# ip batch for the pair and one tc a poll for both ends.
netns_veth()
{
	netns_add "$1" || return 1
	ip -n "${!1}" -b - <<-EOF && links_wait_up "${!1}" "$2" "$3"
		link add $2 type veth peer name $3
		link set $2 up
		link set $3 up
	EOF
}

# class_read NS DEV: every statistic of every sluice class of DEV into the
# array CS, keyed "CLASSID KEY" (e.g. "${CS[1:4 qlen]}"), the same values
# as class_stat's (bytes packets drops qlen, backlog in bytes, then each
# xstats pair; the
# plugin prints sizes exact, "5800b"), from one tc read by bash: one
# process for all the checks on one state, all of them from the same
# instant.  CS_CLASSES lists the sluice classes in the qdisc's walk order.
# Fails if tc does.
declare -A CS
CS_CLASSES=()
class_read()
{
	local -a w
	local cls='' i rc=1

	CS=()
	CS_CLASSES=()
	while read -ra w; do
		case ${w[0]} in
		class)
			cls=
			[[ ${w[1]} == sluice ]] && cls=${w[2]} &&
				CS_CLASSES+=("$cls") ;;
		Sent)
			[[ -n $cls ]] || continue
			CS[$cls bytes]=${w[1]}
			CS[$cls packets]=${w[3]}
			CS[$cls drops]=${w[6]%,} ;;
		backlog)
			[[ -n $cls ]] && CS[$cls qlen]=${w[2]%p} &&
				CS[$cls backlog]=${w[1]%b} ;;
		limit_drops)
			[[ -n $cls ]] || continue
			for ((i = 0; i + 1 < ${#w[@]}; i += 2)); do
				CS[$cls ${w[i]}]=${w[i + 1]%b}
			done ;;
		rc)
			rc=${w[1]} ;;
		esac
	done < <(tc -n "$1" -s class show dev "$2"; echo "rc $?")
	((rc == 0))
}

# tcpdump_start NS DEV FILE ARGS...: tcpdump -U -w FILE ARGS... on DEV in
# NS, in the background, stopped by the running test's teardown; returns
# once it captures.  tcpdump says "listening on" when its filter and FILE
# are set up, just before its capture loop: waiting for that, up to 20 s,
# rather than a fixed time, is both shorter and safe on a slow host.
# --immediate-mode: writing to a file, tcpdump would otherwise get the
# frames from the kernel in blocks, the last ones up to a second after
# they arrived; with it, each frame is in FILE as soon as it arrives.
tcpdump_start()
{
	local ns=$1 dev=$2 file=$3 pid i

	shift 3
	: >"$file.log"	# there before the poll reads it
	ip netns exec "$ns" tcpdump --immediate-mode -i "$dev" -U -w "$file" "$@" \
		2>"$file.log" &
	pid=$!
	defer kill $pid
	defer rm -f "$file.log"
	for ((i = 0; i < 200; i++)); do
		[[ $(<"$file.log") == *"listening on"* ]] && return 0
		kill -0 $pid 2>/dev/null || break
		nap 0.1
	done
	log_info "tcpdump on $dev in $ns does not capture: $(<"$file.log")"
	return 1
}

# pcap_hex FILE: each frame of the capture FILE as one line of hex
# digits, in arrival order (one tcpdump -xx, joined by one awk).
pcap_hex()
{
	tcpdump -r "$1" -nn -xx 2>/dev/null | awk '
		/^\t0x/ { sub(/^\t0x[0-9a-f]+: */, ""); gsub(/ /, ""); h = h $0; next }
		h != "" { print h; h = "" }
		END { if (h != "") print h }'
}

# cs_line KEY: KEY of every class of the last class_read on one line, in
# walk order, as class_stats prints it from a tc of its own.
cs_line()
{
	local c line=()

	for c in "${CS_CLASSES[@]}"; do
		line+=("${CS[$c $1]-null}")
	done
	echo "${line[*]}"
}

# qdisc_read NS DEV: every xstats value of DEV's root sluice qdisc into
# QS[KEY], as qdisc_stat reads one, from one tc read by bash.  Fails if tc
# does.
declare -A QS
qdisc_read()
{
	local -a w
	local i n=0 rc=1

	QS=()
	while read -ra w; do
		case ${w[0]} in
		qdisc)
			n=$((n + 1)) ;;
		untagged)
			((n == 1)) || continue
			for ((i = 0; i + 1 < ${#w[@]}; i += 2)); do
				QS[${w[i]}]=${w[i + 1]}
			done ;;
		rc)
			rc=${w[1]} ;;
		esac
	done < <(tc -n "$1" -s qdisc show dev "$2"; echo "rc $?")
	((rc == 0))
}

# nap SECONDS: sleep(1) without a process: a read that times out on a pipe
# nobody writes to.  For polling loops, where a sleep's start (~36 ms of
# the emulated CPU under TCG) is most of what a poll costs the guest, and
# takes CPU from what the test measures.
nap()
{
	[[ -n ${NAP_FD:-} ]] || exec {NAP_FD}<> <(:)
	read -rt "$1" -u "$NAP_FD"
	return 0
}
