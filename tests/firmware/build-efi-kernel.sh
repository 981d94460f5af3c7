#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-efi-kernel.sh FLAVOUR INITRAMFS.list
#
# Build Debian's 7.3 source as an EFI-stub kernel for the firmware stage and
# print the path of its image.  INITRAMFS.list (gen_init_cpio format) is
# built into the image, as is the command line: shim passes neither.
#
# The tree is the kernel harness's 7.3 tree of $MODSIGN_KERNEL_CACHE, whose
# configuration (tests/kernel/config-7.3.fragment) already is this stage's:
# the stage changes only its built-in keys, SBAT file and initramfs, and a
# flavour its few options (flavour-NAME.fragment) and per-object hooks.
# Every flavour comes from that one tree: switching recompiles a few
# objects and relinks.  FW is the cache's firmware/ directory; it gets
# FW/bzImage-FLAVOUR, FW/config-FLAVOUR (the .config as verify-file is
# given it) and FW/release-FLAVOUR.
#
# Flavours (one vendor row each, as its public source shows it; README):
#   debian      the tree as Debian ships its code: .platform retry, Secure
#               Boot lockdown (integrity), SYSTEM_REVOCATION_LIST=y
#   mainline    kernel.org's module check (mainline-signing.h: no retry)
#   debian-ima  debian + Debian's own config: IMA_ARCH_POLICY=y, no
#               SYSTEM_REVOCATION_LIST
#   fedora      retry, IMA_ARCH_POLICY, CA restriction on .machine, no
#               SYSTEM_REVOCATION_LIST; release 7.3.4-200.fc43.x86_64
#   suse        retry, IMA_ARCH_POLICY, lockdown confidentiality
#               (suse-lockdown.h), SYSTEM_REVOCATION_LIST=y
#   ubuntu      retry, IMA_ARCH_POLICY, SYSTEM_REVOCATION_LIST=y; its
#               lockdown option under Ubuntu's name in FW/config-ubuntu
#   arch        no retry, no Secure Boot lockdown, no IMA policy, and
#               load_uefi_certs() as kernel.org's up to 7.0 (arch-load-uefi.h:
#               MOK loaded only with IMA's architecture policy); release
#               7.0.0-arch1-1, so that verify-file judges it as the 7.0
#               kernel it reproduces
set -euo pipefail
PROG=build-efi-kernel.sh
FW_DIR=$(cd "$(dirname "$0")" && pwd)
. "$FW_DIR/../kernel/lib.sh"

FLAVOURS="debian mainline arch suse ubuntu fedora debian-ima"
[ $# -eq 2 ] || { echo "usage: $PROG FLAVOUR INITRAMFS.list (FLAVOUR: ${FLAVOURS// /, })" >&2; exit 2; }
FLAVOUR=$1
LIST=$(cd "$(dirname "$2")" && pwd)/${2##*/}
# The version line (/proc/version, the image's banner) says who built the
# kernel, which is how verify-file tells the vendors apart
# (src/common/trust/vendors.c vendors_detect()): each flavour carries the
# builder, UTS version and, where the vendor's marks are in it, the
# release its vendor's packaging sets.  The mainline flavour says what it
# is (no vendor: judged as kernel.org's).
SIGNING_CFLAGS= LOAD_UEFI_CFLAGS= SECUREBOOT_CFLAGS= FRAG= RELEASE_ARG=
BUILD_VERSION=1 BUILD_TS=
case $FLAVOUR in
debian | debian-ima)
	# debian/rules.real: debian-kernel@lists.debian.org, "Debian VERSION"
	# (below, from the source package's version)
	BUILD_USER=debian-kernel BUILD_HOST=lists.debian.org
	;;
mainline)
	SIGNING_CFLAGS="-include $FW_DIR/mainline-signing.h"
	BUILD_USER=modsign BUILD_HOST=kernel-org-variant
	BUILD_TS="kernel.org module signature check"
	;;
fedora)
	# kernel.spec: EXTRAVERSION = -%{release}.%{_target_cpu}; built by mock
	RELEASE_ARG=EXTRAVERSION=-200.fc43.x86_64
	BUILD_USER=mockbuild BUILD_HOST=modsign-fedora-flavour
	BUILD_TS="Sun Nov  2 00:00:00 UTC 2025"
	;;
suse)
	SECUREBOOT_CFLAGS="-include $FW_DIR/suse-lockdown.h"
	# rpm/kernel-binary.spec.in: KBUILD_BUILD_USER=geeko, _HOST=buildhost
	BUILD_USER=geeko BUILD_HOST=buildhost
	BUILD_TS="Sun Nov  2 00:00:00 UTC 2025 (modsign suse flavour)"
	;;
ubuntu)
	# debian/rules.d: the UTS version "#ABI-Ubuntu"
	BUILD_USER=buildd BUILD_HOST=modsign-ubuntu-flavour
	BUILD_VERSION=53-Ubuntu BUILD_TS="Sun Nov  2 00:00:00 UTC 2025"
	;;
arch)
	SIGNING_CFLAGS="-include $FW_DIR/mainline-signing.h"
	LOAD_UEFI_CFLAGS="-include $FW_DIR/arch-load-uefi.h"
	# Arch's PKGBUILD builds as linux@archlinux; releases "7.0.13-arch1-1"
	RELEASE_ARG=KERNELVERSION=7.0.0-arch1-1
	BUILD_USER=linux BUILD_HOST=archlinux
	BUILD_TS="Sun, 02 Nov 2025 00:00:00 +0000"
	;;
*) die "unknown flavour '$FLAVOUR' (${FLAVOURS// /, })" ;;
esac
[ ! -f "$FW_DIR/flavour-$FLAVOUR.fragment" ] || FRAG=$FW_DIR/flavour-$FLAVOUR.fragment
[ -f "$LIST" ] || die "$LIST: no such initramfs list"
kh_paths 7.3
FW=$KH_CACHE/firmware
mkdir -p "$FW" "$KH_LINEDIR"
: >"$KH_LINEDIR/build.log"

if [ ! -f "$KH_LINEDIR/.extracted" ]; then
	[ -f "$KH_TARBALL" ] || "$KH_DIR/fetch-source.sh" "$LINE" >/dev/null
	t=$(now)
	rm -rf "$KH_TREE"
	tar -xJf "$KH_TARBALL" -C "$KH_LINEDIR"
	touch "$KH_LINEDIR/.extracted"
	note "extracted $KH_TARBALL in $(elapsed "$t")s"
fi

# The flavour hooks: per-object flags from the make command line (empty
# for the kernel stage and the debian flavour, whose commands then do not
# change: kbuild compares them whitespace-stripped).
hook() { # MAKEFILE-DIR OBJECT VARIABLE
	local mk=$KH_TREE/$1/Makefile
	[ -f "$mk" ] || die "$mk missing: where does 7.3 keep $2?"
	grep -qF "# modsign firmware stage: $3" "$mk" ||
		printf '\n# modsign firmware stage: %s\nCFLAGS_%s += $(%s)\n' "$3" "$2" "$3" >>"$mk"
}
# mod_verify_sig(): mainline-signing.h
hook kernel/module signing.o MODSIGN_SIGNING_CFLAGS
# load_uefi_certs(): arch-load-uefi.h (security/integrity/Makefile builds
# platform_certs/load_uefi.o)
hook security/integrity platform_certs/load_uefi.o MODSIGN_LOAD_UEFI_CFLAGS
# efi_set_secure_boot()'s lockdown level: suse-lockdown.h
hook drivers/firmware/efi secureboot.o MODSIGN_SECUREBOOT_CFLAGS

# The 7.3 line's configuration (the kernel stage's, built from the same
# fragments) with this stage's own paths and the flavour's options.
CONF=$KH_TOP/tests/fixtures/conformance
GEN=$FW/generated.fragment
{
	printf '# generated by %s\n' "$PROG"
	printf 'CONFIG_SYSTEM_TRUSTED_KEYS="%s"\n' "$KH_TOP/tests/kernel/keys/trusted-cert.pem"
	printf 'CONFIG_SYSTEM_BLACKLIST_HASH_LIST="%s"\n' "$CONF/blacklist-hashes.txt"
	printf 'CONFIG_SYSTEM_REVOCATION_KEYS="%s"\n' "$CONF/revoked.pem"
	printf 'CONFIG_EFI_SBAT_FILE="%s"\n' "$FW_DIR/sbat.csv"
	# gzip, not tinyconfig's xz: each flavour is linked and compressed
	# twice, and xz takes most of that time (only arch/x86/boot/compressed
	# depends on it)
	printf 'CONFIG_KERNEL_GZIP=y\n'
	printf 'CONFIG_INITRAMFS_SOURCE="%s"\n' "$LIST"
} >"$GEN"
# Two steps, each redone only when its inputs changed: the stage's base
# (tinyconfig + the 7.3 line's fragments + GEN: the kernel stage's
# configuration with this stage's paths), kept as FW/config-base, then the
# flavour's fragment merged onto a copy of it.  The stamps leave out the
# initramfs: each flavour is built twice, with and without its cases, and
# that one string needs no new configuration.
stamp() { # FILES...
	cat "$@" | grep -v '^CONFIG_INITRAMFS_SOURCE=' | sha256sum | cut -d' ' -f1
}
BASE_FRAGS=("$KH_DIR/config.fragment" "$KH_DIR/config-7.3.fragment" "$GEN")
base_want=$(stamp "${BASE_FRAGS[@]}")
want=$(stamp "${BASE_FRAGS[@]}" $FRAG)
if [ -f "$KH_TREE/.config" ] &&
	[ "$(cat "$FW/.config-stamp" 2>/dev/null)" = "$want" ]; then
	if ! grep -qxF "CONFIG_INITRAMFS_SOURCE=\"$LIST\"" "$KH_TREE/.config"; then
		"$KH_TREE/scripts/config" --file "$KH_TREE/.config" \
			--set-str INITRAMFS_SOURCE "$LIST"
		kh_kmake olddefconfig
	fi
else
	t=$(now)
	# the kernel stage's configuration is no longer in the tree
	rm -f "$KH_LINEDIR/.config-stamp" "$FW/.config-stamp"
	if [ ! -f "$FW/config-base" ] ||
		[ "$(cat "$FW/config-base.stamp" 2>/dev/null)" != "$base_want" ]; then
		kh_kmake tinyconfig
		(cd "$KH_TREE" && ./scripts/kconfig/merge_config.sh -m .config "${BASE_FRAGS[@]}") \
			>>"$KH_LINEDIR/build.log" 2>&1 || die "merge_config.sh failed"
		kh_kmake olddefconfig
		cp "$KH_TREE/.config" "$FW/config-base"
		echo "$base_want" >"$FW/config-base.stamp"
	fi
	cp "$FW/config-base" "$KH_TREE/.config"
	"$KH_TREE/scripts/config" --file "$KH_TREE/.config" --set-str INITRAMFS_SOURCE "$LIST"
	if [ -n "$FRAG" ]; then
		(cd "$KH_TREE" && ./scripts/kconfig/merge_config.sh -m .config "$FRAG") \
			>>"$KH_LINEDIR/build.log" 2>&1 || die "merge_config.sh failed"
	fi
	kh_kmake olddefconfig
	echo "$want" >"$FW/.config-stamp"
	note "$FLAVOUR: configured in $(elapsed "$t")s"
fi
missing=
for sym in EFI EFI_STUB EFI_SBAT EFIVAR_FS SECURITY_LOCKDOWN_LSM \
	INTEGRITY INTEGRITY_PLATFORM_KEYRING INTEGRITY_MACHINE_KEYRING LOAD_UEFI_KEYS \
	SECONDARY_TRUSTED_KEYRING SYSTEM_BLACKLIST_KEYRING MODULE_SIG CMDLINE_BOOL \
	SERIAL_8250_CONSOLE BLK_DEV_INITRD DEVTMPFS PROC_FS SYSFS MODULE_UNLOAD FUTEX; do
	grep -qx "CONFIG_$sym=y" "$KH_TREE/.config" || missing="$missing $sym"
done
grep -q '^CONFIG_MODULE_SIG_FORCE=y' "$KH_TREE/.config" && missing="$missing !MODULE_SIG_FORCE"
# what the flavour's fragment sets must have survived olddefconfig
if [ -n "$FRAG" ]; then
	while read -r l; do
		case $l in
		CONFIG_*=*) grep -qxF "$l" "$KH_TREE/.config" || missing="$missing ${l%%=*}" ;;
		"# CONFIG_"*" is not set")
			l=${l#\# }
			! grep -q "^${l%% *}=" "$KH_TREE/.config" || missing="$missing !${l%% *}" ;;
		esac
	done <"$FRAG"
fi
if [ -n "$missing" ]; then
	rm -f "$FW/.config-stamp"
	die "$FLAVOUR: .config lacks required options:$missing"
fi

t=$(now)
case $FLAVOUR in
debian | debian-ima)
	BUILD_TS="Debian $(awk '{ print $2 }' "$KH_LINEDIR/source-version" 2>/dev/null)" ;;
esac
# shellcheck disable=SC2086
kh_kmake MODSIGN_SIGNING_CFLAGS="$SIGNING_CFLAGS" \
	MODSIGN_LOAD_UEFI_CFLAGS="$LOAD_UEFI_CFLAGS" \
	MODSIGN_SECUREBOOT_CFLAGS="$SECUREBOOT_CFLAGS" $RELEASE_ARG \
	KBUILD_BUILD_USER="$BUILD_USER" KBUILD_BUILD_HOST="$BUILD_HOST" \
	KBUILD_BUILD_VERSION="$BUILD_VERSION" KBUILD_BUILD_TIMESTAMP="$BUILD_TS" \
	bzImage modules
# the release as built (make kernelrelease would compute it anew)
rel=$(cat "$KH_TREE/include/config/kernel.release")
cp "$KH_BZIMAGE" "$FW/bzImage-$FLAVOUR.tmp"
mv "$FW/bzImage-$FLAVOUR.tmp" "$FW/bzImage-$FLAVOUR"
# The .config verify-file is given, as the vendor's kernel has it.
# Ubuntu's lockdown patch is Debian's under another option name
# (LOCK_DOWN_IN_SECURE_BOOT).  The arch flavour reproduces a 7.0 kernel,
# whose Kconfig had no HAVE_ARCH_GET_SECUREBOOT (arch/Kconfig, added by
# the 7.1 change its load_uefi.c lacks).
case $FLAVOUR in
ubuntu)
	sed 's/^CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT=/CONFIG_LOCK_DOWN_IN_SECURE_BOOT=/' \
		"$KH_TREE/.config" >"$FW/config-$FLAVOUR" ;;
arch)
	grep -v '^CONFIG_HAVE_ARCH_GET_SECUREBOOT=' "$KH_TREE/.config" >"$FW/config-$FLAVOUR" ;;
*)
	cp "$KH_TREE/.config" "$FW/config-$FLAVOUR" ;;
esac
echo "$rel" >"$FW/release-$FLAVOUR"
note "$FLAVOUR: kernel build took $(elapsed "$t")s ($rel)"
echo "$FW/bzImage-$FLAVOUR"
