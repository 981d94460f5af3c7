#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mldsa-bench.sh: what ML-DSA-65 costs against RSA-4096, as ratios taken
# in one run.  Not a test.  Needs OpenSSL >= 3.5 (Debian 13, or a Debian
# 13 root: chroot ROOT sh -c 'cd TREE && make BUILD=build/d13 &&
# MODSIGN_BIN=build/d13/bin bench/mldsa-bench.sh').
#
#   bench/mldsa-bench.sh            (run make first)
#   RUNS=5 N=200 bench/mldsa-bench.sh
#
# N modules of 100 KB (default 200) are signed one process per module,
# as kbuild's modules_install does, with each key by
#   - our sign-file,
#   - the 7.3 kernel's scripts/sign-file built against the same OpenSSL
#     (tests/fixtures/get-reference-7.3.sh), the reference,
#   - openssl cms -sign with the kernel's flags (-noattr where the key
#     allows it; ML-DSA keeps its signed attributes, as 7.3's tool does);
# then verify-file -r judges the N signed modules (-j 1, then every core).
# Each figure is the median of RUNS (default 3) wall-clock times; the
# table gives per-module milliseconds and the ratio ML-DSA-65 / RSA-4096
# for each tool, which is what a packager switching keys will see.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${MODSIGN_BIN:-$top/build/bin}
sf=$bin/sign-file
vf=$bin/verify-file
keys=$top/tests/fixtures/keys
runs=${RUNS:-3}
n=${N:-200}
for t in "$sf" "$vf"; do
	[ -x "$t" ] || { echo "$0: missing $t (run make)" >&2; exit 2; }
done
openssl list -signature-algorithms 2>/dev/null | grep -q ML-DSA-65 || {
	echo "$0: $(openssl version) cannot make ML-DSA signatures: run on OpenSSL >= 3.5 (Debian 13)" >&2
	exit 2
}
ossl=$(pkg-config --modversion libcrypto)
ref=$top/build/reference/sign-file-7.3-openssl-$ossl
[ -x "$ref" ] || sh "$top/tests/fixtures/get-reference-7.3.sh" >&2
[ -x "$ref" ] || { echo "$0: no $ref" >&2; exit 2; }

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
head -c 102400 /dev/urandom >"$w/base.ko"
# sign-file signs a .ko only when it passes the kernel's offline ELF checks
python3 "$top/tests/fixtures/elf-module.py" --head "$w/base.ko"
mk() { # dir: N fresh copies
	rm -rf "$1"
	mkdir -p "$1"
	for i in $(seq "$n"); do cp "$w/base.ko" "$1/m$i.ko"; done
}
# median wall-clock microseconds of RUNS runs of "prepare; timed command"
median() { # prep-command timed-command...
	local prep=$1 r s e t=()
	shift
	for r in $(seq "$runs"); do
		eval "$prep"
		s=$(date +%s%N)
		"$@" >/dev/null
		e=$(date +%s%N)
		t+=("$(((e - s) / 1000))") # microseconds
	done
	printf '%s\n' "${t[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
sign_each() { # tool key cert dir
	local f
	# (sign-file warns, once a module, that ML-DSA needs the waiver)
	for f in "$4"/*.ko; do "$1" sha512 "$2" "$3" "$f" 2>/dev/null; done
}
cms_each() { # key cert dir extra-flags...
	local key=$1 cert=$2 dir=$3 f
	shift 3
	for f in "$dir"/*.ko; do
		openssl cms -sign -in "$f" -signer "$cert" -inkey "$key" -md sha512 \
			-binary -outform DER -nocerts -nosmimecap -out "$f.p7s" "$@"
	done
}
declare -A t
for k in rsa4096 mldsa65; do
	key=$keys/$k.key crt=$keys/$k.crt
	noattr=-noattr
	[ "$k" = mldsa65 ] && noattr=
	t[sf,$k]=$(median "mk $w/$k" sign_each "$sf" "$key" "$crt" "$w/$k")
	t[ref,$k]=$(median "mk $w/r$k" sign_each "$ref" "$key" "$crt" "$w/r$k")
	# shellcheck disable=SC2086
	t[cms,$k]=$(median "mk $w/c$k" cms_each "$key" "$crt" "$w/c$k" $noattr)
	t[vf1,$k]=$(median : "$vf" -q -j 1 -c "$crt" -r "$w/$k")
	t[vfn,$k]=$(median : "$vf" -q -c "$crt" -r "$w/$k")
done
echo "ML-DSA-65 against RSA-4096, $n modules of 100 KB, SHA-512, median of $runs; OpenSSL $ossl, $(nproc) cores"
printf '%-44s %12s %12s %8s\n' "per module (ms)" RSA-4096 ML-DSA-65 ratio
row() { # label key
	awk -v l="$1" -v a="${t[$2,rsa4096]}" -v b="${t[$2,mldsa65]}" -v n="$n" \
		'BEGIN { printf "%-44s %12.2f %12.2f %8.2f\n", l, a / 1000 / n, b / 1000 / n, b / a }'
}
row "sign-file (one process a module)" sf
row "7.3 kernel scripts/sign-file (reference)" ref
row "openssl cms -sign (one process a module)" cms
row "verify-file -r, one worker" vf1
row "verify-file -r, $(nproc) workers" vfn
awk -v a="${t[sf,mldsa65]}" -v b="${t[ref,mldsa65]}" -v c="${t[sf,rsa4096]}" -v d="${t[ref,rsa4096]}" \
	'BEGIN { printf "sign-file / kernel sign-file: RSA-4096 %.2f, ML-DSA-65 %.2f\n", c / d, a / b }'
