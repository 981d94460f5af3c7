#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# compare-verify-file.sh [BINDIR]
#
# After firmware-verdicts.sh: hold verify-file --machine --sysroot to what
# each booted machine's kernel decided.  For every KERNEL/MACHINE booted
# it lays out a root outside the VM as the machine had it (boot-lib.sh:
# fw_sysroot), runs verify-file --machine --sysroot ROOT --json on every case module and
# prints each disagreement:
#
#   DISAGREE debian/sb-on/db: kernel EPERM, verify-file 0 (...)
#
# A verdict is "0" (verified), "0(E)" (loaded unverified: the kernel's E
# taint; verify-file's loads_unsigned) or the errno name.
# The same is done with what verify-file --machine said inside the machine
# (fw-init.c runs a static build there: KERNEL/MACHINE.vf-inside.json):
#
#   DISAGREE-INSIDE debian/sb-on/db: kernel EPERM, verify-file inside 0
#
# BINDIR: verify-file's directory (default build/bin).  Exit 1 on any
# disagreement; the summary line says how many.
set -euo pipefail
PROG=compare-verify-file.sh
FW_DIR=$(cd "$(dirname "$0")" && pwd)
. "$FW_DIR/../kernel/lib.sh"
BIN=${1:-$KH_TOP/build/bin}
VF=$BIN/verify-file
[ -x "$VF" ] || die "$VF missing (make)"
. "$FW_DIR/boot-lib.sh"
kh_paths 7.3
FW=$KH_CACHE/firmware
OUT=$KH_TOP/build/firmware-verdicts
[ -f "$OUT/verdicts.tsv" ] || die "$OUT/verdicts.tsv missing: run firmware-verdicts.sh first"
command -v jq >/dev/null || die "jq missing (scripts/install-deps.sh test)"

# laid out anew each run: the images change with every build
rm -rf "$OUT"/*/*.sysroot
agree=0 disagree=0
printf 'kernel\tmachine\tcase\tkernel_verdict\tverify_file_sysroot\tverify_file_inside\n' >"$OUT/compare.tsv"
JQ_VERDICT='if .errno == null and .underlying_errno == null then "0"
	elif .loads_unsigned == true then "0(E)"
	else (.errno // .underlying_errno) end'
iagree=0 idisagree=0
while IFS=$'\t' read -r k m c r taint; do
	[ "$k" != kernel ] || continue
	root=$OUT/$k/$m.sysroot
	[ -d "$root" ] || fw_sysroot "$k" "$m" "$root"
	kv=$r
	case $r:$taint in
	0:*E*) kv="0(E)" ;;
	esac
	json=$("$VF" --machine --sysroot "$root" --json "$(fw_cases "$k")/$c.ko" 2>"$OUT/$k/$m.$c.vf-stderr") || true
	vv=$(printf '%s' "$json" | jq -r "$JQ_VERDICT" 2>/dev/null) || vv="error"
	[ -n "$vv" ] || vv="error: $(head -n 1 "$OUT/$k/$m.$c.vf-stderr")"
	inside=$OUT/$k/$m.vf-inside.json
	iv=$(jq -r --arg f "/cases/$c.ko" "select(.file == \$f) | $JQ_VERDICT" "$inside" 2>/dev/null | head -n 1) || true
	if [ -z "$iv" ]; then
		iv="none: $(head -n 1 "$OUT/$k/$m.vf-inside.err" 2>/dev/null)"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$m" "$c" "$kv" "$vv" "$iv" >>"$OUT/compare.tsv"
	if [ "$kv" = "$iv" ]; then
		iagree=$((iagree + 1))
	else
		idisagree=$((idisagree + 1))
		echo "DISAGREE-INSIDE $k/$m/$c: kernel $kv, verify-file inside $iv"
	fi
	if [ "$kv" = "$vv" ]; then
		agree=$((agree + 1))
	else
		disagree=$((disagree + 1))
		echo "DISAGREE $k/$m/$c: kernel $kv, verify-file $vv ($(printf '%s' "$json" | jq -r '.reason // empty' 2>/dev/null))"
	fi
done <"$OUT/verdicts.tsv"
echo "compare-verify-file: --sysroot outside: $agree agree, $disagree disagree; inside the machine: $iagree agree, $idisagree disagree (table: $OUT/compare.tsv)"
[ "$disagree" -eq 0 ] && [ "$idisagree" -eq 0 ]
