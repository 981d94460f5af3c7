#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-deb.sh [DIR]: build the Debian packages (debian/) from this
# checkout's files as they are now (tracked and untracked, not ignored:
# what `git ls-files -co --exclude-standard` lists; without git, all but
# build/), copied to
# DIR/modsign-VERSION (default build/deb) so that the build's `make
# clean` never touches the checkout's own build/.  dpkg-buildpackage
# leaves the .dsc, .changes and .debs in DIR; SOURCE_DATE_EPOCH comes
# from debian/changelog, so two builds of one commit in two directories
# give the same .debs (scripts/check-deb.sh compares them).  `make deb`
# runs it, after installing the build dependencies.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "${1:-$top/build/deb}"
dir=$(cd "${1:-$top/build/deb}" && pwd)
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -SVersion)
src="$dir/modsign-$version"

rm -rf "$src"
mkdir -p "$src"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git -C "$top" ls-files -co --exclude-standard -z |
		(cd "$top" && xargs -0 cp -P --parents -t "$src")
else	# an unpacked tarball: all but what a build made
	tar -C "$top" --exclude=./build --exclude='./modsign_*.deb' --exclude='./modsign-kernel-hooks_*.deb' \
		--exclude='./man/*.1' -cf - . | tar -C "$src" -xf -
fi
# Unsigned: a local build; Debian signs its own uploads.
(cd "$src" && dpkg-buildpackage -us -uc > "$dir/build.log" 2>&1) ||
	{ tail -n 40 "$dir/build.log" >&2; echo "$0: dpkg-buildpackage failed: $dir/build.log" >&2; exit 1; }
ls "$dir"/modsign_"$version"_*.changes
