# SPDX-License-Identifier: GPL-2.0-or-later
# modsign: sign-file, extract-sig, verify-file.  Plain make, pkg-config.

# The one version: debian/changelog's first entry (a native package), so
# that --version, the man pages and the .deb cannot disagree.
VERSION     := $(shell awk -F'[()]' 'NR == 1 { print $$2; exit }' debian/changelog)
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
# sign-file's signing code, which its executable runs (src/front/).
PKGLIBDIR   ?= $(PREFIX)/lib/modsign
MANDIR      ?= $(PREFIX)/share/man
# Where bash-completion and Debian's zsh look for vendor completions.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
# The kernel-install hooks (hooks/): Debian's kernel postinst runs
# /etc/kernel/*postinst.d whatever the PREFIX, kernel-install reads
# /usr/lib/kernel/install.d for packages and /etc/kernel/install.d for
# local additions.
SYSCONFDIR  ?= /etc
KERNELINSTALLDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib,$(SYSCONFDIR))/kernel/install.d
DESTDIR     ?=
PKG_CONFIG  ?= pkg-config
CC          ?= cc
INSTALL     ?= install

BUILD       ?= build
SAN         ?=

PKGS        := libcrypto json-c
# The compression libraries for their headers only: compress.c dlopen()s
# them when a compressed file is first met (bzlib.h needs no flags;
# Debian 12's libbz2-dev ships no bzip2.pc).  p11-kit-1 likewise for
# <p11-kit/pkcs11.h>: PKCS#11 modules are dlopen()ed.
COMP_PKGS   := zlib liblzma libzstd liblz4
# On a machine without them, plain make stops at the first compile with
# one line naming the command that installs them (deps-ok, below), not
# with pkg-config's own complaints.
PKG_OK      := $(shell $(PKG_CONFIG) --exists $(PKGS) $(COMP_PKGS) p11-kit-1 \
	2>/dev/null && command -v help2man >/dev/null && command -v $(CC) >/dev/null && echo y)
PKG_CFLAGS  := $(if $(PKG_OK),$(shell $(PKG_CONFIG) --cflags $(PKGS) $(COMP_PKGS) p11-kit-1))
PKG_LIBS    := $(if $(PKG_OK),$(shell $(PKG_CONFIG) --libs $(PKGS)))

# CFLAGS, CPPFLAGS and LDFLAGS from the environment are honoured
# everywhere (a Debian build sets them from dpkg-buildflags: hardening,
# -ffile-prefix-map).
CFLAGS      ?= -O2 -g
WARN        := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla
ALL_CFLAGS  := -std=gnu11 -D_GNU_SOURCE -pthread \
	       $(WARN) $(PKG_CFLAGS) -Isrc/common -Isrc -DMODSIGN_VERSION='"$(VERSION)"' -MMD -MP $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS := -pthread $(LDFLAGS)
SAN_CFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer \
	       -fno-sanitize-recover=all -O1
ifneq ($(SAN),)
ALL_CFLAGS  += $(SAN_CFLAGS)
ALL_LDFLAGS += -fsanitize=address,undefined
endif

TOOLS       := $(sort $(patsubst src/%.c,%,$(wildcard src/*.c)))
COMMON_SRC  := $(sort $(shell find src/common -name '*.c'))
COMMON_OBJ  := $(COMMON_SRC:src/%.c=$(BUILD)/obj/%.o)
# Each tool's wing (src/TOOL/): what only that tool uses, in an archive
# of its own that the tool links before the common one.
WING_SRC    := $(sort $(shell find $(TOOLS:%=src/%) -name '*.c'))
WING_OBJ    := $(WING_SRC:src/%.c=$(BUILD)/obj/%.o)
BINS        := $(TOOLS:%=$(BUILD)/bin/%)
MANS        := $(TOOLS:%=man/%.1)
# sign-file's signing code, which its executable runs (none with
# STATIC_LIBCRYPTO=1, below).
SIGN_CORE   := $(if $(STATIC_LIBCRYPTO),,$(BUILD)/lib/modsign/sign-file)
COMPLETIONS := $(BUILD)/completions/modsign.bash $(BUILD)/completions/_modsign
# The bats suite's traps (pausing a tool at a named point, no O_TMPFILE),
# preloaded into the runs that need them so that the tools carry none;
# built with the tools, never installed.
TEST_HOOKS  := $(BUILD)/preload/test-hooks.so
# The kernel-install hooks with their installed paths filled in.
KERNEL_HOOKS := $(addprefix $(BUILD)/hooks/,modsign-kernel-hook postinst \
	header_postinst kernel-install)

.SECONDARY:
.PHONY: all deps-ok deb deps-deb check check-layers check-style check-clang check-unit check-plain check-asan check-dkms kernel-verdicts kernel-verdicts-update kernel-mutants demo install \
	firmware-verdicts firmware-verdicts-update firmware-compare firmware-fixes \
	install-kmodsign clean deps-build deps-test fuzz fuzz-cov fuzz-smoke fuzz-long deps-fuzz \
	valgrind bench
all: $(BINS) $(SIGN_CORE) $(MANS) $(COMPLETIONS) $(TEST_HOOKS) $(KERNEL_HOOKS)

deps-ok:
	$(if $(PKG_OK),@:,$(error modsign: build dependencies missing (C compiler, pkg-config, help2man, $(PKGS) $(COMP_PKGS) p11-kit-1); install them with: make deps-build))

$(BUILD)/obj/%.o: src/%.c | deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Tools link the common modules from an archive, so each takes only the
# modules it uses, and --as-needed drops the libraries none of those use:
# fewer objects for the dynamic loader to map and relocate at every start.
COMMON_LIB  := $(BUILD)/libmodsign.a
$(COMMON_LIB): $(COMMON_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

define wing_archive
$(BUILD)/wing/$(1).a: $$(filter $(BUILD)/obj/$(1)/%,$$(WING_OBJ))
	@mkdir -p $$(dir $$@) && rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach t,$(TOOLS),$(eval $(call wing_archive,$(t))))

$(BUILD)/bin/%: $(BUILD)/obj/%.o $(BUILD)/wing/%.a $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -Wl,--as-needed -o $@ $^ $(PKG_LIBS)

# STATIC_LIBCRYPTO=1: sign-file with libcrypto.a linked in, as a
# position-dependent executable.  Off by default, and for a reason: the
# tool then keeps the OpenSSL it was built with (libssl3 security
# updates need a rebuild) and loses ASLR for its own image.  What it
# buys is start-up: relocating the thousands of pointers in libcrypto.so
# dirties pages at every run, a large part of signing one small module
# (bench/sign-bench.sh; the README's "Performance").  Only sign-file:
# verify-file reads untrusted modules and keeps every hardening.
#
# That one executable is built whole, as the other tools are.  Otherwise
# sign-file is two programs (sign-file/front.h says why): the executable, a
# front end, and the tool proper, src/sign-file.c with the layer, as
# $(SIGN_CORE), which the front end executes from ../lib/modsign beside
# itself (the build tree and an install alike) or from PKGLIBDIR.
#
# The front end is a static musl program where musl-gcc is installed
# (Debian's musl-tools, which `make deps-build` installs): it starts
# without glibc's dynamic loader and CPU probing, and under an agent that
# start is most of what a module costs (bench/NOTES, "musl front end").  Without musl-gcc, and in sanitizer builds (whose
# runtimes need glibc), it links glibc like the other tools.
#
# The front end's fallback directory is compiled in: a stamp, rewritten
# (as make reads this file) only when PKGLIBDIR differs from the last
# build's, rebuilds it when `make install` is given another PREFIX.
PKGLIBDIR_STAMP := $(BUILD)/pkglibdir.stamp
$(shell mkdir -p $(BUILD) && [ "$$(cat $(PKGLIBDIR_STAMP) 2>/dev/null)" = \
	"$(PKGLIBDIR)" ] || echo "$(PKGLIBDIR)" > $(PKGLIBDIR_STAMP))

ifneq ($(STATIC_LIBCRYPTO),)
$(BUILD)/bin/sign-file: PKG_LIBS := -Wl,-Bstatic -lcrypto -Wl,-Bdynamic \
	$(shell $(PKG_CONFIG) --libs json-c) -ldl -pthread
$(BUILD)/bin/sign-file: ALL_LDFLAGS += -no-pie
else
MUSL_CC     := $(if $(SAN),,$(shell command -v musl-gcc 2>/dev/null))
FRONT_CC    := $(or $(MUSL_CC),$(CC))
FRONT_SRC   := src/front/sign-file.c src/sign-file/front.c src/sign-file/sign_words.c \
	       src/sign-file/agent_client.c src/sign-file/agent_wire.c \
	       src/common/base/log.c src/common/base/quote.c
FRONT_OBJ   := $(FRONT_SRC:src/%.c=$(BUILD)/front/%.o)
FRONT_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -Isrc/common -Isrc \
	       -DMODSIGN_VERSION='"$(VERSION)"' \
	       -DMODSIGN_PKGLIBDIR='"$(PKGLIBDIR)"' -MMD -MP $(CPPFLAGS) $(CFLAGS) \
	       $(if $(SAN),$(SAN_CFLAGS))

# The musl front end is a static PIE, so that its image too is placed at
# random (ASLR) like the glibc tools'.  Debian's musl-gcc.specs knows no
# -static-pie: a second specs file, made here and used for that link
# only, starts the program with musl's self-relocating rcrt1.o and links
# it without an interpreter.
# Where musl has no rcrt1.o, a plain static program, as before.
MUSL_LIBDIR := $(if $(MUSL_CC),$(patsubst %/musl-gcc.specs,%,$(shell \
	sed -n 's/.*-specs "\([^"]*\)".*/\1/p' $(MUSL_CC))))
MUSL_PIE    := $(if $(wildcard $(MUSL_LIBDIR)/rcrt1.o),$(BUILD)/front/static-pie.specs)
# (musl-gcc puts its specs last, where they would win: the link names
# both itself, with gcc, as musl-gcc does: specs files are gcc's, so a
# CC=clang build links the front end with gcc all the same.)
FRONT_LINK  := $(if $(MUSL_CC),$(if $(MUSL_PIE),-specs $(MUSL_LIBDIR)/musl-gcc.specs \
	-specs $(MUSL_PIE) -static-pie,-static) $(LDFLAGS),$(ALL_LDFLAGS))
FRONT_LD    := $(if $(MUSL_PIE),$(or $(REALGCC),gcc),$(FRONT_CC))

$(BUILD)/front/static-pie.specs: Makefile
	@mkdir -p $(dir $@)
	printf '%s\n' '*startfile:' \
		'$(MUSL_LIBDIR)/rcrt1.o $(MUSL_LIBDIR)/crti.o crtbeginS.o%s' '' \
		'*link:' '-nostdlib -static -pie --no-dynamic-linker -z text --build-id' > $@

$(BUILD)/front/%.o: src/%.c $(PKGLIBDIR_STAMP) | deps-ok
	@mkdir -p $(dir $@)
	$(FRONT_CC) $(FRONT_CFLAGS) -c -o $@ $<

$(BUILD)/bin/sign-file: $(FRONT_OBJ) $(MUSL_PIE) | $(SIGN_CORE)
	@mkdir -p $(dir $@)
	$(if $(MUSL_CC),,$(if $(SAN),,@echo "note: no musl-gcc (Debian: musl-tools): sign-file's front end links glibc and starts slower"))
	$(FRONT_LD) $(FRONT_LINK) -o $@ $(FRONT_OBJ)

$(SIGN_CORE): $(BUILD)/obj/sign-file.o $(BUILD)/wing/sign-file.a $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -Wl,--as-needed -o $@ $^ $(PKG_LIBS)
endif

# Without the sanitizers even for an ASan run: every program a paused
# command starts (env, sh) loads it too.
$(TEST_HOOKS): tests/preload/test-hooks.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) -fPIC -shared \
		$(LDFLAGS) -o $@ $< -ldl

# Man pages come from --help/--version (synopsis, options, the exit-status
# table), so they cannot lag the code, plus man/TOOL.h2m and
# man/common.h2m: the sections --help has no room for (keys, batch, agent,
# machine, kernel lines, what the kernel says, examples...).
man/%.1: $(BUILD)/bin/% man/%.h2m man/common.h2m
	help2man --no-info --no-discard-stderr --version-string=$(VERSION) \
		--include=man/$*.h2m --include=man/common.h2m -o $@ $(BUILD)/bin/$*

# Completions, like the man pages, take their options from --help.
$(BUILD)/completions/modsign.bash: completions/gen.sh completions/modsign.bash.in $(BINS)
	@mkdir -p $(dir $@)
	completions/gen.sh bash $(BUILD)/bin > $@.tmp && mv $@.tmp $@

$(BUILD)/completions/_modsign: completions/gen.sh completions/modsign.zsh.in $(BINS)
	@mkdir -p $(dir $@)
	completions/gen.sh zsh $(BUILD)/bin > $@.tmp && mv $@.tmp $@

# hooks/*.in with the installed paths filled in: $(call fill_hook,IN,OUT).
# make install fills them again, for the PREFIX it is given then.
fill_hook = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@PKGLIBDIR@|$(PKGLIBDIR)|g' \
	-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $(1) > $(2).tmp && \
	chmod 0755 $(2).tmp && mv $(2).tmp $(2)
$(BUILD)/hooks/%: hooks/%.in Makefile
	@mkdir -p $(@D)
	$(call fill_hook,$<,$@)

# Both quick-start commands set themselves up on a fresh Debian machine.
deps-build:
	scripts/install-deps.sh build

deps-test: deps-build
	scripts/install-deps.sh test
	tests/fixtures/get-reference.sh
	tests/fixtures/get-reference-7.3.sh
	tests/fixtures/get-kmod-34.sh

# The kernel's own sign-file, which the byte-identity tests compare with.
REF_SIGN_FILE := build/reference/sign-file
$(REF_SIGN_FILE):
	tests/fixtures/get-reference.sh

# The unit tests and the whole bats suite, then both again against an
# ASan+UBSan build.
check: deps-test
	$(MAKE) check-layers
	$(MAKE) check-style
	$(MAKE) check-clang
	$(MAKE) check-unit
	$(MAKE) check-plain
	$(MAKE) check-asan

# A bats run under make check: MODSIGN_CHECK turns a missing resource that
# make check provides (the reference sign-file) into a failure, and
# scripts/check-skips.sh fails on any skip tests/allowed-skips does not
# name.  $(1): the binaries, $(2): the test directory, $(3): the report's
# directory, $(4): more environment.
define run_bats
	@rm -rf $(3) && mkdir -p $(3)
	$(4) MODSIGN_CHECK=1 MODSIGN_BIN=$(abspath $(1)) \
		MODSIGN_TEST_HOOKS=$(abspath $(TEST_HOOKS)) \
		bats --report-formatter tap -o $(abspath $(3)) $(2)
	scripts/check-skips.sh $(3)/report.tap
endef
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1

# src/common's layers and the directions they may include each other in
# (scripts/check-layers.sh says which).
check-layers:
	scripts/check-layers.sh

# The layout rules every C file keeps; why they are checked by a script and
# not by clang-format is said at the top of scripts/check-style.sh.
check-style:
	scripts/check-style.sh

# The tools built by clang too, with the same -Werror -Wformat=2: clang
# checks printf-like calls through functions gcc lets pass (a format
# handed on in a va_list), so every such function carries its attribute.
check-clang:
	$(MAKE) CC=clang BUILD=build/clang $(TOOLS:%=build/clang/bin/%)

# Unit tests of the shared layer (tests/unit/test_*.c, cmocka), one
# program per module under test, linked against the archive the tools
# link: cmocka's closing lines for each, then one line summing them all
# (scripts/run-unit.sh).
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(wildcard tests/unit/test_*.c))

$(BUILD)/unit/%: tests/unit/%.c $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(COMMON_LIB) -lcmocka $(PKG_LIBS)

check-unit:
	scripts/install-deps.sh unit
	$(MAKE) $(UNIT_BINS)
	scripts/run-unit.sh $(UNIT_BINS)

check-plain: all $(REF_SIGN_FILE)
	$(call run_bats,$(BUILD)/bin,tests/bats,$(BUILD)/check-plain)

check-asan: all $(REF_SIGN_FILE)
	$(MAKE) BUILD=build/asan SAN=1 build/asan/bin/sign-file \
		$(TOOLS:%=build/asan/bin/%) $(KERNEL_HOOKS:$(BUILD)/%=build/asan/%)
	$(ASAN_ENV) $(MAKE) BUILD=build/asan SAN=1 check-unit
	$(call run_bats,build/asan/bin,tests/bats,build/asan/check-asan,$(ASAN_ENV))

# The real dkms signing with sign-file (tests/dkms): installing dkms and
# the kernel headers takes about 20 s, but each dkms build of the test
# module takes 15-60 s on a shared machine, too slow for every make check.
check-dkms: deps-test all
	scripts/install-deps.sh dkms
	$(call run_bats,$(BUILD)/bin,tests/dkms,$(BUILD)/check-dkms)

# The real-kernel stage (tests/kernel): Debian's 5.10, 6.1, 6.12 and 7.3 kernels,
# built to trust the conformance certificates, judge every conformance
# case under QEMU; the committed expectations and verify-file must agree
# with them.  kernel-verdicts-update rewrites expected.tsv from the kernels.
kernel-verdicts: deps-build $(BINS)
	scripts/install-deps.sh kernel
	tests/kernel/kernel-verdicts.sh

kernel-verdicts-update: deps-build $(BINS)
	scripts/install-deps.sh kernel
	tests/kernel/kernel-verdicts.sh --update

# Differential mutation testing on the same kernels: N (default 300)
# random structural mutations of valid signatures for SEED (default: from
# the clock, printed first), one boot per line, verify-file must give every
# one the kernel's errno; disagreements are kept in
# tests/fixtures/conformance/mutants/ for kernel-verdicts.
kernel-mutants: deps-build $(BINS)
	scripts/install-deps.sh kernel
	tests/kernel/kernel-mutants.sh $(if $(N),-n $(N)) $(if $(SEED),-s $(SEED))

# The firmware stage (tests/firmware): OVMF with Secure Boot boots Debian's
# shim, which starts Debian's 7.3 as an EFI-stub kernel (as Debian ships it
# and with kernel.org's module check) on several UEFI/MOK variable stores;
# finit_module's verdict on each case module must match expected.tsv.
# firmware-compare then holds verify-file --machine --sysroot to each
# booted machine, printing every disagreement.
firmware-verdicts: deps-build $(BINS)
	scripts/install-deps.sh kernel firmware
	tests/firmware/firmware-verdicts.sh

firmware-verdicts-update: deps-build $(BINS)
	scripts/install-deps.sh kernel firmware
	tests/firmware/firmware-verdicts.sh --update

firmware-compare: $(BINS)
	scripts/install-deps.sh firmware
	tests/firmware/compare-verify-file.sh $(abspath $(BUILD)/bin)

# After firmware-verdicts: each fix verify-file --machine names for a
# refused or tainted case, applied to the machine's variable store and
# proven by a second boot in which the module loads (fix-proofs.sh).
firmware-fixes: $(BINS)
	scripts/install-deps.sh firmware
	tests/firmware/fix-proofs.sh $(abspath $(BUILD)/bin)

demo: deps-build
	$(MAKE) $(BINS)
	./tests/demo.sh $(abspath $(BUILD)/bin)

# The Debian packages (debian/), built from this checkout in build/deb by
# scripts/make-deb.sh; the packages themselves are copied here, for
# `apt install ./modsign_*.deb` (the tools) and
# ./modsign-kernel-hooks_*.deb (the kernel install hooks).
deb: deps-deb
	scripts/make-deb.sh build/deb
	cp build/deb/modsign_$(VERSION)_*.deb build/deb/modsign-kernel-hooks_$(VERSION)_all.deb .

deps-deb:
	scripts/install-deps.sh deb

# libFuzzer targets (clang, with ASan+UBSan).  The layer is compiled once
# into an archive each target links from; build/fuzz-cov holds the same
# with clang's source coverage instead of the sanitizers, for fuzz-long's
# report.  fuzz-smoke runs each target for FUZZ_SECONDS from the committed
# corpus (tests/fuzz/corpus/TARGET) and seeds made by the real tools;
# fuzz-long runs each to FUZZ_RUNS executions (default: per target,
# tests/fuzz/fuzz-long.sh) and prints executions, speed, crashes and the
# line coverage of the files that target parses.
FUZZ_SECONDS ?= 60
FUZZ_NAMES  := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZERS     := $(FUZZ_NAMES:%=build/fuzz/%)
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -g -O1 -Isrc/common -Isrc $(PKG_CFLAGS) \
	       -DMODSIGN_VERSION='"$(VERSION)"' -DMODSIGN_TOP='"$(CURDIR)"' \
	       -DKERNEL_IMAGE_DECOMPRESS_MAX='(64u << 10)' -MMD -MP
FUZZ_SAN    := address,undefined -fno-sanitize-recover=all
FUZZ_COV    := -fprofile-instr-generate -fcoverage-mapping
# The fuzzers reach into two wings (extract-sig's modinfo, sign-file's
# RSA import): their archive holds the wings too.
FUZZ_OBJ    := $(COMMON_SRC:src/%.c=build/fuzz/obj/%.o) \
	       $(WING_SRC:src/%.c=build/fuzz/obj/%.o)
FCOV_OBJ    := $(COMMON_SRC:src/%.c=build/fuzz-cov/obj/%.o) \
	       $(WING_SRC:src/%.c=build/fuzz-cov/obj/%.o)

fuzz: build/fuzz/libmodsign.a $(FUZZERS)
fuzz-cov: build/fuzz-cov/libmodsign.a $(FUZZ_NAMES:%=build/fuzz-cov/%)

build/fuzz/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c -o $@ $<

build/fuzz-cov/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_COV) -c -o $@ $<

build/fuzz/libmodsign.a: $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

build/fuzz-cov/libmodsign.a: $(FCOV_OBJ)
	rm -f $@ && ar rcs $@ $^

build/fuzz/%: tests/fuzz/%.c build/fuzz/libmodsign.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< \
		build/fuzz/libmodsign.a $(PKG_LIBS)

build/fuzz-cov/%: tests/fuzz/%.c build/fuzz-cov/libmodsign.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_COV) -o $@ $< \
		build/fuzz-cov/libmodsign.a $(PKG_LIBS)

-include $(FUZZ_OBJ:.o=.d) $(FCOV_OBJ:.o=.d)

build/fuzz/seeds: $(BINS)
	rm -rf $@.new
	tests/fuzz/make-seeds.sh $(abspath $(BUILD)/bin) $@.new
	rm -rf $@ && mv $@.new $@

fuzz-smoke: deps-fuzz $(BINS)
	$(MAKE) fuzz build/fuzz/seeds
	set -e; for f in $(FUZZ_NAMES); do \
		mkdir -p build/fuzz/$$f.corpus tests/fuzz/corpus/$$f; \
		echo "== $$f ($(FUZZ_SECONDS) s)"; \
		build/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) \
			-rss_limit_mb=2048 $$(tests/fuzz/fuzz-long.sh --opts $$f) \
			-print_final_stats=1 -artifact_prefix=build/fuzz/$$f- \
			build/fuzz/$$f.corpus tests/fuzz/corpus/$$f build/fuzz/seeds \
			> build/fuzz/$$f.log 2>&1 || { tail -n 40 build/fuzz/$$f.log; exit 1; }; \
		grep -E '^(Done|stat::number_of_executed_units)' build/fuzz/$$f.log; \
	done

fuzz-long: deps-fuzz $(BINS)
	$(MAKE) fuzz fuzz-cov build/fuzz/seeds
	tests/fuzz/fuzz-long.sh $(FUZZ_RUNS)

# bench/batch-bench.sh: single files, batch against xargs -P, verify,
# peak memory, efficiency against the machine's limit
bench: $(BINS)
	bench/batch-bench.sh

# valgrind memcheck over each tool's main paths
valgrind: $(BINS)
	scripts/install-deps.sh valgrind
	tests/valgrind.sh $(BUILD)/bin

deps-fuzz:
	scripts/install-deps.sh build fuzz

# One bash completion file serves all three tools; bash-completion loads
# it by command name, hence the links.  zsh reads #compdef from _modsign.
install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/
	$(if $(SIGN_CORE),$(INSTALL) -d $(DESTDIR)$(PKGLIBDIR))
	$(if $(SIGN_CORE),$(INSTALL) -m 0755 $(SIGN_CORE) $(DESTDIR)$(PKGLIBDIR)/)
	$(INSTALL) -m 0644 $(MANS) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 $(BUILD)/completions/modsign.bash \
		$(DESTDIR)$(BASHCOMPDIR)/sign-file
	ln -sf sign-file $(DESTDIR)$(BASHCOMPDIR)/extract-sig
	ln -sf sign-file $(DESTDIR)$(BASHCOMPDIR)/verify-file
	$(INSTALL) -m 0644 $(BUILD)/completions/_modsign $(DESTDIR)$(ZSHCOMPDIR)/
	$(INSTALL) -d $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d \
		$(DESTDIR)$(SYSCONFDIR)/kernel/header_postinst.d \
		$(DESTDIR)$(KERNELINSTALLDIR) $(DESTDIR)$(SYSCONFDIR)/modsign
	$(call fill_hook,hooks/modsign-kernel-hook.in,$(DESTDIR)$(PKGLIBDIR)/modsign-kernel-hook)
	$(call fill_hook,hooks/postinst.in,$(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d/zz-modsign)
	$(call fill_hook,hooks/header_postinst.in,$(DESTDIR)$(SYSCONFDIR)/kernel/header_postinst.d/zz-modsign)
	$(call fill_hook,hooks/kernel-install.in,$(DESTDIR)$(KERNELINSTALLDIR)/85-modsign.install)
	$(INSTALL) -m 0644 man/modsign-kernel-hook.8 $(DESTDIR)$(MANDIR)/man8/
	# an administrator's settings are never overwritten
	[ -e $(DESTDIR)$(SYSCONFDIR)/modsign/kernel-hook.conf ] || \
		$(INSTALL) -m 0644 hooks/kernel-hook.conf $(DESTDIR)$(SYSCONFDIR)/modsign/

# Ubuntu ships /usr/bin/kmodsign in sbsigntool, so the name is not taken
# by default: this adds kmodsign as a link to sign-file (which then reads
# kmodsign's command line), with its man page and bash completion links.
install-kmodsign: install
	ln -sf sign-file $(DESTDIR)$(BINDIR)/kmodsign
	ln -sf sign-file.1 $(DESTDIR)$(MANDIR)/man1/kmodsign.1
	ln -sf sign-file $(DESTDIR)$(BASHCOMPDIR)/kmodsign

clean:
	rm -rf build man/*.1

-include $(COMMON_OBJ:.o=.d) $(WING_OBJ:.o=.d) $(TOOLS:%=$(BUILD)/obj/%.d) $(FRONT_OBJ:.o=.d) \
	$(UNIT_BINS:=.d)
