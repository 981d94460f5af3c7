#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fuzz-long.sh [RUNS]: run each libFuzzer target (build/fuzz, ASan+UBSan)
# to RUNS executions, or to its own default below, from the committed
# corpus (tests/fuzz/corpus/TARGET) and the seeds make-seeds.sh wrote to
# build/fuzz/seeds, then replay the grown corpus through the coverage
# build (build/fuzz-cov) and print one line a target: executions,
# executions per second, crashes, and the line coverage of the source
# files that target parses (llvm-cov report over those files only).
#
# Environment:
#   FUZZ_TARGETS="fuzz_verify ..."  only these targets
#   FUZZ_MAX_TIME=S   stop each target after S seconds even short of RUNS
#                     (the line then shows how far it got)
#   FUZZ_MERGE=1      minimise the grown corpus back into
#                     tests/fuzz/corpus/TARGET (-merge=1)
#   FUZZ_OUT=DIR      work directory (build/fuzz-long): logs, grown corpora,
#                     crash artifacts, profiles
#
# fuzz-long.sh --opts TARGET prints the target's -max_len and -timeout,
# which fuzz-smoke uses too.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

# The largest input each target is fed.  Kernel images: the synthetic
# seeds are under 2 KiB, and the decompressors' work grows with the input;
# modules and certificates: the conformance corpus's largest signature is
# 70 KiB (case c13), whose length checks the cap must leave reachable.
max_len() {
	case $1 in
	fuzz_vmlinux) echo 4096 ;;
	fuzz_esl) echo 8192 ;;
	fuzz_rsaimport) echo 4096 ;;
	*) echo 80000 ;;
	esac
}

# Seconds one input may take.  Kernel images: liblzma allocates the
# dictionary a header asks for (up to the 1 GiB lzma_header_sane() lets
# through) and ASan poisons its shadow on free, 128 MiB of memset: a
# 2 KB input with a few such headers took 7 s under ASan and 0.1 s in
# the release build.
time_limit() {
	case $1 in
	fuzz_vmlinux) echo 60 ;;
	*) echo 10 ;;
	esac
}

opts() {
	echo "-max_len=$(max_len "$1") -timeout=$(time_limit "$1")"
}

if [ "${1:-}" = --opts ]; then
	opts "$2"
	exit 0
fi

# Issue 39: 1e7 executions for the module verifier and the certificate
# store, 1e6 for the rest.
default_runs() {
	case $1 in
	fuzz_verify | fuzz_certstore | fuzz_trailer) echo 10000000 ;;
	*) echo 1000000 ;;
	esac
}

# The files whose line coverage a target's line shows: what it parses,
# not the whole layer it links.
sources() {
	k=src/common/kernel
	case $1 in
	fuzz_trailer) echo src/common/module/trailer.c ;;
	fuzz_verify) echo src/common/module/trailer.c $k/asn1.c \
		$k/x509.c $k/pkcs7.c $k/public_key*.c $k/cert_check.c \
		$k/verify.c ;;
	fuzz_certstore) echo src/common/base/cert_file.c $k/keyring.c \
		$k/asn1.c $k/x509.c $k/public_key*.c \
		$k/cert_check.c ;;
	fuzz_esl) echo src/common/trust/efi_siglist.c $k/keyring.c \
		$k/blacklist.c $k/x509.c ;;
	fuzz_vmlinux) echo src/common/trust/kernel_image*.c src/common/module/elf.c \
		src/common/module/compress*.c $k/keyring.c ;;
	fuzz_describe) echo src/common/module/sig_describe.c \
		src/extract-sig/modinfo.c src/common/report/sigdesc.c ;;
	fuzz_rsaimport) echo src/sign-file/rsa_import.c ;;
	esac
}

# ASan's quarantine at its default 256 MiB keeps every freed block out of
# reuse so long that each execution faults in fresh pages: 16 MiB, far
# more than one execution frees, still catches use after free within it
# and runs the parsers three times as fast.
: "${ASAN_OPTIONS:=quarantine_size_mb=16}"
export ASAN_OPTIONS

runs=${1:-}
out=${FUZZ_OUT:-build/fuzz-long}
targets=${FUZZ_TARGETS:-$(cd tests/fuzz && echo fuzz_*.c | sed 's/\.c//g')}
mkdir -p "$out"
status=0
summary=$out/summary.txt
printf '%-16s %12s %8s %7s %9s %7s  %s\n' target executions exec/s \
	crashes coverage corpus files > "$summary"

for t in $targets; do
	n=${runs:-$(default_runs "$t")}
	mkdir -p "$out/$t.corpus" "$out/$t.artifacts" "tests/fuzz/corpus/$t"
	rm -f "$out/$t.artifacts"/*
	log=$out/$t.log
	echo "== $t: $n runs (log $log)"
	rc=0
	# -print_final_stats: stat::number_of_executed_units and
	# stat::average_exec_per_sec, read below
	# shellcheck disable=SC2046
	build/fuzz/"$t" -runs="$n" ${FUZZ_MAX_TIME:+-max_total_time=$FUZZ_MAX_TIME} \
		-rss_limit_mb=2048 $(opts "$t") \
		-print_final_stats=1 -artifact_prefix="$out/$t.artifacts/" \
		"$out/$t.corpus" "tests/fuzz/corpus/$t" build/fuzz/seeds \
		> "$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	# slow-unit-* files are inputs over 10 s that did not time out
	crashes=$(find "$out/$t.artifacts" -type f \( -name 'crash-*' -o \
		-name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	if [ "$rc" != 0 ] && [ "$crashes" = 0 ]; then
		echo "$t: the fuzzer failed (exit $rc) without an artifact" >&2
		tail -n 20 "$log" >&2
		crashes=1
	fi
	[ "$crashes" = 0 ] || { status=1; tail -n 40 "$log"; }

	if [ "${FUZZ_MERGE:-}" = 1 ]; then
		rm -rf "$out/$t.merged"
		mkdir -p "$out/$t.merged"
		# shellcheck disable=SC2046
		build/fuzz/"$t" -merge=1 $(opts "$t") \
			-rss_limit_mb=2048 "$out/$t.merged" \
			"tests/fuzz/corpus/$t" "$out/$t.corpus" build/fuzz/seeds \
			> "$out/$t.merge.log" 2>&1
		rm -rf "tests/fuzz/corpus/$t"
		mv "$out/$t.merged" "tests/fuzz/corpus/$t"
	fi

	# Coverage: every input of the corpus once through the
	# instrumented build, the report over the target's own files.
	rm -f "$out/$t".*.profraw
	# shellcheck disable=SC2046
	LLVM_PROFILE_FILE="$out/$t.%p.profraw" build/fuzz-cov/"$t" -runs=0 \
		$(opts "$t") "$out/$t.corpus" \
		"tests/fuzz/corpus/$t" build/fuzz/seeds > "$out/$t.cov.log" 2>&1 || true
	llvm-profdata merge -sparse -o "$out/$t.profdata" "$out/$t".*.profraw
	# shellcheck disable=SC2046
	llvm-cov report build/fuzz-cov/"$t" -instr-profile="$out/$t.profdata" \
		$(sources "$t") > "$out/$t.cov.txt"
	# TOTAL's columns: regions, missed, cover, functions, missed,
	# executed, lines, missed lines, line cover, ...
	cov=$(awk '$1 == "TOTAL" { print $10 }' "$out/$t.cov.txt")
	files=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
	printf '%-16s %12s %8s %7s %9s %7s  %s\n' "$t" "${execs:-?}" \
		"${speed:-?}" "$crashes" "${cov:-?}" "$files" \
		"$(sources "$t" | sed 's|src/common/||g')" >> "$summary"
done
cat "$summary"
exit $status
