# SPDX-License-Identifier: GPL-2.0-or-later
#
# sign-file is a drop-in for the kernel's scripts/sign-file: every output
# must be byte-identical to the reference tool's (Debian's linux-kbuild).
# RSA signatures (PKCS#1 v1.5) are deterministic, so `cmp` is the test.
#
# The matrix covers every axis without the full cross product:
#   A  every hash x RSA-2048/RSA-4096, in place
#   B  every mode x sha256 x RSA-2048/RSA-4096
#   C  cert format / combined PEM / encrypted key, sha256
#   D  module size (193 B, the ELF head alone; 1 B as data; 64 MiB),
#      sha256; the empty module,
#      which the kernel tool signs and sign-file refuses
#   E  the same against the 7.3 kernel's sign-file (built from Debian's
#      linux-source-7.3 against this machine's OpenSSL:
#      tests/fixtures/get-reference-7.3.sh): every hash x RSA-2048, every
#      mode x RSA-4096, PEM, combined and encrypted keys, the empty module
#      (refused: the one deliberate difference)
# (the 100 KB size is the one A, B and C use).  Each comparison is one
# `same_as_reference` call below.

bats_require_minimum_version 1.5.0
load helpers

MID=100000		# "100 KB", deliberately not a multiple of the page size
BIG=$((64 << 20))	# 64 MiB

# Two sandboxes, ours/ and ref/, each holding the same mod.ko; orig.ko is
# the untouched input.
prepare() { # size
	mkdir -p "$W/ours" "$W/ref"
	copy_module "$W/orig.ko" "$1"
	cp "$W/orig.ko" "$W/ours/mod.ko"
	cp "$W/orig.ko" "$W/ref/mod.ko"
}

# Run both tools with the same arguments, each in its own sandbox; both
# must succeed, ours silently (but for the warning SHA-1 always gets), and
# both must leave the same set of files.
sign_both() { # args...
	need_reference
	cd "$W/ref" || return 1
	run -0 "$REF_SIGN_FILE" "$@"
	cd "$W/ours" || return 1
	run -0 --separate-stderr "$SIGN_FILE" "$@"
	assert_output ""
	case " $* " in
	*" sha1 "*) assert_equal "$stderr" "sign-file: warning: sha1: SHA-1 is broken for signatures and gone from the kernel's hash choices; use sha256 or better" ;;
	*) [ -z "$stderr" ] || fail "unexpected stderr: $stderr" ;;
	esac
	cd "$W" || return 1
	assert_equal "$(dir_listing ours)" "$(dir_listing ref)"
}

# One byte-identity comparison.
same_as_reference() { # file name inside the sandboxes
	assert_file_exists "$W/ref/$1"
	assert_file_exists "$W/ours/$1"
	cmp "$W/ours/$1" "$W/ref/$1"
}

unchanged() { # file name inside the sandboxes
	cmp "$W/orig.ko" "$W/ours/$1"
	cmp "$W/orig.ko" "$W/ref/$1"
}

k() { echo "$KEYS/$1"; }

# A: every hash x both RSA sizes, in place, DER certificate ------------

inplace() { # hash key
	prepare "$MID"
	sign_both "$1" "$(k "$2.key")" "$(k "$2.der")" mod.ko
	same_as_reference mod.ko
}

@test "in-place signing is byte-identical to the kernel tool (sha1, RSA-2048)" { inplace sha1 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha224, RSA-2048)" { inplace sha224 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha256, RSA-2048)" { inplace sha256 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha384, RSA-2048)" { inplace sha384 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha512, RSA-2048)" { inplace sha512 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha3-256, RSA-2048)" { inplace sha3-256 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha3-384, RSA-2048)" { inplace sha3-384 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha3-512, RSA-2048)" { inplace sha3-512 rsa2048; }
@test "in-place signing is byte-identical to the kernel tool (sha1, RSA-4096)" { inplace sha1 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha224, RSA-4096)" { inplace sha224 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha256, RSA-4096)" { inplace sha256 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha384, RSA-4096)" { inplace sha384 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha512, RSA-4096)" { inplace sha512 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha3-256, RSA-4096)" { inplace sha3-256 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha3-384, RSA-4096)" { inplace sha3-384 rsa4096; }
@test "in-place signing is byte-identical to the kernel tool (sha3-512, RSA-4096)" { inplace sha3-512 rsa4096; }

# B: every mode x sha256 x both RSA sizes -------------------------------

mode_dest() { # key
	prepare "$MID"
	sign_both sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko out.ko
	same_as_reference out.ko
	unchanged mod.ko
}

mode_dest_is_module() { # key
	prepare "$MID"
	sign_both sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko mod.ko
	same_as_reference mod.ko
}

mode_p() { # key
	prepare "$MID"
	sign_both -p sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko
	same_as_reference mod.ko
	same_as_reference mod.ko.p7s
}

mode_p_dest() { # key
	prepare "$MID"
	sign_both -p sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko out.ko
	same_as_reference out.ko
	same_as_reference mod.ko.p7s
	unchanged mod.ko
}

mode_d() { # key
	prepare "$MID"
	sign_both -d sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko out.ko
	same_as_reference mod.ko.p7s
	unchanged mod.ko
	assert_file_not_exists "$W/ours/out.ko"
}

mode_k() { # key
	prepare "$MID"
	sign_both -k sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko
	same_as_reference mod.ko
}

mode_kp() { # key
	prepare "$MID"
	sign_both -k -p sha256 "$(k "$1.key")" "$(k "$1.der")" mod.ko
	same_as_reference mod.ko
	same_as_reference mod.ko.p7s
}

# A detached CMS of orig.ko made by the reference's -d (optionally -k).
reference_cms() { # key out [-k]
	need_reference
	mkdir -p "$W/cms"
	cp "$W/orig.ko" "$W/cms/m.ko"
	"$REF_SIGN_FILE" -d ${3:-} sha256 "$(k "$1.key")" "$(k "$1.der")" \
		"$W/cms/m.ko"
	mv "$W/cms/m.ko.p7s" "$2"
}

mode_s() { # key [-k]
	prepare "$MID"
	reference_cms "$1" "$W/raw.cms" "${2:-}"
	sign_both -s "$W/raw.cms" sha256 "$(k "$1.der")" mod.ko
	same_as_reference mod.ko
}

mode_s_dest() { # key
	prepare "$MID"
	reference_cms "$1" "$W/raw.cms"
	sign_both -s "$W/raw.cms" sha256 "$(k "$1.der")" mod.ko out.ko
	same_as_reference out.ko
	unchanged mod.ko
}

# In -s mode the kernel tool ignores -p and -d (no .p7s is written).
mode_s_p() { # key
	prepare "$MID"
	reference_cms "$1" "$W/raw.cms"
	sign_both -s -p "$W/raw.cms" sha256 "$(k "$1.der")" mod.ko
	same_as_reference mod.ko
	assert_file_not_exists "$W/ours/mod.ko.p7s"
}

@test "signing into a new dest is byte-identical to the kernel tool and leaves the module alone (RSA-2048)" { mode_dest rsa2048; }
@test "signing into a new dest is byte-identical to the kernel tool and leaves the module alone (RSA-4096)" { mode_dest rsa4096; }
@test "a dest equal to the module signs in place, byte-identical to the kernel tool (RSA-2048)" { mode_dest_is_module rsa2048; }
@test "a dest equal to the module signs in place, byte-identical to the kernel tool (RSA-4096)" { mode_dest_is_module rsa4096; }
@test "-p writes a module and .p7s byte-identical to the kernel tool's (RSA-2048)" { mode_p rsa2048; }
@test "-p writes a module and .p7s byte-identical to the kernel tool's (RSA-4096)" { mode_p rsa4096; }
@test "-p with a dest writes dest and <module>.p7s byte-identical to the kernel tool's (RSA-2048)" { mode_p_dest rsa2048; }
@test "-p with a dest writes dest and <module>.p7s byte-identical to the kernel tool's (RSA-4096)" { mode_p_dest rsa4096; }
@test "-d writes only a .p7s byte-identical to the kernel tool's; module untouched, no dest (RSA-2048)" { mode_d rsa2048; }
@test "-d writes only a .p7s byte-identical to the kernel tool's; module untouched, no dest (RSA-4096)" { mode_d rsa4096; }
@test "-k (signer by subjectKeyIdentifier) is byte-identical to the kernel tool (RSA-2048)" { mode_k rsa2048; }
@test "-k (signer by subjectKeyIdentifier) is byte-identical to the kernel tool (RSA-4096)" { mode_k rsa4096; }
@test "-k -p writes a module and .p7s byte-identical to the kernel tool's (RSA-2048)" { mode_kp rsa2048; }
@test "-k -p writes a module and .p7s byte-identical to the kernel tool's (RSA-4096)" { mode_kp rsa4096; }
@test "-s with the reference's -d CMS is byte-identical to the kernel tool (RSA-2048)" { mode_s rsa2048; }
@test "-s with the reference's -d CMS is byte-identical to the kernel tool (RSA-4096)" { mode_s rsa4096; }
@test "-s with a dest is byte-identical to the kernel tool and leaves the module alone (RSA-2048)" { mode_s_dest rsa2048; }
@test "-s with a dest is byte-identical to the kernel tool and leaves the module alone (RSA-4096)" { mode_s_dest rsa4096; }
@test "-s ignores -p like the kernel tool: same module, no .p7s (RSA-2048)" { mode_s_p rsa2048; }
@test "-s ignores -p like the kernel tool: same module, no .p7s (RSA-4096)" { mode_s_p rsa4096; }
@test "-s with a -k (SKID) CMS from the reference is byte-identical to the kernel tool (RSA-2048)" { mode_s rsa2048 -k; }
@test "-s with a -k (SKID) CMS from the reference is byte-identical to the kernel tool (RSA-4096)" { mode_s rsa4096 -k; }

# C: certificate formats, combined PEM, encrypted key (sha256) ----------

@test "a PEM certificate gives the kernel tool's bytes (RSA-2048)" {
	prepare "$MID"
	sign_both sha256 "$(k rsa2048.key)" "$(k rsa2048.crt)" mod.ko
	same_as_reference mod.ko
}

@test "a PEM certificate gives the kernel tool's bytes (RSA-4096)" {
	prepare "$MID"
	sign_both sha256 "$(k rsa4096.key)" "$(k rsa4096.crt)" mod.ko
	same_as_reference mod.ko
}

@test "a PEM certificate with -k gives the kernel tool's bytes" {
	prepare "$MID"
	sign_both -k sha256 "$(k rsa2048.key)" "$(k rsa2048.crt)" mod.ko
	same_as_reference mod.ko
}

@test "a PEM certificate with -s gives the kernel tool's bytes" {
	prepare "$MID"
	reference_cms rsa2048 "$W/raw.cms"
	sign_both -s "$W/raw.cms" sha256 "$(k rsa2048.crt)" mod.ko
	same_as_reference mod.ko
}

@test "a combined key+cert PEM as the key, DER cert, gives the kernel tool's bytes" {
	prepare "$MID"
	sign_both sha256 "$(k combined.pem)" "$(k rsa2048.der)" mod.ko
	same_as_reference mod.ko
}

@test "a combined key+cert PEM as both key and certificate gives the kernel tool's bytes" {
	prepare "$MID"
	sign_both sha256 "$(k combined.pem)" "$(k combined.pem)" mod.ko
	same_as_reference mod.ko
}

@test "a combined key+cert PEM as the key, PEM cert, gives the kernel tool's bytes" {
	prepare "$MID"
	sign_both sha256 "$(k combined.pem)" "$(k rsa2048.crt)" mod.ko
	same_as_reference mod.ko
}

@test "an encrypted key with KBUILD_SIGN_PIN gives the kernel tool's bytes (DER cert)" {
	prepare "$MID"
	export KBUILD_SIGN_PIN=modsign-pin
	sign_both sha256 "$(k enc.key)" "$(k enc.der)" mod.ko
	same_as_reference mod.ko
}

@test "an encrypted key with KBUILD_SIGN_PIN gives the kernel tool's bytes (PEM cert)" {
	prepare "$MID"
	export KBUILD_SIGN_PIN=modsign-pin
	sign_both sha256 "$(k enc.key)" "$(k enc.crt)" mod.ko
	same_as_reference mod.ko
}

# D: module sizes (sha256) -----------------------------------------------

# The one place sign-file parts from the kernel tool on purpose: an empty
# module (a failed build) is refused, with exit 6, where the kernel tool
# signs it; finit_module() would refuse it anyway (-ENOEXEC).
refuses_empty() {
	need_reference
	prepare 0
	cd "$W/ref" || return 1
	run -0 "$REF_SIGN_FILE" sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" mod.ko
	cd "$W/ours" || return 1
	run -6 --separate-stderr "$SIGN_FILE" sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" mod.ko
	assert_equal "$stderr" "sign-file: mod.ko: empty module (nothing to sign: a failed build?)"
	unchanged_ours mod.ko
}

unchanged_ours() { cmp "$W/orig.ko" "$W/ours/$1"; }

@test "an empty module: the kernel tool signs it, sign-file refuses it (exit 6)" {
	refuses_empty
}

# The smallest module sign-file signs: the 4-byte ELF magic alone.
@test "a 193-byte module (the ELF head alone) is signed byte-identically to the kernel tool" {
	prepare 193
	sign_both sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" mod.ko
	same_as_reference mod.ko
}

# A 1-byte file is no module: named other than .ko it is signed as data,
# byte for byte as the kernel tool signs it.
one_byte() {
	prepare 1
	mv "$W/ours/mod.ko" "$W/ours/fw.bin"
	mv "$W/ref/mod.ko" "$W/ref/fw.bin"
}

@test "a 1-byte file is signed byte-identically to the kernel tool (RSA-2048)" {
	one_byte
	sign_both sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" fw.bin
	same_as_reference fw.bin
}

@test "a 1-byte file is signed byte-identically to the kernel tool (RSA-4096)" {
	one_byte
	sign_both sha256 "$(k rsa4096.key)" "$(k rsa4096.der)" fw.bin
	same_as_reference fw.bin
}

@test "a 1-byte file with -p gives the kernel tool's file and .p7s" {
	one_byte
	sign_both -p sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" fw.bin
	same_as_reference fw.bin
	same_as_reference fw.bin.p7s
}

@test "a 64 MiB module is signed in place byte-identically to the kernel tool (RSA-2048)" {
	prepare "$BIG"
	sign_both sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" mod.ko
	same_as_reference mod.ko
}

@test "a 64 MiB module is signed into a dest byte-identically to the kernel tool (RSA-4096)" {
	prepare "$BIG"
	sign_both sha256 "$(k rsa4096.key)" "$(k rsa4096.der)" mod.ko out.ko
	same_as_reference out.ko
	unchanged mod.ko
}

# E: the 7.3 kernel's sign-file ------------------------------------------
#
# 7.3 passes one flag word (NOATTR, NOSMIMECAP and, with OpenSSL 3.5,
# NO_SIGNING_TIME among them) to every CMS call where 6.1 passed three:
# with NOATTR the bytes are the same, and so are ours.

ref73() {
	need_reference73
	REF_SIGN_FILE=$REF73_SIGN_FILE
}

@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha1, RSA-2048)" { ref73; inplace sha1 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha224, RSA-2048)" { ref73; inplace sha224 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha256, RSA-2048)" { ref73; inplace sha256 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha384, RSA-2048)" { ref73; inplace sha384 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha512, RSA-2048)" { ref73; inplace sha512 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha3-256, RSA-2048)" { ref73; inplace sha3-256 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha3-384, RSA-2048)" { ref73; inplace sha3-384 rsa2048; }
@test "7.3: in-place signing is byte-identical to the 7.3 kernel tool (sha3-512, RSA-2048)" { ref73; inplace sha3-512 rsa2048; }
@test "7.3: a new dest is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_dest rsa4096; }
@test "7.3: -p is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_p rsa4096; }
@test "7.3: -p with a dest is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_p_dest rsa4096; }
@test "7.3: -d is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_d rsa4096; }
@test "7.3: -k is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_k rsa4096; }
@test "7.3: -k -p is byte-identical to the 7.3 kernel tool's (RSA-4096)" { ref73; mode_kp rsa4096; }
@test "7.3: -s with the 7.3 tool's -d CMS is byte-identical (RSA-4096)" { ref73; mode_s rsa4096; }
@test "7.3: -s with the 7.3 tool's -k CMS is byte-identical (RSA-2048)" { ref73; mode_s rsa2048 -k; }

@test "7.3: a PEM certificate gives the 7.3 kernel tool's bytes" {
	ref73
	prepare "$MID"
	sign_both sha256 "$(k rsa2048.key)" "$(k rsa2048.crt)" mod.ko
	same_as_reference mod.ko
}

@test "7.3: a combined key+cert PEM gives the 7.3 kernel tool's bytes" {
	ref73
	prepare "$MID"
	sign_both sha256 "$(k combined.pem)" "$(k combined.pem)" mod.ko
	same_as_reference mod.ko
}

@test "7.3: an encrypted key with KBUILD_SIGN_PIN gives the 7.3 kernel tool's bytes" {
	ref73
	prepare "$MID"
	export KBUILD_SIGN_PIN=modsign-pin
	sign_both sha512 "$(k enc.key)" "$(k enc.der)" mod.ko
	same_as_reference mod.ko
}

@test "7.3: an empty module: the 7.3 kernel tool signs it, sign-file refuses it (exit 6)" {
	ref73
	refuses_empty
}

@test "7.3: Debian's own 7.3 sign-file (linux-kbuild-7.3) gives the same bytes too" {
	mldsa_build || skip "Debian's 7.3 sign-file runs with OpenSSL 3.5 only (this build: $("$SIGN_FILE" --version | tail -n 1))"
	[ -x "$REF73_DEBIAN_SIGN_FILE" ] ||
		skip "Debian's 7.3 sign-file missing: run tests/fixtures/get-reference-7.3.sh"
	REF_SIGN_FILE=$REF73_DEBIAN_SIGN_FILE
	prepare "$MID"
	sign_both -p sha256 "$(k rsa2048.key)" "$(k rsa2048.der)" mod.ko
	same_as_reference mod.ko
	same_as_reference mod.ko.p7s
	prepare "$MID"
	sign_both -k sha512 "$(k rsa4096.key)" "$(k rsa4096.der)" mod.ko
	same_as_reference mod.ko
}
