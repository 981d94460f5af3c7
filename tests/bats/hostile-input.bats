#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile and odd input: every tool answers with an exit code from the
# table and one line, never a crash, and damages nothing.

load helpers
bats_require_minimum_version 1.5.0

@test "every fuzz regression input gets a table exit code from extract-sig" {
	local f rc
	for f in "$TOP"/tests/fuzz/regressions/*; do
		[ -f "$f" ] || fail "no inputs in tests/fuzz/regressions"
		for opt in "" --json --modinfo -d; do
			rc=0
			"$EXTRACT_SIG" $opt "$f" >/dev/null 2>&1 || rc=$?
			[ "$rc" -le 9 ] || { echo "$f $opt: exit $rc"; return 1; }
		done
	done
}

@test "descriptor sig_len at every boundary: exit codes, no crash" {
	local n rc
	make_module m.ko 100
	for n in 0 1 99 100 101 4294967295; do
		cp m.ko t.ko
		python3 -c 'import struct,sys
open(sys.argv[1],"ab").write(struct.pack(">BBBBB3xI",0,0,2,0,0,int(sys.argv[2]))+b"~Module signature appended~\n")' t.ko "$n"
		rc=0
		"$EXTRACT_SIG" t.ko >/dev/null 2>&1 || rc=$?
		case $n in
		0 | 101 | 4294967295) [ "$rc" = 6 ] || { echo "sig_len $n: exit $rc"; return 1; } ;;
		*) [ "$rc" = 6 ] || { echo "sig_len $n: exit $rc (garbage CMS)"; return 1; } ;;
		esac
	done
}

@test "a 0-byte file is unsigned; a FIFO and a device are refused without blocking" {
	: > empty.ko
	run "$EXTRACT_SIG" empty.ko
	assert_failure 3
	fifo_for_reading fifo.ko
	run "$EXTRACT_SIG" fifo.ko
	assert_failure 7
	assert_output "extract-sig: fifo.ko: not a regular file"
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" fifo.ko
	assert_failure 7
	assert_output "sign-file: fifo.ko: not a regular file"
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" /dev/null
	assert_failure 7
	assert_output "sign-file: /dev/null: not a regular file"
	fifo_release fifo.ko
}

@test "a FIFO or device module is refused without being opened" {
	require_cmd strace strace
	fifo_for_reading fifo.ko
	mknod dev.ko c 1 3 2>/dev/null || ln -s /dev/null dev.ko
	for m in fifo.ko dev.ko; do
		# LeakSanitizer cannot run under ptrace: off for an ASan build
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run strace -f -e trace=open,openat -o trace "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$m"
		assert_failure 7
		assert_output --partial "sign-file: $m: not a regular file"
		# opening a device can act on it (a tape rewinds on close)
		! grep -F "\"$m\"" trace || fail "$m was opened"
		grep -qF "$KEYS/rsa2048.crt" trace || fail "strace saw no open at all"
	done
	fifo_release fifo.ko
}

@test "a FIFO or device as the destination is refused, never replaced by a file" {
	make_module m.ko 200
	cp m.ko orig.ko
	fifo_for_writing fifo.ko
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko fifo.ko
	assert_failure 7
	assert_output "sign-file: fifo.ko: not a regular file"
	[ -p fifo.ko ]
	# through a symbolic link, and for the .p7s of -p too
	ln -s fifo.ko link.ko
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko link.ko
	assert_failure 7
	[ -p fifo.ko ] && [ -L link.ko ]
	fifo_for_writing m.ko.p7s
	run "$SIGN_FILE" -p sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 7
	assert_output "sign-file: m.ko.p7s: not a regular file"
	[ -p m.ko.p7s ] && [ ! -e out.ko ]
	# as root, a dest of /dev/null would have replaced /dev/null (a
	# device node of our own as root, a link to /dev/null otherwise)
	mknod null.ko c 1 3 2>/dev/null || ln -s /dev/null null.ko
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko null.ko
	assert_failure 7
	assert_output "sign-file: null.ko: not a regular file"
	[ -c null.ko ]
	cp m.ko signed.ko
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" signed.ko
	run "$EXTRACT_SIG" --body-out null.ko signed.ko
	assert_failure 7
	assert_output --partial "null.ko: cannot write: not a regular file"
	[ -c null.ko ]
	fifo_release fifo.ko
	fifo_release m.ko.p7s
	cmp m.ko orig.ko
}

@test "a sparse 4 GiB module is signed and described" {
	truncate -s 4G big.ko
	# a module starts with an ELF head (sign-file refuses a .ko without)
	elf_head big.ko
	printf 'ELF' | dd of=big.ko bs=1 seek=1000 conv=notrunc 2>/dev/null
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" big.ko
	assert_success
	run "$EXTRACT_SIG" --descriptor big.ko
	assert_success
	assert_output --regexp '^0 0 2 0 0 [0-9]+$'
	[ "$(stat -c %s big.ko)" -gt 4294967296 ]
}

@test "non-UTF-8 and very long file names work" {
	local long
	make_module "$(printf 'm\377\376.ko')" 200
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$(printf 'm\377\376.ko')"
	assert_success
	long=$(printf 'd%.0s' $(seq 1 200))
	mkdir -p "$long/$long/$long/$long/$long"
	make_module "$long/$long/$long/$long/$long/m.ko" 200
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$long/$long/$long/$long/$long/m.ko"
	assert_success
	run "$EXTRACT_SIG" -q "$long/$long/$long/$long/$long/m.ko"
	assert_success
}

# ---- Inputs that change or cannot be backed while they are read: a
# mapped input is never the death of a tool (SIGBUS), only an I/O error.

teardown() {
	pause_cleanup
	release_scratch
}

CHANGED="changed while it was read (it shrank, or its storage failed)"

# Each tool stopped with the module mapped (the test hook), the module cut
# to SIZE bytes by "another process", then let go: exit 7 and the message,
# no verdict, no output file.  0 and 1 MiB leave mapped pages the file can
# no longer back (each read of them is a SIGBUS); 3 MB - 1000 shrinks the
# file within its last page, which still reads (as zeros) without a fault.
@test "a module truncated while it is read: exit 7 and a message from every tool, never a signal" {
	local size
	make_large_module orig.ko 3000000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" orig.ko signed.ko
	for size in 0 $((1 << 20)) $((3000000 - 1000)); do
		mkdir -p d
		cp orig.ko d/m.ko
		pause_start input-mapped "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" \
			"$KEYS/rsa2048.crt" d/m.ko
		truncate -s "$size" d/m.ko
		pause_resume
		pause_wait
		assert_equal "$PAUSED_STATUS" 7
		assert_equal "$PAUSED_STDERR" "sign-file: d/m.ko: $CHANGED"
		# nothing was written: the module is as the truncation left it
		assert_equal "$(dir_listing d)" m.ko
		[ "$(file_size d/m.ko)" -eq "$size" ]

		for opt in "" --json "--body out.bin" --modinfo; do
			cp signed.ko d/m.ko
			# shellcheck disable=SC2086
			pause_start input-mapped "$EXTRACT_SIG" $opt d/m.ko
			truncate -s "$size" d/m.ko
			pause_resume
			pause_wait
			assert_equal "$PAUSED_STATUS" 7
			assert_equal "$PAUSED_STDERR" "extract-sig: d/m.ko: $CHANGED"
			[ ! -e out.bin ]
		done

		cp signed.ko d/m.ko
		pause_start input-mapped "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" d/m.ko
		truncate -s "$size" d/m.ko
		pause_resume
		pause_wait
		assert_equal "$PAUSED_STATUS" 7
		assert_equal "$PAUSED_STDERR" "verify-file: d/m.ko: cannot read: $CHANGED"
		assert_equal "$(cat "$PAUSE_DIR/stdout")" ""
	done
}

@test "a SIGBUS that is no read of a mapped input keeps its default action" {
	make_large_module m.ko 3000000
	pause_start input-mapped "$EXTRACT_SIG" m.ko
	kill -BUS "$PAUSED_PID"
	pause_wait
	assert_equal "$PAUSED_STATUS" 135
}

# A read fault on a hole of a tmpfs file allocates a page; on a full
# tmpfs it fails, and a read through the mapping is a SIGBUS (read() of
# the same hole gives zeros and allocates nothing).  The tools read such
# a module as from any other file system.
@test "a sparse module on a full tmpfs is read as from any other file system" {
	need_root "mounts a small tmpfs"
	truncate -s 64M m.ko
	elf_head m.ko
	printf 'ELF' | dd of=m.ko bs=1 seek=1000 conv=notrunc status=none
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko want.ko
	mkdir full
	mount -t tmpfs -o size=1m tmpfs full
	cp --sparse=always m.ko full/m.ko
	cp --sparse=always want.ko full/signed.ko
	# fill it: no page is left for the modules' holes
	run dd if=/dev/zero of=full/fill bs=4k
	assert_failure
	assert_output --partial "No space left on device"
	run "$EXTRACT_SIG" full/m.ko
	assert_failure 3
	assert_output "extract-sig: full/m.ko: not signed (no signature magic at the end)"
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" full/m.ko out.ko
	assert_success
	cmp want.ko out.ko
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" full/m.ko
	assert_failure 3
	assert_output --partial "full/m.ko: UNSIGNED -ENODATA"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" full/signed.ko
	assert_success
	assert_output --partial "full/signed.ko: OK (sha256, RSA-2048"
	run "$EXTRACT_SIG" --body-out body.bin full/signed.ko
	assert_success
	cmp -n $((64 << 20)) body.bin m.ko
	[ "$(file_size body.bin)" -eq $((64 << 20)) ]
}

# ---- Output names an input: no file a run writes may be a file it reads,
# whatever name reaches it (./x, a hard link, a symbolic link).  Exit 2,
# one line naming the output, and every file as it was.

# Copies of the test key and certificate that a run may be asked to
# overwrite, a module, and their checksums.
clobber_setup() {
	cp "$KEYS/rsa2048.key" key.pem
	cp "$KEYS/rsa2048.crt" cert.pem
	make_module m.ko 300
	sha256sum key.pem cert.pem m.ko > before.sum
}

# run the command; expect exit 2, one line about OUT, nothing changed
refused_output() { # out cmd...
	local out=$1
	shift
	run "$@"
	assert_failure 2
	assert_output --regexp "^[a-z-]+: $out: (is|named for) .*nothing written"
	[ "${#lines[@]}" = 1 ] || fail "more than one line"
	sha256sum -c --quiet before.sum || fail "an input changed"
	[ -z "$(ls -A | grep -e '\.tmp-' || true)" ] ||
		fail "a temporary file was left"
}

@test "output names an input: sign-file <dest> is the key or the certificate, by any name" {
	clobber_setup
	ln key.pem hard.pem
	ln -s key.pem sym.pem
	for d in key.pem ./key.pem hard.pem sym.pem "$W/key.pem"; do
		refused_output "$d" "$SIGN_FILE" sha256 key.pem cert.pem m.ko "$d"
	done
	assert_output --partial "the key key.pem"
	refused_output cert.pem "$SIGN_FILE" sha256 key.pem cert.pem m.ko cert.pem
	assert_output "sign-file: cert.pem: is the certificate, an input of this run: not overwritten, nothing written (name another output)"
	# a --signer's key, the PIN file and the kernel config
	refused_output key.pem "$SIGN_FILE" --signer key.pem cert.pem sha256 m.ko key.pem
	printf '\n' > pin
	sha256sum pin >> before.sum
	refused_output pin "$SIGN_FILE" --pin-file pin sha256 key.pem cert.pem m.ko pin
	printf '# Linux/x86 6.12.1 Kernel Configuration\nCONFIG_MODULE_SIG=y\n' > cfg
	sha256sum cfg >> before.sum
	refused_output cfg "$SIGN_FILE" --kernel-config cfg sha256 key.pem cert.pem m.ko cfg
}

@test "output names an input: a module signed in place that is the key" {
	clobber_setup
	refused_output key.pem "$SIGN_FILE" --usage firmware sha256 key.pem cert.pem key.pem
	refused_output ./cert.pem "$SIGN_FILE" --usage firmware sha256 key.pem cert.pem ./cert.pem
	refused_output key.pem "$SIGN_FILE" --batch --usage firmware sha256 key.pem cert.pem m.ko key.pem
	# the list is an input too
	printf 'm.ko\nlist\n' > list
	sha256sum list >> before.sum
	refused_output list "$SIGN_FILE" --batch --usage firmware --files-from list sha256 key.pem cert.pem
}

@test "output names an input: -p, -d and --digest-only's files beside the module" {
	clobber_setup
	ln -s key.pem m.ko.p7s
	refused_output m.ko.p7s "$SIGN_FILE" -p sha256 key.pem cert.pem m.ko
	refused_output m.ko.p7s "$SIGN_FILE" -d sha256 key.pem cert.pem m.ko
	refused_output m.ko.p7s "$SIGN_FILE" --batch -p sha256 key.pem cert.pem m.ko
	[ -L m.ko.p7s ]
	rm m.ko.p7s
	ln m.ko m.ko.digest
	refused_output m.ko.digest "$SIGN_FILE" --digest-only sha256 m.ko
	rm m.ko.digest
	ln -s m.ko m.ko.tbs
	refused_output m.ko.tbs "$SIGN_FILE" --digest-only sha256 m.ko
}

@test "output names an input: -s's raw CMS, --attach's signature, kmodsign -D's module" {
	clobber_setup
	"$SIGN_FILE" -d sha256 key.pem cert.pem m.ko
	mv m.ko.p7s raw.p7s
	sha256sum raw.p7s >> before.sum
	refused_output raw.p7s "$SIGN_FILE" -s raw.p7s sha256 cert.pem m.ko raw.p7s
	refused_output raw.p7s "$SIGN_FILE" --attach raw.p7s sha256 cert.pem m.ko raw.p7s
	refused_output ./m.ko "$SIGN_FILE" --kmodsign -D sha256 key.pem cert.pem m.ko ./m.ko
	# <dest> that is <module> by another name signs in place, as when
	# both are spelled the same
	run "$SIGN_FILE" sha256 key.pem cert.pem m.ko ./m.ko
	assert_success
	run "$EXTRACT_SIG" -q m.ko
	assert_success
}

@test "output names an input: extract-sig --sig-out and --body-out" {
	clobber_setup
	"$SIGN_FILE" sha256 key.pem cert.pem m.ko
	sha256sum key.pem cert.pem m.ko > before.sum
	ln -s m.ko link.ko
	for o in --sig-out --body-out; do
		for d in m.ko ./m.ko link.ko; do
			refused_output "$d" "$EXTRACT_SIG" $o "$d" m.ko
		done
		refused_output cert.pem "$EXTRACT_SIG" -c cert.pem $o cert.pem m.ko
	done
	refused_output x "$EXTRACT_SIG" --sig-out x --body-out x m.ko
	[ ! -e x ]
}

# ---- Files that are not what they claim: the kernel checks the
# signature first (module_sig_check), then the ELF (elf_validity_check,
# -ENOEXEC); a module that does not decompress is -EINVAL before both.

# a real relocatable object cut before its section headers, as a copy
# interrupted mid-way leaves a module
truncated_elf() { # out
	require_cmd cc gcc
	sh "$TOP/tests/fixtures/make-module.sh" "$1.full" >/dev/null
	head -c $(($(stat -c %s "$1.full") - 200)) "$1.full" >"$1"
}

@test "verify-file: a .ko that is no ELF module is REJECTED -ENOEXEC, exit 6, with the kernel's reason" {
	echo "hello world" >text.ko
	truncated_elf cut.ko
	make_module m.ko 4096
	"$SIGN_FILE" -d sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	cp m.ko.p7s renamed.ko
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" text.ko
	assert_failure 6
	assert_output "text.ko: REJECTED -ENOEXEC: not an ELF file (no ELF magic): no kernel module"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" cut.ko
	assert_failure 6
	assert_output "cut.ko: REJECTED -ENOEXEC: ELF section header table beyond the end of the module (truncated file?)"
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" renamed.ko
	assert_failure 6
	assert_output --partial "renamed.ko: REJECTED -ENOEXEC: not an ELF file"
	# JSON keeps the signature's own verdict apart (the kernel's judge)
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" cut.ko
	assert_failure 6
	run python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["verdict"] == "REJECTED" and o["errno"] == "ENOEXEC", o
assert o["signature_errno"] == "ENODATA", o
print("ok")' "$output"
	assert_output ok
}

@test "verify-file: a good signature over a truncated ELF is -ENOEXEC, a bad one the signature's errno" {
	truncated_elf cut.ko
	cp cut.ko bad.ko
	"$SIGN_FILE" --usage firmware sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" cut.ko
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" cut.ko
	assert_failure 6
	run python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["errno"] == "ENOEXEC" and o["signature_errno"] is None, o
print("ok")' "$output"
	assert_output ok
	# signed by a key nobody trusts, tampered with: the signature decides
	"$SIGN_FILE" --usage firmware sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" bad.ko
	printf 'X' | dd of=bad.ko bs=1 seek=300 conv=notrunc status=none
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" bad.ko
	assert_failure 1
	assert_output --partial "bad.ko: REJECTED -EKEYREJECTED"
	# enforcing, an unsigned module is refused for its signature first
	truncated_elf u.ko
	run "$VERIFY_FILE" --enforce -c "$KEYS/rsa2048.crt" u.ko
	assert_failure 1
	assert_output "u.ko: REJECTED -EKEYREJECTED: Loading of unsigned module is rejected (-ENODATA: unsigned module (no signature magic at the end))"
	# and locked down, for lockdown's reason, with the signature's errno
	run --separate-stderr "$VERIFY_FILE" --json --lockdown integrity -c "$KEYS/rsa2048.crt" u.ko
	assert_failure 1
	assert_output --partial '"errno":"EPERM","underlying_errno":"ENODATA","signature_errno":"ENODATA","reason":"unsigned module (no signature magic at the end)"'
}

@test "verify-file: a compressed module that does not decompress is -EINVAL, as module_decompress() says" {
	make_module m.ko 100000
	xz --check=crc32 -c m.ko >m.ko.xz
	head -c $(($(stat -c %s m.ko.xz) / 2)) m.ko.xz >cut.ko.xz
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" cut.ko.xz
	assert_failure 6
	assert_output "cut.ko.xz: MALFORMED -EINVAL: does not decompress: truncated xz data"
	# not compressed at all (no xz magic) whatever the name: the ELF check
	echo garbage >g.ko.xz
	run "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" g.ko.xz
	assert_failure 6
	assert_output --partial "g.ko.xz: REJECTED -ENOEXEC: not an ELF file"
}

@test "sign-file refuses a truncated ELF module (exit 6) and leaves it as it was" {
	truncated_elf cut.ko
	cp cut.ko orig.ko
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" cut.ko
	assert_failure 6
	assert_output "sign-file: cut.ko: no kernel module: ELF section header table beyond the end of the module (truncated file?) (the kernel refuses it, ENOEXEC); to sign it as data, give --usage firmware"
	cmp cut.ko orig.ko
	# the whole object signs
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" cut.ko.full
	assert_success
}

# Every line of JSON on stdin strictly UTF-8 and RFC 8259; each object
# with a "file" names NAME (hex) in "file_bytes", or in "file" itself.
json_names_check() { # name-hex
	python3 -c 'import json, sys
want = bytes.fromhex(sys.argv[1])
n = 0
for line in sys.stdin.buffer.read().splitlines():
    o = json.loads(line.decode("utf-8"))   # strict: no bad bytes
    if "file" not in o:
        continue
    got = bytes.fromhex(o["file_bytes"]) if "file_bytes" in o else o["file"].encode()
    assert got == want, (got, want)
    assert o["file"] == want.decode("utf-8", "replace"), o
    n += 1
assert n, "no object named the file"
print("ok")' "$1"
}

@test "JSON stays valid UTF-8 with a Latin-1 file name, and file_bytes holds the exact name (all three tools)" {
	local name hex
	name=$(printf 'caf\351.ko')
	hex=$(printf '%s' "$name" | od -An -tx1 | tr -d ' \n')
	make_module "$name" 4096
	"$SIGN_FILE" --batch --json sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$name" >sign.json
	run json_names_check "$hex" <sign.json
	assert_output ok
	"$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$name" >verify.json
	run json_names_check "$hex" <verify.json
	assert_output ok
	"$EXTRACT_SIG" --json "$name" >extract.json
	run json_names_check "$hex" <extract.json
	assert_output ok
	# an error object too, and its reason
	"$SIGN_FILE" --batch --json sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$name" >again.json || true
	run json_names_check "$hex" <again.json
	assert_output ok
	# a UTF-8 name is written as it is, with no file_bytes
	make_module "$(printf 'caf\303\251.ko')" 4096
	run "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$(printf 'caf\303\251.ko')"
	assert_output --partial "\"file\":\"$(printf 'caf\303\251.ko')\""
	refute_output --partial file_bytes
}
