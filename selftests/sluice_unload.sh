#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module unloads cleanly once its qdiscs are gone, also after they
# held queued frames, and not while a qdisc still uses it.  Runs last
# (the runner sorts by name) and leaves the module unloaded.
#
#   +---------------- ns ----------------+
#   | a0 [tbf -> sluice, frames queued] - b0 |
#   +------------------------------------+

ALL_TESTS="
	unload_busy_then_clean
	unload_reload
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip rmmod
sluice_load

loaded()
{
	grep -q '^sch_sluice ' /proc/modules
}

unload_busy_then_clean()
{
	local ns_name

	netns_add NS || return
	veth_add "$NS" a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 8kbit \
			burst 1600 latency 100s &&
		tc -n "$NS" qdisc add dev a0 parent 1:1 handle 2: sluice
	check_err $? "setup"
	send "$NS" a0 -4 0 -s 1000 -c 5 >/dev/null
	check_eq "$(cat /sys/module/sch_sluice/refcnt)" 1 "module refcount"

	rmmod sch_sluice 2>/dev/null
	check_fail $? "rmmod succeeded while a qdisc used the module"
	loaded
	check_err $? "module gone while in use"

	# Deleting the namespace destroys the qdisc with frames queued.
	ns_name=$NS
	ip netns del "$ns_name"
	check_err $? "netns del"
	# The namespace is torn down asynchronously; wait for the qdisc.
	for _ in $(seq 50); do
		[[ "$(cat /sys/module/sch_sluice/refcnt)" == 0 ]] && break
		sleep 0.1
	done
	rmmod sch_sluice
	check_err $? "rmmod after the qdiscs were gone"
	loaded
	check_fail $? "module still loaded"
}

unload_reload()
{
	insmod "$SLUICE_KO"
	check_err $? "insmod again"
	netns_add NS || return
	veth_add "$NS" a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice
	check_err $? "qdisc after reload"
	send "$NS" a0 -4 0 -c 3 >/dev/null
	check_eq "$(class_stats "$NS" a0 packets)" "3 0 0 0 0 0 0 0" "traffic"
	tc -n "$NS" qdisc del dev a0 root
	check_err $? "qdisc del"
	rmmod sch_sluice
	check_err $? "final rmmod"
}

tests_run
