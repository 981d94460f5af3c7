#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One spelling per fact: the same signer's issuer, serial number and key
# identifier read the same in extract-sig and verify-file, as text and as
# JSON (src/common/base/format.c is their one formatter).

load helpers
bats_require_minimum_version 1.5.0

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	mkdir certs
}

# A certificate whose names and serial exercise the formatter: UTF-8 in
# the subject (the issuer, self-signed) and a serial with its high bit
# set, which DER stores behind a zero byte.
odd_cert() {
	openssl req -new -x509 -newkey rsa:2048 -nodes -keyout odd.key \
		-out certs/odd.pem -days 2 -utf8 -set_serial 0x8000000000000a01 \
		-subj "/O=Zürich Ütilities/CN=Ünïcødé signer" \
		-addext "keyUsage=digitalSignature" 2>/dev/null
}

# field of the first signer in a JSON object on stdin
signer_field() {
	python3 -c 'import json, sys
print(json.load(sys.stdin)["signers"][0][sys.argv[1]])' "$1"
}

@test "extract-sig and verify-file --json spell issuer and serial alike" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	issuer=$(openssl x509 -in "$KEYS/rsa2048.crt" -noout -issuer \
		-nameopt esc_ctrl,utf8,sep_comma_plus_space,sname | cut -d= -f2-)
	serial=$(openssl x509 -in "$KEYS/rsa2048.crt" -noout -serial |
		cut -d= -f2 | tr A-F a-f | sed 's/^0*//')
	assert_equal "$(signer_field issuer < es.json)" "$issuer"
	assert_equal "$(signer_field issuer < vf.json)" "$issuer"
	assert_equal "$(signer_field serial < es.json)" "$serial"
	assert_equal "$(signer_field serial < vf.json)" "$serial"
}

@test "UTF-8 names stay UTF-8 and a high-bit serial loses its DER zero byte" {
	odd_cert
	make_module m.ko 4096
	"$SIGN_FILE" sha256 odd.key certs/odd.pem m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	assert_equal "$(signer_field issuer < es.json)" \
		"O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_equal "$(signer_field issuer < vf.json)" \
		"O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_equal "$(signer_field serial < es.json)" "8000000000000a01"
	assert_equal "$(signer_field serial < vf.json)" "8000000000000a01"
	run "$EXTRACT_SIG" m.ko
	assert_success
	assert_line "  issuer:         O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_line "  serial:         8000000000000a01"
	run "$VERIFY_FILE" -k certs --list-keys
	assert_success
	assert_line "    subject: O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_line "    serial:  8000000000000a01"
}

@test "a -k signer's key identifier reads alike in both tools" {
	make_module m.ko 4096
	cp "$KEYS/ec256.crt" certs/
	"$SIGN_FILE" -k sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" m.ko
	skid=$(openssl x509 -in "$KEYS/ec256.crt" -noout -ext subjectKeyIdentifier |
		tail -1 | tr -d ' :' | tr A-F a-f)
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	assert_equal "$(signer_field skid < es.json)" "$skid"
	assert_equal "$(signer_field skid < vf.json)" "$skid"
}

@test "both tools' signer objects have the same keys (one JSON schema)" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	keys() {
		python3 -c 'import json, sys
print(" ".join(sorted(json.load(sys.stdin)["signers"][0])))'
	}
	assert_equal "$(keys < es.json)" "$(keys < vf.json)"
	assert_equal "$(keys < es.json)" "certificate hash index issuer key_description key_type ml_dsa serial signature_algorithm signature_size signed_attributes signer signer_id skid subject trusted"
}

@test "verify-file --json: an unreadable file is an ERROR object, -r ends with a summary object, no escaped slashes" {
	mkdir tree
	make_module tree/m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" tree/m.ko
	run --separate-stderr "$VERIFY_FILE" --json -k certs tree/m.ko tree/missing.ko
	assert_failure 7
	refute_output --partial '\/'
	assert_equal "${#lines[@]}" 2
	run python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["file"] == "tree/missing.ko" and o["verdict"] == "ERROR", o
assert o["errno"] == "ENOENT" and "cannot read" in o["reason"], o' "${lines[1]}"
	assert_success
	run --separate-stderr "$VERIFY_FILE" --json -k certs -r tree
	assert_success
	run python3 -c 'import json, sys
s = json.loads(sys.argv[1])["summary"]
assert s == {"files": 1, "ok": 1, "unsigned": 0, "unknown_key": 0,
             "unsupported": 0, "rejected": 0, "malformed": 0,
             "unreadable": 0}, s' "${lines[-1]}"
	assert_success
}
