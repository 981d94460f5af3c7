# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every way sign-file can refuse or fail: the exit code (src/common/
# exitcode.h), a message on stderr that names the file at fault, nothing on
# stdout, and nothing changed or left behind in the module's directory.
# Then the file-handling promises: --skip-signed/--replace, modes, symlinks.

bats_require_minimum_version 1.5.0
load helpers

teardown() {
	release_scratch
}

# The module under test lives alone in $W/d so its listing is meaningful.
mod() {
	mkdir -p "$W/d"
	copy_module "$W/d/mod.ko" "${1:-100000}"
	MOD="$W/d/mod.ko"
}

# Modes, sizes, names and contents of everything in a directory.  Not
# the blocks in use (ls's "total"): on a tmpfs, merely reading a hole of a
# sparse file through mmap allocates its page.
snapshot() { # dir
	(cd "$1" && LC_ALL=C ls -lAn --time-style=+ | sed '/^total /d' &&
		find . -maxdepth 1 -type f -exec sha256sum {} + | LC_ALL=C sort)
}

# Run sign-file expecting exit CODE; stdout must be empty and $W/d exactly
# as before.  $stderr is left for the caller.
sign_fails() { # code args...
	local code=$1 before
	shift
	mkdir -p "$W/d"
	before=$(snapshot "$W/d")
	run "-$code" --separate-stderr "$SIGN_FILE" "$@"
	assert_output ""
	assert_equal "$(snapshot "$W/d")" "$before"
}

# stderr holds "sign-file: FILE: " and then TEXT.
stderr_names() { # file text
	[[ "$stderr" == *"sign-file: $1: "*"$2"* ]] ||
		fail "stderr does not name '$1' with '$2': $stderr"
}

stderr_has() { # text
	[[ "$stderr" == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

signed_by_reference() { # unsigned-in out (sha256, RSA-2048, in place)
	need_reference
	cp "$1" "$2"
	"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.der" "$2"
}

RSA_KEY="$KEYS/rsa2048.key"
RSA_DER="$KEYS/rsa2048.der"

# ---------------------------------------------------------------- keys, 9

@test "a missing key file: exit 9, names the key" {
	mod
	sign_fails 9 sha256 "$W/missing.key" "$RSA_DER" "$MOD"
	stderr_names "$W/missing.key" "No such file or directory"
}

@test "an unreadable key file (mode 000): exit 9, names the key" {
	mod
	cp "$RSA_KEY" "$W/locked.key"
	chmod 000 "$W/locked.key"
	local before
	before=$(snapshot "$W/d")
	if [ "$(id -u)" -eq 0 ]; then
		# root reads a mode 000 file: drop CAP_DAC_OVERRIDE for the run
		can_drop_dac_override ||
			skip "running as root and cannot drop CAP_DAC_OVERRIDE (setpriv)"
		run -9 --separate-stderr without_dac_override "$SIGN_FILE" sha256 \
			"$W/locked.key" "$RSA_DER" "$MOD"
	else
		run -9 --separate-stderr "$SIGN_FILE" sha256 "$W/locked.key" \
			"$RSA_DER" "$MOD"
	fi
	assert_output ""
	assert_equal "$(snapshot "$W/d")" "$before"
	stderr_names "$W/locked.key" "Permission denied"
}

@test "a key path that is a directory: exit 9, names it" {
	mod
	mkdir "$W/key.dir"
	sign_fails 9 sha256 "$W/key.dir" "$RSA_DER" "$MOD"
	stderr_names "$W/key.dir" "Is a directory"
}

@test "a corrupt key file: exit 9, names the key" {
	mod
	head -c 600 "$RSA_KEY" > "$W/corrupt.key"
	sign_fails 9 sha256 "$W/corrupt.key" "$RSA_DER" "$MOD"
	stderr_names "$W/corrupt.key" "no private key found"
}

# The decoder-free RSA import (rsa_import.c) must refuse what OpenSSL's
# decoder refuses: here the key's SEQUENCE without its constructed bit,
# which OpenSSL's generic SEQUENCE reader alone would take.
@test "an RSA key whose SEQUENCE tag is primitive: exit 9, as OpenSSL decides" {
	mod
	openssl rsa -in "$RSA_KEY" -traditional -outform DER -out "$W/pkcs1.der" 2>/dev/null
	printf '\020' | dd of="$W/pkcs1.der" bs=1 count=1 conv=notrunc status=none
	{ echo "-----BEGIN RSA PRIVATE KEY-----"; base64 -w 64 "$W/pkcs1.der"
	  echo "-----END RSA PRIVATE KEY-----"; } > "$W/prim.pem"
	sign_fails 9 sha256 "$W/prim.pem" "$RSA_DER" "$MOD"
	stderr_names "$W/prim.pem" "no private key found"
}

@test "a key file of random bytes: exit 9, names the key" {
	mod
	head -c 1200 /dev/urandom > "$W/random.key"
	sign_fails 9 sha256 "$W/random.key" "$RSA_DER" "$MOD"
	stderr_names "$W/random.key" "no private key found"
}

@test "a certificate given as the key: exit 9, names it" {
	mod
	sign_fails 9 sha256 "$KEYS/rsa2048.crt" "$RSA_DER" "$MOD"
	stderr_names "$KEYS/rsa2048.crt" "no private key found"
}

@test "an encrypted key without KBUILD_SIGN_PIN: exit 9, says to set it" {
	mod
	unset KBUILD_SIGN_PIN
	sign_fails 9 sha256 "$KEYS/enc.key" "$KEYS/enc.der" "$MOD"
	stderr_names "$KEYS/enc.key" "private key is encrypted"
	stderr_has "KBUILD_SIGN_PIN"
}

@test "an encrypted key with the wrong KBUILD_SIGN_PIN: exit 9, names the key" {
	mod
	export KBUILD_SIGN_PIN=not-the-pin
	sign_fails 9 sha256 "$KEYS/enc.key" "$KEYS/enc.der" "$MOD"
	stderr_names "$KEYS/enc.key" "cannot decrypt private key"
}

@test "an encrypted key with an empty KBUILD_SIGN_PIN: exit 9" {
	mod
	export KBUILD_SIGN_PIN=
	sign_fails 9 sha256 "$KEYS/enc.key" "$KEYS/enc.der" "$MOD"
	stderr_names "$KEYS/enc.key" "cannot decrypt private key"
}

@test "a key that does not match the certificate: exit 9, nothing written" {
	mod
	sign_fails 9 sha256 "$RSA_KEY" "$KEYS/other.der" "$MOD"
	stderr_names "$RSA_KEY" "private key does not match the certificate"
}

@test "an ECDSA key with an RSA certificate: exit 9" {
	mod
	sign_fails 9 sha256 "$KEYS/ec256.key" "$RSA_DER" "$MOD"
	stderr_names "$KEYS/ec256.key" "does not match the certificate"
}

@test "a corrupt certificate: exit 9, names the certificate" {
	mod
	head -c 300 "$RSA_DER" > "$W/cut.der"
	sign_fails 9 sha256 "$RSA_KEY" "$W/cut.der" "$MOD"
	stderr_names "$W/cut.der" "not an X.509 certificate"
}

@test "a private key given as the certificate: exit 9, names it" {
	mod
	sign_fails 9 sha256 "$RSA_KEY" "$RSA_KEY" "$MOD"
	stderr_names "$RSA_KEY" "not an X.509 certificate"
}

@test "a missing certificate: exit 9, names it" {
	mod
	sign_fails 9 sha256 "$RSA_KEY" "$W/missing.der" "$MOD"
	stderr_names "$W/missing.der" "No such file or directory"
}

@test "-k with a certificate without subjectKeyIdentifier: exit 9, nothing written" {
	mod
	sign_fails 9 -k sha256 "$KEYS/noskid.key" "$KEYS/noskid.der" "$MOD"
	stderr_has "subjectKeyIdentifier"
	# the message is about the module being signed
	stderr_names "$MOD" "cannot sign"
}

# The same failures with a module of some MB, as large drivers are:
# whatever its size, a failure leaves nothing behind and names the file
# at fault.
@test "a 3 MB module that cannot be signed: exit 9, nothing left" {
	mod 3000000
	sign_fails 9 -k sha256 "$KEYS/noskid.key" "$KEYS/noskid.der" "$MOD"
	stderr_names "$MOD" "cannot sign"
	# and into a dest: neither the dest nor its temporary file stays
	sign_fails 9 -k sha256 "$KEYS/noskid.key" "$KEYS/noskid.der" "$MOD" \
		"$W/d/out.ko"
	[ ! -e "$W/d/out.ko" ]
}

@test "a 3 MB module into a dest that cannot be written: exit 7, names the dest" {
	mod 3000000
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/nodir/out.ko"
	stderr_names "$W/d/nodir/out.ko" "No such file or directory"
	mkdir "$W/d/out.ko"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/out.ko"
	stderr_names "$W/d/out.ko" "Is a directory"
	assert_equal "$(dir_listing "$W/d/out.ko")" ""
}

# ---------------------------------------------------------------- usage, 2

@test "an unknown hash: exit 2, names the hash, before touching the key" {
	mod
	sign_fails 2 md99 "$W/missing.key" "$RSA_DER" "$MOD"
	stderr_has "unknown hash algorithm 'md99'"
}

# A usage error: one line saying what is wrong, then where the usage is
# (not the whole usage block).
HINT="Try 'sign-file --help' for the usage."

@test "three arguments: exit 2, one line saying so, then the --help hint" {
	mod
	sign_fails 2 sha256 "$RSA_KEY" "$RSA_DER"
	assert_equal "$stderr" "sign-file: missing arguments: 3 given, 4 needed
$HINT"
}

@test "six arguments: exit 2, the extra one named, then the --help hint" {
	mod
	sign_fails 2 sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/out.ko" extra
	assert_equal "$stderr" "sign-file: too many arguments (at most 5): 'extra'
$HINT"
}

@test "no arguments: exit 2, one line, then the --help hint" {
	sign_fails 2
	assert_equal "$stderr" "sign-file: no arguments (4 needed)
$HINT"
}

@test "-s with too few arguments: exit 2" {
	mod
	sign_fails 2 -s "$W/raw.cms" sha256 "$RSA_DER"
	assert_equal "$stderr" "sign-file: missing arguments: 3 given, 4 needed
$HINT"
}

@test "an unknown option: exit 2, says which, then the --help hint" {
	mod
	sign_fails 2 -x sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_has "invalid option -- 'x'"
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]}" "$HINT"
}

@test "an unknown long option: exit 2" {
	mod
	sign_fails 2 --frobnicate sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_has "--frobnicate"
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "${stderr_lines[1]}" "$HINT"
}

@test "--replace with --skip-signed: exit 2 (they exclude each other)" {
	mod
	sign_fails 2 --replace --skip-signed sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_has "--replace and --skip-signed exclude each other"
}

@test "--help prints the usage on stdout and exits 0" {
	run -0 --separate-stderr "$SIGN_FILE" --help
	assert_line --index 0 --partial "Usage:"
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------- module, 7

@test "a missing module: exit 7, names it" {
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/missing.ko"
	stderr_names "$W/d/missing.ko" "No such file or directory"
}

@test "a directory as the module: exit 7, names it" {
	mkdir -p "$W/d/dir.ko"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/dir.ko"
	stderr_names "$W/d/dir.ko" "Is a directory"
}

@test "a FIFO as the module: exit 7 at once, no hang" {
	mkdir -p "$W/d"
	fifo_for_reading "$W/d/fifo.ko"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/fifo.ko"
	stderr_names "$W/d/fifo.ko" "not a regular file"
	fifo_release "$W/d/fifo.ko"
}

@test "a character device as the module: exit 7" {
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" /dev/null
	stderr_names /dev/null "not a regular file"
}

@test "an unreadable module (mode 000): exit 7, names it" {
	mod
	chmod 000 "$MOD"
	local before
	before=$(snapshot "$W/d")
	if [ "$(id -u)" -eq 0 ]; then
		can_drop_dac_override ||
			skip "running as root and cannot drop CAP_DAC_OVERRIDE (setpriv)"
		run -7 --separate-stderr without_dac_override "$SIGN_FILE" sha256 \
			"$RSA_KEY" "$RSA_DER" "$MOD"
	else
		run -7 --separate-stderr "$SIGN_FILE" sha256 "$RSA_KEY" \
			"$RSA_DER" "$MOD"
	fi
	assert_output ""
	assert_equal "$(snapshot "$W/d")" "$before"
	stderr_names "$MOD" "Permission denied"
}

@test "a dest in a missing directory: exit 7, names the dest" {
	mod
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/nodir/out.ko"
	stderr_names "$W/d/nodir/out.ko" "No such file or directory"
}

@test "a dest that is a directory: exit 7, nothing left beside it" {
	mod
	mkdir "$W/d/out.ko"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/out.ko"
	stderr_names "$W/d/out.ko" "Is a directory"
	assert_equal "$(dir_listing "$W/d/out.ko")" ""
}

# --------------------------------------------------------- signed modules

@test "an already-signed module is refused with exit 8 and left unchanged" {
	mod
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	local sum
	sum=$(file_sha256 "$MOD")
	sign_fails 8 sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_names "$MOD" "already signed"
	stderr_has "--replace or --skip-signed"
	assert_equal "$(file_sha256 "$MOD")" "$sum"
}

@test "an already-signed module with -d is refused too, no .p7s" {
	mod
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	sign_fails 8 -d sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	assert_file_not_exists "$MOD.p7s"
}

@test "--skip-signed leaves a module this certificate signed unchanged, exits 0, says so on stderr" {
	mod
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	local sum before
	sum=$(file_sha256 "$MOD")
	before=$(snapshot "$W/d")
	# another hash, the same certificate: still "signed by us" (another
	# certificate's signature is a failure: sign-file-footguns.bats)
	run -0 --separate-stderr "$SIGN_FILE" --skip-signed sha512 \
		"$RSA_KEY" "$RSA_DER" "$MOD"
	assert_output ""
	stderr_names "$MOD" "already signed, left unchanged"
	assert_equal "$(file_sha256 "$MOD")" "$sum"
	assert_equal "$(snapshot "$W/d")" "$before"
}

@test "--skip-signed -q is silent" {
	mod
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	run -0 --separate-stderr "$SIGN_FILE" --skip-signed -q sha256 \
		"$RSA_KEY" "$RSA_DER" "$MOD"
	assert_output ""
	[ -z "$stderr" ] || fail "not quiet: $stderr"
}

@test "--skip-signed signs an unsigned module as usual" {
	mod
	cp "$MOD" "$W/orig.ko"
	run -0 --separate-stderr "$SIGN_FILE" --skip-signed sha256 "$RSA_KEY" \
		"$RSA_DER" "$MOD"
	[ -z "$stderr" ]
	signed_by_reference "$W/orig.ko" "$W/ref.ko"
	cmp "$MOD" "$W/ref.ko"
}

@test "--replace gives the kernel tool's bytes for the original unsigned module" {
	mod
	cp "$MOD" "$W/orig.ko"
	run -0 "$SIGN_FILE" sha512 "$KEYS/rsa4096.key" "$KEYS/rsa4096.der" "$MOD"
	run -0 --separate-stderr "$SIGN_FILE" --replace sha256 "$RSA_KEY" \
		"$RSA_DER" "$MOD"
	assert_output ""
	signed_by_reference "$W/orig.ko" "$W/ref.ko"
	cmp "$MOD" "$W/ref.ko"
}

@test "--replace strips every trailer of a twice-signed module" {
	need_reference
	mod
	cp "$MOD" "$W/orig.ko"
	# the kernel tool happily signs a signed module again
	"$REF_SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.der" "$MOD"
	"$REF_SIGN_FILE" sha384 "$KEYS/rsa4096.key" "$KEYS/rsa4096.der" "$MOD"
	run -0 "$SIGN_FILE" --replace sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	signed_by_reference "$W/orig.ko" "$W/ref.ko"
	cmp "$MOD" "$W/ref.ko"
}

@test "--replace on a malformed old trailer: exit 6, module unchanged" {
	mod
	# magic at the end, but sig_len larger than the file
	{ printf '\0\0\2\0\0\0\0\0\x7f\xff\xff\xff'; printf '%s' "$SIG_MAGIC"; } >> "$MOD"
	sign_fails 6 --replace sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_names "$MOD" "malformed"
}

@test "--replace on a trailer with sig_len 0: exit 6" {
	mod
	{ printf '\0\0\2\0\0\0\0\0\0\0\0\0'; printf '%s' "$SIG_MAGIC"; } >> "$MOD"
	sign_fails 6 --replace sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_names "$MOD" "malformed"
}

# ------------------------------------------------------------- -s blobs

# A detached CMS of FILE by KEY, made by our own -d.
cms_of() { # file key out
	cp "$1" "$W/cms-src.ko"
	"$SIGN_FILE" -d sha256 "$KEYS/$2.key" "$KEYS/$2.der" "$W/cms-src.ko"
	mv "$W/cms-src.ko.p7s" "$3"
	rm -f "$W/cms-src.ko"
}

@test "-s with a garbage blob: exit 6, names the blob" {
	mod
	# the same bytes every run: the parser's reason depends on them
	yes garbage | head -c 500 > "$W/garbage.cms"
	sign_fails 6 -s "$W/garbage.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/garbage.cms" "kernel would refuse this signature: -EBADMSG: "
}

@test "-s with an empty blob: exit 6" {
	mod
	: > "$W/empty.cms"
	sign_fails 6 -s "$W/empty.cms" sha256 "$RSA_DER" "$MOD"
	# lib/asn1_decoder.c: the first tag lies beyond an empty buffer
	stderr_names "$W/empty.cms" "-EBADMSG: data overrun"
}

@test "-s with a CMS that embeds the content: exit 6" {
	mod 1000
	openssl cms -sign -nodetach -binary -noattr -nocerts -outform DER \
		-signer "$KEYS/rsa2048.crt" -inkey "$RSA_KEY" -in "$MOD" \
		-out "$W/attached.cms"
	sign_fails 6 -s "$W/attached.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/attached.cms" "-EBADMSG: PKCS#7 signature with non-detached data"
}

@test "-s with a CMS over 64 KiB (the module embedded): exit 6, the kernel's limit" {
	mod
	openssl cms -sign -nodetach -binary -noattr -nocerts -outform DER \
		-signer "$KEYS/rsa2048.crt" -inkey "$RSA_KEY" -in "$MOD" \
		-out "$W/attached.cms"
	sign_fails 6 -s "$W/attached.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/attached.cms" "-EMSGSIZE: signature larger than 64 KiB"
}

@test "-s with a CMS that is not SignedData: exit 6" {
	mod 1000
	openssl cms -data_create -binary -outform DER -in "$MOD" \
		-out "$W/data.cms"
	sign_fails 6 -s "$W/data.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/data.cms" "-EINVAL: only pkcs7_signedData is supported"
}

@test "-s with a CMS signed by another key: exit 4 (ENOKEY), names the blob" {
	mod
	cms_of "$MOD" other "$W/other.cms"
	sign_fails 4 -s "$W/other.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/other.cms" "no signer of the CMS is the given certificate (-ENOKEY"
}

@test "-s with a valid CMS of a different module: exit 1, names the blob" {
	mod
	make_module "$W/another.ko" 100001
	cms_of "$W/another.ko" rsa2048 "$W/another.cms"
	sign_fails 1 -s "$W/another.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/another.cms" "kernel would refuse this signature: -EKEYREJECTED: "
}

@test "-s with a missing blob: exit 7, names it" {
	mod
	sign_fails 7 -s "$W/missing.cms" sha256 "$RSA_DER" "$MOD"
	stderr_names "$W/missing.cms" "No such file or directory"
}

@test "-s with a corrupt certificate: exit 9, names the certificate" {
	mod
	cms_of "$MOD" rsa2048 "$W/good.cms"
	head -c 100 "$RSA_DER" > "$W/cut.der"
	sign_fails 9 -s "$W/good.cms" sha256 "$W/cut.der" "$MOD"
	stderr_names "$W/cut.der" "not an X.509 certificate"
}

# A sparse module of 4 GiB + 200 bytes: a length kept in an int wraps to
# 200, so a CMS over 200 such bytes must still be refused.  The dest is on
# a read-only mount so that a wrongly accepted CMS shows up as a failed
# write (exit 7, "Read-only file system") instead of writing 4 GiB.
@test "-s refuses a CMS that covers only the first (size mod 4 GiB) bytes of a huge module" {
	need_root "mounts a read-only tmpfs"
	mkdir -p "$W/d" "$W/ro"
	# both start with an ELF head: sign-file refuses a .ko without
	head -c 200 /dev/zero > "$W/small.ko"
	elf_head "$W/small.ko"
	cms_of "$W/small.ko" rsa2048 "$W/small.cms"
	truncate -s $(((4 << 30) + 200)) "$W/d/huge.ko"
	elf_head "$W/d/huge.ko"
	[ "$(du -k "$W/d/huge.ko" | cut -f1)" -lt 1024 ] ||
		skip "the scratch file system has no sparse files"
	mount -t tmpfs -o ro,size=64k tmpfs "$W/ro" ||
		skip "cannot mount a tmpfs here"
	sign_fails 1 -s "$W/small.cms" sha256 "$RSA_DER" "$W/d/huge.ko" \
		"$W/ro/out.ko"
	stderr_names "$W/small.cms" "kernel would refuse this signature: -EKEYREJECTED: "
}

@test "a module over 2 GiB is not reported as a key problem" {
	need_root "mounts a read-only tmpfs"
	mkdir -p "$W/d" "$W/ro"
	truncate -s $(((2 << 30) + 100)) "$W/d/huge.ko"
	elf_head "$W/d/huge.ko"
	[ "$(du -k "$W/d/huge.ko" | cut -f1)" -lt 1024 ] ||
		skip "the scratch file system has no sparse files"
	mount -t tmpfs -o ro,size=64k tmpfs "$W/ro" ||
		skip "cannot mount a tmpfs here"
	# signed (then refused by the read-only dest) or refused as too
	# large: either way an I/O-class failure, exit 7, not exit 9
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/huge.ko" "$W/ro/out.ko"
}

# ---------------------------------------------------- output file system

# A read-only directory holding a copy of a module: a read-only bind mount
# as root (root writes into a mode 0555 directory), else chmod.
readonly_dir() { # dir
	mkdir -p "$1"
	copy_module "$1/mod.ko" 100000
	if [ "$(id -u)" -ne 0 ]; then
		chmod 0555 "$1"
		return 0
	fi
	if mount --bind "$1" "$1" 2>/dev/null &&
		mount -o remount,bind,ro "$1" 2>/dev/null; then
		return 0
	fi
	umount "$1" 2>/dev/null
	chattr +i "$1" 2>/dev/null && return 0
	skip "cannot make a read-only directory as root (no bind mount, no chattr +i)"
}

@test "in place in a read-only directory: exit 7, module unchanged, nothing left" {
	readonly_dir "$W/d"
	MOD="$W/d/mod.ko"
	local sum
	sum=$(file_sha256 "$MOD")
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	stderr_names "$MOD" ""
	[[ "$stderr" == *"Read-only file system"* || "$stderr" == *"Permission denied"* ||
		"$stderr" == *"Operation not permitted"* ]] || fail "$stderr"
	assert_equal "$(file_sha256 "$MOD")" "$sum"
}

@test "-p in a read-only directory: exit 7, no .p7s, module unchanged" {
	readonly_dir "$W/d"
	sign_fails 7 -p sha256 "$RSA_KEY" "$RSA_DER" "$W/d/mod.ko"
	assert_file_not_exists "$W/d/mod.ko.p7s"
}

@test "a dest in a read-only directory: exit 7, names the dest" {
	readonly_dir "$W/d"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/mod.ko" "$W/d/out.ko"
	stderr_names "$W/d/out.ko" ""
}

@test "no space left while copying: exit 7, original intact, no temporary file" {
	need_root "mounts a small tmpfs"
	mkdir -p "$W/d"
	mount -t tmpfs -o size=256k tmpfs "$W/d" || skip "cannot mount a tmpfs here"
	copy_module "$W/d/mod.ko" 200000
	cp "$W/d/mod.ko" "$W/orig.ko"
	sign_fails 7 sha256 "$RSA_KEY" "$RSA_DER" "$W/d/mod.ko"
	stderr_names "$W/d/mod.ko" "No space left on device"
	cmp "$W/d/mod.ko" "$W/orig.ko"
	assert_equal "$(dir_listing "$W/d")" "mod.ko"
}

@test "no space left for the signature (-p): exit 7, original intact, no .p7s, no temporary file" {
	need_root "mounts a small tmpfs"
	mkdir -p "$W/d"
	mount -t tmpfs -o size=256k tmpfs "$W/d" || skip "cannot mount a tmpfs here"
	# half the space: the body copy fits, the signature after it does not
	copy_module "$W/d/mod.ko" 131000
	cp "$W/d/mod.ko" "$W/orig.ko"
	sign_fails 7 -p sha256 "$RSA_KEY" "$RSA_DER" "$W/d/mod.ko"
	stderr_names "$W/d/mod.ko" "No space left on device"
	cmp "$W/d/mod.ko" "$W/orig.ko"
	assert_equal "$(dir_listing "$W/d")" "mod.ko"
}

# ------------------------------------------------------- file handling

@test "in-place signing keeps mode 0640" {
	mod
	chmod 0640 "$MOD"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	assert_equal "$(stat -c %a "$MOD")" 640
}

@test "in-place signing keeps mode 0600 and 0755" {
	mod
	chmod 0600 "$MOD"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	assert_equal "$(stat -c %a "$MOD")" 600
	copy_module "$W/d/x.ko" 1000
	chmod 0755 "$W/d/x.ko"
	run -0 "$SIGN_FILE" -p sha256 "$RSA_KEY" "$RSA_DER" "$W/d/x.ko"
	assert_equal "$(stat -c %a "$W/d/x.ko")" 755
}

@test "a new dest gets 0666 minus the umask" {
	mod
	umask 027
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/out.ko"
	assert_equal "$(stat -c %a "$W/d/out.ko")" 640
}

@test "an existing dest keeps its mode, as with the kernel tool" {
	mod
	umask 022
	# not a module: another module is never overwritten (sign-file-footguns.bats)
	printf 'old output' > "$W/d/out.ko"
	chmod 0600 "$W/d/out.ko"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/out.ko"
	need_reference
	printf 'old output' > "$W/d/ref.ko"
	chmod 0600 "$W/d/ref.ko"
	"$REF_SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD" "$W/d/ref.ko"
	cmp "$W/d/out.ko" "$W/d/ref.ko"
	assert_equal "$(stat -c %a "$W/d/ref.ko")" 600
	assert_equal "$(stat -c %a "$W/d/out.ko")" 600
}

@test "a symlinked module is signed through the link: target replaced, link kept" {
	mod
	cp "$MOD" "$W/orig.ko"
	mkdir "$W/links"
	ln -s ../d/mod.ko "$W/links/mod.ko"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$W/links/mod.ko"
	[ -L "$W/links/mod.ko" ] || fail "the link was replaced by a file"
	assert_equal "$(readlink "$W/links/mod.ko")" ../d/mod.ko
	signed_by_reference "$W/orig.ko" "$W/ref.ko"
	cmp "$MOD" "$W/ref.ko"
	assert_equal "$(dir_listing "$W/links")" "mod.ko"
	assert_equal "$(dir_listing "$W/d")" "mod.ko"
}

@test "-p through a symlink: the .p7s is named after the link, a symlinked dest written at its target" {
	mod
	cp "$MOD" "$W/orig.ko"
	mkdir "$W/links" "$W/out"
	ln -s ../d/mod.ko "$W/links/l.ko"
	run -0 "$SIGN_FILE" -p sha256 "$RSA_KEY" "$RSA_DER" "$W/links/l.ko"
	# the .p7s beside the link, under the link's name; the target signed
	assert_equal "$(dir_listing "$W/links")" "$(printf 'l.ko\nl.ko.p7s')"
	assert_equal "$(dir_listing "$W/d")" "mod.ko"
	split_signed "$MOD" body sig
	cmp body "$W/orig.ko"
	cmp sig "$W/links/l.ko.p7s"
	# a dest that is a link to an existing file: that file is replaced
	: > "$W/out/target.ko"
	ln -s target.ko "$W/out/dest.ko"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$W/orig.ko" "$W/out/dest.ko"
	[ -L "$W/out/dest.ko" ]
	assert_equal "$(readlink "$W/out/dest.ko")" target.ko
	split_signed "$W/out/target.ko" body2 sig2
	cmp body2 "$W/orig.ko"
}

@test "a symlinked module keeps the target's mode" {
	mod
	chmod 0640 "$MOD"
	ln -s mod.ko "$W/d/link.ko"
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$W/d/link.ko"
	[ -L "$W/d/link.ko" ]
	assert_equal "$(stat -c %a "$MOD")" 640
}

@test "a successful in-place signing leaves only the module behind" {
	mod
	run -0 "$SIGN_FILE" sha256 "$RSA_KEY" "$RSA_DER" "$MOD"
	assert_equal "$(dir_listing "$W/d")" "mod.ko"
}
