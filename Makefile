# SPDX-License-Identifier: GPL-2.0
#
# sluice: one build for the kernel module, libsluice, sluicectl and the tc
# plugin, and the one test command (make check).  See README.md.

# The kernel to build against, as scripts/kdir decides: KDIR if given, else
# the running kernel's build tree if it has one, else the newest installed
# Debian linux-headers-*-amd64.  Nothing here may be computed when make
# starts: on a fresh machine "make check" installs the headers (and gcc,
# pkg-config, ...) first, and only the make it starts after that may look.
# So these are recursively expanded and never exported: a sub-make decides
# anew (and a KDIR given on the command line reaches it through MAKEFLAGS).
ifeq ($(strip $(KDIR)),)
KDIR = $(shell scripts/kdir 2>/dev/null)
endif
KVER = $(shell KDIR=$(KDIR) scripts/kdir --release)

PREFIX ?= /usr/local
# Where Debian's tc looks for plugins (its LIBDIR is multiarch).
TC_LIB_DIR ?= /usr/lib/$(shell $(CC) -print-multiarch)/tc
# Installs the Debian packages that are missing (a test of the build points
# it at a stand-in).
BOOTSTRAP ?= scripts/bootstrap
# What "make prepare" builds once the packages are there.
PREPARE_TARGETS ?= all

.PHONY: all kmod userspace tools check check-debug unit selftests bootstrap prepare install \
	uninstall clean sparse checkpatch vm-shell demo demo-bcube demo-bolt demo-faca bench bench-routing \
	bench-routing-5000 dkms-source dkms-install dkms-uninstall install-man uninstall-man deb \
	reproduce-routing reproduce-tagger reproduce-throughput kdir

all: kmod userspace tools

kmod: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

userspace:
	$(MAKE) -C userspace

# Helpers the selftests run in the VM (frame crafting).
tools:
	$(MAKE) -C selftests/tools

# Fails, saying what to install, unless this make has a kernel build tree.
.PHONY: check-kdir
check-kdir:
	@test -n "$(KDIR)" || { echo "error: no kernel build tree: install" \
		"linux-headers-amd64 (make bootstrap) or pass KDIR=/path/to/build" >&2; exit 1; }
	@KDIR=$(KDIR) scripts/kdir >/dev/null

# Prints the kernel build tree this make builds the module against.
kdir: check-kdir
	@echo $(KDIR)

# Sparse over every module source file (C=2 re-checks even up-to-date ones).
sparse: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 CHECK=sparse modules

# checkpatch.pl is not in the headers package; take it from linux-source.
checkpatch:
	scripts/checkpatch kmod/*.c kmod/*.h include/uapi/linux/sluice.h

# What every command that may be typed first on a fresh machine does
# first: install what is missing, then build in a new make, which looks for
# the kernel headers only now that they are there.
prepare:
	$(BOOTSTRAP) --if-needed
	$(MAKE) $(PREPARE_TARGETS)

# The one test command: install what is missing, build, run the unit tests
# on the host and the kernel selftests in a VM, print one summary.
check: prepare
	scripts/check $(CHECK_ARGS)

# The kernel selftests on a debug kernel (KASAN, lockdep, ODEBUG,
# kmemleak; DEBUG=kcsan: KCSAN instead of KASAN), built from Debian's
# linux-source-6.1 and cached outside the tree (scripts/debug-kernel).  Not
# part of make check: the first run builds the kernel.
check-debug: prepare
	scripts/check-debug $(if $(filter kcsan,$(DEBUG)),--kcsan) $(CHECK_DEBUG_ARGS)

unit:
	$(BOOTSTRAP) --if-needed
	$(MAKE) --no-print-directory -C userspace check

selftests: prepare
	selftests/vm/run

bootstrap:
	$(BOOTSTRAP)

vm-shell: prepare
	selftests/vm/run --shell

demo: prepare
	selftests/vm/run --demo

# PortFC on BCube(4,1): fabric, routes, the experiment, its plots (docs/experiment-bcube.md,
# "Experiment: PortFC on BCube"); about 8 minutes.
demo-bcube: prepare
	SLUICE_DEMO=bcube selftests/vm/run --demo

# TCP-Bolt: every part of "sluicectl experiment bolt", its text and plots
# (docs/experiment-bolt.md); about 6 minutes.
demo-bolt: prepare
	SLUICE_DEMO=bolt selftests/vm/run --mem 2G --demo

# FaCa: "sluicectl experiment faca", the model and the micro-benchmark on
# a fabric, its text and plots (docs/experiment-faca.md); about 8
# minutes.
demo-faca: prepare
	SLUICE_DEMO=faca selftests/vm/run --demo

# What a frame costs through sluice, prio and ets, in the VM (docs/testing.md,
# "Benchmark").
bench: prepare
	selftests/vm/run --bench

# What FC's routing costs at the size of the paper's Table 1, and its
# per-pair solve against LEMON's (userspace/bench; liblemon-dev).  On the
# host, not part of make check; BENCH_ARGS="-n 200" for a quick run.
bench-routing:
	$(BOOTSTRAP) --if-needed
	$(MAKE) -C userspace libsluice.a
	$(MAKE) -C userspace/bench run

# FC at the scale of 120,000 servers (N = 5000, k = 5), all pairs streamed
# to a route file on two threads, its CBD check, and how a shard's time
# grows with N (docs/routing-benchmark.md).  Long: some 10 to 30 minutes,
# 20 GB of disk while the file is written.
bench-routing-5000:
	$(BOOTSTRAP) --if-needed
	$(MAKE) -C userspace/bench run-5000

# FC's Tables 1, 2 and 7, ours beside theirs (docs/routing.md).
reproduce-routing:
	$(BOOTSTRAP) --if-needed
	$(MAKE) userspace
	scripts/reproduce-routing

# Tagger's priorities beside OpenSM's DFSSSP and LASH lanes on random
# regular graphs (docs/tagger.md).
reproduce-tagger:
	$(BOOTSTRAP) --if-needed
	$(MAKE) userspace
	scripts/reproduce-tagger

# FC's Fig. 7 and Table 3's throughput, ours beside the paper's claims
# (docs/throughput.md); REPRODUCE_ARGS=--quick for N <= 200.
reproduce-throughput:
	$(BOOTSTRAP) --if-needed
	$(MAKE) userspace
	scripts/reproduce-throughput $(REPRODUCE_ARGS)

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(KVER)
	$(MAKE) -C userspace install PREFIX=$(PREFIX) TC_LIB_DIR=$(TC_LIB_DIR)
	$(MAKE) install-man

# The manual pages (man -l man/PAGE reads them from the tree): the
# commands' in section 8, the file formats' in section 5.
MANDIR ?= $(PREFIX)/share/man

install-man:
	install -d $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 man/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/man8/

uninstall-man:
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard man/*.5))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(wildcard man/*.8)))

# DKMS: the module's sources and dkms.conf in $(DKMS_SRC)/sluice-VERSION,
# registered, built and installed for the running kernel and every one
# Debian installs later.  VERSION is libsluice's (one version).
VERSION := $(shell sed -n 's/^\#define SLUICE_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/sluice/version.h)
DKMS_SRC ?= /usr/src
DKMS_DIR = $(DESTDIR)$(DKMS_SRC)/sluice-$(VERSION)

dkms-source:
	install -d $(DKMS_DIR)/kmod $(DKMS_DIR)/include/uapi/linux
	install -m 0644 Kbuild COPYING $(DKMS_DIR)/
	install -m 0644 kmod/*.c kmod/*.h $(DKMS_DIR)/kmod/
	install -m 0644 include/uapi/linux/sluice.h $(DKMS_DIR)/include/uapi/linux/
	sed 's|@VERSION@|$(VERSION)|' dkms.conf.in > $(DKMS_DIR)/dkms.conf

# Built for the kernel "make" builds for (scripts/kdir); later kernels get
# theirs from DKMS's autoinstall when Debian installs them.
dkms-install: dkms-source check-kdir
	dkms add -m sluice -v $(VERSION)
	dkms build -m sluice -v $(VERSION) -k $(KVER)
	dkms install -m sluice -v $(VERSION) -k $(KVER)

dkms-uninstall:
	-dkms remove -m sluice -v $(VERSION) --all
	rm -rf $(DKMS_DIR)

# Debian packages: sluice-dkms, sluice-tools and libsluice-dev, built by
# dpkg-buildpackage from a copy of the tree into build/deb (DEB_OUT), then
# checked by lintian (docs/packaging.md).  No kernel headers needed.
DEB_OUT ?= build/deb

deb:
	$(BOOTSTRAP) --if-needed
	scripts/deb $(DEB_OUT)

uninstall:
	rm -f /lib/modules/$(KVER)/extra/sch_sluice.ko
	depmod -a $(KVER)
	$(MAKE) uninstall-man
	$(MAKE) -C userspace uninstall PREFIX=$(PREFIX) TC_LIB_DIR=$(TC_LIB_DIR)

clean:
	-test -n "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/bench clean
	$(MAKE) -C selftests/tools clean
	rm -rf build
