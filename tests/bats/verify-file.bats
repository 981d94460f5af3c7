#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file's command line: verdict lines, JSON, exit codes, modes.
# Modules are signed with the real sign-file and openssl; verdicts expected
# are the kernel's (kernel/module/signing.c, crypto/asymmetric_keys/), not
# whatever the code prints.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	T="$BATS_TEST_TMPDIR"
	VF="$VERIFY_FILE"
	# the same module every run (sign-file refuses a .ko that is no ELF)
	make_module "$T/body" 3000
	mkdir "$T/certs"
	cp "$KEYS/rsa2048.crt" "$KEYS/ec256.der" "$T/certs/"
}

# sign NAME KEY [HASH]: NAME.ko signed by the kernel's recipe (sign-file)
sign() {
	cp "$T/body" "$T/$1.ko"
	"$SIGN_FILE" "${3:-sha256}" "$KEYS/$2.key" "$KEYS/$2.crt" "$T/$1.ko"
}

# flip FILE OFFSET: invert one byte, so that the byte changes whatever it
# was.
flip() {
	python3 - "$1" "$2" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(1)[0]
    f.seek(int(sys.argv[2]))
    f.write(bytes([b ^ 0xff]))
PY
}

# append NAME SIG: body + SIG + a PKCS#7 trailer, as sign-file -s would
append() {
	python3 - "$T/body" "$2" "$T/$1.ko" <<'PY'
import sys
body, sig = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
desc = bytes([0, 0, 2, 0, 0, 0, 0, 0]) + len(sig).to_bytes(4, "big")
open(sys.argv[3], "wb").write(body + sig + desc + b"~Module signature appended~\n")
PY
}

@test "a module signed by a trusted key is OK with hash, key, certificate, issuer and cert" {
	sign m rsa2048
	run "$VF" -k "$T/certs" "$T/m.ko"
	assert_success
	assert_output --regexp "^$T/m.ko: OK \(sha256, RSA-2048, certificate \"modsign test RSA-2048 key\", issuer \"modsign test RSA-2048 key\", key [0-9a-f]{40}, cert $T/certs/rsa2048.crt\)$"
}

@test "an ECDSA module verifies against a DER certificate" {
	sign e ec256 sha384
	run "$VF" -k "$T/certs" "$T/e.ko"
	assert_success
	assert_output --partial "OK (sha384, ECDSA-P256"
}

@test "a modified body is rejected with EKEYREJECTED, exit 1" {
	sign m rsa2048
	flip "$T/m.ko" 10
	run "$VF" -k "$T/certs" "$T/m.ko"
	assert_failure 1
	assert_output --partial ": REJECTED -EKEYREJECTED: "
}

@test "signed attributes on a module are rejected (EKEYREJECTED)" {
	openssl cms -sign -binary -nocerts -nosmimecap -outform DER -md sha256 \
		-in "$T/body" -signer "$KEYS/rsa2048.crt" -inkey "$KEYS/rsa2048.key" \
		-out "$T/attrs.p7s"
	append a "$T/attrs.p7s"
	run "$VF" -k "$T/certs" "$T/a.ko"
	assert_failure 1
	assert_output "$T/a.ko: REJECTED -EKEYREJECTED: module signature has authenticated attributes"
}

@test "an unsigned module is ENODATA, exit 3, and would load tainted" {
	run "$VF" -k "$T/certs" "$T/body"
	assert_failure 3
	assert_output --partial ": UNSIGNED -ENODATA: "
	assert_output --partial "the kernel would load it unsigned"
}

@test "an unknown signer is ENOKEY, exit 4" {
	sign o other
	run "$VF" -k "$T/certs" "$T/o.ko"
	assert_failure 4
	assert_output --partial ": UNKNOWN-KEY -ENOKEY: "
}

@test "a legacy id_type is ENOPKG, exit 5" {
	sign m rsa2048
	size=$(stat -c %s "$T/m.ko")
	printf '\001' | dd of="$T/m.ko" bs=1 seek=$((size - 38)) conv=notrunc status=none
	run "$VF" -k "$T/certs" "$T/m.ko"
	assert_failure 5
	assert_output --partial "UNSUPPORTED -ENOPKG: module: not signed with expected PKCS#7 message"
}

@test "a truncated signature blob is EBADMSG, exit 6" {
	head -c 40 /dev/zero >"$T/short.p7s"
	append s "$T/short.p7s"
	run "$VF" -k "$T/certs" "$T/s.ko"
	assert_failure 6
	assert_output --partial "MALFORMED -EBADMSG"
}

@test "--json prints one object per file with signers" {
	require_cmd jq jq
	sign m rsa2048
	sign o other
	run "$VF" --json -k "$T/certs" "$T/m.ko" "$T/o.ko"
	assert_failure 4
	[ "${#lines[@]}" -eq 2 ]
	run jq -e 'select(.file | endswith("/m.ko")) | .verdict == "OK" and .errno == null
		and (.signers | length) == 1 and .signers[0].hash == "sha256"
		and .signers[0].key_type == "RSA-2048"
		and .signers[0].trusted == true
		and (.signers[0].key_description | test("^modsign test RSA-2048 key: [0-9a-f]+$"))
		and (.signers[0].certificate | endswith("rsa2048.crt"))
		and (.signers[0].issuer | test("CN=modsign test RSA-2048 key"))
		and (.signers[0].serial | test("^[0-9a-f]+$"))
		and (.signers[0] | has("skid"))' <<<"${output%%$'\n'*}"
	assert_success
	run sh -c "'$VF' --json -k '$T/certs' '$T/o.ko' | jq -e '.errno == \"ENOKEY\" and .verdict == \"UNKNOWN-KEY\" and .reason != null and .signers[0].certificate == null and .signers[0].trusted == false'"
	assert_success
}

@test "--json escapes odd file names" {
	require_cmd jq jq
	sign m rsa2048
	mv "$T/m.ko" "$T/a\"b\\c.ko"
	run sh -c "'$VF' --json -k '$T/certs' '$T/a\"b\\c.ko' | jq -r .file"
	assert_output "$T/a\"b\\c.ko"
}

@test "-q prints nothing and keeps the exit code" {
	run "$VF" -q -k "$T/certs" "$T/body"
	assert_failure 3
	assert_output ''
}

@test "--enforce turns soft outcomes into EKEYREJECTED" {
	run "$VF" --enforce -k "$T/certs" "$T/body"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: Loading of unsigned module is rejected"
	sign o other
	run "$VF" --enforce -k "$T/certs" "$T/o.ko"
	assert_failure 1
	assert_output --partial "Loading of module with unavailable key is rejected"
}

@test "--detached uses FILE.p7s; --sig names it; default usage is unspecified" {
	cp "$T/body" "$T/fw.bin"
	"$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$T/fw.bin"
	assert_file_exists "$T/fw.bin.p7s"
	run "$VF" --detached -k "$T/certs" "$T/fw.bin"
	assert_success
	mv "$T/fw.bin.p7s" "$T/other.p7s"
	run "$VF" --sig "$T/other.p7s" -k "$T/certs" "$T/fw.bin"
	assert_success
	run "$VF" --sig "$T/other.p7s" --usage firmware -k "$T/certs" "$T/fw.bin"
	assert_failure 1
	assert_output --partial "firmware signature lacks authenticated attributes"
}

@test "--detached without FILE.p7s is an I/O error naming the file" {
	run "$VF" --detached -k "$T/certs" "$T/body"
	assert_failure 7
	assert_output --partial "$T/body.p7s"
}

@test "-r walks *.ko files and ends with a summary" {
	mkdir -p "$T/tree/a/b"
	sign m rsa2048; mv "$T/m.ko" "$T/tree/a/ok.ko"
	sign o other; mv "$T/o.ko" "$T/tree/a/b/unknown.ko"
	cp "$T/body" "$T/tree/unsigned.ko"
	cp "$T/body" "$T/tree/ignored.txt"
	sign m rsa2048; flip "$T/m.ko" 5
	mv "$T/m.ko" "$T/tree/bad.ko"
	run "$VF" -k "$T/certs" -r "$T/tree"
	assert_failure 1
	assert_line --index 4 "summary: 4 files: 1 ok, 1 unsigned, 1 unknown key, 0 unsupported, 1 bad signature, 0 malformed, 0 unreadable"
	refute_output --partial ignored.txt
}

@test "-r follows DIR itself when it is a link, and a linked module below it; a link to a directory is named, not followed" {
	mkdir -p "$T/real/sub"
	sign m rsa2048; mv "$T/m.ko" "$T/real/sub/m.ko"
	ln -s real "$T/top"
	# a link below DIR to a module is judged (modprobe opens it through
	# the link), a dangling one is unreadable, one to a directory is
	# named on stderr and not descended into
	mkdir -p "$T/elsewhere"
	sign o rsa2048; mv "$T/o.ko" "$T/elsewhere/o.ko"
	ln -s "$T/elsewhere/o.ko" "$T/real/link.ko"
	ln -s "$T/elsewhere" "$T/real/linkdir"
	run --separate-stderr "$VF" -k "$T/certs" -r "$T/top/"
	assert_success
	assert_line --index 0 "$T/top/link.ko: OK (sha256, RSA-2048, certificate \"modsign test RSA-2048 key\", issuer \"modsign test RSA-2048 key\", key 52becfe834406c10d9bcf8d61d7d192348b534db, cert $T/certs/rsa2048.crt)"
	assert_line --index 1 --partial "$T/top/sub/m.ko: OK"
	assert_line --index 2 "summary: 2 files: 2 ok, 0 unsigned, 0 unknown key, 0 unsupported, 0 bad signature, 0 malformed, 0 unreadable"
	[ "$stderr" = "verify-file: warning: $T/top/linkdir: a link to a directory, not followed; 1 such link below $T/top/ skipped" ]
	ln -s "$T/nowhere.ko" "$T/real/gone.ko"
	run --separate-stderr "$VF" -k "$T/certs" -r "$T/top/"
	assert_failure 7
	[[ $stderr == *"verify-file: $T/top/gone.ko: "* ]] || fail "$stderr"
	assert_line --index 2 "summary: 3 files: 2 ok, 0 unsigned, 0 unknown key, 0 unsupported, 0 bad signature, 0 malformed, 1 unreadable"
}

@test "-r: a subdirectory that cannot be listed is named and fails the run (exit 7)" {
	mkdir -p "$T/tree/locked"
	sign m rsa2048; mv "$T/m.ko" "$T/tree/m.ko"
	sign o rsa2048; mv "$T/o.ko" "$T/tree/locked/o.ko"
	chmod 000 "$T/tree/locked"
	if [ "$(id -u)" -eq 0 ]; then
		# root lists a mode 000 directory: drop CAP_DAC_OVERRIDE
		can_drop_dac_override ||
			skip "cannot drop CAP_DAC_OVERRIDE here"
		run --separate-stderr without_dac_override "$VF" -k "$T/certs" -r "$T/tree"
	else
		run --separate-stderr "$VF" -k "$T/certs" -r "$T/tree"
	fi
	chmod 755 "$T/tree/locked"
	assert_failure 7
	assert_line --index 0 --partial "$T/tree/m.ko: OK"
	assert_line --index 1 --partial "summary: 1 files: 1 ok"
	[[ "$stderr" == *"$T/tree/locked: cannot list this directory: Permission denied; 1 directory below $T/tree skipped"* ]] ||
		fail "no warning naming the directory: $stderr"
}

@test "with several files the most severe exit code wins" {
	sign m rsa2048
	run "$VF" -k "$T/certs" "$T/m.ko" "$T/body"
	assert_failure 3
	sign o other
	run "$VF" -k "$T/certs" "$T/o.ko" "$T/body" "$T/m.ko"
	assert_failure 4
	flip "$T/m.ko" 5
	run "$VF" -k "$T/certs" "$T/o.ko" "$T/m.ko" "$T/body"
	assert_failure 1
	run "$VF" -k "$T/certs" "$T/m.ko" "$T/missing.ko"
	assert_failure 7
}

@test "an unreadable certificate directory is exit 9 naming it, as in the other tools" {
	run "$VF" -k "$T/nonexistent" "$T/body"
	assert_failure 9
	assert_output --partial "$T/nonexistent: cannot read the certificate directory"
}

@test "a missing -c certificate is exit 9, not a file without a certificate" {
	run "$VF" -c "$T/nonexistent.crt" "$T/body"
	assert_failure 9
	assert_output --partial "$T/nonexistent.crt: cannot read the certificate: No such file or directory"
	ln -s "$T/nonexistent.crt" "$T/dangling.crt"
	run "$VF" -c "$T/dangling.crt" "$T/body"
	assert_failure 9
	refute_output --partial "no certificate in the file"
	head -c 500 /dev/zero | tr '\0' 'G' >"$T/garbage.crt"
	run "$VF" -c "$T/garbage.crt" "$T/body"
	assert_failure 9
	assert_output --partial "$T/garbage.crt: no certificate in the file"
}

@test "garbage files among certificates are skipped, counted, and named with -v" {
	sign m rsa2048
	head -c 500 /dev/zero | tr '\0' 'G' >"$T/certs/garbage.pem"
	cp "$KEYS/rsa2048.key" "$T/certs/"
	mkdir "$T/certs/subdir"
	run --separate-stderr "$VF" -k "$T/certs" "$T/m.ko"
	assert_success
	assert_output --partial "$T/m.ko: OK"
	# one line, on stderr, for the three entries that gave nothing
	[ "$stderr" = "verify-file: warning: $T/certs: 3 entries loaded nothing; run with -v to name each and say why" ]
	run "$VF" -v -k "$T/certs" "$T/m.ko"
	assert_success
	assert_output --partial "garbage.pem: skipped: no certificate in the file"
	assert_output --partial "rsa2048.key: skipped: no certificate in the file"
	assert_output --partial "subdir: skipped: a directory (-k does not descend into it)"
	assert_output --partial "$T/certs: 2 certificates loaded, 0 repeats"
}

@test "a certificate the kernel cannot parse is left out, and -v says why" {
	sign m rsa2048
	conf="$BATS_TEST_DIRNAME/../fixtures/conformance/keys"
	run "$VF" -v -c "$conf/gentime.crt" -c "$KEYS/rsa2048.crt" "$T/m.ko"
	assert_success
	assert_output --partial "gentime.crt: certificate 1 left out: -EBADMSG"
}

@test "-c with a file holding no certificate is refused" {
	run "$VF" -c "$T/body" "$T/body"
	assert_failure 9
	assert_output --partial "no certificate in the file"
}

@test "--kernel 6.1 does not know SHA-3 in PKCS#7; 6.12 does" {
	sign m rsa2048 sha3-256
	run "$VF" --kernel 6.12 -k "$T/certs" "$T/m.ko"
	assert_success
	run "$VF" --kernel 6.1 -k "$T/certs" "$T/m.ko"
	assert_failure 5
	assert_output --partial "ENOPKG: unsupported digest algorithm"
}

@test "--blacklist refuses a certificate whose TBS hash is listed" {
	sign m rsa2048
	tbs=$(openssl asn1parse -in "$KEYS/rsa2048.crt" -strparse 4 -noout -out /dev/stdout | sha256sum | cut -d' ' -f1)
	printf '"tbs:%s"\n' "$tbs" >"$T/bl"
	run "$VF" --blacklist "$T/bl" -k "$T/certs" "$T/m.ko"
	assert_failure 4
	printf '"tbs:XYZ"\n' >"$T/bl"
	run "$VF" --blacklist "$T/bl" -k "$T/certs" "$T/m.ko"
	assert_failure 2
	assert_output --partial "line 1"
}

@test "--revoked rejects a signer on the revocation list on 6.12 only" {
	sign m rsa2048
	run "$VF" --revoked "$KEYS/rsa2048.crt" -k "$T/certs" "$T/m.ko"
	assert_failure 1
	assert_output --partial "revocation list"
	run "$VF" --kernel 6.1 --revoked "$KEYS/rsa2048.crt" -k "$T/certs" "$T/m.ko"
	assert_success
}

@test "bad options and conflicting modes are usage errors (exit 2)" {
	run "$VF" --no-such-option -k "$T/certs" "$T/body"
	assert_failure 2
	assert_line --index 1 "Try 'verify-file --help' for the usage."
	assert_equal "${#lines[@]}" 2
	refute_output --partial "Usage:"
	run "$VF" "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs" --sig x --detached "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs" --sig x "$T/body" "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs" --usage bogus "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs" --kernel bogus "$T/body"
	assert_failure 2
	assert_output --partial "not a kernel version 'bogus'"
	run "$VF" -k "$T/certs" --kernel 7 "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs" --usage kexec --usage nope "$T/body"
	assert_failure 2
	run "$VF" -k "$T/certs"
	assert_failure 2
}

@test "--help goes to stdout with exit 0; --version names the tool" {
	run "$VF" --help
	assert_success
	assert_line --index 0 --partial "Usage: verify-file --machine[=RELEASE]"
	assert_line --index 1 --partial "verify-file -k DIR"
	run "$VF" --version
	assert_success
	assert_line --index 0 --regexp '^verify-file \(modsign\) [0-9]+\.[0-9]+\.[0-9]+$'
	# the OpenSSL it runs with, and whether it can check ML-DSA
	assert_line --index 1 --regexp '^OpenSSL [0-9.]+[a-z-]* \(built with [0-9.]+\); ML-DSA: (yes|no \(needs OpenSSL 3\.5 or later\))$'
}
