# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attaching a signature made elsewhere (-s, --attach, split signing) goes
# through the kernel model verify-file judges with: what the target kernel
# would refuse is refused before anything is written, with the kernel's
# errno (as verify-file's exit code) and reason, and the openssl options
# that make an acceptable CMS.

bats_require_minimum_version 1.5.0
load helpers

CRT="$KEYS/rsa2048.crt"
KEY="$KEYS/rsa2048.key"
HINT="openssl cms -sign makes one it accepts with -binary -noattr -nosmimecap -nocerts"

# The module alone in $W/d, so that its listing shows anything written.
mod() {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" "${1:-20000}"
}

listing() { (cd "$W/d" && LC_ALL=C ls -lAn --time-style=+ && sha256sum ./*); }

# openssl cms -sign as a user would run it first: signed attributes
# (contentType, signingTime, messageDigest) and S/MIME capabilities.
default_cms() { # out [key crt]
	openssl cms -sign -binary -outform DER -md sha256 \
		-signer "${3:-$CRT}" -inkey "${2:-$KEY}" -in "$W/d/m.ko" \
		-out "$1"
}

# Run sign-file expecting exit CODE with nothing written into $W/d.
refused() { # code args...
	local code=$1 before
	shift
	before=$(listing)
	run "-$code" --separate-stderr "$SIGN_FILE" "$@"
	assert_output ""
	assert_equal "$(listing)" "$before"
}

@test "-s refuses a default 'openssl cms -sign' CMS with the kernel's reason, exit 1, nothing written" {
	mod
	default_cms "$W/def.p7s"
	refused 1 -s "$W/def.p7s" sha256 "$CRT" "$W/d/m.ko"
	[[ "$stderr" == "sign-file: $W/def.p7s: the "*" kernel would refuse this signature: -EKEYREJECTED: S/MIME Caps only allowed with Authenticode ($HINT)" ]] ||
		fail "$stderr"
	refused 1 -s "$W/def.p7s" sha256 "$CRT" "$W/d/m.ko" "$W/d/out.ko"
	[[ "$stderr" == *"-EKEYREJECTED: S/MIME Caps only allowed with Authenticode"* ]]
}

@test "-s and verify-file give the same errno and reason for the same CMS" {
	need_reference
	mod
	default_cms "$W/def.p7s"
	refused 1 -s "$W/def.p7s" sha256 "$CRT" "$W/d/m.ko"
	local ours=$stderr
	# the kernel's own tool appends anything; verify-file then judges it
	cp "$W/d/m.ko" "$W/ref.ko"
	"$REF_SIGN_FILE" -s "$W/def.p7s" sha256 "$CRT" "$W/ref.ko"
	run -1 "$VERIFY_FILE" -c "$CRT" "$W/ref.ko"
	assert_output --partial "REJECTED -EKEYREJECTED: S/MIME Caps only allowed with Authenticode"
	[[ "$ours" == *"-EKEYREJECTED: S/MIME Caps only allowed with Authenticode"* ]]
}

@test "-s refuses signed attributes without S/MIME capabilities too (-nosmimecap alone)" {
	mod
	openssl cms -sign -binary -nosmimecap -nocerts -outform DER -md sha256 \
		-signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" -out "$W/attrs.p7s"
	refused 1 -s "$W/attrs.p7s" sha256 "$CRT" "$W/d/m.ko"
	[[ "$stderr" == *"-EKEYREJECTED: module signature has authenticated attributes ($HINT)" ]] ||
		fail "$stderr"
}

@test "-s without -binary: the signature covers the MIME-canonical text, refused" {
	mod
	# a module with bare LFs: openssl cms -sign without -binary signs
	# the CRLF form, which is not the module
	{ head -c 193 /dev/zero; printf 'line one\nline two\n'; } > "$W/d/m.ko"
	elf_head "$W/d/m.ko"
	openssl cms -sign -noattr -nosmimecap -nocerts -outform DER -md sha256 \
		-signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" -out "$W/text.p7s"
	refused 1 -s "$W/text.p7s" sha256 "$CRT" "$W/d/m.ko"
	[[ "$stderr" == *"kernel would refuse this signature: -EKEYREJECTED: "*"($HINT)" ]] ||
		fail "$stderr"
}

@test "-s and --attach accept a CMS made with -binary -noattr -nosmimecap -nocerts; verify-file says OK" {
	mod
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha256 -signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" \
		-out "$W/ok.p7s"
	run -0 --separate-stderr "$SIGN_FILE" -s "$W/ok.p7s" sha256 "$CRT" \
		"$W/d/m.ko" "$W/d/s.ko"
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$SIGN_FILE" --attach "$W/ok.p7s" sha256 \
		"$CRT" "$W/d/m.ko" "$W/d/a.ko"
	assert_equal "$stderr" ""
	cmp "$W/d/s.ko" "$W/d/a.ko"
	run -0 "$VERIFY_FILE" -c "$CRT" "$W/d/s.ko"
	assert_output --partial "OK (sha256, RSA-2048"
}

@test "-s accepts a CMS that embeds the signer's certificate (the kernel's embedded path)" {
	mod
	openssl cms -sign -binary -noattr -nosmimecap -outform DER -md sha256 \
		-signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" -out "$W/certs.p7s"
	run -0 "$SIGN_FILE" -s "$W/certs.p7s" sha256 "$CRT" "$W/d/m.ko"
	run -0 "$VERIFY_FILE" -c "$CRT" "$W/d/m.ko"
}

@test "--attach refuses a default 'openssl cms -sign' CMS the same way, nothing written" {
	mod
	default_cms "$W/def.p7s"
	refused 1 --attach "$W/def.p7s" sha256 "$CRT" "$W/d/m.ko" "$W/d/out.ko"
	[[ "$stderr" == "sign-file: $W/def.p7s: the "*" kernel would refuse this signature: -EKEYREJECTED: S/MIME Caps only allowed with Authenticode ($HINT)" ]] ||
		fail "$stderr"
}

@test "--kernel picks the line: a SHA-3 CMS is ENOPKG (exit 5) for 6.1, accepted for 6.12" {
	mod
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha3-256 -signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" \
		-out "$W/sha3.p7s"
	refused 5 --kernel 6.1 -s "$W/sha3.p7s" sha3-256 "$CRT" "$W/d/m.ko"
	[[ "$stderr" == *"the 6.1 kernel would refuse this signature: -ENOPKG: "* ]] ||
		fail "$stderr"
	run -0 "$SIGN_FILE" --kernel 6.12 -s "$W/sha3.p7s" sha3-256 "$CRT" \
		"$W/d/m.ko" "$W/d/out.ko"
	run -0 "$VERIFY_FILE" --kernel 6.12 -c "$CRT" "$W/d/out.ko"
	run -5 "$VERIFY_FILE" --kernel 6.1 -c "$CRT" "$W/d/out.ko"
}

@test "--kernel-config picks the kernel: its version's line decides" {
	mod
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha3-256 -signer "$CRT" -inkey "$KEY" -in "$W/d/m.ko" \
		-out "$W/sha3.p7s"
	printf '# Linux/x86 6.1.192 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_SHA3=y\n' > "$W/config"
	refused 5 --kernel-config "$W/config" -s "$W/sha3.p7s" sha3-256 "$CRT" \
		"$W/d/m.ko"
	[[ "$stderr" == *"the 6.1 kernel would refuse this signature: -ENOPKG"* ]] ||
		fail "$stderr"
}

@test "split signing: a bare RSA value over SHA-3 is refused for 6.1 (ENOPKG), attached for 6.12" {
	mod
	"$SIGN_FILE" --digest-only sha3-256 "$W/d/m.ko"
	mv "$W/d/m.ko.digest" "$W/digest"
	rm "$W/d/m.ko.tbs"
	openssl pkeyutl -sign -inkey "$KEY" -in "$W/digest" \
		-pkeyopt digest:sha3-256 -out "$W/value"
	refused 5 --kernel 6.1 --attach "$W/value" sha3-256 "$CRT" \
		"$W/d/m.ko" "$W/d/out.ko"
	[[ "$stderr" == *": the 6.1 kernel would refuse this signature: -ENOPKG: "* ]] ||
		fail "$stderr"
	[[ "$stderr" != *"openssl cms"* ]] || fail "no openssl hint for a value: $stderr"
	run -0 "$SIGN_FILE" --kernel 6.12 --attach "$W/value" sha3-256 \
		"$CRT" "$W/d/m.ko" "$W/d/out.ko"
	run -0 "$VERIFY_FILE" --kernel 6.12 -c "$CRT" "$W/d/out.ko"
}

@test "split signing: a value for another module is refused with the kernel's errno, nothing written" {
	mod
	make_module "$W/n.ko" 20001
	"$SIGN_FILE" --digest-only sha256 "$W/n.ko"
	openssl pkeyutl -sign -inkey "$KEY" -in "$W/n.ko.digest" \
		-pkeyopt digest:sha256 -out "$W/value"
	refused 1 --attach "$W/value" sha256 "$CRT" "$W/d/m.ko"
	[[ "$stderr" == "sign-file: $W/value: the signature value does not verify over this file with the certificate (-EKEYREJECTED from the "*" kernel: "*")" ]] ||
		fail "$stderr"
}

@test "-s with a certificate the kernel cannot load as a key: its reason, about the certificate" {
	mod
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha256 -signer "$KEYS/ec256.crt" -inkey "$KEYS/ec256.key" \
		-in "$W/d/m.ko" -out "$W/ec.p7s"
	printf '# Linux/x86 6.12.118 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/config"
	run --separate-stderr "$SIGN_FILE" --kernel-config "$W/config" \
		-s "$W/ec.p7s" sha256 "$KEYS/ec256.crt" "$W/d/m.ko"
	assert_failure
	[[ "$stderr" == *"the 6.12 kernel would "* ]] || fail "$stderr"
	assert_file_not_exists "$W/d/m.ko.~signed~"
}
