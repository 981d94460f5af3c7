#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch-virt-firmware.sh
#
# Print a command that runs virt-fw-vars (python3-virt-firmware), which
# edits OVMF variable stores: Secure Boot keys, db, dbx and shim's MOK
# variables.  Debian 13 has the package and Debian 12 does not, so on a
# host without it the .deb is downloaded from trixie through a private apt
# configuration (as tests/kernel/fetch-source.sh does for linux-source-7.3:
# the host's own mirror, apt's signature chain, the host's apt state only
# read) and unpacked with dpkg-deb -x into the cache; it is pure Python and
# runs on Debian 12's /usr/bin/python3 with python3-cryptography and
# python3-importlib-resources (install-deps.sh firmware).
set -euo pipefail
PROG=fetch-virt-firmware.sh
. "$(dirname "$0")/../kernel/lib.sh"

if command -v virt-fw-vars >/dev/null; then
	command -v virt-fw-vars
	exit 0
fi
kh_paths 7.3
DEST=$KH_CACHE/virt-firmware
if [ ! -f "$DEST/.unpacked" ]; then
	suite=trixie
	mirror=$("$KH_TOP/scripts/host-mirror.sh") || die "no Debian mirror to fetch $suite from"
	pkg=python3-virt-firmware
	kh_private_apt "$suite" "$mirror"
	rm -f "$APT/deb"/*.deb
	(cd "$APT/deb" && apt-get "${aptopts[@]}" -q download "$pkg") >"$APT/download.log" 2>&1 ||
		{ cat "$APT/download.log" >&2; die "apt-get download $pkg failed"; }
	rm -rf "$DEST"
	dpkg-deb -x "$(ls "$APT/deb"/*.deb)" "$DEST"
	dpkg-deb -f "$(ls "$APT/deb"/*.deb)" Version >"$DEST/version"
	touch "$DEST/.unpacked"
	note "unpacked $pkg $(cat "$DEST/version") from $suite into $DEST"
fi
printf 'env PYTHONPATH=%s /usr/bin/python3 -m virt.firmware.vars\n' "$DEST/usr/lib/python3/dist-packages"
