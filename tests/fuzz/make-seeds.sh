#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-seeds.sh BIN OUTDIR: seed corpora for the fuzz targets, made from
# the committed test keys with the real tools: signed modules of each key
# type and hash, -k, a legacy trailer, and a few broken ones.
set -eu
bin=$1
out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
keys=$top/tests/fixtures/keys
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c 300 /dev/urandom > "$tmp/body"
n=0
for k in rsa2048 ec256 ec384; do
	for h in sha1 sha256 sha512 sha3-256; do
		for kid in "" -k; do
			# OpenSSL 3.0 has no CMS ECDSA-with-SHA-3
			case $k$h in ec*sha3*) continue ;; esac
			n=$((n + 1))
			"$bin/sign-file" $kid "$h" "$keys/$k.key" "$keys/$k.crt" \
				"$tmp/body" "$out/seed-$n"
		done
	done
done
# an unsigned file, a bare magic, a legacy X.509 (id_type 1) trailer
cp "$tmp/body" "$out/unsigned"
printf '~Module signature appended~\n' > "$out/magic-only"
{ cat "$tmp/body"; printf 'signer'; printf 'kid'; head -c 16 /dev/zero
  printf '\001\004\001\006\003\000\000\000\000\000\000\020'
  printf '~Module signature appended~\n'; } > "$out/legacy"
# the conformance corpus: every kernel rule's edge, signed and malformed
"$top/tests/fixtures/conformance/gen-cases.sh" --out "$tmp/cases" >/dev/null
for f in "$tmp"/cases/*; do
	case $f in *.tsv) ;; *) cp "$f" "$out/case-$(basename "$f")" ;; esac
done
# certificates, for the loader: PEM, DER, bundles
for f in "$keys"/*.crt "$keys"/*.der "$top"/tests/fixtures/conformance/*.pem; do
	cp "$f" "$out/cert-$(basename "$f")"
done
# fuzz_rsaimport: PKCS#1 RSAPrivateKey DER, two primes and three
for k in rsa2048 other; do
	openssl rsa -in "$keys/$k.key" -traditional -outform DER \
		-out "$out/key-$k.der" 2>/dev/null
done
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 \
	-pkeyopt rsa_keygen_primes:3 2>/dev/null |
	openssl rsa -traditional -outform DER -out "$out/key-3primes.der" 2>/dev/null
# fuzz_esl and fuzz_vmlinux: signature lists, a kernel-like ELF object,
# and bzImages around it
mk=$top/tests/fixtures/make-trust.py
python3 "$mk" esl "$out/esl-db" x509:"$keys/rsa2048.der" x509:"$keys/ec256.der"
sha256sum "$tmp/body" > "$tmp/h"
python3 "$mk" esl "$out/esl-dbx" sha256:"$tmp/h" x509sha256:"$keys/ec256.der"
python3 "$mk" efivar "$out/efivar-db" "$out/esl-db"
if command -v gcc > /dev/null; then
	printf '.section .init.rodata,"a"\n.globl system_certificate_list\nsystem_certificate_list:\n.incbin "%s"\ne:\n.globl system_certificate_list_size\nsystem_certificate_list_size: .quad e - system_certificate_list\n' \
		"$keys/ec256.der" > "$tmp/v.S"
	gcc -c -o "$out/vmlinux-elf" "$tmp/v.S"
	for c in gzip xz zstd lz4 bzip2; do
		command -v $c > /dev/null || continue
		case $c in lz4) a="-l -q" ;; zstd) a="-q" ;; *) a="" ;; esac
		$c $a -c < "$out/vmlinux-elf" > "$tmp/p"
		python3 "$mk" bzimage "$out/bzimage-$c" "$tmp/p"
	done
	# a compressed whole file (Image.gz), found by its magic: the
	# image must unpack to at least a page
	{ cat "$out/vmlinux-elf"; head -c 4096 /dev/zero; } | gzip -9 > "$out/image-gz"
fi
[ -d "$top/tests/fuzz/regressions" ] &&
	find "$top/tests/fuzz/regressions" -type f -exec cp {} "$out/" \;
echo "$(ls "$out" | wc -l) seeds in $out"
