# SPDX-License-Identifier: GPL-2.0-or-later
#
# extract-sig describes ML-DSA signers: the parameter set, the signature
# size, signed attributes, and what the target kernel line makes of them
# on a module (the CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA
# waiver).  Describing needs no ML-DSA arithmetic, so these run on every
# build, on the committed modules of tests/fixtures/mldsa/
# (make-mldsa-modules.sh) and keys/mldsa65.ko (make-keys.sh), which has
# no signed attributes.

bats_require_minimum_version 1.5.0
load helpers

M="$TOP/tests/fixtures/mldsa"

signer_json() { # file [options...]: the first signer's JSON object
	local f=$1
	shift
	"$EXTRACT_SIG" --json "$@" "$f" | python3 -c 'import json, sys
print(json.dumps(json.load(sys.stdin)["signers"][0], sort_keys=True))'
}

@test "ML-DSA-65 with signed attributes: the set, the size, and the waiver 7.3 needs" {
	run -0 "$EXTRACT_SIG" --kernel 7.3 "$M/m65.ko"
	assert_line "  signature alg:  ML-DSA-65"
	assert_line "  signature:      3309 bytes"
	assert_line "  parameter set:  ML-DSA-65 (FIPS 204), signature of the set's size"
	assert_line "  signed attrs:   present: on modules only a kernel built with CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y accepts them"
	assert_line "  waiver on 7.3:  needed"
	assert_line "  hash:           sha512"
}

@test "the newest line is the default target" {
	run -0 "$EXTRACT_SIG" "$M/m65.ko"
	local default=$output
	run -0 "$EXTRACT_SIG" --kernel 7.3 "$M/m65.ko"
	assert_equal "$default" "$output"
}

@test "ML-DSA without signed attributes needs no waiver" {
	run -0 "$EXTRACT_SIG" --kernel 7.3 "$KEYS/mldsa65.ko"
	assert_line "  parameter set:  ML-DSA-65 (FIPS 204), signature of the set's size"
	assert_line "  signed attrs:   none"
	assert_line "  waiver on 7.3:  not-needed"
}

@test "ML-DSA-44 by subjectKeyIdentifier and ML-DSA-87 with sha256 are named with their sizes" {
	run -0 "$EXTRACT_SIG" --kernel 7.3 "$M/m44-keyid.ko"
	assert_line "  identified by:  subjectKeyIdentifier"
	assert_line "  signature:      2420 bytes"
	assert_line "  parameter set:  ML-DSA-44 (FIPS 204), signature of the set's size"
	run -0 "$EXTRACT_SIG" --kernel 7.3 "$M/m87-sha256.ko"
	assert_line "  signature:      4627 bytes"
	assert_line "  parameter set:  ML-DSA-87 (FIPS 204), signature of the set's size"
	assert_line "  hash:           sha256"
}

@test "a line without ML-DSA says so (6.12, 6.1)" {
	for line in 6.12 6.1; do
		run -0 "$EXTRACT_SIG" --kernel "$line" "$M/m65.ko"
		assert_line "  signed attrs:   present (this kernel line has no ML-DSA at all)"
		assert_line "$(printf '  %-16s%s' "waiver on $line:" no-ml-dsa)"
	done
}

@test "--json: an ml_dsa object per ML-DSA signer" {
	run -0 signer_json "$M/m65.ko" --kernel 7.3
	assert_output --partial '"ml_dsa": {"kernel": "7.3", "parameter_set": "ML-DSA-65", "signature_size_expected": 3309, "waiver": "needed"}'
	assert_output --partial '"signature_size": 3309'
	assert_output --partial '"signed_attributes": true'
	assert_output --partial '"signature_algorithm": "ML-DSA-65"'
	run -0 signer_json "$KEYS/mldsa65.ko" --kernel 7.3
	assert_output --partial '"waiver": "not-needed"'
	assert_output --partial '"signed_attributes": false'
	run -0 signer_json "$M/m44-keyid.ko" --kernel 6.12
	assert_output --partial '"ml_dsa": {"kernel": "6.12", "parameter_set": "ML-DSA-44", "signature_size_expected": 2420, "waiver": "no-ml-dsa"}'
}

@test "an RSA signer has no ML-DSA description" {
	copy_module m.ko 5000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" m.ko
	run -0 signer_json m.ko
	assert_output --partial '"ml_dsa": null'
	run -0 "$EXTRACT_SIG" m.ko
	refute_output --partial "parameter set:"
	refute_output --partial "waiver on"
}

@test "a truncated ML-DSA signature value is named as not of the set's size" {
	# cut 100 bytes out of the signature value's end and fix the lengths
	python3 - "$M/m65.ko" m.ko <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
n = int.from_bytes(d[-32:-28], "big")
start = len(d) - 40 - n
cms = bytearray(d[start:len(d) - 40])
# the value is the last element: 04 82 0c ed (3309) -> 0c89 (3209); the
# enclosing SEQUENCE/SET/[0]/SEQUENCE lengths (all 82 LL LL) shrink by 100
i = cms.rfind(b"\x04\x82\x0c\xed")
cms[i + 2:i + 4] = (3209).to_bytes(2, "big")
del cms[len(cms) - 100:]
for off in range(0, i):
    if cms[off] in (0x30, 0x31, 0xa0) and cms[off + 1] == 0x82:
        ln = int.from_bytes(cms[off + 2:off + 4], "big")
        if off + 4 + ln == len(cms) + 100:
            cms[off + 2:off + 4] = (ln - 100).to_bytes(2, "big")
tail = d[-40:]
tail[8:12] = len(cms).to_bytes(4, "big")
open(sys.argv[2], "wb").write(d[:start] + cms + tail)
PY
	run -0 "$EXTRACT_SIG" m.ko
	assert_line "  signature:      3209 bytes"
	assert_line "  parameter set:  ML-DSA-65 (FIPS 204), signature NOT of the set's size"
}
