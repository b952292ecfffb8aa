# SPDX-License-Identifier: GPL-2.0
#
# sluice: one build for the kernel module, libsluice, sluicectl and the tc
# plugin, and the one test command (make check).  See README.md.

# The kernel to build against: the running kernel's build tree if it has
# one, else the newest installed Debian linux-headers-*-amd64.  The version
# is never written down here: Debian moves the ABI number.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1))
KVER = $(shell sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)

PREFIX ?= /usr/local
# Where Debian's tc looks for plugins (its LIBDIR is multiarch).
TC_LIB_DIR ?= /usr/lib/$(shell $(CC) -print-multiarch)/tc
export KDIR

.PHONY: all kmod userspace tools check unit selftests bootstrap install uninstall \
	clean sparse checkpatch vm-shell demo bench bench-routing reproduce-routing \
	reproduce-tagger reproduce-throughput

all: kmod userspace tools

kmod: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

userspace:
	$(MAKE) -C userspace

# Helpers the selftests run in the VM (frame crafting).
tools:
	$(MAKE) -C selftests/tools

.PHONY: check-kdir
check-kdir:
	@test -n "$(KDIR)" && test -d "$(KDIR)" || { \
		echo "error: no kernel build tree: install linux-headers-amd64" \
		     "(make bootstrap) or pass KDIR=/path/to/build" >&2; exit 1; }

# Sparse over every module source file (C=2 re-checks even up-to-date ones).
sparse: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 CHECK=sparse modules

# checkpatch.pl is not in the headers package; take it from linux-source.
checkpatch:
	scripts/checkpatch kmod/*.c kmod/*.h include/uapi/linux/sluice.h

# The one test command: install what is missing, build, run the unit tests
# on the host and the kernel selftests in a VM, print one summary.
check:
	scripts/bootstrap --if-needed
	$(MAKE) all
	scripts/check $(CHECK_ARGS)

unit: userspace
	$(MAKE) --no-print-directory -C userspace check

selftests: all
	selftests/vm/run

bootstrap:
	scripts/bootstrap

vm-shell: all
	selftests/vm/run --shell

demo: all
	selftests/vm/run --demo

# What a frame costs through sluice, prio and ets, in the VM (README.md,
# "Benchmark").
bench: all
	selftests/vm/run --bench

# What FC's routing costs at the size of the paper's Table 1, and its
# per-pair solve against LEMON's (userspace/bench; liblemon-dev).  On the
# host, not part of make check; BENCH_ARGS="-n 200" for a quick run.
bench-routing:
	$(MAKE) -C userspace libsluice.a
	$(MAKE) -C userspace/bench run

# FC's Tables 1, 2 and 7, ours beside theirs (README.md, "Routing").
reproduce-routing: userspace
	scripts/reproduce-routing

# Tagger's priorities beside OpenSM's DFSSSP and LASH lanes on random
# regular graphs (README.md, "Tagger").
reproduce-tagger: userspace
	scripts/reproduce-tagger

# FC's Fig. 7 and Table 3's throughput, ours beside the paper's claims
# (README.md, "Throughput"); REPRODUCE_ARGS=--quick for N <= 200.
reproduce-throughput: userspace
	scripts/reproduce-throughput $(REPRODUCE_ARGS)

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(KVER)
	$(MAKE) -C userspace install PREFIX=$(PREFIX) TC_LIB_DIR=$(TC_LIB_DIR)

uninstall:
	rm -f /lib/modules/$(KVER)/extra/sch_sluice.ko
	depmod -a $(KVER)
	$(MAKE) -C userspace uninstall PREFIX=$(PREFIX) TC_LIB_DIR=$(TC_LIB_DIR)

clean:
	-test -n "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/bench clean
	$(MAKE) -C selftests/tools clean
	rm -rf build
