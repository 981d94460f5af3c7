#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# extract-sig --modinfo against kmod's modinfo, live, on every trailer
# kind kmod reads (or refuses): the signature lines byte for byte, each
# --modinfo=FIELD against modinfo -F FIELD, and the exit status, for this
# machine's kmod (30 on Debian 12, 34 on Debian 13) and Debian 13's kmod 34
# (tests/fixtures/get-kmod-34.sh, run with its own libc, OpenSSL 3.5 and
# libkmod, under which extract-sig matches kmod 34).

load helpers
bats_require_minimum_version 1.5.0

K34="$REF_DIR/kmod-34"

need_kmod34() {
	[ -x "$K34/modinfo" ] && [ -x "$K34/run" ] && return 0
	[ -z "${MODSIGN_CHECK:-}" ] ||
		fail "$K34/modinfo missing under make check (tests/fixtures/get-kmod-34.sh fetches it)"
	skip "Debian 13's kmod 34 missing: run tests/fixtures/get-kmod-34.sh"
}

# The two sides, for this machine's kmod ("30") and kmod 34.
mi30() { modinfo "$@"; }
es30() { "$EXTRACT_SIG" "$@"; }
mi34() { "$K34/modinfo" "$@"; }
es34() { "$K34/run" "$EXTRACT_SIG" "$@"; }

# modinfo's lines from sig_id: on (the fixture modules have no parm:
# lines after them) against --modinfo, then each field, each with its
# exit status.
same_as_modinfo() { # 30|34 file
	local v=$1 f=$2 field a b
	a=$("mi$v" "$f" | sed -n '/^sig_id:/,$p'; echo "exit ${PIPESTATUS[0]}")
	b=$("es$v" --modinfo "$f"; echo "exit $?")
	[ "$a" = "$b" ] ||
		{ echo "kmod $v, $f:"; diff <(echo "$a") <(echo "$b"); return 1; }
	for field in sig_id signer sig_key sig_hashalgo signature; do
		a=$("mi$v" -F "$field" "$f"; echo "exit $?")
		b=$("es$v" --modinfo="$field" "$f"; echo "exit $?")
		[ "$a" = "$b" ] || {
			echo "kmod $v, $f, -F $field:"
			diff <(echo "$a") <(echo "$b")
			return 1
		}
	done
}

# A fixture module with a hand-made trailer (tests/fixtures/make-trailer.py).
with_trailer() { # out kind
	"$TOP/tests/fixtures/make-module.sh" "$1" compat
	"$TOP/tests/fixtures/make-trailer.py" "$1" "$2"
}

signed() { # out hash key [sign-file flags...]
	local out=$1 hash=$2 key=$3
	shift 3
	"$TOP/tests/fixtures/make-module.sh" "$out" compat
	"$SIGN_FILE" "$@" "$hash" "$KEYS/$key.key" "$KEYS/$key.crt" "$out"
}

LEGACY="x509 pgp x509-longkey x509-nul x509-empty x509-pad"
REFUSED="unknown-id id-255 bad-algo bad-hash sig-len-0 too-long not-cms"

@test "this kmod: legacy id types 0 and 1: modinfo's lines and exit 0" {
	for k in $LEGACY; do
		with_trailer "$k.ko" "$k"
		same_as_modinfo 30 "$k.ko"
	done
	# the legacy trailer is described, not refused
	run -0 "$EXTRACT_SIG" --modinfo x509.ko
	assert_line "sig_id:         X509"
	assert_line "signer:         Legacy signer"
	run -0 "$EXTRACT_SIG" --modinfo=sig_id pgp.ko
	assert_output PGP
	# kmod's values are C strings: the name ends at its NUL
	run -0 "$EXTRACT_SIG" --modinfo=signer x509-nul.ko
	assert_output Legacy
}

@test "this kmod: trailers kmod does not read: no lines, exit 0, as modinfo" {
	for k in $REFUSED; do
		with_trailer "$k.ko" "$k"
		same_as_modinfo 30 "$k.ko"
		run -0 --separate-stderr "$EXTRACT_SIG" --modinfo "$k.ko"
		assert_output ""
	done
}

@test "this kmod: an unsigned module: no lines, exit 0, as modinfo" {
	"$TOP/tests/fixtures/make-module.sh" u.ko compat
	same_as_modinfo 30 u.ko
	run -0 --separate-stderr "$EXTRACT_SIG" --modinfo u.ko
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr "$EXTRACT_SIG" --modinfo=signer u.ko
	assert_output ""
}

@test "this kmod: PKCS#7 signatures sign-file makes, SHA-3 and -k included" {
	signed rsa.ko sha256 rsa2048
	signed ec.ko sha384 ec384
	signed sha3.ko sha3-256 rsa2048
	signed skid.ko sha512 rsa2048 -k
	for f in rsa.ko ec.ko sha3.ko skid.ko; do
		same_as_modinfo 30 "$f"
	done
	run -0 "$EXTRACT_SIG" --modinfo=sig_id rsa.ko
	assert_output "PKCS#7"
}

@test "kmod 34: every trailer kind, as Debian 13's modinfo" {
	need_kmod34
	run -0 "$K34/modinfo" --version
	assert_line --regexp '^kmod version 34'
	for k in $LEGACY $REFUSED; do
		with_trailer "$k.ko" "$k"
		same_as_modinfo 34 "$k.ko"
	done
	"$TOP/tests/fixtures/make-module.sh" u.ko compat
	same_as_modinfo 34 u.ko
	signed rsa.ko sha256 rsa2048
	signed ec.ko sha384 ec384
	signed skid.ko sha512 rsa2048 -k
	signed sha3.ko sha3-256 rsa2048
	for f in rsa.ko ec.ko skid.ko sha3.ko; do
		same_as_modinfo 34 "$f"
	done
	# kmod 32 on names any digest (kmod 30 shows no lines at all)
	run -0 es34 --modinfo=sig_hashalgo sha3.ko
	assert_output sha3-256
}

@test "--modinfo with --body-out still needs a trailer to split" {
	"$TOP/tests/fixtures/make-module.sh" u.ko compat
	run -3 "$EXTRACT_SIG" --modinfo --body-out body u.ko
	assert_file_not_exists body
}
