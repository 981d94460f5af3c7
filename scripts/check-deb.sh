#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-deb.sh: the Debian package (debian/) end to end, as root on a
# Debian 12 or 13 machine with this checkout built (scripts/pristine-root.sh
# runs it in its fresh roots after make check):
#
#   1. make deb, then the same files built again in another directory:
#      the .debs must be byte-identical (reproducible build)
#   2. lintian --fail-on error,warning on the .changes
#   3. hardening-check on every program in the package
#   4. the two .debs hold what make install does, the kernel hooks in
#      modsign-kernel-hooks only (tests/deb/package.bats)
#   5. apt install ./modsign_*.deb ./modsign-kernel-hooks_*.deb;
#      /usr/bin/sign-file signs a module byte-identically to the build
#      tree's, /usr/bin/verify-file accepts it
#   6. autopkgtest (debian/tests: the command suite and the hooks' smoke
#      test) with the null backend: any exit but 0 fails, 2 (a test
#      skipped) and 8 (none ran) included
#
# Each stage prints its time.  The identity tests' references are those
# make check fetched (build/reference), handed to the autopkgtest.
#
# --no-rebuild leaves out the second build of 1. (CI proves the build
# reproducible in one of its two roots).  --smoke-only runs the
# autopkgtest's hooks-smoke alone, not the command suite: for a root
# where make check has just run the same suite on the same build (CI's
# Debian 13 root; its Debian 12 root runs the whole autopkgtest).
set -eu
rebuild=1
tests=""
while [ $# -gt 0 ]; do
	case $1 in
	--no-rebuild) rebuild="" ;;
	--smoke-only) tests="--test-name=hooks-smoke" ;;
	*) echo "usage: $0 [--no-rebuild] [--smoke-only]" >&2; exit 2 ;;
	esac
	shift
done
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export DEBIAN_FRONTEND=noninteractive
stage() { # name command...
	name=$1; shift
	echo "== deb: $name"
	s=$(date +%s)
	"$@"
	echo "== deb: $name: $(($(date +%s) - s)) s"
}

v=$(dpkg-parsechangelog -SVersion)
arch=$(dpkg --print-architecture)
deb=build/deb/modsign_${v}_$arch.deb
hooks_deb=build/deb/modsign-kernel-hooks_${v}_all.deb

stage "make all" make -j2 all
stage "make deb" make deb
stage "install-deps debcheck" scripts/install-deps.sh debcheck

# Another path, of another length, and the same SOURCE_DATE_EPOCH (from
# debian/changelog, as dpkg-buildpackage sets it).
again=$(mktemp -d /var/tmp/modsign-rebuild.XXXXXX)
trap 'rm -rf "$again"' EXIT
rebuild() {
	scripts/make-deb.sh "$again/elsewhere" > /dev/null
	for f in build/deb/*.deb; do
		cmp "$f" "$again/elsewhere/${f##*/}" ||
			{ echo "check-deb.sh: ${f##*/} differs between two builds" >&2; return 1; }
	done
	echo "identical: $(cd build/deb && echo ./*.deb)"
}
[ -z "$rebuild" ] || stage "second build, cmp" rebuild

# lintian refuses nothing as root, but says so: its "running with root
# privileges" note is not a finding.
stage "lintian" lintian --fail-on error,warning --info "build/deb/modsign_${v}_$arch.changes"

hardening() {
	x=$(mktemp -d)
	dpkg-deb -x "$deb" "$x"
	# Control flow integrity: the code is built with -fcf-protection
	# (endbr64; Debian 13's dpkg-buildflags adds it), but a program is
	# marked for IBT/SHSTK only if every object linked in is, and the
	# glibc start files of neither Debian 12 nor 13 are: no amd64 program
	# there passes that check (measured in both pristine roots).  Debian
	# 13's hardening-check also asks for branch protection, arm64's
	# BTI/PAC, which it reports missing on every x86 program.
	nocf=--nocfprotection
	if [ "$arch" != arm64 ] && hardening-check --help 2>&1 | grep -q -- --nobranchprotection; then
		nocf="$nocf --nobranchprotection"
	fi
	hardening-check $nocf "$x/usr/bin/verify-file" "$x/usr/bin/extract-sig" \
		"$x/usr/lib/modsign/sign-file"
	# sign-file's front end is a static PIE linked with musl (Makefile):
	# hardening-check looks for __stack_chk_fail among the dynamic
	# symbols, which a static program has none of, and musl's libc.a has
	# no CET note.  Its own code is compiled with the same flags; the
	# stack protector is checked here in its debugging symbols instead.
	hardening-check --nostackprotector $nocf "$x/usr/bin/sign-file"
	dpkg-deb -x "build/deb/modsign-dbgsym_${v}_$arch.deb" "$x/dbg"
	id=$(readelf -n "$x/usr/bin/sign-file" | awk '/Build ID/ { print $3 }')
	nm "$x/dbg/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" |
		grep -q ' __stack_chk_fail$' ||
		{ echo "check-deb.sh: sign-file's front end has no stack protector" >&2; return 1; }
	echo "sign-file front end: __stack_chk_fail in its symbols"
	rm -rf "$x"
}
stage "hardening-check" hardening

stage "packages = make install" env MODSIGN_DEB="$top/$deb" \
	MODSIGN_HOOKS_DEB="$top/$hooks_deb" bats tests/deb

installed() {
	apt-get install -y -q "./modsign_${v}_$arch.deb" \
		"./modsign-kernel-hooks_${v}_all.deb"
	dpkg -L modsign modsign-kernel-hooks > /dev/null
	w=$(mktemp -d)
	python3 tests/fixtures/elf-module.py "$w/m.ko" 30000
	cp "$w/m.ko" "$w/built.ko"
	build/bin/sign-file sha256 tests/fixtures/keys/rsa2048.key \
		tests/fixtures/keys/rsa2048.der "$w/built.ko"
	/usr/bin/sign-file sha256 tests/fixtures/keys/rsa2048.key \
		tests/fixtures/keys/rsa2048.der "$w/m.ko"
	cmp "$w/built.ko" "$w/m.ko"
	/usr/bin/verify-file -c tests/fixtures/keys/rsa2048.der "$w/m.ko"
	/usr/bin/extract-sig "$w/m.ko" > "$w/sig" && [ -s "$w/sig" ]
	rm -rf "$w"
}
stage "apt install, sign and verify" installed

autopkgtest_null() {
	set --
	rc=0
	# make check's references, if it ran; else the test fetches them
	[ ! -x build/reference/sign-file ] ||
		set -- --env=MODSIGN_REF_DIR="$top/build/reference"
	# shellcheck disable=SC2086
	autopkgtest "$@" $tests "$deb" "$hooks_deb" "build/deb/modsign_$v.dsc" -- null || rc=$?
	[ "$rc" -eq 0 ] || { echo "check-deb.sh: autopkgtest exit $rc (2: skipped, 8: no test ran)" >&2; return 1; }
}
stage "autopkgtest (null)" autopkgtest_null
