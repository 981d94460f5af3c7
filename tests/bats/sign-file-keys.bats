#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sign-file: key files in every form users keep them, passphrase sources,
# ECDSA, key-type warnings, split signing and several signers.

load helpers

PASS=modsign-pin

# Every form of one RSA key (enc: passphrase modsign-pin), made from the
# committed fixture with openssl so the bytes signed must not change.
key_forms() {
	openssl pkey -in "$KEYS/rsa2048.key" -outform DER -out plain8.der
	openssl rsa -in "$KEYS/rsa2048.key" -traditional -out pkcs1.pem 2>/dev/null
	openssl rsa -in "$KEYS/rsa2048.key" -traditional -outform DER \
		-out pkcs1.der 2>/dev/null
	openssl pkcs8 -topk8 -in "$KEYS/rsa2048.key" -v2 aes-256-cbc \
		-passout pass:$PASS -out enc8.pem
	openssl pkcs8 -topk8 -in "$KEYS/rsa2048.key" -v2 aes-256-cbc \
		-passout pass:$PASS -outform DER -out enc8.der
	openssl rsa -in "$KEYS/rsa2048.key" -aes256 -passout pass:$PASS \
		-traditional -out enc1.pem 2>/dev/null
	openssl pkcs12 -export -inkey "$KEYS/rsa2048.key" \
		-in "$KEYS/rsa2048.crt" -passout pass:$PASS -out both.p12
}

# The reference bytes: the kernel's tool where present, else ours from
# the plain PEM key (the suite checks those two agree elsewhere).
reference() { # out
	make_module m.ko 20000
	if [ -x "$REF_SIGN_FILE" ]; then
		"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
			m.ko "$1"
	else
		"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
			m.ko "$1"
	fi
}

cms_verify() { # sig body cert
	openssl cms -verify -binary -inform DER -in "$1" -content "$2" \
		-certfile "$3" -nointern -noverify -out /dev/null
}

@test "unencrypted PEM PKCS#1, DER PKCS#1 and DER PKCS#8 sign byte-identically" {
	key_forms
	reference ref.ko
	for k in pkcs1.pem pkcs1.der plain8.der; do
		run "$SIGN_FILE" sha256 "$k" "$KEYS/rsa2048.der" m.ko "out-$k"
		assert_success
		cmp ref.ko "out-$k"
	done
}

# Two-prime RSA keys skip OpenSSL's decoders (rsa_import.c); anything else
# must still reach them: a three-prime key (RSAPrivateKey version 1).
@test "a multi-prime RSA key, PKCS#8 and PKCS#1, signs a module that verifies" {
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
		-pkeyopt rsa_keygen_primes:3 -out mp8.pem 2>/dev/null
	openssl rsa -in mp8.pem -traditional -out mp1.pem 2>/dev/null
	grep -q "BEGIN RSA PRIVATE KEY" mp1.pem
	openssl req -new -x509 -key mp8.pem -subj /CN=three-primes -days 2 \
		-out mp.crt 2>/dev/null
	make_module m.ko 20000
	for k in mp8.pem mp1.pem; do
		run "$SIGN_FILE" sha256 "$k" mp.crt m.ko "out-$k"
		assert_success
		run "$VERIFY_FILE" -c mp.crt "out-$k"
		assert_success
		assert_output --partial "out-$k: OK (sha256, RSA-2048"
	done
	cmp out-mp8.pem out-mp1.pem
}

@test "encrypted PKCS#8 PEM/DER and PKCS#1 PEM open with KBUILD_SIGN_PIN" {
	key_forms
	reference ref.ko
	for k in enc8.pem enc8.der enc1.pem; do
		KBUILD_SIGN_PIN=$PASS run "$SIGN_FILE" sha256 "$k" \
			"$KEYS/rsa2048.crt" m.ko "out-$k"
		assert_success
		cmp ref.ko "out-$k"
	done
}

@test "encrypted keys open with --pin-file (trailing newline ignored)" {
	key_forms
	reference ref.ko
	echo "$PASS" > pass
	for k in enc8.pem enc8.der enc1.pem both.p12; do
		run env -u KBUILD_SIGN_PIN "$SIGN_FILE" --pin-file pass sha256 \
			"$k" "$KEYS/rsa2048.crt" m.ko "out-$k"
		assert_success
		cmp ref.ko "out-$k"
	done
}

@test "encrypted keys open with --pin-fd" {
	key_forms
	reference ref.ko
	for k in enc8.pem enc8.der enc1.pem both.p12; do
		run env -u KBUILD_SIGN_PIN "$SIGN_FILE" --pin-fd 3 sha256 "$k" \
			"$KEYS/rsa2048.crt" m.ko "out-$k" 3<<<"$PASS"
		assert_success
		cmp ref.ko "out-$k"
	done
}

@test "PKCS#12 gives key and certificate from one file" {
	key_forms
	reference ref.ko
	KBUILD_SIGN_PIN=$PASS run "$SIGN_FILE" sha256 both.p12 both.p12 m.ko out.ko
	assert_success
	cmp ref.ko out.ko
	# and its certificate alone, with a PEM key
	KBUILD_SIGN_PIN=$PASS run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" \
		both.p12 m.ko out2.ko
	assert_success
	cmp ref.ko out2.ko
}

@test "the PIN is read once per run: two encrypted signers share one --pin-fd" {
	key_forms
	make_module m.ko 3000
	openssl pkcs8 -topk8 -in "$KEYS/ec384.key" -v2 aes-256-cbc \
		-passout pass:$PASS -out ec.enc
	# a pipe holds the passphrase once; a second read would get nothing
	run bash -c 'printf %s "$1" | "$2" --pin-fd 0 --signer enc8.pem \
		"$3/rsa2048.crt" --signer ec.enc "$3/ec384.crt" sha256 m.ko s.ko' \
		_ "$PASS" "$SIGN_FILE" "$KEYS"
	assert_success
}

@test "a missing passphrase and a wrong one have their own messages, exit 9" {
	key_forms
	make_module m.ko 200
	run env -u KBUILD_SIGN_PIN "$SIGN_FILE" sha256 enc8.der \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "enc8.der: private key is encrypted (give its passphrase"
	echo wrong > pass
	run "$SIGN_FILE" --pin-file pass sha256 both.p12 both.p12 m.ko out.ko
	assert_failure 9
	assert_output --partial "both.p12: cannot decrypt private key (wrong passphrase)"
	run "$SIGN_FILE" --pin-file nonexistent sha256 enc8.pem \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "--pin-file nonexistent: No such file or directory"
	assert_file_not_exist out.ko
}

@test "--pin-file and --pin-fd together, or a bad descriptor, are usage errors" {
	make_module m.ko 200
	run "$SIGN_FILE" --pin-file a --pin-fd 0 sha256 "$KEYS/enc.key" \
		"$KEYS/enc.crt" m.ko
	assert_failure 2
	run "$SIGN_FILE" --pin-fd x sha256 "$KEYS/enc.key" "$KEYS/enc.crt" m.ko
	assert_failure 2
}

@test "ECDSA P-256 and P-384 signatures verify with openssl cms" {
	make_module m.ko 5000
	for k in ec256 ec384; do
		for h in sha256 sha384 sha512; do
			run "$SIGN_FILE" -d "$h" "$KEYS/$k.key" "$KEYS/$k.der" m.ko
			assert_success
			run cms_verify m.ko.p7s m.ko "$KEYS/$k.crt"
			assert_success
		done
	done
}

@test "RSA 2048, 4096 and 8192 sign; 8192 is warned about before signing" {
	make_module m.ko 4000
	for b in 2048 4096; do
		run "$SIGN_FILE" -d sha256 "$KEYS/rsa$b.key" "$KEYS/rsa$b.crt" m.ko
		assert_success
		refute_output --partial warning
	done
	run "$SIGN_FILE" -d sha256 "$KEYS/rsa8192.key" "$KEYS/rsa8192.crt" m.ko
	assert_success
	assert_output --partial "warning: $KEYS/rsa8192.key: RSA-8192 key: every kernel line rejects it (-EINVAL): the kernel's RSA takes only 512, 1024, 1536 (not with fips=1), 2048, 3072 and 4096-bit keys"
	run cms_verify m.ko.p7s m.ko "$KEYS/rsa8192.crt"
	assert_success
}

@test "SHA-1 is always warned about; SHA-3 only for --kernel 6.1" {
	make_module m.ko 200
	run "$SIGN_FILE" -d sha1 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	assert_success
	assert_output --partial "warning: sha1: SHA-1 is broken"
	run "$SIGN_FILE" -d sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	assert_success
	refute_output --partial warning
	run "$SIGN_FILE" -d --kernel 6.12 sha3-256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" m.ko
	assert_success
	refute_output --partial warning
	run "$SIGN_FILE" -d --kernel 6.1 sha3-256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" m.ko
	assert_success
	assert_output --partial "warning: sha3-256: kernel 6.1 rejects it (-ENOPKG): unsupported digest algorithm: SHA-3 digests arrived"
	# a version between lines is judged by its own rules, and named
	run "$SIGN_FILE" -d --kernel 6.6 sha3-256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" m.ko
	assert_success
	assert_output --partial "warning: --kernel 6.6: 6.1's rules as the kernel's history has them"
	assert_output --partial "warning: sha3-256: kernel 6.6 rejects it"
	# one older than the oldest line is refused
	run "$SIGN_FILE" -d --kernel 5.4 sha3-256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" m.ko
	assert_failure 2
	assert_output --partial "kernel 5.4 is older than 5.10"
	run "$SIGN_FILE" --kernel bogus sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" m.ko
	assert_failure 2
}

@test "split signing: --digest-only, openssl pkeyutl, --attach value = direct RSA" {
	reference ref.ko
	run "$SIGN_FILE" --digest-only sha256 m.ko
	assert_success
	assert_output "sha256 $(sha256sum m.ko | cut -d' ' -f1)  m.ko"
	cmp m.ko.digest <(openssl dgst -sha256 -binary m.ko)
	# the .tbs is the DigestInfo that RSA PKCS#1 v1.5 pads
	openssl asn1parse -inform DER -in m.ko.tbs | grep -q sha256
	# the "remote signer": a bare PKCS#1 v1.5 signature of the digest
	openssl pkeyutl -sign -inkey "$KEYS/rsa2048.key" -in m.ko.digest \
		-pkeyopt digest:sha256 -out value
	# ... or raw RSA over the DigestInfo, as CKM_RSA_PKCS would
	openssl pkeyutl -sign -inkey "$KEYS/rsa2048.key" -in m.ko.tbs -out value2
	cmp value value2
	run "$SIGN_FILE" --attach value sha256 "$KEYS/rsa2048.crt" m.ko out.ko
	assert_success
	cmp ref.ko out.ko
}

@test "split signing: --attach takes a CMS made by openssl cms -sign" {
	reference ref.ko
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha256 -signer "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" \
		-in m.ko -out m.p7s
	run "$SIGN_FILE" --attach m.p7s sha256 "$KEYS/rsa2048.crt" m.ko out.ko
	assert_success
	"$EXTRACT_SIG" --body-stdout out.ko | cmp - m.ko
	"$EXTRACT_SIG" --sig-stdout out.ko | cmp - m.p7s
}

@test "split signing with ECDSA: the value is wrapped and verifies" {
	make_module m.ko 7000
	"$SIGN_FILE" --digest-only sha384 m.ko
	openssl pkeyutl -sign -inkey "$KEYS/ec384.key" -in m.ko.digest -out value
	run "$SIGN_FILE" --attach value sha384 "$KEYS/ec384.der" m.ko out.ko
	assert_success
	"$EXTRACT_SIG" --sig-stdout out.ko > sig
	run cms_verify sig m.ko "$KEYS/ec384.crt"
	assert_success
}

@test "--attach refuses a value for another file or another certificate" {
	make_module m.ko 1000
	make_module n.ko 1001
	"$SIGN_FILE" --digest-only sha256 n.ko
	openssl pkeyutl -sign -inkey "$KEYS/rsa2048.key" -in n.ko.digest \
		-pkeyopt digest:sha256 -out value
	run "$SIGN_FILE" --attach value sha256 "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 1
	assert_output --partial "value: the signature value does not verify over this file"
	openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
		-signer "$KEYS/other.crt" -inkey "$KEYS/other.key" -in m.ko \
		-out other.p7s
	run "$SIGN_FILE" --attach other.p7s sha256 "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 4
	assert_output --partial "no signer of the CMS is the given certificate (-ENOKEY"
	assert_file_not_exist out.ko
}

@test "--digest-only, --attach and -s exclude each other" {
	make_module m.ko 10
	run "$SIGN_FILE" --digest-only --attach x sha256 c m.ko
	assert_failure 2
	run "$SIGN_FILE" -s --digest-only x sha256 c m.ko
	assert_failure 2
	run "$SIGN_FILE" -p --digest-only sha256 m.ko
	assert_failure 2
}

@test "two signers: one CMS, two SignerInfos, each verifies with its own certificate" {
	make_module m.ko 9000
	run "$SIGN_FILE" -p --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		--signer "$KEYS/ec384.key" "$KEYS/ec384.der" sha256 m.ko out.ko
	assert_success
	run "$EXTRACT_SIG" out.ko
	assert_output --partial "signers:          2"
	"$EXTRACT_SIG" --sig-stdout out.ko | cmp - m.ko.p7s
	# openssl cms -verify wants every signer's certificate: check each
	# SignerInfo alone, in a copy of the CMS that keeps only it
	for k in rsa2048 ec384; do
		serial=$(openssl x509 -in "$KEYS/$k.crt" -noout -serial | cut -d= -f2)
		"$TOP/tests/fixtures/cms-one-signer.py" m.ko.p7s "$serial" "only-$k"
		run cms_verify "only-$k" m.ko "$KEYS/$k.crt"
		assert_success
		# and it is really one signer: the other certificate fails
		other=rsa2048; [ $k = rsa2048 ] && other=ec384
		run cms_verify "only-$k" m.ko "$KEYS/$other.crt"
		assert_failure
	done
}

@test "positional key plus --signer makes two signers; RSA alone stays identical" {
	reference ref.ko
	run "$SIGN_FILE" --signer "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" \
		sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko two.ko
	assert_success
	run "$EXTRACT_SIG" two.ko
	assert_output --partial "signers:          2"
	run "$SIGN_FILE" --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		sha256 m.ko one.ko
	assert_success
	cmp ref.ko one.ko
}

@test "--signer alone writes over an existing <dest>: the line has no <x509> to protect" {
	# "<hash> <module> <dest>": the third word is <dest>, not a
	# certificate, so a <dest> holding this module is signed into
	reference ref.ko
	cp m.ko out.ko
	run "$SIGN_FILE" --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		sha256 m.ko out.ko
	assert_success
	cmp ref.ko out.ko
	# the certificate itself still is an input no output may be
	cp "$KEYS/rsa2048.crt" c.crt
	run "$SIGN_FILE" --signer "$KEYS/rsa2048.key" c.crt sha256 m.ko c.crt
	assert_failure 2
	assert_output --partial "c.crt: is a --signer certificate"
	cmp "$KEYS/rsa2048.crt" c.crt
}
