# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sign, then check with OpenSSL alone: the body in front of the trailer is
# exactly the input, and `openssl cms -verify` accepts the appended CMS over
# it with the signer's certificate.  Body and CMS are cut with head/tail
# from the descriptor's sig_len (not with extract-sig).

bats_require_minimum_version 1.5.0
load helpers

# Sign a copy of a SIZE-byte module with KEY/HASH (extra options first);
# check body and verification.  Leaves mod.ko, body and sig.cms in $W.
roundtrip() { # key hash size [options...]
	local key=$1 hash=$2 size=$3
	shift 3
	copy_module "$W/orig.ko" "$size"
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 --separate-stderr "$SIGN_FILE" "$@" "$hash" "$KEYS/$key.key" \
		"$KEYS/$key.der" "$W/mod.ko"
	assert_output ""
	check_signed "$W/mod.ko" "$KEYS/$key.der"
}

check_signed() { # signed cert
	local sig_len
	sig_len=$(trailer_sig_len "$1")
	assert_equal "$(file_size "$1")" \
		$(($(file_size "$W/orig.ko") + sig_len + SIG_TRAILER_LEN))
	ends_with_sig_magic "$1"
	split_signed "$1" "$W/body" "$W/sig.cms"
	cmp "$W/body" "$W/orig.ko"
	run -0 openssl_verify_detached "$W/sig.cms" "$W/body" "$2"
}

@test "RSA-2048 sha256 signature verifies with openssl cms over the exact input" { roundtrip rsa2048 sha256 100000; }
@test "RSA-2048 sha512 signature verifies with openssl cms over the exact input" { roundtrip rsa2048 sha512 100000; }
@test "RSA-2048 sha3-256 signature verifies with openssl cms over the exact input" { roundtrip rsa2048 sha3-256 100000; }
@test "RSA-4096 sha256 signature verifies with openssl cms over the exact input" { roundtrip rsa4096 sha256 100000; }
@test "RSA-4096 sha384 signature verifies with openssl cms over the exact input" { roundtrip rsa4096 sha384 100000; }
@test "RSA-4096 sha3-512 signature verifies with openssl cms over the exact input" { roundtrip rsa4096 sha3-512 100000; }
# The smallest module: the ELF magic alone (an empty one is refused,
# sign-file-footguns.bats); and a 1-byte file as data (--usage firmware).
@test "a 193-byte module (the ELF head alone) round-trips (RSA-4096)" { roundtrip rsa4096 sha256 193; }
@test "a 1-byte file round-trips as data (RSA-2048, --usage firmware)" { roundtrip rsa2048 sha256 1 --usage firmware; }
@test "a module of exactly one page round-trips" { roundtrip rsa2048 sha256 4096; }
@test "a 3 MiB module round-trips" { roundtrip rsa2048 sha256 $((3 << 20)); }
@test "-k signature round-trips" { roundtrip rsa4096 sha256 100000 -k; }
@test "the encrypted key's signature round-trips" {
	export KBUILD_SIGN_PIN=modsign-pin
	roundtrip enc sha256 100000
}

@test "a signature into a dest round-trips and leaves the module alone" {
	copy_module "$W/orig.ko" 100000
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 "$SIGN_FILE" sha384 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		"$W/mod.ko" "$W/out.ko"
	cmp "$W/mod.ko" "$W/orig.ko"
	check_signed "$W/out.ko" "$KEYS/rsa2048.crt"
}

@test "-p: the .p7s is the appended CMS and verifies on its own" {
	roundtrip rsa2048 sha256 100000 -p
	cmp "$W/mod.ko.p7s" "$W/sig.cms"
	run -0 openssl_verify_detached "$W/mod.ko.p7s" "$W/orig.ko" "$KEYS/rsa2048.der"
}

@test "verification is not vacuous: a one-byte change of the body fails" {
	roundtrip rsa2048 sha256 100000
	printf '\xff' | dd of="$W/body" bs=1 seek=5000 conv=notrunc status=none
	run ! openssl_verify_detached "$W/sig.cms" "$W/body" "$KEYS/rsa2048.der"
}

@test "verification is not vacuous: another signer's certificate fails" {
	roundtrip rsa2048 sha256 100000
	run ! openssl_verify_detached "$W/sig.cms" "$W/body" "$KEYS/other.der"
}

@test "--replace re-signs a signed module: one trailer, body is the original" {
	roundtrip rsa2048 sha256 100000
	run -0 "$SIGN_FILE" --replace sha512 "$KEYS/rsa4096.key" \
		"$KEYS/rsa4096.der" "$W/mod.ko"
	check_signed "$W/mod.ko" "$KEYS/rsa4096.der"
	# the body left after stripping must not end in another trailer
	run -1 ends_with_sig_magic "$W/body"
}

@test "-d then -s of that .p7s gives a module that round-trips" {
	copy_module "$W/orig.ko" 100000
	cp "$W/orig.ko" "$W/mod.ko"
	run -0 "$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		"$W/mod.ko"
	cmp "$W/mod.ko" "$W/orig.ko"
	mv "$W/mod.ko.p7s" "$W/raw.cms"
	run -0 "$SIGN_FILE" -s "$W/raw.cms" sha256 "$KEYS/rsa2048.der" "$W/mod.ko"
	check_signed "$W/mod.ko" "$KEYS/rsa2048.der"
	cmp "$W/sig.cms" "$W/raw.cms"
}
