#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the selftest VM, as root, chrooted into the host's root (see
# selftests/vm/init); never run it on the host.
#
#   guest.sh CONFIG_DIR
#
# CONFIG_DIR/env (written by selftests/vm/run) sets MODE and the rest:
#   test   selftests/run_tests.sh "${TESTS_ARGS[@]}", KTAP to ttyS1
#   shell  insmod sch_sluice.ko, then bash on the console (or, if the host's
#          stdin was not a terminal, bash reading CONFIG_DIR/stdin)
#   demo   insmod sch_sluice.ko, then selftests/vm/demo.sh, output to ttyS1
#   bench  the same with selftests/vm/bench.sh
# At the end the guest's dmesg goes to ttyS2 and the exit status to the
# isa-debug-exit port, which makes qemu exit with 2 * status + 1.

set -uo pipefail

cfg=$1
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KTAP_TTY=/dev/ttyS1
DMESG_TTY=/dev/ttyS2
DEBUG_EXIT_PORT=244	# 0xf4, see -device isa-debug-exit in selftests/vm/run

MODE='test'
TESTS_ARGS=()
TERM_ROWS=
TERM_COLS=
# shellcheck source=/dev/null
. "$cfg/env"

export PATH="$REPO/userspace:$PATH"
export TC_LIB_DIR="$REPO/userspace"
export SLUICE_KO=${SLUICE_KO:-$REPO/sch_sluice.ko}

kmsg() {
	echo "<6>sluice-vm: $*" >/dev/kmsg
}

# Serial ports default to cooked output (\n becomes \r\n): make them raw.
raw_port() {
	stty -F "$1" raw -echo
}

# A kmemleak kernel (make check-debug's) scans before the dmesg goes out:
# with kmemleak.verbose=1 each leak is an "unreferenced object" splat.
# An object is only reported once it is 5 s old, hence the second scan.
kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak

	[[ -w $f ]] || return 0
	kmsg "kmemleak scan"
	echo scan >"$f" 2>/dev/null || return 0
	sleep 6
	echo scan >"$f" 2>/dev/null
	kmsg "kmemleak scan done: $(grep -c '^unreferenced object' "$f") suspected leak(s)"
}

finish() {
	local rc=$1

	kmemleak_scan
	kmsg "guest.sh end status $rc"
	raw_port "$DMESG_TTY"
	dmesg --color=never >"$DMESG_TTY"
	((rc > 127)) && rc=127
	printf '%b' "\\0$(printf %o "$rc")" |
		dd of=/dev/port bs=1 seek="$DEBUG_EXIT_PORT" count=1 conv=notrunc 2>/dev/null
	/bin/busybox poweroff -f
}

load_module() {
	if [[ ! -e $SLUICE_KO ]]; then
		echo "sluice-vm: $SLUICE_KO not built (make kmod)" >&2
		return 1
	fi
	grep -qw '^sch_sluice' /proc/modules || insmod "$SLUICE_KO"
}

run_test() {
	raw_port "$KTAP_TTY"
	"$REPO/selftests/run_tests.sh" "${TESTS_ARGS[@]}" >"$KTAP_TTY"
}

# systemd's poweroff refuses to act in a chroot: use busybox's.
add_poweroff() {
	local bin=$cfg/bin cmd

	mkdir -p "$bin"
	for cmd in poweroff reboot halt; do
		printf '#!/bin/sh\nexec /bin/busybox poweroff -f\n' >"$bin/$cmd"
		chmod +x "$bin/$cmd"
	done
	PATH=$bin:$PATH
}

run_shell() {
	local tty=/dev/ttyS0

	add_poweroff
	load_module || echo "sluice-vm: continuing without the module" >&2
	if [[ -e $cfg/stdin ]]; then
		echo "sluice-vm: running the commands from stdin in $REPO"
		cd "$REPO" && bash --noprofile --norc -s <"$cfg/stdin"
		return
	fi
	[[ -n ${TERM_ROWS:-} ]] && stty -F "$tty" rows "$TERM_ROWS" cols "$TERM_COLS"
	cat <<-EOF
	sluice-vm: kernel $(uname -r), ${SLUICE_KO##*/} loaded, repo at $REPO (read-only).
	sluice-vm: writable: /tmp /run /var/tmp /root.  Leave with 'exit' or Ctrl-D
	sluice-vm: (the shell's status is passed back) or 'poweroff -f'; Ctrl-A x kills qemu.
	EOF
	cd "$REPO" && setsid -w -c bash -i <>"$tty" >&0 2>&0
}

# run_script NAME: selftests/vm/NAME.sh with the module loaded.
run_script() {
	local script=$REPO/selftests/vm/$1.sh

	raw_port "$KTAP_TTY"
	if [[ ! -e $script ]]; then
		echo "sluice-vm: no $script" >"$KTAP_TTY"
		return 1
	fi
	load_module || return
	# ttyS3 carries the demo's files back (selftests/vm/run unpacks them)
	if [[ $1 == demo && -e /dev/ttyS3 ]]; then
		raw_port /dev/ttyS3
		export SLUICE_FILES_TTY=/dev/ttyS3
	fi
	bash "$script" >"$KTAP_TTY" 2>&1
}

kmsg "guest.sh start mode $MODE"
case $MODE in
test)	run_test ;;
shell)	run_shell ;;
demo)	run_script demo ;;
bench)	run_script bench ;;
*)	echo "sluice-vm: unknown mode $MODE" >&2; false ;;
esac
finish $?
