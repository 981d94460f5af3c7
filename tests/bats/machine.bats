#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine: would the kernel this machine is about to boot
# load a module?  Judged against fake machines under --sysroot, built by
# tests/fixtures/make-machine.sh from the committed test keys: a /boot
# with a bzImage and its config, efivarfs files with their 4 attribute
# bytes, the lockdown file and module.sig_enforce.

bats_require_minimum_version 1.5.0
load machine-helpers

REL=7.3.0-1-amd64
PLACES="/boot/config-RELEASE, /usr/lib/modules/RELEASE/config, /lib/modules/RELEASE/config, .../RELEASE/build/.config, /proc/config.gz when running"
LOCKED="REJECTED -EPERM: Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"
# the fix every unsigned module gets where no signing key is at hand
# (machine-fix.bats has each kind)
SIGN_FIX="  fix (sign): the module is not signed: sign it with a key in a keyring this kernel checks modules against (--list-keys names them)"

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/built-in.ko"
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/mok.ko"
}

@test "Secure Boot on with Debian's lockdown config: unsigned and unknown-key modules are REJECTED -EPERM, never 'loads unsigned'" {
	machine
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_output "$W/m.ko: $LOCKED (-ENODATA: unsigned module (no signature magic at the end); locked down by EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT))
$SIGN_FIX"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_failure 1
	assert_output --partial "$W/mok.ko: $LOCKED (-ENOKEY: no trusted key for any signer"
	refute_output --partial "unsigned, tainted"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko" "$W/mok.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .errno, .underlying_errno, .loads_unsigned, .lockdown, .machine.secure_boot]' <<< "$output")" \
'["REJECTED","EPERM","ENODATA",false,"integrity","on"]
["REJECTED","EPERM","ENOKEY",false,"integrity","on"]'
	# the key built into /boot/vmlinuz-$REL: loaded
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/built-in.ko"
	assert_success
	assert_output --partial "$W/built-in.ko: OK (sha256, RSA-2048"
	assert_output --partial "cert $W/root/boot/vmlinuz-$REL, in .builtin_trusted_keys)"
}

@test "Secure Boot off: an unsigned module loads unsigned, tainted" {
	machine sb=off
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 3
	assert_output "$W/m.ko: UNSIGNED -ENODATA: unsigned module (no signature magic at the end) (the kernel would load it unsigned, tainted)
$SIGN_FIX"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_equal "$(jq -c '[.verdict, .loads_unsigned, .lockdown, .machine.secure_boot]' <<< "$output")" '["UNSIGNED",true,"none","off"]'
}

@test "shim's validation disabled (a volatile MokSBStateRT=1) counts as Secure Boot off" {
	machine sb=shim-off
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 3
	assert_equal "$(jq -c '[.verdict, .loads_unsigned, .machine.secure_boot]' <<< "$output")" '["UNSIGNED",true,"shim-validation-off"]'
}

@test "module.sig_enforce=Y: unsigned is -EKEYREJECTED, as module_sig_check() says it" {
	machine sb=off enforce=Y
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_output "$W/m.ko: REJECTED -EKEYREJECTED: Loading of unsigned module is rejected (-ENODATA: unsigned module (no signature magic at the end))
$SIGN_FIX"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_equal "$(jq -c '[.errno, .enforce, .loads_unsigned, .machine.sig_enforce]' <<< "$output")" '["EKEYREJECTED",true,false,true]'
}

@test "a lockdown already in force ([integrity] in /sys/kernel/security/lockdown) refuses without Secure Boot" {
	machine sb=off lockdown=integrity
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_output --partial "$LOCKED (-ENODATA"
	assert_output --partial "locked down by $W/root/sys/kernel/security/lockdown)"
}

@test "a key enrolled with mokutil (MokListRT in efivarfs) is trusted: on Debian's 7.3 through .platform when shim published no MokListTrustedRT" {
	machine mok="$KEYS/other.der"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_success
	assert_output --partial "$W/mok.ko: OK (sha256, RSA-2048, certificate \"untrusted signing key\""
	assert_output --partial "cert $W/root/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23, in .platform: MokListRT, untrusted: no MOK variable table (/sys/firmware/efi/mok-variables), so no MokListTrustedRT)"
}

@test "missing parts are said on stderr, one line each, and in the JSON" {
	machine config=none sb=none lockdown=absent enforce=absent
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/built-in.ko"
	assert_success
	assert_equal "$stderr" "verify-file: warning: no kernel config of $REL in $W/root ($PLACES): crypto assumed built, lockdown assumed under Secure Boot (give --kernel-config)
verify-file: warning: no $W/root/sys/firmware/efi/efivars: not booted with UEFI: no Secure Boot, MOK list or db
verify-file: warning: no $W/root/sys/kernel/security/lockdown: lockdown from the kernel config and Secure Boot only
verify-file: warning: no $W/root/sys/module/module/parameters/sig_enforce: module.sig_enforce taken as off
verify-file: warning: no kernel config: Debian's shipped options taken (IMA_ARCH_POLICY y, lockdown under Secure Boot y, SYSTEM_REVOCATION_LIST n, INTEGRITY_CA_MACHINE_KEYRING n; from Debian's linux-config-6.12 6.12.118-1~deb12u1)"
	assert_equal "$(jq -c '.machine | [.release, .config, .secure_boot, (.missing | length), .config_assumed]' <<< "$output")" "[\"$REL\",null,\"no-uefi\",5,\"Debian's linux-config-6.12 6.12.118-1~deb12u1\"]"
	assert_equal "$(jq -r '.machine.missing[0]' <<< "$output")" "no kernel config of $REL in $W/root ($PLACES): crypto assumed built, lockdown assumed under Secure Boot (give --kernel-config)"
	# no config, Secure Boot on, a kernel of no known vendor: the
	# lockdown distribution kernels have
	machine config=none vendor=other
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_output --partial "locked down by EFI Secure Boot (assumed: no kernel config)"
	# Debian's, whose shipped config has IMA's architecture policy:
	# enforced before lockdown is asked
	machine config=none
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: Loading of unsigned module is rejected"
	# no MOK key enrolled: said too
	[[ "$stderr" == *"no $W/root/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23: no MOK key enrolled"* ]]
}

@test "explicit options replace their part of the machine" {
	machine
	# --lockdown none: this machine's Secure Boot lockdown set aside
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --lockdown none "$W/m.ko"
	assert_failure 3
	assert_output --partial "(the kernel would load it unsigned, tainted)"
	# --kernel-config: a kernel without the lockdown LSM
	sh "$MM" "$W/other" 7.3.0-2-amd64 config=nolsm image=none sb=none
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --kernel-config "$W/other/boot/config-7.3.0-2-amd64" "$W/m.ko"
	assert_failure 3
	assert_output "$W/m.ko: UNSIGNED -ENODATA: unsigned module (no signature magic at the end) (the kernel would load it unsigned, tainted)
$SIGN_FIX"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" --kernel-config "$W/other/boot/config-7.3.0-2-amd64" "$W/m.ko"
	assert_failure 3
	assert_equal "$(jq -c '[.verdict, .errno, .loads_unsigned, .lockdown, .machine.secure_boot]' <<< "$output")" '["UNSIGNED","ENODATA",true,"none","on"]'
	# --vmlinux: another image's keys instead of /boot's
	sh "$MM" "$W/other2" 7.3.0-3-amd64 image="$KEYS/other.der" config=none sb=none
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --vmlinux "$W/other2/boot/vmlinuz-7.3.0-3-amd64" "$W/mok.ko" "$W/built-in.ko"
	assert_failure 1
	assert_line --index 0 --partial "$W/mok.ko: OK"
	assert_line --index 1 --partial "$W/built-in.ko: $LOCKED (-ENOKEY"
	# --kernel: that line's rules, /boot's config left unread
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" --kernel 6.1 "$W/built-in.ko"
	assert_success
	assert_equal "$(jq -r .kernel <<< "$output")" 6.1
	# --enforce on a machine that does not enforce
	machine sb=off
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --enforce "$W/m.ko"
	assert_failure 1
	assert_output --partial "REJECTED -EKEYREJECTED: Loading of unsigned module is rejected"
}

@test "--machine=RELEASE picks one of several kernels; without it, several are a usage error" {
	machine
	sh "$MM" "$W/root" 6.1.0-9-amd64 sb=off
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 2
	assert_equal "$stderr" "verify-file: $W/root: 2 kernels installed (give --machine=RELEASE)"
	run --separate-stderr "$VERIFY_FILE" --json --machine=6.1.0-9-amd64 --sysroot "$W/root" "$W/built-in.ko"
	assert_success
	assert_equal "$(jq -c '[.kernel, .machine.release]' <<< "$output")" '["6.1","6.1.0-9-amd64"]'
	run --separate-stderr "$VERIFY_FILE" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	[[ "$stderr" == "verify-file: --sysroot goes with --machine"* ]]
}

@test "a .config with LOCK_DOWN_IN_EFI_SECURE_BOOT but no machine: 'loads unsigned' depends on Secure Boot, and says so" {
	machine image=none sb=none
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --kernel-config "$W/root/boot/config-$REL" "$W/m.ko"
	assert_failure 3
	assert_output --partial "(the kernel would load it unsigned, tainted, unless booted with Secure Boot: its CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT then refuses it; ask with --machine)"
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --kernel-config "$W/root/boot/config-$REL" "$W/m.ko"
	assert_equal "$(jq -c '[.loads_unsigned, .lockdown]' <<< "$output")" '[null,"if-secure-boot"]'
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --lockdown confidentiality "$W/m.ko"
	assert_failure 1
	assert_output --partial "$LOCKED (-ENODATA: unsigned module (no signature magic at the end); locked down by --lockdown)"
}

@test "a detached regulatory.db signature that fails is refused by cfg80211, never 'loads unsigned'" {
	make_module "$W/regulatory.db" 3000
	"$SIGN_FILE" -d sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/regulatory.db"
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --detached "$W/regulatory.db"
	assert_failure 4
	assert_output "$W/regulatory.db: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (refused by its caller: only modules load unsigned; cfg80211 does not load a regulatory.db that fails)"
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --detached "$W/regulatory.db"
	assert_equal "$(jq -c '[.usage, .verdict, .loads_unsigned]' <<< "$output")" '["unspecified","UNKNOWN-KEY",false]'
	# firmware: refused by the loader that asked.  The kernel takes
	# firmware signatures only with signed attributes (pkcs7_verify()),
	# so an unknown key's signature with them is the soft outcome here.
	openssl cms -sign -binary -nosmimecap -nocerts -md sha256 -outform DER \
		-signer "$KEYS/other.crt" -inkey "$KEYS/other.key" \
		-in "$W/m.ko" -out "$W/fw.p7s"
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --usage firmware --sig "$W/fw.p7s" "$W/m.ko"
	assert_failure 4
	assert_output "$W/m.ko: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (refused by the loader that asked for the signature: only modules load unsigned)"
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --usage firmware --sig "$W/fw.p7s" "$W/m.ko"
	assert_failure 4
	assert_equal "$(jq -c '[.usage, .verdict, .errno, .loads_unsigned]' <<< "$output")" '["firmware","UNKNOWN-KEY","ENOKEY",false]'
}
