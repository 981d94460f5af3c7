#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The mutants real kernels and verify-file once disagreed on
# (tests/fixtures/conformance/mutants/, kept by make kernel-mutants), held
# to the kernels' recorded verdicts without QEMU: the decoder must stay
# the kernel's on every one of them.

load helpers

OFFLINE="$TOP/tests/kernel/mutants-offline.sh"
MUTANTS="$TOP/tests/fixtures/conformance/mutants"

@test "kernel 5.10: every kept mutant gets the errno the real 5.10 kernel gave it" {
	run "$OFFLINE" -v "$BIN" 5.10
	assert_success
	assert_output --regexp '^5\.10: [0-9]+ agree, 0 disagree \(0 false accepts\)$'
	[ "$(echo "$output" | cut -d' ' -f2)" -ge 151 ]
}

@test "kernel 6.1: every kept mutant gets the errno the real 6.1 kernel gave it" {
	run "$OFFLINE" -v "$BIN" 6.1
	assert_success
	assert_output --regexp '^6\.1: [0-9]+ agree, 0 disagree \(0 false accepts\)$'
	[ "$(echo "$output" | cut -d' ' -f2)" -ge 147 ]
}

@test "kernel 6.12: every kept mutant gets the errno the real 6.12 kernel gave it" {
	run "$OFFLINE" -v "$BIN" 6.12
	assert_success
	assert_output --regexp '^6\.12: [0-9]+ agree, 0 disagree \(0 false accepts\)$'
	[ "$(echo "$output" | cut -d' ' -f2)" -ge 147 ]
}

@test "kernel 7.3: every kept mutant gets the errno the real 7.3 kernel gave it" {
	run "$OFFLINE" -v "$BIN" 7.3
	assert_success
	assert_output --regexp '^7\.3: [0-9]+ agree, 0 disagree \(0 false accepts\)$'
	[ "$(echo "$output" | cut -d' ' -f2)" -ge 146 ]
}

@test "a recorded verdict verify-file does not give is reported by mutant, a refused one it accepts as FALSE ACCEPT" {
	mkdir m
	cp "$MUTANTS"/* m/
	cp "$TOP/tests/fixtures/conformance/payload.bin" m/
	# s2001-113: a kernel-accepted mutant (constructed bit of a Name
	# SEQUENCE cleared); s2002-220: one the kernels refuse -EBADMSG;
	# column 9 is errno_6.1 (errno_5.10 before it)
	awk -F'\t' 'BEGIN { OFS = "\t" }
		$1 == "s2001-113" { $9 = "EBADMSG" }
		$1 == "s2002-220" { $9 = "0" } { print }' \
		"$MUTANTS/mutants.tsv" >m/mutants.tsv
	MODSIGN_MUTANTS="$PWD/m" run "$OFFLINE" -v "$BIN" 6.1
	assert_failure
	assert_line '6.1: s2001-113: kernel EBADMSG, verify-file 0 FALSE ACCEPT: constructed bit of cert[0].subject/0/0 (SEQUENCE) cleared (tag 10)'
	assert_line --regexp '^6\.1: s2002-220: kernel 0, verify-file EBADMSG: '
	assert_line --regexp '^6\.1: [0-9]+ agree, 2 disagree \(1 false accepts\)$'
}
