#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Under --json a run that fails as a whole (a usage error, a trust source
# that cannot be read, a file list that names nothing) still prints one
# JSON object on stdout: {"error":{"file","errno","reason","exit"}}, the
# words of the diagnostic on stderr.

load helpers
bats_require_minimum_version 1.5.0

@test "verify-file --json: a trust source that cannot be read is one error object" {
	copy_module m.ko 300
	run --separate-stderr "$VERIFY_FILE" --json -k missing-dir m.ko
	assert_failure 9
	assert_output '{"error":{"file":"missing-dir","errno":"ENOENT","reason":"cannot read the certificate directory: No such file or directory (check -k)","exit":9}}'
	assert_equal "$stderr" "verify-file: missing-dir: cannot read the certificate directory: No such file or directory (check -k)"
}

@test "--machine with nothing to trust is a trust-source failure (9), without 'Try --help'" {
	copy_module m.ko 300
	mkdir root
	run --separate-stderr "$VERIFY_FILE" --json --machine=6.1.0-9-amd64 --sysroot root m.ko
	assert_failure 9
	assert_output '{"error":{"errno":"ENOKEY","reason":"--machine found no kernel image and no UEFI variables to trust (give -k DIR, -c CERT or --vmlinux)","exit":9}}'
	assert_equal "${stderr_lines[-1]}" "verify-file: --machine found no kernel image and no UEFI variables to trust (give -k DIR, -c CERT or --vmlinux)"
	[[ "$stderr" != *"Try '"* ]] || fail "$stderr"
	run --separate-stderr "$VERIFY_FILE" --machine=6.1.0-9-amd64 --sysroot root m.ko
	assert_failure 9
	assert_output ""
}

@test "no trust option at all: the hint names --machine; --json gets a usage error object" {
	copy_module m.ko 300
	run --separate-stderr "$VERIFY_FILE" m.ko
	assert_failure 2
	assert_equal "$stderr" "verify-file: no trusted certificates (give --machine, -k DIR, -c CERT, --vmlinux, --esl, --mok or --efi-db)
Try 'verify-file --help' for the usage."
	run --separate-stderr "$VERIFY_FILE" --json m.ko
	assert_failure 2
	assert_output '{"error":{"errno":"EINVAL","reason":"no trusted certificates (give --machine, -k DIR, -c CERT, --vmlinux, --esl, --mok or --efi-db)","exit":2}}'
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --no-such-option m.ko
	assert_failure 2
	assert_output '{"error":{"errno":"EINVAL","reason":"usage error","exit":2}}'
}

@test "verify-file and extract-sig --json: a list or tree that yields nothing is one error object" {
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" -r nodir
	assert_failure 7
	assert_output '{"error":{"file":"nodir","errno":"EIO","reason":"cannot walk the directory: No such file or directory (check -r)","exit":7}}'
	: > empty
	run --separate-stderr "$EXTRACT_SIG" --json --files-from empty
	assert_failure 2
	assert_output '{"error":{"file":"empty","errno":"EINVAL","reason":"the file list names no file (check --files-from)","exit":2}}'
	jq -e .error.exit <<< "$output" > /dev/null
}

@test "extract-sig --json: a usage error and a certificate that cannot be read are error objects" {
	copy_module m.ko 300
	run --separate-stderr "$EXTRACT_SIG" --json
	assert_failure 2
	assert_output '{"error":{"errno":"EINVAL","reason":"no FILE to describe","exit":2}}'
	run --separate-stderr "$EXTRACT_SIG" --json -c nocert m.ko
	assert_failure 9
	assert_equal "$(jq -c '.error | {file, exit}' <<< "$output")" '{"file":"nocert","exit":9}'
	assert_equal "${#lines[@]}" 1
	# a file that cannot be read keeps its own object, as before
	run --separate-stderr "$EXTRACT_SIG" --json missing.ko
	assert_failure 7
	assert_output '{"file":"missing.ko","verdict":"ERROR","errno":"ENOENT","reason":"No such file or directory"}'
}
