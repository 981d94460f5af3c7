#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sign-file is two programs (src/sign-file/front.h): a front end that
# links a C library alone (a static musl program where musl-gcc is
# installed), and the tool proper, which it executes from ../lib/modsign
# beside itself.  kbuild starts one sign-file per module; under a signing
# agent that process only hands its module over, and must not load
# libcrypto, nor pay glibc's start-up, to do it.

load helpers
bats_require_minimum_version 1.5.0

PEM=("$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")
CORE="$BIN/../lib/modsign/sign-file"

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	mkdir d ref
	make_module d/a.ko 30000
	make_module d/b.ko 30001
	cp d/a.ko ref/a.ko
	cp d/b.ko ref/b.ko
	"$SIGN_FILE" sha256 "${PEM[@]}" ref/a.ko
	"$SIGN_FILE" sha256 "${PEM[@]}" ref/b.ko
	unset MODSIGN_AGENT
}

# The shared objects a file names in its dynamic section.
needed() { # elf
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

@test "front: the executable links no OpenSSL, the tool proper it runs does" {
	require_cmd readelf binutils
	run -0 needed "$SIGN_FILE"
	refute_output --partial libcrypto
	refute_output --partial libjson-c
	run -0 needed "$CORE"
	assert_line libcrypto.so.3
}

@test "front: with musl-gcc installed, a build without sanitizers makes the front end a static PIE" {
	require_cmd readelf binutils
	# a sanitizer build links glibc, whose runtimes need it
	if needed "$CORE" | grep -q libasan; then
		run -0 needed "$SIGN_FILE"
		assert_line libc.so.6
		return 0
	fi
	require_cmd musl-gcc musl-tools
	run -0 readelf -lW "$SIGN_FILE"
	# no loader, no library: static; position-independent (its image is
	# placed at random too), its DYNAMIC segment only for its own
	# relocation at start
	refute_output --partial INTERP
	assert_line --regexp '^Elf file type is DYN '
	run -0 needed "$SIGN_FILE"
	assert_output ""
}

# LeakSanitizer cannot run under ptrace: off for the traced runs of an
# ASan build.
no_leak_check_under_strace() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

@test "front: a plain run under the agent neither runs the tool proper nor opens libcrypto; the same run alone does both" {
	require_cmd strace strace
	no_leak_check_under_strace
	run -0 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- \
		strace -f -qq -e trace=openat,execve -o agent.trace \
		"$SIGN_FILE" sha256 "${PEM[@]}" d/a.ko
	cmp d/a.ko ref/a.ko
	# the trace is the client's: it opened the module it handed over
	run -0 grep -c '"d/a\.ko"' agent.trace
	run -1 grep 'libcrypto\|lib/modsign/sign-file' agent.trace
	run -0 strace -f -qq -s 4096 -e trace=openat,execve -o alone.trace \
		"$SIGN_FILE" sha256 "${PEM[@]}" d/b.ko
	cmp d/b.ko ref/b.ko
	run -0 grep -c 'libcrypto\.so' alone.trace
	# the same arguments, argv[0] included
	run -0 grep -cF "execve(\"$SIGN_FILE\", [\"$SIGN_FILE\", \"sha256\"" alone.trace
	run -0 grep -cE "^[0-9]+ +execve\(\"[^\"]*/lib/modsign/sign-file\", \[\"$SIGN_FILE\", \"sha256\", \"[^\"]*rsa2048.key\", \"[^\"]*rsa2048.crt\", \"d/b.ko\"\]" alone.trace
}

@test "front: a run with any option goes to the tool's own parser, which still hands it over" {
	require_cmd strace strace
	no_leak_check_under_strace
	cp d/a.ko p.ko
	"$SIGN_FILE" -p sha256 "${PEM[@]}" p.ko
	mv p.ko.p7s p7s.ref
	cp d/a.ko p.ko
	run -0 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- \
		strace -f -qq -e trace=execve -o agent.trace \
		"$SIGN_FILE" -p sha256 "${PEM[@]}" p.ko
	cmp p.ko ref/a.ko
	cmp p.ko.p7s p7s.ref
	# the parser is in the tool proper; the signing stays the agent's
	run -0 grep -c 'lib/modsign/sign-file' agent.trace
}

@test "front: a copy without its signing code says where it looked, exit 7, the module untouched" {
	mkdir lone
	cp "$SIGN_FILE" lone/sign-file
	if [ "$BIN" = /usr/bin ]; then
		# the installed tools (the autopkgtest): the copy finds the
		# signing code in its compiled-in PKGLIBDIR, /usr/lib/modsign
		cp d/a.ko inst.ko
		run -0 --separate-stderr lone/sign-file sha256 "${PEM[@]}" inst.ko
		run -0 "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" inst.ko
		return 0
	fi
	run -7 --separate-stderr lone/sign-file sha256 "${PEM[@]}" d/a.ko
	assert_equal "$output" ""
	assert_regex "$stderr" "^sign-file: cannot find sign-file's signing code, \.\./lib/modsign/sign-file, beside $W/lone/sign-file or in /[^ ]*/lib/modsign: run the sign-file that make built or installed, or a symlink to it, not a copy\$"
	cmp d/a.ko <(make_module /dev/stdout 30000)
	assert_equal "$(ls d)" "a.ko
b.ko"
	# a run the agent takes needs no more than the copy
	run -0 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- \
		lone/sign-file sha256 "${PEM[@]}" d/a.ko
	cmp d/a.ko ref/a.ko
}

@test "front: a tool proper that cannot run: one line naming it and why, exit 7" {
	copy_sign_file "$W/inst" >/dev/null
	printf 'not an ELF program\n' > inst/lib/modsign/sign-file
	run -7 --separate-stderr inst/bin/sign-file sha256 "${PEM[@]}" d/a.ko
	assert_equal "$stderr" "sign-file: $W/inst/bin/../lib/modsign/sign-file: cannot run sign-file's signing code: Exec format error (reinstall modsign)"
	chmod a-x inst/lib/modsign/sign-file
	run -7 --separate-stderr inst/bin/sign-file sha256 "${PEM[@]}" d/a.ko
	assert_equal "$stderr" "sign-file: $W/inst/bin/../lib/modsign/sign-file: cannot run sign-file's signing code: Permission denied (reinstall modsign)"
	cmp d/a.ko <(make_module /dev/stdout 30000)
}

@test "front: a front end where its tool proper belongs is not run again (no endless exec)" {
	copy_sign_file "$W/inst" >/dev/null
	ln -sf ../../bin/sign-file inst/lib/modsign/sign-file
	run --separate-stderr timeout 30 inst/bin/sign-file sha256 "${PEM[@]}" d/a.ko
	# skipped as itself; what is left is the installed directory's
	[ "$status" -ne 124 ]
	[ "$status" -eq 0 ] || assert_regex "$stderr" "^sign-file: cannot find sign-file's signing code"
}

@test "front: a symlink to sign-file, as a kernel tree's scripts/sign-file, signs as the kernel's tool" {
	need_reference
	mkdir -p tree/scripts
	ln -s "$SIGN_FILE" tree/scripts/sign-file
	cp d/a.ko k.ko
	"$REF_SIGN_FILE" sha256 "${PEM[@]}" k.ko
	run -0 tree/scripts/sign-file sha256 "${PEM[@]}" d/a.ko
	cmp d/a.ko k.ko
}
