#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# judge-cases.sh [-c CERTS.pem] LINE CASEDIR OUT.tsv
#
# Boot Debian's LINE kernel (5.10, 6.1, 6.12 or 7.3) under QEMU with the cases of CASEDIR
# in its initramfs and write what the kernel decided to OUT.tsv:
#
#	case<TAB>finit_result<TAB>underlying_errno
#
# finit_result is 0 or the errno name finit_module() gave under
# module.sig_enforce=1 ("-" for detached cases, which are only judged);
# underlying_errno is what modsign_judge.ko got from the same checks before
# enforcement folds it into EKEYREJECTED ("n/a" for compressed modules;
# on 5.10, which cannot decompress a module, they are decompressed here as
# kmod does, and judged).
# The serial log is kept as OUT.tsv.log.
#
# Trusted certificates, first found: -c, $MODSIGN_KERNEL_CERTS,
# CASEDIR/trusted.pem, tests/kernel/keys/trusted-cert.pem.
set -euo pipefail
PROG=judge-cases.sh
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: $PROG [-c CERTS.pem] LINE CASEDIR OUT.tsv" >&2
	exit 2
}
CERTS=${MODSIGN_KERNEL_CERTS:-}
while getopts c: opt; do
	case $opt in
	c) CERTS=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || usage
kh_paths "$1"
CASEDIR=$(cd "$2" 2>/dev/null && pwd) || die "$2: no such case directory"
OUT=$3
if [ -z "$CERTS" ]; then
	if [ -f "$CASEDIR/trusted.pem" ]; then
		CERTS=$CASEDIR/trusted.pem
	else
		CERTS=$KH_DIR/keys/trusted-cert.pem
	fi
fi
TIMEOUT=${MODSIGN_QEMU_TIMEOUT:-600}
LIST=$CASEDIR/cases.tsv
[ -f "$LIST" ] || die "$LIST missing"

# Check cases.tsv before spending a boot on it.  Names go into a
# gen_init_cpio list (space separated), hence the restricted alphabet.
awk -F'\t' -v dir="$CASEDIR" '
function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; err = 1 }
function exists(f) { return (system("test -f \"" dir "/" f "\"") == 0) }
/^#/ || /^\r?$/ { next }
!hdr { hdr = 1
       if ($0 != "case\tfile\tkind\tusage\tsig") bad("header must be: case<TAB>file<TAB>kind<TAB>usage<TAB>sig")
       next }
{
	if (NF != 5) { bad("expected 5 tab-separated columns, got " NF); next }
	if ($1 !~ /^[A-Za-z0-9._+-]+$/) bad("case id \"" $1 "\" must match [A-Za-z0-9._+-]+")
	if ($1 in seen) bad("case id \"" $1 "\" repeated")
	seen[$1] = 1
	if ($2 !~ /^[A-Za-z0-9._+-]+$/ || $2 == "cases.tsv") bad("bad file name \"" $2 "\"")
	else if (!exists($2)) bad("file " $2 " not in " dir)
	if ($4 !~ /^(module|firmware|unspecified|kexec)$/) bad("usage \"" $4 "\" is not module|firmware|unspecified|kexec")
	if ($3 == "module") { if ($5 != "-") bad("sig must be - for kind module") }
	else if ($3 == "detached") {
		if ($5 !~ /^[A-Za-z0-9._+-]+$/) bad("bad sig file name \"" $5 "\"")
		else if (!exists($5)) bad("sig file " $5 " not in " dir)
	} else bad("kind \"" $3 "\" is not module or detached")
	rows++
}
END { if (!hdr) bad("no header line"); else if (!rows && !err) bad("no cases"); exit err }
' "$LIST" || die "$LIST: not a valid case list (see above)"

# Kernel, judge, init.
"$KH_DIR/build-kernel.sh" "$LINE" "$CERTS" >/dev/null
RUN=$KH_LINEDIR/run
mkdir -p "$RUN"
judge=$(kh_ext_module "$KH_DIR/judge" modsign_judge)
cp "$judge" "$RUN/modsign_judge.ko"
"$KH_TREE/scripts/sign-file" sha256 "$KH_JUDGE_KEY" "$KH_JUDGE_CERT" \
	"$RUN/modsign_judge.ko" || die "could not sign the judge module"
if [ ! -x "$RUN/init" ] || [ "$KH_DIR/init.c" -nt "$RUN/init" ]; then
	gcc -static -O2 -Wall -o "$RUN/init" "$KH_DIR/init.c" ||
		die "could not build the static /init"
fi

# A kernel without in-kernel module decompression (before 5.17: no
# MODULE_INIT_COMPRESSED_FILE) gets a compressed module case as kmod
# hands it over there: decompressed in userspace (libkmod's
# kmod_module_insert_module reads the file through its decompressor and
# calls init_module() on the bytes), so the signature check sees exactly
# the bytes it would see after in-kernel decompression on later lines.
# A file kmod could not decompress stays as it is (the kernel then finds
# no marker at its end).
UNZ=$RUN/decompressed
rm -rf "$UNZ"
case_file() {
	local f=$1 p=$CASEDIR/$1 tool=
	if [ -z "$(kh_line_decompress)" ]; then
		case $(head -c 6 "$p" | od -An -tx1 | tr -d ' \n') in
		fd377a585a00) tool="xz -dc" ;;
		1f8b*) tool="gzip -dc" ;;
		28b52ffd*) tool="zstd -dcq" ;;
		esac
	fi
	if [ -n "$tool" ]; then
		mkdir -p "$UNZ"
		if $tool <"$p" >"$UNZ/$f" 2>/dev/null; then
			echo "$UNZ/$f"
			return
		fi
		note "$LINE: $f: could not decompress it as kmod would; the kernel gets it as it is"
	fi
	echo "$p"
}

# Initramfs, written by the tree's own gen_init_cpio (no root needed for
# the device node).
GEN=$KH_TREE/usr/gen_init_cpio
[ -x "$GEN" ] || die "$GEN missing (kernel build incomplete?)"
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "file /init $RUN/init 0755 0 0"
	echo "dir /judge 0755 0 0"
	echo "file /judge/modsign_judge.ko $RUN/modsign_judge.ko 0644 0 0"
	echo "dir /cases 0755 0 0"
	echo "file /cases/cases.tsv $LIST 0644 0 0"
	awk -F'\t' '/^#/ || /^\r?$/ { next } !h { h = 1; next }
		{ print $2; if ($5 != "-") print $5 }' "$LIST" | sort -u |
		while read -r f; do
			echo "file /cases/$f $(case_file "$f") 0644 0 0"
		done
} >"$RUN/initramfs.list"
"$GEN" "$RUN/initramfs.list" | gzip -n -9 >"$RUN/initramfs.cpio.gz"

# A failed run must not leave an older table looking current.
rm -f "$OUT" "$OUT.tmp"

# Boot.  QEMU exits when /init reboots (-no-reboot) or the kernel panics
# (panic=-1 reboots at once).
LOG=$OUT.log
t=$(now)
rc=0
timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -nodefaults -display none \
	-machine pc -cpu max -m 256M -smp 1 -no-reboot \
	-serial "file:$LOG" -kernel "$KH_BZIMAGE" \
	-initrd "$RUN/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 loglevel=1 module.sig_enforce=1 log_buf_len=16M" \
	</dev/null >"$RUN/qemu.out" 2>&1 || rc=$?
note "$LINE: boot and judge took $(elapsed "$t")s"
[ $rc -ne 124 ] || die "$LINE: QEMU timed out after ${TIMEOUT}s (serial log: $LOG)"
[ $rc -eq 0 ] || die "$LINE: QEMU failed (exit $rc): $(tail -n 5 "$RUN/qemu.out")"
grep -a '^MODSIGN-ERROR' "$LOG" | tr -d '\r' >&2 || true
if ! grep -aq '^MODSIGN-DONE' "$LOG"; then
	tail -n 30 "$LOG" >&2
	last=$(grep -a -E '^MODSIGN-(CASE|JUDGE)	' "$LOG" | tail -n 1 | cut -f1,2 | tr '\t' ' ')
	die "$LINE: the boot did not finish (no MODSIGN-DONE; last verdict: ${last:-none}; serial log: $LOG)"
fi

# One row per case, in cases.tsv order; every case must have its lines.
tr -d '\r' <"$LOG" | awk -F'\t' -v list="$LIST" -v out="$OUT.tmp" '
$1 == "MODSIGN-CASE" { finit[$2] = $4 }
$1 == "MODSIGN-JUDGE" { judge[$2] = $3 }
END {
	print "case\tfinit_result\tunderlying_errno" > out
	while ((getline row < list) > 0) {
		sub(/\r$/, "", row)
		if (row ~ /^#/ || row == "") continue
		if (!h) { h = 1; continue }
		split(row, c, "\t")
		f = "-"
		if (c[3] == "module") {
			if (!(c[1] in finit)) { print "no finit_module line for case " c[1] > "/dev/stderr"; err = 1 }
			f = finit[c[1]]
		}
		if (!(c[1] in judge)) { print "no judge line for case " c[1] > "/dev/stderr"; err = 1 }
		print c[1] "\t" f "\t" judge[c[1]] > out
	}
	exit err
}' || die "$LINE: some cases produced no verdict (serial log: $LOG)"
mv "$OUT.tmp" "$OUT"
note "$LINE: wrote $OUT ($(($(wc -l <"$OUT") - 1)) cases)"
