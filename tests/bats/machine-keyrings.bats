#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine: where the judged kernel files each key of the
# machine (security/integrity/platform_certs/), and whether .platform
# counts for modules: by Secure Boot as the kernel sees it, the MOK
# variables shim publishes, the config's keyring options and the
# kernel's vendor (Debian's patches, or kernel.org's source).

bats_require_minimum_version 1.5.0
load machine-helpers

REL=7.3.0-1-amd64
MOKVAR="sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
LOCKED="REJECTED -EPERM: Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/mok.ko"
	"$SIGN_FILE" sha256 "$KEYS/ec384.key" "$KEYS/ec384.crt" "$W/m.ko" "$W/db.ko"
}

judge() { # extra args...; sets output (JSON of mok.ko)
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$@"
}

@test "Debian's 6.12 under Secure Boot: MokListRT in .machine, trusted as Debian's trust_moklist() always is" {
	REL=6.12.115+deb13-amd64
	machine mok="$KEYS/other.der"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_success
	assert_output --partial "cert $W/root/$MOKVAR, in .machine: MokListRT, trusted as Debian's trust_moklist() trusts it always)"
	judge "$W/mok.ko"
	assert_equal "$(jq -c '[.verdict, .keyring, .machine.kernel_vendor, .machine.platform_for_modules, .machine.mok_keyring]' <<< "$output")" \
		'["OK",".machine","debian",true,".machine"]'
	assert_equal "$(jq -r .machine.kernel_vendor_why <<< "$output")" "the image's version line names Debian"
}

@test "Debian's 7.3 has kernel.org's trust_moklist(): MokListRT in .machine only with MokListTrustedRT, else .platform, which Debian still retries" {
	machine mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_success
	assert_equal "$(jq -c '[.keyring, .machine.mok_keyring, .machine.platform_for_modules]' <<< "$output")" '[".platform",".platform",true]'
	machine mok="$KEYS/other.der" mokvars=trusted
	judge "$W/mok.ko"
	assert_success
	assert_equal "$(jq -c '[.keyring, .machine.mok_why]' <<< "$output")" '[".machine","MokListRT, trusted by MokListTrustedRT in shim'"'"'s MOK variable table"]'
	# a Debian line between 6.12 and 7.3: not known, said (with IMA, as
	# Debian builds it: before 7.1 MOK loads only through IMA)
	REL=6.16.3-1-amd64
	machine mok="$KEYS/other.der" ima=1
	judge "$W/mok.ko"
	[[ "$stderr" == *"Debian kernel 6.16: whether its trust_moklist() is always true (6.1, 6.12) or kernel.org's (7.3) is not known: kernel.org's assumed"* ]]
}

@test "Secure Boot off: no MOK key is loaded, a MOK-signed module loads unsigned, tainted" {
	machine sb=off mok="$KEYS/other.der"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_failure 4
	assert_output --partial "UNKNOWN-KEY -ENOKEY"
	assert_output --partial "(the kernel would load it unsigned, tainted)"
	[[ "$stderr" == *"$W/root/$MOKVAR: not loaded: Secure Boot is off: the kernel loads no MOK or MOKx key"* ]]
	judge "$W/mok.ko"
	assert_equal "$(jq -c '[.verdict, .loads_unsigned, .machine.mok_keyring]' <<< "$output")" '["UNKNOWN-KEY",true,null]'
}

@test "shim's validation off (MokSBState): the kernel sees Secure Boot off and loads no MOK key" {
	machine sb=shim-off mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_failure 4
	assert_equal "$(jq -c '[.verdict, .machine.mok_keyring]' <<< "$output")" '["UNKNOWN-KEY",null]'
	assert_equal "$(jq -r '.machine.mok_why' <<< "$output")" "shim's validation is off (MokSBState): the kernel sees Secure Boot off and loads no MOK or MOKx key"
}

@test "a kernel.org build without MokListTrustedRT: MokListRT in .platform, which modules never consult: refused" {
	machine vendor=other mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .errno, .underlying_errno, .machine.kernel_vendor, .machine.platform_for_modules, .machine.mok_keyring]' <<< "$output")" \
		'["REJECTED","EPERM","ENOKEY","unknown",false,".platform"]'
	[[ "$stderr" == *"kernel vendor unknown: the image's version line names no known vendor: judged as kernel.org's (give --kernel-vendor)"* ]]
	assert_equal "$(jq -r '.machine.missing[-1]' <<< "$output")" "kernel vendor unknown: the image's version line names no known vendor: judged as kernel.org's (give --kernel-vendor)"
	# the same image said to be Debian's
	judge --kernel-vendor=debian "$W/mok.ko"
	assert_success
	assert_equal "$(jq -c '[.keyring, .machine.kernel_vendor, .machine.kernel_vendor_why]' <<< "$output")" '[".platform","debian","--kernel-vendor"]'
}

@test "a kernel.org build with MokListTrustedRT in shim's MOK variable table: MokListRT in .machine, read from the table" {
	machine vendor=other mok="$KEYS/other.der" mokvars=trusted
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --kernel-vendor mainline "$W/mok.ko"
	assert_success
	assert_output --partial "cert $W/root/sys/firmware/efi/mok-variables/MokListRT, in .machine: MokListRT, trusted by MokListTrustedRT in shim's MOK variable table)"
	# the table without MokListTrustedRT (mokutil --untrust-mok)
	machine vendor=other mok="$KEYS/other.der" mokvars=untrusted
	judge --kernel-vendor mainline "$W/mok.ko"
	assert_failure 1
	assert_equal "$(jq -r '.machine.mok_why' <<< "$output")" "MokListRT, untrusted: no MokListTrustedRT in shim's MOK variable table (mokutil --untrust-mok, or a shim without it)"
}

@test "a db-signed module: Debian's platform keyring retry takes it, kernel.org's kernel refuses it" {
	machine db="$KEYS/ec384.der"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/db.ko"
	assert_success
	assert_output --partial ", in .platform: UEFI db)"
	judge --kernel-vendor=mainline "$W/db.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .underlying_errno, .machine.platform_for_modules]' <<< "$output")" '["REJECTED","ENOKEY",false]'
}

@test "MokIgnoreDB: the kernel does not load db at all" {
	machine db="$KEYS/ec384.der" ignoredb=1
	judge "$W/db.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .underlying_errno]' <<< "$output")" '["REJECTED","ENOKEY"]'
	[[ "$stderr" == *"not loaded: MokIgnoreDB (mokutil --ignore-db): the kernel does not load db"* ]]
}

@test "INTEGRITY_CA_MACHINE_KEYRING: a MOK key that is no CA goes to .platform; a CA key stays in .machine" {
	machine mok="$KEYS/other.der" keyrings=ca mokvars=trusted
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_success
	assert_output --partial "in .platform: MokListRT, refused by .machine: not a CA key with keyCertSign (INTEGRITY_CA_MACHINE_KEYRING))"
	judge --kernel-vendor=mainline "$W/mok.ko"
	assert_failure 1
	# a CA key with keyCertSign, made from the committed key
	openssl req -x509 -new -key "$KEYS/other.key" -subj "/CN=modsign test MOK CA" -days 3650 \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,digitalSignature \
		-addext subjectKeyIdentifier=hash -outform DER -out "$W/ca.der"
	openssl x509 -inform DER -in "$W/ca.der" -out "$W/ca.pem"
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$W/ca.pem" "$W/m.ko" "$W/ca.ko"
	machine mok="$W/ca.der" keyrings=ca
	judge --kernel-vendor=mainline "$W/ca.ko"
	assert_failure 1	# mainline without MokListTrustedRT: .platform
	machine mok="$W/ca.der" keyrings=ca mokvars=trusted
	judge --kernel-vendor=mainline "$W/ca.ko"
	assert_success
	assert_equal "$(jq -r .keyring <<< "$output")" .machine
	# _MAX: a CA key with digitalSignature too is refused
	machine mok="$W/ca.der" keyrings=camax mokvars=trusted
	judge --kernel-vendor=mainline "$W/ca.ko"
	assert_failure 1
}

@test "no INTEGRITY_MACHINE_KEYRING in the config: MokListRT in .platform" {
	machine mok="$KEYS/other.der" keyrings=nomachine
	judge "$W/mok.ko"
	assert_success
	assert_equal "$(jq -c '[.keyring, .machine.mok_keyring]' <<< "$output")" '[".platform",".platform"]'
}

@test "MokListXRT revokes a MOK key under Secure Boot, and is not read with Secure Boot off" {
	machine mok="$KEYS/other.der" mokx="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .underlying_errno]' <<< "$output")" '["REJECTED","EKEYREJECTED"]'
	# MokListXRT revoking the built-in key: only under Secure Boot
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/built-in.ko"
	machine mokx="$KEYS/rsa2048.der"
	judge "$W/built-in.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .underlying_errno]' <<< "$output")" '["REJECTED","EKEYREJECTED"]'
	machine sb=off mokx="$KEYS/rsa2048.der"
	judge "$W/built-in.ko"
	assert_success
}

@test "--list-keys names each key's keyring and why" {
	machine mok="$KEYS/other.der" db="$KEYS/ec384.der" mokvars=trusted
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" --list-keys
	assert_success
	assert_output --partial "    keyring: .builtin_trusted_keys
    from:    $W/root/boot/vmlinuz-$REL"
	assert_output --partial "    keyring: .machine
    from:    $W/root/sys/firmware/efi/mok-variables/MokListRT
    why:     MokListRT, trusted by MokListTrustedRT in shim's MOK variable table"
	assert_output --partial "    keyring: .platform
    from:    $W/root/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f
    why:     UEFI db"
}

@test "--kernel-vendor: an unknown name is a usage error" {
	run --separate-stderr "$VERIFY_FILE" --kernel-vendor=gentoo -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_failure 2
	[[ "$stderr" == "verify-file: unknown kernel vendor 'gentoo' (use debian, ubuntu, fedora, suse, arch, kernel.org (or mainline))"* ]]
}
