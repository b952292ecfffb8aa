# SPDX-License-Identifier: GPL-2.0
#
# What the FaCa agent's fabric tests share (sluice_faca.sh,
# sluice_faca_agent_hook.sh), sourced after lib.sh: the two-path
# leaf-spine with spine1 slowed that sluice_faca.sh's header draws,
# brought up by faca_up with INT on every port and multipath exact; the
# agents' sockets, waiting for their paths, the receivers' agents.

export LC_ALL=C
NAME=sfc
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TOPO=$TMP/ls.json
# each path's first 8 ports (exact: 64 a path from 20000), as --fabric
# makes it for the senders
POOL=20000-20007,20064-20071

sc() { "$SLUICECTL" "$@"; }

sc topo gen leafspine --leaves 2 --spines 2 --host-ports 4 -o "$TOPO" >/dev/null &&
	sc route compute --topo "$TOPO" --algo ecmp -o "$TMP/routes" >/dev/null 2>&1 ||
	skip_all "cannot generate the leaf-spine or its routes"

faca_up()
{
	local out i

	out=$(sc fabric up "$TOPO" --name $NAME --rate 2mbit --limit 32kb \
		--node-rate spine1=250kbit --multipath exact --int-port 7771 2>&1)
	check_err $? "fabric up: $out"
	defer sc fabric down --name $NAME
	((RET)) && return 1
	log_info "$out"
	# the senders' own links: their flows fit spine0 all four
	for i in 0 1 2 3; do
		tc -n $NAME-leaf0-h$i qdisc change dev eth0 root sluice \
			rate 500kbit
		check_err $? "leaf0-h$i's eth0 at 500kbit"
	done
	out=$(sc route load "$TMP/routes" --name $NAME 2>&1)
	check_err $? "route load: $out"
	((RET == 0))
}

# The agents' sockets (each namespace's default), by host: SOCK[leaf0-hI].
declare -A SOCK
sockets()
{
	local i=0 ino

	for ino in $(stat -L -c %i /run/netns/$NAME-leaf0-h{0..3}); do
		SOCK[leaf0-h$i]=/run/sluice/faca-net$ino.sock
		i=$((i + 1))
	done
}

# paths_known [HOSTS]: until each sender's agent (leaf0-hI, I of HOSTS,
# default 0 to 3) knows 2 paths (20 s at most).
paths_known()
{
	local i t out n

	for i in ${1:-0 1 2 3}; do
		for ((t = 0; t < 100; t++)); do
			out=$(sc faca show --socket "${SOCK[leaf0-h$i]}" -j 2>/dev/null)
			n=${out//\"probes\"/@}
			n=${n//[^@]/}
			((${#n} == 2)) && break
			nap 0.2
		done
		((${#n} == 2)) || { log_info "leaf0-h$i: $out"; return 1; }
	done
}

# responders HOSTS...: agents answering probes in leaf1-hI, I of HOSTS.
responders()
{
	local i

	for i in "$@"; do
		ip netns exec $NAME-leaf1-h$i "$SLUICECTL" faca agent \
			--sports $POOL --records 4 2>/dev/null &
		defer kill $!
	done
}
