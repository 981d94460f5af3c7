#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# File names holding control bytes, in text output: quoted as coreutils'
# ls and stat quote them (shell-escape), so that no escape sequence
# reaches the terminal and no newline splits a line; JSON is unchanged.

load helpers
bats_require_minimum_version 1.5.0

K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

@test "verdict lines, batch lines, descriptions and errors quote control bytes as ls does" {
	local nl=$'a\nb.ko' esc=$'e\033[31m.ko' qnl qesc
	copy_module "$nl" 300
	copy_module "$esc" 300
	# the quoting is coreutils': compare with ls where it has the style
	qnl=$(ls --quoting-style=shell-escape -d -- "$nl")
	qesc=$(ls --quoting-style=shell-escape -d -- "$esc")
	assert_equal "$qnl" "'a'\$'\\n''b.ko'"
	assert_equal "$qesc" "'e'\$'\\033''[31m.ko'"
	run --separate-stderr "$SIGN_FILE" --batch "${K[@]}" "$nl" "$esc"
	assert_success
	assert_output "$qnl: signed
$qesc: signed
summary: 2 files: 2 signed, 0 already signed, 0 failed"
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$nl" "$esc"
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line -n 0 --partial "$qnl: OK (sha256"
	assert_line -n 1 --partial "$qesc: OK (sha256"
	run --separate-stderr "$EXTRACT_SIG" "$nl"
	assert_success
	assert_line -n 0 --partial "file:             $qnl ("
	# errors on stderr
	run --separate-stderr "$SIGN_FILE" "${K[@]}" "$nl"
	assert_failure 8
	assert_equal "$stderr" "sign-file: $qnl: already signed (use --replace or --skip-signed)"
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" $'no\tsuch.ko'
	assert_failure 7
	assert_equal "$stderr" "verify-file: 'no'\$'\\t''such.ko': cannot read: No such file or directory (check the path)"
	! grep -q $'\033' <<< "$output$stderr"
	# JSON keeps its own escaping
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$nl"
	assert_success
	assert_equal "$(jq -r .file <<< "$output")" "$nl"
}

@test "names without control bytes are printed as they are" {
	copy_module "it's here.ko" 300
	run --separate-stderr "$SIGN_FILE" --batch "${K[@]}" "it's here.ko"
	assert_success
	assert_line -n 0 "it's here.ko: signed"
}
