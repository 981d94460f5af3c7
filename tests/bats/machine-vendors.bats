#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine on roots laid out as each vendor installs its
# kernel, with that vendor's own shipped config (tests/fixtures/vendor/,
# made by tests/fixtures/vendor-configs.sh) and the efivarfs variables of
# the firmware stage's machines: which vendor it is and why, IMA's
# architecture policy, whether MOK is loaded at all, the lockdown level
# and revocation certificates.

bats_require_minimum_version 1.5.0
load machine-helpers

VC="$TOP/tests/fixtures/vendor"

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/mok.ko"
	"$SIGN_FILE" sha256 "$KEYS/ec384.key" "$KEYS/ec384.crt" "$W/m.ko" "$W/db.ko"
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$W/m.ko" "$W/dbx.ko"
}

judge() { # file, extra args...; JSON of file in output
	local f=$1
	shift
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$@" "$f"
}

verdict() { # jq paths to add
	jq -c "[.verdict, .errno${1:+, $1}]" <<< "$output"
}

@test "Fedora-like root, Fedora's config, Secure Boot on: unsigned EKEYREJECTED by IMA; db key and a MOK leaf without MokListTrustedRT are OK" {
	REL=6.17.7-300.fc43.x86_64
	machine layout=fedora vendor=fedora config=file:"$VC/fedora-6.17.config" mok="$KEYS/other.der" lockdown=absent enforce=absent
	judge "$W/m.ko"
	assert_failure 1
	assert_equal "$(verdict '.machine.kernel_vendor, .machine.ima_enforce')" '["REJECTED","EKEYREJECTED","fedora",true]'
	assert_equal "$(jq -r .machine.kernel_vendor_why <<< "$output")" "the release is Fedora's or RHEL's (.fcNN, .elN)"
	assert_equal "$(jq -r .machine.enforce_why <<< "$output")" "IMA's architecture policy under Secure Boot (CONFIG_IMA_ARCH_POLICY): set_module_sig_enforced()"
	judge "$W/db.ko"
	assert_success
	assert_equal "$(verdict .keyring)" '["OK",null,".platform"]'
	# a leaf MOK certificate (CA:FALSE) without MokListTrustedRT: .platform,
	# which Fedora's retry consults
	judge "$W/mok.ko"
	assert_success
	assert_equal "$(verdict '.keyring, .machine.mok_keyring')" '["OK",null,".platform",".platform"]'
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_output --partial "REJECTED -EKEYREJECTED: Loading of unsigned module is rejected"
}

@test "Arch-like root before the integrity-wide change (7.0, no IMA): an enrolled MOK key is never loaded, its module loads tainted" {
	REL=7.0.13-arch1-1
	machine layout=arch vendor=arch config=file:"$VC/arch-7.0.config" mok="$KEYS/other.der" mokvars=trusted lockdown=absent enforce=absent
	judge "$W/mok.ko"
	assert_failure 4
	assert_equal "$(verdict '.loads_unsigned, .lockdown, .machine.kernel_vendor, .machine.mok_keyring')" '["UNKNOWN-KEY","ENOKEY",true,"none","arch",null]'
	assert_equal "$(jq -r .machine.kernel_vendor_why <<< "$output")" "Arch's /usr/lib/modules/RELEASE/pkgbase is there"
	[[ "$(jq -r .machine.mok_why <<< "$output")" == "MokListRT and MokListXRT not loaded: load_uefi_certs() asks IMA's arch_ima_get_secureboot(), false without CONFIG_IMA_SECURE_AND_OR_TRUSTED_BOOT"* ]]
	# booted with lockdown=integrity: refused
	machine layout=arch vendor=arch config=file:"$VC/arch-7.0.config" mok="$KEYS/other.der" mokvars=trusted lockdown=integrity enforce=absent
	judge "$W/mok.ko"
	assert_failure 1
	assert_equal "$(verdict .underlying_errno)" '["REJECTED","EPERM","ENOKEY"]'
}

@test "Arch-like root from 7.1 on: the MOK key is loaded into .machine, a db-signed module is not OK (no platform retry)" {
	REL=7.1.7-arch1-1
	machine layout=arch vendor=arch config=file:"$VC/arch-7.1.config" mok="$KEYS/other.der" mokvars=trusted lockdown=absent enforce=absent
	judge "$W/mok.ko"
	assert_success
	assert_equal "$(verdict '.keyring, .machine.platform_for_modules')" '["OK",null,".machine",false]'
	assert_equal "$(jq -r .machine.mok_secure_boot_query <<< "$output")" "CONFIG_HAVE_ARCH_GET_SECUREBOOT: load_uefi_certs() asks arch_get_secureboot()"
	judge "$W/db.ko"
	assert_failure 4
	assert_equal "$(verdict .loads_unsigned)" '["UNKNOWN-KEY","ENOKEY",true]'
}

@test "Debian root with Debian's own config, Secure Boot on, offline (no /sys): unsigned is EKEYREJECTED, not lockdown's EPERM" {
	REL=6.12.118+deb13-amd64
	machine config=file:"$VC/debian-6.12.config" lockdown=absent enforce=absent
	rm -rf "$W/root/sys/kernel" "$W/root/sys/module"
	judge "$W/m.ko"
	assert_failure 1
	assert_equal "$(verdict '.underlying_errno, .enforce, .machine.kernel_vendor')" '["REJECTED","EKEYREJECTED","ENODATA",true,"debian"]'
}

@test "Ubuntu-like root, Ubuntu's config: LOCK_DOWN_IN_SECURE_BOOT is read (integrity), unsigned EKEYREJECTED by IMA" {
	REL=7.0.0-14-generic
	machine layout=ubuntu vendor=ubuntu config=file:"$VC/ubuntu-7.0.config" lockdown=absent enforce=absent
	judge "$W/m.ko"
	assert_failure 1
	assert_equal "$(verdict '.lockdown, .lockdown_by, .machine.kernel_vendor, .machine.platform_for_modules')" \
		'["REJECTED","EKEYREJECTED","integrity","EFI Secure Boot (CONFIG_LOCK_DOWN_IN_SECURE_BOOT)","ubuntu",true]'
	assert_equal "$(jq -r .machine.kernel_vendor_why <<< "$output")" "the image's version line names Ubuntu (#N-Ubuntu)"
	# without IMA's enforcement, Ubuntu's option alone locks down
	grep -v IMA "$VC/ubuntu-7.0.config" > "$W/noima.config"
	machine layout=ubuntu vendor=ubuntu config=file:"$W/noima.config" lockdown=absent enforce=absent
	judge "$W/m.ko"
	assert_failure 1
	assert_equal "$(verdict .lockdown)" '["REJECTED","EPERM","integrity"]'
}

@test "SUSE-like root: confidentiality lockdown, and a signer whose certificate is in dbx is revoked" {
	REL=6.4.0-150600.23.25-default
	machine layout=suse vendor=suse config=file:"$VC/suse-6.4.config" db="$KEYS/ec256.der" dbxcert="$KEYS/ec256.der" lockdown=absent enforce=absent
	judge "$W/dbx.ko"
	assert_failure 1
	assert_equal "$(verdict '.lockdown, .machine.kernel_vendor, .machine.revocation_certificates')" '["REJECTED","EKEYREJECTED","confidentiality","suse",true]'
	assert_equal "$(jq -r .reason <<< "$output")" "signing key is on the revocation list"
	assert_equal "$(jq -r .machine.kernel_vendor_why <<< "$output")" "the image's version line names SUSE (geeko@buildhost)"
}

@test "the same dbx certificate on Fedora's and Debian's own configs (no SYSTEM_REVOCATION_LIST): the signer is not refused by it" {
	REL=6.17.7-300.fc43.x86_64
	machine layout=fedora vendor=fedora config=file:"$VC/fedora-6.17.config" db="$KEYS/ec256.der" dbxcert="$KEYS/ec256.der"
	judge "$W/dbx.ko"
	assert_success
	assert_equal "$(verdict '.keyring, .machine.revocation_certificates')" '["OK",null,".platform",false]'
	[[ "$stderr" == *"CONFIG_SYSTEM_REVOCATION_LIST is not set: an X.509 certificate in dbx or MokListXRT revokes nothing (its hashes still do)"* ]]
	REL=6.12.118+deb13-amd64
	machine config=file:"$VC/debian-6.12.config" db="$KEYS/ec256.der" dbxcert="$KEYS/ec256.der"
	judge "$W/dbx.ko"
	assert_success
	assert_equal "$(verdict .machine.kernel_vendor)" '["OK",null,"debian"]'
	# the firmware stage's kernels have the option: revoked there
	REL=7.3.0-1-amd64
	machine db="$KEYS/ec256.der" dbxcert="$KEYS/ec256.der"
	judge "$W/dbx.ko"
	assert_failure 1
	assert_equal "$(verdict)" '["REJECTED","EKEYREJECTED"]'
}

@test "--kernel-vendor takes every row; a version line names its vendor without it" {
	REL=6.17.7-1-default
	for v in debian ubuntu fedora suse arch kernel.org mainline; do
		machine vendor=other config=file:"$VC/suse-6.4.config"
		judge "$W/db.ko" --kernel-vendor "$v"
		want=$v
		[ "$v" = kernel.org ] && want=mainline
		assert_equal "$(jq -r '.machine.kernel_vendor + " " + .machine.kernel_vendor_why' <<< "$output")" "$want --kernel-vendor"
	done
	machine vendor=arch config=file:"$VC/suse-6.4.config"
	judge "$W/db.ko"
	assert_equal "$(jq -r .machine.kernel_vendor <<< "$output")" arch
	machine vendor=other config=file:"$VC/suse-6.4.config"
	judge "$W/db.ko"
	assert_equal "$(jq -r .machine.kernel_vendor <<< "$output")" unknown
	[[ "$stderr" == *"kernel vendor unknown: the image's version line names no known vendor: judged as kernel.org's (give --kernel-vendor)"* ]]
}

@test "no config found: the vendor's shipped options are taken, and said" {
	REL=6.17.7-300.fc43.x86_64
	machine layout=fedora vendor=fedora config=none
	judge "$W/m.ko"
	assert_failure 1
	assert_equal "$(verdict '.machine.config_assumed')" '["REJECTED","EKEYREJECTED","kernel-ark'"'"'s kernel-x86_64-fedora.config (6.17.7)"]'
	[[ "$stderr" == *"no kernel config: Fedora/RHEL's shipped options taken (IMA_ARCH_POLICY y, lockdown under Secure Boot y, SYSTEM_REVOCATION_LIST n, INTEGRITY_CA_MACHINE_KEYRING y (_MAX y); from kernel-ark's kernel-x86_64-fedora.config (6.17.7))"* ]]
}

@test "Secure Boot off, a signer in MokList and MokListX: without SYSTEM_REVOCATION_LIST Secure Boot on verifies it (fix secure-boot-off); with it, no fix" {
	# the firmware stage's debian-ima flavour (Debian's own config): the
	# mokx case loads tainted on fw-sb-off and verified on sb-on, where
	# MokListXRT is loaded but its certificate revokes nothing
	REL=6.12.118+deb13-amd64
	machine config=file:"$VC/debian-6.12.config" sb=off mok="$KEYS/other.der" mokx="$KEYS/other.der" lockdown=absent enforce=absent
	judge "$W/mok.ko"
	assert_failure 4
	assert_equal "$(verdict '.loads_unsigned, .machine.revocation_certificates, .fix.kind')" '["UNKNOWN-KEY","ENOKEY",true,false,"secure-boot-off"]'
	# a kernel with revocation certificates would refuse it once Secure
	# Boot is on: turning it on is no fix
	machine config=lockdown sb=off mok="$KEYS/other.der" mokx="$KEYS/other.der" lockdown=absent enforce=absent
	judge "$W/mok.ko"
	assert_failure 4
	assert_equal "$(verdict '.machine.revocation_certificates, .fix')" '["UNKNOWN-KEY","ENOKEY",true,null]'
}
