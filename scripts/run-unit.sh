#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-unit.sh PROGRAM...: run each cmocka unit test program (make
# check-unit), showing its own output with cmocka's closing lines, then
# one line summing them all: "N passed, N failed".  A program that dies
# (a sanitizer abort, a signal cmocka did not catch) or exits non-zero
# without saying which test failed counts as one failed test, so that a
# crash can never pass as a green run.  Exits 1 when anything failed.
set -u
passed=0
failed=0
for prog in "$@"; do
	out=$(mktemp)
	"$prog" > "$out" 2>&1
	rc=$?
	cat "$out"
	# cmocka's closing lines: "[  PASSED  ] N test(s)." and
	# "[  FAILED  ] N test(s), listed below:"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below.*/\1/p' "$out" |
		tail -n 1)
	rm -f "$out"
	passed=$((passed + ${p:-0}))
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$prog: exit status $rc with no failed test reported: counted as one failure"
		f=1
	fi
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
