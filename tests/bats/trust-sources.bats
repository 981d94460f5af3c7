#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Trusted keys from where they live: the certificate list of a kernel
# image (synthetic ELF and bzImages of every payload format, Debian's real
# vmlinuz), EFI signature lists
# (efitools and our own writer), and the rules of a kernel .config.

bats_require_minimum_version 1.5.0
load helpers

MK="$TOP/tests/fixtures/make-trust.py"
DEBROOT=""

setup_file() {
	local rc=0
	DEB=$(sh "$BATS_TEST_DIRNAME/../fixtures/debian-kernel.sh" \
		2>"$BATS_FILE_TMPDIR/why") || rc=$?
	export DEB DEB_RC=$rc
}

# A kernel-like ELF object: CERTS back to back at system_certificate_list
# in .init.rodata with its _size symbol, DECOY (if any) alone in .rodata.
make_elf() { # out decoy cert...
	local out=$1 decoy=$2
	shift 2
	make_cert_elf "$out" "${decoy:+decoy: .incbin \"$decoy\"}" "$@"
}

# Fingerprints --list-keys printed, one a line.
listed() { grep -A5 '^Loaded X.509' | sed -n 's/^    sha256:  //p'; }
fp() { openssl x509 -inform DER -in "$1" -noout -fingerprint -sha256 | cut -d= -f2; }

# A module signed with KEY (rsa2048, ec256...) into $W/KEY.ko
signed_module() { # key [hash]
	make_module "$W/$1.raw" 4000
	"$SIGN_FILE" "${2:-sha256}" "$KEYS/$1.key" "$KEYS/$1.crt" \
		"$W/$1.raw" "$W/$1.ko"
}

need_tool() { require_cmd "$1" "$2"; }

# This release's Debian kernel (debian-kernel.sh): 6.1 on Debian 12, 6.12
# (modules .ko.xz) on Debian 13.
deb_line() { basename "$DEB" | sed -E 's/^linux-image-([0-9]+\.[0-9]+).*/\1/'; }
deb_modules() { find "$DEB/root/lib/modules" -name '*.ko' -o -name '*.ko.xz'; }

# This release's Debian kernel package, fetched by setup_file (the archive must be
# reachable: CI has it, and a skip says what was missing).
need_debian_kernel() {
	[ "$DEB_RC" -eq 0 ] ||
		skip "Debian kernel unavailable: $(cat "$BATS_FILE_TMPDIR/why")"
}

@test "an ELF vmlinux with symbols: exactly the listed certificates" {
	need_tool gcc gcc
	make_elf "$W/vmlinux" "$KEYS/other.der" "$KEYS/rsa2048.der" "$KEYS/ec256.der"
	run "$VERIFY_FILE" -v --vmlinux "$W/vmlinux" --list-keys
	assert_success
	assert_output --partial "by symbol system_certificate_list"
	assert_line "Loaded X.509 cert 'modsign test RSA-2048 key: $(openssl x509 -in "$KEYS/rsa2048.crt" -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' :' | tr A-F a-f)'"
	printf '%s\n' "$(fp "$KEYS/rsa2048.der")" "$(fp "$KEYS/ec256.der")" > "$W/want"
	echo "$output" | listed > "$W/got"
	diff -u "$W/want" "$W/got"
}

@test "a stripped vmlinux: the .init.rodata scan skips a certificate elsewhere" {
	need_tool gcc gcc
	make_elf "$W/vmlinux" "$KEYS/other.der" "$KEYS/rsa2048.der" "$KEYS/ec256.der"
	objcopy --strip-all "$W/vmlinux" "$W/stripped"
	run "$VERIFY_FILE" -v --vmlinux "$W/stripped" --list-keys
	assert_success
	assert_output --partial "scan of .init.data/.init.rodata"
	assert_output --partial "2 trusted, 0 platform"
	refute_output --partial "$(fp "$KEYS/other.der")"
}

@test "a raw image without sections: the whole-image scan finds the run" {
	# filler that is no ELF (make_module's files start with its magic)
	head -c 5000 /dev/zero | tr '\0' j > "$W/junk"
	cat "$W/junk" "$KEYS/rsa2048.der" "$KEYS/ec256.der" "$W/junk" > "$W/Image"
	run "$VERIFY_FILE" -v --vmlinux "$W/Image" --list-keys
	assert_success
	assert_output --partial "scan of the whole image"
	assert_output --partial "2 trusted, 0 platform"
}

# An image with all three things certs/ builds in: the system list (rsa2048,
# ec256), the revocation list (other) after it, and a blacklist hash
# naming ec256's TBS as CONFIG_SYSTEM_BLACKLIST_HASH_LIST builds it in:
# a C string in a read-only data section, away from the lists.
make_elf_lists() { # out
	local tbs
	tbs=$(python3 -c 'import sys, hashlib
d = open(sys.argv[1], "rb").read()
n = int.from_bytes(d[6:8], "big") + 4   # 30 82 LL LL, then the TBS 30 82 LL LL
print(hashlib.sha256(d[4:4 + n]).hexdigest())' "$KEYS/ec256.der")
	cat > "$1.S" <<-EOF
	.section .rodata.str1.1,"aMS",@progbits,1
	.byte 0
	.asciz "tbs:$tbs"
	.section .init.rodata,"a"
	.balign 8
	.globl system_certificate_list
	system_certificate_list:
	.incbin "$KEYS/rsa2048.der"
	.incbin "$KEYS/ec256.der"
	l1: .balign 8
	.globl system_certificate_list_size
	system_certificate_list_size: .quad l1 - system_certificate_list
	.balign 8
	.globl revocation_certificate_list
	revocation_certificate_list:
	.incbin "$KEYS/other.der"
	l2: .balign 8
	.globl revocation_certificate_list_size
	revocation_certificate_list_size: .quad l2 - revocation_certificate_list
	EOF
	gcc -c -o "$1" "$1.S"
}

@test "an image's revocation list and blacklist hashes are taken as the kernel takes them" {
	need_tool gcc gcc
	make_elf_lists "$W/vmlinux"
	objcopy --strip-all "$W/vmlinux" "$W/stripped"
	for img in vmlinux stripped; do
		run "$VERIFY_FILE" -v --vmlinux "$W/$img" --list-keys
		assert_success
		# blacklist_init() runs first: the blacklisted ec256 is not loaded
		assert_output --partial "certificate 2 left out: -EKEYREJECTED: certificate TBS hash is blacklisted"
		assert_output --partial "2 certificates; 1 revocation certificates, 1 blacklist hashes"
		assert_output --partial "1 trusted, 0 platform, 1 revocation keys; 1 blacklist hashes"
		printf '%s\n' "$(fp "$KEYS/rsa2048.der")" "$(fp "$KEYS/other.der")" > "$W/want"
		echo "$output" | listed > "$W/got"
		diff -u "$W/want" "$W/got"
	done
	signed_module ec256
	run "$VERIFY_FILE" --vmlinux "$W/stripped" "$W/ec256.ko"
	assert_failure
	assert_output --partial "ENOKEY"
}

@test "a bzImage of every payload format: certificates found, module OK" {
	need_tool gcc gcc
	make_elf "$W/vmlinux" "" "$KEYS/rsa2048.der" "$KEYS/ec256.der"
	signed_module rsa2048
	for c in "gzip -9:gzip" "xz --check=crc32:xz-utils" "zstd -19 -q:zstd" \
		 "lz4 -l -q:lz4" "xz --format=lzma:xz-utils" "bzip2 -9:bzip2"; do
		need_tool "${c%% *}" "${c##*:}"
		c=${c%:*}
		$c -c < "$W/vmlinux" > "$W/payload"
		"$MK" bzimage "$W/bzImage" "$W/payload"
		run "$VERIFY_FILE" -v --vmlinux "$W/bzImage" "$W/rsa2048.ko"
		echo "$c: $output"
		assert_success
		assert_output --partial "OK (sha256"
		assert_output --partial "by symbol system_certificate_list"
	done
}

@test "a certificate the kernel refuses is skipped, the list goes on" {
	need_tool gcc gcc
	"$MK" flipsig "$W/bad.der" "$KEYS/ec256.der"
	make_elf "$W/vmlinux" "" "$W/bad.der" "$KEYS/rsa2048.der"
	run "$VERIFY_FILE" -v --vmlinux "$W/vmlinux" --list-keys
	assert_success
	assert_output --partial "certificate 1 left out"
	assert_output --partial "1 trusted, 0 platform"
	assert_output --partial "$(fp "$KEYS/rsa2048.der")"
}

@test "a framing error stops the list: later certificates are not loaded" {
	need_tool gcc gcc
	printf '\000\000\000\000' > "$W/gap"
	make_elf "$W/vmlinux" "" "$KEYS/rsa2048.der" "$W/gap" "$KEYS/ec256.der"
	run "$VERIFY_FILE" --vmlinux "$W/vmlinux" --list-keys
	assert_success
	assert_output --partial "Problem parsing in-kernel X.509 certificate list"
	assert_output --partial "1 trusted, 0 platform"
	refute_output --partial "$(fp "$KEYS/ec256.der")"
}

@test "a file that is no kernel image is refused" {
	head -c 3000 /dev/zero | tr '\0' j > "$W/notakernel"
	run "$VERIFY_FILE" --vmlinux "$W/notakernel" --list-keys
	assert_failure 9
	assert_output --partial "neither a bzImage"
	run "$VERIFY_FILE" --vmlinux "$W/missing" --list-keys
	assert_failure 9
}

@test "an ELF program with no Linux version banner and no certificate list is no kernel image (exit 9)" {
	make_module "$W/m.ko" 4096
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko"
	for f in /bin/ls "$W/m.ko"; do
		run "$VERIFY_FILE" --vmlinux "$f" "$W/m.ko"
		assert_failure 9
		assert_output --partial "$f: an ELF file with neither a Linux version banner nor a built-in certificate list: no kernel image"
	done
}

# A real distribution image against an oracle that is not verify-file: the
# certificates Python and openssl find in Debian's vmlinux (its payload
# decompressed by xz or zstd) are exactly those --list-keys reads, and
# exactly what its .config builds in: no extra or revocation certificates,
# so the module-signing key alone, the one OpenSSL verifies a shipped
# module with.  (The real-kernel stage's own images are checked by
# tests/kernel/kernel-verdicts.sh, step d, against the certificates the
# booted kernel itself logged.)
@test "Debian's vmlinuz: exactly the certificates its .config builds in" {
	need_debian_kernel
	local vmlinuz config one
	vmlinuz=$(ls "$DEB"/root/boot/vmlinuz-* | head -n 1)
	config=$(ls "$DEB"/root/boot/config-* | head -n 1)
	run grep -cE '^CONFIG_(SYSTEM_TRUSTED_KEYS="[^"]|SYSTEM_EXTRA_CERTIFICATE=y|SYSTEM_REVOCATION_KEYS="[^"])' "$config"
	assert_output 0
	grep -qx 'CONFIG_MODULE_SIG=y' "$config"
	python3 "$BATS_TEST_DIRNAME/../fixtures/bzimage-payload.py" "$vmlinuz" "$W/vmlinux"
	python3 - "$W/vmlinux" "$W/found" <<'PY'
import re, subprocess, sys
image = open(sys.argv[1], "rb").read()
fps = set()
for m in re.finditer(rb"\x30\x82..\x30\x82..\xa0\x03\x02\x01\x02", image, re.S):
    n = int.from_bytes(image[m.start() + 2:m.start() + 4], "big") + 4
    p = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout",
                        "-fingerprint", "-sha256"], input=image[m.start():m.start() + n],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode == 0:
        fps.add(p.stdout.decode().strip().split("=", 1)[1])
open(sys.argv[2], "w").write("".join(f + "\n" for f in sorted(fps)))
PY
	[ "$(wc -l < "$W/found")" -eq 1 ]
	run "$VERIFY_FILE" --vmlinux "$vmlinuz" --list-keys
	assert_success
	echo "$output" | listed | sort > "$W/got"
	diff -u "$W/found" "$W/got"
	assert_equal "$(cat "$W/got")" "$(fp "$DEB/signing-cert.der")"
	one=$(deb_modules | sort | head -n 1)
	case $one in
	*.xz) xz -dc "$one" >"$W/one.ko" ;;
	*) cp "$one" "$W/one.ko" ;;
	esac
	split_signed "$W/one.ko" "$W/body" "$W/sig"
	openssl_verify_detached "$W/sig" "$W/body" "$DEB/signing-cert.der"
}

@test "an ESL from cert-to-efi-sig-list is trusted" {
	need_tool cert-to-efi-sig-list efitools
	openssl x509 -in "$KEYS/rsa2048.crt" -out "$W/c.pem"
	cert-to-efi-sig-list "$W/c.pem" "$W/db.esl"
	signed_module rsa2048
	run "$VERIFY_FILE" --esl "$W/db.esl" "$W/rsa2048.ko"
	assert_success
	assert_output --partial "OK (sha256, RSA-2048"
}

@test "an ESL of our own writer: X.509 entries trusted, hashes ignored" {
	signed_module ec256
	sha256sum "$W/ec256.ko" > "$W/h.hex"
	"$MK" esl "$W/db.esl" x509:"$KEYS/ec256.der" sha256:"$W/h.hex" x509:"$KEYS/rsa2048.der"
	run "$VERIFY_FILE" --esl "$W/db.esl" --list-keys
	assert_success
	assert_output --partial "2 trusted, 0 platform, 0 revocation keys; 0 blacklist hashes"
	run "$VERIFY_FILE" --esl "$W/db.esl" "$W/ec256.ko"
	assert_success
}

@test "dbx: an X509_SHA256 entry blacklists the certificate's TBS" {
	"$MK" esl "$W/dbx.esl" x509sha256:"$KEYS/rsa2048.der"
	signed_module rsa2048
	run "$VERIFY_FILE" -v --dbx "$W/dbx.esl" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 4
	assert_output --partial "TBS hash is blacklisted"
}

@test "dbx: SHA-256 entries become bin: hashes, which only Debian's 6.1 and 6.12 check on modules" {
	need_tool hash-to-efi-sig-list efitools
	signed_module rsa2048
	hash-to-efi-sig-list "$W/rsa2048.ko" "$W/h.esl" > /dev/null
	sha256sum "$W/rsa2048.ko" > "$W/h.hex"
	"$MK" esl "$W/h2.esl" sha256:"$W/h.hex"
	cat "$W/h.esl" "$W/h2.esl" > "$W/dbx.esl"
	run "$VERIFY_FILE" -v --kernel 7.3 --dbx "$W/dbx.esl" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_success
	assert_output --partial "0 tbs: and 2 bin: hashes"
	assert_output --partial "never consults them"
	for l in 6.1 6.12; do
		run "$VERIFY_FILE" --kernel "$l" --dbx "$W/dbx.esl" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
		assert_failure 1
		assert_output --partial "REJECTED -EKEYREJECTED: the module's whole-file SHA-256 is blacklisted (Debian's mod_is_hash_blacklisted)"
	done
}

@test "dbx: an X.509 entry is a revocation certificate (6.12)" {
	"$MK" esl "$W/dbx.esl" x509:"$KEYS/rsa2048.der"
	signed_module rsa2048
	run "$VERIFY_FILE" --kernel 6.12 --dbx "$W/dbx.esl" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 1
	assert_output --partial "revocation list"
}

@test "a malformed signature list is refused with its offset" {
	"$MK" badesl "$W/bad.esl" "$KEYS/rsa2048.der"
	run "$VERIFY_FILE" --esl "$W/bad.esl" --list-keys
	assert_failure 9
	assert_output --partial "do not fit together (at byte 0)"
}

@test "--efi-db and --mok say clearly when the variables are absent" {
	local hide=()
	# A machine with UEFI variables has them hidden: an empty
	# /sys/firmware in a mount namespace of verify-file's own.
	if [ -d /sys/firmware/efi ]; then
		need_root "hides this machine's UEFI variables (unshare -m)"
		hide=(unshare -m sh -c 'mount -t tmpfs none /sys/firmware && exec "$@"' sh)
	fi
	run "${hide[@]}" "$VERIFY_FILE" --mok --efi-db -c "$KEYS/rsa2048.crt" --list-keys
	assert_success
	assert_output --partial "absent: no MOK list here"
	assert_output --partial "absent: no UEFI db here"
}

@test "a .config without SHA-512: a sha512 module is -ENOPKG" {
	signed_module rsa2048 sha512
	printf '# Linux/x86 6.1.99 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 5
	assert_output --partial "UNSUPPORTED -ENOPKG"
	echo 'CONFIG_CRYPTO_SHA512=m' >> "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_success
}

@test "a .config without ECDSA cannot load an ECDSA certificate" {
	signed_module ec256
	printf '# Linux/x86 6.12.5 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/.config"
	run "$VERIFY_FILE" -v --kernel-config "$W/.config" -c "$KEYS/ec256.crt" "$W/ec256.ko"
	assert_failure 4
	assert_output --partial "left out: -ENOENT"
	echo 'CONFIG_CRYPTO_ECDSA=y' >> "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/ec256.crt" "$W/ec256.ko"
	assert_success
}

@test "MODULE_SIG_FORCE in the .config enforces" {
	make_module "$W/plain.ko" 3000
	printf '# Linux/x86 6.12.1 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_MODULE_SIG_FORCE=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_RSA=y\n' > "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/plain.ko"
	assert_failure 1
	assert_output --partial "Loading of unsigned module is rejected"
}

@test "the .config's blacklist file is found in the kernel tree, or named when missing" {
	signed_module rsa2048
	tbs=$(python3 -c 'import hashlib,sys
d=open(sys.argv[1],"rb").read(); n=int.from_bytes(d[6:8],"big")+4
print(hashlib.sha256(d[4:4+n]).hexdigest())' "$KEYS/rsa2048.der")
	mkdir -p "$W/tree/certs" "$W/cfg"
	echo "\"tbs:$tbs\"" > "$W/tree/certs/blacklist.hashes"
	printf '# Linux/x86 6.12.1 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_SYSTEM_BLACKLIST_HASH_LIST="certs/blacklist.hashes"\n' > "$W/cfg/.config"
	run "$VERIFY_FILE" --kernel-config "$W/cfg/.config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 7
	assert_output --partial "CONFIG_SYSTEM_BLACKLIST_HASH_LIST names certs/blacklist.hashes"
	assert_output --partial "give --kernel-tree DIR"
	run "$VERIFY_FILE" --kernel-config "$W/cfg/.config" --kernel-tree "$W/tree" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 4
}

@test "the .config's revocation keys reject a module they vouch for" {
	signed_module rsa2048
	printf '# Linux/x86 6.12.1 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_SYSTEM_REVOCATION_LIST=y\nCONFIG_SYSTEM_REVOCATION_KEYS="revoked.pem"\n' > "$W/.config"
	cp "$KEYS/rsa2048.crt" "$W/revoked.pem"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 1
	assert_output --partial "revocation list"
}

@test "--kernel and --kernel-config must agree" {
	printf '# Linux/x86 6.1.5 Kernel Configuration\nCONFIG_MODULE_SIG=y\n' > "$W/.config"
	run "$VERIFY_FILE" --kernel 6.12 --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" --list-keys
	assert_failure 2
	assert_output --partial "kernel 6.1.5 is not --kernel 6.12"
	echo 'not a config line' >> "$W/.config"
	run "$VERIFY_FILE" --kernel-config "$W/.config" -c "$KEYS/rsa2048.crt" --list-keys
	assert_failure 2
	assert_output --partial "line 3"
}

@test "sign-file --kernel-config: '-' takes CONFIG_MODULE_SIG_HASH; mismatches warned" {
	make_module "$W/m" 3000
	printf '# Linux/x86 6.1.5 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_MODULE_SIG_HASH="sha384"\nCONFIG_MODULE_SIG_KEY_TYPE_RSA=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_SHA512=y\n' > "$W/.config"
	run "$SIGN_FILE" --kernel-config "$W/.config" - "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m" "$W/m.ko"
	assert_success
	assert_output ""
	run "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_output --partial '"hash":"sha384"'
	run "$SIGN_FILE" --kernel-config "$W/.config" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$W/m" "$W/m2.ko"
	assert_success
	assert_output --partial 'differs from CONFIG_MODULE_SIG_HASH "sha384"'
	assert_output --partial "an ecdsa key, but the kernel expects rsa"
	assert_output --partial "CONFIG_CRYPTO_ECDSA is not set"
}

@test "Debian's kernel: the vmlinuz holds its build-time key, and every module verifies with --vmlinux alone" {
	need_debian_kernel
	vmlinuz=$(ls "$DEB"/root/boot/vmlinuz-* | head -n 1)
	run "$VERIFY_FILE" --vmlinux "$vmlinuz" --list-keys
	assert_success
	assert_output --partial "subject: CN=Build time autogenerated kernel key"
	assert_output --partial "1 trusted, 0 platform"
	assert_output --partial "$(fp "$DEB/signing-cert.der")"
	n=$(deb_modules | wc -l)
	[ "$n" -gt 1000 ]
	# its config beside it (/boot/config-R) is read, and named
	run --separate-stderr "$VERIFY_FILE" --vmlinux "$vmlinuz" -r "$DEB/root/lib/modules"
	assert_success
	assert_equal "$stderr" "verify-file: warning: $vmlinuz: judged with the kernel config beside it, ${vmlinuz%/*}/config-${vmlinuz##*/vmlinuz-} (/boot/config-RELEASE beside /boot/vmlinuz-RELEASE; give --kernel-config to choose another)"
	assert_line --index "$n" "summary: $n files: $n ok, 0 unsigned, 0 unknown key, 0 unsupported, 0 bad signature, 0 malformed, 0 unreadable"
}

@test "Debian's kernel: its .config picks its line's rules and keeps every module OK" {
	need_debian_kernel
	line=$(deb_line)
	vmlinuz=$(ls "$DEB"/root/boot/vmlinuz-* | head -n 1)
	config=$(ls "$DEB"/root/boot/config-* | head -n 1)
	one=$(deb_modules | sort | head -n 1)
	run "$VERIFY_FILE" -v --json --vmlinux "$vmlinuz" --kernel-config "$config" "$one"
	assert_success
	assert_output --partial "\"kernel\":\"$line\""
	assert_output --partial "kernel $line."
	# SHA-3 is built (=m) in both; 6.1's PKCS#7 parser knows no SHA-3,
	# 6.12's does
	grep -qE '^CONFIG_CRYPTO_SHA3=[ym]$' "$config"
	case $line in
	6.1) want=5 other=6.12 ;;
	6.12) want=0 other=6.1 ;;
	*) fail "no expectation for Debian's $line kernel" ;;
	esac
	signed_module rsa2048 sha3-256
	run "$VERIFY_FILE" --kernel-config "$config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_equal "$status" "$want"
	run "$VERIFY_FILE" --kernel "$other" --kernel-config "$config" -c "$KEYS/rsa2048.crt" "$W/rsa2048.ko"
	assert_failure 2
}
