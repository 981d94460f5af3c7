#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The conformance corpus (tests/fixtures/conformance): every case, for each
# kernel line, must get the errno expected.tsv names.  expected.tsv is our
# reading of the kernel sources until a real-kernel stage overwrites it.

load helpers

setup_file() {
	export CONF="$BATS_TEST_DIRNAME/../fixtures/conformance"
	export CASES="$BATS_FILE_TMPDIR/cases"
	sh "$CONF/gen-cases.sh" --out "$CASES" >"$BATS_FILE_TMPDIR/gen.log" 2>&1
}

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	require_cmd jq jq
}

# The signature's errno verify-file gives for each of some cases
# ("signature_errno", what the kernel's judge reports: before the ELF
# checks of a load; "0" for none), as "FILE<tab>ERRNO" lines: the cases
# with one usage and no detached signature judged in one run (each file
# gets its own JSON object, as it does alone; a case left without one
# is a mismatch).
judge() { # line usage [--sig SIG] file...
	local line=$1 usage=$2
	shift 2
	"$VERIFY_FILE" --json --kernel "$line" -c "$CONF/trusted.pem" \
		--blacklist "$CONF/blacklist-hashes.txt" \
		--revoked "$CONF/revoked.pem" --usage "$usage" "$@" 2>/dev/null |
		jq -r 'select(has("file")) | [(.file | sub(".*/"; "")),
			(if has("signature_errno") then .signature_errno // 0
			 else .errno // 0 end)] | @tsv'
}

# Compare every case of cases.tsv with column col of an expected table;
# print one line per mismatch, naming the case.
compare() { # line expected-file col
	local id file kind usage sig exp bad=0 row f e
	local -A want=() got=()
	local mods=()
	# the expected column, read once
	while IFS='	' read -r -a row; do
		want[${row[0]:-#}]=${row[$3 - 1]:-}
	done <"$2"
	while IFS='	' read -r id file kind usage sig; do
		case $id in '#'*|case|'') continue ;; esac
		if [ "$kind" = module ] && [ "$usage" = module ]; then
			mods+=("$CASES/$file")
		else
			while IFS='	' read -r f e; do
				got[$f]=$e
			done < <(judge "$1" "$usage" --sig "$CASES/$sig" "$CASES/$file")
		fi
	done <"$CASES/cases.tsv"
	while IFS='	' read -r f e; do
		got[$f]=$e
	done < <(judge "$1" module "${mods[@]}")
	while IFS='	' read -r id file kind usage sig; do
		case $id in '#'*|case|'') continue ;; esac
		exp=${want[$id]:-}
		if [ "${got[$file]:-}" != "$exp" ]; then
			echo "$id ($1, $kind, $usage): expected ${exp:-<missing>}, got ${got[$file]:-<no verdict>}"
			bad=$((bad + 1))
		fi
	done <"$CASES/cases.tsv"
	return $((bad > 0))
}

@test "gen-cases.sh writes at least 60 cases, each with expected verdicts" {
	run grep -cv '^#' "$CASES/cases.tsv"
	assert_success
	[ "$output" -ge 61 ]
	run awk -F'\t' 'NR == FNR { if ($1 !~ /^#/) want[$1] = 1; next }
		$1 !~ /^#/ && $1 != "case" && !($1 in want) { print $1 }' \
		"$CONF/expected.tsv" "$CASES/cases.tsv"
	assert_output ''
}

@test "cases.tsv has the harness format: header and five columns" {
	run sh -c "grep -v '^#' '$CASES/cases.tsv' | head -1"
	assert_output "$(printf 'case\tfile\tkind\tusage\tsig')"
	run awk -F'\t' '!/^#/ && $1 != "case" && (NF != 5 || ($3 != "module" && $3 != "detached") ||
		$4 !~ /^(module|firmware|unspecified|kexec)$/ ||
		($3 == "module" && $5 != "-")) { print }' "$CASES/cases.tsv"
	assert_output ''
}

@test "kernel 5.10: every conformance case gets the expected errno" {
	run compare 5.10 "$CONF/expected.tsv" 7
	assert_success
}

@test "kernel 6.1: every conformance case gets the expected errno" {
	run compare 6.1 "$CONF/expected.tsv" 4
	assert_success
}

@test "kernel 6.12: every conformance case gets the expected errno" {
	run compare 6.12 "$CONF/expected.tsv" 5
	assert_success
}

@test "a wrong expected verdict is reported by case name" {
	awk -F'\t' 'BEGIN { OFS = "\t" }
		$1 == "c38-body-modified" { $5 = "0" } { print }' \
		"$CONF/expected.tsv" >"$BATS_TEST_TMPDIR/expected.tsv"
	run compare 6.12 "$BATS_TEST_TMPDIR/expected.tsv" 5
	assert_failure
	assert_output --partial "c38-body-modified (6.12, module, module): expected 0, got EKEYREJECTED"
}

@test "the generator is deterministic except for ECDSA signatures" {
	sh "$CONF/gen-cases.sh" --out "$BATS_TEST_TMPDIR/again" >/dev/null 2>&1
	for f in "$CASES"/*; do
		case $f in *ecdsa*|*ec-key*|*mixed-authattrs*|*valid-then-bad*|\
			*/ks-p*|*/ks-secp*|*/ks-brainpool*) continue ;; esac
		cmp "$f" "$BATS_TEST_TMPDIR/again/${f##*/}"
	done
}

@test "--payload is signed into the cases" {
	head -c 777 /dev/zero >"$BATS_TEST_TMPDIR/zero.ko"
	elf_head "$BATS_TEST_TMPDIR/zero.ko"
	sh "$CONF/gen-cases.sh" --payload "$BATS_TEST_TMPDIR/zero.ko" \
		--out "$BATS_TEST_TMPDIR/p" >/dev/null 2>&1
	cmp -n 777 "$BATS_TEST_TMPDIR/zero.ko" "$BATS_TEST_TMPDIR/p/c00-valid-rsa-sha256.ko"
	run "$VERIFY_FILE" -c "$CONF/trusted.pem" "$BATS_TEST_TMPDIR/p/c00-valid-rsa-sha256.ko"
	assert_success
}

@test "randomly corrupted signatures get a verdict, never a crash" {
	run python3 - "$CASES" "$VERIFY_FILE" "$CONF/trusted.pem" <<'PY'
import os, random, subprocess, sys
cases, vf, trusted = sys.argv[1:4]
random.seed(20261203)
mods = sorted(f for f in os.listdir(cases) if f.endswith(".ko"))
for i in range(150):
    name = random.choice(mods)
    d = bytearray(open(os.path.join(cases, name), "rb").read())
    n = int.from_bytes(d[-32:-28], "big") if len(d) >= 40 else 0
    if n == 0 or n > len(d) - 40:
        continue
    for _ in range(random.randint(1, 4)):
        d[len(d) - 40 - n + random.randrange(n)] = random.randrange(256)
    path = os.path.join(cases, "fuzz.ko")
    open(path, "wb").write(d)
    r = subprocess.run([vf, "-c", trusted, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode not in (0, 1, 3, 4, 5, 6):
        print("%s mutation %d: exit %d\n%s" % (name, i, r.returncode,
              r.stderr.decode()[-2000:]))
        sys.exit(1)
PY
	assert_success
}
