#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine: what it says of a root that is not there and of
# a key enrolment still waiting for MokManager (fake machines from
# tests/fixtures/make-machine.sh, as in machine.bats).

bats_require_minimum_version 1.5.0
load machine-helpers

REL=7.3.0-1-amd64
SHIM=605dab50-e046-4300-abb6-3dd810dd8b23

@test "--sysroot naming no directory says so (exit 7), not that it holds no kernel" {
	make_module m.ko 4000
	run "$VERIFY_FILE" --machine --sysroot "$W/nonexistent" m.ko
	assert_failure 7
	assert_output "verify-file: $W/nonexistent: no such directory (check --sysroot)"
	mkdir empty
	run "$VERIFY_FILE" --machine --sysroot "$W/empty" m.ko
	assert_failure 7
	assert_output --partial "verify-file: $W/empty: no kernel installed under it (looked for /boot/vmlinuz-RELEASE"
}

@test "a pending MOK enrolment (MokNew) is said: it waits for MokManager at the next boot" {
	require_cmd cc gcc
	make_module m.ko 4000
	"$SIGN_FILE" sha256 "$KEYS/other.key" "$KEYS/other.crt" m.ko
	sh "$MM" "$W/root" "$REL" sb=off
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" m.ko
	refute_output --partial MokNew
	[[ $stderr != *MokNew* ]] || fail "$stderr"
	# mokutil --import's variable: any content, only its presence counts
	cp "$W/root/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f" \
		"$W/root/sys/firmware/efi/efivars/MokNew-$SHIM"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" m.ko
	[[ $stderr == *"verify-file: warning: $W/root/sys/firmware/efi/efivars: a MOK enrolment is pending (MokNew): the key waits for confirmation in MokManager at the next boot, and is not trusted until then"* ]] ||
		fail "$stderr"
}
