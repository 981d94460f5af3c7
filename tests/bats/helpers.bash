# SPDX-License-Identifier: GPL-2.0-or-later
# Shared set-up for the bats suite: the binaries under test, the committed
# test keys, the reference tool, and a scratch directory per test.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load '/usr/lib/bats/bats-file/load'

TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
BIN="${MODSIGN_BIN:-$TOP/build/bin}"
KEYS="$TOP/tests/fixtures/keys"
SIGN_FILE="$BIN/sign-file"
EXTRACT_SIG="$BIN/extract-sig"
VERIFY_FILE="$BIN/verify-file"

# The kernel's own sign-file from Debian's linux-kbuild-6.1, fetched by
# tests/fixtures/get-reference.sh (run by .ci/run and by make check).
REF_SIGN_FILE="${MODSIGN_REF_SIGN_FILE:-$TOP/build/reference/sign-file}"

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
}

# A deterministic pseudo-module of N bytes (content from a counter, so the
# same size always gives the same file).
make_module() { # path size
	python3 -c 'import sys
n=int(sys.argv[2]); b=bytearray()
i=0
while len(b)<n:
    b+=i.to_bytes(4,"little"); i+=1
open(sys.argv[1],"wb").write(bytes(b[:n]))' "$1" "$2"
}

need_reference() {
	[ -x "$REF_SIGN_FILE" ] ||
		skip "reference sign-file missing: run tests/fixtures/get-reference.sh"
}
