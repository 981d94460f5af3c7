#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Two sign-file runs on one module at once (a parallel modules_sign with a
# duplicate, two CI jobs), and verify-file reading while sign-file
# replaces.  No sleeps and no timing: each case runs RUNS times and the
# outcome is checked for what must hold whoever wins.

load helpers
bats_require_minimum_version 1.5.0

K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")
# MODSIGN_RACE_RUNS=100 for the long run
RUNS=${MODSIGN_RACE_RUNS:-20}

# The module signed once, by the one key: the kernel takes it, and its
# body is the unsigned module (no second trailer inside).
signed_once() { # signed orig
	"$VERIFY_FILE" -q -c "$KEYS/rsa2048.crt" "$1" ||
		fail "$1: not accepted"
	"$EXTRACT_SIG" --body-stdout "$1" | cmp - "$2" ||
		fail "$1: the body is not the unsigned module"
}

@test "two sign-file runs on one module in place: one signs, the other is refused (8)" {
	local i r1 r2 won=0
	copy_module orig.ko 50000
	for i in $(seq 1 "$RUNS"); do
		cp orig.ko m.ko
		"$SIGN_FILE" "${K[@]}" m.ko 2> e1 & p1=$!
		"$SIGN_FILE" "${K[@]}" m.ko 2> e2 & p2=$!
		r1=0 r2=0
		wait $p1 || r1=$?
		wait $p2 || r2=$?
		case "$r1 $r2" in
		"0 8") [ ! -s e1 ] && [ "$(cat e2)" = "sign-file: m.ko: already signed (use --replace or --skip-signed)" ] ;;
		"8 0") [ ! -s e2 ] && [ "$(cat e1)" = "sign-file: m.ko: already signed (use --replace or --skip-signed)" ] ;;
		*) false ;;
		esac || fail "run $i: exits $r1 $r2: $(cat e1 e2)"
		signed_once m.ko orig.ko
		won=$((won + 1))
	done
	[ "$won" = "$RUNS" ]
	# nothing half-written left behind
	[ "$(dir_listing . | grep -v '^e[12]$')" = "$(printf 'm.ko\norig.ko')" ]
}

@test "two sign-file runs with --skip-signed on one module: both succeed, signed once" {
	local i r1 r2
	copy_module orig.ko 50000
	for i in $(seq 1 "$RUNS"); do
		cp orig.ko m.ko
		"$SIGN_FILE" --skip-signed "${K[@]}" m.ko 2> e1 & p1=$!
		"$SIGN_FILE" --skip-signed "${K[@]}" m.ko 2> e2 & p2=$!
		r1=0 r2=0
		wait $p1 || r1=$?
		wait $p2 || r2=$?
		[ "$r1 $r2" = "0 0" ] || fail "run $i: exits $r1 $r2: $(cat e1 e2)"
		signed_once m.ko orig.ko
	done
}

@test "two sign-file runs to one <dest>: both succeed, <dest> is one whole signed module" {
	local i r1 r2
	copy_module orig.ko 50000
	"$SIGN_FILE" "${K[@]}" orig.ko want.ko
	for i in $(seq 1 "$RUNS"); do
		rm -f d.ko
		"$SIGN_FILE" "${K[@]}" orig.ko d.ko 2> e1 & p1=$!
		"$SIGN_FILE" "${K[@]}" orig.ko d.ko 2> e2 & p2=$!
		r1=0 r2=0
		wait $p1 || r1=$?
		wait $p2 || r2=$?
		[ "$r1 $r2" = "0 0" ] || fail "run $i: exits $r1 $r2: $(cat e1 e2)"
		# RSA signatures are deterministic: whichever rename came
		# last, the bytes are the kernel tool's
		cmp want.ko d.ko
	done
	[ "$(dir_listing . | grep -v '^e[12]$')" = "$(printf 'd.ko\norig.ko\nwant.ko')" ]
}

# The writer re-signs in place with two keys in turn (ECDSA signatures
# differ every time): a reader sees the old module or the new one, each
# whole, and the kernel takes either; a torn file would be MALFORMED or
# REJECTED.
@test "verify-file reading while sign-file --replace rewrites: always a whole module" {
	local i rc bad=0
	copy_module orig.ko 200000
	"$SIGN_FILE" "${K[@]}" orig.ko m.ko
	(
		for i in $(seq 1 "$RUNS"); do
			"$SIGN_FILE" --replace sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" m.ko || exit 1
			"$SIGN_FILE" --replace "${K[@]}" m.ko || exit 1
		done
	) 2> writer.err & writer=$!
	for i in $(seq 1 $((RUNS * 2))); do
		rc=0
		"$VERIFY_FILE" -c "$KEYS/rsa2048.crt" -c "$KEYS/ec256.crt" m.ko > out 2>&1 || rc=$?
		[ "$rc" = 0 ] || { bad=1; cat out; }
		"$EXTRACT_SIG" --body-stdout m.ko | cmp -s - orig.ko || { bad=1; echo "run $i: body differs"; }
	done
	rc=0
	wait $writer || rc=$?
	[ "$rc" = 0 ] || fail "writer: $(cat writer.err)"
	[ "$bad" = 0 ]
	signed_once m.ko orig.ko
}
