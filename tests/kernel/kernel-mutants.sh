#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-mutants.sh [-n N] [-s SEED] [--no-keep] [LINE...]
#                                                   (make kernel-mutants)
#
# Differential mutation testing: N random structural mutations of valid
# signatures (tests/kernel/mutate.py), judged by each real kernel line and
# by verify-file, which must agree on every one.
#
# N and SEED also come from the environment (make kernel-mutants N=300
# SEED=42).  Without a SEED one is taken from the clock; the first line
# printed is always the seed, so any run can be repeated exactly.
# LINE defaults to every line the real-kernel stage builds.
#
# For each LINE:
#  1. build the kernel trusting what kernel-verdicts.sh trusts (same
#     bundle: the built tree is shared, nothing is relinked);
#  2. mutate.py writes the N mutants for SEED over the line's payload
#     module (vermagic must match), plus the unmutated bases, which the
#     kernel must accept (else the harness, not verify-file, is wrong);
#  3. one boot judges all of them (judge-cases.sh);
#  4. verify-file --kernel LINE judges every case twice, as
#     kernel-verdicts.sh does: with the corpus's files (-c trusted.pem
#     --blacklist --revoked) and with the kernel image alone (--vmlinux);
#  5. every case where verify-file's errno differs from the judge's is
#     printed with seed, index, mutation, both errnos, and FALSE ACCEPT
#     when verify-file says OK to what the kernel refuses.
#
# Every disagreeing mutant is then kept (unless --no-keep) in
# tests/fixtures/conformance/mutants/ with the kernels' verdicts, as the
# detached form of the same mutation over the committed payload.bin, which
# does not change when a kernel's payload module is rebuilt;
# kernel-verdicts.sh judges those on every run (mutant-corpus.py).
#
# Results: build/kernel-mutants/SEED/LINE/ (cases/, kernel.tsv,
# verify.tsv, disagreements.tsv) and build/kernel-mutants/SEED/summary.txt.
# Exits non-zero on any disagreement.
set -euo pipefail
PROG=kernel-mutants.sh
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: $PROG [-n N] [-s SEED] [--no-keep] [LINE...]" >&2
	exit 2
}
n=${N:-300}
seed=${SEED:-}
keep=1
lines=()
# shellcheck disable=SC2206
all_lines=(${KH_LINES:-6.1 6.12})
while [ $# -gt 0 ]; do
	case $1 in
	-n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
	-s) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	--no-keep) keep=0; shift ;;
	-h | --help)
		sed -n '4,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		case " ${all_lines[*]} " in
		*" $1 "*) lines+=("$1"); shift ;;
		*) die "unknown argument '$1' (lines: ${all_lines[*]})" ;;
		esac
		;;
	esac
done
[ ${#lines[@]} -gt 0 ] || lines=("${all_lines[@]}")
[[ $n =~ ^[0-9]+$ ]] || die "N must be a number, not '$n'"
from_clock=
if [ -z "$seed" ]; then
	seed=$(date +%s)
	from_clock=" (from the clock)"
fi
[[ $seed =~ ^[0-9]+$ ]] || die "SEED must be a decimal number, not '$seed'"
echo "kernel-mutants: SEED=$seed$from_clock N=$n lines ${lines[*]}; repeat with: make kernel-mutants SEED=$seed N=$n"

CONF=$KH_TOP/tests/fixtures/conformance
BIN=${MODSIGN_BIN:-$KH_TOP/build/bin}
VERIFY=$BIN/verify-file
[ -x "$VERIFY" ] || die "$VERIFY missing (run make first)"
OUTROOT=$KH_TOP/build/kernel-mutants/$seed
rm -rf "$OUTROOT"
mkdir -p "$OUTROOT"
SUMMARY=$OUTROOT/summary.txt
say() { echo "$*" | tee -a "$SUMMARY"; }
say "SEED=$seed N=$n"

# What kernel-verdicts.sh has every line's kernel trust: the same bytes, so
# both stages share one built tree without relinking it.
TRUST=$OUTROOT/trusted.pem
cat "$CONF/trusted.pem" >"$TRUST"
[ ! -f "$CONF/trusted-mldsa.pem" ] || cat "$CONF/trusted-mldsa.pem" >>"$TRUST"

# The --kernel verify-file gets for LINE: LINE if it knows it, else the
# newest line it knows, printed with a "~" (a stand-in).
vf_line() {
	local l cand=
	if "$VERIFY" --kernel "$1" -c "$TRUST" --list-keys >/dev/null 2>&1; then
		echo "$1"
		return
	fi
	for l in "${all_lines[@]}"; do
		"$VERIFY" --kernel "$l" -c "$TRUST" --list-keys >/dev/null 2>&1 && cand=$l
	done
	[ -n "$cand" ] || die "verify-file accepts none of the lines ${all_lines[*]}"
	echo "~$cand"
}

fail=0
for line in "${lines[@]}"; do
	kh_paths "$line"
	dir=$OUTROOT/$line
	mkdir -p "$dir"
	t=$(now)
	"$KH_DIR/build-kernel.sh" "$line" "$TRUST" >/dev/null
	tb=$(elapsed "$t")
	payload=$("$KH_DIR/payload-path.sh" "$line")

	t=$(now)
	# a line without ECDSA refuses every ECDSA base: RSA bases only
	rsa_only=
	kh_line_syms | grep -qw CRYPTO_ECDSA || rsa_only=--rsa-only
	python3 "$KH_DIR/mutate.py" --payload "$payload" --seed "$seed" \
		--count "$n" --bases $rsa_only --out "$dir/cases" ||
		die "$line: mutate.py failed"
	tg=$(elapsed "$t")

	t=$(now)
	"$KH_DIR/judge-cases.sh" -c "$TRUST" "$line" "$dir/cases" "$dir/kernel.tsv"
	tj=$(elapsed "$t")

	vline=$(vf_line "$line")
	if [ "${vline#\~}" != "$vline" ]; then
		say "$line: verify-file does not know --kernel $line: held to the $line kernel with --kernel ${vline#\~} (stand-in)"
	fi
	vline=${vline#\~}
	t=$(now)
	python3 "$KH_DIR/verify-cases.py" "$VERIFY" "$dir/cases" --kernel "$vline" \
		-c "$TRUST" --blacklist "$CONF/blacklist-hashes.txt" \
		--revoked "$CONF/revoked.pem" >"$dir/verify-files.tsv"
	python3 "$KH_DIR/verify-cases.py" "$VERIFY" "$dir/cases" --kernel "$vline" \
		--vmlinux "$KH_BZIMAGE" >"$dir/verify-image.tsv"
	tv=$(elapsed "$t")

	# One table: case, kernel (judge), finit, verify-file -c, --vmlinux,
	# then the mutant's seed, index, base, usage, form, description.
	awk -F'\t' 'BEGIN { OFS = "\t" }
		FILENAME == ARGV[1] { if (FNR > 1) { fin[$1] = $2; k[$1] = $3 } next }
		FILENAME == ARGV[2] { a[$1] = $2; next }
		FILENAME == ARGV[3] { b[$1] = $2; next }
		FNR > 1 { print $1, k[$1], fin[$1], a[$1], b[$1], $2, $3, $4, $5, $6, $9 }' \
		"$dir/kernel.tsv" "$dir/verify-files.tsv" "$dir/verify-image.tsv" \
		"$dir/cases/mutants.tsv" >"$dir/verify.tsv"

	# The harness itself: finit_module folds the judge's errno as
	# module_sig_check() does, and the kernel accepts every base.
	bad=$(awk -F'\t' '$3 != "-" && $3 != "" {
			want = ($2 == "ENODATA" || $2 == "ENOPKG" || $2 == "ENOKEY") ? "EKEYREJECTED" : $2
			if ($3 != want) print $1 ": finit_module " $3 ", judge " $2 }
		$1 ~ /^b-/ && $2 != "0" { print $1 ": the kernel refuses an unmutated base (" $2 ")" }' \
		"$dir/verify.tsv")
	if [ -n "$bad" ]; then
		say "$line: the harness is wrong, not verify-file:"
		say "$bad"
		fail=1
	fi

	# Disagreements, false accepts first.
	awk -F'\t' -v line="$line" -v vl="$vline" 'BEGIN { OFS = "\t" }
		$2 != $4 || $2 != $5 {
			fa = (($4 == "0" || $5 == "0") && $2 != "0") ? "FALSE-ACCEPT" : "differs"
			print line, fa, $1, $6, $7, $8, $9, $10, $2, $4, $5, vl, $11 }' \
		"$dir/verify.tsv" | sort -t "$(printf '\t')" -k2,2 -s >"$dir/disagreements.tsv"
	nd=$(wc -l <"$dir/disagreements.tsv")
	nfa=$(grep -c $'\tFALSE-ACCEPT\t' "$dir/disagreements.tsv" || true)
	while IFS=$'\t' read -r l fa cid s i base usage form k a b vl desc; do
		what="disagreement"
		[ "$fa" = differs ] || what="FALSE ACCEPT"
		say "$l: $what: $cid (seed $s index $i, $base, usage $usage, $form): kernel $k, verify-file --kernel $vl -c $a, --vmlinux $b: $desc"
	done <"$dir/disagreements.tsv"
	nc=$(($(wc -l <"$dir/verify.tsv")))
	say "$line: $n mutants ($nc cases with twins and bases); $nd disagreements, $nfa false accepts; generate ${tg}s, boot and judge ${tj}s, verify-file ${tv}s (kernel build ${tb}s)"
	[ "$nd" -eq 0 ] || fail=1
done

if [ $keep -eq 1 ]; then
	python3 "$KH_DIR/mutant-corpus.py" keep "$OUTROOT" "${lines[@]}" | tee -a "$SUMMARY"
fi
[ $fail -eq 0 ] || die "disagreements above (seed $seed; details: $OUTROOT/LINE/verify.tsv)"
say "no disagreement on ${lines[*]} (seed $seed, $n mutants per line)"
