#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Compressed modules (.ko.gz, .ko.xz, .ko.zst): signed inside the
# compression, where the kernel looks, and recompressed as kbuild does.

load helpers
bats_require_minimum_version 1.5.0

# The command-line tools are only the tests' referees: modsign itself
# links zlib, liblzma and libzstd.
compress_cmd() { # fmt file  -> file.<ext>, as kbuild's modules_install
	case $1 in
	xz) xz --check=crc32 --lzma2=dict=1MiB -f "$2" ;;
	zst) zstd -q --rm -f "$2" ;;
	gz) gzip -n -f "$2" ;;
	esac
}

decompress_cmd() { # fmt file  -> stdout
	case $1 in
	xz) xz -dc "$2" ;;
	zst) zstd -qdc "$2" ;;
	gz) gzip -dc "$2" ;;
	esac
}

sign() { # [flags...] file: rsa2048, sha256
	"$SIGN_FILE" "${@:1:$#-1}" sha256 "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" "${@: -1}"
}

# orig.ko (an ELF with .modinfo), ref.ko (orig.ko signed uncompressed) and
# m.ko.<fmt> (orig.ko compressed by the command-line tool).
prepare() { # fmt
	"$TOP/tests/fixtures/make-module.sh" orig.ko
	cp orig.ko ref.ko
	sign ref.ko
	cp orig.ko m.ko
	compress_cmd "$1" m.ko
}

# RSA PKCS#1 v1.5 is deterministic: signing inside the compression must
# give, once decompressed, the very bytes of signing the plain module.
roundtrip() { # fmt
	prepare "$1"
	run sign "m.ko.$1"
	assert_success
	assert_output ""
	decompress_cmd "$1" "m.ko.$1" > out.ko
	cmp out.ko ref.ko
	"$EXTRACT_SIG" --body-out body --sig-out sig -q out.ko
	cmp body orig.ko
	run openssl cms -verify -binary -inform DER -in sig -content body \
		-certfile "$KEYS/rsa2048.crt" -nointern -noverify -out /dev/null
	assert_success
}

@test "a .ko.xz roundtrip: xz -d gives the module signed uncompressed" {
	roundtrip xz
}

@test "a .ko.zst roundtrip: zstd -d gives the module signed uncompressed" {
	roundtrip zst
}

@test "a .ko.gz roundtrip: gzip -d gives the module signed uncompressed" {
	roundtrip gz
}

@test "verify-file accepts our .ko.xz once decompressed by xz -d" {
	prepare xz
	sign m.ko.xz
	xz -dc m.ko.xz > out.ko
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" out.ko
	assert_success
	assert_output --regexp '^out.ko: OK '
}

@test "verify-file judges each compressed format as the kernel sees it" {
	local f
	for f in xz zst gz; do
		prepare "$f"
		sign "m.ko.$f"
		run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "m.ko.$f"
		assert_success
		assert_output --regexp "^m.ko.$f: OK "
	done
	mkdir -p tree/kernel
	cp m.ko.xz m.ko.zst m.ko.gz tree/kernel/
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" -r tree
	assert_success
	assert_line --regexp '^tree/kernel/m.ko.xz: OK '
	assert_line --regexp '^tree/kernel/m.ko.zst: OK '
	assert_line --regexp '^tree/kernel/m.ko.gz: OK '
}

@test "verify-file: a trailer after the compression is an unsigned module" {
	"$TOP/tests/fixtures/make-module.sh" m.ko
	xz -f --check=crc32 m.ko
	# the kernel's own tool signs the compressed bytes: the mistake
	need_reference
	"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko.xz out.ko.xz
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" out.ko.xz
	assert_failure 3
	assert_output --partial "out.ko.xz: "
	assert_output --partial "-ENODATA: signature appended to a compressed module: the kernel sees an unsigned module"
}

@test "xz output has a CRC32 check and a 1 MiB dictionary, even from CRC64 input" {
	"$TOP/tests/fixtures/make-module.sh" m.ko
	xz -f m.ko                       # xz's own default: CRC64
	run xz --robot -lvv m.ko.xz
	assert_line --regexp $'^stream\t.*\tCRC64\t'
	sign m.ko.xz
	run xz --robot -lvv m.ko.xz
	assert_success
	assert_line --regexp $'^stream\t1\t1\t.*\tCRC32\t0$'
	refute_line --regexp 'CRC64|SHA-256'
	assert_line --regexp $'^block\t1\t1\t.*\t--lzma2=dict=1MiB$'
}

@test "gzip output has no name and no time stamp, as gzip -n" {
	"$TOP/tests/fixtures/make-module.sh" m.ko
	gzip -f m.ko                     # without -n: stores name and mtime
	[ "$(od -An -tx1 -j3 -N1 m.ko.gz | tr -d ' ')" = 08 ]
	sign m.ko.gz
	# FLG = 0 (the kernel's header parser knows only FNAME), MTIME = 0
	run od -An -tx1 -N8 m.ko.gz
	assert_output " 1f 8b 08 00 00 00 00 00"
}

@test "zstd output carries the content size and a checksum, as zstd does" {
	prepare zst
	sign m.ko.zst
	run zstd -lv m.ko.zst
	assert_success
	assert_line --regexp "^Decompressed Size: .*\($(stat -c %s ref.ko) B\)"
	assert_line --regexp '^Check: XXH64'
}

@test "the format is found by content: a .ko that is xz stays xz" {
	prepare xz
	mv m.ko.xz m.ko
	sign m.ko
	[ "$(od -An -tx1 -N6 m.ko)" = " fd 37 7a 58 5a 00" ]
	xz -dc m.ko > out.ko
	cmp out.ko ref.ko
}

@test "the format is found by content: a plain module named .ko.xz stays plain" {
	"$TOP/tests/fixtures/make-module.sh" orig.ko
	cp orig.ko ref.ko
	sign ref.ko
	cp orig.ko m.ko.xz
	sign m.ko.xz
	cmp m.ko.xz ref.ko
	need_reference
	cp orig.ko k.ko.xz
	"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" k.ko.xz
	cmp m.ko.xz k.ko.xz
}

modinfo_matches() { # file
	local f
	for f in sig_id signer sig_key sig_hashalgo signature; do
		diff <("$EXTRACT_SIG" --modinfo="$f" "$1") <(modinfo -F "$f" "$1") ||
			{ echo "field $f differs"; return 1; }
	done
	diff <("$EXTRACT_SIG" --modinfo "$1") <(modinfo "$1" | sed -n '/^sig_id:/,$p')
}

kmod_reads() { # XZ | ZSTD | ZLIB
	kmod --version | grep -q -- "+$1" ||
		skip "this kmod is built without $1 ($(kmod --version | tail -1))"
}

@test "kmod's modinfo reads our signed .ko.xz: the same signature fields" {
	kmod_reads XZ
	prepare xz
	sign m.ko.xz
	run modinfo -F sig_id m.ko.xz
	assert_output "PKCS#7"
	modinfo_matches m.ko.xz
}

@test "kmod's modinfo reads our signed .ko.zst: the same signature fields" {
	kmod_reads ZSTD
	prepare zst
	sign m.ko.zst
	run modinfo -F sig_id m.ko.zst
	assert_output "PKCS#7"
	modinfo_matches m.ko.zst
}

@test "kmod's modinfo reads our signed .ko.gz: the same signature fields" {
	# Debian 12's kmod 30 and Debian 13's kmod 34 are built -ZLIB: they
	# cannot open .ko.gz at all.
	kmod_reads ZLIB
	prepare gz
	sign m.ko.gz
	run modinfo -F sig_id m.ko.gz
	assert_output "PKCS#7"
	modinfo_matches m.ko.gz
}

@test "extract-sig splits and describes a compressed module" {
	prepare zst
	sign m.ko.zst
	"$EXTRACT_SIG" --body-stdout m.ko.zst > body
	cmp body orig.ko
	"$EXTRACT_SIG" --sig-stdout m.ko.zst > sig
	"$EXTRACT_SIG" --sig-out sig2 -q m.ko.zst
	cmp sig sig2
	"$EXTRACT_SIG" --sig-stdout ref.ko | cmp - sig
	run "$EXTRACT_SIG" -c "$KEYS/rsa2048.crt" m.ko.zst
	assert_success
	assert_line "file:             m.ko.zst ($(stat -c %s ref.ko) bytes)"
	assert_line "compression:      zstd, $(stat -c %s m.ko.zst) bytes stored (sizes and offsets are of the decompressed module)"
	assert_line "  signer:         modsign test RSA-2048 key"
	run "$EXTRACT_SIG" --descriptor m.ko.zst
	assert_output "$("$EXTRACT_SIG" --descriptor ref.ko)"
}

@test "extract-sig --json names the compression; plain files say null" {
	prepare gz
	sign m.ko.gz
	run python3 - "$EXTRACT_SIG" m.ko.gz ref.ko <<'PY'
import json, os, subprocess, sys
tool, gz, plain = sys.argv[1:]
c = json.loads(subprocess.check_output([tool, "--json", gz]))
p = json.loads(subprocess.check_output([tool, "--json", plain]))
assert c["compression"] == "gzip", c
assert c["compressed_size"] == os.path.getsize(gz), c
assert c["file_size"] == os.path.getsize(plain), c
assert p["compression"] is None and p["compressed_size"] is None, p
for k in ("body_size", "signature_offset", "signature_size", "signers"):
    assert c[k] == p[k], k
print("ok")
PY
	assert_success
	assert_output "ok"
}

# The common mistake: compress, then sign the compressed file (the
# kernel's sign-file does not look at what it signs).
sign_after_compression() { # fmt
	prepare "$1"
	if [ -x "$REF_SIGN_FILE" ]; then
		"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
			"m.ko.$1"
	else
		# Without the reference (only by hand: make check fetches
		# it), the same built here: a CMS over the compressed
		# bytes, then descriptor and magic.  (Our sign-file cannot
		# make it: it signs inside the stream.)
		openssl cms -sign -binary -noattr -nosmimecap -nocerts \
			-outform DER -md sha256 -signer "$KEYS/rsa2048.crt" \
			-inkey "$KEYS/rsa2048.key" -in "m.ko.$1" -out outer.p7s
		python3 -c 'import sys
sig = open(sys.argv[2], "rb").read()
open(sys.argv[1], "ab").write(sig + bytes([0, 0, 2, 0, 0, 0, 0, 0]) +
    len(sig).to_bytes(4, "big") + b"~Module signature appended~\n")' \
			"m.ko.$1" outer.p7s
		rm outer.p7s
	fi
	cp "m.ko.$1" wrong.bak
}

@test "signed after compression: extract-sig explains it, exit 3" {
	sign_after_compression xz
	run "$EXTRACT_SIG" m.ko.xz
	assert_failure 3
	assert_output "extract-sig: m.ko.xz: signature appended to a compressed module: the kernel sees an unsigned module"
	run "$EXTRACT_SIG" --body-stdout m.ko.xz
	assert_failure 3
	assert_output --partial "the kernel sees an unsigned module"
}

@test "signed after compression: sign-file refuses (exit 6), even with --skip-signed" {
	sign_after_compression zst
	run sign m.ko.zst
	assert_failure 6
	assert_output "sign-file: m.ko.zst: signature appended to a compressed module: the kernel sees an unsigned module (use --replace to sign the decompressed module)"
	cmp m.ko.zst wrong.bak
	run sign --skip-signed m.ko.zst
	assert_failure 6
	cmp m.ko.zst wrong.bak
}

@test "signed after compression: sign-file --replace repairs it" {
	for fmt in xz zst gz; do
		rm -f ./*
		sign_after_compression $fmt
		run sign --replace m.ko.$fmt
		assert_success
		decompress_cmd $fmt m.ko.$fmt > out.ko
		cmp out.ko ref.ko
		run "$EXTRACT_SIG" -q m.ko.$fmt
		assert_success
	done
}

@test "signed before and after compression: the inner signature counts" {
	prepare xz
	sign m.ko.xz
	# a second trailer after the stream, over a signed module inside
	cp ref.ko y && sign --replace y
	tail -c +$(($(stat -c %s orig.ko) + 1)) y >> m.ko.xz
	run "$EXTRACT_SIG" m.ko.xz
	assert_success
	assert_line "extract-sig: warning: m.ko.xz: a second signature is appended after compression, where the kernel never looks; describing the signature inside"
	assert_line "  signer:         modsign test RSA-2048 key"
	run sign m.ko.xz
	assert_failure 6
	assert_output --partial "a second signature is appended after compression"
}

# Nothing but the expected files: no temporary file left behind.
assert_only_files() { # names...
	run ls -A
	assert_output "$(printf '%s\n' "$@" | sort)"
}

@test "a truncated stream: clear error, exit 6, original untouched, no temp file" {
	for fmt in xz zst gz; do
		rm -f ./* ./.[!.]*
		"$TOP/tests/fixtures/make-module.sh" m.ko
		compress_cmd $fmt m.ko
		head -c 300 m.ko.$fmt > t.ko.$fmt
		cp t.ko.$fmt t.bak
		run sign t.ko.$fmt
		assert_failure 6
		assert_output --regexp "^sign-file: t\.ko\.$fmt: cannot decompress: (truncated|truncated or corrupt) (xz|zstd|gzip) data$"
		cmp t.ko.$fmt t.bak
		assert_only_files m.ko.$fmt t.ko.$fmt t.bak
	done
}

@test "a corrupt stream or trailing garbage: exit 6, original untouched" {
	"$TOP/tests/fixtures/make-module.sh" m.ko
	xz m.ko
	python3 - m.ko.xz <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0xff
open(sys.argv[1], "wb").write(b)
PY
	cp m.ko.xz bak
	run sign m.ko.xz
	assert_failure 6
	assert_output "sign-file: m.ko.xz: cannot decompress: corrupt xz data"
	cmp m.ko.xz bak
	run "$EXTRACT_SIG" m.ko.xz
	assert_failure 6
	assert_output "extract-sig: m.ko.xz: cannot decompress: corrupt xz data"

	"$TOP/tests/fixtures/make-module.sh" g.ko
	gzip -n g.ko
	echo junk >> g.ko.gz
	cp g.ko.gz gbak
	run sign g.ko.gz
	assert_failure 6
	assert_output "sign-file: g.ko.gz: cannot decompress: data after the end of the compressed stream"
	cmp g.ko.gz gbak
	assert_only_files bak g.ko.gz gbak m.ko.xz
}

@test "a decompression bomb beyond 1 GiB is refused before any work (exit 6)" {
	truncate -s $((1024 * 1024 * 1024 + 1)) big.ko
	zstd -q -1 --rm big.ko
	cp big.ko.zst bak
	run sign big.ko.zst
	assert_failure 6
	assert_output "sign-file: big.ko.zst: cannot decompress: expands past the decompressed size limit of 1024 MiB"
	cmp big.ko.zst bak
	run "$EXTRACT_SIG" big.ko.zst
	assert_failure 6
}

# The peak resident memory of a command, in MiB, on stdout's last line
# after the command's own output; its exit status is the command's.
peak_mib() { # cmd...
	python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
sys.exit(r.returncode)' "$@"
}

# Bombs of each format that expand to 1100 MiB of zeros
# (tests/fixtures/make-bomb.py): small files, no declared size to refuse
# early except xz's index.
make_bombs() {
	local f
	for f in gzip xz zstd; do
		python3 "$TOP/tests/fixtures/make-bomb.py" "$f" 1100 "b-$f"
	done
	mv b-gzip b.ko.gz
	mv b-xz b.ko.xz
	mv b-zstd b.ko.zst
}

@test "bombs of every module format stop at the limit: exit 6, the limit named, little memory" {
	make_bombs
	# the xz stream's index declares 1100 MiB: refused before decoding;
	# a trailer after the stream hides the index: decoded, and stopped
	cp b.ko.xz hidden.ko.xz
	printf '~Module signature appended~\n' >> hidden.ko.xz
	for f in b.ko.gz b.ko.xz hidden.ko.xz b.ko.zst; do
		run -6 peak_mib "$EXTRACT_SIG" "$f"
		assert_line "extract-sig: $f: cannot decompress: expands past the decompressed size limit of 1024 MiB"
		# the whole output was 1 GiB before; now a window of it
		(( ${lines[-1]} < 400 )) || fail "$f: peak RSS ${lines[-1]} MiB"
		run -6 "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" "$f"
		assert_line --partial "expands past the decompressed size limit of 1024 MiB"
		cp "$f" bak
		run -6 sign "$f"
		cmp "$f" bak
	done
}

@test "-j 2 on four bombs: refused each, without the memory of four" {
	make_bombs
	cp b.ko.gz c.ko.gz
	printf '~Module signature appended~\n' >> c.ko.gz
	run -6 peak_mib "$VERIFY_FILE" -j 2 -c "$KEYS/rsa2048.crt" b.ko.gz \
		b.ko.xz b.ko.zst c.ko.gz
	(( ${lines[-1]} < 512 )) || fail "peak RSS ${lines[-1]} MiB"
	for f in b.ko.gz b.ko.xz b.ko.zst c.ko.gz; do
		assert_line "$f: MALFORMED -EINVAL: does not decompress: expands past the decompressed size limit of 1024 MiB"
	done
}

@test "a module that expands past the memory window but under the limit is decoded whole" {
	# 40 MiB that xz makes a few KiB of: more than eight times its
	# compressed size and more than 16 MiB, so the first pass only counts
	"$TOP/tests/fixtures/make-module.sh" orig.ko
	cp orig.ko m.ko
	truncate -s $((40 << 20)) m.ko
	cp m.ko plain.ko
	sign plain.ko
	xz --check=crc32 -T1 -0 -k m.ko
	run sign m.ko.xz
	assert_success
	xz -dc m.ko.xz > out.ko
	cmp out.ko plain.ko
	run -0 "$EXTRACT_SIG" --body-stdout m.ko.xz
	"$EXTRACT_SIG" --body-stdout m.ko.xz | cmp - m.ko
}

@test "signing a compressed module keeps its mode and replaces it atomically" {
	prepare xz
	chmod 0640 m.ko.xz
	ln -s m.ko.xz link.ko.xz
	sign link.ko.xz
	[ -L link.ko.xz ]
	[ "$(stat -c %a m.ko.xz)" = 640 ]
	xz -dc m.ko.xz | cmp - ref.ko
	assert_only_files link.ko.xz m.ko.xz orig.ko ref.ko
}

@test "an already-signed compressed module: exit 8, --skip-signed, --replace" {
	prepare zst
	sign m.ko.zst
	cp m.ko.zst bak
	run sign m.ko.zst
	assert_failure 8
	assert_output "sign-file: m.ko.zst: already signed (use --replace or --skip-signed)"
	cmp m.ko.zst bak
	run sign --skip-signed m.ko.zst
	assert_success
	assert_output "sign-file: m.ko.zst: already signed, left unchanged"
	cmp m.ko.zst bak
	# re-signed with another key: the old signature is gone
	cp orig.ko ref4096.ko
	"$SIGN_FILE" sha512 "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" ref4096.ko
	"$SIGN_FILE" --replace sha512 "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" m.ko.zst
	zstd -qdc m.ko.zst | cmp - ref4096.ko
}

@test "-p and -d: <module>.p7s covers the decompressed module" {
	prepare gz
	cp m.ko.gz keep.gz
	"$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko.gz
	cmp m.ko.gz keep.gz
	"$EXTRACT_SIG" --sig-stdout ref.ko | cmp - m.ko.gz.p7s
	run openssl cms -verify -binary -inform DER -in m.ko.gz.p7s \
		-content orig.ko -certfile "$KEYS/rsa2048.crt" -nointern \
		-noverify -out /dev/null
	assert_success
	rm m.ko.gz.p7s
	sign -p m.ko.gz
	"$EXTRACT_SIG" --sig-stdout ref.ko | cmp - m.ko.gz.p7s
	gzip -dc m.ko.gz | cmp - ref.ko
}

@test "-s attaches a detached signature of the decompressed module" {
	prepare xz
	"$EXTRACT_SIG" --sig-stdout ref.ko > mod.p7s
	"$SIGN_FILE" -s mod.p7s sha256 "$KEYS/rsa2048.crt" m.ko.xz
	xz -dc m.ko.xz | cmp - ref.ko
}

@test "a destination gets the input's format; the input is untouched" {
	prepare xz
	cp m.ko.xz keep.xz
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko.xz \
		signed.ko.xz
	cmp m.ko.xz keep.xz
	xz -dc signed.ko.xz | cmp - ref.ko
}

@test "--digest-only on a compressed module digests the decompressed module" {
	local fmt
	for fmt in xz zst gz; do
		rm -f ./*
		prepare $fmt
		cp m.ko.$fmt keep
		"$SIGN_FILE" --digest-only sha256 orig.ko
		run "$SIGN_FILE" --digest-only sha256 m.ko.$fmt
		assert_success
		# the kernel checks the decompressed bytes: so must the digest
		assert_output "sha256 $(sha256sum < orig.ko | cut -d' ' -f1)  m.ko.$fmt"
		cmp m.ko.$fmt.digest orig.ko.digest
		cmp m.ko.$fmt.tbs orig.ko.tbs
		[ "$(sha256sum < m.ko.$fmt | cut -d' ' -f1)" != "$(sha256sum < orig.ko | cut -d' ' -f1)" ]
		cmp m.ko.$fmt keep
	done
}

@test "split signing of a .ko.xz: an openssl pkeyutl value attached verifies and xz -t passes" {
	prepare xz
	"$SIGN_FILE" --digest-only sha256 m.ko.xz
	# the remote signer: PKCS#1 v1.5 over the digest it was sent
	openssl pkeyutl -sign -inkey "$KEYS/rsa2048.key" -in m.ko.xz.digest \
		-pkeyopt digest:sha256 -out value
	run "$SIGN_FILE" --attach value sha256 "$KEYS/rsa2048.crt" m.ko.xz
	assert_success
	xz -t m.ko.xz
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" m.ko.xz
	assert_success
	assert_output --regexp '^m\.ko\.xz: OK \(sha256, RSA-2048, certificate "modsign test RSA-2048 key", issuer "modsign test RSA-2048 key"'
	# inside the compression, byte for byte the module signed here
	xz -dc m.ko.xz | cmp - ref.ko
	# and recompressed as signing does: CRC32, not the input's CRC64
	xz --robot -lv m.ko.xz | grep -q '^stream.*CRC32'
}

@test "split signing of a .ko.zst with ECDSA P-384: the wrapped value verifies inside" {
	prepare zst
	"$SIGN_FILE" --digest-only sha384 m.ko.zst
	openssl pkeyutl -sign -inkey "$KEYS/ec384.key" -in m.ko.zst.digest \
		-out value
	run "$SIGN_FILE" --attach value sha384 "$KEYS/ec384.der" m.ko.zst out.ko.zst
	assert_success
	zstd -qt out.ko.zst
	run "$VERIFY_FILE" -c "$KEYS/ec384.crt" out.ko.zst
	assert_success
	assert_output --partial "out.ko.zst: OK (sha384, ECDSA-P384"
	zstd -qdc out.ko.zst > out.ko
	"$EXTRACT_SIG" --body-stdout out.ko | cmp - orig.ko
}

@test "--attach on a .ko.xz checks the value against the decompressed module" {
	prepare xz
	cp m.ko.xz keep
	# a value over the compressed bytes, what --digest-only used to give
	openssl dgst -sha256 -binary m.ko.xz > wrong.digest
	openssl pkeyutl -sign -inkey "$KEYS/rsa2048.key" -in wrong.digest \
		-pkeyopt digest:sha256 -out value
	run "$SIGN_FILE" --attach value sha256 "$KEYS/rsa2048.crt" m.ko.xz
	assert_failure 1
	assert_output --partial "value: the signature value does not verify over this file"
	cmp m.ko.xz keep
}

@test "--digest-only follows signing's rules for compressed modules" {
	sign_after_compression xz
	run "$SIGN_FILE" --digest-only sha256 m.ko.xz
	assert_failure 6
	assert_output "sign-file: m.ko.xz: signature appended to a compressed module: the kernel sees an unsigned module (use --replace to sign the decompressed module)"
	assert_file_not_exist m.ko.xz.digest
	run "$SIGN_FILE" --digest-only --replace sha256 m.ko.xz
	assert_success
	assert_output "sha256 $(sha256sum < orig.ko | cut -d' ' -f1)  m.ko.xz"
	# signed inside: already signed (8), and --replace digests the body
	rm -f ./*
	prepare gz
	sign m.ko.gz
	run "$SIGN_FILE" --digest-only sha256 m.ko.gz
	assert_failure 8
	run "$SIGN_FILE" --digest-only --replace sha256 m.ko.gz
	assert_success
	assert_output "sha256 $(sha256sum < orig.ko | cut -d' ' -f1)  m.ko.gz"
	# a corrupt stream is the decompression error signing gives
	head -c 100 m.ko.gz > cut.ko.gz
	run "$SIGN_FILE" --digest-only sha256 cut.ko.gz
	assert_failure 6
	assert_output --partial "sign-file: cut.ko.gz: "
	assert_file_not_exist cut.ko.gz.digest
}
