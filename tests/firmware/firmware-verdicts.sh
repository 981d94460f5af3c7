#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# firmware-verdicts.sh [--update] [-k FLAVOUR]... [-m MACHINE]...
#
# make firmware-verdicts: boot Debian's 7.3 source, built as an EFI-stub
# kernel, through OVMF (Secure Boot capable, SMM) and Debian's
# Microsoft-signed shim on a set of UEFI variable stores (machines), load
# each case module with finit_module in every booted machine and compare
# the kernel's verdicts with expected.tsv (--update rewrites it).
# Kernels: the flavours of build-efi-kernel.sh ("debian" as Debian ships
# its code, "mainline" without Debian's platform-keyring retry, and one
# per vendor row), each booted on the machines where its verdicts can
# differ (boot-lib.sh: FLAVOUR_MACHINES).
# Results: build/firmware-verdicts/ (verdicts.tsv, KERNEL/MACHINE.log and
# .tsv, and each machine's variables as the kernel saw them under
# KERNEL/MACHINE.root/, for compare-verify-file.sh).
set -euo pipefail
PROG=firmware-verdicts.sh
FW_DIR=$(cd "$(dirname "$0")" && pwd)
. "$FW_DIR/../kernel/lib.sh"

. "$FW_DIR/boot-lib.sh"
KERNELS=("${FLAVOURS[@]}")
UPDATE=0
want_k=() want_m=()
while [ $# -gt 0 ]; do
	case $1 in
	--update) UPDATE=1 ;;
	-k) want_k+=("$2"); shift ;;
	-m) want_m+=("$2"); shift ;;
	*) echo "usage: $PROG [--update] [-k KERNEL]... [-m MACHINE]..." >&2; exit 2 ;;
	esac
	shift
done
[ ${#want_k[@]} -eq 0 ] || KERNELS=("${want_k[@]}")

fw_globals
CONF=$KH_TOP/tests/fixtures/conformance
EXPECTED=$FW_DIR/expected.tsv
SHIM=/usr/lib/shim/shimx64.efi.signed
[ -f "$SHIM" ] || die "$SHIM missing (scripts/install-deps.sh firmware)"
for c in sbsign mcopy mkfs.vfat; do
	command -v "$c" >/dev/null || die "$c missing (scripts/install-deps.sh firmware)"
done
T0=$(now)

# 1. The kernels, one flavour after another from the one tree (the order
# of FLAVOURS keeps the objects each switch recompiles few).  Per flavour
# two builds: first the image without the cases, which is also the
# /boot/vmlinuz-RELEASE its initramfs carries for verify-file run inside
# the machine (the same keys, config and release; an image cannot hold
# itself), kept as FW/vmlinuz-plain-FLAVOUR and remade only when its
# inputs changed; then the image with the initramfs (step 3).
plain_stale() { # KERNEL
	local f
	[ -f "$FW/vmlinuz-plain-$1" ] && [ -f "$FW/config-$1" ] && [ -f "$FW/release-$1" ] ||
		return 0
	for f in "$KH_DIR/config.fragment" "$KH_DIR/config-7.3.fragment" \
		"$FW_DIR"/flavour-*.fragment "$FW_DIR"/*.h "$FW_DIR/sbat.csv" \
		"$FW_DIR/build-efi-kernel.sh" "$KKEYS/trusted-cert.pem"; do
		[ ! "$f" -nt "$FW/vmlinuz-plain-$1" ] || return 0
	done
	return 1
}
printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n' >"$FW/placeholder.list"
# verify-file for inside the machine: this build with the shared
# libraries it links and those it opens for compressed images (dlopen,
# src/common/module/compress.c), at their own paths.  A static build cannot
# dlopen them, so it could not read the xz-compressed bzImage.
# MODSIGN_FW_VERIFY_FILE: another build to run inside (e.g. a branch's)
VF=${MODSIGN_FW_VERIFY_FILE:-$KH_TOP/build/bin/verify-file}
[ -x "$VF" ] || die "$VF missing (make)"
vf_libs() {
	ldd "$VF" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'
	for so in libz.so.1 liblzma.so.5 libzstd.so.1 liblz4.so.1 libbz2.so.1.0; do
		ldconfig -p | awk -v s="$so" '$1 == s && /x86-64/ && !p { p = $NF } END { if (p) print p }'
	done
}
# 2. Cases: the payload signed by each key (sha256, the tree's sign-file),
# built against the tree as the flavour left it (vermagic names the
# release: one case directory per release, FW/cases/RELEASE).
make_cases() { # RELEASE
	local cases=$FW/cases/$1 payload
	rm -rf "$cases"
	mkdir -p "$cases"
	payload=$(kh_ext_module "$KH_DIR/payload" modsign_payload)
	printf 'case\tfile\tkind\tusage\tsig\n' >"$cases/cases.tsv"
	sign_case() { # ID KEY CERT
		cp "$payload" "$cases/$1.ko"
		"$KH_TREE/scripts/sign-file" sha256 "$2" "$3" "$cases/$1.ko" ||
			die "sign-file failed for case $1"
		printf '%s\t%s.ko\tmodule\tmodule\t-\n' "$1" "$1" >>"$cases/cases.tsv"
	}
	sign_case builtin "$KKEYS/trusted-key.pem" "$KKEYS/trusted-cert.pem"
	for key in mok mokx dbx db; do
		sign_case "$key" "$KEYS/$key-key.pem" "$KEYS/$key-cert.pem"
	done
	sign_case unknown "$KKEYS/untrusted-key.pem" "$KKEYS/untrusted-cert.pem"
	cp "$payload" "$cases/unsigned.ko"
	printf 'unsigned\tunsigned.ko\tmodule\tmodule\t-\n' >>"$cases/cases.tsv"
}
rm -rf "$FW/cases"

gcc -static -O2 -Wall -Wextra -o "$FW/init" "$FW_DIR/fw-init.c" ||
	die "could not build the static /init"
write_list() { # KERNEL RELEASE
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "file /init $FW/init 0755 0 0"
	echo "dir /bin 0755 0 0"
	echo "file /bin/verify-file $VF 0755 0 0"
	vf_libs | sort -u | while read -r lib; do
		d=
		for part in $(dirname "${lib#/}" | tr / ' '); do
			d=$d/$part
			echo "dir $d 0755 0 0"
		done
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done | awk '!seen[$0]++'
	echo "dir /boot 0755 0 0"
	echo "file /boot/vmlinuz-$2 $FW/vmlinuz-plain-$1 0644 0 0"
	echo "file /boot/config-$2 $FW/config-$1 0644 0 0"
	# the files the .config names, where it names them
	d=
	for part in $(echo "${CONF#/}" | tr / ' '); do
		d=$d/$part
		echo "dir $d 0755 0 0"
	done
	echo "file $CONF/blacklist-hashes.txt $CONF/blacklist-hashes.txt 0644 0 0"
	echo "file $CONF/revoked.pem $CONF/revoked.pem 0644 0 0"
	echo "dir /cases 0755 0 0"
	for f in "$FW/cases/$2"/*; do
		echo "file /cases/${f##*/} $f 0644 0 0"
	done
}

# 3. Each kernel: its plain image (step 1), its cases (step 2) when its
# release has none yet, its image with the initramfs, signed for shim with
# the MOK key (shim accepts MokList keys in every machine; a db signature
# would fail under MokIgnoreDB), on its own ESP image: shim as the
# removable-media loader, the kernel as the grubx64.efi it starts.  No
# fallback (fbx64.efi), which would write boot entries and reset.
# MODSIGN_FW_CHAIN=grub: shim starts Debian's signed GRUB, which loads the
# kernel (verified through shim's protocol) and the initramfs from the ESP
# with the command line of its grub.cfg; the image then carries no
# initramfs.  Default "direct": shim starts the kernel's EFI stub itself.
CHAIN=${MODSIGN_FW_CHAIN:-direct}
GRUB=/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed
case $CHAIN in
direct) ;;
grub)
	[ -f "$GRUB" ] || die "$GRUB missing (scripts/install-deps.sh firmware)"
	cat >"$FW/grub.cfg" <<EOT
set timeout=0
linux /vmlinuz console=ttyS0 panic=-1 loglevel=1 log_buf_len=16M
initrd /initrd.gz
boot
EOT
	;;
*) die "MODSIGN_FW_CHAIN=$CHAIN: direct or grub" ;;
esac
for k in "${KERNELS[@]}"; do
	t=$(now)
	if plain_stale "$k"; then
		"$FW_DIR/build-efi-kernel.sh" "$k" "$FW/placeholder.list" >/dev/null
		cp "$FW/bzImage-$k" "$FW/vmlinuz-plain-$k"
	fi
	rel=$(cat "$FW/release-$k")
	if [ ! -f "$FW/cases/$rel/cases.tsv" ]; then
		# the tree must be this release's for the payload's vermagic
		[ "$(cat "$KH_TREE/include/config/kernel.release")" = "$rel" ] ||
			"$FW_DIR/build-efi-kernel.sh" "$k" "$FW/placeholder.list" >/dev/null
		make_cases "$rel"
	fi
	write_list "$k" "$rel" >"$FW/initramfs-$k.list.tmp"
	cmp -s "$FW/initramfs-$k.list.tmp" "$FW/initramfs-$k.list" ||
		mv "$FW/initramfs-$k.list.tmp" "$FW/initramfs-$k.list"
	rm -f "$FW/initramfs-$k.list.tmp"
	KLIST=$FW/initramfs-$k.list
	if [ "$CHAIN" = grub ]; then
		"$KH_TREE/usr/gen_init_cpio" "$KLIST" | gzip -n -9 >"$FW/initrd-$k.gz"
		KLIST=$FW/placeholder.list
	fi
	"$FW_DIR/build-efi-kernel.sh" "$k" "$KLIST" >/dev/null
	note "$k: kernel ready in $(elapsed "$t")s"
	sbsign --key "$KEYS/mok-key.pem" --cert "$KEYS/mok-cert.pem" \
		--output "$FW/$k.efi" "$FW/bzImage-$k" 2>"$FW/sbsign.log" ||
		{ cat "$FW/sbsign.log" >&2; die "sbsign failed for $k"; }
	esp=$FW/esp-$k.img
	rm -f "$esp"
	mkfs.vfat -C "$esp" 65536 >/dev/null
	mmd -i "$esp" ::/EFI ::/EFI/BOOT
	mcopy -i "$esp" "$SHIM" ::/EFI/BOOT/BOOTX64.EFI
	if [ "$CHAIN" = direct ]; then
		mcopy -i "$esp" "$FW/$k.efi" ::/EFI/BOOT/grubx64.efi
	else
		# Debian's signed GRUB reads \EFI\debian\grub.cfg (its prefix)
		mmd -i "$esp" ::/EFI/debian
		mcopy -i "$esp" "$GRUB" ::/EFI/BOOT/grubx64.efi
		mcopy -i "$esp" "$FW/grub.cfg" ::/EFI/debian/grub.cfg
		mcopy -i "$esp" "$FW/$k.efi" ::/vmlinuz
		mcopy -i "$esp" "$FW/initrd-$k.gz" ::/initrd.gz
	fi
	# Its machines booted (fw_boot_many, boot-lib.sh) one after another
	# in the background while the next flavour builds: a boot is one
	# core, and much of a build (the link, the image's compression) is
	# one core too.
	: >"$FW/boots-$k.tsv"
	for spec in "${MACHINES[@]}"; do
		m=${spec%%:*}
		if [ ${#want_m[@]} -gt 0 ] && [[ " ${want_m[*]} " != *" $m "* ]]; then
			continue
		fi
		fw_boots_on "$k" "$m" || continue
		printf '%s\t%s\t%s\n' "$k" "$m" "${spec#*:}" >>"$FW/boots-$k.tsv"
	done
	fw_boot_many "$FW/boots-$k.tsv" 1 &
done

# 4. The verdicts of the boots step 3 started, in this order.
wait
failed=0
printf 'kernel\tmachine\tcase\tfinit\ttaint\n' >"$OUT/verdicts.tsv"
for k in "${KERNELS[@]}"; do
	while IFS=$'\t' read -r _ m _; do
		if fw_booted "$k" "$m"; then
			cat "$OUT/$k/$m.tsv" >>"$OUT/verdicts.tsv"
			note "$k/$m: lockdown $(cat "$OUT/$k/$m.lockdown"); $(tr '\t' ' ' <"$OUT/$k/$m.tsv" | cut -d' ' -f3- | paste -sd, -)"
		else
			failed=$((failed + 1))
		fi
	done <"$FW/boots-$k.tsv"
done

# 5. Against the expected table.
if [ $UPDATE = 1 ]; then
	# the rows of kernels not booted this time (-k, or a flavour not in
	# the default list) are kept
	{
		printf '# SPDX-License-Identifier: GPL-2.0-or-later\n'
		printf '# Real verdicts of firmware-verdicts.sh (kernel, machine, case, finit_module result, taint flags)\n'
		head -n 1 "$OUT/verdicts.tsv"
		awk -F'\t' -v ks=" ${KERNELS[*]} " '!/^#/ && $1 != "kernel" &&
			index(ks, " " $1 " ") == 0' "$EXPECTED" 2>/dev/null
		tail -n +2 "$OUT/verdicts.tsv"
	} >"$EXPECTED.tmp"
	mv "$EXPECTED.tmp" "$EXPECTED"
	note "wrote $EXPECTED"
fi
pass=0 fail=0
if [ -f "$EXPECTED" ]; then
	while IFS=$'\t' read -r k m c r tf; do
		[ "$k" != kernel ] || continue
		want=$(awk -F'\t' -v k="$k" -v m="$m" -v c="$c" \
			'$1 == k && $2 == m && $3 == c { print $4 "\t" $5 }' "$EXPECTED")
		if [ "$want" = "$r"$'\t'"$tf" ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "MISMATCH $k/$m/$c: kernel $r $tf, expected ${want:-nothing}" >&2
		fi
	done <"$OUT/verdicts.tsv"
else
	note "no $EXPECTED yet (run with --update)"
fi
note "total $(elapsed "$T0")s"
echo "firmware-verdicts: $pass passed, $((fail + failed)) failed"
[ $((fail + failed)) -eq 0 ]
