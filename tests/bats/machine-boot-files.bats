#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# verify-file --machine --sysroot and the files a machine's kernel config
# names: its blacklist and revocation files are read inside the root,
# never from the host, or taken from the image that compiled them in;
# the Boot Loader Specification's /boot/MACHINE-ID/RELEASE/linux and
# /boot/loader/entries/*.conf are found; the JSON's list of what differs
# from the files is "differences" ("missing" kept as its old name).

bats_require_minimum_version 1.5.0
load machine-helpers

REL=6.12.57+deb13-amd64

setup() {
	machine_setup || return 1
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$W/m.ko" "$W/rsa.ko"
}

# The "tbs:" blacklist entry of a DER certificate (its TBS's SHA-256).
tbs_of() { # der
	python3 -c 'import hashlib,sys
d=open(sys.argv[1],"rb").read(); n=int.from_bytes(d[6:8],"big")+4
print(hashlib.sha256(d[4:4+n]).hexdigest())' "$1"
}

@test "a config's blacklist and revocation files are read inside --sysroot, never from the host file of the same path" {
	machine image=none sb=none
	# the same absolute path on the host and in the root, differing
	mkdir -p "$W/root$W/certs" "$W/certs"
	echo "\"tbs:$(tbs_of "$KEYS/rsa2048.der")\"" > "$W/root$W/certs/bl.hashes"
	echo "\"tbs:$(tbs_of "$KEYS/other.der")\"" > "$W/certs/bl.hashes"
	cfg=$W/root/boot/config-$REL
	echo "CONFIG_SYSTEM_BLACKLIST_HASH_LIST=\"$W/certs/bl.hashes\"" >> "$cfg"
	# the root's blacklist leaves the signer's certificate out
	run -4 --separate-stderr "$VERIFY_FILE" --machine="$REL" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	assert_output --partial "$W/rsa.ko: UNKNOWN-KEY -ENOKEY"
	# a name relative to the config's directory is inside the root too,
	# and a host file there is never read
	sed -i '/SYSTEM_BLACKLIST_HASH_LIST/d' "$cfg"
	echo 'CONFIG_SYSTEM_BLACKLIST_HASH_LIST="certs/bl.hashes"' >> "$cfg"
	mkdir -p "$W/root/boot/certs"
	cp "$W/root$W/certs/bl.hashes" "$W/root/boot/certs/bl.hashes"
	run -4 --separate-stderr "$VERIFY_FILE" --machine="$REL" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	# revocation keys the same way: the root's revokes the signer
	sed -i '/SYSTEM_BLACKLIST_HASH_LIST/d' "$cfg"
	printf 'CONFIG_SYSTEM_REVOCATION_LIST=y\nCONFIG_SYSTEM_REVOCATION_KEYS="%s"\n' "$W/certs/revoked.pem" >> "$cfg"
	cp "$KEYS/rsa2048.crt" "$W/root$W/certs/revoked.pem"
	cp "$KEYS/other.crt" "$W/certs/revoked.pem"
	run -1 --separate-stderr "$VERIFY_FILE" --machine="$REL" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	assert_output --partial "revocation list"
	# not in the root: an error naming the file looked for there
	rm "$W/root$W/certs/revoked.pem"
	run -7 --separate-stderr "$VERIFY_FILE" --machine="$REL" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	assert_equal "${stderr_lines[-1]}" "verify-file: $cfg: CONFIG_SYSTEM_REVOCATION_KEYS names $W/certs/revoked.pem: $W/root$W/certs/revoked.pem not found (give --kernel-tree DIR)"
}

@test "with the kernel image there, the config's blacklist and revocation files are taken from the image, not read" {
	machine sb=none
	printf 'CONFIG_SYSTEM_BLACKLIST_HASH_LIST="certs/none.hashes"\nCONFIG_SYSTEM_REVOCATION_LIST=y\nCONFIG_SYSTEM_REVOCATION_KEYS="certs/none.pem"\n' >> "$W/root/boot/config-$REL"
	run -0 --separate-stderr "$VERIFY_FILE" -v --machine --sysroot "$W/root" "$W/rsa.ko"
	assert_output --partial "$W/rsa.ko: OK"
	[[ "$stderr" == *"CONFIG_SYSTEM_BLACKLIST_HASH_LIST certs/none.hashes: compiled into the kernel: its hashes are taken from $W/root/boot/vmlinuz-$REL"* ]]
	[[ "$stderr" == *"CONFIG_SYSTEM_REVOCATION_KEYS certs/none.pem: compiled into the kernel"* ]]
}

# Fedora with systemd-boot: kernel-install's BLS layout, the image in
# /boot/MACHINE-ID/RELEASE/linux, the config in /usr/lib/modules/R/config
bls_root() {
	machine layout=debian13 sb=none
	mkdir -p "$W/root/etc" "$W/root/boot/$MID/$REL"
	mv "$W/root/usr/lib/modules/$REL/vmlinuz" "$W/root/boot/$MID/$REL/linux"
}

MID=0123456789abcdef0123456789abcdef

@test "BLS: /boot/MACHINE-ID/RELEASE/linux is found by --machine and --machine=R, with the config in /usr/lib/modules/R" {
	bls_root
	echo "$MID" > "$W/root/etc/machine-id"
	for m in --machine "--machine=$REL"; do
		run -0 --separate-stderr "$VERIFY_FILE" --json "$m" --sysroot "$W/root" "$W/rsa.ko"
		assert_equal "$(jq -r '.machine | .release, .vmlinuz, .vmlinuz_from, .config' <<< "$output")" "$REL
$W/root/boot/$MID/$REL/linux
/boot/MACHINE-ID/RELEASE/linux (BLS, MACHINE-ID from /etc/machine-id)
$W/root/usr/lib/modules/$REL/config"
		assert_equal "$(jq -r .verdict <<< "$output")" OK
	done
}

@test "BLS: an entry in /boot/loader/entries names the image, without /etc/machine-id" {
	bls_root
	mkdir -p "$W/root/boot/loader/entries"
	printf 'title Fedora Linux\nversion %s\nlinux /%s/%s/linux\ninitrd /%s/%s/initrd\n' \
		"$REL" "$MID" "$REL" "$MID" "$REL" > "$W/root/boot/loader/entries/$MID-$REL.conf"
	run -0 --separate-stderr "$VERIFY_FILE" --json --machine --sysroot "$W/root" "$W/rsa.ko"
	assert_equal "$(jq -r '.machine | .release, .vmlinuz, .vmlinuz_from' <<< "$output")" "$REL
$W/root/boot/$MID/$REL/linux
the linux line of a /boot/loader/entries/*.conf (BLS)"
	# an entry naming another kernel does not stand for this one
	run -0 --separate-stderr "$VERIFY_FILE" --machine=6.12.1-other --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	[[ "$stderr" == *"no kernel image of 6.12.1-other"* ]]
}

@test "the JSON's list of what the machine lacks or differs in is \"differences\", and \"missing\" still holds it" {
	machine sb=none image=none
	run -0 --separate-stderr "$VERIFY_FILE" --json --machine="$REL" --sysroot "$W/root" -c "$KEYS/rsa2048.crt" "$W/rsa.ko"
	d=$(jq -c .machine.differences <<< "$output")
	[[ "$d" == *"no kernel image of $REL"* ]]
	assert_equal "$(jq -c .machine.missing <<< "$output")" "$d"
}
