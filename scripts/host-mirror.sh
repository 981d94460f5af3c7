#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# host-mirror.sh [SUITE]
#
# Print the Debian mirror this host's apt already uses: the URI of the
# first apt source (deb822 .sources first, then one-line .list files)
# that carries SUITE, by default the host's own release (VERSION_CODENAME
# of /etc/os-release).  Scripts that need another suite (debootstrap of a
# Debian 13 root, a private apt for trixie-backports) take their mirror
# from here, so no mirror host is ever written into this repository.
# MODSIGN_DEBIAN_MIRROR overrides it.  Exits 1, saying why, when no
# source carries SUITE.
set -eu
suite=${1:-}
if [ -z "$suite" ] && [ -n "${MODSIGN_DEBIAN_MIRROR:-}" ]; then
	echo "$MODSIGN_DEBIAN_MIRROR"
	exit 0
fi
if [ -z "$suite" ]; then
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$suite" ] || {
		echo "$0: no VERSION_CODENAME in /etc/os-release (set MODSIGN_DEBIAN_MIRROR)" >&2
		exit 1
	}
fi
uris() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# one stanza per paragraph; Types, URIs and Suites may list several
		awk -v s="$suite" '
			/^[ \t]*$/ { if (deb && hit && uri) { print uri; exit }
				deb = hit = 0; uri = ""; next }
			/^[ \t]*#/ { next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "uris:" { uri = $2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
			END { if (deb && hit && uri) print uri }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# deb [options] URI SUITE COMPONENT...
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk -v s="$suite" '$1 == "deb" && $3 == s { print $2 }'
	done
}
uri=$(uris | head -n 1)
[ -n "$uri" ] || {
	echo "$0: no apt source on this host carries $suite (set MODSIGN_DEBIAN_MIRROR)" >&2
	exit 1
}
echo "$uri"
