#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-skips.sh REPORT.tap: fail when the bats run behind REPORT.tap
# skipped a test that tests/allowed-skips does not name.  make check runs
# it after every bats run: a test skipped because something it needs is
# missing is a test that did not run, and CI must not pass without it.
#
# tests/allowed-skips holds one extended regular expression a line,
# matched against the whole TAP line ("ok N name # skip reason"), each
# after a comment saying why that skip is expected.  MODSIGN_ALLOW_SKIPS,
# if set, is one more such expression, for a run by hand that knowingly
# lacks something (for example 'needs root' as a normal user).
set -eu
report=$1
allowed=$(dirname "$0")/../tests/allowed-skips

[ -r "$report" ] || { echo "check-skips.sh: no report $report" >&2; exit 1; }
unexpected=$(awk -v extra="${MODSIGN_ALLOW_SKIPS:-}" '
	FNR == NR { if ($0 !~ /^#/ && $0 != "") pat[n++] = $0; next }
	/^ok [0-9]+ .* # skip/ {
		ok = extra != "" && $0 ~ extra
		for (i = 0; i < n && !ok; i++)
			ok = $0 ~ pat[i]
		if (!ok)
			print
	}' "$allowed" "$report")
total=$(grep -c '^ok [0-9]* .* # skip' "$report" || :)
if [ -n "$unexpected" ]; then
	echo "check-skips.sh: tests skipped that tests/allowed-skips does not allow:" >&2
	printf '%s\n' "$unexpected" >&2
	exit 1
fi
echo "check-skips.sh: $total skipped, each allowed by tests/allowed-skips"
