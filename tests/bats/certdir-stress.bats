#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file -k DIR on a directory of thousands of entries, most of them
# copies and links of a few dozen certificates, among them every kind of
# entry that is not a certificate file: the good certificates all load
# (each once), the module verifies, nothing blocks, and what gave nothing
# is one line by default and one line per entry with -v.

load helpers
bats_require_minimum_version 1.5.0

NGEN=50		# distinct generated certificates
NCOPY=3000	# copies and hard links of the good certificates
NLINK=10	# symbolic links to good certificates

# The non-UTF-8 name, and a name with a newline in it.
NONUTF8=$(printf 'only-\377\376.crt')
NEWLINE=$(printf 'bad\nname.crt')

setup_file() {
	local d="$BATS_FILE_TMPDIR/certs" g="$BATS_FILE_TMPDIR/gen" i
	mkdir -p "$d" "$g"
	# ECDSA P-256 is quick to make; 52 of them take well under a second.
	# 51 sits in the directory only under the non-UTF-8 name, 52 only in
	# a subdirectory, which -k does not search.
	for i in $(seq 1 $((NGEN + 2))); do
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
			-nodes -keyout "$g/$i.key" -out "$g/$i.crt" -days 3650 \
			-subj "/O=modsign stress/CN=stress key $i" \
			-addext keyUsage=digitalSignature 2>/dev/null || return 1
	done
	for i in $(seq 1 "$NGEN"); do
		cp "$g/$i.crt" "$d/gen-$(printf %02d "$i").pem"
	done
	# "00-" so that these sort before their copies: verdicts name them.
	cp "$KEYS/rsa2048.crt" "$d/00-rsa2048.crt"
	cp "$KEYS/ec256.der" "$d/00-ec256.der"
	cp "$g/$((NGEN + 1)).crt" "$d/$NONUTF8"
	mkdir "$d/subdir"
	cp "$g/$((NGEN + 2)).crt" "$d/subdir/"
	# Copies (odd) and hard links (even) of the good ones, and a few
	# symbolic links: 3010 repeats, none of them a problem.
	python3 - "$d" "$NCOPY" "$NLINK" <<'PY' || return 1
import os, shutil, sys
d, ncopy, nlink = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
good = sorted(f for f in os.listdir(d) if f.startswith(("gen-", "00-")))
for j in range(ncopy):
    src, dst = os.path.join(d, good[j % len(good)]), os.path.join(d, "copy-%04d.crt" % j)
    (os.link if j % 2 == 0 else shutil.copyfile)(src, dst)
for j in range(nlink):
    os.symlink(good[j], os.path.join(d, "link-%02d.crt" % j))
PY
	# A copy nobody may read: root reads it anyway, unless the test
	# drops CAP_DAC_OVERRIDE (then it is the one unreadable entry).
	cp "$KEYS/rsa2048.crt" "$d/noperm.crt"
	chmod 000 "$d/noperm.crt"

	# Entries that give nothing, 14 of them, 15 with the device.
	: > "$d/empty.crt"
	for i in 1 2 3 4; do
		# "G" first: random bytes must not pass for DER framing
		{ printf G; head -c $((i * 300)) /dev/urandom; } > "$d/garbage-$i.bin"
	done
	# DER framing that claims more bytes than the file has
	printf '\060\202\377\377' > "$d/garbage-der.der"
	head -c 100 /dev/urandom >> "$d/garbage-der.der"
	cp "$KEYS/rsa2048.key" "$d/signing.key"
	ln -s "$d/nonexistent.crt" "$d/dangling.crt"
	ln -s loop-b.crt "$d/loop-a.crt"
	ln -s loop-a.crt "$d/loop-b.crt"
	mkfifo "$d/fifo.crt"
	python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/socket.crt" || return 1
	truncate -s 17M "$d/huge.crt"
	{ printf G; head -c 200 /dev/urandom; } > "$d/$NEWLINE"
	# a device node of our own as root, a link to /dev/null otherwise
	mknod "$d/device.crt" c 1 3 2>/dev/null || ln -s /dev/null "$d/device.crt"
	NPROBLEM=16
	# Two files whose certificate is left out: a PEM whose base64 is
	# damaged, and one the kernel's parser refuses (GeneralizedTime
	# before 2050).
	sed '3s/^..../!!!!/' "$g/1.crt" > "$d/corrupt.pem"
	cp "$TOP/tests/fixtures/conformance/keys/gentime.crt" "$d/gentime.crt"
	echo "$NPROBLEM" > "$BATS_FILE_TMPDIR/nproblem"
	[ "$(ls -A "$d" | wc -l)" -gt "$NCOPY" ]
}

setup() {
	W="$BATS_TEST_TMPDIR"
	D="$BATS_FILE_TMPDIR/certs"
	G="$BATS_FILE_TMPDIR/gen"
	NPROBLEM=$(cat "$BATS_FILE_TMPDIR/nproblem")
	cd "$W" || return 1
	# a writer waits on the FIFO: a load that opened it would get a
	# byte and an end instead of blocking, and teardown would fail
	fifo_for_reading "$D/fifo.crt"
}

teardown() {
	fifo_release "$D/fifo.crt"
}

# sign NAME KEY CERT: NAME.ko signed with sign-file
sign() {
	copy_module "$1.ko" 4096 &&
		"$SIGN_FILE" sha256 "$2" "$3" "$1.ko"
}

@test "3000+ entries: the module verifies, named by the first file of its certificate" {
	sign m "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt"
	run --separate-stderr "$VERIFY_FILE" -k "$D" m.ko
	assert_success
	assert_output --regexp "^m\.ko: OK \(sha256, RSA-2048, certificate \"modsign test RSA-2048 key\", issuer \"modsign test RSA-2048 key\", key [0-9a-f]{40}, cert $D/00-rsa2048\.crt\)$"
}

@test "every distinct good certificate is loaded, each once" {
	local i mods=()
	run --separate-stderr "$VERIFY_FILE" -k "$D" --list-keys
	assert_success
	# 50 generated, rsa2048, ec256, the one under a non-UTF-8 name
	assert_line "$((NGEN + 3)) trusted, 0 platform, 0 revocation keys; 0 blacklist hashes"
	[ "$(grep -c "^Loaded X.509 cert" <<<"$output")" -eq $((NGEN + 3)) ]
	for i in $(seq 1 "$NGEN"); do
		sign "m$i" "$G/$i.key" "$G/$i.crt" || return 1
		mods+=("m$i.ko")
	done
	sign e "$KEYS/ec256.key" "$KEYS/ec256.crt"
	run --separate-stderr "$VERIFY_FILE" -k "$D" "${mods[@]}" e.ko
	assert_success
	[ "$(grep -c ': OK (' <<<"$output")" -eq $((NGEN + 1)) ]
	assert_line --partial "m1.ko: OK (sha256, ECDSA-P256, certificate \"stress key 1\""
	assert_line --partial "m$NGEN.ko: OK (sha256, ECDSA-P256, certificate \"stress key $NGEN\""
	assert_line --partial "e.ko: OK (sha256, ECDSA-P256, certificate \"modsign test ECDSA P-256 key\", issuer \"modsign test ECDSA P-256 key\""
}

@test "without -v, what gave nothing is one line on stderr, repeats none" {
	sign m "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt"
	run --separate-stderr "$VERIFY_FILE" -k "$D" m.ko
	assert_success
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = "verify-file: warning: $D: $NPROBLEM entries loaded nothing, 2 certificates left out; run with -v to name each and say why" ]
}

@test "-v names each problem entry once with its reason, and no repeat" {
	sign m "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt"
	run --separate-stderr "$VERIFY_FILE" -v -k "$D" m.ko
	assert_success
	assert_output --partial "m.ko: OK"
	# the assertions below are on stderr
	output=$stderr
	lines=("${stderr_lines[@]}")
	assert_line "verify-file: $D/empty.crt: skipped: no certificate in the file"
	assert_line "verify-file: $D/garbage-1.bin: skipped: no certificate in the file"
	assert_line "verify-file: $D/garbage-der.der: skipped: no certificate in the file"
	assert_line "verify-file: $D/signing.key: skipped: no certificate in the file"
	assert_line "verify-file: $D/dangling.crt: skipped: a dangling symbolic link"
	assert_line "verify-file: $D/loop-a.crt: skipped: a symbolic link loop"
	assert_line "verify-file: $D/fifo.crt: skipped: a FIFO, not a regular file (not opened)"
	assert_line "verify-file: $D/socket.crt: skipped: a socket, not a regular file (not opened)"
	assert_line "verify-file: $D/subdir: skipped: a directory (-k does not descend into it)"
	assert_line "verify-file: $D/huge.crt: skipped: larger than 16 MiB: not a certificate file"
	# the newline in the name is escaped: one entry, one line
	assert_line "verify-file: $D/bad\\012name.crt: skipped: no certificate in the file"
	assert_line "verify-file: $D/corrupt.pem: certificate 1 left out: -EBADMSG: corrupt PEM block (bad base64 or no END line); nothing after it in the file was read"
	assert_line --regexp "^verify-file: $D/gentime\.crt: certificate 1 left out: -EBADMSG: "
	[ "$(grep -c ': skipped: ' <<<"$stderr")" -eq "$NPROBLEM" ]
	[ "$(grep -c ' left out: ' <<<"$stderr")" -eq 2 ]
	refute_line --partial "copy-"
	refute_line --partial "link-"
	assert_line "verify-file: $D: $((NGEN + 3)) certificates loaded, $((NCOPY + NLINK + 1)) repeats of one already loaded (not an error)"
	assert_line "verify-file: warning: $D: $NPROBLEM entries loaded nothing, 2 certificates left out; each is named above"
	[ "${#stderr_lines[@]}" -eq $((NPROBLEM + 4)) ]
}

@test "the certificate under a non-UTF-8 name loads and is named byte for byte" {
	sign m "$G/$((NGEN + 1)).key" "$G/$((NGEN + 1)).crt"
	run --separate-stderr "$VERIFY_FILE" -k "$D" m.ko
	assert_success
	[[ "$output" == "m.ko: OK ("*", cert $D/$NONUTF8)" ]]
}

@test "a certificate in a subdirectory is not trusted" {
	sign m "$G/$((NGEN + 2)).key" "$G/$((NGEN + 2)).crt"
	run --separate-stderr "$VERIFY_FILE" -k "$D" m.ko
	assert_failure 4
	assert_output --partial "m.ko: UNKNOWN-KEY -ENOKEY"
	run --separate-stderr "$VERIFY_FILE" -k "$D/subdir" m.ko
	assert_success
}

@test "a file root cannot read (mode 000 without DAC override) is named, the rest loads" {
	can_drop_dac_override || skip "cannot drop CAP_DAC_OVERRIDE here"
	sign m "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt"
	run --separate-stderr without_dac_override "$VERIFY_FILE" -v -k "$D" m.ko
	assert_success
	assert_output --partial "m.ko: OK"
	[[ "$stderr" == *"verify-file: $D/noperm.crt: skipped: Permission denied"* ]]
	[[ "$stderr" == *"verify-file: warning: $D: $((NPROBLEM + 1)) entries loaded nothing, 2 certificates left out"* ]]
}

@test "a PEM file with a damaged block keeps the certificates before it" {
	cat "$G/1.crt" "$D/corrupt.pem" "$G/2.crt" > two.pem
	sign m1 "$G/1.key" "$G/1.crt"
	sign m2 "$G/2.key" "$G/2.crt"
	run --separate-stderr "$VERIFY_FILE" -v -c two.pem m1.ko m2.ko
	assert_failure 4
	assert_line --partial "m1.ko: OK"
	assert_line --partial "m2.ko: UNKNOWN-KEY"
	[[ "$stderr" == *"two.pem: certificate 2 left out: -EBADMSG: corrupt PEM block"* ]]
}
