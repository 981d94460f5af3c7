#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kbuild-bench.sh: signing the way kbuild's modules_install, DKMS and
# akmods do it -- one sign-file process per module, in place, on a disk
# file system -- over real Debian modules.  Not a test.
#
#   bench/kbuild-bench.sh                 (run 'make' first)
#   N=300 ROUNDS=5 BENCH_DIR=/var/tmp bench/kbuild-bench.sh
#   BEFORE_BIN=/path/to/older/bin bench/kbuild-bench.sh
#
# Modules: N (default 300) .ko spread evenly over this release's current
# linux-image package (tests/fixtures/debian-kernel.sh), decompressed and
# stripped of Debian's signature, in their directories of the package's
# tree (kbuild signs them where they are installed, a few a directory).
# BENCH_DIR (default build/ of this tree) must be on a disk file system:
# on tmpfs nothing is flushed and the figures mean little for a real
# build; its file system is printed with the table.
#
# Each round signs a fresh copy of the N modules once per configuration,
# the configurations in alternating order round by round (forward, then
# backward); each figure is the median over ROUNDS (default 5) of the
# whole run (for the agent: starting it, loading the key, the N client
# runs and its final syncfs, which the other configurations do not pay;
# its time to the last module is printed too), divided by N.  A `sync` before each timed
# run keeps one run's writeback out of the next one's figure.  The ratios
# of each round are printed too, with the load average at its start: on
# a shared machine a round's ratio says more than a median of times.
#
#   kernel        the kernel's scripts/sign-file (build/reference, from
#                 Debian's linux-kbuild; it does not fsync)
#   sign-file     modsign's sign-file, one process a module
#   before        the same from BEFORE_BIN, when given (e.g. a build of
#                 the main branch), for the change a branch makes
#   agent         plain sign-file runs under sign-file --agent
#   hsm, hsm+agent          the key (RSA, KEY=rsa2048 by default) in
#                 SoftHSM, by pkcs11: URI
#   p11kit, p11kit+agent    the same token through p11-kit's remoting
#                 (p11-kit server + p11-kit-client.so)
#
# After the rounds, one untimed hsm+agent run through OpenSC's pkcs11-spy
# (where installed) counts the C_Login calls of the whole run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sf=${MODSIGN_BIN:-$top/build/bin}/sign-file
ref=${REF_SIGN_FILE:-$top/build/reference/sign-file}
keys=$top/tests/fixtures/keys
key=${KEY:-rsa2048}
n=${N:-300}
rounds=${ROUNDS:-5}
before=${BEFORE_BIN:+$BEFORE_BIN/sign-file}
softhsm=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}
[ -x "$ref" ] || "$top/tests/fixtures/get-reference.sh" >&2
[ -x "$sf" ] || { echo "missing $sf (run make)" >&2; exit 2; }

mkdir -p "$top/build"
w=$(mktemp -d "${BENCH_DIR:-$top/build}/modsign-kbuild.XXXXXX")
p11_pid=
cleanup() {
	[ -z "$p11_pid" ] || kill "$p11_pid" 2>/dev/null || true
	rm -rf "$w"
}
trap cleanup EXIT
# the binaries as they are now: a rebuild during the run changes nothing
# (sign-file with the tool proper it runs from ../lib/modsign, when it
# was built in two: src/sign-file/front.h)
copy_sign_file() { # executable dest-dir
	mkdir -p "$2/bin"
	cp "$1" "$2/bin/sign-file"
	# the whole directory: a BEFORE_BIN build may have its own layout
	if [ -d "$(dirname "$1")/../lib/modsign" ]; then
		mkdir -p "$2/lib"
		cp -r "$(dirname "$1")/../lib/modsign" "$2/lib/"
	fi
}
copy_sign_file "$sf" "$w"
cp "$ref" "$w/bin/sign-file.kernel"
sf=$w/bin/sign-file
ref=$w/bin/sign-file.kernel
if [ -n "$before" ]; then
	copy_sign_file "$before" "$w/before"
	before=$w/before/bin/sign-file
fi
fstype=$(findmnt -n -o FSTYPE -T "$w" 2>/dev/null || stat -f -c %T "$w")
[ "$fstype" != tmpfs ] ||
	echo "warning: $w is on tmpfs, not a disk file system" >&2

# ---- real modules ----
pkg=$("$top/tests/fixtures/debian-kernel.sh")
mkdir "$w/pristine"
root=$(find "$pkg/root" -type d -path '*/lib/modules/*' -name kernel | head -1)
find "$root" \( -name '*.ko' -o -name '*.ko.xz' \) | LC_ALL=C sort > "$w/all"
total=$(wc -l < "$w/all")
awk -v n="$n" -v t="$total" 'n >= t || int(NR * n / t) != int((NR - 1) * n / t)' \
	"$w/all" | while read -r m; do
	rel=${m#"$root"/}
	mkdir -p "$w/pristine/$(dirname "$rel")"
	case $m in
	*.xz) xz -dc "$m" > "$w/pristine/${rel%.xz}" ;;
	*) cp "$m" "$w/pristine/$rel" ;;
	esac
done
# Debian's modules come signed; kbuild signs unsigned ones: drop the
# trailer (signature, 12-byte descriptor, 28-byte magic).
find "$w/pristine" -name '*.ko' -print0 | xargs -0 python3 -c '
import sys
magic = b"~Module signature appended~\n"
for p in sys.argv[1:]:
    b = open(p, "rb").read()
    if b.endswith(magic):
        sig = int.from_bytes(b[-len(magic) - 4:-len(magic)], "big")
        open(p, "wb").write(b[:len(b) - len(magic) - 12 - sig])
'
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

# One process a module, as kbuild's cmd_sign.
cat > "$w/each.sh" <<'EOF'
#!/bin/bash
d=$1
shift
find "$d" -name '*.ko' | LC_ALL=C sort > "$d.list"
while read -r f; do
	"$@" "$f" || { echo "failed: $* $f" >&2; exit 1; }
done < "$d.list"
echo "${EPOCHREALTIME/[.,]/}" > "$d.end"
EOF
chmod +x "$w/each.sh"

pem=("$keys/$key.key" "$keys/$key.crt")
configs=(kernel sign-file)
[ -z "$before" ] || configs+=(before)
configs+=(agent hsm hsm+agent)
[ -z "${rkey:-}" ] || configs+=(p11kit p11kit+agent)

run_config() { # name dir
	local d=$2
	case $1 in
	kernel) "$w/each.sh" "$d" "$ref" sha256 "${pem[@]}" ;;
	sign-file) "$w/each.sh" "$d" "$sf" sha256 "${pem[@]}" ;;
	before) "$w/each.sh" "$d" "$before" sha256 "${pem[@]}" ;;
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
sums() { # dir
	(cd "$1" && find . -name '*.ko' | LC_ALL=C sort | xargs sha256sum)
}
declare -A times
loads=()
for ((r = 0; r < rounds; r++)); do
	order=("${configs[@]}")
	if ((r % 2)); then
		order=()
		for ((i = ${#configs[@]} - 1; i >= 0; i--)); do
			order+=("${configs[i]}")
		done
	fi
	loads+=("$(cut -d' ' -f1 /proc/loadavg)")
	for c in "${order[@]}"; do
		d=$w/run
		rm -rf "$d" "$d.list" "$d.end"
		cp -a "$w/pristine" "$d"
		sync
		t0=${EPOCHREALTIME/[.,]/}
		run_config "$c" "$d"
		t1=${EPOCHREALTIME/[.,]/}
		times[$c]+="$((t1 - t0)) "
		# the agent's time to its last module, before its syncfs
		case $c in
		*agent) times[$c-last]+="$(($(cat "$d.end") - t0)) " ;;
		esac
		if ((r == 0)); then
			sums "$d" > "$w/sum.$c"
			[ "$c" = kernel ] || cmp -s "$w/sum.$c" "$w/sum.kernel" ||
				{ echo "$c: output differs from the kernel tool's" >&2; exit 1; }
		fi
	done
done

# One C_Login for a whole run under the agent: counted by OpenSC's
# pkcs11-spy between sign-file and SoftHSM (untimed).
logins=
spy=$(ls /usr/lib/*/pkcs11/pkcs11-spy.so 2>/dev/null | head -1)
if [ -n "$spy" ]; then
	d=$w/run
	rm -rf "$d" "$d.list"
	cp -a "$w/pristine" "$d"
	skey="pkcs11:token=bench;object=bench?module-path=$spy"
	scert="pkcs11:token=bench;object=bench;type=cert?module-path=$spy"
	PKCS11SPY=$softhsm PKCS11SPY_OUTPUT=$w/spy.log \
		"$sf" --agent sha256 "$skey" "$scert" -- \
		"$w/each.sh" "$d" "$sf" sha256 "$skey" "$scert"
	logins="$(grep -cE '^[0-9]+: C_Login$' "$w/spy.log") C_Login, $(grep -cE '^[0-9]+: C_Sign$' "$w/spy.log") C_Sign"
fi

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
nth() { echo "$1" | tr -s ' ' '\n' | grep . | sed -n "$2p"; }
echo "kbuild-bench: $n modules ($mb MB) from $(basename "$pkg"), in place, in the package's directories"
echo "file system: $fstype ($(findmnt -n -o SOURCE -T "$w" 2>/dev/null || echo ?)), $w"
echo "machine: $(nproc) CPUs, load at each round's start: ${loads[*]}; now $(cut -d' ' -f1-3 /proc/loadavg)"
echo "key: $key; $("$sf" --version | head -1); $rounds rounds, medians"
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
for c in "${configs[@]}"; do
	case $c in
	*agent)
		m=$(echo "${times[$c-last]}" | median)
		awk -v c="$c" -v m="$m" -v n="$n" -v k="${per[kernel]}" \
			'BEGIN {printf "%-14s %12.3f %10.2f   (to its last module, before the final syncfs)\n", c, m / n / 1000, m / n / 1000 / k}'
		;;
	esac
done
echo "per round (load):    sign-file/kernel  agent/kernel  hsm+agent/sign-file"
for ((r = 1; r <= rounds; r++)); do
	awk -v r="$r" -v l="${loads[r - 1]}" -v k="$(nth "${times[kernel]}" "$r")" \
		-v s="$(nth "${times[sign-file]}" "$r")" \
		-v a="$(nth "${times[agent]}" "$r")" \
		-v h="$(nth "${times[hsm+agent]}" "$r")" \
		'BEGIN {printf "  round %d (%5s) %17.2f %13.2f %20.2f\n", r, l, s / k, a / k, h / s}'
done
[ -z "$logins" ] || echo "hsm+agent through pkcs11-spy, one run of $n modules: $logins"
echo "targets: sign-file <= 0.90 x kernel; agent <= 0.50 x kernel;" \
	"hsm+agent <= 0.50 x sign-file (PEM, per process); one C_Login"
