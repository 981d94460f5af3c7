# SPDX-License-Identifier: GPL-2.0-or-later
#
# The packages and `make install` put the same files in the same places:
# the built .debs (MODSIGN_DEB, the tools, and MODSIGN_HOOKS_DEB, the
# kernel hooks, made by make deb) against make install DESTDIR=...
# PREFIX=/usr from the build tree; and the kernel hooks, which change what
# every later kernel install does, are in the hooks package only.  Run by
# scripts/check-deb.sh, not make check (it needs the packages built).

bats_require_minimum_version 1.5.0
load ../bats/helpers

setup_file() {
	[ -r "${MODSIGN_DEB:-}" ] && [ -r "${MODSIGN_HOOKS_DEB:-}" ] || {
		echo "MODSIGN_DEB and MODSIGN_HOOKS_DEB must name the built .debs (scripts/check-deb.sh sets them)" >&3
		return 1
	}
}

# The kernel hooks as make install PREFIX=/usr puts them (Makefile,
# install; modsign-kernel-hook(8)): the files of modsign-kernel-hooks.
HOOK_FILES="etc/kernel/header_postinst.d/zz-modsign
etc/kernel/postinst.d/zz-modsign
etc/modsign/kernel-hook.conf
usr/lib/kernel/install.d/85-modsign.install
usr/lib/modsign/modsign-kernel-hook
usr/share/man/man8/modsign-kernel-hook.8"

# "type mode path" of a package's contents, as make install would name
# them: dh compresses man pages (.gz) and adds the Debian-only
# usr/share/doc/PACKAGE (copyright, changelog) and lintian's overrides,
# which make install does not ship.
deb_listing() { # deb
	dpkg-deb --fsys-tarfile "$1" | tar -tvf - |
		awk '{ t = substr($1, 1, 1); p = $6; sub(/^\.\//, "", p); sub(/\/$/, "", p)
			if (p == "") next
			print (t == "-" ? "f" : t), $1, p }' |
		sed -E 's|^(f [^ ]* usr/share/man/.*)\.gz$|\1|' |
		grep -Ev ' usr/share/(doc(/modsign(-kernel-hooks)?(/.*)?)?|lintian(/overrides(/modsign(-kernel-hooks)?)?)?)$' |
		LC_ALL=C sort -k3
}

# Both packages' contents, as apt installs them together: a directory
# both have (usr/lib/modsign) is listed once.
both_listing() {
	{ deb_listing "$MODSIGN_DEB"; deb_listing "$MODSIGN_HOOKS_DEB"; } |
		LC_ALL=C sort -u | LC_ALL=C sort -k3
}

# The paths of a listing's files and links (not directories).
files_of() { # listing
	printf '%s\n' "$1" | awk '$1 != "d" { print $3 }'
}

# The same for a tree, modes as tar prints them.
tree_listing() { # dir
	(cd "$1" && find . -mindepth 1 -printf '%y %M %P\n') |
		awk '{ t = $1 == "d" ? "d" : $1 == "l" ? "l" : "f"; print t, $2, $3 }' |
		LC_ALL=C sort -k3
}

@test "the two .debs together hold exactly what make install DESTDIR= PREFIX=/usr installs" {
	make -s -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/usr
	run -0 both_listing
	local deb=$output
	[ -n "$deb" ]
	run -0 tree_listing "$BATS_TEST_TMPDIR/root"
	assert_equal "$deb" "$output"
	# and the packages do hold the tools and the hooks
	assert_line --partial " usr/bin/sign-file"
	assert_line --partial " usr/lib/modsign/sign-file"
	assert_line --partial " etc/kernel/postinst.d/zz-modsign"
}

@test "modsign-kernel-hooks holds exactly the kernel hooks, modsign none of them" {
	run -0 deb_listing "$MODSIGN_HOOKS_DEB"
	assert_equal "$(files_of "$output")" "$HOOK_FILES"
	run -0 deb_listing "$MODSIGN_DEB"
	local tools
	tools=$(files_of "$output")
	[ -n "$tools" ]
	run -1 grep -Fxf <(printf '%s\n' "$HOOK_FILES") <<< "$tools"
	# nothing of the tools' package under the hooks' places either
	run -1 grep -E '^(etc/|usr/lib/kernel/|usr/share/man/man8/)' <<< "$tools"
}

@test "the hooks package: arch all, on the tools it calls; its /etc files are its conffiles, the tools have none" {
	run -0 dpkg-deb -f "$MODSIGN_HOOKS_DEB" Package Architecture Depends
	assert_output "Package: modsign-kernel-hooks
Architecture: all
Depends: modsign (>= $(dpkg-deb -f "$MODSIGN_DEB" Version))"
	run -0 sh -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./conffiles' _ "$MODSIGN_HOOKS_DEB"
	assert_output "/etc/kernel/header_postinst.d/zz-modsign
/etc/kernel/postinst.d/zz-modsign
/etc/modsign/kernel-hook.conf"
	run -0 sh -c 'dpkg-deb --ctrl-tarfile "$1" | tar -tf -' _ "$MODSIGN_DEB"
	refute_line ./conffiles
}
