#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mutants-offline.sh [-v] BINDIR [LINE...]
#
# The kept mutants (tests/fixtures/conformance/mutants/mutants.tsv) judged
# by verify-file --kernel LINE alone, with no QEMU: every one's errno must
# equal the one the real LINE kernel gave it (column errno_LINE; "?" or an
# absent column means that line never judged it and is not checked).
# LINE defaults to every errno_ column of the table.  MODSIGN_MUTANTS
# names another directory laid out the same (mutants.tsv beside the files).
# Prints "LINE: N agree, N disagree (N false accepts)" per line, and with -v
# each disagreement; exits 1 if any line disagrees.
set -euo pipefail
verbose=0
if [ "${1:-}" = -v ]; then verbose=1; shift; fi
[ $# -ge 1 ] || { echo "usage: mutants-offline.sh [-v] BINDIR [LINE...]" >&2; exit 2; }
bin=$1; shift
[ -x "$bin/verify-file" ] || { echo "mutants-offline.sh: $bin/verify-file missing (run make first)" >&2; exit 2; }
conf=$(cd "$(dirname "$0")/../fixtures/conformance" && pwd)
dir=${MODSIGN_MUTANTS:-$conf/mutants}
tsv=$dir/mutants.tsv
hdr=$(awk '!/^#/ { print; exit }' "$tsv")
IFS=$'\t' read -r -a cols <<<"$hdr"
declare -A col
for i in "${!cols[@]}"; do col[${cols[$i]}]=$i; done
lines=("$@")
if [ ${#lines[@]} -eq 0 ]; then
	for c in "${cols[@]}"; do
		case $c in errno_*) lines+=("${c#errno_}") ;; esac
	done
fi
fail=0
for line in "${lines[@]}"; do
	ci=${col[errno_$line]:-}
	agree=0 disagree=0 fa=0
	while IFS=$'\t' read -r -a f; do
		want=${f[$ci]:-?}
		[ -n "$ci" ] && [ "$want" != "?" ] || continue
		got=$("$bin/verify-file" --json --kernel "$line" \
			-c "$conf/trusted.pem" \
			--blacklist "$conf/blacklist-hashes.txt" \
			--revoked "$conf/revoked.pem" \
			--usage "${f[${col[usage]}]}" \
			--sig "$dir/${f[${col[sig]}]}" \
			"$(if [ "${f[${col[data]}]}" = payload.bin ] &&
				[ ! -f "$dir/payload.bin" ]; then
				echo "$conf/payload.bin"
			else
				echo "$dir/${f[${col[data]}]}"
			fi)" 2>/dev/null |
			sed -n 's/.*"verdict".*"errno": *\("[A-Z0-9]*"\|null\).*/\1/p') || true
		# no verdict at all (a crash) is never an agreement
		case $got in
		null) got=0 ;;
		'"'*) got=${got//\"/} ;;
		*) got="no-verdict" ;;
		esac
		if [ "$got" = "$want" ]; then
			agree=$((agree + 1))
			continue
		fi
		disagree=$((disagree + 1))
		note=
		if [ "$got" = 0 ]; then fa=$((fa + 1)); note=" FALSE ACCEPT"; fi
		[ $verbose = 0 ] || printf '%s: %s: kernel %s, verify-file %s%s: %s\n' \
			"$line" "${f[0]}" "$want" "$got" "$note" "${f[${col[description]}]}"
	done < <(grep -v '^#' "$tsv" | tail -n +2)
	echo "$line: $agree agree, $disagree disagree ($fa false accepts)"
	[ $disagree = 0 ] || fail=1
done
exit $fail
