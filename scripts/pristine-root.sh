#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pristine-root.sh [--cache-dir CACHE] SUITE DIR
#
# Prove the README's quick start on a Debian nobody has touched: make a
# fresh root of SUITE in DIR with debootstrap, put a clean clone of this
# repository's committed HEAD in DIR/root/modsign, and run there, as root
# and with nothing installed beyond what debootstrap gives, exactly the
# README's two commands:
#
#     make demo
#     make check
#
# Their deps targets (scripts/install-deps.sh) must install everything
# else; that is what this proves.  Before them, plain `make` must stop
# with one line naming `make deps-build`.  Then the Debian package, end to end
# (scripts/check-deb.sh: make deb, a second build compared byte for
# byte, lintian, hardening-check, apt install, autopkgtest).  Exits
# non-zero if any fails.
#
#   SUITE  bookworm (Debian 12, the buildd variant: make is there) or
#          trixie (Debian 13, minbase: the README's "apt-get install make"
#          comes first)
#   DIR    a new or empty directory (made anew if it exists and holds a
#          previous root of this script)
#   --no-deb    skip the package stage (CI runs it in roots of its own,
#          beside the one that runs make check)
#   --no-check  skip make check (the package stage then fetches the
#          references itself): a quicker run, for the package stage
#   --no-rebuild  the package stage without its second build and cmp
#   --smoke-only  the package stage's autopkgtest runs the hooks' smoke
#          test alone (the command suite has just run as make check here)
#          (scripts/check-deb.sh --no-rebuild: CI proves the build
#          reproducible in one root)
#   --kernel-chain LOG  last, in the same root: the kernel hooks in the
#          real postinst chain (scripts/kernel-chain.sh: a real kernel,
#          dkms and a DKMS package, a second kernel's apt-get install,
#          kernel-install add in a BLS layout; bookworm only), with
#          modsign from the package stage's .debs, or make install when
#          --no-deb; its whole transcript in LOG and in this output
#   --cache-dir CACHE  keep debootstrap's and apt's downloaded .debs in
#          CACHE/SUITE between runs (a rerun skips the downloads; the
#          root itself is still made from scratch)
#
# The mirror is the host's own (its apt sources); /proc, /dev, /dev/pts
# and /sys are mounted in the root and /tmp is a tmpfs.  Everything is
# unmounted on every exit path.  Each stage prints its elapsed time.
set -eu

usage() {
	echo "usage: $0 [--no-check] [--no-deb] [--no-rebuild] [--smoke-only] [--kernel-chain LOG] [--cache-dir CACHE] bookworm|trixie DIR" >&2
	exit 2
}

cache=""
chain=""
check=1
deb=1
debargs=""
while [ $# -gt 0 ]; do
	case $1 in
	--cache-dir) [ $# -ge 2 ] || usage; cache=$2; shift 2 ;;
	--cache-dir=*) cache=${1#*=}; shift ;;
	--kernel-chain) [ $# -ge 2 ] || usage; chain=$2; shift 2 ;;
	--kernel-chain=*) chain=${1#*=}; shift ;;
	--no-check) check=""; shift ;;
	--no-deb) deb=""; shift ;;
	--no-rebuild) debargs="$debargs --no-rebuild"; shift ;;
	--smoke-only) debargs="$debargs --smoke-only"; shift ;;
	-h|--help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage
suite=$1
case $suite in
bookworm) variant=buildd ;;
trixie) variant=minbase ;;
*) usage ;;
esac
# The chain installs Debian 12's kernels and dkms (its cases are that
# dkms's); Debian 13's is the issue's next step.
[ -z "$chain" ] || [ "$suite" = bookworm ] || usage
[ "$(id -u)" = 0 ] || { echo "$0: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
command -v debootstrap > /dev/null ||
	{ echo "$0: debootstrap missing: scripts/install-deps.sh pristine" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$2"
dir=$(cd "$2" && pwd)
[ "$dir" != / ] || usage

# The host's Debian mirror, and its security archive when it has one.
. /etc/os-release
mirror=$("$top/scripts/host-mirror.sh")
security=$("$top/scripts/host-mirror.sh" "$VERSION_CODENAME-security" 2>/dev/null) || security=

# Timing: every stage says how long it took; the summary repeats them.
t0=$(date +%s)
summary=""
stage() { # name command...
	name=$1; shift
	echo "== [$suite] $name"
	s=$(date +%s)
	rc=0
	"$@" || rc=$?
	e=$(($(date +%s) - s))
	echo "== [$suite] $name: $e s (exit $rc)"
	summary="$summary
  $name: $e s (exit $rc)"
	return $rc
}

# Unmount whatever is mounted at or below the root, deepest first: ours
# and any a test left behind.
unmount_all() {
	awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts |
		sort -r | while read -r m; do
			umount "$m" 2>/dev/null || umount -l "$m"
		done
}
finish() {
	rc=$?
	trap - EXIT INT TERM HUP
	unmount_all || true
	echo "== [$suite] summary ($mirror, debootstrap --variant=$variant):$summary"
	echo "== [$suite] total: $(($(date +%s) - t0)) s, exit $rc"
	exit $rc
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A previous root of this script is removed (its mounts first); any
# other non-empty directory is refused.
unmount_all
if [ -n "$(ls -A "$dir")" ]; then
	[ -f "$dir/etc/debian_version" ] ||
		{ echo "$0: $dir is not empty and holds no Debian root" >&2; exit 1; }
	rm -rf --one-file-system "$dir"
	mkdir -p "$dir"
fi

bootstrap() {
	set -- --variant="$variant"
	if [ -n "$cache" ]; then
		mkdir -p "$cache/$suite/debootstrap"
		set -- "$@" --cache-dir="$(cd "$cache/$suite/debootstrap" && pwd)"
	fi
	debootstrap "$@" "$suite" "$dir" "$mirror" > "$dir.debootstrap.log" 2>&1 ||
		{ tail -n 30 "$dir.debootstrap.log"; return 1; }
	# As the installer leaves a new system: the release, its updates and
	# its security archive.
	{
		echo "deb $mirror $suite main"
		echo "deb $mirror $suite-updates main"
		[ -z "$security" ] || echo "deb $security $suite-security main"
	} > "$dir/etc/apt/sources.list"
	cp /etc/resolv.conf "$dir/etc/resolv.conf"
}
stage "debootstrap $suite" bootstrap

mount -t proc proc "$dir/proc"
mount -t sysfs sysfs "$dir/sys"
mount --bind /dev "$dir/dev"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$dir/dev/pts"
mount -t tmpfs -o mode=1777 tmpfs "$dir/tmp"
if [ -n "$cache" ]; then
	mkdir -p "$cache/$suite/apt"
	mount --bind "$cache/$suite/apt" "$dir/var/cache/apt/archives"
fi

# The committed HEAD, as `git clone` gives it to a new user: no build/,
# nothing uncommitted.
stage "clone $(git -C "$top" rev-parse --short HEAD)" \
	git clone -q --no-hardlinks "$top" "$dir/root/modsign"

# A login shell's environment, nothing of the host's; TMPDIR unset, so
# /tmp (the tmpfs) it is.
in_root() {
	chroot "$dir" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
		SHELL=/bin/bash TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "cd /root/modsign && $1"
}
# The README's prerequisite on a minimal system: make itself.
command_make() {
	in_root 'command -v make > /dev/null ||
		{ apt-get update -q && apt-get install -y -q --no-install-recommends make; }'
}
stage "apt-get install make" command_make

# Plain make before anything is installed: it must stop with one line
# that names the command installing what it needs, never with the raw
# complaints of pkg-config or the compiler.
plain_make() {
	in_root 'out=$(make 2>&1) && { echo "plain make passed with no build dependencies installed"; exit 1; }
		printf "%s\n" "$out"
		[ "$(printf "%s\n" "$out" | wc -l)" -eq 1 ] &&
			printf "%s\n" "$out" | grep -q "install them with: make deps-build"'
}
rc=0
stage "plain make: one line naming make deps-build" plain_make || rc=1
stage "make demo" in_root "make demo" || rc=1
[ -z "$check" ] || stage "make check" in_root "make check" || rc=1
[ -z "$deb" ] || stage "check-deb" in_root "scripts/check-deb.sh $debargs" || rc=1
# The transcript whole in LOG (a build artefact) and here.
kernel_chain() {
	crc=0
	in_root "scripts/kernel-chain.sh --throwaway-root" > "$chain" 2>&1 || crc=$?
	cat "$chain"
	return $crc
}
if [ -n "$chain" ]; then
	mkdir -p "$(dirname "$chain")"
	chain=$(cd "$(dirname "$chain")" && pwd)/${chain##*/}
	stage "kernel chain" kernel_chain || rc=1
fi
exit $rc
