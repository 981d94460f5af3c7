#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/kernel/mutate.py, the mutation generator of make kernel-mutants,
# without a kernel: a mutant is reproducible from its seed and index
# alone, and the detached twin of a module mutant is the same mutation.

load helpers

MUTATE="$TOP/tests/kernel/mutate.py"
PAYLOAD="$TOP/tests/fixtures/conformance/payload.bin"

gen() { # out seed count [first]
	python3 "$MUTATE" --payload "$PAYLOAD" --out "$1" --seed "$2" \
		--count "$3" --first "${4:-0}"
}

@test "the same seed writes byte-identical mutants, another seed others" {
	gen a 1234 40
	gen b 1234 40
	gen c 1235 40
	run diff -r a b
	assert_success
	# bases and mutations, without the case names (which carry the seed)
	cut -f4,9 a/mutants.tsv >a.txt
	cut -f4,9 c/mutants.tsv >c.txt
	run cmp -s a.txt c.txt
	assert_failure
}

@test "mutant INDEX does not depend on the mutants around it" {
	gen all 99 30
	gen one 99 1 17
	for f in one/s99-17*; do
		cmp "$f" "all/${f#one/}"
	done
	run grep -c '^s99-17' one/mutants.tsv
	assert_output --regexp '^[12]$'
}

@test "every mutant names its seed, index, base and mutation; module twins match" {
	gen m 7 60
	run awk -F'\t' 'NR > 1 && ($2 != 7 || $3 == "" || $4 == "" || $9 == "") { print }' m/mutants.tsv
	assert_output ''
	# a module mutant has a live .ko and a detached twin with usage module
	run awk -F'\t' '$6 == "live" && $5 == "module" { live[$1 "t"] = $4 }
		$6 == "twin" { if (!($1 in live) || live[$1] != $4 || $5 != "module") print "bad twin " $1; n++ }
		END { if (!n) print "no twins" }' m/mutants.tsv
	assert_output ''
	run grep -c $'\tmodule\t-$' m/cases.tsv
	assert_success
}

@test "mutants reach verify-file as real inputs: several verdicts, every case answered" {
	gen v 3 80
	C="$TOP/tests/fixtures/conformance"
	run python3 "$TOP/tests/kernel/verify-cases.py" "$VERIFY_FILE" v --kernel 6.12 \
		-c "$C/trusted.pem"
	assert_success
	[ "$(printf '%s\n' "$output" | wc -l)" -eq "$(grep -vc '^#' v/cases.tsv | awk '{ print $1 - 1 }')" ]
	# not all accepted, not all malformed: the mutations are structural
	[ "$(printf '%s\n' "$output" | cut -f2 | sort -u | wc -l)" -ge 4 ]
}
