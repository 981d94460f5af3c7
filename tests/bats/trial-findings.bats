#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What a hostile-input and new-user trial of the three tools found: each
# case as the trial reproduced it, and what the tools do now.

load helpers
bats_require_minimum_version 1.5.0

K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

# A NUL-separated list read as lines would be cut at its first NUL: the
# tools refuse it (2) before judging or signing anything, and say -0.
@test "a --files-from list holding NUL bytes without -0 is refused, never cut" {
	local nulmsg="the file list holds NUL bytes: its names are NUL-separated (add -0)"
	copy_module s.ko 300
	copy_module t.ko 300
	"$SIGN_FILE" "${K[@]}" s.ko
	printf 's.ko\0t.ko\0' > l
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --files-from l
	assert_failure 2
	assert_output "verify-file: l: $nulmsg"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --files-from - < l
	assert_failure 2
	assert_output "verify-file: -: $nulmsg"
	run "$EXTRACT_SIG" --files-from l
	assert_failure 2
	assert_output "extract-sig: l: $nulmsg"
	cp t.ko t0.ko
	run "$SIGN_FILE" --batch --skip-signed "${K[@]}" --files-from l
	assert_failure 2
	assert_output "sign-file: l: $nulmsg"
	run "$SIGN_FILE" --batch --skip-signed "${K[@]}" --files-from - < l
	assert_failure 2
	assert_output "sign-file: -: $nulmsg"
	cmp t.ko t0.ko
	# with -0 the same list is read whole: both judged, both signed
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --files-from l -0
	assert_failure 3
	assert_line --index 1 --partial "t.ko: UNSIGNED -ENODATA"
	assert_line --partial "summary: 2 files: 1 ok, 1 unsigned"
	run "$SIGN_FILE" --batch --skip-signed "${K[@]}" --files-from - -0 < l
	assert_success
	assert_line "t.ko: signed"
	# a NUL in the middle of the last line, no newline at all
	printf 's.ko\nt.ko\0x.ko' > l2
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --files-from l2
	assert_failure 2
	assert_output "verify-file: l2: $nulmsg"
}

# Set byte i of a signed file's 12-byte descriptor to v, in place.
poke_desc() { # file index value
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(-40 + int(sys.argv[2]), 2)
f.write(bytes([int(sys.argv[3])]))' "$@"
}

# kernel/module_signature.c, mod_check_sig(): a PKCS#7 descriptor with a
# signer or key-id length is refused (-EBADMSG) before the CMS is read,
# a legacy id_type too (-ENOPKG); --skip-signed must not keep either.
@test "--skip-signed refuses a trailer the kernel refuses, never 'left unchanged'" {
	copy_module m.ko 4000
	"$SIGN_FILE" "${K[@]}" m.ko
	cp m.ko bad.ko
	poke_desc bad.ko 3 255
	poke_desc bad.ko 4 255
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" bad.ko
	assert_failure 6
	assert_output --partial "bad.ko: MALFORMED -EBADMSG: PKCS#7 signature info has unexpected non-zero params"
	cp bad.ko bad0.ko
	run "$SIGN_FILE" --skip-signed "${K[@]}" bad.ko
	assert_failure 6
	assert_output "sign-file: bad.ko: signature trailer the kernel refuses (PKCS#7 signature info has unexpected non-zero params): use --replace to sign it again"
	cmp bad.ko bad0.ko
	run "$SIGN_FILE" --batch --skip-signed "${K[@]}" bad.ko m.ko
	assert_failure 6
	assert_line "bad.ko: FAILED (exit 6)"
	assert_line "m.ko: already signed, left unchanged"
	cmp bad.ko bad0.ko
	# the legacy id_type (X.509, 1) the kernel no longer reads: -ENOPKG
	cp m.ko legacy.ko
	poke_desc legacy.ko 2 1
	run "$SIGN_FILE" --skip-signed "${K[@]}" legacy.ko
	assert_failure 6
	assert_output "sign-file: legacy.ko: signature trailer the kernel refuses (module: not signed with expected PKCS#7 message): use --replace to sign it again"
	# --replace re-signs it into one the kernel accepts
	run "$SIGN_FILE" --replace "${K[@]}" legacy.ko
	assert_success
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" legacy.ko
	assert_success
}

@test "sig_len 0 is reported as an empty signature, not as too long" {
	copy_module m.ko 300
	python3 -c 'import struct,sys
open(sys.argv[1],"ab").write(struct.pack(">BBBBB3xI",0,0,2,0,0,0)+b"~Module signature appended~\n")' m.ko
	run "$EXTRACT_SIG" m.ko
	assert_failure 6
	assert_output "extract-sig: m.ko: signature length is 0: the trailer holds no signature"
	# --modinfo is modinfo: kmod's kmod_module_signature_info() takes a
	# sig_len of 0 for no signature, so no lines and exit 0
	run --separate-stderr "$EXTRACT_SIG" --modinfo m.ko
	assert_success
	assert_output ""
}

# NAME_MAX is 255: ".<name>.<pid>.tmp-XXXXXX" no longer fits from 243
# bytes on; the temporary name then holds as much of the name as fits.
@test "a module named with 243 to 255 bytes is signed in place" {
	local l n
	hooks_env
	copy_module m.ko 300
	for l in 243 250 255; do
		n=$(head -c $((l - 3)) /dev/zero | tr '\0' a).ko
		[ "${#n}" = "$l" ]
		cp m.ko "$n"
		run "$SIGN_FILE" "${K[@]}" "$n"
		assert_success
		run "$VERIFY_FILE" -q -c "$KEYS/rsa2048.crt" "$n"
		assert_success
		# the named temporary file, where O_TMPFILE is missing
		cp m.ko "$n"
		run env "${HOOKS_ENV[@]}" MODSIGN_TEST_NO_TMPFILE=1 "$SIGN_FILE" "${K[@]}" "$n"
		assert_success
		run "$VERIFY_FILE" -q -c "$KEYS/rsa2048.crt" "$n"
		assert_success
		rm "$n"
	done
	[ "$(dir_listing .)" = m.ko ]
}

@test "extract-sig with two outputs leaves neither when the second cannot be written" {
	copy_module m.ko 300
	"$SIGN_FILE" "${K[@]}" m.ko
	run "$EXTRACT_SIG" -q --body-out body --sig-out nodir/sig m.ko
	assert_failure 7
	assert_output "extract-sig: nodir/sig: cannot write: No such file or directory"
	[ "$(dir_listing .)" = m.ko ]
	run "$EXTRACT_SIG" -q --body-out nodir/body --sig-out sig m.ko
	assert_failure 7
	[ "$(dir_listing .)" = m.ko ]
	# an existing first output is left as it was
	echo old > body
	run "$EXTRACT_SIG" -q --body-out body --sig-out nodir/sig m.ko
	assert_failure 7
	[ "$(cat body)" = old ]
	run "$EXTRACT_SIG" -q --body-out body --sig-out sig m.ko
	assert_success
	cat body sig > both
	head -c $(( $(file_size m.ko) - 40 )) m.ko | cmp - both
}

@test "the batch summary counts an already signed module as already signed, not failed" {
	copy_module a.ko 300
	copy_module b.ko 300
	"$SIGN_FILE" "${K[@]}" a.ko
	run --separate-stderr "$SIGN_FILE" --batch "${K[@]}" a.ko b.ko
	assert_failure 8
	assert_output "a.ko: already signed, refused (exit 8)
b.ko: signed
summary: 2 files: 1 signed, 1 already signed, 0 failed"
	assert_equal "$stderr" "sign-file: a.ko: already signed (use --replace or --skip-signed)"
	run --separate-stderr "$SIGN_FILE" --batch --json "${K[@]}" a.ko b.ko
	assert_failure 8
	assert_line -n 0 '{"file":"a.ko","verdict":"ERROR","errno":"EEXIST","reason":"already signed (use --replace or --skip-signed)","exit":8}'
	assert_line -n 2 '{"summary":{"files":2,"signed":0,"already_signed":2,"failed":0,"exit":8}}'
}

# The hash, not the key, is what fails: 5 (ENOPKG), as verify-file's
# verdict on such a signature; a name OpenSSL does not know is 2.
@test "a hash no kernel takes fails with the hash's exit status, not the key's" {
	local h
	copy_module u.ko 300
	for h in blake2b512 md4; do
		run --separate-stderr "$SIGN_FILE" "$h" "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" u.ko
		assert_failure 5
		assert_equal "${stderr_lines[-1]}" "sign-file: u.ko: cannot sign with this hash (use sha256, sha384 or sha512)"
	done
	run --separate-stderr "$SIGN_FILE" blake2b512 "$KEYS/ec256.key" "$KEYS/ec256.crt" u.ko
	assert_failure 5
	run --separate-stderr "$SIGN_FILE" nohash "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" u.ko
	assert_failure 2
	[ "$(dir_listing . | grep -v ^separate-stderr-)" = u.ko ]
}

@test "make demo prints no escape codes when stdout is not a terminal" {
	run "$TOP/tests/demo.sh" "$BIN"
	assert_success
	assert_line "$ $BIN/extract-sig --modinfo hello.ko"
	! grep -q $'\033' <<< "$output" || fail "escape codes in: $output"
}
