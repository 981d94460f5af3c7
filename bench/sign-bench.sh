#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sign-bench.sh [RUNS]: whole-process wall time of modsign's sign-file
# against the kernel's (build/reference/sign-file), sha256, RSA-2048 and
# RSA-4096, on a 100 KB and a 10 MB module.  Each case runs RUNS (default
# 15, at least 10) times per tool, alternating ours, ref, ours, ref...,
# each run signing a fresh copy of the module into a dest; the medians and
# their ratio (ours / ref; below 1 means ours is faster) are printed.
#
#   MODSIGN_BIN=build/bin  REF_SIGN_FILE=build/reference/sign-file
#
# hyperfine is not used because it groups all runs of one command together;
# alternating keeps machine-load drift out of the ratio.  Not a test.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${MODSIGN_BIN:-$top/build/bin}
ours=$bin/sign-file
ref=${REF_SIGN_FILE:-$top/build/reference/sign-file}
keys=$top/tests/fixtures/keys
runs=${1:-15}
[ "$runs" -ge 10 ] || { echo "need at least 10 runs" >&2; exit 2; }
for t in "$ours" "$ref"; do
	[ -x "$t" ] || { echo "missing $t (make; tests/fixtures/get-reference.sh)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" <<'PY'
import os, sys
for name, n in (("100k.ko", 100000), ("10m.ko", 10000000)):
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(os.urandom(n))
PY
# sign-file signs a .ko only when it passes the kernel's offline ELF checks
for f in "$tmp"/*.ko; do python3 "$top/tests/fixtures/elf-module.py" --head "$f"; done

# The clock is bash's, read without a fork: $(date +%s%N) costs a fork
# and an exec (~7 ms here, as much as signing a small module), which
# would sit inside every timed run and pull each ratio towards 1.
now_us() { t=${EPOCHREALTIME/[.,]/}; }

# One timed run in microseconds of TOOL signing MODULE into a dest.
one() { # tool key module
	local t0
	rm -f "$tmp/out.ko"
	now_us; t0=$t
	"$1" sha256 "$keys/$2.key" "$keys/$2.der" "$3" "$tmp/out.ko"
	now_us
	echo $(( t - t0 ))
}

median() { # file of microseconds
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f", m / 1000 }'
}

printf '%-9s %-8s %12s %12s %8s\n' key module "ours ms" "ref ms" ratio
for key in rsa2048 rsa4096; do
	for m in 100k.ko 10m.ko; do
		: > "$tmp/o"; : > "$tmp/r"
		# warm-up: page cache and dynamic loader for both
		one "$ours" "$key" "$tmp/$m" > /dev/null
		one "$ref" "$key" "$tmp/$m" > /dev/null
		i=0
		while [ "$i" -lt "$runs" ]; do
			one "$ours" "$key" "$tmp/$m" >> "$tmp/o"
			one "$ref" "$key" "$tmp/$m" >> "$tmp/r"
			i=$((i + 1))
		done
		mo=$(median "$tmp/o"); mr=$(median "$tmp/r")
		printf '%-9s %-8s %12s %12s %8s\n' "$key" "$m" "$mo" "$mr" \
			"$(awk -v a="$mo" -v b="$mr" 'BEGIN { printf "%.2f", a / b }')"
	done
done
echo "medians of $runs alternating runs each; ratio = ours / ref (whole process, sha256)"
