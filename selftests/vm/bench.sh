#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark "make bench" runs in the VM (the module is loaded): what a
# frame costs its sender through a root prio, ets or sluice qdisc, with no
# qdisc at all (noqueue) as the floor.  Not a test: it prints numbers, and
# fails only if a qdisc cannot be set up or frames went astray.
#
#   +------------------ own network namespace -------------------+
#   | sendframes -AF_PACKET-> d0 [root noqueue|prio|ets|sluice] |
#   +------------------------------------------------------------+
#
# d0 is a dummy device, whose transmit frees the frame: the cost is the
# sending path alone (syscall, skb, qdisc enqueue and dequeue, driver),
# nothing is received.  Each frame is dequeued as soon as it is queued, as
# on an idle link: this is the per-packet overhead, not a standing queue.
#
# Cost: the CPU time (CLOCK_PROCESS_CPUTIME_ID) of sendframes' sending
# loop, divided by the frames it sent; process start and socket setup are
# left out.  It counts user and system time: the kernel splits the two by
# sampling at its ticks, which would make system time alone vary by a
# percent or two from run to run, while their sum is exact.  The user part
# (the loop and the libc call, a few percent) is the same whatever the
# qdisc.
#
# Traffic: a run is FRAMES frames in four flows of FRAMES/4, sent one flow
# after the other, each with its own skb->priority (what prio and ets
# classify by) and DSCP (what sluice classifies by), so that every qdisc
# spreads them over several classes.  Every qdisc gets the same frames,
# but for the two labels the portfc row's carry (FLOW_LABELS below) and
# the probe row's, which are INT probes (FLOW_ARGS below).
#
# In-band telemetry: the int row is the sluice row with an INT port set,
# its frames the same (IPv4, not UDP): what a port that stamps probes
# costs the frames that are none.  The probe row's frames are all probes,
# UDP to that port with room for one record (122 bytes, not 100), each
# stamped on its way: what a stamp costs.
#
# Rounds: each round runs noqueue, prio, ets, sluice, portfc in turn, each on a
# freshly created qdisc; the first round warms up and is not counted.  The
# table shows per qdisc the median over the rounds; ratios are medians of
# the per-round ratios, so drifts slower than a round cancel out:
#   ns/pkt      median CPU time per frame
#   vs prio     ns/pkt over prio's in the same round (range over rounds)
#   added       ns/pkt above noqueue's in the same round: what the qdisc
#               layer and the qdisc itself add to a frame
#   vs prio     added over prio's added
#
# Under selftests/vm/run --bench the guest's clock counts instructions
# (qemu -icount shift=SLUICE_BENCH_ICOUNT; at 0 a nanosecond is one guest
# instruction), so the costs do not move with the host's load.  They weigh
# every instruction alike: a cache miss or an atomic costs what an add does.
#
# Settings (selftests/vm/run passes SLUICE_* on to the guest):
#   SLUICE_BENCH_ROUNDS   counted rounds (default 7)
#   SLUICE_BENCH_FRAMES   frames per run, a multiple of 4 (default 100000)
#
# Run it as root where sch_sluice is loaded and selftests/tools is built:
# make bench, or selftests/vm/run --bench.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SEND=$REPO/selftests/tools/sendframes
export TC_LIB_DIR=${TC_LIB_DIR:-$REPO/userspace}

ROUNDS=${SLUICE_BENCH_ROUNDS:-7}
FRAMES=${SLUICE_BENCH_FRAMES:-100000}
SIZE=100
DEV=d0
TARGET=1.2

# The flows: skb->priority and DSCP.  prio (default priomap) puts
# priorities 0 2 4 6 in bands 1 2 1 0, ets (the priomap below) in bands
# 7 6 5 4, sluice (8 classes, DSCP d in class d >> 3) in classes 0 2 4 5.
FLOW_PRIO=(0 2 4 6)
FLOW_DSCP=(0 18 34 46)
# PortFC reads the label stack instead: the portfc row's frames carry two
# labels each (the next server's, then the next switch's port 100..103),
# which a switch port puts in its type-A classes 0..3, reading the DSCP
# under them only to find HQ frames.  Its rate is far above what the
# sender reaches, so shaping never holds a frame back: its bookkeeping is
# counted, not its waiting.
FLOW_LABELS=(101,100 101,101 101,102 101,103)

# The INT port, and the probe the probe row sends: a struct sluice_int_hdr
# (magic, version 1, 1 record, none used, prio own) then room for one
# record, zeros.
INT_PORT=7771
INT_HDR=534c495401010000ff00000000000000$(printf '%032d' 0)

# The qdiscs, in round order; what follows "tc qdisc add dev d0 root
# handle 1:" (noqueue: none, d0 sends without a qdisc).
QDISCS=(noqueue prio ets sluice portfc int probe)
declare -A QDISC_ARGS=(
	[noqueue]=''
	[prio]='prio'
	[ets]='ets bands 8 strict 8 priomap 7 7 6 6 5 5 4 4 3 3 2 2 1 1 0 0'
	[sluice]='sluice classes 8 tag dscp'
	[portfc]='sluice rate 400gbit portfc switch portfc-n 4 portfc-index 0 portfc-xoff-a 1m portfc-xon-a 512k portfc-xoff-b 1m portfc-xon-b 512k'
	[int]="sluice classes 8 tag dscp int-port $INT_PORT"
	[probe]="sluice classes 8 tag dscp int-port $INT_PORT"
)
# The kind tc shows, where it is not the row's name.
declare -A QDISC_KIND=([portfc]=sluice [int]=sluice [probe]=sluice)
# sendframes options of a row's frames beyond the flow's, and their size.
declare -A FLOW_ARGS=([probe]="-U $INT_PORT -x $INT_HDR")
declare -A FLOW_SIZE=([probe]=122)

die() {
	echo "bench: error: $*" >&2
	exit 1
}

# All of it in a network namespace of its own, gone when the script ends.
# exec keeps the pid, so $$ tells the script it is in there already.
if [[ ${BENCH_NETNS_PID:-} != "$$" ]]; then
	((EUID == 0)) || die "needs root (network namespace, qdiscs)"
	command -v unshare >/dev/null || die "unshare (util-linux) not found"
	BENCH_NETNS_PID=$$ exec unshare --net -- bash "${BASH_SOURCE[0]}" "$@"
fi

[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "SLUICE_BENCH_ROUNDS: '$ROUNDS' is not a count"
if [[ ! $FRAMES =~ ^[1-9][0-9]*$ ]] || ((FRAMES % ${#FLOW_PRIO[@]})); then
	die "SLUICE_BENCH_FRAMES: '$FRAMES' is not a multiple of ${#FLOW_PRIO[@]}"
fi
[[ -x $SEND ]] || die "$SEND not built (make tools)"
for cmd in tc ip jq awk; do
	command -v "$cmd" >/dev/null || die "$cmd not found"
done
grep -q '^sch_sluice ' /proc/modules || die "sch_sluice is not loaded"

TMP=$(mktemp -d /tmp/sluice-bench.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT

# qdisc_set NAME: NAME as the root of DEV, freshly created.
qdisc_set() {
	local name=$1 args kind err

	read -ra args <<<"${QDISC_ARGS[$name]}"
	tc qdisc del dev "$DEV" root 2>/dev/null
	if ((${#args[@]})); then
		err=$(tc qdisc add dev "$DEV" root handle 1: "${args[@]}" 2>&1) ||
			die "cannot set up $name: tc qdisc add dev $DEV root handle 1:" \
				"${args[*]}: ${err%%$'\n'*}"
	fi
	kind=$(tc -j qdisc show dev "$DEV" root | jq -r '.[0].kind')
	[[ $kind == "${QDISC_KIND[$name]:-$name}" ]] ||
		die "$DEV has root qdisc '$kind', not ${QDISC_KIND[$name]:-$name}"
}

tx_packets() {
	ip -j -s link show dev "$DEV" | jq '.[0].stats64.tx.packets'
}

# send_flows NAME FRAMES: the flows one after the other; prints the CPU
# time of their sending loops in ns (see sendframes -t).
send_flows() {
	local name=$1 frames=$2 i out cpu=0 re labels

	re='^sent=[0-9]+ refused=0 cpu_ns=([0-9]+)$'
	for i in "${!FLOW_PRIO[@]}"; do
		labels=()
		[[ $name == portfc ]] && labels=(-L "${FLOW_LABELS[i]}")
		out=$("$SEND" -i "$DEV" -s "${FLOW_SIZE[$name]:-$SIZE}" \
			-c "$((frames / ${#FLOW_PRIO[@]}))" -p "${FLOW_PRIO[i]}" \
			"${labels[@]}" ${FLOW_ARGS[$name]:-} -4 "${FLOW_DSCP[i]}" -t 2>&1)
		if [[ ! $out =~ $re ]]; then
			echo "$out"
			return 1
		fi
		((cpu += BASH_REMATCH[1]))
	done
	echo "$cpu"
}

# run NAME FRAMES: one run on a fresh NAME; prints its CPU time in ns
# once sure every frame went through the qdisc and out of d0.
run() {
	local name=$1 frames=$2 tx0 tx1 res qpkts qdrops

	qdisc_set "$name"
	tx0=$(tx_packets)
	res=$(send_flows "$name" "$frames") || die "$name: sending failed: $res"
	tx1=$(tx_packets)
	((tx1 - tx0 == frames)) ||
		die "$name: $DEV sent $((tx1 - tx0)) frames, not $frames"
	if [[ $name != noqueue ]]; then
		read -r qpkts qdrops < <(tc -s -j qdisc show dev "$DEV" root |
			jq -r '.[0] | "\(.packets) \(.drops)"')
		((qpkts == frames && qdrops == 0)) ||
			die "$name: counted $qpkts frames and $qdrops drops of $frames"
	fi
	int_check "$name" "$frames"
	echo "$res"
}

# int_check NAME FRAMES: the int row stamped nothing, the probe row every
# frame, and neither found a malformed probe.
int_check()
{
	local want stamped malformed

	case $1 in
	int) want=0 ;;
	probe) want=$2 ;;
	*) return 0 ;;
	esac
	read -r stamped malformed < <(tc -s qdisc show dev "$DEV" root |
		sed -n 's/.* int_stamped \([0-9]*\) .* int_malformed \([0-9]*\) .*/\1 \2/p')
	[[ "$stamped $malformed" == "$want 0" ]] ||
		die "$1: $stamped probes stamped and ${malformed:-?} malformed, not $want and 0"
}

# The sluice classes that sent frames, as tc class:packets.
sluice_spread() {
	tc -s class show dev "$DEV" | awk '
		/^class sluice/ { cls = $3 }
		$1 == "Sent" && $4 > 0 { printf " %s:%d", cls, $4 }'
}

# No IPv6 autoconfiguration: its frames would go through the qdiscs too.
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 ||
	die "cannot disable IPv6"
ip link add "$DEV" type dummy || die "cannot create a dummy device"
ip link set "$DEV" up || die "cannot set $DEV up"

ko=${SLUICE_KO:-$REPO/sch_sluice.ko}
echo "# sluice qdisc cost: kernel $(uname -r), $(nproc) CPU(s)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "# $ko sha256 $(sha256sum "$ko" | cut -c1-16)" \
	"$(git -C "$REPO" describe --always --dirty 2>/dev/null)"
if [[ ${SLUICE_BENCH_ICOUNT:-off} != off ]]; then
	echo "# clock: qemu -icount shift=$SLUICE_BENCH_ICOUNT: a guest instruction" \
		"takes $((1 << SLUICE_BENCH_ICOUNT)) ns, whatever the host's load"
else
	echo "# clock: real time (under TCG, the host's load shows up as cost)"
fi
echo "# $FRAMES frames of $SIZE bytes per run, flows (skb->priority/DSCP):" \
	"$(for i in "${!FLOW_PRIO[@]}"; do printf '%s/%s ' "${FLOW_PRIO[i]}" "${FLOW_DSCP[i]}"; done)"
for name in "${QDISCS[@]}"; do
	echo "# $name: ${QDISC_ARGS[$name]:-(no qdisc)}"
done
echo "# cost: CPU time of the sending loop per frame (ns), $ROUNDS rounds + 1 warm-up"
# Every qdisc can be set up, before anything is measured.
for name in "${QDISCS[@]}"; do
	qdisc_set "$name"
done

# Raw results, a line per run: round qdisc cpu_ns.
spread= portfc_spread=
for ((r = 0; r <= ROUNDS; r++)); do
	line="# round $r$( ((r)) || echo ' (warm-up)'):"
	for name in "${QDISCS[@]}"; do
		res=$(run "$name" "$FRAMES") || exit 1
		((r)) && echo "$r $name $res" >>"$TMP/results"
		line+=" $name $(((res + FRAMES / 2) / FRAMES))"
		[[ $name == sluice && $r == 0 ]] && spread=$(sluice_spread)
		[[ $name == portfc && $r == 0 ]] && portfc_spread=$(sluice_spread)
	done
	echo "$line"
done
[[ -n $spread ]] && echo "# sluice classes that sent (class:frames, warm-up round):$spread"
[[ -n $portfc_spread ]] &&
	echo "# portfc classes that sent (class:frames, warm-up round):$portfc_spread"

awk -v frames="$FRAMES" -v target="$TARGET" -v order="${QDISCS[*]}" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		cpu[$1, $2] = $3 / frames
		if ($1 > rounds)
			rounds = $1
	}
	END {
		nq = split(order, q, " ")
		printf "%-8s %6s %8s %8s %15s %7s %8s\n", "qdisc", "rounds",
		       "ns/pkt", "vs prio", "(range)", "added", "vs prio"
		for (i = 1; i <= nq; i++) {
			lo = 1e9; hi = 0; n = 0
			for (r = 1; r <= rounds; r++) {
				c[r] = cpu[r, q[i]]
				x[r] = c[r] / cpu[r, "prio"]
				lo = x[r] < lo ? x[r] : lo
				hi = x[r] > hi ? x[r] : hi
				d[r] = c[r] - cpu[r, "noqueue"]
				# Real time can put prio at or below noqueue.
				if (cpu[r, "prio"] > cpu[r, "noqueue"])
					y[++n] = d[r] / (cpu[r, "prio"] - cpu[r, "noqueue"])
			}
			mx[q[i]] = median(x, rounds)
			my[q[i]] = n ? median(y, n) : "nan"
			line = sprintf("%-8s %6d %8.0f %8.3f %15s", q[i], rounds,
				       median(c, rounds), mx[q[i]], sprintf("(%.3f-%.3f)", lo, hi))
			if (q[i] == "noqueue")
				line = line sprintf(" %7s %8s", "-", "-")
			else
				line = line sprintf(" %7.0f %8s", median(d, rounds),
						    n ? sprintf("%.3f", my[q[i]]) : "-")
			print line
		}
		printf "sluice/prio per frame sent: %.3f (target <= %.1f: %s);", mx["sluice"],
		       target, mx["sluice"] <= target ? "met" : "NOT met"
		a = my["sluice"] == "nan" ? "?" : sprintf("%.2f", my["sluice"])
		printf " added by the qdisc: %sx prio'"'"'s\n", a
		printf "portfc/prio per frame sent: %.3f (target <= %.1f: %s)\n",
		       mx["portfc"], target, mx["portfc"] <= target ? "met" : "NOT met"
		for (r = 1; r <= rounds; r++) {
			di[r] = cpu[r, "int"] - cpu[r, "sluice"]
			dp[r] = cpu[r, "probe"] - cpu[r, "sluice"]
		}
		printf "int-port set, no probes: %+.0f ns/pkt over sluice;", median(di, rounds)
		printf " a probe stamped: %+.0f ns/pkt over sluice (median per-round differences)\n",
		       median(dp, rounds)
	}' "$TMP/results"
