#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sign-file --batch and verify-file over many files: one key load, a
# shared queue of workers, results in input order, per-file verdicts.

load helpers
bats_require_minimum_version 1.5.0

K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

# n modules of different sizes (the big ones first, so that under -j the
# small ones finish first and order has to be restored).
make_tree() { # n
	local i
	for i in $(seq 1 "$1"); do
		copy_module "m$i.ko" $(( (($1 - i) * 37 % 11 + 1) * 9000 + i ))
	done
}

@test "batch output is byte-identical to signing each file alone" {
	make_tree 12
	for i in $(seq 1 12); do
		"$SIGN_FILE" "${K[@]}" "m$i.ko" "one$i.ko"
	done
	run "$SIGN_FILE" --batch -j 3 "${K[@]}" m*.ko
	assert_success
	for i in $(seq 1 12); do
		cmp "one$i.ko" "m$i.ko"
	done
}

@test "batch output is byte-identical to the kernel's sign-file" {
	need_reference
	make_tree 5
	for i in $(seq 1 5); do
		"$REF_SIGN_FILE" "${K[@]}" "m$i.ko" "ref$i.ko"
	done
	run "$SIGN_FILE" --batch "${K[@]}" m1.ko m2.ko m3.ko m4.ko m5.ko
	assert_success
	for i in $(seq 1 5); do
		cmp "ref$i.ko" "m$i.ko"
	done
}

@test "results come in input order under -j, then a summary" {
	make_tree 30
	order=$(seq 1 30 | shuf --random-source=<(yes) | sed 's/.*/m&.ko/')
	for j in 1 2 5; do
		rm -f m*.ko
		make_tree 30
		run "$SIGN_FILE" --batch -j "$j" "${K[@]}" $order
		assert_success
		expected=$(printf '%s: signed\n' $order)
		assert_output "$expected
summary: 30 files: 30 signed, 0 already signed, 0 failed"
	done
}

@test "--files-from - reads names a line each" {
	make_tree 4
	run --separate-stderr "$SIGN_FILE" --batch --files-from - "${K[@]}" <<< $'m3.ko\nm1.ko\n\nm2.ko'
	assert_success
	assert_line -n 0 "m3.ko: signed"
	assert_line -n 1 "m1.ko: signed"
	assert_line -n 2 "m2.ko: signed"
	assert_line -n 3 "summary: 3 files: 3 signed, 0 already signed, 0 failed"
	refute ends_with_sig_magic m4.ko
	ends_with_sig_magic m1.ko
}

@test "--files-from FILE -0 takes names with newlines and spaces" {
	copy_module $'odd\nname.ko' 20000
	copy_module 'with space.ko' 20000
	copy_module m.ko 20000
	printf 'odd\nname.ko\0with space.ko\0' > list
	run "$SIGN_FILE" --batch --files-from list -0 "${K[@]}" m.ko
	assert_success
	assert_line -n 0 "m.ko: signed"
	# the newline quoted as ls quotes it: one line a file
	assert_line -n 1 "'odd'\$'\\n''name.ko': signed"
	assert_line -n 2 "with space.ko: signed"
	ends_with_sig_magic $'odd\nname.ko'
	ends_with_sig_magic 'with space.ko'
	ends_with_sig_magic m.ko
}

@test "bad files get their line and code; the others are signed" {
	make_tree 4
	"$SIGN_FILE" "${K[@]}" m2.ko
	mkdir adir
	copy_module c.ko 30000
	xz --check=crc32 -f c.ko
	head -c 200 c.ko.xz > bad.ko.xz
	for i in 1 3 4; do cp "m$i.ko" "orig$i.ko"; done
	cp m2.ko signed2.ko
	run --separate-stderr "$SIGN_FILE" --batch -j 2 "${K[@]}" \
		m1.ko missing.ko m2.ko adir m3.ko bad.ko.xz m4.ko
	assert_failure 7
	assert_output "m1.ko: signed
missing.ko: FAILED (exit 7)
m2.ko: already signed, refused (exit 8)
adir: FAILED (exit 7)
m3.ko: signed
bad.ko.xz: FAILED (exit 6)
m4.ko: signed
summary: 7 files: 3 signed, 1 already signed, 3 failed"
	[ "${stderr_lines[0]}" = "sign-file: missing.ko: No such file or directory" ]
	[ "${stderr_lines[1]}" = "sign-file: m2.ko: already signed (use --replace or --skip-signed)" ]
	[ "${stderr_lines[2]}" = "sign-file: adir: Is a directory" ]
	[[ "${stderr_lines[3]}" == "sign-file: bad.ko.xz: cannot decompress: "* ]]
	for i in 1 3 4; do
		"$SIGN_FILE" "${K[@]}" "orig$i.ko" "want$i.ko"
		cmp "want$i.ko" "m$i.ko"
	done
	cmp signed2.ko m2.ko
	# nothing half-written is left behind
	[ -z "$(ls -A | grep '^\.')" ]
}

@test "the most severe exit code wins, whatever the order" {
	make_tree 2
	"$SIGN_FILE" "${K[@]}" m1.ko
	run "$SIGN_FILE" --batch "${K[@]}" m1.ko m2.ko
	assert_failure 8
	run "$SIGN_FILE" --batch "${K[@]}" nosuch.ko m1.ko
	assert_failure 7
	run "$SIGN_FILE" --batch "${K[@]}" m1.ko nosuch.ko
	assert_failure 7
}

@test "--skip-signed and --replace apply per file" {
	make_tree 3
	"$SIGN_FILE" "${K[@]}" m2.ko
	cp m2.ko keep2.ko
	run "$SIGN_FILE" --batch --skip-signed "${K[@]}" m1.ko m2.ko m3.ko
	assert_success
	assert_line -n 1 "m2.ko: already signed, left unchanged"
	assert_line -n 3 "summary: 3 files: 2 signed, 1 already signed, 0 failed"
	cmp keep2.ko m2.ko
	cp m1.ko once1.ko
	run "$SIGN_FILE" --batch --replace "${K[@]}" m1.ko m2.ko m3.ko
	assert_success
	cmp once1.ko m1.ko
	cmp keep2.ko m2.ko
}

@test "a module listed twice is signed once, then refused, at any -j" {
	for j in 1 2; do
		rm -f m*.ko
		make_tree 3
		cp m1.ko orig1.ko
		run --separate-stderr "$SIGN_FILE" --batch -j "$j" "${K[@]}" \
			m1.ko m2.ko m1.ko m3.ko
		assert_failure 8
		# One listing signs it and the other is refused; with one
		# worker the first listing wins, with two the workers decide
		# which one takes the module's lock first.
		if [ "$j" = 1 ]; then
			assert_line -n 0 "m1.ko: signed"
			assert_line -n 2 "m1.ko: already signed, refused (exit 8)"
		else
			assert_equal "$(printf '%s\n' "${lines[0]}" "${lines[2]}" |
				sort | tr '\n' '|')" "m1.ko: already signed, refused (exit 8)|m1.ko: signed|"
		fi
		assert_line -n 1 "m2.ko: signed"
		assert_line -n 3 "m3.ko: signed"
		"$SIGN_FILE" "${K[@]}" orig1.ko want1.ko
		cmp want1.ko m1.ko
		run "$SIGN_FILE" --batch -j "$j" --replace "${K[@]}" m1.ko m1.ko m1.ko
		assert_success
		cmp want1.ko m1.ko
	done
}

@test "batch signs compressed modules as single runs do" {
	for f in gz xz zst; do
		copy_module "c$f.ko" 40000
	done
	gzip -n -f cgz.ko; xz --check=crc32 --lzma2=dict=1MiB -f cxz.ko
	zstd -q -f --rm czst.ko
	for f in cgz.ko.gz cxz.ko.xz czst.ko.zst; do
		"$SIGN_FILE" "${K[@]}" "$f" "one-$f"
	done
	run "$SIGN_FILE" --batch -j 2 "${K[@]}" cgz.ko.gz cxz.ko.xz czst.ko.zst
	assert_success
	for f in cgz.ko.gz cxz.ko.xz czst.ko.zst; do
		cmp "one-$f" "$f"
	done
}

@test "-p in batch writes each module's .p7s; -q keeps only failures" {
	make_tree 2
	run --separate-stderr "$SIGN_FILE" --batch -q -p "${K[@]}" m1.ko m2.ko \
		nosuch.ko
	assert_failure 7
	assert_output "nosuch.ko: FAILED (exit 7)"
	[ -s m1.ko.p7s ] && [ -s m2.ko.p7s ]
}

@test "a bad key stops the batch before any file is touched" {
	make_tree 2
	cp m1.ko orig1.ko
	run "$SIGN_FILE" --batch sha256 "$KEYS/other.key" "$KEYS/rsa2048.crt" \
		m1.ko m2.ko
	assert_failure 9
	cmp orig1.ko m1.ko
}

@test "batch options: usage errors, and nothing touched" {
	make_tree 1
	cp m1.ko orig1.ko
	before=$(dir_listing .)
	run "$SIGN_FILE" --files-from list "${K[@]}" m1.ko
	assert_failure 2
	assert_output --partial "go with --batch"
	run "$SIGN_FILE" --batch -0 "${K[@]}" m1.ko
	assert_failure 2
	run "$SIGN_FILE" --batch -j 0 "${K[@]}" m1.ko
	assert_failure 2
	run "$SIGN_FILE" --batch -s m1.ko sha256 "$KEYS/rsa2048.crt" m1.ko
	assert_failure 2
	run "$SIGN_FILE" --batch "${K[@]}"
	assert_failure 2
	run "$SIGN_FILE" --batch --files-from nolist "${K[@]}"
	assert_failure 7
	assert_output --partial "nolist"
	# none of them signed, wrote or left anything
	cmp orig1.ko m1.ko
	refute ends_with_sig_magic m1.ko
	assert_equal "$(dir_listing .)" "$before"
}

@test "batch with --signer: two SignerInfos per file" {
	make_tree 2
	cp m1.ko orig1.ko
	"$SIGN_FILE" --signer "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		--signer "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" sha256 \
		orig1.ko want1.ko
	run "$SIGN_FILE" --batch --signer "$KEYS/rsa2048.key" \
		"$KEYS/rsa2048.crt" --signer "$KEYS/rsa4096.key" \
		"$KEYS/rsa4096.crt" sha256 m1.ko m2.ko
	assert_success
	cmp want1.ko m1.ko
}

@test "verify-file over many files keeps input order under -j" {
	make_tree 8
	"$SIGN_FILE" --batch -q "${K[@]}" m1.ko m2.ko m3.ko m5.ko m6.ko m8.ko
	mkdir certs
	cp "$KEYS/rsa2048.crt" certs/
	for j in 1 2 4; do
		run "$VERIFY_FILE" -j "$j" -k certs m8.ko m4.ko m1.ko m7.ko \
			m2.ko m3.ko m6.ko m5.ko
		assert_failure 3
		[ "${#lines[@]}" -eq 8 ]
		for n in 0 1 2 3 4 5 6 7; do
			f=$(echo m8 m4 m1 m7 m2 m3 m6 m5 | cut -d' ' -f$((n + 1)))
			[[ "${lines[$n]}" == "$f.ko: "* ]]
		done
		[[ "${lines[1]}" == "m4.ko: UNSIGNED -ENODATA"* ]]
		[[ "${lines[0]}" == "m8.ko: OK ("* ]]
	done
}

@test "verify-file -r walks in name order with one summary, under -j" {
	mkdir -p tree/a tree/b certs
	cp "$KEYS/rsa2048.crt" certs/
	for d in a b; do
		for i in 1 2 3; do
			copy_module "tree/$d/x$i.ko" $((20000 * i))
		done
	done
	"$SIGN_FILE" --batch -q "${K[@]}" tree/a/*.ko tree/b/x1.ko
	printf 'X' | dd of=tree/b/x1.ko bs=1 seek=10 conv=notrunc 2>/dev/null
	run "$VERIFY_FILE" -j 2 -k certs -r tree
	assert_failure 1
	assert_line -n 0 --partial "tree/a/x1.ko: OK ("
	assert_line -n 1 --partial "tree/a/x2.ko: OK ("
	assert_line -n 2 --partial "tree/a/x3.ko: OK ("
	assert_line -n 3 --partial "tree/b/x1.ko: REJECTED"
	assert_line -n 4 --partial "tree/b/x2.ko: UNSIGNED"
	assert_line -n 5 --partial "tree/b/x3.ko: UNSIGNED"
	assert_line -n 6 "summary: 6 files: 3 ok, 2 unsigned, 0 unknown key, 0 unsupported, 1 bad signature, 0 malformed, 0 unreadable"
	run "$VERIFY_FILE" -j 1 -k certs -r tree
	one="$output"
	run "$VERIFY_FILE" -j 3 -k certs -r tree
	[ "$output" = "$one" ]
	run "$VERIFY_FILE" -j 2 --json -k certs -r tree
	# one object a file, in name order, then the summary; "/" unescaped
	[ "${#lines[@]}" -eq 7 ]
	[[ "${lines[3]}" == '{"file":"tree/b/x1.ko","verdict":"REJECTED"'* ]]
	[[ "${lines[6]}" == '{"summary":{"files":6,"ok":3,'* ]]
}

@test "verify-file in parallel: unreadable files keep their place" {
	mkdir certs
	cp "$KEYS/rsa2048.crt" certs/
	make_tree 2
	"$SIGN_FILE" --batch -q "${K[@]}" m1.ko m2.ko
	run --separate-stderr "$VERIFY_FILE" -j 2 -k certs m1.ko nosuch.ko m2.ko
	assert_failure 7
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "m1.ko: OK"* ]]
	[[ "${lines[1]}" == "m2.ko: OK"* ]]
	[[ "$stderr" == *"nosuch.ko: cannot read"* ]]
}
