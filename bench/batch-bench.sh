#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# batch-bench.sh: single files, the batch against xargs -P, verification,
# peak memory and efficiency against the machine's limit, in one run.
# Not a test.
#
#   bench/batch-bench.sh            (make bench; run 'make' first)
#   RUNS=5 BENCH_DIR=/dev/shm N=2000 bench/batch-bench.sh
#
# Prepares its inputs under BENCH_DIR (default: /dev/shm when it is a
# tmpfs, else build/): 2,000 synthetic modules of 100 KB, 2,000 with a
# kernel-like size mix (70% 5-50 KB, 25% 50-500 KB, 5% 0.5-4 MB), single
# 100 KB, 10 MB and 1 GiB files.  Fetches the reference sign-file
# (Debian's linux-kbuild-6.1) and Debian's 6.1 module tree when it can.
# Tools alternate run by run; each figure is the median of RUNS (default
# 3; 11 for single files).  The machine's limit comes from `openssl
# speed` in the same run: RSA signatures/s and SHA-256 bytes/s on one
# core, times the cores; efficiency = limit time / measured time.
# The file system holding the files (tmpfs or disk) is printed with the
# table: on disk, sign-file's fsyncs (which the reference does not do)
# are part of every figure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${MODSIGN_BIN:-$top/build/bin}
sf=$bin/sign-file
vf=$bin/verify-file
ref=${REF_SIGN_FILE:-$top/build/reference/sign-file}
keys=$top/tests/fixtures/keys
runs=${RUNS:-3}
n=${N:-2000}
cores=$(nproc)
[ -x "$ref" ] || "$top/tests/fixtures/get-reference.sh" >&2
for t in "$sf" "$vf" "$ref"; do
	[ -x "$t" ] || { echo "missing $t (run make)" >&2; exit 2; }
done
if [ -z "${BENCH_DIR:-}" ]; then
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		BENCH_DIR=/dev/shm
	else
		BENCH_DIR=$top/build
	fi
fi
w=$(mktemp -d "$BENCH_DIR/modsign-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT
fs=$(stat -f -c %T "$w")
[ "$fs" = tmpfs ] || fs="disk ($fs)"

# ---- inputs ----
# sign-file signs a .ko only when it passes the kernel's offline ELF
# checks: every file starts with elf-module.py's head
python3 "$top/tests/fixtures/elf-module.py" "$w/head" 193
python3 - "$w" "$n" <<'PY'
import os, random, sys
w, n = sys.argv[1], int(sys.argv[2])
elf_head = open(os.path.join(w, "head"), "rb").read()
rnd = random.Random(5)
blk = os.urandom(1 << 22)
def put(path, size):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        off = rnd.randrange(0, 4096)	# no two files alike
        f.write(elf_head)
        size -= len(elf_head)
        while size:
            k = min(size, len(blk) - off)
            f.write(blk[off:off + k])
            size -= k
            off = 0
for i in range(n):
    put(f"{w}/flat/m{i:05d}.ko", 100000)
    r = rnd.random()
    size = (rnd.randrange(5000, 50000) if r < .70 else
            rnd.randrange(50000, 500000) if r < .95 else
            rnd.randrange(500000, 4000000))
    put(f"{w}/mix/d{i % 40:02d}/m{i:05d}.ko", size)
put(f"{w}/100k.ko", 100000)
put(f"{w}/10m.ko", 10000000)
put(f"{w}/1g.ko", 1 << 30)
PY
mkdir "$w/certs"
cp "$keys/rsa2048.crt" "$keys/rsa4096.crt" "$w/certs/"

# Timestamps in microseconds from bash itself: $(date +%s%N) would put a
# fork and an exec (~7 ms here) inside every timed run.
now() { now_t=${EPOCHREALTIME/[.,]/}; }
median() { sort -n | awk '{ v[NR] = $1 } END {
	printf "%.4f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b - a) / 1e6 }'; }

# ---- the machine's limit, measured now ----
speed() { # alg -> sign/s verify/s on one core
	openssl speed -seconds 2 "$1" 2>/dev/null | awk -v a="$1" '
		$1 == "rsa" { print $6, $7 }'
}
read -r s2048 v2048 < <(speed rsa2048)
read -r s4096 v4096 < <(speed rsa4096)
sha=$(openssl speed -seconds 2 -evp sha256 -bytes 16384 2>/dev/null |
	awk '$1 == "sha256" { sub(/k$/, "", $2); print $2 * 1000 }')
tree_bytes() { du -sb --apparent-size "$1" | cut -f1; }
limit() { # files bytes ops_per_sec_per_core -> seconds on all cores
	awk -v f="$1" -v b="$2" -v s="$3" -v h="$sha" -v c="$cores" \
		'BEGIN { printf "%.4f", (f / s + b / h) / c }'
}

# ---- single files: alternate ours/ref, fresh dest each time ----
single() { # key module runs -> "ours ref"
	local o=() r=() i t0 t1
	for ((i = 0; i < $3; i++)); do
		rm -f "$w/out.ko"; now; t0=$now_t
		"$sf" sha256 "$keys/$1.key" "$keys/$1.crt" "$w/$2" "$w/out.ko"
		now; t1=$now_t; o+=("$(secs "$t0" "$t1")")
		rm -f "$w/out.ko"; now; t0=$now_t
		"$ref" sha256 "$keys/$1.key" "$keys/$1.crt" "$w/$2" "$w/out.ko"
		now; t1=$now_t; r+=("$(secs "$t0" "$t1")")
	done
	echo "$(printf '%s\n' "${o[@]}" | median) $(printf '%s\n' "${r[@]}" | median)"
}

# ---- trees: a fresh unsigned copy per run ----
fresh() { rm -rf "$w/run"; cp -a "$w/$1" "$w/run"; sync -f "$w/run" 2>/dev/null || true; }
batch_tree() { # key tree -> "ours ref"
	local o=() r=() i t0 t1
	for ((i = 0; i < runs; i++)); do
		fresh "$2"; now; t0=$now_t
		find "$w/run" -name '*.ko' | sort | "$sf" --batch -q \
			--files-from - sha256 "$keys/$1.key" "$keys/$1.crt"
		now; t1=$now_t; o+=("$(secs "$t0" "$t1")")
		fresh "$2"; now; t0=$now_t
		find "$w/run" -name '*.ko' | sort | xargs -P "$cores" -n1 \
			"$ref" sha256 "$keys/$1.key" "$keys/$1.crt"
		now; t1=$now_t; r+=("$(secs "$t0" "$t1")")
	done
	echo "$(printf '%s\n' "${o[@]}" | median) $(printf '%s\n' "${r[@]}" | median)"
}
verify_tree() { # dir certsrc... -> seconds
	local t=() i t0 t1 d=$1
	shift
	"$vf" -q "$@" -r "$d" || true
	for ((i = 0; i < runs; i++)); do
		now; t0=$now_t; "$vf" -q "$@" -r "$d" || true; now; t1=$now_t
		t+=("$(secs "$t0" "$t1")")
	done
	printf '%s\n' "${t[@]}" | median
}
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }

row() { printf '%-44s %10s %10s %7s %7s  %s\n' "$@"; }
echo "modsign batch bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), files on $fs"
echo "limit per core: RSA-2048 $s2048 sign/s, $v2048 verify/s; RSA-4096 $s4096 sign/s; SHA-256 $(awk -v h="$sha" 'BEGIN { printf "%.0f MB/s", h / 1e6 }')"
row "case" "ours s" "ref s" ratio effic "where"
for key in rsa2048 rsa4096; do
	for m in 100k.ko 10m.ko; do
		read -r o r < <(single "$key" "$m" 11)
		row "single sign $m $key" "$o" "$r" \
			"$(awk -v a="$o" -v b="$r" 'BEGIN { printf "%.2f", a / b }')" "-" "$fs"
	done
done
flat_bytes=$(tree_bytes "$w/flat")
mix_bytes=$(tree_bytes "$w/mix")
for key in rsa2048 rsa4096; do
	sps=$s2048; [ "$key" = rsa4096 ] && sps=$s4096
	for tree in flat mix; do
		b=$flat_bytes; [ "$tree" = mix ] && b=$mix_bytes
		read -r o r < <(batch_tree "$key" "$tree")
		lim=$(limit "$n" "$b" "$sps")
		row "batch sign $n $tree $key (xargs -P$cores)" "$o" "$r" \
			"$(awk -v a="$o" -v b="$r" 'BEGIN { printf "%.3f", a / b }')" \
			"$(awk -v l="$lim" -v a="$o" 'BEGIN { printf "%.0f%%", 100 * l / a }')" "$fs"
	done
done
fresh flat
"$sf" --batch -q sha256 "$keys/rsa2048.key" "$keys/rsa2048.crt" "$w"/run/*.ko
t=$(verify_tree "$w/run" -k "$w/certs")
lim=$(limit "$n" "$flat_bytes" "$v2048")
row "verify -r $n x 100 KB rsa2048" "$t" "-" "-" \
	"$(awk -v l="$lim" -v a="$t" 'BEGIN { printf "%.0f%%", 100 * l / a }')" "$fs"
if deb=$(sh "$top/tests/fixtures/debian-kernel.sh" 2>/dev/null); then
	mods="$deb/root/lib/modules"
	c=$(find "$mods" -name '*.ko' | wc -l)
	t=$(verify_tree "$mods" --kernel 6.1 -c "$deb/signing-cert.der")
	lim=$(awk -v f="$c" -v b="$(tree_bytes "$mods")" -v s="$v4096" -v h="$sha" -v k="$cores" \
		'BEGIN { printf "%.4f", (f / s + b / h) / k }')
	row "verify -r Debian 6.1 tree ($c modules)" "$t" "-" "-" \
		"$(awk -v l="$lim" -v a="$t" 'BEGIN { printf "%.0f%%", 100 * l / a }')" \
		"$(stat -f -c %T "$mods")"
else
	row "verify -r Debian 6.1 tree" "-" "-" "-" "-" "not available"
fi
rm -rf "$w/run" "$w/flat" "$w/mix"
rm -f "$w/1g-s.ko"
so=$(rss "$sf" sha256 "$keys/rsa2048.key" "$keys/rsa2048.crt" "$w/1g.ko" "$w/1g-s.ko")
sr=$(rss "$ref" sha256 "$keys/rsa2048.key" "$keys/rsa2048.crt" "$w/1g.ko" "$w/1g-r.ko")
rm -f "$w/1g-r.ko"
vo=$(rss "$vf" -q -k "$w/certs" "$w/1g-s.ko")
row "peak RSS sign 1 GiB (KiB)" "$so" "$sr" "-" "-" "$fs"
row "peak RSS verify 1 GiB (KiB)" "$vo" "-" "-" "-" "$fs"
echo "ratio = ours / ref (below 1: ours faster); batch ratio is the time ratio (1/ratio = speed-up)"
echo "efficiency = (files / (sign or verify per s per core) + bytes / SHA-256 per s per core) / cores / measured"
