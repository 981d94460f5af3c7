# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package and `make install` put the same files in the same places:
# the built .deb (MODSIGN_DEB, made by make deb) against make install
# DESTDIR=... PREFIX=/usr from the build tree.  Run by scripts/check-deb.sh,
# not make check (it needs the package built).

bats_require_minimum_version 1.5.0
load ../bats/helpers

setup_file() {
	[ -r "${MODSIGN_DEB:-}" ] || {
		echo "MODSIGN_DEB must name the built .deb (scripts/check-deb.sh sets it)" >&3
		return 1
	}
}

# "type mode path" of the package's contents, as make install would name
# them: dh compresses man pages (.gz) and adds the Debian-only
# usr/share/doc/modsign (copyright, changelog) and lintian's overrides,
# which make install does not ship.
deb_listing() {
	dpkg-deb --fsys-tarfile "$MODSIGN_DEB" | tar -tvf - |
		awk '{ t = substr($1, 1, 1); p = $6; sub(/^\.\//, "", p); sub(/\/$/, "", p)
			if (p == "") next
			print (t == "-" ? "f" : t), $1, p }' |
		sed -E 's|^(f [^ ]* usr/share/man/.*)\.gz$|\1|' |
		grep -Ev ' usr/share/(doc(/modsign(/.*)?)?|lintian(/overrides(/modsign)?)?)$' |
		LC_ALL=C sort -k3
}

# The same for a tree, modes as tar prints them.
tree_listing() { # dir
	(cd "$1" && find . -mindepth 1 -printf '%y %M %P\n') |
		awk '{ t = $1 == "d" ? "d" : $1 == "l" ? "l" : "f"; print t, $2, $3 }' |
		LC_ALL=C sort -k3
}

@test "the .deb holds exactly what make install DESTDIR= PREFIX=/usr installs" {
	make -s -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	run -0 deb_listing
	local deb=$output
	[ -n "$deb" ]
	run -0 tree_listing "$BATS_TEST_TMPDIR/root"
	assert_equal "$deb" "$output"
	# and the package does hold the tools
	assert_line --partial " usr/bin/sign-file"
	assert_line --partial " usr/lib/modsign/sign-file"
}
