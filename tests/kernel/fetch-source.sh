#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch-source.sh LINE
#
# Print the path of Debian's linux-source-LINE tarball, downloading it
# first when this host's apt cannot install it (7.3 lives in
# trixie-backports, which a Debian 12 host must not add to its own sources:
# apt would start upgrading the host from trixie).
#
# The download uses a private apt configuration under
# ${MODSIGN_KERNEL_CACHE:-build/kernel}/apt/: its own sources file, written
# here from the host's own mirror (the URI of the apt source that carries
# the host's release), its own package lists and cache.  The host's apt
# state (sources, lists, dpkg database) is only read.  The package's
# signature chain is apt's usual one: the Release file verified with
# /usr/share/keyrings/debian-archive-keyring.gpg (which on Debian 12
# already holds the trixie keys), the .deb checked against its hash there.
# The tarball is unpacked with dpkg-deb -x (no dpkg -i) into the line's
# cache directory; the package version goes to LINE/source-version.
set -euo pipefail
PROG=fetch-source.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || {
	echo "usage: $PROG LINE" >&2
	exit 2
}
kh_paths "$1"
if [ -f "$KH_TARBALL" ]; then
	echo "$KH_TARBALL"
	exit 0
fi
[ -n "$KH_SUITE" ] ||
	die "$KH_TARBALL missing (apt-get install linux-source-$LINE)"

# The host's own mirror (scripts/host-mirror.sh; MODSIGN_DEBIAN_MIRROR
# overrides it).  A -security suite lives in the security archive: its
# mirror is the one the host uses for its own -security suite; a host
# without one takes the line's fallback suite from its main mirror.
suite=$KH_SUITE
if [ "${suite%-security}" != "$suite" ]; then
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	if ! mirror=$("$KH_TOP/scripts/host-mirror.sh" "$codename-security" 2>/dev/null); then
		[ -n "$KH_SUITE_FALLBACK" ] || die "no apt source for $codename-security to fetch $suite from"
		suite=$KH_SUITE_FALLBACK
		note "$LINE: the host has no $codename-security source; taking $suite instead"
	fi
fi
if [ "$suite" = "$KH_SUITE_FALLBACK" ] || [ "$suite" = "${suite%-security}" ]; then
	mirror=$("$KH_TOP/scripts/host-mirror.sh") || die "no Debian mirror to fetch $suite from"
fi
KH_SUITE=$suite
pkg=linux-source-$LINE
t=$(now)
kh_private_apt "$KH_SUITE" "$mirror"
ver=$(apt-cache "${aptopts[@]}" policy "$pkg" | awk '$1 == "Candidate:" { print $2 }')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$pkg not found in $KH_SUITE at $mirror"
rm -f "$APT/deb"/*.deb
(cd "$APT/deb" && apt-get "${aptopts[@]}" -q download "$pkg=$ver") >"$APT/download.log" 2>&1 ||
	{ cat "$APT/download.log" >&2; die "apt-get download $pkg=$ver failed"; }
deb=$(ls "$APT/deb"/*.deb)
rm -rf "$APT/root"
dpkg-deb -x "$deb" "$APT/root"
src=$APT/root/usr/src/$pkg.tar.xz
[ -f "$src" ] || die "$deb holds no usr/src/$pkg.tar.xz"
mkdir -p "$KH_LINEDIR"
mv "$src" "$KH_TARBALL"
rm -rf "$APT/root" "$deb"
echo "$pkg $ver ($KH_SUITE, $mirror)" >"$KH_LINEDIR/source-version"
note "$LINE: fetched $pkg $ver from $KH_SUITE in $(elapsed "$t")s"
echo "$KH_TARBALL"
