#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ML-DSA (FIPS 204) as the 7.3 kernel verifies it, on both kinds of
# build.  Whether this verify-file can check an ML-DSA signature is what
# its --version says (OpenSSL 3.5 and later): there the signatures are
# made now with openssl and must verify; built with OpenSSL 3.0, every
# rule that needs no ML-DSA arithmetic still applies, and a verdict that
# does is CANNOT-CHECK with exit 10.  The committed samples in
# tests/fixtures/keys (make-keys.sh mldsa) serve both.

load helpers
bats_require_minimum_version 1.5.0

MC="$TOP/tests/fixtures/mldsa-cms.py"

setup_file() {
	if "$VERIFY_FILE" --version | grep -q '^OpenSSL .*; ML-DSA: yes$'; then
		export CHECKS=1
	else
		export CHECKS=0
	fi
}

# Only on a build that checks ML-DSA; the other kind has its own tests.
checks_mldsa() {
	[ "$CHECKS" = 1 ] || skip "this build cannot check ML-DSA (OpenSSL $(openssl version | cut -d' ' -f2)): its refusal is tested instead"
	openssl list -signature-algorithms | grep -q ML-DSA-65 ||
		fail "verify-file checks ML-DSA but this openssl cannot make ML-DSA signatures"
}
cannot_check() {
	[ "$CHECKS" = 0 ] || skip "this build checks ML-DSA: its verdicts are tested instead"
}

# The committed module signed by KEY: body and signature apart in $W.
split_sample() { # key
	python3 "$MC" unmodule "$KEYS/$1.ko" "$W/body" "$W/$1.p7s"
}

# sign_noattr KEY [DIGEST] [embed]: $W/KEY.ko, body $W/body, pure ML-DSA
# over the body without signed attributes
sign_noattr() {
	[ -f "$W/body" ] || make_module "$W/body" 4000
	openssl pkeyutl -sign -rawin -inkey "$KEYS/$1.key" -in "$W/body" -out "$W/$1.raw"
	python3 "$MC" noattr "$KEYS/$1.der" "$W/$1.raw" "${2:-sha512}" "$W/$1.p7s" ${3:-}
	python3 "$MC" module "$W/body" "$W/$1.p7s" "$W/$1.ko"
}

# A .config of a 7.3 kernel with ML-DSA and, given "waiver", the waiver.
config73() { # [waiver]
	printf '# Linux/x86 7.3.4 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_SHA512=y\nCONFIG_CRYPTO_MLDSA=y\n' > "$W/.config"
	[ "${1:-}" != waiver ] ||
		echo CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y >> "$W/.config"
}

@test "6.1 and 6.12 know no ML-DSA: the module is -ENOPKG, the certificates are left out" {
	for l in 6.1 6.12; do
		run "$VERIFY_FILE" -v --kernel "$l" -c "$KEYS/mldsa65.crt" -c "$KEYS/rsa2048.crt" "$KEYS/mldsa65.ko"
		assert_failure 5
		assert_output --partial "mldsa65.ko: UNSUPPORTED -ENOPKG: unsupported signature algorithm: ML-DSA arrived in v7.0"
		assert_output --partial "mldsa65.crt: certificate 1 left out: -ENOPKG: unsupported signature algorithm: ML-DSA arrived in v7.0"
	done
	# an RSA-signed certificate for an ML-DSA key: the key is refused
	run "$VERIFY_FILE" -v --kernel 6.12 -c "$KEYS/mldsa65-by-rsa.crt" -c "$KEYS/rsa2048.crt" --list-keys
	assert_output --partial "certificate 1 left out: -ENOPKG: ML-DSA keys arrived in v7.0 (x509_extract_key_data)"
}

@test "ML-DSA-65 module without signed attributes: OK on 7.3 (OpenSSL 3.5)" {
	checks_mldsa
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$KEYS/mldsa65.ko"
	assert_success
	assert_output --regexp "mldsa65.ko: OK \(sha512, ML-DSA-65, certificate \"modsign test ML-DSA-65 key\", issuer \"modsign test ML-DSA-65 key\", key [0-9a-f]{40}, cert .*mldsa65.crt\)$"
	for k in mldsa44 mldsa65 mldsa87; do
		sign_noattr "$k"
		run "$VERIFY_FILE" -c "$KEYS/$k.crt" "$W/$k.ko"
		assert_success
	done
	# the digestAlgorithm only has to be one the kernel parses
	sign_noattr mldsa65 sha256
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/mldsa65.ko"
	assert_success
	sign_noattr mldsa65 shake256
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/mldsa65.ko"
	assert_failure 5
}

@test "tampered ML-DSA modules get the kernel's errno (OpenSSL 3.5)" {
	checks_mldsa
	sign_noattr mldsa65
	python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[100] ^= 0xff
open(sys.argv[2], "wb").write(b)' "$W/mldsa65.ko" "$W/body-flipped.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/body-flipped.ko"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: ML-DSA signature does not verify"
	python3 "$MC" mutate "$W/mldsa65.p7s" ctilde "$W/c.p7s"
	python3 "$MC" module "$W/body" "$W/c.p7s" "$W/c.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/c.ko"
	assert_failure 1
	# the signature by another ML-DSA-65 key under mldsa65's name
	openssl pkeyutl -sign -rawin -inkey "$KEYS/mldsa65-other.key" -in "$W/body" -out "$W/o.raw"
	python3 "$MC" noattr "$KEYS/mldsa65.der" "$W/o.raw" sha512 "$W/o.p7s"
	python3 "$MC" module "$W/body" "$W/o.p7s" "$W/o.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/o.ko"
	assert_failure 1
	# an ML-DSA-65 signature under the ML-DSA-44 key: the algorithms differ
	sign_noattr mldsa65
	python3 "$MC" noattr "$KEYS/mldsa44.der" "$W/mldsa65.raw" sha512 "$W/x.p7s"
	python3 "$MC" module "$W/body" "$W/x.p7s" "$W/x.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa44.crt" "$W/x.ko"
	assert_failure 1
	# the signer embedded: the errors come back raw
	sign_noattr mldsa65-by-rsa sha512 embed
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/mldsa65-by-rsa.ko"
	assert_success
	python3 "$MC" mutate "$W/mldsa65-by-rsa.p7s" ctilde "$W/e.p7s"
	python3 "$MC" module "$W/body" "$W/e.p7s" "$W/e.ko"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/e.ko"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: ML-DSA signature does not verify"
}

@test "what needs no ML-DSA arithmetic is judged on every build: length, z range, hint" {
	split_sample mldsa65-by-rsa
	python3 "$MC" rawsig "$W/mldsa65-by-rsa.p7s" "$W/raw"
	head -c 3308 "$W/raw" > "$W/short"
	# trust path (the RSA-signed certificate for the ML-DSA key trusted):
	# pkcs7_validate_trust_one() turns every error into -EKEYREJECTED
	python3 "$MC" noattr "$KEYS/mldsa65-by-rsa.der" "$W/short" sha512 "$W/s.p7s"
	python3 "$MC" module "$W/body" "$W/s.p7s" "$W/s.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" "$W/s.ko"
	assert_failure 1
	assert_output "$W/s.ko: REJECTED -EKEYREJECTED: ML-DSA signature of the wrong length for its parameter set (mldsa_verify)"
	for m in zrange hint; do
		python3 "$MC" mutate "$W/mldsa65-by-rsa.p7s" "$m" "$W/$m.p7s"
		python3 "$MC" module "$W/body" "$W/$m.p7s" "$W/$m.ko"
		run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" "$W/$m.ko"
		assert_failure 1
		assert_output "$W/$m.ko: REJECTED -EKEYREJECTED: ML-DSA signature with a z coefficient out of range or a malformed hint (mldsa_verify)"
	done
	# embedded signer certificate: -EBADMSG raw (mldsa_verify)
	python3 "$MC" noattr "$KEYS/mldsa65-by-rsa.der" "$W/short" sha512 "$W/se.p7s" embed
	python3 "$MC" module "$W/body" "$W/se.p7s" "$W/se.ko"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/se.ko"
	assert_failure 6
	assert_output --partial "MALFORMED -EBADMSG: ML-DSA signature of the wrong length"
	python3 "$MC" noattr "$KEYS/mldsa65-by-rsa.der" "$W/raw" sha512 "$W/ze.p7s" embed
	python3 "$MC" mutate "$W/ze.p7s" zrange "$W/ze2.p7s"
	python3 "$MC" module "$W/body" "$W/ze2.p7s" "$W/ze.ko"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/ze.ko"
	assert_failure 6
	assert_output --partial "MALFORMED -EBADMSG: ML-DSA signature with a z coefficient out of range"
}

@test "signed attributes: a module signature is rejected before any crypto; sha512 only elsewhere" {
	python3 "$MC" unmodule "$KEYS/mldsa65.ko" "$W/body" "$W/unused.p7s"
	python3 "$MC" module "$W/body" "$KEYS/mldsa65-attrs-sha512.p7s" "$W/a.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" "$W/a.ko"
	assert_failure 1
	assert_output "$W/a.ko: REJECTED -EKEYREJECTED: module signature has authenticated attributes"
	# the digest must be sha512 (software_key_determine_akcipher, -EINVAL,
	# which the trust path turns into -EKEYREJECTED), before any arithmetic
	run "$VERIFY_FILE" --usage unspecified -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha256.p7s" "$W/body"
	assert_failure 1
	assert_output "$W/body: REJECTED -EKEYREJECTED: ML-DSA with signed attributes takes only sha512 as the digest algorithm (software_key_determine_akcipher)"
	# firmware usage demands signed attributes; the gate passes
	run "$VERIFY_FILE" --usage firmware -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha256.p7s" "$W/body"
	assert_failure 1
	assert_output --partial "takes only sha512"
	if [ "$CHECKS" = 1 ]; then
		run "$VERIFY_FILE" --usage unspecified -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha512.p7s" "$W/body"
		assert_success
		run "$VERIFY_FILE" --usage bpf -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha512.p7s" "$W/body"
		assert_success
		# the content the messageDigest covers, changed
		printf 'x' >> "$W/body"
		run "$VERIFY_FILE" --usage unspecified -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha512.p7s" "$W/body"
		assert_failure 1
		assert_output --partial "messageDigest does not match the data"
	else
		run "$VERIFY_FILE" --usage unspecified -c "$KEYS/mldsa65-by-rsa.crt" --sig "$KEYS/mldsa65-attrs-sha512.p7s" "$W/body"
		assert_failure 10
	fi
}

@test "the waiver: CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA lets ML-DSA module signatures keep them" {
	checks_mldsa
	make_module "$W/body" 4000
	for h in sha512 sha256; do
		openssl cms -sign -binary -nosmimecap -nocerts -md "$h" -outform DER \
			-in "$W/body" -signer "$KEYS/mldsa65.crt" -inkey "$KEYS/mldsa65.key" \
			-out "$W/$h.p7s"
		python3 "$MC" module "$W/body" "$W/$h.p7s" "$W/$h.ko"
	done
	config73
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/mldsa65.crt" "$W/sha512.ko"
	assert_failure 1
	assert_output --partial "module signature has authenticated attributes"
	config73 waiver
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/mldsa65.crt" "$W/sha512.ko"
	assert_success
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/mldsa65.crt" "$W/sha256.ko"
	assert_failure 1
	assert_output --partial "takes only sha512"
	# the first signer decides: ML-DSA first waives the RSA signer's
	# attributes too, RSA first waives nothing
	openssl cms -sign -binary -nosmimecap -nocerts -md sha512 -outform DER \
		-in "$W/body" -signer "$KEYS/mldsa65.crt" -inkey "$KEYS/mldsa65.key" \
		-signer "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" -out "$W/two.p7s"
	python3 "$MC" first "$W/two.p7s" mldsa "$W/mr.p7s"
	python3 "$MC" first "$W/two.p7s" rsa "$W/rm.p7s"
	run -1 cmp -s "$W/mr.p7s" "$W/rm.p7s"
	python3 "$MC" module "$W/body" "$W/mr.p7s" "$W/mr.ko"
	python3 "$MC" module "$W/body" "$W/rm.p7s" "$W/rm.ko"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/mr.ko"
	assert_success
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/rm.ko"
	assert_failure 1
	assert_output --partial "module signature has authenticated attributes"
}

@test "a 7.3 kernel built without CRYPTO_MLDSA (Debian's) cannot load ML-DSA keys" {
	config73
	sed -i '/CRYPTO_MLDSA/d' "$W/.config"
	run "$VERIFY_FILE" -v --kernel-config "$W/.config" -c "$KEYS/mldsa65.crt" "$KEYS/mldsa65.ko"
	assert_failure 4
	assert_output --partial "mldsa65.crt: certificate 1 left out: -ENOENT: the kernel lacks this key type"
	# an ML-DSA key in an RSA-signed certificate loads; its signature
	# cannot be allocated: -ENOENT, which the trust path makes -EKEYREJECTED
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/mldsa65-by-rsa.crt" "$KEYS/mldsa65-by-rsa.ko"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: the kernel lacks this key type"
}

@test "ML-DSA certificate signatures in a chain, and mixed signers (OpenSSL 3.5)" {
	checks_mldsa
	make_module "$W/body" 4000
	# an RSA signer whose certificate the trusted ML-DSA-65 key signed
	openssl cms -sign -binary -noattr -nosmimecap -md sha256 -outform DER \
		-in "$W/body" -signer "$KEYS/rsa-by-mldsa65.crt" -inkey "$KEYS/rsa-by-mldsa65.key" \
		-out "$W/chain.p7s"
	python3 "$MC" module "$W/body" "$W/chain.p7s" "$W/chain.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/chain.ko"
	assert_success
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-other.crt" "$W/chain.ko"
	assert_failure 4
	# RSA valid and trusted, ML-DSA untrusted: OK; ML-DSA trusted too but
	# its signature broken: -EKEYREJECTED
	openssl cms -sign -binary -nosmimecap -nocerts -md sha512 -outform DER \
		-in "$W/body" -signer "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" \
		-signer "$KEYS/mldsa65.crt" -inkey "$KEYS/mldsa65.key" -out "$W/mixed.p7s"
	run "$VERIFY_FILE" --usage unspecified -c "$KEYS/rsa2048.crt" --sig "$W/mixed.p7s" "$W/body"
	assert_success
	python3 "$MC" mutate "$W/mixed.p7s" ctilde "$W/mixed-bad.p7s"
	run "$VERIFY_FILE" --usage unspecified -c "$KEYS/rsa2048.crt" -c "$KEYS/mldsa65.crt" --sig "$W/mixed-bad.p7s" "$W/body"
	assert_failure 1
}

@test "OpenSSL 3.0 build: a verdict that needs ML-DSA arithmetic is CANNOT-CHECK, exit 10" {
	cannot_check
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$KEYS/mldsa65.ko"
	assert_failure 10
	assert_output --regexp "mldsa65.ko: CANNOT-CHECK: this build's OpenSSL 3\.[0-4][^ ]* cannot check ML-DSA signatures \(needs 3\.5\); the verdict depends on the ML-DSA self-signature of the trusted certificate that names the signer$"
	refute_output --partial "ENOPKG"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" -c "$KEYS/rsa2048.crt" "$KEYS/mldsa65-by-rsa.ko"
	assert_failure 10
	assert_output --partial "the verdict depends on the signer's ML-DSA signature, checked with the trusted key"
	# never OK, never -ENOPKG, also in JSON, under --enforce and in -r
	run "$VERIFY_FILE" --json -c "$KEYS/mldsa65-by-rsa.crt" "$KEYS/mldsa65-by-rsa.ko"
	assert_failure 10
	assert_output --partial '"verdict":"CANNOT-CHECK","errno":null'
	assert_output --partial '"depends_on":"the signer'
	run "$VERIFY_FILE" --enforce -c "$KEYS/mldsa65-by-rsa.crt" "$KEYS/mldsa65-by-rsa.ko"
	assert_failure 10
	mkdir "$W/tree"
	cp "$KEYS/mldsa65-by-rsa.ko" "$KEYS/mldsa65.ko" "$W/tree/"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" -r "$W/tree"
	assert_failure 10
	assert_output --partial ", 1 not checkable by this build (ML-DSA)"
	# what does not depend on it is still decided: an untrusted signer
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$KEYS/mldsa65-by-rsa.ko"
	assert_failure 4
	# a bad c~ needs the arithmetic to be found
	split_sample mldsa65-by-rsa
	python3 "$MC" mutate "$W/mldsa65-by-rsa.p7s" ctilde "$W/c.p7s"
	python3 "$MC" module "$W/body" "$W/c.p7s" "$W/c.ko"
	run "$VERIFY_FILE" -c "$KEYS/mldsa65-by-rsa.crt" "$W/c.ko"
	assert_failure 10
}

@test "modules signed by the 7.3 kernel's own sign-file" {
	checks_mldsa
	# built against this OpenSSL by get-reference-7.3.sh (make check's
	# deps-test): the kernel tool signs ML-DSA only with OpenSSL 3.5
	need_reference73
	make_module "$W/m.ko" 4000
	cp "$W/m.ko" "$W/r.ko"
	"$REF73_SIGN_FILE" sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.der" "$W/m.ko"
	"$REF73_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" "$W/r.ko"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/r.ko"
	assert_success
	# OpenSSL 3.x: signed attributes, so a default 7.3 rejects the module
	run "$VERIFY_FILE" -c "$KEYS/mldsa65.crt" "$W/m.ko"
	assert_failure 1
	assert_output --partial "module signature has authenticated attributes"
	config73 waiver
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/mldsa65.crt" "$W/m.ko"
	assert_success
	run "$VERIFY_FILE" --kernel 6.12 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 5
}
