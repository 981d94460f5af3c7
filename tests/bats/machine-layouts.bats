#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine --sysroot on roots laid out as each distribution
# installs its kernels (tests/fixtures/make-machine.sh layout=...): the
# one kernel there is found, its image and config are taken from where
# that distribution keeps them, and every path stays inside the root.

bats_require_minimum_version 1.5.0
load machine-helpers

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/built-in.ko"
}

# judged: the built-in key vouches (image found), and an unsigned module
# is refused by the lockdown the config asks for under Secure Boot (config
# found: without it the lockdown would be "assumed")
judged_from() { # release vmlinuz-path vmlinuz-from config-path config-from
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/built-in.ko" "$W/m.ko"
	assert_failure 1
	[[ "$stderr" != *"no kernel"* ]]
	assert_equal "$(jq -c '[.verdict, .underlying_errno, .machine.release]' <<< "$output")" \
"[\"OK\",null,\"$1\"]
[\"REJECTED\",\"ENODATA\",\"$1\"]"
	assert_equal "$(jq -r '.machine | .vmlinuz, .vmlinuz_from, .config, .config_from' <<< "${lines[0]}")" "$2
$3
$4
$5"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_output --partial "locked down by EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT)"
}

@test "Debian 12: /boot/vmlinuz-R and /boot/config-R" {
	R=6.1.0-41-amd64
	sh "$MM" "$W/root" $R layout=debian12
	judged_from $R "$W/root/boot/vmlinuz-$R" "/boot/vmlinuz-RELEASE" "$W/root/boot/config-$R" "/boot/config-RELEASE"
}

@test "Debian 13's 7.x packages: /usr/lib/modules/R/vmlinuz and /usr/lib/modules/R/config, nothing in /boot" {
	R=7.3.4+deb13-amd64
	sh "$MM" "$W/root" $R layout=debian13
	judged_from $R "$W/root/usr/lib/modules/$R/vmlinuz" "/usr/lib/modules/RELEASE/vmlinuz" "$W/root/usr/lib/modules/$R/config" "/usr/lib/modules/RELEASE/config"
}

@test "Fedora: /boot/vmlinuz-R from kernel-install, the config in /usr/lib/modules/R" {
	R=6.17.7-300.fc43.x86_64
	sh "$MM" "$W/root" $R layout=fedora
	judged_from $R "$W/root/boot/vmlinuz-$R" "/boot/vmlinuz-RELEASE" "$W/root/usr/lib/modules/$R/config" "/usr/lib/modules/RELEASE/config"
}

@test "Ubuntu: /boot, with /lib a link to usr/lib" {
	R=6.8.0-88-generic
	sh "$MM" "$W/root" $R layout=ubuntu
	judged_from $R "$W/root/boot/vmlinuz-$R" "/boot/vmlinuz-RELEASE" "$W/root/boot/config-$R" "/boot/config-RELEASE"
}

@test "Arch: /boot/vmlinuz-<pkgbase>, the release from /usr/lib/modules/R/pkgbase, the config from the headers" {
	R=6.17.8-arch1-1
	sh "$MM" "$W/root" $R layout=arch
	judged_from $R "$W/root/boot/vmlinuz-linux" "/boot/vmlinuz-PKGBASE (Arch: /usr/lib/modules/RELEASE/pkgbase)" "$W/root/usr/lib/modules/$R/build/.config" "the headers' /usr/lib/modules/RELEASE/build/.config"
}

@test "the running kernel: /proc/config.gz when /proc/sys/kernel/osrelease names the release" {
	R=6.12.57+deb13-amd64
	sh "$MM" "$W/root" $R layout=running
	judged_from $R "$W/root/boot/vmlinuz-$R" "/boot/vmlinuz-RELEASE" "$W/root/proc/config.gz" "the running kernel's /proc/config.gz"
	# another release than the one running: /proc/config.gz is not its
	echo 6.12.1-other > "$W/root/proc/sys/kernel/osrelease"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_equal "$(jq -r .machine.config <<< "$output")" null
}

@test "Debian 12 without /boot/config-R: the headers' .config through the absolute link build -> /usr/src/..., inside the root" {
	R=6.1.0-41-amd64
	sh "$MM" "$W/root" $R layout=debian12
	rm "$W/root/boot/config-$R"
	judged_from $R "$W/root/boot/vmlinuz-$R" "/boot/vmlinuz-RELEASE" "$W/root/usr/src/linux-headers-$R/.config" "the headers' /lib/modules/RELEASE/build/.config"
}

@test "-v says which file each part came from" {
	R=6.17.8-arch1-1
	sh "$MM" "$W/root" $R layout=arch
	run --separate-stderr "$VERIFY_FILE" -v --machine --sysroot "$W/root" "$W/built-in.ko"
	assert_success
	[[ "$stderr" == *"verify-file: $W/root/boot/vmlinuz-linux: kernel image, as /boot/vmlinuz-PKGBASE (Arch: /usr/lib/modules/RELEASE/pkgbase)"* ]]
	[[ "$stderr" == *"verify-file: $W/root/usr/lib/modules/$R/build/.config: kernel config, as the headers' /usr/lib/modules/RELEASE/build/.config"* ]]
}

@test "two kernels in /usr/lib/modules: a usage error naming the choice; --machine=RELEASE takes one" {
	sh "$MM" "$W/root" 7.3.4+deb13-amd64 layout=debian13
	sh "$MM" "$W/root" 7.2.1+deb13-amd64 layout=debian13 config=nolsm
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 2
	assert_equal "$stderr" "verify-file: $W/root: 2 kernels installed (give --machine=RELEASE)"
	run --separate-stderr "$VERIFY_FILE" --machine=7.2.1+deb13-amd64 --sysroot "$W/root" "$W/m.ko"
	assert_failure 3
	assert_output --partial "(the kernel would load it unsigned, tainted)"
}

@test "a root with no kernel: exit 7, naming the places looked at" {
	mkdir -p "$W/root/boot"
	run --separate-stderr "$VERIFY_FILE" --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 7
	assert_equal "$stderr" "verify-file: $W/root: no kernel installed under it (looked for /boot/vmlinuz-RELEASE, /boot/vmlinuz-PKGBASE, /usr/lib/modules/RELEASE/vmlinuz, /lib/modules/RELEASE/vmlinuz, /boot/MACHINE-ID/RELEASE/linux, /boot/loader/entries/*.conf; give --machine=RELEASE and --vmlinux)"
}

@test "--sysroot: an absolute link resolves inside the root, never on the host" {
	R=6.1.0-41-amd64
	sh "$MM" "$W/root" $R layout=debian12
	# the root's own config behind an absolute link: taken
	sh "$MM" "$W/tmp" $R config=nolsm image=none sb=none
	mkdir -p "$W/root/etc"
	cp "$W/tmp/boot/config-$R" "$W/root/etc/kconfig"
	ln -sfn /etc/kconfig "$W/root/boot/config-$R"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 3
	assert_equal "$(jq -c '[.verdict, .loads_unsigned, .machine.config]' <<< "$output")" "[\"UNSIGNED\",true,\"$W/root/etc/kconfig\"]"
	# a link to the host's file (its absolute path): not followed out
	mkdir -p "$W/host"
	cp "$W/tmp/boot/config-$R" "$W/host/config"
	ln -sfn "$W/host/config" "$W/root/boot/config-$R"
	rm -rf "$W/root/usr/src"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .machine.config]' <<< "$output")" '["REJECTED",null]'
	[[ "$stderr" == *"no kernel config of $R in $W/root"* ]]
}

@test "--sysroot: ../ at the root stays at the root, at any depth" {
	R=6.1.0-41-amd64
	sh "$MM" "$W/root" $R layout=debian12
	sh "$MM" "$W/tmp" $R config=nolsm image=none sb=none
	mkdir -p "$W/host"
	cp "$W/tmp/boot/config-$R" "$W/host/config"
	up=$(echo "$W" | sed 's|[^/][^/]*|..|g')
	ln -sfn "../../../..$up$W/host/config" "$W/root/boot/config-$R"
	# the headers' link goes up and out too
	ln -sfn "../../../../../../../../..$W/host" "$W/root/lib/modules/$R/build"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_failure 1
	assert_equal "$(jq -c '[.verdict, .machine.config]' <<< "$output")" '["REJECTED",null]'
	# the same link with the root's own file where it lands
	mkdir -p "$W/root$W/host"
	cp "$W/tmp/boot/config-$R" "$W/root$W/host/config"
	run --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/m.ko"
	assert_equal "$(jq -c '[.verdict, .machine.config]' <<< "$output")" "[\"UNSIGNED\",\"$W/root$W/host/config\"]"
}

@test "--kernel-config reads gzip, xz and zstd files and pipes; a corrupt one is named" {
	require_cmd xz xz-utils
	require_cmd zstd zstd
	sh "$MM" "$W/root" 7.3.0-1-amd64 config=nolsm image=none sb=none
	c=$W/root/boot/config-7.3.0-1-amd64
	gzip -n -c "$c" > "$W/config.gz"
	xz -c "$c" > "$W/config.xz"
	zstd -q -c "$c" > "$W/config.zst"
	for f in "$W/config.gz" "$W/config.xz" "$W/config.zst"; do
		run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --kernel-config "$f" "$W/m.ko"
		# nolsm: no lockdown at all, which only the config says
		assert_equal "$(jq -c '[.kernel, .lockdown]' <<< "$output")" '["7.3","none"]'
	done
	run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --kernel-config <(gzip -dc "$W/config.gz") "$W/m.ko"
	assert_equal "$(jq -c '[.kernel, .lockdown]' <<< "$output")" '["7.3","none"]'
	gzip -dc "$W/config.gz" | {
		run --separate-stderr "$VERIFY_FILE" --json -c "$KEYS/rsa2048.crt" --kernel-config /dev/stdin "$W/m.ko"
		assert_equal "$(jq -c '[.kernel, .lockdown]' <<< "$output")" '["7.3","none"]'
	}
	head -c 100 "$W/config.gz" > "$W/bad.gz"
	run --separate-stderr "$VERIFY_FILE" -c "$KEYS/rsa2048.crt" --kernel-config "$W/bad.gz" "$W/m.ko"
	assert_failure 7
	assert_equal "$stderr" "verify-file: $W/bad.gz: cannot decompress the kernel config: truncated gzip data"
}
