#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# modsign-cases.sh LINE CASEDIR
#
# Append to CASEDIR/cases.tsv the cases that modsign itself makes, so the
# real kernel of LINE judges them in the same boot as the conformance
# corpus.  Each one is something a user does with modsign and expects the
# kernel to accept (modsign-expected.tsv says so per line):
#
#   m01..m05   sign-file's own signing paths: RSA and ECDSA keys, two
#              signers (key rollover), a .ko.xz signed in its compressed
#              form, kmodsign -D's detached trailer catted on later
#   m06..m08   ML-DSA-44/65/87 keys, signed by a sign-file built against
#              OpenSSL >= 3.5 (MODSIGN_SIGN35: a command, prefix
#              included, e.g. "chroot ROOT TREE/build/ossl35/bin/sign-file";
#              kernel-verdicts.sh sets it when this build cannot sign
#              ML-DSA): SHA-512 with signed attributes, as the 7.3
#              kernel's own sign-file makes them; 7.3 takes them with
#              the waiver, 6.1 and 6.12 have no ML-DSA (ENOPKG)
#   m10..m12   kbuild calling our sign-file as scripts/sign-file:
#              "make modules_install" with CONFIG_MODULE_SIG_ALL for two
#              of the tree's own modules (lib.sh kh_intree_modules: crc7
#              and crc-itu-t, on 7.3 wp512 and serpent_generic), and
#              "make M=... modules_install"
#              for an out-of-tree module, the way DKMS and vendors sign;
#              the in-tree install is repeated under sign-file --agent
#              and must give the same bytes
#   m13..m14   files that are not what they claim: the payload cut before
#              its section headers, correctly signed (sign-file --usage
#              firmware: it refuses the .ko), which finit_module refuses
#              after the signature (elf_validity_check, ENOEXEC); and a
#              .ko.xz cut in half (module_decompress, EINVAL)
#
# Needs the LINE kernel built (build-kernel.sh) and build/bin (make).
# Keys: tests/fixtures/conformance/keys, whose signer/ecsigner
# certificates are in the trusted bundle; "untrusted" is in no keyring.
set -euo pipefail
PROG=modsign-cases.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || {
	echo "usage: $PROG LINE CASEDIR" >&2
	exit 2
}
kh_paths "$1"
CASEDIR=$(cd "$2" 2>/dev/null && pwd) || die "$2: no such case directory"
[ -f "$CASEDIR/cases.tsv" ] || die "$CASEDIR/cases.tsv missing (run gen-cases.sh first)"
BIN=${MODSIGN_BIN:-$KH_TOP/build/bin}
SIGN=$BIN/sign-file
[ -x "$SIGN" ] || die "$SIGN missing (run make first)"
K=$KH_TOP/tests/fixtures/conformance/keys
payload=$("$KH_DIR/payload-path.sh" "$LINE")

add() { # case file
	printf '%s\t%s\tmodule\tmodule\t-\n' "$1" "$2" >>"$CASEDIR/cases.tsv"
}

# m01: the drop-in call, RSA-2048, SHA-256
cp "$payload" "$CASEDIR/m01.ko"
"$SIGN" sha256 "$K/signer.key" "$K/signer.crt" "$CASEDIR/m01.ko"
add m01-modsign-rsa-sha256 m01.ko

# m02: ECDSA P-256 key (MODULE_SIG_KEY_TYPE_ECDSA), SHA-384, DER cert
cp "$payload" "$CASEDIR/m02.ko"
"$SIGN" sha384 "$K/ecsigner.key" "$K/ecsigner.der" "$CASEDIR/m02.ko"
add m02-modsign-ecdsa-sha384 m02.ko

# m03: rollover: an untrusted key first, the trusted one second; a kernel
# trusting either accepts
cp "$payload" "$CASEDIR/m03.ko"
"$SIGN" --signer "$K/untrusted.key" "$K/untrusted.crt" \
	--signer "$K/signer.key" "$K/signer.crt" sha256 "$CASEDIR/m03.ko"
add m03-modsign-two-signers m03.ko
# m03b: the same the other way round: the trusted signer first
cp "$payload" "$CASEDIR/m03b.ko"
"$SIGN" --signer "$K/signer.key" "$K/signer.crt" \
	--signer "$K/untrusted.key" "$K/untrusted.crt" sha256 "$CASEDIR/m03b.ko"
add m03b-modsign-two-signers-trusted-first m03b.ko

# m04: sign the compressed module as it ships: sign-file decompresses,
# signs and recompresses with kbuild's xz settings; /init loads it with
# MODULE_INIT_COMPRESSED_FILE (in-kernel decompression)
xz --check=crc32 --lzma2=dict=1MiB -c "$payload" >"$CASEDIR/m04.ko.xz"
"$SIGN" sha256 "$K/signer.key" "$K/signer.crt" "$CASEDIR/m04.ko.xz"
add m04-modsign-signed-ko-xz m04.ko.xz

# m05: kmodsign -D: the trailer block alone, appended by cat later
cp "$payload" "$CASEDIR/m05.ko"
"$SIGN" --kmodsign -D sha512 "$K/signer.key" "$K/signer.crt" \
	"$CASEDIR/m05.ko" "$CASEDIR/m05.sig"
cat "$CASEDIR/m05.sig" >>"$CASEDIR/m05.ko"
rm -f "$CASEDIR/m05.sig"
add m05-kmodsign-detached-trailer m05.ko

# m06..m08: ML-DSA, with the sign-file that can make it
read -ra sign35 <<<"${MODSIGN_SIGN35:-$SIGN}"
n=6
for p in 44 65 87; do
	cp "$payload" "$CASEDIR/m0$n.ko"
	"${sign35[@]}" sha512 "$K/mldsa$p.key" "$K/mldsa$p.crt" "$CASEDIR/m0$n.ko" ||
		die "${sign35[*]} cannot sign with ML-DSA-$p (set MODSIGN_SIGN35 to a sign-file built against OpenSSL >= 3.5)"
	add "m0$n-modsign-mldsa$p-sha512" "m0$n.ko"
	n=$((n + 1))
done

# m10..m12: kbuild's modules_install signs with "scripts/sign-file HASH KEY
# certs/signing_key.x509 MODULE" when CONFIG_MODULE_SIG_ALL is set.  The
# harness builds with it off and no key; the command line sets both for
# the install step only, and our sign-file stands in for the tree's: a
# link to it, as a packager would make one (a copy alone cannot find the
# signing code it loads: src/sign-file/front.h).
tree_sign=$KH_TREE/scripts/sign-file
x509=$KH_TREE/certs/signing_key.x509
restore() {
	[ -f "$tree_sign.kernel" ] && mv -f "$tree_sign.kernel" "$tree_sign"
	rm -f "$x509"
}
trap restore EXIT
[ -f "$tree_sign.kernel" ] || cp -p "$tree_sign" "$tree_sign.kernel"
ln -sf "$(realpath "$SIGN")" "$tree_sign"
openssl x509 -in "$K/signer.crt" -outform DER -out "$x509"
stage=$KH_LINEDIR/modinst
rm -rf "$stage"
kbuild_sign=(ARCH=x86_64 INSTALL_MOD_PATH="$stage" CONFIG_MODULE_SIG_ALL=y
	CONFIG_MODULE_SIG_KEY="$K/signer.key" CONFIG_MODULE_SIG_HASH=sha256
	INSTALL_MOD_STRIP= CONFIG_MODULE_COMPRESS_NONE=y
	CONFIG_MODULE_COMPRESS_XZ= CONFIG_MODULE_COMPRESS_GZIP=
	CONFIG_MODULE_COMPRESS_ZSTD= DEPMOD=true)
make -C "$KH_TREE" "${kbuild_sign[@]}" modules_install \
	>"$KH_LINEDIR/modinst.log" 2>&1 ||
	{ tail -n 20 "$KH_LINEDIR/modinst.log" >&2; die "kbuild modules_install with our sign-file failed"; }
n=10
for m in $(kh_intree_modules); do
	f=$(find "$stage" -name "$m.ko" | head -n 1)
	[ -n "$f" ] || die "modules_install did not install $m.ko (see $KH_LINEDIR/modinst.log)"
	id=${m//_/-} # case ids and file names have no "_"
	cp "$f" "$CASEDIR/m1-$id.ko"
	add "m$n-kbuild-modules-install-$id" "m1-$id.ko"
	n=$((n + 1))
done
# 6.x logs a SIGN line per module; 5.10's modules_install signs inside its
# INSTALL step, silently: the marker at the end of each installed file says
for m in $(kh_intree_modules); do
	f=$CASEDIR/m1-${m//_/-}.ko
	[ "$(tail -c 28 "$f")" = "~Module signature appended~" ] ||
		die "modules_install did not sign $m.ko: is CONFIG_MODULE_SIG_ALL honoured? ($KH_LINEDIR/modinst.log)"
done

# The same install under one signing agent (sign-file --agent): kbuild's
# per-module sign-file runs hand their modules over.  The key is an
# encrypted copy whose passphrase only the agent has, so a run that signed
# itself would fail; the modules must be the bytes signed without it.
astage=$KH_LINEDIR/modinst-agent
akey=$KH_LINEDIR/signer-agent.key
rm -rf "$astage"
openssl pkey -in "$K/signer.key" -aes256 -passout pass:modsign-agent \
	-out "$akey"
echo modsign-agent > "$akey.pin"
agent_sign=("${kbuild_sign[@]/#INSTALL_MOD_PATH=*/INSTALL_MOD_PATH=$astage}")
agent_sign=("${agent_sign[@]/#CONFIG_MODULE_SIG_KEY=*/CONFIG_MODULE_SIG_KEY=$akey}")
env -u KBUILD_SIGN_PIN "$SIGN" --agent --pin-file "$akey.pin" sha256 \
	"$akey" "$x509" -- make -C "$KH_TREE" "${agent_sign[@]}" \
	modules_install >"$KH_LINEDIR/modinst-agent.log" 2>&1 ||
	{ tail -n 20 "$KH_LINEDIR/modinst-agent.log" >&2; die "kbuild modules_install under sign-file --agent failed"; }
for m in $(kh_intree_modules); do
	a=$(find "$astage" -name "$m.ko" | head -n 1)
	f=$(find "$stage" -name "$m.ko" | head -n 1)
	[ -n "$a" ] && cmp -s "$a" "$f" ||
		die "modules_install under sign-file --agent: $m.ko is not the module signed without it (see $KH_LINEDIR/modinst-agent.log)"
done

# out of tree, as DKMS does: M= points at a copy of the payload build
ext=$KH_LINEDIR/modsign_payload
make -C "$KH_TREE" "${kbuild_sign[@]}" M="$ext" modules_install \
	>"$KH_LINEDIR/modinst-ext.log" 2>&1 ||
	{ tail -n 20 "$KH_LINEDIR/modinst-ext.log" >&2; die "kbuild M= modules_install with our sign-file failed"; }
f=$(find "$stage" -name modsign_payload.ko | head -n 1)
[ -n "$f" ] || die "M= modules_install installed no modsign_payload.ko"
cp "$f" "$CASEDIR/m12.ko"
add m12-kbuild-ext-modules-install m12.ko
note "$LINE: added $(grep -c '^m[0-9]' "$CASEDIR/cases.tsv") modsign cases to $CASEDIR"

# m13: a correctly signed module cut before its section headers
head -c $(($(stat -c %s "$payload") - 200)) "$payload" >"$CASEDIR/m13.ko"
"$SIGN" --usage firmware sha256 "$K/signer.key" "$K/signer.crt" "$CASEDIR/m13.ko"
add m13-signed-truncated-elf m13.ko

# m14: a signed .ko.xz cut in half: it does not decompress (the kernel
# decompresses from 6.1 on; 5.10's harness does it as kmod would)
if [ "$LINE" != 5.10 ]; then
	cp "$CASEDIR/m04.ko.xz" "$CASEDIR/m14.full.xz"
	head -c $(($(stat -c %s "$CASEDIR/m14.full.xz") / 2)) "$CASEDIR/m14.full.xz" >"$CASEDIR/m14.ko.xz"
	rm -f "$CASEDIR/m14.full.xz"
	add m14-ko-xz-cut-in-half m14.ko.xz
fi
