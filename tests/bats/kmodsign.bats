# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kmodsign personality: sign-file run as kmodsign (a symlink) or with
# --kmodsign reads Ubuntu kmodsign's command line,
#   kmodsign [-dpkD] <hash algo> <key> <x509> <module> [<dest>]
# where -D writes the whole trailer (CMS, descriptor, magic) to <dest>, so
# that `cat module dest` is the module signed in place.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	ln -s "$SIGN_FILE" "$W/kmodsign"
	KMODSIGN="$W/kmodsign"
	copy_module "$W/orig.ko" 70000
	cp "$W/orig.ko" "$W/image"
}

# The reference: the module signed in place by sign-file's usual line.
signed_in_place() { # out hash key cert [options...]
	local out=$1 hash=$2 key=$3 cert=$4
	shift 4
	cp "$W/orig.ko" "$out"
	"$SIGN_FILE" "$@" "$hash" "$key" "$cert" "$out"
}

@test "Launchpad's kmodsign -D sha512 key cert image image.sig: image.sig is the trailer" {
	run -0 --separate-stderr "$KMODSIGN" -D sha512 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	assert_output ""
	# The image is left alone; the block is CMS + descriptor + magic.
	cmp image orig.ko
	ends_with_sig_magic image.sig
	assert_equal "$(file_size image.sig)" \
		$(($(trailer_sig_len image.sig) + SIG_TRAILER_LEN))
	cat image image.sig > joined.ko
	run -0 "$VERIFY_FILE" -c "$KEYS/rsa2048.der" joined.ko
}

@test "cat module trailer equals the module signed in place, byte for byte" {
	# RSA PKCS#1 v1.5 is deterministic, so the bytes must match.
	for alg in rsa2048:sha256 rsa2048:sha3-256 rsa4096:sha512; do
		key=${alg%%:*} hash=${alg#*:}
		run -0 "$KMODSIGN" -D "$hash" "$KEYS/$key.key" "$KEYS/$key.der" \
			image "$key.sig"
		signed_in_place "$key.ko" "$hash" "$KEYS/$key.key" \
			"$KEYS/$key.der"
		cat image "$key.sig" | cmp - "$key.ko"
	done
}

@test "ECDSA: cat module trailer verifies, and is as long as in-place signing makes it" {
	for alg in ec256:sha256 ec384:sha384; do
		key=${alg%%:*} hash=${alg#*:}
		run -0 "$KMODSIGN" -D "$hash" "$KEYS/$key.key" "$KEYS/$key.der" \
			image "$key.sig"
		cat image "$key.sig" > "$key.ko"
		run -0 "$VERIFY_FILE" -c "$KEYS/$key.der" "$key.ko"
		split_signed "$key.ko" body sig.cms
		cmp body orig.ko
		run -0 openssl_verify_detached sig.cms body "$KEYS/$key.der"
	done
}

@test "cat module trailer equals the kernel's own sign-file's result" {
	need_reference
	cp orig.ko ref.ko
	"$REF_SIGN_FILE" sha512 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" ref.ko
	run -0 "$KMODSIGN" -D sha512 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image image.sig
	cat image image.sig | cmp - ref.ko
}

@test "-D -k: the block carries the subjectKeyIdentifier signature" {
	run -0 "$KMODSIGN" -k -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	signed_in_place ref.ko sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" -k
	cat image image.sig | cmp - ref.ko
}

@test "-D -p: also the .p7s, which is the CMS inside the block" {
	run -0 "$KMODSIGN" -pD sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		image image.sig
	assert_file_exists image.p7s
	head -c "$(file_size image.p7s)" image.sig | cmp - image.p7s
	assert_equal "$(file_size image.sig)" \
		$(($(file_size image.p7s) + SIG_TRAILER_LEN))
}

@test "a symlink named kmodsign signs in place as sign-file does" {
	run -0 --separate-stderr "$KMODSIGN" sha512 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image
	assert_output ""
	signed_in_place ref.ko sha512 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der"
	cmp image ref.ko
}

@test "a symlink named kmodsign writes into <dest> and keeps -d's .p7s" {
	run -0 "$KMODSIGN" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image signed.ko
	cmp image orig.ko
	run -0 "$VERIFY_FILE" -c "$KEYS/rsa2048.der" signed.ko
	run -0 "$KMODSIGN" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image
	cmp image orig.ko
	split_signed signed.ko body sig.cms
	cmp image.p7s sig.cms
}

@test "--kmodsign gives sign-file kmodsign's -D under any name" {
	run -0 "$SIGN_FILE" --kmodsign -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	signed_in_place ref.ko sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der"
	cat image image.sig | cmp - ref.ko
	# The flag may come anywhere before "--", as getopt permutes.
	rm image.sig
	run -0 "$SIGN_FILE" -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig --kmodsign
	cat image image.sig | cmp - ref.ko
}

@test "without --kmodsign, sign-file has no -D" {
	run -2 --separate-stderr "$SIGN_FILE" -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	assert_file_not_exists image.sig
	cmp image orig.ko
}

@test "an abbreviated --kmodsign is refused, not half-applied" {
	run -2 --separate-stderr "$SIGN_FILE" --kmod -D sha256 \
		"$KEYS/rsa2048.key" "$KEYS/rsa2048.der" image image.sig
	assert_equal "$stderr" "sign-file: spell out --kmodsign"
	assert_file_not_exists image.sig
}

@test "-D without <dest> is refused: kmodsign would replace the module with the block" {
	run -2 --separate-stderr "$KMODSIGN" -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image
	assert_equal "$stderr" "kmodsign: -D writes the signature block to <dest>: give a <dest> other than <module>"
	cmp image orig.ko
	run -2 "$KMODSIGN" -D sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image image
	cmp image orig.ko
	assert_equal "$(echo image*)" "image"
}

@test "-d with -D is refused (kmodsign would silently drop -D)" {
	run -2 --separate-stderr "$KMODSIGN" -dD sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" image image.sig
	assert_equal "$stderr" "kmodsign: -d and -D exclude each other"
	assert_file_not_exists image.p7s
	assert_file_not_exists image.sig
}

@test "kmodsign's option set: sign-file's short options are unknown" {
	for o in -s -v -q; do
		run -2 --separate-stderr "$KMODSIGN" "$o" sha256 \
			"$KEYS/rsa2048.key" "$KEYS/rsa2048.der" image
		[[ ${stderr_lines[0]} == *"invalid option"* ]]
		assert_equal "${stderr_lines[1]}" "Usage: kmodsign [-dpkD] <hash algo> <key> <x509> <module> [<dest>]"
	done
	cmp image orig.ko
}

@test "kmodsign: wrong word counts are usage errors (exit 2)" {
	run -2 --separate-stderr "$KMODSIGN" sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der"
	assert_equal "$stderr" "Usage: kmodsign [-dpkD] <hash algo> <key> <x509> <module> [<dest>]"
	run -2 "$KMODSIGN" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image a b
	run -2 "$KMODSIGN"
}

@test "kmodsign --help and -h: kmodsign's usage and options on stdout, exit 0" {
	for h in --help -h; do
		run -0 --separate-stderr "$KMODSIGN" "$h"
		assert_line --index 0 "Usage: kmodsign [-dpkD] <hash algo> <key> <x509> <module> [<dest>]"
		assert_output --partial "produce a full detached signature block"
		assert_equal "$stderr" ""
	done
}

@test "kmodsign --version and -V name kmodsign" {
	run -0 "$KMODSIGN" --version
	assert_line --index 0 --regexp '^kmodsign \(modsign\) [0-9]+\.[0-9]+\.[0-9]+$'
	run -0 "$KMODSIGN" -V
	assert_output --regexp '^kmodsign \(modsign\) '
}

@test "sign-file --help mentions --kmodsign" {
	run -0 "$SIGN_FILE" --help
	assert_output --partial "--kmodsign"
}

@test "-D on an already-signed module is refused (exit 8); --replace signs the body again" {
	signed_in_place signed.ko sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der"
	run -8 --separate-stderr "$KMODSIGN" -D sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.der" signed.ko signed.sig
	assert_file_not_exists signed.sig
	run -0 "$KMODSIGN" --replace -D sha256 "$KEYS/other.key" \
		"$KEYS/other.der" signed.ko signed.sig
	cat orig.ko signed.sig > joined.ko
	run -0 "$VERIFY_FILE" -c "$KEYS/other.der" joined.ko
}

@test "-D on an xz module: the block completes the decompressed module" {
	xz --check=crc32 -k -c orig.ko > image.xz
	run -0 "$KMODSIGN" -D sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image.xz image.sig
	signed_in_place ref.ko sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der"
	cat orig.ko image.sig | cmp - ref.ko
}

@test "-D keeps an existing <dest>'s mode and a failed key leaves no block" {
	: > image.sig
	chmod 0640 image.sig
	run -0 "$KMODSIGN" -D sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" \
		image image.sig
	assert_equal "$(stat -c %a image.sig)" 640
	run -9 --separate-stderr "$KMODSIGN" -D sha256 "$KEYS/other.key" \
		"$KEYS/rsa2048.der" image other.sig
	assert_file_not_exists other.sig
}
