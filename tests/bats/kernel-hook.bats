# SPDX-License-Identifier: GPL-2.0-or-later
#
# modsign-kernel-hook(8): the check run when a kernel or its headers are
# installed, on fake machine roots (tests/fixtures/make-machine.sh) whose
# updates/ and extra/ hold the modules dkms would have built.  The hook
# judges for the release it is given, says what would be refused on
# stderr, never writes to stdout, and exits 0 unless STRICT=yes.

bats_require_minimum_version 1.5.0
load machine-helpers

# a release that loads MOK without IMA (6.12.110 and later: arch_get_secureboot())
REL=6.12.115+deb13-amd64

setup() {
	machine_setup
	# the hook as make builds it (hooks/*.in with the paths filled in),
	# with the verify-file under test and a settings file of the test's own
	HOOKS="${MODSIGN_KERNEL_HOOKS:-$BIN/../hooks}"
	HOOK="$HOOKS/modsign-kernel-hook"
	# the entry points run the hook from where make install puts it
	export MODSIGN_KERNEL_HOOK="$HOOK"
	export MODSIGN_VERIFY_FILE="$VERIFY_FILE"
	export MODSIGN_HOOK_CONF="$W/kernel-hook.conf"
	: > "$MODSIGN_HOOK_CONF"
	machine mok="$KEYS/other.der" config=nolsm
	printf 'SYSROOT=%s\n' "$W/root" > "$MODSIGN_HOOK_CONF"
	MD="$W/root/lib/modules/$REL"
	mkdir -p "$MD/updates/dkms" "$MD/extra" "$MD/kernel/drivers"
}

# dkms's output: a module in updates/dkms signed with KEY (none: unsigned).
dkms_module() { # name key
	make_module "$MD/updates/dkms/$1.ko" 4000
	[ "$2" = none ] ||
		"$SIGN_FILE" sha256 "$KEYS/$2.key" "$KEYS/$2.crt" "$MD/updates/dkms/$1.ko"
}

@test "every out-of-tree module would load: one line on stderr, nothing on stdout, exit 0" {
	dkms_module enrolled other
	dkms_module builtin rsa2048
	run --separate-stderr "$HOOK" postinst "$REL" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_output ""
	assert_equal "$stderr" "modsign: $REL: all 2 out-of-tree modules would load"
}

@test "a module signed by a key the kernel does not trust, and an unsigned one: a summary and a line each, exit 0" {
	dkms_module enrolled other
	dkms_module stranger ec256
	make_module "$MD/extra/plain.ko" 4000
	xz "$MD/extra/plain.ko"
	run --separate-stderr "$HOOK" postinst "$REL" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_output ""
	assert_equal "$stderr" "modsign: $REL: 2 of 3 out-of-tree modules would be refused or load tainted (verify-file --machine=$REL --sysroot $W/root says why):
modsign:   extra/plain.ko.xz: UNSIGNED -ENODATA: unsigned module (no signature magic at the end) (the kernel would load it unsigned, tainted)
modsign:     fix (sign): the module is not signed: sign it with a key in a keyring this kernel checks modules against (--list-keys names them)
modsign:   updates/dkms/stranger.ko: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (the kernel would load it unsigned, tainted)"
}

@test "dkms's key made and never enrolled: each module's line is followed by its fix, the mokutil --import naming dkms's certificate" {
	mkdir -p "$W/root/var/lib/dkms"
	cp "$KEYS/ec256.der" "$W/root/var/lib/dkms/mok.pub"
	cp "$KEYS/ec256.key" "$W/root/var/lib/dkms/mok.key"
	dkms_module enrolled other
	dkms_module stranger ec256
	dkms_module plain none
	run --separate-stderr "$HOOK" postinst "$REL" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_output ""
	assert_equal "$stderr" "modsign: $REL: 2 of 3 out-of-tree modules would be refused or load tainted (verify-file --machine=$REL --sysroot $W/root says why):
modsign:   updates/dkms/plain.ko: UNSIGNED -ENODATA: unsigned module (no signature magic at the end) (the kernel would load it unsigned, tainted)
modsign:     fix (sign): the module is not signed: sign it with dkms's key, then enrol its certificate (mokutil --import /var/lib/dkms/mok.pub), reboot and confirm the enrolment in MokManager: sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub /lib/modules/$REL/updates/dkms/plain.ko
modsign:   updates/dkms/stranger.ko: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (the kernel would load it unsigned, tainted)
modsign:     fix (enrol-mok): signed by dkms's key /var/lib/dkms/mok.pub (\"modsign test ECDSA P-256 key\"), which is not enrolled: enrol it, then reboot and confirm the enrolment in MokManager: mokutil --import /var/lib/dkms/mok.pub"
}

@test "the in-tree modules are not judged: only updates/ and extra/" {
	make_module "$MD/kernel/drivers/intree.ko" 4000
	dkms_module enrolled other
	run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
	assert_equal "$stderr" "modsign: $REL: all 1 out-of-tree modules would load"
}

@test "no out-of-tree module, or no modules directory yet: nothing at all" {
	run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr "$HOOK" header 6.12.114+deb13-amd64
	assert_success
	assert_equal "$stderr" ""
}

@test "STRICT=yes: a module that would be refused fails the install (exit 1); all well, exit 0" {
	printf 'STRICT=yes\n' >> "$MODSIGN_HOOK_CONF"
	dkms_module stranger none
	run --separate-stderr "$HOOK" postinst "$REL"
	assert_failure 1
	[[ "${stderr_lines[0]}" == *"1 of 1 out-of-tree modules would be refused"* ]]
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$MD/updates/dkms/stranger.ko"
	run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
}

@test "verify-file cannot judge (no image of that release): one line, and the install goes on" {
	rm "$W/root/boot/vmlinuz-$REL"
	dkms_module enrolled other
	run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
	assert_output ""
	[[ "$stderr" == "modsign: $REL: could not judge its out-of-tree modules: verify-file: "* ]]
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
}

@test "the settings file is read, never run; unknown keys are named; ENABLE=no turns the check off" {
	dkms_module stranger none
	printf '%s\n' '# a comment' 'STRICT="yes"' "BOGUS=\$(touch $W/ran)" > "$W/conf2"
	printf 'SYSROOT=%s\n' "$W/root" >> "$W/conf2"
	MODSIGN_HOOK_CONF="$W/conf2" run --separate-stderr "$HOOK" postinst "$REL"
	assert_failure 1
	assert_file_not_exists "$W/ran"
	[[ "${stderr_lines[0]}" == *"conf2: ignoring 'BOGUS=\$(touch $W/ran)' (known: STRICT, SYSROOT, TIMEOUT, ENABLE)"* ]]
	printf 'SYSROOT=%s\nSTRICT=yes\nENABLE=no\n' "$W/root" > "$W/conf3"
	MODSIGN_HOOK_CONF="$W/conf3" run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
	assert_equal "$stderr" ""
}

@test "TIMEOUT: a check that takes longer is stopped, said, and the install goes on" {
	dkms_module enrolled other
	# a verify-file that never answers
	printf '#!/bin/sh\nexec sleep 600\n' > "$W/slow"
	chmod +x "$W/slow"
	printf 'TIMEOUT=1\n' >> "$MODSIGN_HOOK_CONF"
	MODSIGN_VERIFY_FILE="$W/slow" run --separate-stderr "$HOOK" postinst "$REL"
	assert_success
	assert_equal "$stderr" "modsign: $REL: stopped after 1s judging 1 out-of-tree modules (TIMEOUT in $MODSIGN_HOOK_CONF)"
}

@test "kernel-install: add judges as postinst does, remove says nothing; wrong arguments exit 2" {
	dkms_module stranger ec256
	run --separate-stderr "$HOOKS/kernel-install" add "$REL" "$W/entry" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_output ""
	[[ "${stderr_lines[0]}" == *"modsign: $REL: 1 of 1 out-of-tree modules would be refused"* ]]
	run --separate-stderr "$HOOKS/kernel-install" remove "$REL" "$W/entry"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr "$HOOK" postinst
	assert_failure 2
	run --separate-stderr "$HOOK" postinst ../etc
	assert_failure 2
}

@test "run-parts runs the Debian hook after dkms's and before zz-update-grub, which still runs" {
	require_cmd run-parts debianutils
	mkdir "$W/postinst.d"
	# dkms's hook: builds and signs the module, as dkms does with its key
	cat > "$W/postinst.d/dkms" <<EOF
#!/bin/sh
python3 "$TOP/tests/fixtures/elf-module.py" "$MD/updates/dkms/new.ko" 4000
"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$MD/updates/dkms/new.ko"
echo dkms >> "$W/order"
EOF
	cp "$HOOKS/postinst" "$W/postinst.d/zz-modsign"
	printf '#!/bin/sh\necho grub "$@" >> %s/order\n' "$W" > "$W/postinst.d/zz-update-grub"
	chmod +x "$W/postinst.d/"*
	# the name run-parts accepts (^[A-Za-z0-9_-]+$)
	run run-parts --list "$W/postinst.d"
	assert_output "$W/postinst.d/dkms
$W/postinst.d/zz-modsign
$W/postinst.d/zz-update-grub"
	# as linux-image's postinst calls them
	run --separate-stderr run-parts --report --exit-on-error --arg="$REL" \
		--arg="$W/root/boot/vmlinuz-$REL" "$W/postinst.d"
	assert_success
	assert_output ""
	# run-parts --report names the hook first, on the stream it wrote to
	assert_equal "${stderr_lines[0]}" "$W/postinst.d/zz-modsign:"
	[[ "${stderr_lines[1]}" == "modsign: $REL: 1 of 1 out-of-tree modules would be refused"* ]]
	assert_equal "$(cat "$W/order")" "dkms
grub $REL $W/root/boot/vmlinuz-$REL"
}

@test "the entry points without the hook (the package removed, its /etc conffiles left): nothing, exit 0" {
	dkms_module stranger ec256
	export MODSIGN_KERNEL_HOOK="$W/gone/modsign-kernel-hook"
	run --separate-stderr "$HOOKS/postinst" "$REL" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr "$HOOKS/header_postinst" "$REL"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr "$HOOKS/kernel-install" add "$REL" "$W/entry" "$W/root/boot/vmlinuz-$REL"
	assert_success
	assert_equal "$stderr" ""
}
