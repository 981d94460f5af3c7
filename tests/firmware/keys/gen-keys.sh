#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen-keys.sh [DIR]
#
# Make the firmware stage's throwaway test keys (RSA-2048, self-signed,
# with a subject key identifier, as the kernel harness's keys are) into
# DIR (default: this directory).  The committed keys were made by this
# script once; rerunning it makes different keys, and every expected
# verdict still holds, since no verdict depends on key bytes.
#
#   db      enrolled in UEFI db; signs the EFI kernel image (so shim
#           accepts it through db) and the "db" module case
#   mok     enrolled in MokList; signs the "mok" module case
#   mokx    enrolled in MokList and in MokListX; signs the "mokx" case
#   dbx     enrolled in MokList and, as a certificate, in UEFI dbx;
#           signs the "dbx" case
#
# The built-in key is the kernel harness's tests/kernel/keys/trusted-*
# (built into the kernel), the unknown key its untrusted-*.
set -eu
dir=${1:-$(dirname "$0")}
for name in db mok mokx dbx; do
	openssl req -new -x509 -newkey rsa:2048 -sha256 -nodes -days 36500 \
		-subj "/O=modsign test/CN=modsign firmware stage $name test key" \
		-addext subjectKeyIdentifier=hash \
		-keyout "$dir/$name-key.pem" -out "$dir/$name-cert.pem" 2>/dev/null
	openssl x509 -in "$dir/$name-cert.pem" -outform DER -out "$dir/$name-cert.der"
done
