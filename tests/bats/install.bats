# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install into a DESTDIR staging tree gives the layout a Debian
# package ships: binaries in $(PREFIX)/bin, man pages in
# $(PREFIX)/share/man/man1, completions where bash-completion and zsh
# look, and nothing else.  The installed files are then used as installed.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	# One staging tree for the file; make runs in the source tree with
	# the build the suite already made.
	R="$BATS_FILE_TMPDIR/root"
	make -s -C "$TOP" install DESTDIR="$R" PREFIX=/usr \
		> "$BATS_FILE_TMPDIR/make.log" 2>&1 ||
		{ cat "$BATS_FILE_TMPDIR/make.log" >&3; return 1; }
	export R
}

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
}

# "type mode path" for everything under a tree, sorted.
tree_listing() { # dir
	(cd "$1" && find . -mindepth 1 -printf '%y %m %P\n' | LC_ALL=C sort -k3)
}

@test "make install DESTDIR=... PREFIX=/usr installs exactly the package layout" {
	run -0 tree_listing "$R"
	assert_output "$(cat <<'EOF'
d 755 etc
d 755 etc/kernel
d 755 etc/kernel/header_postinst.d
f 755 etc/kernel/header_postinst.d/zz-modsign
d 755 etc/kernel/postinst.d
f 755 etc/kernel/postinst.d/zz-modsign
d 755 etc/modsign
f 644 etc/modsign/kernel-hook.conf
d 755 usr
d 755 usr/bin
f 755 usr/bin/extract-sig
f 755 usr/bin/sign-file
f 755 usr/bin/verify-file
d 755 usr/lib
d 755 usr/lib/kernel
d 755 usr/lib/kernel/install.d
f 755 usr/lib/kernel/install.d/85-modsign.install
d 755 usr/lib/modsign
f 755 usr/lib/modsign/modsign-kernel-hook
f 755 usr/lib/modsign/sign-file
d 755 usr/share
d 755 usr/share/bash-completion
d 755 usr/share/bash-completion/completions
l 777 usr/share/bash-completion/completions/extract-sig
f 644 usr/share/bash-completion/completions/sign-file
l 777 usr/share/bash-completion/completions/verify-file
d 755 usr/share/man
d 755 usr/share/man/man1
f 644 usr/share/man/man1/extract-sig.1
f 644 usr/share/man/man1/sign-file.1
f 644 usr/share/man/man1/verify-file.1
d 755 usr/share/man/man8
f 644 usr/share/man/man8/modsign-kernel-hook.8
d 755 usr/share/zsh
d 755 usr/share/zsh/vendor-completions
f 644 usr/share/zsh/vendor-completions/_modsign
EOF
)"
	assert_equal "$(readlink "$R/usr/share/bash-completion/completions/verify-file")" sign-file
	assert_equal "$(readlink "$R/usr/share/bash-completion/completions/extract-sig")" sign-file
}

@test "the installed binaries run: --version names each tool" {
	for t in sign-file extract-sig verify-file; do
		run -0 "$R/usr/bin/$t" --version
		assert_line --index 0 --regexp "^$t \\(modsign\\) [0-9]+\\.[0-9]+\\.[0-9]+\$"
	done
}

@test "the installed sign-file signs, and the installed verify-file accepts it" {
	copy_module m.ko 20000
	run -0 "$R/usr/bin/sign-file" sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" m.ko
	run -0 "$R/usr/bin/verify-file" -c "$KEYS/rsa2048.der" m.ko
}

@test "each installed man page renders with man -l, with the exit status table" {
	require_cmd man man-db
	for t in sign-file extract-sig verify-file; do
		run -0 --separate-stderr man -P cat -l "$R/usr/share/man/man1/$t.1"
		assert_equal "$stderr" ""
		assert_line --regexp "^${t^^}\\(1\\) +User Commands"
		assert_line "NAME"
		assert_line --regexp '^ +Exit +status +\(one +table +for +sign-file, +verify-file +and +extract-sig\):'
		# (man justifies lines: any run of spaces between words)
		assert_line --regexp '^ +0 +success'
		assert_line --regexp '^ +9 +key, +certificate +or +trust +source +unusable'
		assert_line --regexp '^ +10 +this +build.s +OpenSSL +lacks +the +algorithm'
	done
}

@test "the installed kernel hooks run the installed hook, which runs the installed verify-file" {
	local entry mode
	for entry in etc/kernel/postinst.d/zz-modsign:postinst \
		etc/kernel/header_postinst.d/zz-modsign:header \
		usr/lib/kernel/install.d/85-modsign.install:kernel-install; do
		mode=${entry#*:} entry=${entry%:*}
		assert_equal "$(grep -e '^hook=' -e '^exec' "$R/$entry")" \
			'hook=${MODSIGN_KERNEL_HOOK:-/usr/lib/modsign/modsign-kernel-hook}
exec "$hook" '"$mode"' "$@" < /dev/null >&2'
	done
	run -0 grep -c -e '^conf=${MODSIGN_HOOK_CONF:-/etc/modsign/kernel-hook.conf}$' \
		-e '^verify=${MODSIGN_VERIFY_FILE:-/usr/bin/verify-file}$' \
		"$R/usr/lib/modsign/modsign-kernel-hook"
	assert_output 2
	# every setting of the shipped file is commented out: the defaults
	run -1 grep -v -e '^#' -e '^$' "$R/etc/modsign/kernel-hook.conf"
	require_cmd man man-db
	run -0 --separate-stderr man -P cat -l "$R/usr/share/man/man8/modsign-kernel-hook.8"
	assert_equal "$stderr" ""
	assert_line --regexp '^MODSIGN-KERNEL-HOOK\(8\) +System Administration'
}

@test "an administrator's kernel-hook.conf is kept by make install; PREFIX=/usr/local puts the plugin in /etc" {
	local D="$W/again"
	make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr
	echo STRICT=yes > "$D/etc/modsign/kernel-hook.conf"
	make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr
	assert_equal "$(cat "$D/etc/modsign/kernel-hook.conf")" STRICT=yes
	make -s -C "$TOP" install DESTDIR="$W/local"
	assert_file_executable "$W/local/etc/kernel/install.d/85-modsign.install"
	assert_file_executable "$W/local/etc/kernel/postinst.d/zz-modsign"
	assert_file_executable "$W/local/usr/local/lib/modsign/modsign-kernel-hook"
}

@test "sign-file(1) has the KMODSIGN COMPATIBILITY section and --kmodsign" {
	require_cmd man man-db
	run -0 man -P cat -l "$R/usr/share/man/man1/sign-file.1"
	assert_line "KMODSIGN COMPATIBILITY"
	assert_output --partial "--kmodsign"
	assert_output --partial "kmodsign -D sha512"
}

@test "sign-file(1) states the symlink and non-regular-file policy; verify-file(1) what -k loads" {
	require_cmd man man-db
	# wide enough that no sentence is broken or hyphenated
	run -0 env MANWIDTH=1000 man -P cat -l "$R/usr/share/man/man1/sign-file.1"
	assert_output --partial "a symlinked module is signed in place at its target (the end of the chain), and the link is kept"
	assert_output --partial "-p writes link.p7s next to the link"
	assert_output --partial 'a module that is a FIFO, a socket or a device node is refused with "name: not a regular file" and exit status 7, before it is opened'
	assert_output --partial "An existing dest or .p7s of those kinds is refused the same way rather than replaced by a regular file."
	run -0 env MANWIDTH=1000 man -P cat -l "$R/usr/share/man/man1/verify-file.1"
	assert_line "CERTIFICATE DIRECTORIES"
	assert_output --partial "A certificate found twice (a copy, a hard link) is one key"
	assert_output --partial "one warning line per directory counts them, and -v names each with the reason."
}

@test "bash-completion loads the installed completion for each tool by name" {
	local bc=/usr/share/bash-completion/bash_completion
	require_file "$bc" bash-completion
	# bash-completion searches $XDG_DATA_DIRS/bash-completion/completions.
	run -0 env XDG_DATA_DIRS="$R/usr/share" bash --norc --noprofile -c '
		. "$1"
		for t in sign-file extract-sig verify-file; do
			__load_completion "$t" || exit 1
			complete -p "$t"
		done' _ "$bc"
	assert_output "$(printf 'complete -F _modsign %s\n' sign-file extract-sig verify-file)"
}

@test "zsh finds the installed _modsign in vendor-completions" {
	require_cmd zsh zsh
	run -0 zsh -f -c 'fpath=("$1" $fpath)
		autoload -Uz compinit && compinit -u -D -d "$2"
		print -r -- $_comps[sign-file] $_comps[extract-sig] $_comps[verify-file]' \
		_ "$R/usr/share/zsh/vendor-completions" "$W/zcd"
	assert_output "_modsign _modsign _modsign"
	run -0 zsh -n "$R/usr/share/zsh/vendor-completions/_modsign"
}

@test "no kmodsign by default; make install-kmodsign adds it as links" {
	assert_file_not_exists "$R/usr/bin/kmodsign"
	local K="$W/root"
	make -s -C "$TOP" install-kmodsign DESTDIR="$K" PREFIX=/usr
	assert_equal "$(readlink "$K/usr/bin/kmodsign")" sign-file
	assert_equal "$(readlink "$K/usr/share/man/man1/kmodsign.1")" sign-file.1
	assert_equal "$(readlink "$K/usr/share/bash-completion/completions/kmodsign")" sign-file
	run -0 "$K/usr/bin/kmodsign" --version
	assert_output --regexp '^kmodsign \(modsign\) '
	copy_module image 20000
	run -0 "$K/usr/bin/kmodsign" -D sha512 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	cat image image.sig > signed.ko
	run -0 "$R/usr/bin/verify-file" -c "$KEYS/rsa2048.der" signed.ko
	# Exactly three links more than the plain install.
	diff <(tree_listing "$R") <(tree_listing "$K") | grep '^>' |
		sed 's/^> //' > added
	assert_equal "$(cat added)" "$(printf '%s\n' \
		'l 777 usr/bin/kmodsign' \
		'l 777 usr/share/bash-completion/completions/kmodsign' \
		'l 777 usr/share/man/man1/kmodsign.1')"
}

@test "PREFIX defaults to /usr/local; BINDIR and the completion dirs can be moved" {
	local D="$W/local"
	make -s -C "$TOP" install DESTDIR="$D"
	assert_file_executable "$D/usr/local/bin/sign-file"
	assert_file_exists "$D/usr/local/lib/modsign/sign-file"
	# it finds its signing code beside it, not where it would be installed
	run -0 "$D/usr/local/bin/sign-file" --version
	assert_file_exists "$D/usr/local/share/man/man1/sign-file.1"
	assert_file_exists "$D/usr/local/share/bash-completion/completions/sign-file"
	assert_file_exists "$D/usr/local/share/zsh/vendor-completions/_modsign"
	make -s -C "$TOP" install DESTDIR="$W/moved" PREFIX=/usr BINDIR=/sbin \
		ZSHCOMPDIR=/usr/share/zsh/site-functions
	assert_file_executable "$W/moved/sbin/sign-file"
	assert_file_exists "$W/moved/usr/lib/modsign/sign-file"
	assert_file_exists "$W/moved/usr/share/zsh/site-functions/_modsign"
	assert_file_not_exists "$W/moved/usr/bin"
}

# sign-file(1)'s MOK recipe (MOK AND DKMS), step 1: the command lines
# after each .br of man/sign-file.h2m's first step, roff's \- made -, run
# as written with /var/lib/dkms moved under a scratch root.  It must work
# where dkms never ran (no directory yet), and never replace a key dkms
# made.
man_step1() {
	awk '/^\[MOK AND DKMS\]$/ { sec = 1; next } /^\[[^]]*\]$/ { sec = 0 }
		sec && /^\.IP 1\./ { on = 1; next } sec && /^\.IP 2\./ { on = 0 }
		on && br { print } { br = ($0 == ".br") }' "$TOP/man/sign-file.h2m" |
		sed "s/\\\\-/-/g; s|/var/lib/dkms|$W/var/lib/dkms|g"
}

@test "sign-file(1)'s MOK key step works on a machine without /var/lib/dkms and keeps an existing key" {
	man_step1 >step1.sh
	[ "$(wc -l < step1.sh)" -eq 2 ]
	grep -q openssl step1.sh
	[ ! -e "$W/var/lib/dkms" ]
	run bash -e step1.sh
	assert_success
	[ "$(stat -c %a "$W/var/lib/dkms/mok.key")" = 600 ]
	openssl x509 -inform DER -in "$W/var/lib/dkms/mok.pub" -noout
	cp "$W/var/lib/dkms/mok.key" first.key
	run bash -e step1.sh
	assert_success
	cmp first.key "$W/var/lib/dkms/mok.key"
}
