#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One exit-code table: the same failure gives the same code in every tool,
# and every tool's --help ends with the same table.

load helpers
bats_require_minimum_version 1.5.0

@test "every tool's --help ends with the same exit status table" {
	for t in "$SIGN_FILE" "$EXTRACT_SIG" "$VERIFY_FILE"; do
		"$t" --help | sed -n '/^Exit status/,$p' > "$(basename "$t").table"
		[ -s "$(basename "$t").table" ]
	done
	run diff sign-file.table verify-file.table
	assert_success
	run diff sign-file.table extract-sig.table
	assert_success
	run cat sign-file.table
	assert_line "  9   key, certificate or trust source unusable"
	assert_line "  2, 7, 9, 10, 1, 6, 8, 4, 5, 3, 0."
}

@test "a missing certificate is exit 9 in all three tools" {
	make_module m.ko 2000
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" missing.crt m.ko
	assert_failure 9
	assert_output --partial "missing.crt"
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run "$EXTRACT_SIG" -c missing.crt m.ko
	assert_failure 9
	assert_output --partial "missing.crt"
	run "$VERIFY_FILE" -c missing.crt m.ko
	assert_failure 9
	assert_output --partial "missing.crt"
}

@test "a PKCS#12 file given as a trusted certificate is exit 9 with the way out" {
	make_module m.ko 2000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	openssl pkcs12 -export -in "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" \
		-passout pass: -out k.p12
	run "$VERIFY_FILE" -c k.p12 m.ko
	assert_failure 9
	assert_output "verify-file: k.p12: a PKCS#12 file, which the kernel cannot load (take its certificate out: openssl pkcs12 -nokeys -clcerts -in FILE -out cert.pem)"
	# the way out works
	openssl pkcs12 -nokeys -clcerts -in k.p12 -passin pass: -out cert.pem
	run "$VERIFY_FILE" -c cert.pem m.ko
	assert_success
}

@test "with several files the most severe code wins: ENOKEY (4) over ENOPKG (5)" {
	make_module a.ko 2000
	make_module b.ko 2000
	mkdir certs
	cp "$KEYS/rsa2048.crt" certs/
	# a.ko: signed by a key the keyring lacks (4)
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" a.ko
	# b.ko: a digest the 6.1 line cannot do (5)
	"$SIGN_FILE" sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" b.ko
	run "$VERIFY_FILE" --kernel 6.1 -k certs b.ko
	assert_failure 5
	run "$VERIFY_FILE" --kernel 6.1 -k certs a.ko b.ko
	assert_failure 4
	run "$VERIFY_FILE" --kernel 6.1 -k certs b.ko a.ko
	assert_failure 4
}
