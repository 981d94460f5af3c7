#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# extract-sig: splitting, describing, and modinfo-identical fields.

load helpers
bats_require_minimum_version 1.5.0

# Append a hand-made trailer: descriptor fields and a blob, big-endian len.
append_trailer() { # file algo hash id_type signer_len key_id_len sig_len
	python3 - "$@" <<'PY'
import struct, sys
f, a, h, i, s, k, n = sys.argv[1], *map(int, sys.argv[2:])
with open(f, "ab") as o:
    o.write(struct.pack(">BBBBB3xI", a, h, i, s, k, n))
    o.write(b"~Module signature appended~\n")
PY
}

sign_sample() { # name hash [key] [sign-file flags...]
	local name=$1 hash=$2 key=${3:-rsa2048}
	shift 3 || shift $#
	"$TOP/tests/fixtures/make-module.sh" "$name" sample
	"$SIGN_FILE" "$@" "$hash" "$KEYS/$key.key" "$KEYS/$key.crt" "$name"
}

@test "the body extracted with --body-stdout is exactly the unsigned input" {
	"$TOP/tests/fixtures/make-module.sh" orig.ko
	cp orig.ko m.ko
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --body-stdout m.ko > body
	cmp body orig.ko
}

@test "--body-out and --sig-out write the parts; the blob is the .p7s sign-file -p keeps" {
	make_module orig.ko 100000
	cp orig.ko m.ko
	"$SIGN_FILE" -p sha512 "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" m.ko
	run "$EXTRACT_SIG" -q --body-out body --sig-out sig m.ko
	assert_success
	assert_output ""
	cmp body orig.ko
	cmp sig m.ko.p7s
}

@test "--sig-stdout writes the blob to stdout and openssl cms verifies it over the body" {
	make_module m.ko 4096
	"$SIGN_FILE" sha256 "$KEYS/ec384.key" "$KEYS/ec384.crt" m.ko
	"$EXTRACT_SIG" --sig-stdout m.ko > sig
	"$EXTRACT_SIG" --body-stdout m.ko > body
	run openssl cms -verify -binary -inform DER -in sig -content body \
		-certfile "$KEYS/ec384.crt" -nointern -noverify -out /dev/null
	assert_success
}

@test "only the last trailer is split off a twice-signed file" {
	need_reference
	make_module m.ko 1000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko once.ko
	"$SIGN_FILE" --replace sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	cat once.ko > twice-input
	# the kernel tool would append a second trailer; build that by hand
	need_reference
	"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" once.ko twice.ko
	"$EXTRACT_SIG" --body-stdout twice.ko > body
	cmp body once.ko
}

@test "--descriptor prints the descriptor fields as extract-module-sig.pl -d" {
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	siglen=$(( $(stat -c %s m.ko) - 200 - 40 ))
	run "$EXTRACT_SIG" --descriptor m.ko
	assert_success
	assert_output "0 0 2 0 0 $siglen"
}

@test "the description names issuer, serial, hash, algorithm and key type" {
	make_module m.ko 200
	"$SIGN_FILE" sha384 "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" m.ko
	serial=$(openssl x509 -in "$KEYS/rsa4096.crt" -noout -serial | cut -d= -f2 |
		tr A-F a-f | sed 's/^0*//')
	# names as stored, "key=value" joined by ", " (openssl's sname form)
	issuer=$(openssl x509 -in "$KEYS/rsa4096.crt" -noout -issuer \
		-nameopt esc_ctrl,utf8,sep_comma_plus_space,sname | cut -d= -f2-)
	run "$EXTRACT_SIG" -c "$KEYS/rsa4096.crt" m.ko
	assert_success
	assert_line "id type:          PKCS#7 (2)"
	assert_line "signers:          1"
	assert_line "  identified by:  issuer and serial number"
	assert_line "  signer:         modsign test RSA-4096 key"
	assert_line "  issuer:         $issuer"
	assert_line "  serial:         $serial"
	assert_line "  hash:           sha384"
	assert_line "  signature alg:  rsaEncryption"
	assert_line "  signature:      512 bytes"
	assert_line "  signed attrs:   none"
	assert_line "  key:            RSA-4096 (certificate: $KEYS/rsa4096.crt)"
}

@test "a -k signature is described by its subjectKeyIdentifier" {
	make_module m.ko 200
	"$SIGN_FILE" -k sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" m.ko
	skid=$(openssl x509 -in "$KEYS/ec256.crt" -noout -ext subjectKeyIdentifier |
		tail -1 | tr -d ' :' | tr A-F a-f)
	run "$EXTRACT_SIG" -c "$KEYS/ec256.crt" m.ko
	assert_success
	assert_line "  identified by:  subjectKeyIdentifier"
	assert_line "  skid:           $skid"
	assert_line "  signature alg:  ecdsa-with-SHA256"
	assert_line "  key:            ECDSA-P256 (certificate: $KEYS/ec256.crt)"
}

@test "a -k signer is named by its certificate's CN in extract-sig's text and JSON, sign-file's JSON and verify-file's, as the kernel's key name" {
	make_module m.ko 200
	run -0 "$SIGN_FILE" --batch --json -k sha256 "$KEYS/ec256.key" \
		"$KEYS/ec256.crt" m.ko
	assert_line -n 0 --partial '"signer_id":"skid","issuer":null,"serial":null,'
	assert_line -n 0 --partial '"signer":"modsign test ECDSA P-256 key",'
	run -0 "$EXTRACT_SIG" --json -c "$KEYS/ec256.crt" m.ko
	assert_output --partial '"signer":"modsign test ECDSA P-256 key",'
	# modinfo shows no signer for it: the text says which certificate
	run -0 "$EXTRACT_SIG" -c "$KEYS/ec256.crt" m.ko
	refute_line --partial "  signer:"
	assert_line "  certificate:    O=modsign test, CN=modsign test ECDSA P-256 key"
	assert_line "  issuer:         O=modsign test, CN=modsign test ECDSA P-256 key"
	run -0 "$VERIFY_FILE" --json -c "$KEYS/ec256.crt" m.ko
	assert_output --partial '"signer":"modsign test ECDSA P-256 key",'
	assert_output --partial '"modinfo_signer":null,'
	run -0 "$VERIFY_FILE" -c "$KEYS/ec256.crt" m.ko
	assert_output --partial 'certificate "modsign test ECDSA P-256 key", issuer "modsign test ECDSA P-256 key",'
	# without the certificate nothing names it
	run -0 "$EXTRACT_SIG" --json m.ko
	assert_output --partial '"signer":null,'
}

@test "--json describes the signature as one JSON object" {
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --json -c "$KEYS/rsa2048.der" m.ko > out.json
	run python3 - out.json "$KEYS/rsa2048.der" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
s = o["signers"][0]
assert o["id_type"] == "PKCS#7", o
assert o["body_size"] == 200 and o["signature_offset"] == 200, o
assert o["signature_size"] + 240 == o["file_size"], o
assert o["signer_count"] == 1 and o["detached"] is True, o
assert s["signer_id"] == "issuer-and-serial" and s["skid"] is None, s
assert s["signer"] == "modsign test RSA-2048 key", s
assert s["hash"] == "sha256" and s["signature_algorithm"] == "rsaEncryption", s
assert s["signed_attributes"] is False and s["key_type"] == "RSA-2048", s
assert s["index"] == 1 and s["trusted"] is True, s
assert s["key_description"] == "modsign test RSA-2048 key: 52becfe834406c10d9bcf8d61d7d192348b534db", s
assert s["certificate"] == sys.argv[2], s
print("ok")
PY
	assert_success
	assert_output "ok"
}

@test "a CA-issued certificate: signer is kmod's (the CA) only in modinfo's place; elsewhere certificate and issuer" {
	"$TOP/tests/fixtures/make-module.sh" m.ko
	"$SIGN_FILE" sha256 "$KEYS/rsa-by-mldsa65.key" "$KEYS/rsa-by-mldsa65.crt" m.ko
	local leaf="RSA-2048 key, ML-DSA-65-signed certificate"
	local ca="modsign test ML-DSA-65 key"
	# kmod's signer is the SignerInfo's issuer: the CA, not the key
	run -0 modinfo -F signer m.ko
	assert_output "$ca"
	run -0 "$EXTRACT_SIG" --modinfo=signer m.ko
	assert_output "$ca"
	run -0 "$VERIFY_FILE" -c "$KEYS/rsa-by-mldsa65.crt" m.ko
	assert_output --partial "m.ko: OK (sha256, RSA-2048, certificate \"$leaf\", issuer \"$ca\", key "
	refute_output --partial "signer"
	run -0 "$EXTRACT_SIG" -c "$KEYS/rsa-by-mldsa65.crt" m.ko
	assert_line "  signer:         $ca"
	assert_line "  certificate:    O=modsign test, CN=$leaf"
	for tool in "$VERIFY_FILE" "$EXTRACT_SIG"; do
		run -0 "$tool" --json -c "$KEYS/rsa-by-mldsa65.crt" m.ko
		run -0 python3 -c '
import json, sys
s = json.loads(sys.argv[1])["signers"][0]
assert s["certificate_subject"] == "O=modsign test, CN=" + sys.argv[2], s
assert s["certificate_issuer"] == "O=modsign test, CN=" + sys.argv[3], s
assert s["modinfo_signer"] == sys.argv[3], s
assert s["signer"] == sys.argv[3], s	# the old key, one release
print("ok")' "$output" "$leaf" "$ca"
		assert_output ok
	done
}

modinfo_matches() { # file
	local f
	for f in sig_id signer sig_key sig_hashalgo signature; do
		diff <("$EXTRACT_SIG" --modinfo="$f" "$1") <(modinfo -F "$f" "$1") ||
			{ echo "field $f differs"; return 1; }
	done
	diff <("$EXTRACT_SIG" --modinfo "$1") <(modinfo "$1" | sed -n '/^sig_id:/,$p')
}

@test "--modinfo equals kmod modinfo, field by field (RSA, every hash)" {
	# kmod 30 shows no fields for SHA-3 digests: that must match too
	for h in sha1 sha224 sha256 sha384 sha512 sha3-256 sha3-512; do
		sign_sample "m-$h.ko" "$h" rsa2048
		modinfo_matches "m-$h.ko"
	done
}

@test "--modinfo equals kmod modinfo for RSA-4096 and ECDSA signatures" {
	sign_sample m4096.ko sha512 rsa4096
	modinfo_matches m4096.ko
	sign_sample mec.ko sha384 ec384
	modinfo_matches mec.ko
}

@test "--modinfo shows no fields for a -k signature, as modinfo" {
	sign_sample mk.ko sha256 rsa2048 -k
	run modinfo -F sig_id mk.ko
	assert_output ""
	run "$EXTRACT_SIG" --modinfo mk.ko
	assert_success
	assert_output ""
}

@test "an unsigned file: exit 3 and the reason" {
	make_module m.ko 200
	run "$EXTRACT_SIG" m.ko
	assert_failure 3
	assert_output "extract-sig: m.ko: not signed (no signature magic at the end)"
}

@test "one byte after the magic means unsigned" {
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	printf '\n' >> m.ko
	run "$EXTRACT_SIG" --body-stdout m.ko
	assert_failure 3
}

@test "a truncated trailer: exit 6, never a crash" {
	printf 'abcde~Module signature appended~\n' > m.ko
	run "$EXTRACT_SIG" m.ko
	assert_failure 6
	assert_output "extract-sig: m.ko: signature descriptor truncated"
}

@test "a signature length larger than the file: exit 6" {
	make_module m.ko 200
	append_trailer m.ko 0 0 2 0 0 4000000000
	run "$EXTRACT_SIG" m.ko
	assert_failure 6
	assert_output "extract-sig: m.ko: signature length exceeds the file"
}

@test "a PKCS#7 trailer around garbage: exit 6" {
	make_module m.ko 200
	head -c 64 /dev/zero >> m.ko
	append_trailer m.ko 0 0 2 0 0 64
	run "$EXTRACT_SIG" m.ko
	assert_failure 6
	assert_output "extract-sig: m.ko: signature blob is not a CMS/PKCS#7 SignedData message"
}

@test "a legacy X.509 trailer: split and shown, exit 5 with the reason" {
	make_module m.ko 200
	printf 'Legacy signer' >> m.ko      # 13-byte signer name
	printf '\x01\x02\x03\x04' >> m.ko   # 4-byte key id
	head -c 32 /dev/zero >> m.ko         # 32-byte raw signature
	append_trailer m.ko 1 4 1 13 4 32
	run "$EXTRACT_SIG" m.ko
	assert_failure 5
	assert_line "id type:          X509 (1)"
	assert_line "extract-sig: m.ko: signature id type 1 (X509) is not PKCS#7: the legacy pre-4.3 format, which kernels refuse (ENOPKG)"
	"$EXTRACT_SIG" --body-stdout m.ko > body
	[ "$(stat -c %s body)" = 200 ]
	run "$EXTRACT_SIG" --modinfo=signer m.ko
	assert_output --partial "Legacy signer"
	run "$EXTRACT_SIG" --modinfo=sig_hashalgo m.ko
	assert_output --partial "sha256"
}

@test "an unknown id type: exit 5 with the reason" {
	make_module m.ko 200
	head -c 16 /dev/zero >> m.ko
	append_trailer m.ko 0 0 7 0 0 16
	run "$EXTRACT_SIG" m.ko
	assert_failure 5
	assert_line "extract-sig: m.ko: unknown signature id type 7: not a PKCS#7 module signature (the kernel says ENOPKG)"
}

@test "usage errors exit 2: two outputs, no file, unknown modinfo field" {
	run "$EXTRACT_SIG" --body-stdout --sig-stdout x.ko
	assert_failure 2
	run "$EXTRACT_SIG"
	assert_failure 2
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run "$EXTRACT_SIG" --modinfo=bogus m.ko
	assert_failure 2
	assert_output --partial "unknown modinfo field 'bogus'"
}

@test "a missing file or a directory: exit 7 naming it" {
	run "$EXTRACT_SIG" nothere.ko
	assert_failure 7
	assert_output "extract-sig: nothere.ko: No such file or directory"
	mkdir d.ko
	run "$EXTRACT_SIG" d.ko
	assert_failure 7
	assert_output "extract-sig: d.ko: Is a directory"
}

@test "a certificate that is not one: exit 9 naming it" {
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run "$EXTRACT_SIG" -c "$KEYS/rsa2048.key" m.ko
	assert_failure 9
	assert_output "extract-sig: $KEYS/rsa2048.key: not an X.509 certificate (expected DER or PEM)"
}

@test "a certificate that cannot be read: exit 9 naming it and why" {
	make_module m.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run "$EXTRACT_SIG" -c absent.crt m.ko
	assert_failure 9
	assert_output "extract-sig: absent.crt: No such file or directory"
}

@test "extract-sig reads a certificate without the signing stack: no ENGINE, OSSL_STORE or provider loading linked" {
	run nm -D --undefined-only "$EXTRACT_SIG"
	assert_success
	assert_output --partial "X509_free"
	refute_output --regexp "ENGINE_|OSSL_STORE_|OSSL_PROVIDER_|UI_"
}

@test "--help and --version go to stdout and succeed" {
	run "$EXTRACT_SIG" --help
	assert_success
	assert_line --partial "Usage: extract-sig"
	run "$EXTRACT_SIG" --version
	assert_success
	assert_line --index 0 --regexp '^extract-sig \(modsign\) [0-9.]+$'
}

# --- detached signatures, many files, the -c signer, signed twice ---

@test "a detached .p7s is described alone, and with its file via --sig or --detached" {
	make_module m.ko 4096
	"$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run -0 --separate-stderr "$EXTRACT_SIG" m.ko.p7s
	assert_line "file:             m.ko.p7s"
	assert_line --regexp "^signature: +detached, m.ko.p7s \\($(stat -c %s m.ko.p7s) bytes, no descriptor or magic\\)$"
	assert_line "  signer:         modsign test RSA-2048 key"
	run -0 --separate-stderr "$EXTRACT_SIG" --sig m.ko.p7s m.ko
	assert_line "file:             m.ko (4096 bytes)"
	assert_line "body:             0..4096 (4096 bytes, the whole file)"
	assert_line "  signer:         modsign test RSA-2048 key"
	run -0 --separate-stderr "$EXTRACT_SIG" --json --detached m.ko
	run python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["file"] == "m.ko" and o["signature_file"] == "m.ko.p7s", o
assert o["body_size"] == 4096 and o["descriptor"] is None, o
assert o["signers"][0]["signer"] == "modsign test RSA-2048 key", o' "$output"
	assert_success
	# --sig FILE is no longer an output: nothing is written over it
	run -7 --separate-stderr "$EXTRACT_SIG" --sig nothere.p7s m.ko
	assert_equal "$stderr" "extract-sig: m.ko: cannot read the detached signature nothere.p7s: No such file or directory (give it with --sig)"
	assert_file_not_exists nothere.p7s
}

@test "several files and -r: one description, or JSON object, per file; an unreadable one is an ERROR object" {
	mkdir -p tree/sub
	make_module tree/a.ko 4096
	make_module tree/sub/b.ko 3000
	make_module tree/u.ko 200
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" tree/a.ko
	"$SIGN_FILE" sha384 "$KEYS/ec256.key" "$KEYS/ec256.crt" tree/sub/b.ko
	run -0 --separate-stderr "$EXTRACT_SIG" tree/a.ko tree/sub/b.ko
	assert_equal "$(grep -c '^file:' <<< "$output")" 2
	assert_line "  hash:           sha256"
	assert_line "  hash:           sha384"
	# the worst exit wins: unreadable (7) over unsigned (3)
	run -7 --separate-stderr "$EXTRACT_SIG" -j 2 --json tree/a.ko missing.ko tree/u.ko
	assert_equal "${#lines[@]}" 3
	run python3 -c 'import json, sys
a, m, u = (json.loads(l) for l in sys.argv[1:])
assert a["file"] == "tree/a.ko" and a["signers"][0]["hash"] == "sha256", a
assert m == {"file": "missing.ko", "verdict": "ERROR", "errno": "ENOENT",
             "reason": "No such file or directory"}, m
assert u["file"] == "tree/u.ko" and u["verdict"] == "ERROR", u
assert u["errno"] == "ENODATA", u' "${lines[@]}"
	assert_success
	run -3 --separate-stderr "$EXTRACT_SIG" --json -r tree
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --partial '"file":"tree/a.ko"'
	assert_line --index 1 --partial '"file":"tree/sub/b.ko"'
	assert_line --index 2 --partial '"file":"tree/u.ko","verdict":"ERROR"'
	assert_line --index 3 '{"summary":{"files":3,"signed":2,"unsigned":1,"malformed":0,"unreadable":0,"exit":3}}'
	# splitting takes one file
	run -2 "$EXTRACT_SIG" --body-stdout tree/a.ko tree/sub/b.ko
	assert_line --index 0 --partial "take exactly one FILE"
}

@test "-c with a certificate that did not sign it: a warning, a line and a JSON field" {
	make_module m.ko 4096
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	run -0 --separate-stderr "$EXTRACT_SIG" -c "$KEYS/ec256.crt" m.ko
	assert_equal "$stderr" "extract-sig: warning: $KEYS/ec256.crt: not the signer of m.ko (neither issuer and serial nor subjectKeyIdentifier match a signer)"
	assert_line "given certificate: $KEYS/ec256.crt: NOT this signature's signer (neither issuer and serial nor subjectKeyIdentifier match)"
	assert_line "  key:            unknown (give the signer's certificate with -c)"
	run -0 --separate-stderr "$EXTRACT_SIG" --json -c "$KEYS/ec256.crt" m.ko
	assert_output --partial "\"given_certificate\":{\"file\":\"$KEYS/ec256.crt\",\"is_signer\":false}"
	# the right one: no warning, and said so
	run -0 --separate-stderr "$EXTRACT_SIG" -c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$stderr" ""
	assert_line "given certificate: $KEYS/rsa2048.crt: a signer's"
	run -0 --separate-stderr "$EXTRACT_SIG" --json -c "$KEYS/rsa2048.crt" m.ko
	assert_output --partial "\"given_certificate\":{\"file\":\"$KEYS/rsa2048.crt\",\"is_signer\":true}"
	run -0 --separate-stderr "$EXTRACT_SIG" --json m.ko
	assert_output --partial '"given_certificate":null'
	# -k signatures name the signer by SKID: compared the same way
	make_module k.ko 4096
	"$SIGN_FILE" -k sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" k.ko
	run -0 --separate-stderr "$EXTRACT_SIG" -c "$KEYS/ec256.crt" k.ko
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$EXTRACT_SIG" -c "$KEYS/rsa2048.crt" k.ko
	[[ "$stderr" == *"not the signer of k.ko"* ]]
}

@test "a body that still holds an older signature is flagged as signed twice" {
	make_module m.ko 4096
	cp m.ko once.ko
	"$SIGN_FILE" -p sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" once.ko
	# a second trailer on top of the first, as a tool that does not
	# refuse signed input writes it
	cp once.ko twice.ko
	cat once.ko.p7s >> twice.ko
	append_trailer twice.ko 0 0 2 0 0 "$(stat -c %s once.ko.p7s)"
	run -0 --separate-stderr "$EXTRACT_SIG" twice.ko
	assert_equal "$stderr" "extract-sig: warning: twice.ko: signed twice: the body still ends with an older signature"
	assert_line --regexp '^signed twice: +yes: the body still ends with an older signature'
	run -0 --separate-stderr "$EXTRACT_SIG" --json twice.ko
	assert_output --partial '"signed_twice":true'
	run -0 --separate-stderr "$EXTRACT_SIG" --json once.ko
	assert_output --partial '"signed_twice":false'
	run -0 --separate-stderr "$EXTRACT_SIG" once.ko
	refute_output --partial "signed twice"
}

@test "a usage error is one line, then the --help hint, not the usage block" {
	run --separate-stderr "$EXTRACT_SIG"
	assert_failure 2
	assert_equal "$stderr" "extract-sig: no FILE to describe
Try 'extract-sig --help' for the usage."
}

@test "-r and --files-from end with a summary, as verify-file's, in text and JSON with the exit status" {
	mkdir tree
	make_module tree/a.ko 4096
	make_module tree/b.ko 4096
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" tree/a.ko
	run --separate-stderr "$EXTRACT_SIG" -r tree
	assert_failure 3
	assert_line --index -1 "summary: 2 files: 1 signed, 1 unsigned, 0 malformed, 0 unreadable"
	run --separate-stderr "$EXTRACT_SIG" --json -r tree
	assert_failure 3
	assert_line --index -1 '{"summary":{"files":2,"signed":1,"unsigned":1,"malformed":0,"unreadable":0,"exit":3}}'
	printf 'tree/a.ko\n' >list
	run --separate-stderr "$EXTRACT_SIG" --files-from list
	assert_success
	assert_line --index -1 "summary: 1 files: 1 signed, 0 unsigned, 0 malformed, 0 unreadable"
	# -q prints nothing, summary included
	run --separate-stderr "$EXTRACT_SIG" -q -r tree
	assert_failure 3
	assert_output ""
}
