# SPDX-License-Identifier: GPL-2.0-or-later
# modsign: sign-file, extract-sig, verify-file.  Plain make, pkg-config.

VERSION     := 0.1.0
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DESTDIR     ?=
PKG_CONFIG  ?= pkg-config
CC          ?= cc
INSTALL     ?= install

BUILD       ?= build
SAN         ?=

PKGS        := libcrypto json-c
# p11-kit-1 for <p11-kit/pkcs11.h> only: PKCS#11 modules are dlopen()ed.
PKG_CFLAGS  := $(shell $(PKG_CONFIG) --cflags $(PKGS) p11-kit-1)
PKG_LIBS    := $(shell $(PKG_CONFIG) --libs $(PKGS))

CFLAGS      ?= -O2 -g
WARN        := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla
ALL_CFLAGS  := -std=gnu11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) -Isrc/common \
	       -DMODSIGN_VERSION='"$(VERSION)"' -MMD -MP $(CFLAGS)
ALL_LDFLAGS := $(LDFLAGS)
ifneq ($(SAN),)
ALL_CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
	       -fno-sanitize-recover=all -O1
ALL_LDFLAGS += -fsanitize=address,undefined
endif

TOOLS       := $(sort $(patsubst src/%.c,%,$(wildcard src/*.c)))
COMMON_SRC  := $(wildcard src/common/*.c)
COMMON_OBJ  := $(COMMON_SRC:src/%.c=$(BUILD)/obj/%.o)
BINS        := $(TOOLS:%=$(BUILD)/bin/%)
MANS        := $(TOOLS:%=man/%.1)

.SECONDARY:
.PHONY: all check check-plain check-asan demo install clean
all: $(BINS) $(MANS)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/bin/%: $(BUILD)/obj/%.o $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Man pages come from --help/--version plus an include with EXIT STATUS,
# ENVIRONMENT and EXAMPLES, so they cannot lag the code.
man/%.1: $(BUILD)/bin/% man/%.h2m man/common.h2m
	help2man --no-info --no-discard-stderr --version-string=$(VERSION) \
		--include=man/$*.h2m --include=man/common.h2m -o $@ $(BUILD)/bin/$*

# The whole bats suite, then again against an ASan+UBSan build.
check: check-plain check-asan

check-plain: $(BINS)
	MODSIGN_BIN=$(abspath $(BUILD)/bin) bats tests/bats

check-asan:
	$(MAKE) BUILD=build/asan SAN=1 build/asan/bin/sign-file \
		$(TOOLS:%=build/asan/bin/%)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	MODSIGN_BIN=$(abspath build/asan/bin) bats tests/bats

demo: $(BINS)
	./tests/demo.sh $(abspath $(BUILD)/bin)

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 $(MANS) $(DESTDIR)$(MANDIR)/man1/

clean:
	rm -rf build man/*.1

-include $(COMMON_OBJ:.o=.d) $(TOOLS:%=$(BUILD)/obj/%.d)
