#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kbuild-bench.sh: signing the way kbuild's modules_install, DKMS and
# akmods do it -- one sign-file process per module, in place, on a disk
# file system -- over real Debian modules.  Not a test.
#
#   bench/kbuild-bench.sh                 (run 'make' first)
#   N=300 ROUNDS=5 BENCH_DIR=/var/tmp bench/kbuild-bench.sh
#
# Modules: the first N (default 300) .ko of this release's current
# linux-image package (tests/fixtures/debian-kernel.sh), decompressed.
# BENCH_DIR (default /var/tmp) must be on a disk file system: on tmpfs
# fsync costs nothing and the figures mean little for a real build; its
# file system is printed with the table.
#
# Each round signs a fresh copy of the N modules once per configuration,
# the configurations in alternating order round by round; each figure is
# the median over ROUNDS (default 5) of the whole run (for the agent:
# starting it, loading the key, the N client runs and its final syncfs),
# divided by N.  A `sync` before each timed run keeps one run's writeback
# out of the next one's figure.
#
#   kernel        the kernel's scripts/sign-file (build/reference, from
#                 Debian's linux-kbuild; it does not fsync)
#   sign-file     modsign's sign-file, one process a module
#   no-fsync      the same with fsync() made a no-op (LD_PRELOAD): what
#                 its two fsyncs a module cost
#   no-dirsync    only the directory's fsync made a no-op
#   agent         plain sign-file runs under sign-file --agent
#   hsm, hsm+agent          the key (RSA, KEY=rsa2048 by default) in
#                 SoftHSM, by pkcs11: URI
#   p11kit, p11kit+agent    the same token through p11-kit's remoting
#                 (p11-kit server + p11-kit-client.so)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sf=${MODSIGN_BIN:-$top/build/bin}/sign-file
ref=${REF_SIGN_FILE:-$top/build/reference/sign-file}
keys=$top/tests/fixtures/keys
key=${KEY:-rsa2048}
n=${N:-300}
rounds=${ROUNDS:-5}
softhsm=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}
[ -x "$ref" ] || "$top/tests/fixtures/get-reference.sh" >&2
[ -x "$sf" ] || { echo "missing $sf (run make)" >&2; exit 2; }

w=$(mktemp -d "${BENCH_DIR:-/var/tmp}/modsign-kbuild.XXXXXX")
p11_pid=
cleanup() {
	[ -z "$p11_pid" ] || kill "$p11_pid" 2>/dev/null || true
	rm -rf "$w"
}
trap cleanup EXIT
# the binaries as they are now: a rebuild during the run changes nothing
mkdir "$w/bin"
cp "$sf" "$w/bin/sign-file"
cp "$ref" "$w/bin/sign-file.kernel"
sf=$w/bin/sign-file
ref=$w/bin/sign-file.kernel
fstype=$(findmnt -n -o FSTYPE -T "$w" 2>/dev/null || stat -f -c %T "$w")
[ "$fstype" != tmpfs ] ||
	echo "warning: $w is on tmpfs, not a disk file system" >&2

# ---- real modules ----
pkg=$("$top/tests/fixtures/debian-kernel.sh")
mkdir "$w/pristine"
find "$pkg/root" \( -name '*.ko' -o -name '*.ko.xz' \) | LC_ALL=C sort |
	head -n "$n" | while read -r m; do
	b=$(basename "$m")
	case $m in
	*.xz) xz -dc "$m" > "$w/pristine/${b%.xz}" ;;
	*) cp "$m" "$w/pristine/$b" ;;
	esac
done
# Debian's modules come signed; kbuild signs unsigned ones: drop the
# trailer (signature, 12-byte descriptor, 28-byte magic).
python3 - "$w"/pristine/*.ko <<'PY'
import sys
magic = b"~Module signature appended~\n"
for p in sys.argv[1:]:
    b = open(p, "rb").read()
    if b.endswith(magic):
        sig = int.from_bytes(b[-len(magic) - 4:-len(magic)], "big")
        open(p, "wb").write(b[:len(b) - len(magic) - 12 - sig])
PY
n=$(find "$w/pristine" -name '*.ko' | wc -l)
mb=$(du -sm "$w/pristine" | cut -f1)

# ---- a token: SoftHSM, and the same token behind p11-kit server ----
export SOFTHSM2_CONF=$w/softhsm2.conf
mkdir "$w/tokens"
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\n' \
	"$w" > "$SOFTHSM2_CONF"
softhsm2-util --init-token --free --label bench --pin 1234 --so-pin 5678 \
	> /dev/null
for t in privkey cert; do
	f=$keys/$key.key
	[ $t = cert ] && f=$keys/$key.der
	pkcs11-tool --module "$softhsm" --token-label bench --login --pin 1234 \
		--write-object "$f" --type $t --id 01 --label bench > /dev/null 2>&1
done
export KBUILD_SIGN_PIN=1234
hkey="pkcs11:token=bench;object=bench?module-path=$softhsm"
hcert="pkcs11:token=bench;object=bench;type=cert?module-path=$softhsm"
client=$(ls /usr/lib/*/pkcs11/p11-kit-client.so 2>/dev/null | head -1)
if [ -n "$client" ] && command -v p11-kit > /dev/null; then
	mkfifo "$w/p11.out"
	p11-kit server -f -s -n "$w/p11.sock" --provider "$softhsm" \
		"pkcs11:token=bench" > "$w/p11.out" 2>/dev/null &
	p11_pid=$!
	read -r _ < "$w/p11.out"
	export P11_KIT_SERVER_ADDRESS="unix:path=$w/p11.sock"
	rkey="pkcs11:token=bench;object=bench?module-path=$client"
	rcert="pkcs11:token=bench;object=bench;type=cert?module-path=$client"
fi

# fsync made free, to price sign-file's two a module: every fsync, or
# only the directory's (the file's, before the rename, is what keeps a
# power loss from leaving a partial module)
cat > "$w/nofsync.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/stat.h>
int fsync(int fd)
{
#ifdef DIR_ONLY
	struct stat st;
	static int (*real)(int);

	if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if (!real)
			real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
		return real(fd);
	}
#endif
	(void)fd;
	return 0;
}
int fdatasync(int fd) { (void)fd; return 0; }
EOF
cc -shared -fPIC -O2 -o "$w/nofsync.so" "$w/nofsync.c" -ldl
cc -shared -fPIC -O2 -DDIR_ONLY -o "$w/nodirsync.so" "$w/nofsync.c" -ldl

# One process a module, as kbuild's cmd_sign.
cat > "$w/each.sh" <<'EOF'
#!/bin/bash
d=$1
shift
for f in "$d"/*.ko; do
	"$@" "$f" || { echo "failed: $* $f" >&2; exit 1; }
done
EOF
chmod +x "$w/each.sh"

pem=("$keys/$key.key" "$keys/$key.crt")
configs=(kernel sign-file no-dirsync no-fsync agent hsm hsm+agent)
[ -z "${rkey:-}" ] || configs+=(p11kit p11kit+agent)

run_config() { # name dir
	local d=$2
	case $1 in
	kernel) "$w/each.sh" "$d" "$ref" sha256 "${pem[@]}" ;;
	sign-file) "$w/each.sh" "$d" "$sf" sha256 "${pem[@]}" ;;
	no-fsync) LD_PRELOAD=$w/nofsync.so \
		"$w/each.sh" "$d" "$sf" sha256 "${pem[@]}" ;;
	no-dirsync) LD_PRELOAD=$w/nodirsync.so \
		"$w/each.sh" "$d" "$sf" sha256 "${pem[@]}" ;;
	agent) "$sf" --agent sha256 "${pem[@]}" -- \
		"$w/each.sh" "$d" "$sf" sha256 "${pem[@]}" ;;
	hsm) "$w/each.sh" "$d" "$sf" sha256 "$hkey" "$hcert" ;;
	hsm+agent) "$sf" --agent sha256 "$hkey" "$hcert" -- \
		"$w/each.sh" "$d" "$sf" sha256 "$hkey" "$hcert" ;;
	p11kit) "$w/each.sh" "$d" "$sf" sha256 "$rkey" "$rcert" ;;
	p11kit+agent) "$sf" --agent sha256 "$rkey" "$rcert" -- \
		"$w/each.sh" "$d" "$sf" sha256 "$rkey" "$rcert" ;;
	esac
}

# the first round's files must be byte-identical across configurations
# (RSA PKCS#1 v1.5 is deterministic)
declare -A times
for ((r = 0; r < rounds; r++)); do
	order=("${configs[@]}")
	if ((r % 2)); then
		order=()
		for ((i = ${#configs[@]} - 1; i >= 0; i--)); do
			order+=("${configs[i]}")
		done
	fi
	for c in "${order[@]}"; do
		d=$w/run
		rm -rf "$d"
		cp -a "$w/pristine" "$d"
		sync
		t0=${EPOCHREALTIME/[.,]/}
		run_config "$c" "$d"
		t1=${EPOCHREALTIME/[.,]/}
		times[$c]+="$((t1 - t0)) "
		if ((r == 0)); then
			sha256sum "$d"/*.ko | sed "s|$d/||" > "$w/sum.$c"
			cmp -s "$w/sum.$c" "$w/sum.kernel" 2>/dev/null ||
				[ "$c" = kernel ] ||
				[ ! -e "$w/sum.kernel" ] ||
				{ echo "$c: output differs from the kernel tool's" >&2; exit 1; }
		fi
	done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "kbuild-bench: $n modules ($mb MB) from $(basename "$pkg"), in place"
echo "file system: $fstype ($(findmnt -n -o SOURCE -T "$w" 2>/dev/null || echo ?)), $w"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds, medians"
echo "key: $key; $("$sf" --version | head -1)"
printf '%-14s %12s %10s %10s\n' config "ms/module" "x kernel" "x sign-file"
declare -A per
for c in "${configs[@]}"; do
	m=$(echo "${times[$c]}" | median)
	per[$c]=$(awk -v m="$m" -v n="$n" 'BEGIN {printf "%.3f", m / n / 1000}')
done
for c in "${configs[@]}"; do
	awk -v c="$c" -v p="${per[$c]}" -v k="${per[kernel]}" \
		-v s="${per[sign-file]}" \
		'BEGIN {printf "%-14s %12.3f %10.2f %10.2f\n", c, p, p / k, p / s}'
done
echo "targets: sign-file <= 0.90 x kernel; agent <= 0.50 x kernel;" \
	"hsm+agent <= 0.50 x sign-file (PEM, per process)"
