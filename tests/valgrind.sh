#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind.sh BINDIR: run each tool's main paths under valgrind memcheck;
# any memory error or definite/indirect leak fails the run.  (ASan+UBSan
# already covers the whole bats suite; this is the second opinion on the
# paths every user runs.)
set -euo pipefail
bin=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
keys=$top/tests/fixtures/keys
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

runs=0
fails=0
vg() { # expected-exit command...
	local want=$1 rc=0
	shift
	runs=$((runs + 1))
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$@" \
		>/dev/null 2>vg.log || rc=$?
	if [ "$rc" != "$want" ]; then
		fails=$((fails + 1))
		echo "FAIL (exit $rc, wanted $want): ${*#"$bin"/}"
		grep -E '^==' vg.log | head -20
	fi
}

# sign-file's tool proper, which its front end executes in its place
# (src/sign-file/front.h): valgrind would follow the front end alone
sf="$bin/sign-file"
[ ! -x "$bin/../lib/modsign/sign-file" ] || sf=$(cd "$bin/../lib/modsign" && pwd)/sign-file
es="$bin/extract-sig"
vf="$bin/verify-file"
# a module passes the kernel's offline ELF checks (sign-file refuses a
# .ko that does not): tests/fixtures/elf-module.py's head over random bytes
head -c 50000 /dev/urandom > m.ko
python3 "$top/tests/fixtures/elf-module.py" --head m.ko
k=(sha256 "$keys/rsa2048.key" "$keys/rsa2048.crt")

cp m.ko a.ko; vg 0 "$sf" "${k[@]}" a.ko
vg 0 "$sf" "${k[@]}" m.ko dest.ko
vg 0 "$sf" -p "${k[@]}" m.ko dest-p.ko
vg 0 "$sf" -d "${k[@]}" m.ko
cp m.ko s.ko; vg 0 "$sf" -s m.ko.p7s sha256 "$keys/rsa2048.crt" s.ko
cp m.ko e.ko; vg 0 "$sf" -k sha384 "$keys/ec384.key" "$keys/ec384.crt" e.ko
vg 8 "$sf" "${k[@]}" a.ko
vg 0 "$sf" --replace "${k[@]}" a.ko
vg 9 "$sf" sha256 "$keys/other.key" "$keys/rsa2048.crt" m.ko x.ko
KBUILD_SIGN_PIN=wrong vg 9 "$sf" sha256 "$keys/enc.key" "$keys/enc.crt" m.ko x.ko
vg 2 "$sf" nohash "$keys/rsa2048.key" "$keys/rsa2048.crt" m.ko x.ko
vg 7 "$sf" "${k[@]}" missing.ko
# batch: workers, group commit, ordered output, a bad file among good
for i in 1 2 3 4 5; do cp m.ko "b$i.ko"; done
vg 0 "$sf" --batch -j 3 "${k[@]}" b1.ko b2.ko b3.ko
printf 'b4.ko\0b5.ko\0' > list
vg 7 "$sf" --batch -j 2 --files-from list -0 "${k[@]}" b1.ko missing.ko
vg 0 "$sf" --batch -j 2 --replace -p "${k[@]}" b1.ko b2.ko b1.ko

vg 0 "$es" -c "$keys/rsa2048.crt" a.ko
vg 0 "$es" --json e.ko
vg 0 "$es" --modinfo a.ko
vg 0 "$es" -q --body-out b --sig-out s a.ko
vg 3 "$es" m.ko

if [ -x "$vf" ]; then
	mkdir certs
	cp "$keys/rsa2048.crt" "$keys/ec384.crt" certs/
	vg 0 "$vf" -k certs a.ko
	vg 0 "$vf" -k certs --json e.ko
	vg 3 "$vf" -k certs m.ko
	vg 4 "$vf" -c "$keys/other.crt" a.ko
	cp a.ko t.ko
	printf 'X' | dd of=t.ko bs=1 seek=10 conv=notrunc 2>/dev/null
	vg 1 "$vf" -k certs t.ko
	vg 1 "$vf" -j 3 -k certs a.ko t.ko b1.ko e.ko
	mkdir tree && cp a.ko b2.ko m.ko tree/
	vg 3 "$vf" -j 2 --json -k certs -r tree
fi

echo "valgrind: $runs runs, $fails with errors"
[ "$fails" = 0 ]
