#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine on the kernel running there: the keys it really
# holds (/proc/keys, and keyctl on this machine) overrule what the files
# predict.  Under --sysroot the kernel runs when the root's
# /proc/sys/kernel/osrelease names the release (make-machine.sh
# layout=running); its /proc/keys is written here as the kernel lists it.

bats_require_minimum_version 1.5.0
load machine-helpers

REL=6.12.115+deb13-amd64
BUILTIN="modsign test RSA-2048 key: 52becfe834406c10d9bcf8d61d7d192348b534db"

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/built-in.ko"
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" "$W/m.ko" "$W/mok.ko"
	sh "$MM" "$W/root" $REL layout=running mok="$KEYS/other.der"
	MOKDESC=$("$VERIFY_FILE" -c "$KEYS/other.crt" --list-keys | sed -n "s/^Loaded X.509 cert '\(.*\)'$/\1/p")
}

proc_keys() { # lines after the keyrings
	{
		echo "21a56e1e I------     1 perm 1f0b0000     0     0 keyring   .builtin_trusted_keys: 1"
		echo "0b4c0e5f I------     1 perm 1f0f0000     0     0 keyring   .secondary_trusted_keys: 2"
		echo "3cc36203 I------     1 perm 1f0b0000     0     0 keyring   .machine: 1"
		echo "1d2e3f40 I------     1 perm 1f0b0000     0     0 keyring   .platform: 1"
		echo "3cc36204 I------     1 perm 0f0b0000     0     0 keyring   .blacklist: empty"
		# UEFI db's key (make-machine.sh's), in .platform
		echo "1d2e3f41 I------     1 perm 1f010000     0     0 asymmetri modsign test ECDSA P-384 key: 77b5198f61edc799979a9b51f04567d2383671c6: X509.ecdsa 383671c6 []"
		for l in "$@"; do echo "$l"; done
	} > "$W/root/proc/keys"
}

@test "the running kernel holds the built-in and MOK keys the files predict: judged as predicted" {
	proc_keys "12345678 I------     1 perm 1f010000     0     0 asymmetri $BUILTIN: X509.rsa 2d7d1923 []" \
		  "12345679 I------     1 perm 1f010000     0     0 asymmetri $MOKDESC: X509.rsa 8c29bc8f []"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/built-in.ko" "$W/mok.ko"
	assert_success
	[[ "$stderr" != *"running kernel"* ]]
}

@test "a MOK key the running kernel does not hold is left out, and said" {
	proc_keys "12345678 I------     1 perm 1f010000     0     0 asymmetri $BUILTIN: X509.rsa 2d7d1923 []"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/built-in.ko" "$W/mok.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .underlying_errno]' <<< "$output")" '["OK",null]
["REJECTED","ENOKEY"]'
	[[ "$stderr" == *"running kernel: '$MOKDESC' ($W/root/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23) predicted in .machine is not among its keys: left out"* ]]
	assert_equal "$(jq -r '.machine.missing[] | select(startswith("running kernel"))' <<< "${lines[1]}" | wc -l)" 1
}

@test "a key the running kernel holds that no file gave is said (added at run time)" {
	proc_keys "12345678 I------     1 perm 1f010000     0     0 asymmetri $BUILTIN: X509.rsa 2d7d1923 []" \
		  "12345679 I------     1 perm 1f010000     0     0 asymmetri $MOKDESC: X509.rsa 8c29bc8f []" \
		  "1234567a I------     1 perm 1f010000     0     0 asymmetri DKMS module signing key: 00aa11bb22cc: X509.rsa 22cc22cc []" \
		  "1234567b I------     1 perm 1f030000     0     0 user      something: 4"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/built-in.ko"
	assert_success
	[[ "$stderr" == *"running kernel: 'DKMS module signing key: 00aa11bb22cc' is in its keyrings, but in no file read (added at run time?): a module it signed is judged UNKNOWN-KEY here"* ]]
}

@test "a /proc/keys without system keyrings (not root), or that is none, is said and not used" {
	echo "054a0744 I--Q---     2 perm 1f3f0000     0 65534 keyring   _uid.0: empty" > "$W/root/proc/keys"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_success
	[[ "$stderr" == *"$W/root/proc/keys lists no system keyring (run as root): the running kernel's keys not read"* ]]
	echo "garbage" > "$W/root/proc/keys"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	assert_success
	[[ "$stderr" == *"$W/root/proc/keys: not a /proc/keys listing: the running kernel's keys not read"* ]]
	# a kernel not running there: its /proc/keys is not read
	echo 6.1.0-1-amd64 > "$W/root/proc/sys/kernel/osrelease"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/mok.ko"
	[[ "$stderr" != *"proc/keys"* ]]
}

@test "this machine, as root: keyctl reads the system keyrings /proc/keys lists" {
	need_root "the system keyrings are listed to root only"
	grep -q ' keyring   \.builtin_trusted_keys:' /proc/keys
	# a kernel config with modules and their signatures: this machine's
	# own may have neither (a VM kernel without CONFIG_MODULES refuses
	# every module, -ENOSYS), and the keys are what is tested here
	printf '# Linux/x86 6.12.1 Kernel Configuration\nCONFIG_MODULES=y\nCONFIG_MODULE_SIG=y\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/modules.config"
	run --separate-stderr "$VERIFY_FILE" --machine --kernel-config "$W/modules.config" -c "$KEYS/rsa2048.crt" "$W/built-in.ko"
	[[ "$stderr" != *"keyctl: cannot read"* ]]
	[[ "$stderr" != *"lists no system keyring"* ]]
	# the -c key is the user's: never left out for not being loaded
	assert_success
}
