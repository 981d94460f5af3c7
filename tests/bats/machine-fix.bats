#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine: every refusal or taint names the fix that works on
# that machine, one kind each (src/verify-file/fix.c, verify-file(1)
# FIXES): the line after the verdict's, and "fix" in the JSON.  The fake
# roots (tests/fixtures/make-machine.sh) hold the keys dkms, Ubuntu's
# shim-signed, akmods and sbctl leave in their usual places.

bats_require_minimum_version 1.5.0
load machine-helpers

REL=7.3.0-1-amd64
EFI=/sys/firmware/efi/efivars
SHIM=605dab50-e046-4300-abb6-3dd810dd8b23
MOKLIST="$EFI/MokListRT-$SHIM"
LOCKED="REJECTED -EPERM: Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/mok.ko"
	"$SIGN_FILE" sha256 "$KEYS/ec384.key" "$KEYS/ec384.crt" "$W/m.ko" "$W/db.ko"
}

# KEY's certificate (DER) at CERT in the root, its private key at PRIV
put_key() { # key cert [priv]
	mkdir -p "$(dirname "$W/root$2")"
	cp "$KEYS/$1.der" "$W/root$2"
	if [ -n "${3:-}" ]; then
		mkdir -p "$(dirname "$W/root$3")"
		cp "$KEYS/$1.key" "$W/root$3"
	fi
}

dkms_key() { # key
	put_key "$1" /var/lib/dkms/mok.pub /var/lib/dkms/mok.key
}

# The text verdict of file: its verdict line, then its fix line; the JSON
# object's "fix" in $fix.
judge() { # file
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$1"
	text=$output
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$1"
	fix=$(jq -c .fix <<< "$output")
}

# The text's second line, and the JSON's "fix", for KIND, WHY and
# COMMAND (none: null)
assert_fix() { # kind why command
	local line="  fix ($1): $2${3:+: $3}"
	local cmd=null

	[ -z "$3" ] || cmd=$(jq -n --arg c "$3" '$c')
	assert_equal "$(sed -n 2p <<< "$text")" "$line"
	assert_equal "$(wc -l <<< "$text")" 2
	assert_equal "$fix" "$(jq -nc --arg k "$1" --argjson c "$cmd" --arg w "$2" '{kind: $k, command: $c, why: $w}')"
}

@test "enrol-mok: dkms's key made and never enrolled; and each usual place, and a certificate whose key signed it" {
	machine
	dkms_key other
	judge "$W/mok.ko"
	assert_equal "$(head -n 1 <<< "$text")" "$W/mok.ko: $LOCKED (-ENOKEY: no trusted key for any signer; locked down by EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT))"
	assert_fix enrol-mok "signed by dkms's key /var/lib/dkms/mok.pub (\"untrusted signing key\"), which is not enrolled: enrol it, then reboot and confirm the enrolment in MokManager" \
		"mokutil --import /var/lib/dkms/mok.pub"
	for p in "Ubuntu's shim-signed MOK key:/var/lib/shim-signed/mok/MOK.der" \
		 "akmods' key:/etc/pki/akmods/certs/public_key.der" \
		 "a certificate:/var/lib/dkms/signing-2024.der"; do
		machine
		put_key other "${p#*:}"
		judge "$W/mok.ko"
		assert_fix enrol-mok "signed by ${p%%:*} ${p#*:} (\"untrusted signing key\"), which is not enrolled: enrol it, then reboot and confirm the enrolment in MokManager" \
			"mokutil --import ${p#*:}"
	done
	# sbctl's is PEM
	machine
	mkdir -p "$W/root/var/lib/sbctl/keys/db"
	cp "$KEYS/other.crt" "$W/root/var/lib/sbctl/keys/db/db.pem"
	judge "$W/mok.ko"
	assert_fix enrol-mok "signed by sbctl's db key /var/lib/sbctl/keys/db/db.pem (\"untrusted signing key\"), which is not enrolled: enrol it, then reboot and confirm the enrolment in MokManager" \
		"mokutil --import /var/lib/sbctl/keys/db/db.pem"
}

@test "enrolment-pending: MokNew holds the signer: reboot and confirm, no command" {
	machine
	dkms_key other
	python3 "$TOP/tests/fixtures/make-trust.py" esl "$W/new.esl" "x509:$KEYS/other.der"
	python3 "$TOP/tests/fixtures/make-trust.py" efivar "$W/root$EFI/MokNew-$SHIM" "$W/new.esl"
	judge "$W/mok.ko"
	assert_fix enrolment-pending "signed by dkms's key /var/lib/dkms/mok.pub (\"untrusted signing key\"), which waits in MokNew: reboot and confirm the enrolment in MokManager (with the password mokutil --import asked for)" ""
}

@test "other-local-key: signed by dkms's key while Ubuntu's shim-signed key is the one enrolled: both named" {
	machine mok="$KEYS/ec256.der"
	dkms_key other
	put_key ec256 /var/lib/shim-signed/mok/MOK.der /var/lib/shim-signed/mok/MOK.priv
	judge "$W/mok.ko"
	assert_fix other-local-key "signed by dkms's key /var/lib/dkms/mok.pub (\"untrusted signing key\"), but the enrolled key is Ubuntu's shim-signed MOK key /var/lib/shim-signed/mok/MOK.der (\"modsign test ECDSA P-256 key\"): enrol the signer's certificate too (or re-sign with the enrolled key), then reboot and confirm the enrolment in MokManager" \
		"mokutil --import /var/lib/dkms/mok.pub"
}

@test "sign: a module never signed, signed with dkms's enrolled key, the module named as the machine names it" {
	machine mok="$KEYS/other.der"
	dkms_key other
	mkdir -p "$W/root/lib/modules/$REL/updates"
	cp "$W/m.ko" "$W/root/lib/modules/$REL/updates/m.ko"
	judge "$W/root/lib/modules/$REL/updates/m.ko"
	assert_fix sign "the module is not signed: sign it with dkms's key, which this kernel trusts" \
		"sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub /lib/modules/$REL/updates/m.ko"
	# a name a shell would split is quoted in the command
	cp "$W/m.ko" "$W/root/lib/modules/$REL/updates/it's here.ko"
	judge "$W/root/lib/modules/$REL/updates/it's here.ko"
	assert_fix sign "the module is not signed: sign it with dkms's key, which this kernel trusts" \
		"sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub '/lib/modules/$REL/updates/it'\\''s here.ko'"
	# dkms's key not enrolled: sign, then enrol
	machine
	dkms_key other
	judge "$W/m.ko"
	assert_fix sign "the module is not signed: sign it with dkms's key, then enrol its certificate (mokutil --import /var/lib/dkms/mok.pub), reboot and confirm the enrolment in MokManager" \
		"sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $W/m.ko"
	# no key at hand: what to sign with, no command
	machine
	judge "$W/m.ko"
	assert_fix sign "the module is not signed: sign it with a key in a keyring this kernel checks modules against (--list-keys names them)" ""
}

@test "secure-boot-off: the enrolled MOK key is ignored: it loads tainted; Secure Boot on, or shim's validation on" {
	machine sb=off mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_equal "$(head -n 1 <<< "$text")" "$W/mok.ko: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (the kernel would load it unsigned, tainted)"
	assert_fix secure-boot-off "signed by the enrolled MOK key \"untrusted signing key\" ($MOKLIST), but Secure Boot is off, so the kernel loads no MOK key: as it is the module loads tainted (E); to have it verified, turn Secure Boot on in the firmware setup" ""
	machine sb=shim-off mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_fix secure-boot-off "signed by the enrolled MOK key \"untrusted signing key\" ($MOKLIST), but shim's validation is off (MokSBState), so the kernel loads no MOK key: as it is the module loads tainted (E); to have it verified, turn shim's validation on again, then reboot and confirm in MokManager" \
		"mokutil --enable-validation"
}

@test "secure-boot-off is never given for a signer MokListXRT revokes: Secure Boot on would refuse it, not verify it" {
	# what the firmware stage's second boot showed (tests/firmware/
	# fix-proofs.sh): the mokx case loads tainted with shim's validation
	# off, and is refused once it is on
	machine sb=shim-off mok="$KEYS/other.der" mokx="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_equal "$(head -n 1 <<< "$text")" "$W/mok.ko: UNKNOWN-KEY -ENOKEY: no trusted key for any signer (the kernel would load it unsigned, tainted)"
	assert_equal "$(wc -l <<< "$text")" 1
	assert_equal "$fix" null
	machine sb=off mok="$KEYS/other.der" mokx="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_equal "$fix" null
}

@test "trust-mok: a kernel.org kernel files MOK in .platform without MokListTrustedRT" {
	machine vendor=other mok="$KEYS/other.der"
	judge "$W/mok.ko"
	assert_fix trust-mok "signed by the enrolled MOK key \"untrusted signing key\" ($MOKLIST), but this kernel files MOK keys in .platform, which it never consults for modules, unless shim publishes MokListTrustedRT: trust MOK keys for the kernel, then reboot and confirm in MokManager" \
		"mokutil --trust-mok"
	# with MokListTrustedRT it is OK: no fix line
	machine vendor=other mok="$KEYS/other.der" mokvars=trusted
	judge "$W/mok.ko"
	assert_equal "$(wc -l <<< "$text")" 1
	assert_equal "$fix" null
}

@test "db-key: a db key never vouches for modules on kernel.org's kernel: enrol sbctl's db certificate as MOK; MokIgnoreDB on Debian" {
	machine vendor=other mokvars=trusted
	mkdir -p "$W/root/var/lib/sbctl/keys/db"
	cp "$KEYS/ec384.crt" "$W/root/var/lib/sbctl/keys/db/db.pem"
	cp "$KEYS/ec384.key" "$W/root/var/lib/sbctl/keys/db/db.key"
	judge "$W/db.ko"
	assert_fix db-key "signed by the UEFI db key \"modsign test ECDSA P-384 key\" (/var/lib/sbctl/keys/db/db.pem), and db keys never vouch for modules on this kernel (it has no platform keyring retry: modules are checked against .builtin_trusted_keys and .secondary_trusted_keys only): enrol it as a MOK key, then reboot and confirm the enrolment in MokManager (or sign the module with an enrolled MOK key)" \
		"mokutil --import /var/lib/sbctl/keys/db/db.pem"
	# without MokListTrustedRT a MOK key would not vouch either
	machine vendor=other
	judge "$W/db.ko"
	assert_fix db-key "signed by the UEFI db key \"modsign test ECDSA P-384 key\" ($EFI/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f), and db keys never vouch for modules on this kernel (it has no platform keyring retry: modules are checked against .builtin_trusted_keys and .secondary_trusted_keys only): sign the module with a key in a keyring this kernel checks modules against (--list-keys names them)" ""
	machine ignoredb=1
	judge "$W/db.ko"
	assert_fix db-key "signed by the UEFI db key \"modsign test ECDSA P-384 key\" ($EFI/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f), and db keys never vouch for modules on this kernel (MokIgnoreDB (mokutil --ignore-db): the kernel does not load db): enrol that certificate, as db holds it, as a MOK key (mokutil --import), or sign the module with an enrolled MOK key" ""
}

@test "no-mok-kernel: an Arch 7.0 kernel without IMA never loads MOK: no enrolment helps, enrolled or not" {
	REL=7.0.13-arch1-1
	local why="this kernel never loads MOK keys (MokListRT and MokListXRT not loaded: load_uefi_certs() asks IMA's arch_ima_get_secureboot(), false without CONFIG_IMA_SECURE_AND_OR_TRUSTED_BOOT (release before \"integrity: Make arch_ima_get_secureboot integrity-wide\")): no enrolment helps; sign the module with a key built into the kernel, or boot a kernel that loads MOK (built with IMA_ARCH_POLICY, or kernel.org's 7.1, 6.12.110 and later)"
	machine layout=arch vendor=arch config=file:"$TOP/tests/fixtures/vendor/arch-7.0.config" mok="$KEYS/other.der" mokvars=trusted lockdown=absent enforce=absent
	judge "$W/mok.ko"
	assert_fix no-mok-kernel "$why" ""
	machine layout=arch vendor=arch config=file:"$TOP/tests/fixtures/vendor/arch-7.0.config" mokvars=trusted lockdown=absent enforce=absent
	dkms_key other
	judge "$W/mok.ko"
	assert_fix no-mok-kernel "$why" ""
}

@test "revoked: MokListXRT revokes the signer: sign with another key this kernel trusts" {
	machine mok="$KEYS/other.der" mokx="$KEYS/other.der"
	dkms_key rsa2048
	judge "$W/mok.ko"
	assert_equal "$(head -n 1 <<< "$text")" "$W/mok.ko: REJECTED -EKEYREJECTED: signing key is on the revocation list"
	assert_fix revoked "the signer's key is revoked (its certificate is in $EFI/MokListXRT-$SHIM): sign the module with another key, such as dkms's key, which this kernel trusts" \
		"sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $W/mok.ko"
}

@test "changed-after-signing: a byte changed after signing, the signer enrolled or not; a signature appended after compression" {
	cp "$W/mok.ko" "$W/changed.ko"
	printf X | dd of="$W/changed.ko" bs=1 seek=1000 conv=notrunc 2>/dev/null
	local why="the signature does not match the module: it was changed after signing (stripped, or compressed without sign-file); re-sign it as the last step, after strip and before compression"
	machine mok="$KEYS/other.der"
	dkms_key other
	judge "$W/changed.ko"
	assert_equal "$(head -n 1 <<< "$text")" "$W/changed.ko: REJECTED -EKEYREJECTED: RSA signature over other data (digest mismatch)"
	assert_fix changed-after-signing "$why" "sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $W/changed.ko"
	# not enrolled: enrolling would not help, and it is not said
	machine
	dkms_key other
	judge "$W/changed.ko"
	assert_fix changed-after-signing "$why" "sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $W/changed.ko"
	# the kernel's own scripts/sign-file appends after the xz stream
	need_reference
	xz -k "$W/m.ko"
	"$REF_SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko.xz" "$W/after.ko.xz"
	judge "$W/after.ko.xz"
	assert_fix changed-after-signing "it was signed after compression: the kernel decompresses it first and finds no signature; sign the module before compressing it (sign-file signs inside the compression)" ""
}

@test "unsupported-algorithm: signed with sha512 for a kernel without CRYPTO_SHA512: re-sign with sha256" {
	"$SIGN_FILE" sha512 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/sha512.ko"
	machine
	grep -v '^CONFIG_CRYPTO_SHA512=' "$W/root/boot/config-$REL" > "$W/config"
	machine mok="$KEYS/other.der" config=file:"$W/config"
	dkms_key other
	judge "$W/sha512.ko"
	assert_fix unsupported-algorithm "this kernel lacks the hash sha512 (digest algorithm not available in the kernel: it has no sha512 (CONFIG_CRYPTO_SHA512 is not set)): re-sign the module with sha256" \
		"sign-file sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub $W/sha512.ko"
}

@test "no fix known (the signer's certificate is nowhere): no fix line, \"fix\": null; a clean OK has none either" {
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$W/m.ko" "$W/stranger.ko"
	machine mok="$KEYS/other.der"
	judge "$W/stranger.ko"
	assert_equal "$text" "$W/stranger.ko: $LOCKED (-ENOKEY: no trusted key for any signer; locked down by EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT))"
	assert_equal "$fix" null
	judge "$W/mok.ko"
	assert_equal "$(wc -l <<< "$text")" 1
	assert_equal "$fix" null
	# without --machine there is no "fix" key at all
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" "$W/mok.ko"
	assert_equal "$(jq -c 'has("fix")' <<< "$output")" false
}

@test "unsupported-algorithm: an enrolled ECDSA key on a kernel without CRYPTO_ECDSA: enrolment cannot help, an RSA key can" {
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$W/m.ko" "$W/ec.ko"
	machine
	grep -v '^CONFIG_CRYPTO_ECDSA=' "$W/root/boot/config-$REL" > "$W/config"
	# the signer's certificate enrolled, and no other key around
	machine mok="$KEYS/ec256.der" config=file:"$W/config"
	dkms_key ec256
	judge "$W/ec.ko"
	local why="this kernel lacks ECDSA keys (CONFIG_CRYPTO_ECDSA is not set), and the module is signed with one (ecdsa-with-SHA256): no such certificate enters its keyrings, enrolled or not; re-sign the module with an RSA key"
	assert_equal "$(sed -n 1p <<< "$text")" "$W/ec.ko: $LOCKED (-ENOKEY: no trusted key for any signer; locked down by EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT))"
	assert_fix unsupported-algorithm "$why" ""
	# Ubuntu's shim-signed RSA key at hand, its certificate enrolled
	# instead of the ECDSA one, and not enrolled yet: its sign-file
	# command either way, and the enrolment where it is needed
	for mok in other ec256; do
		machine mok="$KEYS/$mok.der" config=file:"$W/config"
		dkms_key ec256
		put_key other /var/lib/shim-signed/mok/MOK.der /var/lib/shim-signed/mok/MOK.priv
		judge "$W/ec.ko"
		local then="which this kernel trusts"
		[ "$mok" = other ] ||
			then="then enrol its certificate (mokutil --import /var/lib/shim-signed/mok/MOK.der), reboot and confirm the enrolment in MokManager"
		assert_fix unsupported-algorithm "$why such as Ubuntu's shim-signed MOK key, $then" \
			"sign-file sha256 /var/lib/shim-signed/mok/MOK.priv /var/lib/shim-signed/mok/MOK.der $W/ec.ko"
	done
	# with ECDSA in the kernel, the same module and machine: enrol-mok
	machine
	dkms_key ec256
	judge "$W/ec.ko"
	assert_equal "$(jq -r .kind <<< "$fix")" enrol-mok
}
