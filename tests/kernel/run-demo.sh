#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-demo.sh [LINE...]
#
# The harness's own end-to-end test: for each LINE (default: lib.sh's
# KH_LINES, 5.10 6.1 6.12 7.3) generate the demo cases, boot them, and
# compare the table with demo-expected.tsv.  Results land in
# build/kernel-demo/LINE(.tsv).
# Ends with one "N passed, N failed" line; exits non-zero on any mismatch.
set -euo pipefail
PROG=run-demo.sh
. "$(dirname "$0")/lib.sh"

lines=("$@")
# shellcheck disable=SC2206
[ ${#lines[@]} -gt 0 ] || lines=($KH_LINES)
expected=$KH_DIR/demo-expected.tsv
pass=0
fail=0
for line in "${lines[@]}"; do
	dir=$KH_TOP/build/kernel-demo/$line
	"$KH_DIR/demo-cases.sh" "$line" "$dir" >/dev/null
	if ! "$KH_DIR/judge-cases.sh" "$line" "$dir" "$dir.tsv"; then
		note "$line: judge-cases.sh failed"
		fail=$((fail + 1))
		continue
	fi
	while IFS=$'\t' read -r c f u; do
		got=$(awk -F'\t' -v c="$c" '$1 == c { print $2 "\t" $3 }' "$dir.tsv")
		if [ "$got" = "$f"$'\t'"$u" ]; then
			pass=$((pass + 1))
		else
			echo "FAIL $line $c: expected $f/$u, got ${got/$'\t'//}"
			fail=$((fail + 1))
		fi
	done < <(grep -v -e '^#' -e '^case	' "$expected")
	echo "== $line"
	column -t -s $'\t' "$dir.tsv"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
