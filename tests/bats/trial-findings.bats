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
