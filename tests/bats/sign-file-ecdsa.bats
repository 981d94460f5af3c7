# SPDX-License-Identifier: GPL-2.0-or-later
#
# ECDSA P-256 and P-384.  ECDSA signatures are randomized, so instead of
# comparing with the kernel tool byte for byte these tests check the
# layout (body untouched, descriptor, magic), the CMS structure the kernel
# expects (ecdsa-with-SHA*, no signed attributes, no certificates) and that
# OpenSSL verifies the signature over the body.  Body and signature are cut
# out with head/tail from the descriptor's sig_len, not with extract-sig.

bats_require_minimum_version 1.5.0
load helpers

MID=100000

# Sign a copy of a 100 KB module; check everything; leave mod.ko signed.
sign_ecdsa() { # curve-key hash [options...]
	local key=$1 hash=$2
	shift 2
	copy_module "$W/orig.ko" "$MID"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 --separate-stderr "$SIGN_FILE" "$@" "$hash" "$KEYS/$key.key" \
		"$KEYS/$key.der" "$W/mod.ko"
	assert_output ""
	check_layout "$W/mod.ko"
	check_cms "$W/sig.cms" "$hash"
	run -0 openssl_verify_detached "$W/sig.cms" "$W/body" "$KEYS/$key.der"
}

# Layout of a signed module whose body must be orig.ko; writes body and
# sig.cms next to it.
check_layout() { # signed
	local size sig_len
	size=$(file_size "$1")
	sig_len=$(trailer_sig_len "$1")
	[ "$sig_len" -gt 0 ]
	assert_equal "$size" $(($(file_size "$W/orig.ko") + sig_len + SIG_TRAILER_LEN))
	ends_with_sig_magic "$1"
	assert_equal "$(trailer_desc_hex "$1")" "0000020000000000$(printf %08x "$sig_len")"
	split_signed "$1" "$W/body" "$W/sig.cms"
	cmp "$W/body" "$W/orig.ko"
	assert_equal "$(file_size "$W/sig.cms")" "$sig_len"
}

# The CMS the kernel's pkcs7 parser accepts: SignedData, detached, one
# signer, ecdsa-with-<HASH>, digest <hash>, no signed attributes, no certs.
check_cms() { # cms hash
	local alg
	alg="ecdsa-with-$(echo "$2" | tr a-z A-Z)"
	run -0 openssl cms -cmsout -print -inform DER -in "$1"
	assert_output --partial "contentType: pkcs7-signedData"
	assert_output --regexp "signatureAlgorithm: *
 *algorithm: $alg "
	assert_output --regexp "digestAlgorithm: *
 *algorithm: $2 "
	assert_output --regexp "signedAttrs:
 *<ABSENT>"
	assert_output --regexp "certificates:
 *<ABSENT>"
	assert_output --regexp "eContent: <ABSENT>"
	[ "$(grep -c 'signatureAlgorithm:' <<< "$output")" -eq 1 ]
}

@test "ECDSA P-256 sha256: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec256 sha256; }
@test "ECDSA P-256 sha384: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec256 sha384; }
@test "ECDSA P-256 sha512: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec256 sha512; }
@test "ECDSA P-384 sha256: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec384 sha256; }
@test "ECDSA P-384 sha384: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec384 sha384; }
@test "ECDSA P-384 sha512: layout, CMS structure and OpenSSL verification" { sign_ecdsa ec384 sha512; }

@test "ECDSA signer by issuer and serial without -k (CMS SignerInfo v1)" {
	sign_ecdsa ec256 sha256
	run -0 openssl cms -cmsout -print -inform DER -in "$W/sig.cms"
	assert_output --partial "d.issuerAndSerialNumber:"
	refute_output --partial "d.subjectKeyIdentifier:"
}

@test "ECDSA P-256 with -k names the signer by subjectKeyIdentifier and verifies" {
	sign_ecdsa ec256 sha256 -k
	local skid
	skid=$(openssl x509 -inform DER -in "$KEYS/ec256.der" -noout -ext subjectKeyIdentifier |
		tail -n 1 | tr -d ' :' | tr A-F a-f)
	[ "${#skid}" -eq 40 ]
	run -0 openssl cms -cmsout -print -inform DER -in "$W/sig.cms"
	assert_output --partial "d.subjectKeyIdentifier:"
	refute_output --partial "d.issuerAndSerialNumber:"
	# the hexdump of the SKID in the print, joined up, holds the cert's SKID
	local dump
	dump=$(sed -n '/d.subjectKeyIdentifier:/,/digestAlgorithm:/p' <<< "$output" |
		grep -E '^ *[0-9a-f]{4} - ' | sed -E 's/^ *[0-9a-f]{4} - //; s/   .*$//' |
		tr -d ' \n-')
	assert_equal "$dump" "$skid"
}

@test "ECDSA P-384 with -k verifies" { sign_ecdsa ec384 sha384 -k; }

@test "ECDSA with a PEM certificate verifies" {
	copy_module "$W/orig.ko" "$MID"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 --separate-stderr "$SIGN_FILE" sha256 "$KEYS/ec256.key" \
		"$KEYS/ec256.crt" "$W/mod.ko"
	check_layout "$W/mod.ko"
	run -0 openssl_verify_detached "$W/sig.cms" "$W/body" "$KEYS/ec256.crt"
}

@test "ECDSA signatures are randomized, and every one verifies" {
	sign_ecdsa ec256 sha256
	mv "$W/sig.cms" "$W/first.cms"
	cp "$W/mod.ko" "$W/first.ko"
	sign_ecdsa ec256 sha256
	run -1 cmp -s "$W/first.cms" "$W/sig.cms"
	run -0 openssl_verify_detached "$W/first.cms" "$W/orig.ko" "$KEYS/ec256.der"
}

@test "ECDSA -p: the .p7s is exactly the signature appended to the module" {
	sign_ecdsa ec384 sha384 -p
	cmp "$W/mod.ko.p7s" "$W/sig.cms"
}

@test "ECDSA -d: only a verifying .p7s, the module untouched" {
	copy_module "$W/orig.ko" "$MID"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 --separate-stderr "$SIGN_FILE" -d sha384 "$KEYS/ec384.key" \
		"$KEYS/ec384.der" "$W/mod.ko"
	assert_output ""
	cmp "$W/mod.ko" "$W/orig.ko"
	check_cms "$W/mod.ko.p7s" sha384
	run -0 openssl_verify_detached "$W/mod.ko.p7s" "$W/orig.ko" "$KEYS/ec384.der"
}

@test "ECDSA -s appends the given CMS verbatim, byte-identical to the kernel tool" {
	copy_module "$W/orig.ko" "$MID"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 "$SIGN_FILE" -d sha256 "$KEYS/ec256.key" "$KEYS/ec256.der" "$W/mod.ko"
	mv "$W/mod.ko.p7s" "$W/raw.cms"
	cp "$W/orig.ko" "$W/ref.ko"
	run -0 --separate-stderr "$SIGN_FILE" -s "$W/raw.cms" sha256 \
		"$KEYS/ec256.der" "$W/mod.ko"
	assert_output ""
	check_layout "$W/mod.ko"
	cmp "$W/sig.cms" "$W/raw.cms"
	need_reference
	run -0 "$REF_SIGN_FILE" -s "$W/raw.cms" sha256 "$KEYS/ec256.der" "$W/ref.ko"
	cmp "$W/mod.ko" "$W/ref.ko"
}

@test "a module signed by the reference with ECDSA has the same layout and CMS shape" {
	need_reference
	copy_module "$W/orig.ko" "$MID"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 "$REF_SIGN_FILE" sha384 "$KEYS/ec384.key" "$KEYS/ec384.der" "$W/mod.ko"
	check_layout "$W/mod.ko"
	check_cms "$W/sig.cms" sha384
	local ref_size
	ref_size=$(file_size "$W/sig.cms")
	sign_ecdsa ec384 sha384
	# DER ECDSA values vary by a byte or two with leading zeros
	[ $(( $(file_size "$W/sig.cms") - ref_size )) -le 4 ]
	[ $(( ref_size - $(file_size "$W/sig.cms") )) -le 4 ]
}

# The kernel tools' ECDSA output, structure for structure: the same tags
# and contents but for the signature value (randomised, and of varying
# length), tests/fixtures/cms-mask.py tree.
same_structure_as() { # reference-tool key hash [options...]
	local ref=$1 key=$2 hash=$3
	shift 3
	copy_module "$W/orig.ko" "$MID"
	mkdir -p "$W/r" "$W/o"
	cp "$W/orig.ko" "$W/r/mod.ko"
	cp "$W/orig.ko" "$W/o/mod.ko"
	run -0 "$ref" "$@" "$hash" "$KEYS/$key.key" "$KEYS/$key.der" "$W/r/mod.ko"
	run -0 "$SIGN_FILE" "$@" "$hash" "$KEYS/$key.key" "$KEYS/$key.der" "$W/o/mod.ko"
	"$CMS_MASK" tree "$W/r/mod.ko" > "$W/r.tree"
	"$CMS_MASK" tree "$W/o/mod.ko" > "$W/o.tree"
	diff "$W/r.tree" "$W/o.tree"
	grep -q '<signature value>' "$W/o.tree"
	split_signed "$W/o/mod.ko" "$W/body" "$W/sig.cms"
	cmp "$W/body" "$W/orig.ko"
	run -0 openssl_verify_detached "$W/sig.cms" "$W/body" "$KEYS/$key.der"
}

@test "ECDSA P-256 sha256: the 6.1 kernel tool's structure" {
	need_reference
	same_structure_as "$REF_SIGN_FILE" ec256 sha256
}

@test "ECDSA P-256 sha256: the 7.3 kernel tool's structure" {
	need_reference73
	same_structure_as "$REF73_SIGN_FILE" ec256 sha256
}

@test "ECDSA P-384 sha384 -k: the 7.3 kernel tool's structure" {
	need_reference73
	same_structure_as "$REF73_SIGN_FILE" ec384 sha384 -k
}

@test "ECDSA P-384 sha512: the 7.3 kernel tool's structure" {
	need_reference73
	same_structure_as "$REF73_SIGN_FILE" ec384 sha512
}
