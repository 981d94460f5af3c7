#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ossl35-root.sh up DIR [PATH...] | down DIR
#
# The kernel stage needs OpenSSL >= 3.5 twice: to make the ML-DSA cases
# (gen-mldsa-cases.sh, and the 7.3 kernel's own sign-file built against
# it) and to hold verify-file to the kernel on them (a verify-file built
# against 3.0 can only say CANNOT-CHECK there).  Debian 12 has 3.0, so
# on Debian 12 this makes a Debian 13 root in DIR that sees this tree at
# the same path:
#
#   up    debootstrap trixie (minbase, from the host's own mirror:
#         scripts/host-mirror.sh) unless DIR already holds the root this
#         script made, install modsign's build packages and gcc there
#         (scripts/install-deps.sh build, run inside), then mount /proc,
#         /dev, a tmpfs /tmp, this tree and each PATH (binds, same paths)
#         in it, and print the command prefix that runs a program there:
#         "chroot DIR"
#   down  unmount everything under DIR (the root stays, for the next run)
#
# DIR must not lie inside this tree or a PATH: the root sees them, and a
# root inside what it sees would see itself.
#
# Needs root (debootstrap, chroot, mount).  Every step says how long it
# took on stderr.
set -euo pipefail
PROG=ossl35-root.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] && { [ "$1" = up ] || [ "$1" = down ]; } ||
	{ echo "usage: $PROG up DIR [PATH...] | down DIR" >&2; exit 2; }
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
shift 2
[ "$dir" != / ] || die "refusing / as the root"
binds=("$KH_TOP")
for p in "$@"; do
	# a fresh clone has no kernel cache yet: the root binds it all the same
	mkdir -p "$p"
	binds+=("$(cd "$p" && pwd)")
done
for p in "${binds[@]}"; do
	case $dir/ in
	"$p"/*) die "$dir lies inside $p, which the root sees: put it elsewhere" ;;
	esac
done

unmount_all() {
	awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts |
		sort -r | while read -r m; do
			umount "$m" 2>/dev/null || umount -l "$m"
		done
}
if [ "$cmd" = down ]; then
	unmount_all
	exit 0
fi

[ "$(id -u)" = 0 ] || die "needs root to make a Debian 13 root (or set MODSIGN_OSSL35_RUN to a prefix that runs OpenSSL >= 3.5 programs)"
command -v debootstrap >/dev/null || die "debootstrap missing: scripts/install-deps.sh kernel"

# The root is remade when this script's package set changes.
stamp="$dir/.modsign-ossl35-root"
want="trixie minbase; install-deps build; gcc"
unmount_all
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	t=$(now)
	[ -z "$(ls -A "$dir")" ] || [ -f "$dir/etc/debian_version" ] ||
		die "$dir is not empty and holds no Debian root"
	rm -rf --one-file-system "$dir"
	mkdir -p "$dir"
	mirror=$("$KH_TOP/scripts/host-mirror.sh")
	debootstrap --variant=minbase trixie "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
		{ tail -n 30 "$dir.debootstrap.log" >&2; die "debootstrap trixie from $mirror failed"; }
	echo "deb $mirror trixie main" >"$dir/etc/apt/sources.list"
	cp /etc/resolv.conf "$dir/etc/resolv.conf"
	note "debootstrap trixie: $(elapsed "$t")s"
fi
mount -t proc proc "$dir/proc"
mount --bind /dev "$dir/dev"
mount -t tmpfs -o mode=1777 tmpfs "$dir/tmp"
for p in "${binds[@]}"; do
	mkdir -p "$dir$p"
	mount --bind "$p" "$dir$p"
done
if [ ! -f "$stamp" ]; then
	t=$(now)
	chroot "$dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
		"apt-get update -q && sh '$KH_TOP/scripts/install-deps.sh' build &&
		 apt-get install -y -q --no-install-recommends gcc libc6-dev" \
		>"$dir.install.log" 2>&1 ||
		{ tail -n 30 "$dir.install.log" >&2; unmount_all; die "installing packages in $dir failed"; }
	echo "$want" >"$stamp"
	note "packages in the Debian 13 root: $(elapsed "$t")s"
fi
chroot "$dir" openssl list -signature-algorithms 2>/dev/null | grep -q ML-DSA-65 ||
	{ unmount_all; die "$dir: its openssl cannot make ML-DSA signatures"; }
echo "chroot $dir"
