#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# How long does the kernel hook (modsign-kernel-hook(8)) add to a kernel's
# installation?  In a Debian 12 root where scripts/kernel-chain.sh has run
# (scripts/pristine-root.sh --kernel-chain leaves it in its DIR; on a disk
# file system, not a tmpfs), as root:
#
#   1. the real postinst chain of that root's second kernel (the cloud
#      flavour): run-parts of /etc/kernel/postinst.d as its postinst runs
#      it (dkms, initramfs-tools' update-initramfs, zz-modsign), with 10
#      DKMS modules in updates/dkms (dkms's acpi_call and 9 copies, each
#      signed with dkms's key, which the fake machine has enrolled: the
#      quiet path), N times with zz-modsign and N times without it (not
#      executable: run-parts skips it), alternately; the medians, the time
#      added and the ratio;
#   2. the hook alone on Debian's 7.3 image (linux-binary-7.3.*+deb13 of
#      trixie-backports: tests/fixtures/debian-kernel.sh fetches it into
#      build/debian), laid out as Debian 13 installs it, with the same 10
#      modules and Secure Boot on: N runs, the median; and the same on the
#      root's 6.1 cloud image, in the same run.
#
#   bench/hook-bench.sh ROOT [N]        (N: 5 by default)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 ROOT [N]" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (chroot, mount)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$1" && pwd)
n=${2:-5}
[ -x "$root/etc/kernel/postinst.d/zz-modsign" ] && [ -d "$root/var/lib/dkms" ] ||
	{ echo "$0: $root is not a root scripts/kernel-chain.sh has run in" >&2; exit 1; }
deb=$(sh "$top/tests/fixtures/debian-kernel.sh" --suite trixie-backports --line 7.3) || exit 1
img73=$(find "$deb/root/usr/lib/modules" -name vmlinuz | head -n 1)
rel73=$(basename "$(dirname "$img73")")
rel=$(chroot "$root" dpkg-query -W -f '${Depends}' linux-image-cloud-amd64 |
	sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
machine=/srv/modsign-machine
b73=/srv/modsign-bench73
hook=/etc/kernel/postinst.d/zz-modsign
shim=605dab50-e046-4300-abb6-3dd810dd8b23

mounted=""
cleanup() {
	chmod 755 "$root$hook" 2>/dev/null || true
	for m in $mounted; do
		umount "$root$m" 2>/dev/null || umount -l "$root$m"
	done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
bind() { # SOURCE TARGET-in-root [-t TYPE]
	mkdir -p "$root$2"
	if [ "$1" = proc ] || [ "$1" = sysfs ]; then
		mount -t "$1" "$1" "$root$2"
	else
		mount --bind "$1" "$root$2"
	fi
	mounted="$2 $mounted"
}
bind proc /proc
bind sysfs /sys
bind /dev /dev
# the fake machine as kernel-chain.sh makes it: this root's files, its
# own firmware variables
for d in boot usr etc var/lib/dkms; do
	bind "$root/$d" "$machine/$d"
done
[ -L "$root/lib" ] || bind "$root/lib" "$machine/lib"
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		LC_ALL=C "$@"
}

# The kernel as Debian's postinst leaves it (kernel-chain.sh's BLS step
# moved the image and config to the modules directory).
m=$root/lib/modules/$rel
[ -e "$root/boot/vmlinuz-$rel" ] || cp "$m/vmlinuz" "$root/boot/vmlinuz-$rel"
[ -e "$root/boot/config-$rel" ] || cp "$m/config" "$root/boot/config-$rel"
# 10 DKMS modules, each signed by dkms's key, enrolled in the fake machine
dk=$m/updates/dkms
i=1
while [ $i -lt 10 ]; do
	cp "$dk/acpi_call.ko" "$dk/acpi_call$i.ko"
	i=$((i + 1))
done
python3 "$top/tests/fixtures/make-trust.py" esl "$root/tmp/mok.esl" \
	"x509:$root/var/lib/dkms/mok.pub"
python3 "$top/tests/fixtures/make-trust.py" efivar \
	"$root$machine/sys/firmware/efi/efivars/MokListRT-$shim" "$root/tmp/mok.esl"
cp "$root/tmp/mok.esl" "$root/tmp/mok73.esl"

# Debian's 7.3 image and config where Debian 13 installs them, the same
# firmware state and the same 10 modules.
rm -rf "${root:?}$b73"
mkdir -p "$root$b73/usr/lib/modules/$rel73/updates/dkms"
# (the cached linux-binary package holds no config: verify-file then
# takes Debian's shipped options, and says so)
cp "$img73" "$root$b73/usr/lib/modules/$rel73/"
[ ! -e "$(dirname "$img73")/config" ] || cp "$(dirname "$img73")/config" "$root$b73/usr/lib/modules/$rel73/"
cp "$dk"/acpi_call*.ko "$root$b73/usr/lib/modules/$rel73/updates/dkms/"
cp -a "$root$machine/sys" "$root$b73/sys"
printf 'SYSROOT=%s\n' "$b73" > "$root/tmp/bench73.conf"

now() { date +%s.%N; }
# median of the N times in seconds on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
timed() { # OUT-FILE command...
	out=$1
	shift
	t0=$(now)
	"$@" > /dev/null 2> "$root/tmp/bench.err" || {
		cat "$root/tmp/bench.err" >&2
		echo "$0: $* failed" >&2
		exit 1
	}
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$out"
}
: > "$root/tmp/with" && : > "$root/tmp/without"
: > "$root/tmp/alone" && : > "$root/tmp/alone73"
: > "$root/tmp/cpu" && : > "$root/tmp/cpu73"
# the CPU seconds (user + system) of a command, whatever the load: its
# children's times, as the shell's times builtin reports them
cpu() { # OUT-FILE command...
	out=$1
	shift
	( "$@" > /dev/null 2>&1; times ) | tail -n 1 |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.3f\n", t }' >> "$out"
}
chain() {
	in_root run-parts --report --exit-on-error --arg="$rel" \
		--arg="/boot/vmlinuz-$rel" /etc/kernel/postinst.d
}
echo "hook-bench: $n runs each; kernel $rel (root $root), load: $(cut -d' ' -f1-3 /proc/loadavg)"
in_root "$hook" "$rel" "/boot/vmlinuz-$rel" # warm the page cache
in_root env MODSIGN_HOOK_CONF=/tmp/bench73.conf "$hook" "$rel73"
i=0
while [ $i -lt "$n" ]; do
	chmod 755 "$root$hook"
	timed "$root/tmp/with" chain
	grep -q "modsign: $rel: all 10 out-of-tree modules would load" "$root/tmp/bench.err" ||
		{ cat "$root/tmp/bench.err" >&2; echo "$0: the hook did not say all 10 load" >&2; exit 1; }
	chmod 644 "$root$hook"
	timed "$root/tmp/without" chain
	chmod 755 "$root$hook"
	timed "$root/tmp/alone" in_root "$hook" "$rel" "/boot/vmlinuz-$rel"
	timed "$root/tmp/alone73" in_root env MODSIGN_HOOK_CONF=/tmp/bench73.conf "$hook" "$rel73"
	grep -q "modsign: $rel73: all 10 out-of-tree modules would load" "$root/tmp/bench.err" ||
		{ cat "$root/tmp/bench.err" >&2; echo "$0: the hook on 7.3 did not say all 10 load" >&2; exit 1; }
	cpu "$root/tmp/cpu" in_root "$hook" "$rel" "/boot/vmlinuz-$rel"
	cpu "$root/tmp/cpu73" in_root env MODSIGN_HOOK_CONF=/tmp/bench73.conf "$hook" "$rel73"
	i=$((i + 1))
done
with=$(median < "$root/tmp/with")
without=$(median < "$root/tmp/without")
alone=$(median < "$root/tmp/alone")
alone73=$(median < "$root/tmp/alone73")
echo "postinst chain of $rel (dkms, initramfs-tools, zz-modsign), 10 DKMS modules, medians:"
echo "  without zz-modsign:  ${without}s"
echo "  with zz-modsign:     ${with}s  (+$(echo "$with - $without" | bc)s, ratio $(echo "scale=2; $with / $without" | bc))"
echo "the hook alone, 10 modules, Secure Boot on, all enrolled, medians (wall; CPU user+system):"
echo "  6.1 cloud image ($rel):  ${alone}s; $(median < "$root/tmp/cpu")s CPU"
echo "  Debian 7.3 image ($rel73):  ${alone73}s; $(median < "$root/tmp/cpu73")s CPU  (ratio to the chain without it: $(echo "scale=3; $alone73 / $without" | bc))"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$dk"/acpi_call[1-9].ko "$root/tmp/mok.esl" "$root/tmp/mok73.esl" "$root/tmp/bench73.conf" \
	"$root/tmp/with" "$root/tmp/without" "$root/tmp/alone" "$root/tmp/alone73" "$root/tmp/bench.err" \
	"$root/tmp/cpu" "$root/tmp/cpu73"
rm -rf "${root:?}$b73"
