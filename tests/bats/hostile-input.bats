#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile and odd input: every tool answers with an exit code from the
# table and one line, never a crash, and damages nothing.

load helpers

@test "every fuzz regression input gets a table exit code from extract-sig" {
	local f rc
	for f in "$TOP"/tests/fuzz/regressions/*; do
		for opt in "" --json --modinfo -d; do
			rc=0
			"$EXTRACT_SIG" $opt "$f" >/dev/null 2>&1 || rc=$?
			[ "$rc" -le 9 ] || { echo "$f $opt: exit $rc"; return 1; }
		done
	done
}

@test "descriptor sig_len at every boundary: exit codes, no crash" {
	local n rc
	make_module m.ko 100
	for n in 0 1 99 100 101 4294967295; do
		cp m.ko t.ko
		python3 -c 'import struct,sys
open(sys.argv[1],"ab").write(struct.pack(">BBBBB3xI",0,0,2,0,0,int(sys.argv[2]))+b"~Module signature appended~\n")' t.ko "$n"
		rc=0
		"$EXTRACT_SIG" t.ko >/dev/null 2>&1 || rc=$?
		case $n in
		0 | 101 | 4294967295) [ "$rc" = 6 ] || { echo "sig_len $n: exit $rc"; return 1; } ;;
		*) [ "$rc" = 6 ] || { echo "sig_len $n: exit $rc (garbage CMS)"; return 1; } ;;
		esac
	done
}

@test "a 0-byte file is unsigned; a FIFO and a device are refused without blocking" {
	: > empty.ko
	run "$EXTRACT_SIG" empty.ko
	assert_failure 3
	mkfifo fifo.ko
	run timeout 10 "$EXTRACT_SIG" fifo.ko
	assert_failure 7
	assert_output "extract-sig: fifo.ko: not a regular file"
	run timeout 10 "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" fifo.ko
	assert_failure 7
	assert_output "sign-file: fifo.ko: not a regular file"
	run timeout 10 "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" /dev/null
	assert_failure 7
	assert_output "sign-file: /dev/null: not a regular file"
}

@test "a FIFO or device module is refused without being opened" {
	need_cmd strace strace
	mkfifo fifo.ko
	mknod dev.ko c 1 3 2>/dev/null || ln -s /dev/null dev.ko
	for m in fifo.ko dev.ko; do
		# LeakSanitizer cannot run under ptrace: off for an ASan build
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run strace -f -e trace=open,openat -o trace "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$m"
		assert_failure 7
		assert_output --partial "sign-file: $m: not a regular file"
		# opening a device can act on it (a tape rewinds on close)
		! grep -F "\"$m\"" trace || fail "$m was opened"
		grep -qF "$KEYS/rsa2048.crt" trace || fail "strace saw no open at all"
	done
}

@test "a FIFO or device as the destination is refused, never replaced by a file" {
	make_module m.ko 100
	cp m.ko orig.ko
	mkfifo fifo.ko
	run timeout 10 "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko fifo.ko
	assert_failure 7
	assert_output "sign-file: fifo.ko: not a regular file"
	[ -p fifo.ko ]
	# through a symbolic link, and for the .p7s of -p too
	ln -s fifo.ko link.ko
	run timeout 10 "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko link.ko
	assert_failure 7
	[ -p fifo.ko ] && [ -L link.ko ]
	mkfifo m.ko.p7s
	run timeout 10 "$SIGN_FILE" -p sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 7
	assert_output "sign-file: m.ko.p7s: not a regular file"
	[ -p m.ko.p7s ] && [ ! -e out.ko ]
	# as root, a dest of /dev/null would have replaced /dev/null
	if mknod null.ko c 1 3 2>/dev/null; then
		run timeout 10 "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko null.ko
		assert_failure 7
		assert_output "sign-file: null.ko: not a regular file"
		[ -c null.ko ]
		cp m.ko signed.ko
		"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" signed.ko
		run "$EXTRACT_SIG" --body null.ko signed.ko
		assert_failure 7
		assert_output --partial "null.ko: cannot write: not a regular file"
		[ -c null.ko ]
	fi
	cmp m.ko orig.ko
}

@test "a sparse 4 GiB module is signed and described" {
	truncate -s 4G big.ko
	printf 'ELF' | dd of=big.ko bs=1 seek=1000 conv=notrunc 2>/dev/null
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" big.ko
	assert_success
	run "$EXTRACT_SIG" -d big.ko
	assert_success
	assert_output --regexp '^0 0 2 0 0 [0-9]+$'
	[ "$(stat -c %s big.ko)" -gt 4294967296 ]
}

@test "non-UTF-8 and very long file names work" {
	local long
	make_module "$(printf 'm\377\376.ko')" 100
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$(printf 'm\377\376.ko')"
	assert_success
	long=$(printf 'd%.0s' $(seq 1 200))
	mkdir -p "$long/$long/$long/$long/$long"
	make_module "$long/$long/$long/$long/$long/m.ko" 100
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$long/$long/$long/$long/$long/m.ko"
	assert_success
	run "$EXTRACT_SIG" -q "$long/$long/$long/$long/$long/m.ko"
	assert_success
}
