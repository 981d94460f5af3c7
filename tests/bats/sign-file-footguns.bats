# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the kernel's sign-file lets through and modsign's refuses or does
# right: a glob that puts a second module where <dest> goes, an empty or
# non-ELF .ko, --skip-signed over someone else's signature, "-" as the
# hash without a .config, a read-only directory, and the owner of a
# module signed in place by root.

bats_require_minimum_version 1.5.0
load helpers

teardown() {
	release_scratch
}

RSA_KEY="$KEYS/rsa2048.key"
RSA_CRT="$KEYS/rsa2048.crt"
OTHER_KEY="$KEYS/other.key"
OTHER_CRT="$KEYS/other.crt"

# Two different modules in $W/d.
two() {
	mkdir -p "$W/d"
	copy_module "$W/d/a.ko" 5000
	copy_module "$W/d/b.ko" 7000
}

# ------------------------------------------------- <dest> is another module

@test "a second module where <dest> goes (a glob matching two): exit 2, not overwritten, points to --batch" {
	two
	local sum
	sum=$(file_sha256 "$W/d/b.ko")
	run -2 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W"/d/*.ko
	assert_output ""
	assert_equal "$stderr" "sign-file: $W/d/b.ko: is another kernel module, not overwritten (<dest> after <module>: to sign several modules in place, use --batch)"
	assert_equal "$(file_sha256 "$W/d/b.ko")" "$sum"
	assert_equal "$(dir_listing "$W/d")" "$(printf 'a.ko\nb.ko')"
}

@test "a <dest> that is another signed module is not overwritten either" {
	two
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/b.ko"
	local sum
	sum=$(file_sha256 "$W/d/b.ko")
	run -2 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/a.ko" "$W/d/b.ko"
	[[ "$stderr" == *"b.ko: is another kernel module"* ]] || fail "$stderr"
	assert_equal "$(file_sha256 "$W/d/b.ko")" "$sum"
}

@test "a new <dest>, <dest> = <module>, and a <dest> holding this module signed before are still written" {
	two
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/a.ko" "$W/d/out.ko"
	ends_with_sig_magic "$W/d/out.ko"
	# signed again into its own signed copy (a rerun of the same command)
	run -0 "$SIGN_FILE" sha256 "$OTHER_KEY" "$OTHER_CRT" "$W/d/a.ko" "$W/d/out.ko"
	run -0 "$VERIFY_FILE" -c "$OTHER_CRT" "$W/d/out.ko"
	# a non-module file (not ELF, unsigned) is replaced as the kernel tool does
	echo notes > "$W/d/notes.txt"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/a.ko" "$W/d/notes.txt"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/b.ko" "$W/d/b.ko"
	ends_with_sig_magic "$W/d/b.ko"
}

# ---------------------------------------------------- empty and non-ELF

@test "an empty module is refused with exit 6 and left as it is" {
	mkdir -p "$W/d"
	: > "$W/d/empty.ko"
	run -6 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/empty.ko"
	assert_equal "$stderr" "sign-file: $W/d/empty.ko: empty module (nothing to sign: a failed build?)"
	assert_equal "$(file_size "$W/d/empty.ko")" 0
	# not even as data
	run -6 --separate-stderr "$SIGN_FILE" --usage firmware sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/empty.ko"
	assert_equal "$(dir_listing "$W/d")" "empty.ko"
}

@test "a .ko that is not ELF (a git-lfs pointer) is refused with exit 6; --usage firmware signs it" {
	mkdir -p "$W/d"
	printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%064d\nsize 123456\n' 0 > "$W/d/lfs.ko"
	local sum
	sum=$(file_sha256 "$W/d/lfs.ko")
	run -6 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/lfs.ko"
	assert_equal "$stderr" "sign-file: $W/d/lfs.ko: not an ELF file, so no kernel module (a truncated build output or a git-lfs pointer?); to sign it as data, give --usage firmware"
	assert_equal "$(file_sha256 "$W/d/lfs.ko")" "$sum"
	run -0 "$SIGN_FILE" --usage firmware sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/lfs.ko"
	ends_with_sig_magic "$W/d/lfs.ko"
	run -2 "$SIGN_FILE" --usage blob sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/lfs.ko"
}

@test "a compressed .ko is judged decompressed: a gzip'd non-ELF body is refused" {
	require_cmd gzip gzip
	mkdir -p "$W/d"
	printf 'not a module at all\n' | gzip -n > "$W/d/m.ko.gz"
	run -6 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko.gz"
	[[ "$stderr" == *"m.ko.gz: not an ELF file"* ]] || fail "$stderr"
	copy_module "$W/d/ok.ko" 3000
	gzip -n "$W/d/ok.ko"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/ok.ko.gz"
}

@test "data not named .ko (firmware, regulatory.db) is signed as the kernel tool signs it" {
	mkdir -p "$W/d"
	printf 'firmware blob' > "$W/d/fw.bin"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/fw.bin"
	ends_with_sig_magic "$W/d/fw.bin"
}

# ------------------------------------------------ --skip-signed: by whom

@test "--skip-signed skips what this certificate signed" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 4000
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	local sum
	sum=$(file_sha256 "$W/d/m.ko")
	run -0 --separate-stderr "$SIGN_FILE" --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	assert_equal "$stderr" "sign-file: $W/d/m.ko: already signed, left unchanged"
	# by subjectKeyIdentifier (-k) too
	copy_module "$W/d/k.ko" 4000
	run -0 "$SIGN_FILE" -k sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/k.ko"
	run -0 "$SIGN_FILE" --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/k.ko"
	assert_equal "$(file_sha256 "$W/d/m.ko")" "$sum"
}

@test "--skip-signed over another signer's signature: exit 8, names the signer, --replace re-signs" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 4000
	run -0 "$SIGN_FILE" sha256 "$OTHER_KEY" "$OTHER_CRT" "$W/d/m.ko"
	local serial sum
	serial=$(openssl x509 -in "$OTHER_CRT" -noout -serial | cut -d= -f2 | tr 'A-F' 'a-f')
	sum=$(file_sha256 "$W/d/m.ko")
	run -8 --separate-stderr "$SIGN_FILE" --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	assert_output ""
	[[ "$stderr" == "sign-file: $W/d/m.ko: already signed by 'untrusted signing key' (serial ${serial:0:16}"*"), not by this certificate: use --replace to sign it again" ]] ||
		fail "$stderr"
	assert_equal "$(file_sha256 "$W/d/m.ko")" "$sum"
	run -0 "$SIGN_FILE" --replace sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	run -0 "$VERIFY_FILE" -c "$RSA_CRT" "$W/d/m.ko"
}

@test "--skip-signed over another key's -k signature names its subjectKeyIdentifier" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 4000
	run -0 "$SIGN_FILE" -k sha256 "$OTHER_KEY" "$OTHER_CRT" "$W/d/m.ko"
	local skid
	skid=$(openssl x509 -in "$OTHER_CRT" -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' :' | tr 'A-F' 'a-f')
	run -8 --separate-stderr "$SIGN_FILE" --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	assert_equal "$stderr" "sign-file: $W/d/m.ko: already signed by the key with subjectKeyIdentifier ${skid:0:16}.., not by this certificate: use --replace to sign it again"
}

@test "--batch --skip-signed: ours skipped, another signer's a failure (exit 8), the rest signed" {
	mkdir -p "$W/d"
	copy_module "$W/d/mine.ko" 3000
	copy_module "$W/d/theirs.ko" 3100
	copy_module "$W/d/new.ko" 3200
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/mine.ko"
	run -0 "$SIGN_FILE" sha256 "$OTHER_KEY" "$OTHER_CRT" "$W/d/theirs.ko"
	run -8 --separate-stderr "$SIGN_FILE" --batch --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" \
		"$W/d/mine.ko" "$W/d/theirs.ko" "$W/d/new.ko"
	assert_line -n 0 "$W/d/mine.ko: already signed, left unchanged"
	assert_line -n 1 "$W/d/theirs.ko: already signed, refused (exit 8)"
	assert_line -n 2 "$W/d/new.ko: signed"
	assert_line -n 3 "summary: 3 files: 1 signed, 2 already signed, 0 failed"
	[[ "$stderr" == *"theirs.ko: already signed by 'untrusted signing key'"* ]] || fail "$stderr"
}

# ---------------------------------------------------------- "-" and config

@test "\"-\" as the hash without --kernel-config says it needs --kernel-config" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 1000
	run -2 --separate-stderr "$SIGN_FILE" - "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	assert_equal "$stderr" "sign-file: <hash> \"-\" takes CONFIG_MODULE_SIG_HASH from --kernel-config FILE: give that option, or name the hash (sha256, sha512, ...)"
}

@test "with only --kernel-config, the line's warning names the .config, not --kernel" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 1000
	printf '# Linux/x86 6.1.192 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\nCONFIG_CRYPTO_SHA3=y\nCONFIG_MODULE_SIG_HASH="sha256"\n' > "$W/config"
	run -0 --separate-stderr "$SIGN_FILE" --kernel-config "$W/config" sha3-256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	[[ "$stderr" == *"sign-file: warning: sha3-256: the kernel of $W/config (6.1.192) rejects it"* ]] ||
		fail "$stderr"
	[[ "$stderr" != *"kernel 6.1 rejects"* ]] || fail "$stderr"
}

@test "--batch takes --kernel-config too: \"-\" is its CONFIG_MODULE_SIG_HASH" {
	mkdir -p "$W/d"
	copy_module "$W/d/a.ko" 1000
	copy_module "$W/d/b.ko" 1100
	printf '# Linux/x86 6.12.118 Kernel Configuration\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA512=y\nCONFIG_MODULE_SIG_HASH="sha384"\n' > "$W/config"
	run -0 --separate-stderr "$SIGN_FILE" --batch --kernel-config "$W/config" - "$RSA_KEY" "$RSA_CRT" "$W/d/a.ko" "$W/d/b.ko"
	run -0 --separate-stderr "$EXTRACT_SIG" --modinfo=sig_hashalgo "$W/d/b.ko"
	assert_output "sha384"
}

# ------------------------------------------------------- files and owners

@test "a directory that refuses new files: the message names it and says why" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 1000
	chmod 0555 "$W/d"
	if [ "$(id -u)" -eq 0 ]; then
		can_drop_dac_override ||
			fail "running as root and cannot drop CAP_DAC_OVERRIDE (setpriv, util-linux)"
		run -7 --separate-stderr without_dac_override "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	else
		run -7 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	fi
	chmod 0755 "$W/d"
	assert_equal "$stderr" "sign-file: $W/d/m.ko: cannot create a file in the directory $W/d: Permission denied (the signed file is written there as a new file, then renamed over $W/d/m.ko: make the directory writable, or give a <dest> elsewhere)"
	assert_equal "$(dir_listing "$W/d")" "m.ko"
}

@test "in-place signing keeps the module's owner and group" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 200000
	chmod 0640 "$W/d/m.ko"
	if [ "$(id -u)" -eq 0 ]; then
		chown 65534:65534 "$W/d/m.ko"
	fi
	local before
	before=$(stat -c %u:%g:%a "$W/d/m.ko")
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	ends_with_sig_magic "$W/d/m.ko"
	assert_equal "$(stat -c %u:%g:%a "$W/d/m.ko")" "$before"
	# and through --batch, and a compressed module
	if [ "$(id -u)" -eq 0 ]; then
		copy_module "$W/d/n.ko" 3000
		gzip -n "$W/d/n.ko"
		chown 65534:65534 "$W/d/n.ko.gz"
		run -0 "$SIGN_FILE" --batch --replace sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko" "$W/d/n.ko.gz"
		assert_equal "$(stat -c %u:%g "$W/d/m.ko")" "65534:65534"
		assert_equal "$(stat -c %u:%g "$W/d/n.ko.gz")" "65534:65534"
	fi
}

# ------------------------------------------------------- --batch --json

@test "--batch --json: an object per file with extract-sig's signer facts, ERROR objects, a summary last" {
	require_cmd jq jq
	mkdir -p "$W/d"
	copy_module "$W/d/a.ko" 3000
	: > "$W/d/empty.ko"
	copy_module "$W/d/theirs.ko" 3100
	run -0 "$SIGN_FILE" sha256 "$OTHER_KEY" "$OTHER_CRT" "$W/d/theirs.ko"
	# the most severe of 6, 8 and 7 (exitcode.c's order): 7
	run -7 --separate-stderr "$SIGN_FILE" --batch --json --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" \
		"$W/d/a.ko" "$W/d/empty.ko" "$W/d/theirs.ko" "$W/d/missing.ko"
	assert_equal "${#lines[@]}" 5
	# every line one JSON object; the signed file's signers are what
	# extract-sig says of the file written
	local i
	for i in 0 1 2 3 4; do
		jq -e . <<< "${lines[$i]}" > /dev/null || fail "not JSON: ${lines[$i]}"
	done
	assert_equal "$(jq -c '{file, verdict}' <<< "${lines[0]}")" "{\"file\":\"$W/d/a.ko\",\"verdict\":\"SIGNED\"}"
	run -0 --separate-stderr "$EXTRACT_SIG" --json -c "$RSA_CRT" "$W/d/a.ko"
	local want
	want=$(jq -c .signers <<< "$output")
	run -7 --separate-stderr "$SIGN_FILE" --batch --json --replace sha256 "$RSA_KEY" "$RSA_CRT" \
		"$W/d/empty.ko" "$W/d/missing.ko"
	assert_line -n 0 "{\"file\":\"$W/d/empty.ko\",\"verdict\":\"ERROR\",\"errno\":\"ENOEXEC\",\"reason\":\"empty module (nothing to sign: a failed build?)\",\"exit\":6}"
	assert_line -n 1 "{\"file\":\"$W/d/missing.ko\",\"verdict\":\"ERROR\",\"errno\":\"ENOENT\",\"reason\":\"No such file or directory\",\"exit\":7}"
	assert_line -n 2 '{"summary":{"files":2,"signed":0,"already_signed":0,"failed":2,"exit":7}}'
	# the first run again, for the signer facts and the rest
	copy_module "$W/d/b.ko" 3000
	run -8 --separate-stderr "$SIGN_FILE" --batch --json --skip-signed sha256 "$RSA_KEY" "$RSA_CRT" \
		"$W/d/b.ko" "$W/d/a.ko" "$W/d/theirs.ko"
	assert_equal "$(jq -c .signers <<< "${lines[0]}")" "$want"
	assert_line -n 1 "{\"file\":\"$W/d/a.ko\",\"verdict\":\"SKIPPED\",\"signers\":null}"
	assert_equal "$(jq -r '.verdict + " " + .errno + " " + (.exit|tostring)' <<< "${lines[2]}")" "ERROR EEXIST 8"
	assert_line -n 3 '{"summary":{"files":3,"signed":1,"already_signed":2,"failed":0,"exit":8}}'
	# diagnostics stay on stderr
	[[ "$stderr" == *"theirs.ko: already signed by"* ]] || fail "$stderr"
}

@test "--json goes with --batch: exit 2 without it" {
	mkdir -p "$W/d"
	copy_module "$W/d/m.ko" 1000
	run -2 --separate-stderr "$SIGN_FILE" --json sha256 "$RSA_KEY" "$RSA_CRT" "$W/d/m.ko"
	assert_equal "$stderr" "sign-file: -r, --files-from, -0, -j and --json go with --batch"
}
