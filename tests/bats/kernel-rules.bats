#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One table of kernel rules: every digest, key type, curve and key size
# sign-file warns about is one verify-file refuses, with the same reason,
# and what sign-file lets pass verify-file accepts.  Then the kernel
# lines: any version maps to the line whose rules it has.

load helpers
bats_require_minimum_version 1.5.0

CONF="$TOP/tests/fixtures/conformance"
CK="$CONF/keys"

# sign_warn KEY CERT HASH [--kernel X.Y]: sign $W/m with sign-file into
# $W/m.ko; $reason gets the reason of its "rejects it (-E...): " warning
sign_warn() { # key cert hash [sign-file options]
	local key=$1 cert=$2 hash=$3
	shift 3
	make_module "$W/m" 4000
	run --separate-stderr "$SIGN_FILE" "$@" "$hash" "$key" "$cert" "$W/m" "$W/m.ko"
	reason=$(printf '%s\n' "$stderr" | sed -n 's/.* rejects it (-E[A-Z]*): //p' | head -n 1)
}

@test "RSA-8192: sign-file warns, and verify-file rejects it with the same reason" {
	sign_warn "$CK/ks-rsa8192.key" "$CK/ks-rsa8192.crt" sha256
	assert_success
	assert_equal "$reason" "the kernel's RSA takes only 512, 1024, 1536 (not with fips=1), 2048, 3072 and 4096-bit keys (rsa_check_key_length)"
	# a CA-issued certificate loads as a key; the trust check refuses
	# the key size and pkcs7_validate_trust_one() says -EKEYREJECTED
	run "$VERIFY_FILE" -c "$CK/ks-rsa8192.crt" "$W/m.ko"
	assert_failure 1
	assert_output "$W/m.ko: REJECTED -EKEYREJECTED: $reason"
	# a self-signed one fails its own self-signature check: not loaded
	sign_warn "$KEYS/rsa8192.key" "$KEYS/rsa8192.crt" sha256
	assert_equal "$reason" "the kernel's RSA takes only 512, 1024, 1536 (not with fips=1), 2048, 3072 and 4096-bit keys (rsa_check_key_length)"
	run "$VERIFY_FILE" -v -c "$KEYS/rsa8192.crt" "$W/m.ko"
	assert_failure 4
	assert_output --partial "rsa8192.crt: certificate 1 left out: -EINVAL: $reason"
	assert_output --partial "UNKNOWN-KEY -ENOKEY"
	# with the certificate embedded the error comes back raw
	openssl cms -sign -binary -noattr -nosmimecap -md sha256 -outform DER \
		-in "$W/m" -signer "$CK/ks-rsa8192.crt" -inkey "$CK/ks-rsa8192.key" \
		-out "$W/m.p7s"
	run "$VERIFY_FILE" -c "$CONF/trusted.pem" --sig "$W/m.p7s" "$W/m"
	assert_failure 6
	assert_output "$W/m: MALFORMED -EINVAL: $reason"
}

@test "RSA-1024, RSA-2047 and RSA-3072: no warning, and verify-file accepts them" {
	# 2047 bits fill 32 64-bit limbs, which rsa_check_key_length counts
	# as 2048
	for k in ks-rsa1024 ks-rsa2047 ks-rsa3072; do
		sign_warn "$CK/$k.key" "$CK/$k.crt" sha256
		assert_success
		assert_equal "$stderr" ""
		run "$VERIFY_FILE" -c "$CK/$k.crt" "$W/m.ko"
		assert_success
	done
}

@test "SHA-3 on 6.1: sign-file warns, and verify-file says -ENOPKG with the same reason" {
	sign_warn "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" sha3-256 --kernel 6.1
	assert_success
	assert_equal "$reason" "unsupported digest algorithm: SHA-3 digests arrived in the kernel's PKCS#7 parser in v6.7 (pkcs7_sig_note_digest_algo)"
	run "$VERIFY_FILE" --kernel 6.1 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 5
	assert_output "$W/m.ko: UNSUPPORTED -ENOPKG: $reason (the kernel would load it unsigned, tainted, unless enforcing or locked down; ask with --machine)"
	for l in 6.12 7.3; do
		sign_warn "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" sha3-256 --kernel "$l"
		assert_equal "$stderr" ""
		run "$VERIFY_FILE" --kernel "$l" -c "$KEYS/rsa2048.crt" "$W/m.ko"
		assert_success
	done
}

@test "MD5: 6.1 still takes it (advice only), 6.12 and 7.3 refuse it with one reason" {
	sign_warn "$CK/signer.key" "$CK/signer.crt" md5 --kernel 6.1
	assert_success
	assert_equal "$stderr" "sign-file: warning: md5: MD5 is broken for signatures and gone from the kernel's parsers since v6.7; use sha256 or better"
	run "$VERIFY_FILE" --kernel 6.1 -c "$CK/signer.crt" "$W/m.ko"
	assert_success
	for l in 6.12 7.3; do
		sign_warn "$CK/signer.key" "$CK/signer.crt" md5 --kernel "$l"
		assert_equal "$reason" "unsupported digest algorithm: md4 and md5 left the kernel's PKCS#7 parser in v6.7 (pkcs7_sig_note_digest_algo)"
		run "$VERIFY_FILE" --kernel "$l" -c "$CK/signer.crt" "$W/m.ko"
		assert_failure 5
		assert_output --partial "UNSUPPORTED -ENOPKG: $reason"
	done
}

@test "P-521 on 6.1: sign-file warns, verify-file leaves the key out for the same reason" {
	sign_warn "$CK/p521.key" "$CK/p521.crt" sha512 --kernel 6.1
	assert_success
	assert_equal "$reason" "NIST P-521 keys arrived in v6.10 (x509_extract_key_data)"
	run "$VERIFY_FILE" -v --kernel 6.1 -c "$CK/p521.crt" "$W/m.ko"
	assert_failure 4
	assert_output --partial "p521.crt: certificate 1 left out: -ENOPKG: $reason"
	sign_warn "$CK/p521.key" "$CK/p521.crt" sha512 --kernel 6.12
	assert_equal "$stderr" ""
	run "$VERIFY_FILE" --kernel 6.12 -c "$CK/p521.crt" "$W/m.ko"
	assert_success
}

@test "curves and key types no kernel has: warned and refused alike" {
	for k in ks-secp256k1 ks-brainpool384; do
		sign_warn "$CK/$k.key" "$CK/$k.crt" sha256
		assert_equal "$reason" "the kernel's ECDSA takes the NIST curves P-192, P-256, P-384 and (since v6.10) P-521 only (x509_extract_key_data)"
		run "$VERIFY_FILE" -v -c "$CK/$k.crt" "$W/m.ko"
		assert_failure 4
		assert_output --partial "$k.crt: certificate 1 left out: -ENOPKG: $reason"
	done
	# Ed25519: OpenSSL's CMS cannot sign a module with it either, but
	# the warning comes first
	sign_warn "$CK/ks-ed25519.key" "$CK/ks-ed25519.crt" sha256
	assert_equal "$reason" "the kernel takes RSA, ECDSA, GOST, SM2 (until v6.11) and ML-DSA (since v7.0) keys only (x509_extract_key_data)"
	run "$VERIFY_FILE" -v -c "$CK/ks-ed25519.crt" -c "$KEYS/rsa2048.crt" --list-keys
	assert_output --partial "ks-ed25519.crt: certificate 1 left out: -ENOPKG: $reason"
}

@test "a compressed EC point: sign-file warns, verify-file refuses it with the same reason" {
	sign_warn "$CK/ks-p256-compressed.key" "$CK/ks-p256-compressed.crt" sha256
	assert_success
	assert_equal "$reason" "the kernel's ECDSA takes only uncompressed points of the key's curve (ecdsa_set_pub_key)"
	run "$VERIFY_FILE" -c "$CK/ks-p256-compressed.crt" "$W/m.ko"
	assert_failure 1
	assert_output "$W/m.ko: REJECTED -EKEYREJECTED: $reason"
	# P-192, which the kernel registers outside FIPS mode, is fine
	sign_warn "$CK/ks-p192.key" "$CK/ks-p192.crt" sha256
	assert_equal "$stderr" ""
	run "$VERIFY_FILE" -c "$CK/ks-p192.crt" "$W/m.ko"
	assert_success
}

@test "--kernel takes any version from 5.10: a line's own release is exact and silent; any other says once it is not" {
	make_module "$W/m" 3000
	"$SIGN_FILE" sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m.ko"
	for v in 5.10 5.10.262 6.1 6.1.192 6.1.0-57-amd64; do
		run --separate-stderr "$VERIFY_FILE" --kernel "$v" -c "$KEYS/rsa2048.crt" "$W/m.ko"
		assert_failure 5
		assert_equal "$stderr" ""
	done
	for v in 6.12 6.12.118 7.3 7.3.4+deb13-amd64; do
		run --separate-stderr "$VERIFY_FILE" --kernel "$v" -c "$KEYS/rsa2048.crt" "$W/m.ko"
		assert_success
		assert_equal "$stderr" ""
	done
	run --separate-stderr "$VERIFY_FILE" --json --kernel 6.1.192 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_output --partial '"kernel":"6.1","kernel_exact":true,"usage"'
	# between lines: each rule as that release has it (SHA-3 from 6.7),
	# said once on stderr and in the JSON, with the version asked
	run --separate-stderr "$VERIFY_FILE" --kernel 6.5 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 5
	assert_equal "$stderr" "verify-file: warning: --kernel 6.5: 6.1's rules as the kernel's history has them for that release (not confirmed by a real kernel of it): keyUsage and basicConstraints parsed from v6.4, the revocation list for every keyring from v6.6"
	run --separate-stderr "$VERIFY_FILE" --json --kernel 6.7 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_output --partial '"kernel":"6.12","kernel_exact":false,"kernel_asked":"6.7"'
	run --separate-stderr "$VERIFY_FILE" --kernel 7.0 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_equal "$stderr" "verify-file: warning: --kernel 7.0: 7.3's rules, which the kernel's history has from v7.0 (not confirmed by a real kernel of that release)"
	run --separate-stderr "$VERIFY_FILE" --kernel 8.1 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_equal "$stderr" "verify-file: warning: --kernel 8.1: newer than 7.3, the newest line this tool knows: judged by 7.3's rules"
	run "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_output --partial '"kernel":"7.3","kernel_exact":true'
	# older than the oldest line: refused, not guessed
	run --separate-stderr "$VERIFY_FILE" --kernel 4.19 -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "verify-file: kernel 4.19 is older than 5.10, the oldest kernel this tool models: not judged (give --kernel 5.10 or newer to judge by those rules)"
	# sign-file takes versions the same way, and names the one asked
	run --separate-stderr "$SIGN_FILE" --kernel 5.4 sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m2.ko"
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "sign-file: kernel 5.4 is older than 5.10, the oldest kernel this tool models: not judged (give --kernel 5.10 or newer to judge by those rules)"
	[ ! -e "$W/m2.ko" ]
	run --separate-stderr "$SIGN_FILE" --kernel 6.6 sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m2.ko"
	assert_success
	assert_equal "${stderr#*$'\n'}" "sign-file: warning: sha3-256: kernel 6.6 rejects it (-ENOPKG): unsupported digest algorithm: SHA-3 digests arrived in the kernel's PKCS#7 parser in v6.7 (pkcs7_sig_note_digest_algo)"
	run "$SIGN_FILE" --kernel 6 sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m2.ko"
	assert_failure 2
	assert_output --partial "not a kernel version '6'"
}

# A kernel-like ELF object: the release banner in .rodata, the
# certificates at system_certificate_list.
make_vmlinux() { # out release cert...
	local out=$1 rel=$2
	shift 2
	make_cert_elf "$out" ".ascii \"Linux version $rel (builder@example) (gcc) #1 SMP\\n\"
.byte 0" "$@"
}

@test "--vmlinux takes the rules from the image's own version" {
	command -v gcc >/dev/null || fail "gcc is needed to assemble the test vmlinux"
	make_module "$W/m" 3000
	"$SIGN_FILE" sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m.ko"
	make_vmlinux "$W/v61" 6.1.0-57-amd64 "$KEYS/rsa2048.der"
	make_vmlinux "$W/v73" 7.3.4+deb13-amd64 "$KEYS/rsa2048.der"
	run "$VERIFY_FILE" -v --vmlinux "$W/v61" "$W/m.ko"
	assert_failure 5
	assert_output --partial "v61: kernel 6.1.0-57-amd64, 6.1 rules"
	run "$VERIFY_FILE" --json --vmlinux "$W/v73" "$W/m.ko"
	assert_success
	assert_output --partial '"kernel":"7.3"'
	# an explicit --kernel wins, and says the image differs
	run "$VERIFY_FILE" --kernel 7.3 --vmlinux "$W/v61" "$W/m.ko"
	assert_success
	assert_output --partial "kernel 6.1.0-57-amd64 has the 6.1 rules; judging by the 7.3 rules as asked"
	# two images of different lines: say which to take
	run "$VERIFY_FILE" --vmlinux "$W/v61" --vmlinux "$W/v73" "$W/m.ko"
	assert_failure 2
	assert_output --partial "give --kernel"
}

@test "the TBS blacklist: SHA-256 of any certificate on 7.3, the certificate's own hash before" {
	openssl req -new -x509 -sha384 -key "$KEYS/rsa2048.key" -days 3650 \
		-subj "/CN=modsign sha384-signed certificate" -out "$W/c384.crt" 2>/dev/null
	openssl asn1parse -in "$W/c384.crt" -strparse 4 -noout -out "$W/tbs"
	make_module "$W/m" 3000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$W/c384.crt" "$W/m" "$W/m.ko"
	printf '"tbs:%s"\n' "$(sha256sum < "$W/tbs" | cut -d' ' -f1)" > "$W/bl256"
	printf '"tbs:%s"\n' "$(sha384sum < "$W/tbs" | cut -d' ' -f1)" > "$W/bl384"
	# 7.3 (x509_get_sig_params since v7.0): SHA-256 whatever the hash
	run "$VERIFY_FILE" -v --kernel 7.3 --blacklist "$W/bl256" -c "$W/c384.crt" "$W/m.ko"
	assert_failure 4
	assert_output --partial "certificate 1 left out: -EKEYREJECTED: certificate TBS hash is blacklisted"
	run "$VERIFY_FILE" --kernel 7.3 --blacklist "$W/bl384" -c "$W/c384.crt" "$W/m.ko"
	assert_success
	# 6.12 and 6.1: the digest of the certificate's signature hash
	for l in 6.1 6.12; do
		run "$VERIFY_FILE" --kernel "$l" --blacklist "$W/bl256" -c "$W/c384.crt" "$W/m.ko"
		assert_success
		run "$VERIFY_FILE" --kernel "$l" --blacklist "$W/bl384" -c "$W/c384.crt" "$W/m.ko"
		assert_failure 4
	done
}

@test "--usage bpf: judged as unspecified, on every line" {
	make_module "$W/blob" 3000
	"$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/blob"
	for l in 6.1 6.12 7.3; do
		run "$VERIFY_FILE" --kernel "$l" --usage bpf -c "$KEYS/rsa2048.crt" --sig "$W/blob.p7s" "$W/blob"
		assert_success
		run "$VERIFY_FILE" --kernel "$l" --json --usage bpf -c "$KEYS/rsa2048.crt" --sig "$W/blob.p7s" "$W/blob"
		assert_output --partial '"usage":"bpf"'
	done
	# signed attributes are fine for it (they are not for modules)
	openssl cms -sign -binary -nosmimecap -md sha256 -nocerts -outform DER \
		-in "$W/blob" -signer "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" \
		-out "$W/attrs.p7s"
	run "$VERIFY_FILE" --usage bpf -c "$KEYS/rsa2048.crt" --sig "$W/attrs.p7s" "$W/blob"
	assert_success
	run "$VERIFY_FILE" --usage module -c "$KEYS/rsa2048.crt" --sig "$W/attrs.p7s" "$W/blob"
	assert_failure 1
	# and the content type must be id-data
	run "$VERIFY_FILE" --usage bpf -c "$KEYS/rsa2048.crt" --sig "$W/blob.p7s" "$W/blob.p7s"
	assert_failure 1
}

@test "a 7.x .config gets the 7.3 rules; one newer than 7.3 gets them with a warning" {
	make_module "$W/m" 3000
	"$SIGN_FILE" sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m.ko"
	printf '# Linux/x86 7.1.2 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA3=m\n' > "$W/.config"
	run --separate-stderr "$VERIFY_FILE" --json --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_output --partial '"kernel":"7.3","kernel_exact":false,"kernel_asked":"7.1"'
	assert_equal "$stderr" "verify-file: warning: $W/.config: kernel 7.1.2: 7.3's rules, which the kernel's history has from v7.0 (not confirmed by a real kernel of that release)"
	sed -i 's/7\.1\.2/7.9.1/' "$W/.config"
	run --separate-stderr "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_equal "$stderr" "verify-file: warning: $W/.config: kernel 7.9.1: newer than 7.3, the newest line this tool knows: judged by 7.3's rules"
	# --kernel and the .config must name the same release
	run "$VERIFY_FILE" --kernel 6.12 --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	assert_output --partial "kernel 7.9.1 is not --kernel 6.12"
	# a .config older than the oldest line is refused as --kernel is
	sed -i 's/7\.9\.1/4.19.3/' "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	assert_output "verify-file: $W/.config: kernel 4.19.3 is older than 5.10, the oldest kernel this tool models: not judged"
}

@test "sign-file --kernel names the release asked: P-521 on 6.6, ECDSA on 5.10, and verify-file gives the same reason (ECDSA SignerInfos from 5.15)" {
	sign_warn "$CK/ks-p521.key" "$CK/ks-p521.crt" sha256 --kernel 6.6
	assert_success
	[[ "$stderr" == *"ECDSA-P521 key: kernel 6.6 rejects it (-ENOPKG): NIST P-521 keys arrived in v6.10"* ]] ||
		fail "$stderr"
	[[ "$stderr" != *"kernel 6.1 rejects"* ]] || fail "$stderr"
	sign_warn "$CK/ks-p521.key" "$CK/ks-p521.crt" sha256 --kernel 6.10
	[[ "$stderr" != *"rejects it"* ]] || fail "$stderr"
	# 5.10: no ECDSA; its parser takes the signature for nothing
	sign_warn "$CK/ecsigner.key" "$CK/ecsigner.crt" sha256 --kernel 5.10
	assert_success
	assert_equal "$reason" "ECDSA arrived in v5.13: 5.10 takes an EC key as an SM2 key, and its PKCS#7 parser refuses every ECDSA signature (pkcs7_sig_note_pkey_algo)"
	run "$VERIFY_FILE" --kernel 5.10 -c "$CK/ecsigner.crt" "$W/m.ko"
	assert_failure 5
	assert_output --partial "UNSUPPORTED -ENOPKG: unsupported signature algorithm: ECDSA SignerInfos arrived in v5.15"
	# 5.13 and 5.14 load the EC certificate but their PKCS#7 parser
	# still takes rsaEncryption only
	for k in 5.13 5.14; do
		run "$VERIFY_FILE" --kernel $k -c "$CK/ecsigner.crt" "$W/m.ko"
		assert_failure 5
		assert_output --partial "UNSUPPORTED -ENOPKG: unsupported signature algorithm: ECDSA SignerInfos arrived in v5.15"
	done
	run "$VERIFY_FILE" --kernel 5.15 -c "$CK/ecsigner.crt" "$W/m.ko"
	assert_success
}

@test "sm3 and streebog: parsed from v6.0 (not built, -ENOPKG), refused at the parse before" {
	sh "$CONF/gen-cases.sh" --out "$W/cases" >"$W/gen.log" 2>&1
	for c in c25a-sm3 c25b-streebog256; do
		# 5.19's pkcs7_sig_note_digest_algo() has neither OID
		run --separate-stderr "$VERIFY_FILE" --kernel 5.19 -c "$CONF/trusted.pem" "$W/cases/$c.ko"
		assert_failure 5
		assert_output --partial "UNSUPPORTED -ENOPKG: unsupported digest algorithm: sm3 and streebog digests arrived in the kernel's PKCS#7 parser in v6.0"
		# 6.0's parses both; crypto_alloc_shash() then finds no hash
		run --separate-stderr "$VERIFY_FILE" --kernel 6.0 -c "$CONF/trusted.pem" "$W/cases/$c.ko"
		assert_failure 5
		assert_output --partial "UNSUPPORTED -ENOPKG: digest algorithm not available in the kernel"
	done
}

@test "the RSA value range (rsa_check_payload) from v6.9, the IMPLICIT AKID names from v6.7" {
	sign_warn "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" sha256
	assert_success
	# the signature value s = 1: the last 256 bytes before the
	# module_signature struct (12) and the magic (28)
	python3 -c 'import sys
d=bytearray(open(sys.argv[1],"rb").read())
assert d[-28:]==b"~Module signature appended~\n"
d[-40-256:-40]=(1).to_bytes(256,"big")
open(sys.argv[2],"wb").write(d)' "$W/m.ko" "$W/one.ko"
	run --separate-stderr "$VERIFY_FILE" --kernel 6.8 -c "$KEYS/rsa2048.crt" "$W/one.ko"
	assert_failure 1
	assert_output "$W/one.ko: REJECTED -EKEYREJECTED: RSA signature with broken PKCS#1 padding"
	run --separate-stderr "$VERIFY_FILE" --kernel 6.9 -c "$KEYS/rsa2048.crt" "$W/one.ko"
	assert_failure 1
	assert_output "$W/one.ko: REJECTED -EKEYREJECTED: RSA signature value 0, 1 or n - 1 (rsa_check_payload)"
	# an AKID naming its issuer as an otherName holding a Name's
	# contents: a good parse with EXPLICIT alternatives, not IMPLICIT
	run --separate-stderr "$VERIFY_FILE" --kernel 6.6 -c "$CONF/trusted.pem" \
		--sig "$CONF/mutants/s255974488-45.p7s" "$CONF/payload.bin"
	assert_success
	run --separate-stderr "$VERIFY_FILE" --kernel 6.7 -c "$CONF/trusted.pem" \
		--sig "$CONF/mutants/s255974488-45.p7s" "$CONF/payload.bin"
	assert_failure 6
	assert_output "$CONF/payload.bin: MALFORMED -EBADMSG: malformed authorityKeyIdentifier"
}

@test "SM2 keys until v6.11: 6.10 loads an SM2 certificate, 6.11 leaves it out" {
	openssl genpkey -algorithm SM2 -out "$W/sm2.key" 2>/dev/null
	openssl req -new -x509 -key "$W/sm2.key" -sm3 -subj /CN=sm2 -days 30 \
		-out "$W/sm2.crt"
	for k in 6.1 6.10; do
		run --separate-stderr "$VERIFY_FILE" -v --kernel $k -c "$W/sm2.crt" --list-keys
		assert_output --partial "Loaded X.509 cert 'sm2: "
	done
	run --separate-stderr "$VERIFY_FILE" -v --kernel 6.11 -c "$W/sm2.crt" \
		-c "$KEYS/rsa2048.crt" --list-keys
	[[ "$stderr" == *"sm2.crt: certificate 1 left out: -ENOPKG: unsupported signature algorithm: SM2 came to the PKCS#7 parser in v6.0 (5.10's X.509 parser has it) and left the kernel in v6.11"* ]] ||
		fail "$stderr"
}

@test "a .config without its version line: --kernel settles the line, in both tools, with no conflict" {
	printf 'CONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/nover.config"
	make_module "$W/m.ko" 4096
	run --separate-stderr "$SIGN_FILE" --kernel 6.1 --kernel-config "$W/nover.config" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr "$VERIFY_FILE" --json --kernel 6.12 --kernel-config "$W/nover.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_success
	assert_equal "$stderr" ""
	assert_output --partial '"kernel":"6.12"'
	# the 6.1 line's rules, from --kernel: SHA-3 is no hash 6.1 knows
	"$SIGN_FILE" --replace sha3-256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko"
	run "$VERIFY_FILE" --kernel 6.1 --kernel-config "$W/nover.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 5
	# a version in the file still has to agree
	printf '# Linux/x86 7.3.1 Kernel Configuration\n' | cat - "$W/nover.config" > "$W/v.config"
	run "$VERIFY_FILE" --kernel 6.1 --kernel-config "$W/v.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	assert_output --partial "kernel 7.3.1 is not --kernel 6.1"
}
