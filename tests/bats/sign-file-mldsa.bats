# SPDX-License-Identifier: GPL-2.0-or-later
#
# ML-DSA (FIPS 204) module signatures, as the 7.3 kernel's sign-file makes
# them with the same OpenSSL: with OpenSSL 3.x, signed attributes
# (contentType and messageDigest, nothing else) signed by pure ML-DSA.
# ML-DSA signatures are randomised, so the comparison with the kernel tool
# is of everything but the signature value (tests/fixtures/cms-mask.py
# zeroes it, in place, same length), and OpenSSL verifies the value.
#
# Whether sign-file can sign with ML-DSA is its build's OpenSSL (3.5 or
# later: Debian 13): there every test signs for real; on a build against
# OpenSSL 3.0 (Debian 12) every test checks the refusal instead, exit 10
# naming the OpenSSL needed, with nothing written.

bats_require_minimum_version 1.5.0
load helpers

MID=100000

# bytes of a signature, FIPS 204 table 2
sig_size() { case $1 in 44) echo 2420 ;; 65) echo 3309 ;; 87) echo 4627 ;; esac; }

setup_file() {
	# the key forms the tests use besides PEM PKCS#8, made without
	# OpenSSL (which may not know ML-DSA): DER is the PEM's base64
	local k
	for k in 44 65 87; do
		sed '1d;$d' "$KEYS/mldsa$k.key" | base64 -d > "$BATS_FILE_TMPDIR/mldsa$k.p8.der"
	done
}

prepare() {
	mkdir -p "$W/ours" "$W/ref"
	copy_module "$W/orig.ko" "${1:-$MID}"
	cp "$W/orig.ko" "$W/ours/mod.ko"
	cp "$W/orig.ko" "$W/ref/mod.ko"
}

listing() { (cd "$1" && LC_ALL=C ls -lAn --time-style=+ && sha256sum ./*); }

# On a build without ML-DSA: sign-file refuses, exit 10, naming the key
# and OpenSSL 3.5, and leaves $W/ours as it was.
refused_without_mldsa() { # set sign-file-args...
	local set=$1 before
	shift
	before=$(listing "$W/ours")
	cd "$W/ours" || return 1
	run -10 --separate-stderr "$SIGN_FILE" "$@"
	cd "$W" || return 1
	assert_output ""
	[[ "$stderr" == *": ML-DSA-$set key: this sign-file is built with OpenSSL 3."*", which cannot sign with ML-DSA (a build against OpenSSL 3.5 or later can)" ]] ||
		fail "unexpected refusal: $stderr"
	assert_equal "$(listing "$W/ours")" "$before"
}

# Without --kernel-config, what sign-file says of an ML-DSA key: the
# only thing it says.
WAIVER_WARNING="this OpenSSL signs ML-DSA with signed attributes, which a kernel accepts on modules only when built with CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y (give --kernel-config to check)"

# Both tools, same arguments, each in its own directory; both succeed,
# ours with the waiver warning alone, and leave the same set of files.
sign_both() { # args...
	need_reference73
	cd "$W/ref" || return 1
	run -0 "$REF73_SIGN_FILE" "$@"
	cd "$W/ours" || return 1
	run -0 --separate-stderr "$SIGN_FILE" "$@"
	assert_output ""
	[[ "$stderr" =~ ^sign-file:\ warning:\ [^$'\n']*:\ "$WAIVER_WARNING"$ ]] ||
		fail "stderr is not the waiver warning alone: $stderr"
	cd "$W" || return 1
	assert_equal "$(dir_listing ours)" "$(dir_listing ref)"
}

# Identical but for the signature values, which differ (randomised).
same_but_signature() { # file name inside the sandboxes
	"$CMS_MASK" der "$W/ours/$1" "$W/ours.masked"
	"$CMS_MASK" der "$W/ref/$1" "$W/ref.masked"
	cmp "$W/ours.masked" "$W/ref.masked"
	run -1 cmp -s "$W/ours/$1" "$W/ref/$1"
}

# The CMS the 7.3 tool makes: signed attributes contentType (id-data) and
# messageDigest only, no signingTime or S/MIME capabilities, the set's
# signature algorithm without parameters, a signature of the set's size,
# and OpenSSL verifies it over the module.
check_cms() { # cms set hash cert
	run -0 openssl cms -cmsout -print -inform DER -in "$1"
	assert_output --partial "object: contentType"
	assert_output --partial "object: messageDigest"
	refute_output --partial "signingTime"
	refute_output --partial "SMIMECapabilities"
	assert_output --regexp "signatureAlgorithm: *
 *algorithm: ML-DSA-$2 \\(2\\.16\\.840\\.1\\.101\\.3\\.4\\.3\\.1[789]\\)
 *parameter: <ABSENT>"
	assert_output --regexp "digestAlgorithm: *
 *algorithm: $3 "
	run -0 "$CMS_MASK" tree "$1"
	assert_output --partial "04 <signature value>"
	run -0 openssl asn1parse -inform DER -in "$1"
	assert_line --regexp "prim: OCTET STRING +\\[HEX DUMP\\]:[0-9A-F]{$((2 * $(sig_size "$2")))}\$"
	run -0 openssl_verify_detached "$1" "$W/orig.ko" "$4"
}

mldsa_like_73() { # set hash [options...]
	local set=$1 hash=$2
	shift 2
	prepare
	if ! mldsa_build; then
		refused_without_mldsa "$set" "$@" "$hash" "$KEYS/mldsa$set.key" \
			"$KEYS/mldsa$set.der" mod.ko
		return
	fi
	sign_both "$@" -p "$hash" "$KEYS/mldsa$set.key" "$KEYS/mldsa$set.der" mod.ko
	same_but_signature mod.ko
	same_but_signature mod.ko.p7s
	check_cms "$W/ours/mod.ko.p7s" "$set" "$hash" "$KEYS/mldsa$set.crt"
	split_signed "$W/ours/mod.ko" "$W/body" "$W/sig.cms"
	cmp "$W/body" "$W/orig.ko"
	cmp "$W/sig.cms" "$W/ours/mod.ko.p7s"
}

@test "--version says which OpenSSL sign-file is built with, and whether it signs with ML-DSA" {
	run -0 "$SIGN_FILE" --version
	assert_line --index 1 --regexp '^OpenSSL [0-9.]+[a-z-]* \(built with [0-9.]+\); ML-DSA: (yes|no \(needs OpenSSL 3\.5 or later\))$'
	local built
	built=$(sed -n '2s/.*(built with \([0-9.]*\));.*/\1/p' <<< "$output")
	if [ "$(printf '%s\n' 3.5 "$built" | sort -V | head -n 1)" = 3.5 ]; then
		assert_line --index 1 --partial "; ML-DSA: yes"
	else
		assert_line --index 1 --partial "; ML-DSA: no"
	fi
}

@test "ML-DSA-44 sha512: as the 7.3 kernel's sign-file, but for the signature value" { mldsa_like_73 44 sha512; }
@test "ML-DSA-65 sha512: as the 7.3 kernel's sign-file, but for the signature value" { mldsa_like_73 65 sha512; }
@test "ML-DSA-87 sha512: as the 7.3 kernel's sign-file, but for the signature value" { mldsa_like_73 87 sha512; }
@test "ML-DSA-65 sha512 -k (subjectKeyIdentifier): as the 7.3 kernel's sign-file" { mldsa_like_73 65 sha512 -k; }

@test "ML-DSA-65 -d and a destination: as the 7.3 kernel's sign-file" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 65 -d sha512 "$KEYS/mldsa65.key" \
			"$KEYS/mldsa65.crt" mod.ko out.ko
		return
	fi
	sign_both -d sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko out.ko
	same_but_signature mod.ko.p7s
	cmp "$W/ours/mod.ko" "$W/orig.ko"
	sign_both sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko out.ko
	same_but_signature out.ko
}

@test "ML-DSA keys as DER PKCS#8 sign as the PEM ones do (which the kernel tool reads)" {
	prepare
	local k="$BATS_FILE_TMPDIR/mldsa87.p8.der"
	if ! mldsa_build; then
		refused_without_mldsa 87 sha512 "$k" "$KEYS/mldsa87.der" mod.ko
		return
	fi
	need_reference73
	(cd "$W/ref" && "$REF73_SIGN_FILE" sha512 "$KEYS/mldsa87.key" \
		"$KEYS/mldsa87.der" mod.ko)
	(cd "$W/ours" && "$SIGN_FILE" sha512 "$k" "$KEYS/mldsa87.der" mod.ko)
	same_but_signature mod.ko
}

@test "an ML-DSA key as encrypted PKCS#8 signs with KBUILD_SIGN_PIN" {
	prepare
	if ! mldsa_build; then
		# OpenSSL 3.0 cannot even write such a key: the certificate
		# tells, whatever the key file holds
		: > "$W/enc.key"
		refused_without_mldsa 44 sha512 "$W/enc.key" "$KEYS/mldsa44.crt" mod.ko
		return
	fi
	openssl pkcs8 -topk8 -v2 aes-256-cbc -passout pass:modsign-pin \
		-in "$KEYS/mldsa44.key" -out "$W/enc.key"
	export KBUILD_SIGN_PIN=modsign-pin
	sign_both sha512 "$W/enc.key" "$KEYS/mldsa44.crt" mod.ko
	same_but_signature mod.ko
}

@test "ML-DSA signatures are randomised, and each verifies" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 65 -d sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
		return
	fi
	cd "$W/ours"
	"$SIGN_FILE" -d sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	mv mod.ko.p7s first.p7s
	"$SIGN_FILE" -d sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	run -1 cmp -s first.p7s mod.ko.p7s
	"$CMS_MASK" der first.p7s a
	"$CMS_MASK" der mod.ko.p7s b
	cmp a b
	run -0 openssl_verify_detached first.p7s "$W/orig.ko" "$KEYS/mldsa65.crt"
	run -0 openssl_verify_detached mod.ko.p7s "$W/orig.ko" "$KEYS/mldsa65.crt"
}

@test "the signature covers the signed attributes, not the module: a changed module fails OpenSSL's check" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 44 -d sha512 "$KEYS/mldsa44.key" "$KEYS/mldsa44.crt" mod.ko
		return
	fi
	cd "$W/ours"
	"$SIGN_FILE" -d sha512 "$KEYS/mldsa44.key" "$KEYS/mldsa44.crt" mod.ko
	printf 'x' | dd of=mod.ko bs=1 seek=5000 conv=notrunc status=none
	run -4 openssl_verify_detached mod.ko.p7s mod.ko "$KEYS/mldsa44.crt"
}

@test "batch signing with an ML-DSA key: each module as the 7.3 tool signs it" {
	prepare
	cp "$W/orig.ko" "$W/ours/two.ko"
	cp "$W/orig.ko" "$W/ref/two.ko"
	if ! mldsa_build; then
		local before
		before=$(listing "$W/ours")
		run -10 --separate-stderr "$SIGN_FILE" --batch sha512 \
			"$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" "$W/ours/mod.ko" "$W/ours/two.ko"
		[[ "$stderr" == *"ML-DSA-65 key: this sign-file is built with OpenSSL 3."* ]] ||
			fail "$stderr"
		assert_equal "$(listing "$W/ours")" "$before"
		return
	fi
	need_reference73
	(cd "$W/ref" && "$REF73_SIGN_FILE" sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko &&
		"$REF73_SIGN_FILE" sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" two.ko)
	run -0 "$SIGN_FILE" --batch -q sha512 "$KEYS/mldsa65.key" \
		"$KEYS/mldsa65.crt" "$W/ours/mod.ko" "$W/ours/two.ko"
	same_but_signature mod.ko
	same_but_signature two.ko
}

@test "Debian's own 7.3 sign-file (linux-kbuild-7.3) makes the same ML-DSA structure" {
	mldsa_build || skip "Debian's 7.3 sign-file runs with OpenSSL 3.5 only (this build: $("$SIGN_FILE" --version | tail -n 1))"
	[ -x "$REF73_DEBIAN_SIGN_FILE" ] ||
		skip "Debian's 7.3 sign-file missing: run tests/fixtures/get-reference-7.3.sh"
	prepare
	REF73_SIGN_FILE=$REF73_DEBIAN_SIGN_FILE
	sign_both -p sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	same_but_signature mod.ko
	same_but_signature mod.ko.p7s
}

@test "the 7.3 kernel's own sign-file cannot sign with ML-DSA either when built against OpenSSL 3.0" {
	need_reference73
	prepare
	if mldsa_build; then
		run -0 "$REF73_SIGN_FILE" sha512 "$KEYS/mldsa65.key" \
			"$KEYS/mldsa65.crt" "$W/ref/mod.ko"
	else
		run -1 "$REF73_SIGN_FILE" sha512 "$KEYS/mldsa65.key" \
			"$KEYS/mldsa65.crt" "$W/ref/mod.ko"
		cmp "$W/ref/mod.ko" "$W/orig.ko"
	fi
}

# What the target kernel would reject is refused before anything is
# written, with the kernel's errno (as verify-file's exit code) and reason.

# A 7.3 kernel .config with ML-DSA, an ML-DSA-65 module key, and the
# waiver when asked.
config73() { # file [waiver]
	{
		printf '# Linux/x86 7.3.4 Kernel Configuration\n'
		printf 'CONFIG_MODULE_SIG=y\nCONFIG_MODULE_SIG_HASH="sha512"\n'
		printf 'CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_65=y\n'
		printf 'CONFIG_CRYPTO_MLDSA=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_SHA512=y\n'
		[ -z "${2:-}" ] ||
			printf 'CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y\n'
	} > "$1"
}

# sign-file ARGS refused with exit CODE, nothing written in $W/ours;
# $stderr for the caller.
refused() { # code args...
	local code=$1 before
	shift
	before=$(listing "$W/ours")
	cd "$W/ours" || return 1
	run "-$code" --separate-stderr "$SIGN_FILE" "$@"
	cd "$W" || return 1
	assert_output ""
	assert_equal "$(listing "$W/ours")" "$before"
}

@test "ML-DSA with sha256 (signed attributes) is refused as every 7.x kernel refuses it" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 65 sha256 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
		return
	fi
	refused 1 sha256 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	[[ "$stderr" == *"sign-file: mod.ko: the 7.3 kernel would refuse this ML-DSA signature: -EKEYREJECTED: "*sha512* ]] ||
		fail "$stderr"
	# the kernel's own tool makes it, and verify-file says the same
	need_reference73
	(cd "$W/ref" && "$REF73_SIGN_FILE" sha256 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko)
	config73 "$W/waiver.config" waiver
	run -1 "$VERIFY_FILE" --kernel-config "$W/waiver.config" -c "$KEYS/mldsa65.crt" "$W/ref/mod.ko"
	assert_output --partial "REJECTED -EKEYREJECTED"
}

@test "--kernel-config of a 7.3 kernel without the waiver refuses ML-DSA, naming the option" {
	prepare
	config73 "$W/plain.config"
	if ! mldsa_build; then
		refused_without_mldsa 65 --kernel-config "$W/plain.config" sha512 \
			"$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
		return
	fi
	refused 1 --kernel-config "$W/plain.config" sha512 "$KEYS/mldsa65.key" \
		"$KEYS/mldsa65.crt" mod.ko
	[[ "$stderr" == *"the 7.3 kernel would refuse this ML-DSA signature: -EKEYREJECTED: module signature has authenticated attributes"*"CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y)" ]] ||
		fail "$stderr"
}

@test "--kernel-config of a 7.3 kernel with the waiver: signed without a warning, and verify-file accepts it" {
	prepare
	config73 "$W/waiver.config" waiver
	if ! mldsa_build; then
		refused_without_mldsa 65 --kernel-config "$W/waiver.config" sha512 \
			"$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
		return
	fi
	cd "$W/ours"
	run -0 --separate-stderr "$SIGN_FILE" --kernel-config "$W/waiver.config" \
		sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	assert_equal "$stderr" ""
	run -0 "$VERIFY_FILE" --kernel-config "$W/waiver.config" \
		-c "$KEYS/mldsa65.crt" mod.ko
	assert_output --partial "mod.ko: OK"
	config73 "$W/plain.config"
	run -1 "$VERIFY_FILE" --kernel-config "$W/plain.config" \
		-c "$KEYS/mldsa65.crt" mod.ko
	assert_output --partial "REJECTED -EKEYREJECTED: module signature has authenticated attributes"
}

@test "--kernel 6.12 refuses ML-DSA: that line has none (ENOPKG, exit 5)" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 44 --kernel 6.12 sha512 "$KEYS/mldsa44.key" \
			"$KEYS/mldsa44.crt" mod.ko
		return
	fi
	refused 5 --kernel 6.12 sha512 "$KEYS/mldsa44.key" "$KEYS/mldsa44.crt" mod.ko
	[[ "$stderr" == *"the 6.12 kernel would not load the signer's certificate as a key: -ENOPKG: "* ]] ||
		fail "$stderr"
}

@test "an ML-DSA and an RSA signer in one CMS are refused: the kernel wants signed attributes on all or none" {
	prepare
	if ! mldsa_build; then
		refused_without_mldsa 65 --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
			sha512 "$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
		return
	fi
	refused 6 --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" sha512 \
		"$KEYS/mldsa65.key" "$KEYS/mldsa65.crt" mod.ko
	[[ "$stderr" == *"the 7.3 kernel would refuse this ML-DSA signature: -EINVAL: "* ]] ||
		fail "$stderr"
}

@test "verify-file accepts what sign-file signs with each ML-DSA set, on a 7.3 kernel with the waiver" {
	prepare
	config73 "$W/waiver.config" waiver
	if ! mldsa_build; then
		refused_without_mldsa 87 sha512 "$KEYS/mldsa87.key" "$KEYS/mldsa87.crt" mod.ko
		return
	fi
	for set in 44 65 87; do
		cp "$W/orig.ko" "$W/ours/m$set.ko"
		"$SIGN_FILE" --kernel-config "$W/waiver.config" sha512 \
			"$KEYS/mldsa$set.key" "$KEYS/mldsa$set.crt" "$W/ours/m$set.ko"
		run -0 "$VERIFY_FILE" --kernel-config "$W/waiver.config" \
			-c "$KEYS/mldsa$set.crt" "$W/ours/m$set.ko"
	done
}
