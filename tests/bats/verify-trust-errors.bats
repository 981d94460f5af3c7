#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file and a trust input it cannot use (a kernel .config, a
# blacklist, a kernel image, a signature list, a --machine release): one
# line on stderr naming the file and what to do, the exit code of its
# kind, and no verdict on stdout.  And what it says of a .config it can
# read but that leaves something assumed.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	make_module m.ko 2000
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
}

@test "a .config line that is none is a usage error naming the line" {
	printf 'CONFIG_MODULE_SIG=y\ngarbage\n' > bad.config
	run -2 --separate-stderr "$VERIFY_FILE" --kernel-config bad.config \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: bad.config: line 2: not a kernel .config line (CONFIG_X=value or a # comment)"
}

@test "a .config without any CONFIG_ option is a usage error" {
	printf '# nothing\n' > empty.config
	run -2 --separate-stderr "$VERIFY_FILE" --kernel-config empty.config \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: empty.config: no CONFIG_ option in it (give a kernel .config)"
}

@test "a .config that cannot be read is exit 7 naming the option" {
	run -7 --separate-stderr "$VERIFY_FILE" --kernel-config missing.config \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: missing.config: cannot read the kernel config: No such file or directory (check --kernel-config)"
}

@test "a revocation file the .config names but that is not there is exit 7 with the way out" {
	printf '%s\n' '# Linux/x86 6.1.0 Kernel Configuration' \
		CONFIG_MODULE_SIG=y CONFIG_SYSTEM_REVOCATION_LIST=y \
		'CONFIG_SYSTEM_REVOCATION_KEYS="certs/revoked.pem"' > rv.config
	run -7 --separate-stderr "$VERIFY_FILE" --kernel-config rv.config \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: rv.config: CONFIG_SYSTEM_REVOCATION_KEYS names certs/revoked.pem: ./certs/revoked.pem not found (give --kernel-tree DIR)"
	# given where it is, the revocation certificate is loaded
	mkdir -p tree/certs
	cp "$KEYS/other.crt" tree/certs/revoked.pem
	run -0 "$VERIFY_FILE" --kernel-config rv.config --kernel-tree tree \
		-c "$KEYS/rsa2048.crt" --list-keys
	assert_line "1 trusted, 0 platform, 1 revocation keys; 0 blacklist hashes"
}

@test "a .config without its version line or CONFIG_MODULE_SIG says what is assumed" {
	printf 'CONFIG_MODULE_SIG_SHA256=y\n' > nover.config
	run -5 --separate-stderr "$VERIFY_FILE" --kernel-config nover.config \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_line --index 0 --partial "m.ko: UNSUPPORTED -ENOPKG"
	assert_equal "${stderr_lines[0]}" "verify-file: warning: nover.config: no \"# Linux/<arch> <version> Kernel Configuration\" line: using the 7.3 rules"
	assert_equal "${stderr_lines[1]}" "verify-file: warning: nover.config: no CONFIG_MODULE_SIG line (a whole .config says \"# CONFIG_MODULE_SIG is not set\" when it is off): signatures taken as checked"
	assert_equal "${#stderr_lines[@]}" 2
}

@test "a blacklist entry the kernel would refuse is a usage error; a missing blacklist is exit 9" {
	printf 'tbs:abc\n' > bad.bl
	run -2 --separate-stderr "$VERIFY_FILE" --blacklist bad.bl \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" 'verify-file: bad.bl: line 1: not a "tbs:<hex>" or "bin:<hex>" entry (lower-case hex, even length, at most 128 digits)'
	run -9 --separate-stderr "$VERIFY_FILE" --blacklist missing.bl \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: missing.bl: cannot read the blacklist: No such file or directory (check --blacklist)"
}

@test "a kernel image that is none is exit 9 with the way out; a missing one names the error" {
	head -c 4096 /dev/zero > zero.img
	run -9 --separate-stderr "$VERIFY_FILE" --vmlinux zero.img m.ko
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "verify-file: warning: zero.img: no kernel version in the image: using the 7.3 rules (give --kernel)"
	assert_equal "${stderr_lines[1]}" "verify-file: zero.img: neither a bzImage, a compressed kernel nor an ELF vmlinux (give a vmlinuz/bzImage, a compressed Image or an ELF vmlinux to --vmlinux)"
	run -9 --separate-stderr "$VERIFY_FILE" --kernel 6.1 --vmlinux gone.img m.ko
	assert_equal "$output" ""
	assert_equal "${stderr_lines[-1]}" "verify-file: gone.img: cannot read the kernel image: No such file or directory"
}

@test "a signature list that cannot be read is exit 9" {
	run -9 --separate-stderr "$VERIFY_FILE" --esl gone.esl \
		-c "$KEYS/rsa2048.crt" m.ko
	assert_equal "$output" ""
	assert_equal "$stderr" "verify-file: gone.esl: cannot read the signature list: No such file or directory"
}

@test "--machine with a release that is no uname -r is a usage error" {
	run -2 --separate-stderr "$VERIFY_FILE" --machine=../x m.ko
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "verify-file: not a kernel release '../x' (give --machine=RELEASE as uname -r prints it)"
}

@test "keyrings left empty are said once: every signature will be UNKNOWN-KEY" {
	mkdir certs
	echo 'not a certificate' > certs/junk.pem
	run -4 --separate-stderr "$VERIFY_FILE" -k certs m.ko
	assert_output --partial "m.ko: UNKNOWN-KEY -ENOKEY"
	assert_equal "${stderr_lines[0]}" "verify-file: warning: certs: 1 entry loaded nothing; run with -v to name each and say why"
	assert_equal "${stderr_lines[1]}" "verify-file: warning: no usable trusted certificate: every signature will be -ENOKEY (see -v)"
}

@test "a FILE that is not there is exit 7 and the others are still judged" {
	run -7 --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" \
		gone.ko m.ko
	assert_equal "$stderr" "verify-file: gone.ko: cannot read: No such file or directory (check the path)"
	assert_output --partial "m.ko: OK (sha256, RSA-2048"
}
