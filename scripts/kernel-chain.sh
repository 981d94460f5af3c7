#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-chain.sh --throwaway-root
#
# The kernel hooks (modsign-kernel-hook(8)) in the real chain, in a
# throwaway Debian 12 root (scripts/pristine-root.sh --kernel-chain runs it
# there, after the package stage): it installs kernels, dkms and a DKMS
# package into the root it runs in, hence the option.  As root:
#
#   1. modsign from its packages when the package stage installed them,
#      else make install PREFIX=/usr from this clone;
#   2. a real kernel and its headers (linux-image-amd64,
#      linux-headers-amd64), real dkms and one real small DKMS package
#      from the archive (acpi-call-dkms), and systemd (kernel-install);
#   3. a fake firmware state in a sysroot named by the documented SYSROOT
#      setting of /etc/modsign/kernel-hook.conf: /srv/modsign-machine, this
#      root's /boot, /usr, /lib, /etc and /var/lib/dkms bound there (/lib
#      a link where /usr is merged) and a fake
#      efivarfs (tests/fixtures/make-machine.sh: Secure Boot on, db, dbx,
#      MokListRT holding another key than dkms's);
#   4. apt-get install of a second kernel (the cloud flavour, another
#      release) runs the real postinst chain: dkms builds acpi_call and
#      signs it with /var/lib/dkms/mok.key (Debian 12's dkms 3.0 signs
#      inside a chroot too; 3.4 and later do not, which a Debian 13 chain
#      would have to set up), the initramfs is made, the
#      modsign hook says its verdict; the cases, each asserted on apt's
#      own output:
#        (a) dkms's key not enrolled: the refusal line of acpi_call and
#            the fix "mokutil --import /var/lib/dkms/mok.pub";
#        (b) dkms's mok.pub appended to the fake MokListRT (what MokManager
#            does after that import), the kernel reinstalled: one quiet
#            summary line, nothing else;
#        (c) dkms told not to sign (its documented sign_file setting, a
#            file that is not there), the module rebuilt by the kernel's
#            reinstall: the unsigned module's line and its fix, sign-file
#            with dkms's key;
#      apt-get exits 0 in each, and a probe hook named after zz-modsign
#      runs (the hook stopped no later hook);
#   5. the same kernel laid out as Fedora's (image and config in its
#      modules directory, nothing in /boot) and installed with
#      systemd's kernel-install in a BLS layout (/etc/kernel/install.conf
#      layout=bls, /boot/loader/entries, /boot/MACHINE-ID): refusal, then
#      quiet once enrolled, exit 0, and the boot entry written by
#      90-loaderentry.install, which runs after the plugin.
#
# Everything (each command and its whole output) goes to stdout: the
# transcript.  Exits 1 when an assertion fails, naming it.  The binds are
# undone on every exit path.
set -eu

[ "${1:-}" = --throwaway-root ] || {
	echo "usage: $0 --throwaway-root  (installs kernels, dkms and a DKMS package here: run it in a root made to be thrown away, e.g. by scripts/pristine-root.sh --kernel-chain)" >&2
	exit 2
}
[ "$(id -u)" = 0 ] || { echo "$0: needs root (apt-get, mount)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
keys=$top/tests/fixtures/keys
machine=/srv/modsign-machine
conf=/etc/modsign/kernel-hook.conf
probe=/etc/kernel/postinst.d/zzz-kernel-chain-probe
dkms_pub=/var/lib/dkms/mok.pub
tmp=$(mktemp -d)
failed=0

cleanup() {
	for d in var/lib/dkms etc lib usr boot; do
		! mountpoint -q "$machine/$d" || umount "$machine/$d" || umount -l "$machine/$d"
	done
	rm -f "$probe"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() {
	printf '\n### %s\n' "$*"
}
fail() {
	echo "kernel-chain: FAIL: $*"
	failed=1
}
pass() {
	echo "kernel-chain: ok: $*"
}
# run NAME COMMAND...: the command and its output (both streams) in the
# transcript and in $tmp/NAME, its exit code in $rc.  apt-get runs dpkg
# on a terminal of its own: its lines end in CR LF, and are compared
# without the CR.
run() {
	name=$1
	shift
	echo "# $*"
	s=$(date +%s)
	rc=0
	"$@" < /dev/null > "$tmp/$name.raw" 2>&1 || rc=$?
	tr -d '\r' < "$tmp/$name.raw" > "$tmp/$name"
	cat "$tmp/$name"
	echo "# exit $rc, $(($(date +%s) - s)) s"
}
# has NAME FIXED-STRING WHAT / has_re NAME ERE WHAT: a line of that output
has() {
	if grep -qF -- "$2" "$tmp/$1"; then pass "$3"; else fail "$3: no line with '$2'"; fi
}
has_re() {
	if grep -qE -- "$2" "$tmp/$1"; then pass "$3"; else fail "$3: no line matching /$2/"; fi
}
exit0() { # NAME WHAT
	if [ "$rc" -eq 0 ]; then pass "$2: exit 0"; else fail "$2: exit $rc, not 0"; fi
}

# MokListRT in the fake efivarfs: the EFI_SIGNATURE_LISTs of the DER
# certificates given (tests/fixtures/make-trust.py, as shim writes it).
moklist() { # DER...
	set -- "$@"
	args=""
	for c in "$@"; do args="$args x509:$c"; done
	# shellcheck disable=SC2086
	python3 "$top/tests/fixtures/make-trust.py" esl "$tmp/mok.esl" $args
	python3 "$top/tests/fixtures/make-trust.py" efivar \
		"$machine/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23" \
		"$tmp/mok.esl"
	echo "# fake MokListRT: $*"
}

t0=$(date +%s)
say "1. modsign"
if dpkg -s modsign-kernel-hooks > /dev/null 2>&1; then
	run pkgs dpkg-query -W modsign modsign-kernel-hooks
else
	run deps make -C "$top" deps-build
	[ "$rc" -eq 0 ] || { fail "make deps-build: exit $rc"; exit 1; }
	run install make -C "$top" -j2 install PREFIX=/usr
	[ "$rc" -eq 0 ] || { fail "make install PREFIX=/usr: exit $rc"; exit 1; }
fi
for f in /etc/kernel/postinst.d/zz-modsign /etc/kernel/header_postinst.d/zz-modsign \
	/usr/lib/kernel/install.d/85-modsign.install /usr/bin/verify-file; do
	[ -x "$f" ] || { fail "modsign installed no $f"; exit 1; }
done

say "2. a kernel, its headers, dkms and a DKMS package"
# The initramfs is made at each kernel install, as on any Debian: with
# the modules this root needs (MODULES=list, none listed) rather than
# Debian's default MODULES=most, which copies most of the kernel's
# modules into each image and takes minutes on CI's two busy cores.
# mkinitramfs still runs whole, in the hooks' order.
mkdir -p /etc/initramfs-tools/conf.d
echo MODULES=list > /etc/initramfs-tools/conf.d/kernel-chain
# apt-get update and every package of the chain downloaded first, timed
# apart: the rest is the chain's own time.
d0=$(date +%s)
run update apt-get update -q
run download apt-get install -y -q --no-install-recommends --download-only \
	linux-image-amd64 linux-headers-amd64 dkms acpi-call-dkms systemd python3 \
	linux-image-cloud-amd64 linux-headers-cloud-amd64
[ "$rc" -eq 0 ] || { fail "downloading the packages: exit $rc"; exit 1; }
download=$(($(date +%s) - d0))
run first apt-get install -y -q --no-install-recommends \
	linux-image-amd64 linux-headers-amd64 dkms acpi-call-dkms systemd python3
[ "$rc" -eq 0 ] || { fail "installing the first kernel and dkms: exit $rc"; exit 1; }
pkgver=$(dpkg-query -W -f '${Version}' acpi-call-dkms)
dkmsver=$(dpkg-query -W -f '${Version}' dkms)
echo "# dkms $dkmsver, acpi-call-dkms $pkgver"
src=$(cd /usr/src && ls -d acpi-call-* | head -n 1)
modver=${src#acpi-call-}

say "3. the fake machine: SYSROOT=$machine"
mkdir -p "$machine"
# Debian 12's debootstrap merges /usr (/lib a link into usr/), except
# in its buildd variant (pristine-root.sh's Debian 12 root)
binds="boot usr etc var/lib/dkms"
if [ -L /lib ]; then
	ln -sfn usr/lib "$machine/lib"
else
	binds="$binds lib"
fi
for d in $binds; do
	mkdir -p "/$d" "$machine/$d"
	mount --bind "/$d" "$machine/$d"
done
rm -rf "$machine/sys"
sh "$top/tests/fixtures/make-machine.sh" "$tmp/fw" 0 image=none config=none \
	sb=on mok="$keys/rsa2048.der"
cp -a "$tmp/fw/sys" "$machine/sys"
run efivars ls "$machine/sys/firmware/efi/efivars"
sed -i "s|^#*SYSROOT=.*|SYSROOT=$machine|" "$conf"
run conf grep -v '^#' "$conf"
has conf "SYSROOT=$machine" "the documented SYSROOT setting names the fake machine"
printf '#!/bin/sh\necho "kernel-chain probe: /etc/kernel/postinst.d ran on after zz-modsign ($1)" >&2\n' > "$probe"
chmod 755 "$probe"
run hooks run-parts --list /etc/kernel/postinst.d

say "4a. a second kernel; dkms's key is not enrolled"
run a apt-get install -y -q --no-install-recommends linux-image-cloud-amd64 linux-headers-cloud-amd64
exit0 a "apt-get install linux-image-cloud-amd64"
rel=$(dpkg-query -W -f '${Depends}' linux-image-cloud-amd64 | sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
mods=/lib/modules/$rel/updates/dkms
mod=$(ls "$mods"/acpi_call.ko* 2>/dev/null | head -n 1) || true
[ -n "$mod" ] || { fail "dkms built no acpi_call in $mods"; exit 1; }
m=updates/dkms/${mod##*/}
echo "# second kernel $rel, dkms's module $mod"
has_re a "^dkms: running auto installation service for kernel $rel|acpi-call.*$rel|Building module" "dkms ran in the chain"
run signed verify-file -c "$dkms_pub" "$mod"
exit0 signed "dkms signed $m with /var/lib/dkms/mok.key"
has a "modsign: $rel: 1 of 1 out-of-tree modules would be refused or load tainted" "(a) the summary line"
has_re a "^modsign:   $m: REJECTED -" "(a) the refusal line naming $m"
has a "fix (enrol-mok):" "(a) the fix's kind"
has a "mokutil --import $dkms_pub" "(a) the fix's command"
has a "kernel-chain probe: /etc/kernel/postinst.d ran on after zz-modsign ($rel)" "(a) the hooks after zz-modsign ran"
if [ -s "/boot/initrd.img-$rel" ]; then pass "(a) the initramfs was made"; else fail "(a) no /boot/initrd.img-$rel"; fi

say "4b. dkms's key enrolled (MokListRT: another key and $dkms_pub)"
moklist "$keys/rsa2048.der" "$dkms_pub"
run b apt-get install -y -q --reinstall "linux-image-$rel"
exit0 b "apt-get install --reinstall linux-image-$rel"
has b "modsign: $rel: all 1 out-of-tree modules would load" "(b) the one quiet line"
if grep '^modsign:' "$tmp/b" | grep -vxF "modsign: $rel: all 1 out-of-tree modules would load"; then
	fail "(b) modsign said more than its one line"
else
	pass "(b) nothing else from modsign"
fi
has b "kernel-chain probe: /etc/kernel/postinst.d ran on after zz-modsign ($rel)" "(b) the hooks after zz-modsign ran"

say "4c. an unsigned module: dkms's signing off, the module rebuilt by the kernel's reinstall"
mkdir -p /etc/dkms/framework.conf.d
# dkms(8)'s sign_file: a file that is not there, so it does not sign
echo 'sign_file=/nonexistent/sign-file' > /etc/dkms/framework.conf.d/kernel-chain-unsigned.conf
run c0 dkms remove "acpi-call/$modver" -k "$rel"
run c apt-get install -y -q --reinstall "linux-image-$rel"
exit0 c "apt-get install --reinstall linux-image-$rel"
has c "modules won't be signed" "(c) dkms built without signing"
has c "modsign: $rel: 1 of 1 out-of-tree modules would be refused or load tainted" "(c) the summary line"
has_re c "^modsign:   $m: [A-Z]" "(c) the line naming $m"
has c "fix (sign):" "(c) the fix's kind"
has c "sign-file sha256 /var/lib/dkms/mok.key $dkms_pub" "(c) the fix's command, with dkms's key"
has c "kernel-chain probe: /etc/kernel/postinst.d ran on after zz-modsign ($rel)" "(c) the hooks after zz-modsign ran"
rm /etc/dkms/framework.conf.d/kernel-chain-unsigned.conf
run c1 dkms remove "acpi-call/$modver" -k "$rel"
run c2 dkms install "acpi-call/$modver" -k "$rel"
run c3 verify-file -c "$dkms_pub" "$mod"
[ "$rc" -eq 0 ] || { fail "dkms install did not sign $m again"; exit 1; }

say "5. kernel-install add in a BLS layout, the kernel laid out as Fedora's"
[ -s /etc/machine-id ] || systemd-machine-id-setup
mid=$(cat /etc/machine-id)
echo layout=bls > /etc/kernel/install.conf
# the entry's options (else the host's /proc/cmdline)
echo "root=LABEL=root ro" > /etc/kernel/cmdline
mkdir -p /boot/loader/entries "/boot/$mid"
m_dir=/lib/modules/$rel
cp "/boot/vmlinuz-$rel" "$m_dir/vmlinuz"
cp "/boot/config-$rel" "$m_dir/config"
rm -f "/boot/vmlinuz-$rel" "/boot/config-$rel" "/boot/System.map-$rel" "/boot/initrd.img-$rel"
entry=/boot/loader/entries/$mid-$rel.conf
moklist "$keys/rsa2048.der"
# --verbose: the plugins in the order they run
run k1 kernel-install --verbose add "$rel" "$m_dir/vmlinuz"
exit0 k1 "kernel-install add, dkms's key not enrolled"
has k1 "modsign: $rel: 1 of 1 out-of-tree modules would be refused or load tainted" "(bls a) the summary line"
has_re k1 "^modsign:   $m: REJECTED -" "(bls a) the refusal line naming $m"
has k1 "mokutil --import $dkms_pub" "(bls a) the fix's command"
if [ -s "$entry" ] && [ -s "/boot/$mid/$rel/linux" ]; then
	pass "(bls a) 90-loaderentry.install wrote $entry and /boot/$mid/$rel/linux"
else
	fail "(bls a) no boot entry $entry or /boot/$mid/$rel/linux"
fi
run entry cat "$entry"
run kr kernel-install remove "$rel"
[ ! -e "$entry" ] || fail "kernel-install remove left $entry"
moklist "$keys/rsa2048.der" "$dkms_pub"
run k2 kernel-install add "$rel" "$m_dir/vmlinuz"
exit0 k2 "kernel-install add, dkms's key enrolled"
has k2 "modsign: $rel: all 1 out-of-tree modules would load" "(bls b) the one quiet line"
if grep '^modsign:' "$tmp/k2" | grep -vxF "modsign: $rel: all 1 out-of-tree modules would load"; then
	fail "(bls b) modsign said more than its one line"
else
	pass "(bls b) nothing else from modsign"
fi
if [ -s "$entry" ]; then pass "(bls b) the boot entry written"; else fail "(bls b) no boot entry $entry"; fi

echo
echo "kernel-chain: $(($(date +%s) - t0)) s in all, $download s of it apt-get update and downloads"
if [ "$failed" -eq 0 ]; then
	echo "kernel-chain: all cases passed (dkms $dkmsver, acpi-call-dkms $pkgver, kernel $rel)"
else
	echo "kernel-chain: FAILED (see the FAIL lines above)"
fi
exit "$failed"
