#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --secondary CERT: a certificate added the way
# keyctl padd asymmetric "" %:.secondary_trusted_keys adds it: only when a
# built-in or secondary key signed it (restrict_link_by_signature(), via
# restrict_link_by_builtin_and_secondary_trusted), and with
# SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN only by a built-in one.
# The certificates are made at test time from the committed keys.

bats_require_minimum_version 1.5.0
load machine-helpers

REL=7.3.0-1-amd64

setup() {
	machine_setup || return 1
	# other.key's certificate, signed by the built-in rsa2048 key
	openssl req -new -key "$KEYS/other.key" -subj "/CN=modsign test secondary" -out "$W/sec.csr"
	printf 'subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\nkeyUsage=digitalSignature\n' > "$W/ext"
	openssl x509 -req -in "$W/sec.csr" -CA "$KEYS/rsa2048.crt" -CAkey "$KEYS/rsa2048.key" \
		-set_serial 7 -days 3650 -extfile "$W/ext" -out "$W/sec.pem"
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$W/sec.pem" "$W/m.ko" "$W/sec.ko"
	# ec256's certificate, signed by that secondary key
	openssl req -new -key "$KEYS/ec256.key" -subj "/CN=modsign test tertiary" -out "$W/ter.csr"
	openssl x509 -req -in "$W/ter.csr" -CA "$W/sec.pem" -CAkey "$KEYS/other.key" \
		-set_serial 8 -days 3650 -extfile "$W/ext" -out "$W/ter.pem"
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$W/ter.pem" "$W/m.ko" "$W/ter.ko"
}

@test "--secondary: a certificate signed by a built-in key is added, and vouches for its modules" {
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$W/sec.ko"
	assert_failure 4
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$W/sec.pem" "$W/sec.ko"
	assert_success
	assert_output --partial "cert $W/sec.pem, in .secondary_trusted_keys: --secondary, signed by a trusted key)"
	# one added vouches for the next
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$W/sec.pem" --secondary "$W/ter.pem" "$W/ter.ko"
	assert_success
}

@test "--secondary: a certificate no trusted key signed is refused with the kernel's reason" {
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/ec384.crt" --secondary "$W/sec.pem" "$W/sec.ko"
	assert_failure 4
	assert_equal "$stderr" "verify-file: warning: $W/sec.pem: certificate 1 not added to .secondary_trusted_keys: -ENOKEY: no built-in or secondary key signed it"
	# self-signed: its AKID names itself, which no keyring holds
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$KEYS/other.crt" "$W/m.ko"
	[[ "$stderr" == *"$KEYS/other.crt: certificate 1 not added to .secondary_trusted_keys: -ENOKEY"* ]]
	# the order counts: the tertiary before the key that signed it
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$W/ter.pem" --secondary "$W/sec.pem" "$W/ter.ko"
	assert_failure 4
	[[ "$stderr" == *"$W/ter.pem: certificate 1 not added"* ]]
}

@test "--secondary: a certificate whose signature does not verify is refused with public_key_verify_signature()'s errno" {
	# the secondary certificate with one signature byte flipped
	openssl x509 -in "$W/sec.pem" -outform DER -out "$W/sec.der"
	python3 - "$W/sec.der" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[-10] ^= 1
open(p, 'wb').write(b)
PY
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$W/sec.der" "$W/sec.ko"
	assert_failure 4
	# a flipped RSA signature byte: no PKCS#1 padding after decryption
	[[ "$stderr" == *"$W/sec.der: certificate 1 not added to .secondary_trusted_keys: -EINVAL: RSA signature does not decrypt to a padded block"* ]]
}

@test "--secondary on a machine: SIGNED_BY_BUILTIN refuses what a secondary key signed; no secondary keyring refuses all" {
	sh "$MM" "$W/root" $REL
	echo CONFIG_SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN=y >> "$W/root/boot/config-$REL"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --secondary "$W/sec.pem" --secondary "$W/ter.pem" "$W/sec.ko" "$W/ter.ko"
	assert_failure 1
	assert_line --index 0 --partial "$W/sec.ko: OK"
	[[ "$stderr" == *"$W/ter.pem: certificate 1 not added to .secondary_trusted_keys: -ENOKEY: signed by a key that is not built in (SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN)"* ]]
	sed -i '/SECONDARY_TRUSTED_KEYRING/d' "$W/root/boot/config-$REL"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --secondary "$W/sec.pem" "$W/sec.ko"
	assert_failure 1
	[[ "$stderr" == *"$W/sec.pem: not added: the kernel has no .secondary_trusted_keys (CONFIG_SECONDARY_TRUSTED_KEYRING is not set)"* ]]
}

@test "--secondary FILE that cannot be read: exit 9, naming the option" {
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --secondary "$W/none.pem" "$W/m.ko"
	assert_failure 9
	[[ "$stderr" == *"$W/none.pem: cannot read the certificate: "*"(check --secondary)"* ]]
}
