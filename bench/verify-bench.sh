#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# How fast is verify-file?  On Debian 12's 6.1 kernel package (fetched and
# cached by tests/fixtures/debian-kernel.sh):
#   1. the whole module tree with -r;
#   2. one module, N times, against openssl cms -verify -noverify on the
#      same body and signature (OpenSSL's own check, no trust decisions).
#
#   bench/verify-bench.sh [N]       (run 'make' first)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-200}
vf="$here/build/bin/verify-file"
[ -x "$vf" ] || { echo "$0: $vf missing (run make)" >&2; exit 1; }
deb=$(sh "$here/tests/fixtures/debian-kernel.sh") || exit 1
cert="$deb/signing-cert.der"
mods="$deb/root/lib/modules"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc; }

count=$(find "$mods" -name '*.ko' | wc -l)
"$vf" -q --kernel 6.1 -c "$cert" -r "$mods" || true	# warm the page cache
t0=$(now)
"$vf" -q --kernel 6.1 -c "$cert" -r "$mods"
t1=$(now)
tree=$(elapsed "$t0" "$t1")
echo "whole tree: $count modules in ${tree}s ($(echo "scale=1; $count / $tree" | bc) modules/s)"

one=$(find "$mods" -name '*.ko' | sort | head -n 1)
python3 - "$one" "$tmp/body" "$tmp/sig.p7s" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
n = int.from_bytes(d[-32:-28], "big")
body_len = len(d) - 40 - n
open(sys.argv[2], "wb").write(d[:body_len])
open(sys.argv[3], "wb").write(d[body_len:body_len + n])
PY
openssl x509 -inform DER -in "$cert" -out "$tmp/cert.pem"

t0=$(now)
i=0
while [ $i -lt "$n" ]; do
	"$vf" -q --kernel 6.1 -c "$cert" "$one"
	i=$((i + 1))
done
t1=$(now)
i=0
while [ $i -lt "$n" ]; do
	openssl cms -verify -binary -inform DER -noverify -in "$tmp/sig.p7s" \
		-content "$tmp/body" -certfile "$tmp/cert.pem" -out /dev/null 2>/dev/null
	i=$((i + 1))
done
t2=$(now)
vft=$(elapsed "$t0" "$t1")
ost=$(elapsed "$t1" "$t2")
echo "one module ($(stat -c %s "$one") bytes), $n runs each:"
echo "  verify-file:                    $(echo "scale=2; $vft * 1000 / $n" | bc) ms/run"
echo "  openssl cms -verify -noverify:  $(echo "scale=2; $ost * 1000 / $n" | bc) ms/run"
echo "  ratio verify-file / openssl:    $(echo "scale=2; $vft / $ost" | bc)"
