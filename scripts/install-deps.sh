#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# install-deps.sh GROUP...: make sure the Debian packages a make target
# needs are installed, so that `make demo` and `make check` work on a fresh
# machine.  Installs what is missing when run as root (apt-get), otherwise
# prints the command to run.  The one list of packages; .ci/run uses it too.
#
#   build   compile the tools and their man pages
#   test    run the bats suite (and fetch the reference sign-file) and
#           the unit tests
#   unit    build the unit tests (make check-unit): cmocka
#   fuzz    build and run the libFuzzer targets
#   valgrind  memcheck the main paths
#   kernel  build Debian's 5.10, 6.1, 6.12 and 7.3 kernels and judge the
#           conformance corpus under QEMU (make kernel-verdicts,
#           tests/kernel); 7.3's and 5.10's sources are not in Debian 12:
#           apt-get download fetches them (trixie-backports,
#           bullseye-security) through a private
#           apt configuration (tests/kernel/fetch-source.sh), which needs
#           the archive keyring; the ML-DSA cases need OpenSSL 3.5,
#           which on Debian 12 comes from a Debian 13 root that
#           tests/kernel/ossl35-root.sh makes with debootstrap
#   firmware  the firmware stage (make firmware-verdicts, tests/firmware):
#           Debian 12's OVMF with Secure Boot, the Microsoft-signed shim,
#           sbsign for the kernel image, mtools/dosfstools for the ESP
#           image, and what virt-fw-vars (fetched from Debian 13 by
#           tests/firmware/fetch-virt-firmware.sh) imports on Debian 12
#   dkms    build, sign and install a module with Debian's dkms against
#           the headers of the current Debian kernel (make check-dkms)
#   pristine  make the fresh Debian roots of scripts/pristine-root.sh
#   deb     make deb: debian/control's Build-Depends and dpkg-buildpackage
#   debcheck  scripts/check-deb.sh: lintian, autopkgtest, hardening-check
set -eu

pkgs_build="build-essential pkg-config libssl-dev libjson-c-dev openssl help2man musl-tools
	zlib1g-dev liblzma-dev libzstd-dev liblz4-dev libbz2-dev libp11-kit-dev"
# The unit tests' framework (tests/unit/, make check-unit).
pkgs_unit="libcmocka-dev"
# Every command a test calls: a missing one fails its test naming the
# package (tests/bats/helpers.bash require_cmd), so add it here first.
pkgs_test="clang bats bats-support bats-assert bats-file kmod python3 ca-certificates
	xz-utils zstd gzip lz4 bzip2 binutils efitools p11-kit p11-kit-modules
	softhsm2 opensc opensc-pkcs11 libengine-pkcs11-openssl bash-completion zsh
	man-db jq
	strace e2fsprogs $pkgs_unit"
# pkcs11-provider exists from Debian 13 on: there the PKCS#11 tests go
# through it (sign-file's default route); Debian 12 has only the engine.
# (madison lists real versions only: apt-cache show also succeeds for a
# name another package merely refers to, as modsign's Suggests does)
if [ -n "$(apt-cache madison pkcs11-provider 2>/dev/null)" ]; then
	pkgs_test="$pkgs_test pkcs11-provider"
fi
pkgs_fuzz="clang libclang-rt-dev"
pkgs_valgrind="valgrind"
pkgs_kernel="linux-source-6.1 linux-source-6.12 build-essential bc bison flex
	libelf-dev libssl-dev cpio kmod xz-utils qemu-system-x86 busybox-static
	gawk
	openssl python3 debian-archive-keyring debootstrap"
pkgs_firmware="ovmf shim-signed grub-efi-amd64-signed sbsigntool mtools
	dosfstools qemu-system-x86 python3-cryptography
	python3-importlib-resources debian-archive-keyring xxd jq"
# The metapackage pulls the headers of the current ABI (linux-headers-6.1.0-N)
# with linux-kbuild-6.1 and gcc-12: about 20 s on a fresh Debian 12.
pkgs_dkms="dkms linux-headers-$(dpkg --print-architecture)"
# debian/control's Build-Depends (pkgconf is pkg-config's real package).
pkgs_deb="$pkgs_build pkgconf debhelper dpkg-dev"
pkgs_debcheck="lintian autopkgtest devscripts bats bats-support bats-assert bats-file python3"
pkgs_pristine="debootstrap debian-archive-keyring git"

want=""
for g in "$@"; do
	eval "want=\"\$want \$pkgs_$g\""
done

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "modsign needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get install$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet: update first, once.
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
