#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad options are rejected with their own extack message, and a rejected
# request changes nothing.  tc goes through the plugin, which refuses
# most bad values itself, so the kernel's checks are driven with tcraw,
# which sends hand-built attributes.
#
#   +------------ ns -------------+
#   | a0 [sluice 1:] -------- b0  |
#   +-----------------------------+

ALL_TESTS="
	errors_kernel_values
	errors_kernel_maps
	errors_kernel_attrs
	errors_classes_are_fixed
	errors_cross_checks
	errors_device
	errors_pfc
	errors_int
	errors_plugin
"

source "$(dirname "$0")/lib.sh"

require_cmd tc ip jq
sluice_load

TCRAW=$SELFTESTS_DIR/tools/tcraw

# Attribute numbers, from include/uapi/linux/sluice.h.
CLASSES=1 TAG=2 DEFAULT=3 LIMIT=4 PCP_MAP=5 DSCP_MAP=6 DEFAULT_MAPS=9 ENTRY=1
CLASS_LIMIT=1

setup()
{
	REJECTS_OPTS=
	netns_veth NS a0 b0 &&
		tc -n "$NS" qdisc add dev a0 root handle 1: sluice classes 4
}

# opts: the options object of a0's root qdisc, as tc prints it in JSON
# (compact, keys in a fixed order): cut out of the document in bash, as
# mostly the options are only compared, and a jq costs a quarter second
# under TCG.  Without -s the options are the qdisc's last member.
opts()
{
	local json

	json=$(tc -n "$NS" -j qdisc show dev a0) || return
	json=${json#*\"options\":}
	echo "${json%\}\]}"
}

# rejects "EXPECTED MESSAGE" TCRAW-ARGS...: the request fails with exactly
# that message and the qdisc's options are unchanged.  The options read
# after one rejection are those before the next (REJECTS_OPTS): the tests
# change nothing between two rejections, and a change there would only
# make the comparison fail.  setup empties it.
rejects()
{
	local expected=$1 before out

	shift
	before=${REJECTS_OPTS:-$(opts)}
	out=$("$TCRAW" -n "$NS" a0 "$@")
	check_eq "$out" "error: $expected" "tcraw $*"
	REJECTS_OPTS=$(opts)
	check_eq "$REJECTS_OPTS" "$before" "options after a rejected $*"
}

# entry VALUE CLASS [RESERVED]: a map entry's payload in hex
# (struct tc_sluice_map_entry: u16 value in host order, u8 class, u8 0).
entry()
{
	printf '%02x%02x%02x%02x' $(($1 & 0xff)) $(($1 >> 8)) "$2" "${3:-0}"
}

errors_kernel_values()
{
	local out

	setup || return
	rejects "sch_sluice: number of classes must be 1 to 32" \
		qdisc-change 1: sluice u8 $CLASSES 0
	rejects "sch_sluice: number of classes must be 1 to 32" \
		qdisc-change 1: sluice u8 $CLASSES 33
	rejects "sch_sluice: unknown tag source" \
		qdisc-change 1: sluice u8 $TAG 4
	rejects "sch_sluice: limit must be 1 byte to 128 MiB - 1" \
		qdisc-change 1: sluice u32 $LIMIT 0
	rejects "sch_sluice: limit must be 1 byte to 128 MiB - 1" \
		qdisc-change 1: sluice u32 $LIMIT $((0xffffffff / 32 + 1))
	rejects "sch_sluice: default class must be below the number of classes" \
		qdisc-change 1: sluice u8 $DEFAULT 4
	rejects "sch_sluice: default maps name an unknown map" \
		qdisc-change 1: sluice u8 $DEFAULT_MAPS 16
	# A rejected add creates nothing.
	tc -n "$NS" qdisc del dev a0 root
	out=$("$TCRAW" -n "$NS" a0 qdisc-add 1: sluice u8 $CLASSES 0)
	check_eq "$out" "error: sch_sluice: number of classes must be 1 to 32" \
		"add with 0 classes"
	# "qdisc KIND HANDLE ...": read by bash, no jq.
	read -r _ out _ < <(tc -n "$NS" qdisc show dev a0)
	check_eq "$out" "noqueue" "qdisc after a rejected add"
}

errors_kernel_maps()
{
	setup || return
	rejects "sch_sluice: map entry value is beyond the tag's range" \
		qdisc-change 1: sluice nest $PCP_MAP hex $ENTRY "$(entry 8 0)" end
	rejects "sch_sluice: map entry names a class above 31" \
		qdisc-change 1: sluice nest $DSCP_MAP hex $ENTRY "$(entry 1 32)" end
	rejects "sch_sluice: a map names a class beyond the number of classes" \
		qdisc-change 1: sluice nest $DSCP_MAP hex $ENTRY "$(entry 1 4)" end
	rejects "sch_sluice: map names the same value twice" \
		qdisc-change 1: sluice nest $DSCP_MAP hex $ENTRY "$(entry 1 1)" \
			hex $ENTRY "$(entry 1 2)" end
	rejects "sch_sluice: reserved field of a map entry is not zero" \
		qdisc-change 1: sluice nest $DSCP_MAP hex $ENTRY "$(entry 1 1 1)" end
	rejects "sch_sluice: map has no entries" \
		qdisc-change 1: sluice empty $DSCP_MAP
	rejects "sch_sluice: unknown attribute in a map" \
		qdisc-change 1: sluice nest $DSCP_MAP hex 2 "$(entry 1 1)" end
	rejects "sch_sluice: map entry has the wrong size" \
		qdisc-change 1: sluice nest $DSCP_MAP hex $ENTRY 0101 end
	rejects "sch_sluice: a map cannot be both reset to default and set" \
		qdisc-change 1: sluice u8 $DEFAULT_MAPS 4 \
			nest $DSCP_MAP hex $ENTRY "$(entry 1 1)" end
	# One bad entry among good ones: none of them is applied.
	rejects "sch_sluice: map entry value is beyond the tag's range" \
		qdisc-change 1: sluice nest $PCP_MAP hex $ENTRY "$(entry 0 3)" \
			hex $ENTRY "$(entry 9 3)" end
}

# Malformed attributes are caught by the strict policy (core messages).
errors_kernel_attrs()
{
	setup || return
	rejects "NLA_F_NESTED is missing" \
		qdisc-change 1: sluice nest-noflag $DSCP_MAP \
			hex $ENTRY "$(entry 1 1)" end
	rejects "invalid attribute length" \
		qdisc-change 1: sluice u32 $CLASSES 4
	rejects "Unknown attribute type" \
		qdisc-change 1: sluice u8 99 1
	# Classes have their own attribute space: the qdisc's limit is unknown.
	rejects "Unknown attribute type" \
		class-change 1:2 sluice u32 $LIMIT 1000
	rejects "invalid attribute length" \
		class-change 1:2 sluice u8 $CLASS_LIMIT 2
	rejects "sch_sluice: limit must be 1 byte to 128 MiB - 1" \
		class-change 1:2 sluice u32 $CLASS_LIMIT 0
}

errors_classes_are_fixed()
{
	local out

	setup || return
	out=$(tc -n "$NS" class add dev a0 parent 1: classid 1:9 sluice 2>&1)
	check_eq "$out" "Error: sch_sluice: sluice classes cannot be added: set their number with the qdisc's classes option." \
		"class add"
	out=$(tc -n "$NS" class del dev a0 classid 1:2 2>&1)
	check_eq "$out" "Error: sch_sluice: sluice classes cannot be deleted: set their number with the qdisc's classes option." \
		"class del"
	out=$(tc -n "$NS" class change dev a0 classid 1:2 estimator 1s 8s \
		sluice limit 1000 2>&1)
	check_eq "$out" "Error: sch_sluice: sluice classes have no rate estimator." \
		"class estimator"
	out=$(tc -n "$NS" qdisc add dev a0 parent 1:2 pfifo 2>&1)
	check_eq "$out" "Error: sch_sluice: sluice classes are internal FIFOs and take no child qdisc." \
		"graft"
	check_eq "$(tc -n "$NS" class show dev a0 | grep -c 'class sluice')" 4 \
		"classes afterwards"
}

# Checks that need the qdisc's current state: only the kernel can make them.
errors_cross_checks()
{
	local out before

	setup || return
	tc -n "$NS" qdisc change dev a0 root sluice default 3 &&
		tc -n "$NS" qdisc change dev a0 root sluice pcp-map 7:3
	check_err $? "setup"
	before=$(opts)
	out=$(tc -n "$NS" qdisc change dev a0 root sluice classes 2 2>&1)
	check_eq "$out" "Error: sch_sluice: default class must be below the number of classes." \
		"shrink below the default class"
	tc -n "$NS" qdisc change dev a0 root sluice default 0
	check_err $? "default 0"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice classes 2 2>&1)
	check_eq "$out" "Error: sch_sluice: a map names a class beyond the number of classes." \
		"shrink below a set map's class"
	check_eq "$(opts | jq .classes)" 4 "classes after rejections"
}

errors_device()
{
	local out

	netns_add NS || return
	out=$(tc -n "$NS" qdisc add dev lo root sluice 2>&1)
	check_eq "$out" "Error: sch_sluice: sluice needs an Ethernet device." \
		"loopback"
}

# PFC needs a root qdisc, a rate, an xoff threshold, and a pause time the
# port can refresh before it expires.
errors_pfc()
{
	local out

	setup || return
	out=$(tc -n "$NS" qdisc change dev a0 root sluice pfc 3 2>&1)
	check_eq "$out" "Error: sch_sluice: pfc needs the link rate." "no rate"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice rate 1gbit pfc 3 2>&1)
	check_eq "$out" "Error: sch_sluice: pfc needs an xoff threshold." "no xoff"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice rate 600gbit 2>&1)
	check_eq "$out" "Error: sch_sluice: rate must be at most 512 Gbit/s." \
		"rate too high"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice rate 100gbit pfc 3 \
		xoff 10k pause-time 1 2>&1)
	check_eq "$out" "Error: sch_sluice: pause-time too short to refresh at this rate." \
		"pause time too short"
	check_eq "$(opts | jq -c '[.rate, .pfc]')" '[0,[]]' "options after rejections"
	tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 1mbit \
			burst 1600 latency 1s
	check_err $? "tbf"
	out=$(tc -n "$NS" qdisc add dev a0 parent 1:1 sluice rate 1mbit pfc 3 \
		xoff 10k 2>&1)
	check_eq "$out" "Error: sch_sluice: pfc needs sluice as the root qdisc." \
		"not a root"
}

# In-band telemetry stamps at a port: int-port needs a root qdisc; the ids
# alone do not.
errors_int()
{
	local out

	setup &&
		tc -n "$NS" qdisc del dev a0 root &&
		tc -n "$NS" qdisc add dev a0 root handle 1: tbf rate 1mbit \
			burst 1600 latency 1s
	check_err $? "setup"
	out=$(tc -n "$NS" qdisc add dev a0 parent 1:1 handle 2: sluice \
		int-port 7771 2>&1)
	check_eq "$out" "Error: sch_sluice: int-port needs sluice as the root qdisc." \
		"int-port, not a root"
	tc -n "$NS" qdisc add dev a0 parent 1:1 handle 2: sluice int-node 4
	check_err $? "int-node alone, not a root"
	out=$(tc -n "$NS" qdisc change dev a0 parent 1:1 handle 2: sluice \
		int-port 7771 2>&1)
	check_eq "$out" "Error: sch_sluice: int-port needs sluice as the root qdisc." \
		"int-port by a change, not a root"
	tc -n "$NS" qdisc show dev a0 parent 1:1 | grep -q "int-port 0 int-node 4 int-link 0 "
	check_err $? "the child's INT options after the rejection"
}

# The plugin's own checks, before anything reaches the kernel.
errors_plugin()
{
	local out	# its first line: ${out%%$'\n'*}

	setup || return
	out=$(tc -n "$NS" qdisc change dev a0 root sluice classes 33 2>&1)
	check_fail $? "classes 33 accepted"
	check_eq "${out%%$'\n'*}" \
		'sluice: "classes" must be 1..32, not "33"' "classes 33"
	out=$(tc -n "$NS" qdisc change dev a0 root sluice bogus 2>&1)
	check_fail $? "unknown option accepted"
	check_eq "${out%%$'\n'*}" 'sluice: unknown option "bogus"' \
		"unknown option"
}

tests_run
