#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --vmlinux alone judges by the kernel config the distribution
# installed beside the image (/boot/config-R beside /boot/vmlinuz-R,
# config beside vmlinuz in /usr/lib/modules/R/), says which, and says
# when there is none that crypto availability was assumed; a config's
# CONFIG_MODULES and CONFIG_MODULE_SIG decide whether a module loads at
# all, and whether its signature is looked at; an empty image is one
# clear error.

bats_require_minimum_version 1.5.0
load machine-helpers

REL=6.1.0-57-amd64

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" "$W/m.ko" "$W/ec.ko"
}

# A /boot holding vmlinuz-R and a config-R that enforces signatures
# (MODULE_SIG_FORCE), its ECDSA as asked: y, or "not set" as Debian's
# 6.1 has it.
boot_with_ecdsa() { # y|unset
	machine config=force sb=none
	[ "$1" = y ] ||
		sed -i 's/^CONFIG_CRYPTO_ECDSA=y$/# CONFIG_CRYPTO_ECDSA is not set/' "$W/root/boot/config-$REL"
}

@test "--vmlinux /boot/vmlinuz-R reads /boot/config-R beside it: no ECDSA there refuses an ECDSA module, and the config is named" {
	boot_with_ecdsa unset
	grep -qx '# CONFIG_CRYPTO_ECDSA is not set' "$W/root/boot/config-$REL"
	run -1 --separate-stderr "$VERIFY_FILE" --vmlinux "$W/root/boot/vmlinuz-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_output "$W/ec.ko: REJECTED -EKEYREJECTED: Loading of module with unavailable key is rejected (-ENOKEY: no trusted key for any signer)"
	assert_equal "$stderr" "verify-file: warning: $W/root/boot/vmlinuz-$REL: judged with the kernel config beside it, $W/root/boot/config-$REL (/boot/config-RELEASE beside /boot/vmlinuz-RELEASE; give --kernel-config to choose another)"
	run -1 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/boot/vmlinuz-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .underlying_errno, .config, .config_from, .crypto_assumed]' <<< "$output")" \
		"[\"REJECTED\",\"ENOKEY\",\"$W/root/boot/config-$REL\",\"/boot/config-RELEASE beside /boot/vmlinuz-RELEASE\",false]"
	# the same config with ECDSA built: the module is judged OK by it
	boot_with_ecdsa y
	run -0 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/boot/vmlinuz-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .enforce, .crypto_assumed]' <<< "$output")" '["OK",true,false]'
}

@test "--vmlinux with no config beside it says crypto availability was assumed, on stderr and in the JSON" {
	boot_with_ecdsa unset
	rm "$W/root/boot/config-$REL"
	run -0 --separate-stderr "$VERIFY_FILE" --vmlinux "$W/root/boot/vmlinuz-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_output --partial "$W/ec.ko: OK (sha256, ECDSA-P256"
	assert_equal "$stderr" "verify-file: warning: $W/root/boot/vmlinuz-$REL: no kernel config beside it (no $W/root/boot/config-$REL): crypto availability assumed, every algorithm of the rules' line taken as built (give --kernel-config)"
	run -0 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/boot/vmlinuz-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .config, .config_from, .crypto_assumed]' <<< "$output")" '["OK",null,null,true]'
	# --kernel-config names the config itself, and says so
	boot_with_ecdsa unset
	run -1 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/boot/vmlinuz-$REL" --kernel-config "$W/root/boot/config-$REL" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .config_from, .crypto_assumed]' <<< "$output")" '["REJECTED","--kernel-config",false]'
	assert_equal "$stderr" ""
}

@test "--vmlinux /usr/lib/modules/R/vmlinuz reads the config beside it" {
	machine config=force sb=none layout=debian13
	sed -i 's/^CONFIG_CRYPTO_ECDSA=y$/# CONFIG_CRYPTO_ECDSA is not set/' "$W/root/usr/lib/modules/$REL/config"
	run -1 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/usr/lib/modules/$REL/vmlinuz" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .underlying_errno, .config, .config_from, .crypto_assumed]' <<< "$output")" \
		"[\"REJECTED\",\"ENOKEY\",\"$W/root/usr/lib/modules/$REL/config\",\"config beside vmlinuz in /usr/lib/modules/RELEASE/\",false]"
	assert_equal "$stderr" "verify-file: warning: $W/root/usr/lib/modules/$REL/vmlinuz: judged with the kernel config beside it, $W/root/usr/lib/modules/$REL/config (config beside vmlinuz in /usr/lib/modules/RELEASE/; give --kernel-config to choose another)"
}

@test "a config beside the image for another release than the image's version is not used, and that is said" {
	boot_with_ecdsa unset
	mv "$W/root/boot/vmlinuz-$REL" "$W/root/boot/vmlinuz-6.1.0-58-amd64"
	mv "$W/root/boot/config-$REL" "$W/root/boot/config-6.1.0-58-amd64"
	run -0 --separate-stderr "$VERIFY_FILE" --json --vmlinux "$W/root/boot/vmlinuz-6.1.0-58-amd64" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_equal "$(jq -c '[.verdict, .config, .crypto_assumed]' <<< "$output")" '["OK",null,true]'
	assert_equal "$stderr" "verify-file: warning: $W/root/boot/vmlinuz-6.1.0-58-amd64: $W/root/boot/config-6.1.0-58-amd64 is the config of kernel 6.1.0-58-amd64, not of this image's: not used; crypto availability assumed (give --kernel-config)"
}

@test "an empty kernel image is one clear error, exit 9, also as /boot/vmlinuz-R beside its config" {
	: > "$W/empty"
	run -9 --separate-stderr "$VERIFY_FILE" --vmlinux "$W/empty" -c "$KEYS/ec256.crt" "$W/ec.ko"
	assert_output ""
	assert_equal "$stderr" "verify-file: $W/empty: an empty file, no kernel image (give a vmlinuz/bzImage, a compressed Image or an ELF vmlinux to --vmlinux)"
	boot_with_ecdsa y
	: > "$W/root/boot/vmlinuz-$REL"
	run -9 --separate-stderr "$VERIFY_FILE" --vmlinux "$W/root/boot/vmlinuz-$REL" "$W/ec.ko"
	assert_output ""
	assert_equal "$stderr" "verify-file: $W/root/boot/vmlinuz-$REL: an empty file, no kernel image (give a vmlinuz/bzImage, a compressed Image or an ELF vmlinux to --vmlinux)"
}

@test "a kernel without CONFIG_MODULE_SIG loads every ELF module, signed or not, and says why; its JSON says not-checked" {
	printf '# Linux/x86 6.1.5 Kernel Configuration\nCONFIG_MODULES=y\n# CONFIG_MODULE_SIG is not set\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/nosig.config"
	echo 'not a module' > "$W/text.ko"
	run -0 --separate-stderr "$VERIFY_FILE" --enforce --kernel-config "$W/nosig.config" -c "$KEYS/rsa2048.crt" "$W/m.ko" "$W/ec.ko"
	assert_output "$W/m.ko: OK (CONFIG_MODULE_SIG is not set: the kernel checks no signature and sets no unsigned-module taint (E))
$W/ec.ko: OK (CONFIG_MODULE_SIG is not set: the kernel checks no signature and sets no unsigned-module taint (E))"
	assert_equal "$stderr" "verify-file: warning: $W/nosig.config: CONFIG_MODULE_SIG is not set: this kernel loads modules without checking any signature (every ELF module OK)"
	# load_module()'s ELF checks still run
	run -6 --separate-stderr "$VERIFY_FILE" --kernel-config "$W/nosig.config" -c "$KEYS/rsa2048.crt" "$W/text.ko"
	assert_output --partial "$W/text.ko: REJECTED -ENOEXEC"
	run -0 --separate-stderr "$VERIFY_FILE" --json --kernel-config "$W/nosig.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_equal "$(jq -c '[.verdict, .errno, .module_sig, .loads_unsigned, .crypto_assumed]' <<< "$output")" '["OK",null,"not-checked",false,false]'
	# with MODULE_SIG set the same module is judged by its signature
	sed -i 's/^# CONFIG_MODULE_SIG is not set$/CONFIG_MODULE_SIG=y/' "$W/nosig.config"
	run -3 --separate-stderr "$VERIFY_FILE" --json --kernel-config "$W/nosig.config" -c "$KEYS/rsa2048.crt" "$W/m.ko"
	assert_equal "$(jq -c '[.verdict, .module_sig]' <<< "$output")" '["UNSIGNED","checked"]'
}

@test "a kernel without CONFIG_MODULES loads no module: REJECTED -ENOSYS, exit 1, also for the running kernel's /proc/config.gz" {
	printf '# Linux/x86 6.1.5 Kernel Configuration\n# CONFIG_MODULES is not set\nCONFIG_CRYPTO_RSA=y\nCONFIG_CRYPTO_SHA256=y\n' > "$W/nomod.config"
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/rsa.ko"
	run -1 --separate-stderr "$VERIFY_FILE" --kernel-config "$W/nomod.config" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	assert_output "$W/rsa.ko: REJECTED -ENOSYS: CONFIG_MODULES is not set: the kernel loads no module (finit_module() is not built)"
	assert_equal "$stderr" "verify-file: warning: $W/nomod.config: CONFIG_MODULES is not set: this kernel loads no module (every one REJECTED -ENOSYS)"
	run -1 --separate-stderr "$VERIFY_FILE" --json --kernel-config "$W/nomod.config" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	assert_equal "$(jq -c '[.verdict, .errno, .module_sig, .loads_unsigned]' <<< "$output")" '["REJECTED","ENOSYS","no-modules",false]'
	# the running kernel's config says so too
	machine layout=running sb=none
	printf '# Linux/x86 6.1.5 Kernel Configuration\n# CONFIG_MODULES is not set\nCONFIG_CRYPTO_RSA=y\n' | gzip -n > "$W/root/proc/config.gz"
	run -1 --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/rsa.ko"
	assert_equal "$(jq -c '[.verdict, .errno, .module_sig, .config_from]' <<< "$output")" \
		"[\"REJECTED\",\"ENOSYS\",\"no-modules\",\"the running kernel's /proc/config.gz\"]"
}
