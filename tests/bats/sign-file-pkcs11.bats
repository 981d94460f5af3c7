#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sign-file with keys on a real PKCS#11 token: SoftHSM2, initialised per
# test in a scratch directory, keys imported with pkcs11-tool (OpenSC).
# On Debian 12 the route is libp11's pkcs11 engine (no pkcs11-provider);
# on Debian 13 it is pkcs11-provider (route below).  Every run asserts its
# exit status: a run that signs and then dies at exit fails.

load helpers
bats_require_minimum_version 1.5.0

SOFTHSM_MODULE=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	require_file "$SOFTHSM_MODULE" softhsm2
	require_cmd pkcs11-tool opensc
	mkdir -p tokens
	export SOFTHSM2_CONF="$W/softhsm2.conf"
	printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\n' \
		"$W" > "$SOFTHSM2_CONF"
	softhsm2-util --init-token --free --label modsign --pin 1234 \
		--so-pin 5678 >/dev/null
	for k in rsa2048 ec384; do
		import "$k" "$k"
	done
	echo 1234 > pin
	unset KBUILD_SIGN_PIN
	M="?module-path=$SOFTHSM_MODULE"
	make_module m.ko 30000
}

import() { # fixture label
	local id
	id=$(printf %s "$2" | od -An -tx1 | tr -d ' \n')
	pkcs11-tool --module "$SOFTHSM_MODULE" --token-label modsign --login \
		--pin 1234 --write-object "$KEYS/$1.key" --type privkey \
		--id "$id" --label "$2" >/dev/null 2>&1
	pkcs11-tool --module "$SOFTHSM_MODULE" --token-label modsign --login \
		--pin 1234 --write-object "$KEYS/$1.der" --type cert \
		--id "$id" --label "$2" >/dev/null 2>&1
}

# sign-file's module when none is named: p11-kit's proxy, which reaches
# SoftHSM through softhsm2-common's p11-kit registration.
need_proxy() {
	[ -n "$(ls /usr/lib/*/p11-kit-proxy.so 2>/dev/null)" ] ||
		require_file /usr/lib/MULTIARCH/p11-kit-proxy.so p11-kit-modules
	require_file /usr/share/p11-kit/modules/softhsm2.module softhsm2-common
}

# What -v names as the way to the token: pkcs11-provider where OpenSSL
# finds it, else libp11's engine.
route() {
	local dir
	dir=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
	if [ -e "$dir/pkcs11.so" ]; then
		echo "provider pkcs11"
	else
		echo "engine pkcs11"
	fi
}

# An ASan build cannot follow pkcs11-provider into its module: the
# sanitizer runtime aborts on the RTLD_DEEPBIND the provider asks for.
# Then every run here gets no-deepbind.c preloaded, which drops the flag
# (and ASan is told that its runtime is not first in the list).
setup_file() {
	ldd "$SIGN_FILE" | grep -q libasan || return 0
	[ "$(route)" = "provider pkcs11" ] || return 0
	cc -shared -fPIC -o "$BATS_FILE_TMPDIR/no-deepbind.so" \
		"$BATS_TEST_DIRNAME/no-deepbind.c" -ldl
	export LD_PRELOAD="$BATS_FILE_TMPDIR/no-deepbind.so"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}

pem_signed() { # out: the same key from its PEM file
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko "$1"
}

@test "RSA key on the token signs byte-identically to the same key from PEM" {
	pem_signed pem.ko
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048;type=private$M" \
		"$KEYS/rsa2048.der" m.ko tok.ko
	assert_success
	cmp pem.ko tok.ko
}

@test "the certificate can come from the token too" {
	pem_signed pem.ko
	run "$SIGN_FILE" --pin-fd 3 sha256 \
		"pkcs11:token=modsign;object=rsa2048;type=private$M" \
		"pkcs11:token=modsign;object=rsa2048;type=cert$M" m.ko tok.ko \
		3< pin
	assert_success
	cmp pem.ko tok.ko
}

@test "KBUILD_SIGN_PIN logs in; --pkcs11-module replaces module-path" {
	pem_signed pem.ko
	KBUILD_SIGN_PIN=1234 run "$SIGN_FILE" -v \
		--pkcs11-module "$SOFTHSM_MODULE" sha256 \
		"pkcs11:token=modsign;object=rsa2048" "$KEYS/rsa2048.crt" \
		m.ko tok.ko
	assert_success
	assert_output --partial "RSA-2048 key from pkcs11:token=modsign;object=rsa2048 ($(route))"
	cmp pem.ko tok.ko
}

# With no module named, the module is p11-kit's proxy, which
# counts C_Initialize calls, so SoftHSM stays initialised for the
# provider until OpenSSL's teardown; that teardown ran after SoftHSM's
# own exit-time destructors and crashed (exit 139 after a good signature).
@test "p11-kit's proxy as the module: key and certificate, exit 0" {
	need_proxy
	pem_signed pem.ko
	run "$SIGN_FILE" -v --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048;type=private" \
		"pkcs11:token=modsign;object=rsa2048;type=cert" m.ko tok.ko
	assert_success
	assert_output --partial "RSA-2048 key from pkcs11:token=modsign;object=rsa2048;type=private ($(route))"
	cmp pem.ko tok.ko
}

@test "p11-kit's proxy as the module, --batch: exit 0" {
	need_proxy
	modules_and_pem b 3 10000
	KBUILD_SIGN_PIN=1234 run "$SIGN_FILE" --batch -j 2 sha256 \
		"pkcs11:token=modsign;object=rsa2048;type=private" \
		"pkcs11:token=modsign;object=rsa2048;type=cert" b1.ko b2.ko b3.ko
	assert_success
	for i in 1 2 3; do
		cmp "pem$i.ko" "b$i.ko"
	done
}

@test "the key can be named by id= (percent-encoded bytes)" {
	pem_signed pem.ko
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;id=%72%73%61%32%30%34%38$M" \
		"$KEYS/rsa2048.crt" m.ko tok.ko
	assert_success
	cmp pem.ko tok.ko
}

@test "one PIN read serves key and certificate: a one-shot pipe is enough" {
	pem_signed pem.ko
	run bash -c 'echo 1234 | "$1" --pin-fd 0 sha256 "$2" "$3" m.ko tok.ko' \
		_ "$SIGN_FILE" "pkcs11:token=modsign;object=rsa2048$M" \
		"pkcs11:token=modsign;object=rsa2048;type=cert$M"
	assert_success
	cmp pem.ko tok.ko
}

@test "ECDSA P-384 on the token signs and openssl verifies it" {
	run "$SIGN_FILE" -d --pin-file pin sha384 \
		"pkcs11:token=modsign;object=ec384$M" "$KEYS/ec384.crt" m.ko
	assert_success
	run openssl cms -verify -binary -inform DER -in m.ko.p7s -content m.ko \
		-certfile "$KEYS/ec384.crt" -nointern -noverify -out /dev/null
	assert_success
}

@test "a token key and a file key sign one module together (rollover)" {
	run "$SIGN_FILE" --pin-file pin \
		--signer "pkcs11:token=modsign;object=rsa2048$M" "$KEYS/rsa2048.crt" \
		--signer "$KEYS/rsa4096.key" "$KEYS/rsa4096.crt" sha256 m.ko two.ko
	assert_success
	run "$EXTRACT_SIG" two.ko
	assert_success
	assert_output --partial "signers:          2"
}

@test "wrong PIN: its own message, exit 9, nothing written" {
	echo 9999 > bad
	run "$SIGN_FILE" --pin-file bad sha256 \
		"pkcs11:token=modsign;object=rsa2048$M" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=modsign;object=rsa2048$M: PKCS#11 login refused (wrong PIN)"
	assert_file_not_exist out.ko
}

@test "no PIN for a token that needs one: its own message, exit 9" {
	run "$SIGN_FILE" sha256 "pkcs11:token=modsign;object=rsa2048$M" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "PKCS#11 token needs a PIN"
}

# The token's serial number, as softhsm2-util shows it.
token_serial() {
	softhsm2-util --show-slots | sed -n 's/^ *Serial number: *\([0-9a-f]\+\)$/\1/p' | head -1
}

@test "missing token: its own message, naming the tokens there are, exit 9" {
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=elsewhere;object=rsa2048$M" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=elsewhere;object=rsa2048$M: PKCS#11 token not found (no initialised token matches the URI); tokens present: 'modsign' (serial $(token_serial))"
}

@test "missing key object: its own message, naming the token searched, exit 9" {
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=gone$M" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=modsign;object=gone$M: PKCS#11 private key not found on the token (check object= and id= in the URI); searched token 'modsign' (serial $(token_serial)) (token= in the URI picks another)"
}

@test "a URI without token= that finds no key names the token it searched" {
	softhsm2-util --init-token --free --label second --pin 1234 \
		--so-pin 5678 >/dev/null
	run "$SIGN_FILE" --pin-file pin sha256 "pkcs11:object=gone$M" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	[[ "$output" == "sign-file: pkcs11:object=gone$M: PKCS#11 private key not found on the token (check object= and id= in the URI); searched token '"*"' (serial "[0-9a-f]*") (token= in the URI picks another)" ]] ||
		fail "$output"
	assert_file_not_exist out.ko
}

@test "missing certificate object: its own message, exit 9" {
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048$M" \
		"pkcs11:token=modsign;object=gone;type=cert$M" m.ko out.ko
	assert_failure 9
	assert_output --partial "PKCS#11 certificate not found on the token"
}

@test "unloadable module and unknown provider: their own messages, exit 9" {
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048?module-path=$W/none.so" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "cannot load the PKCS#11 module"
	run "$SIGN_FILE" --pin-file pin --provider no-such-provider sha256 \
		"pkcs11:token=modsign;object=rsa2048$M" "$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "cannot load the OpenSSL provider named by --provider"
}

@test "a PIN inside the URI is refused: it would be on the command line; the refusal does not repeat it" {
	run "$SIGN_FILE" sha256 \
		"pkcs11:token=modsign;object=rsa2048$M&pin-value=1234" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=modsign;object=rsa2048$M&pin-value=***: pin-value in a pkcs11: URI is refused: it would show on the command line (use --pin-file or --pin-fd)"
	# in the certificate's URI too, and before other query attributes
	run "$SIGN_FILE" --pin-file pin sha256 "$KEYS/rsa2048.key" \
		"pkcs11:token=modsign;object=rsa2048;type=cert?pin-value=5678&module-path=$SOFTHSM_MODULE" \
		m.ko out.ko
	assert_failure 9
	refute_output --partial 5678
	assert_output --partial "?pin-value=***&module-path="
}

@test "a PIN or a module in the path part of the URI is refused as in the query, in one line" {
	run "$SIGN_FILE" sha256 \
		"pkcs11:token=modsign;pin-value=1234;object=rsa2048$M" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=modsign;pin-value=***;object=rsa2048$M: pin-value in a pkcs11: URI is refused: it would show on the command line (use --pin-file or --pin-fd)"
	assert_file_not_exist out.ko
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048;module-path=$SOFTHSM_MODULE" \
		"$KEYS/rsa2048.crt" m.ko out.ko
	assert_failure 9
	assert_output "sign-file: pkcs11:token=modsign;object=rsa2048;module-path=$SOFTHSM_MODULE: module-path goes in the query part of a pkcs11: URI (\"...?module-path=PATH\", RFC 7512), or use --pkcs11-module PATH"
	assert_file_not_exist out.ko
}

@test "--provider pkcs11 named explicitly falls back to the engine as the default does" {
	pem_signed pem.ko
	run "$SIGN_FILE" -v --provider pkcs11 --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048;type=private$M" \
		"$KEYS/rsa2048.der" m.ko tok.ko
	assert_success
	assert_output --partial "RSA-2048 key from pkcs11:token=modsign;object=rsa2048;type=private$M ($(route))"
	cmp pem.ko tok.ko
}

@test "a token key that does not match the certificate is refused" {
	run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048$M" "$KEYS/other.crt" m.ko out.ko
	assert_failure 9
	assert_output --partial "private key does not match the certificate"
}

# pkcs11-spy leaks what it allocates to log calls (16 bytes on Debian 12;
# on Debian 13 also the certificate attributes it is asked for): under
# ASan that must not count as ours.  The suppression names the spy's
# file, but where the spy is unloaded before LeakSanitizer looks (by
# pkcs11-provider, and by the token session's own close on Debian 13's
# engine route) its frames have no module name to match: the spy's runs
# check everything but leaks there (the same runs without the spy, above,
# check those).
# OpenSC's pkcs11-spy, which logs each call between sign-file and
# SoftHSM: its path in $spy.
need_spy() {
	spy=$(ls /usr/lib/*/pkcs11/pkcs11-spy.so 2>/dev/null | head -1)
	[ -n "$spy" ] || require_file /usr/lib/MULTIARCH/pkcs11/pkcs11-spy.so opensc-pkcs11
}

# Modules PREFIX1.ko .. PREFIXn.ko of STEP, 2*STEP ... bytes, and each
# signed from the PEM key as pem1.ko .. pemn.ko, to compare with.
modules_and_pem() { # prefix n step
	local k
	for ((k = 1; k <= $2; k++)); do
		make_module "$1$k.ko" $(($3 * k))
		"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
			"$1$k.ko" "pem$k.ko"
	done
}

spy_leaks_not_ours() {
	echo "leak:pkcs11-spy.so" > lsan.supp
	SPY_ASAN=${ASAN_OPTIONS:-}
	if [ "$(route)" = "provider pkcs11" ] ||
		! openssl version | grep -q '^OpenSSL 3\.0\.'; then
		SPY_ASAN="${SPY_ASAN:+$SPY_ASAN:}detect_leaks=0"
	fi
}

# sign-file --agent through the spy, its command a loop that signs each
# PREFIX?.ko with KEY and CERT, one process a module as kbuild does.  The
# runs beneath have no PIN: one that signed itself would fail.
agent_under_spy() { # prefix key cert [agent option...]
	local prefix=$1 key=$2 cert=$3
	shift 3
	printf '#!/bin/sh\nfor f in %s?.ko; do "%s" sha256 "$1" "$2" "$f" || exit 1; done\n' \
		"$prefix" "$SIGN_FILE" > each.sh
	chmod +x each.sh
	spy_leaks_not_ours
	ASAN_OPTIONS="$SPY_ASAN" LSAN_OPTIONS="suppressions=$W/lsan.supp" \
	PKCS11SPY="$SOFTHSM_MODULE" PKCS11SPY_OUTPUT="$W/spy.log" \
		run "$SIGN_FILE" --agent "$@" --pin-file pin sha256 "$key" \
		"$cert" -- ./each.sh "$key" "$cert"
}

@test "one login per run: pkcs11-spy sees one C_Login for key and certificate" {
	need_spy
	pem_signed pem.ko
	spy_leaks_not_ours
	ASAN_OPTIONS="$SPY_ASAN" LSAN_OPTIONS="suppressions=$W/lsan.supp" \
	PKCS11SPY="$SOFTHSM_MODULE" PKCS11SPY_OUTPUT="$W/spy.log" \
		run "$SIGN_FILE" --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048?module-path=$spy" \
		"pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$spy" \
		m.ko tok.ko
	assert_success
	cmp pem.ko tok.ko
	[ "$(grep -cE '^[0-9]+: C_Login$' spy.log)" -eq 1 ]
	[ "$(grep -cE '^[0-9]+: C_Sign$' spy.log)" -eq 1 ]
}

@test "batch: one login for many files, each signed as from PEM" {
	need_spy
	modules_and_pem b 5 10000
	spy_leaks_not_ours
	ASAN_OPTIONS="$SPY_ASAN" LSAN_OPTIONS="suppressions=$W/lsan.supp" \
	PKCS11SPY="$SOFTHSM_MODULE" PKCS11SPY_OUTPUT="$W/spy.log" \
		run "$SIGN_FILE" --batch -j 3 --pin-file pin sha256 \
		"pkcs11:token=modsign;object=rsa2048?module-path=$spy" \
		"pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$spy" \
		b1.ko b2.ko b3.ko b4.ko b5.ko
	assert_success
	for i in 1 2 3 4 5; do
		cmp "pem$i.ko" "b$i.ko"
	done
	[ "$(grep -cE '^[0-9]+: C_Login$' spy.log)" -eq 1 ]
	[ "$(grep -cE '^[0-9]+: C_Sign$' spy.log)" -eq 5 ]
}

# sign-file --agent: the key loaded once; every plain run beneath it
# hands its module over.  The spy counts one login for the whole run.
@test "agent: one login for a run of many modules, each signed as from PEM" {
	need_spy
	local key="pkcs11:token=modsign;object=rsa2048?module-path=$spy"
	local cert="pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$spy"
	modules_and_pem b 6 10000
	agent_under_spy b "$key" "$cert" -j 2
	assert_success
	for i in 1 2 3 4 5 6; do
		cmp "pem$i.ko" "b$i.ko"
	done
	[ "$(grep -cE '^[0-9]+: C_Login$' spy.log)" -eq 1 ]
	[ "$(grep -cE '^[0-9]+: C_Sign$' spy.log)" -eq 6 ]
}

# The calls a run made to the token, in order, one name a line; and
# its C_SignInit and C_Sign calls on one line.
spy_calls() { # log
	sed -n 's/^[0-9]*: \(C_[A-Za-z]*\)$/\1/p' "$1"
}
sign_calls() { # log
	spy_calls "$1" | grep -E '^C_Sign(Init)?$' | paste -sd' '
}

@test "agent: a token's RSA key is armed between modules: each module waits for C_Sign alone" {
	need_spy
	local key="pkcs11:token=modsign;object=rsa2048?module-path=$spy"
	local cert="pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$spy"
	modules_and_pem a 3 9000
	spy_leaks_not_ours
	ASAN_OPTIONS="$SPY_ASAN" LSAN_OPTIONS="suppressions=$W/lsan.supp" \
	PKCS11SPY="$SOFTHSM_MODULE" PKCS11SPY_OUTPUT="$W/spy.log" \
		run -0 --separate-stderr "$SIGN_FILE" --agent-start \
		--pin-file pin sha256 "$key" "$cert"
	eval "$output"
	# before any module: the first operation is initialised, nothing signed
	run -0 spy_calls spy.log
	[ "$(grep -c '^C_SignInit$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^C_Sign$' <<<"$output")" -eq 0 ]
	# (not "i": bats' run uses that name)
	for n in 1 2 3; do
		run -0 "$SIGN_FILE" sha256 "$key" "$cert" "a$n.ko"
		cmp "pem$n.ko" "a$n.ko"
	done
	run -0 "$SIGN_FILE" --agent-stop
	# each C_Sign had its C_SignInit made before the module came; the
	# last one is dropped with the session
	assert_equal "$(sign_calls spy.log)" \
		"C_SignInit C_Sign C_SignInit C_Sign C_SignInit C_Sign C_SignInit"
}

@test "agent: a URI naming two private keys is left to the provider or engine, which signs each module itself" {
	need_spy
	# the same RSA key twice under one label: the provider or engine
	# picks one by its own rules, so modsign does not pick for it
	for id in 7431 7432; do
		pkcs11-tool --module "$SOFTHSM_MODULE" --token-label modsign \
			--login --pin 1234 --write-object "$KEYS/rsa2048.key" \
			--type privkey --id "$id" --label twice >/dev/null 2>&1
	done
	local key="pkcs11:token=modsign;object=twice?module-path=$spy"
	local cert="pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$spy"
	modules_and_pem t 2 8000
	agent_under_spy t "$key" "$cert"
	assert_success
	cmp pem1.ko t1.ko
	cmp pem2.ko t2.ko
	assert_equal "$(sign_calls spy.log)" "C_SignInit C_Sign C_SignInit C_Sign"
}

# p11-kit's remoting, as a build farm shares one HSM: "p11-kit server"
# exports the token on a UNIX socket, and sign-file reaches it through
# p11-kit-client.so with P11_KIT_SERVER_ADDRESS.
p11kit_server() {
	local client
	client=$(ls /usr/lib/*/pkcs11/p11-kit-client.so 2>/dev/null | head -1)
	[ -n "$client" ] || require_file /usr/lib/MULTIARCH/pkcs11/p11-kit-client.so p11-kit-modules
	require_cmd p11-kit p11-kit
	mkfifo srv.out
	p11-kit server -f -s -n "$W/p11.sock" --provider "$SOFTHSM_MODULE" \
		"pkcs11:token=modsign" > srv.out 2> srv.err &
	P11_SERVER=$!
	# its first line is printed once the socket listens
	fifo_line srv.out
	[[ "$REPLY" == P11_KIT_SERVER_ADDRESS=* ]] || fail "p11-kit server: $REPLY $(cat srv.err)"
	export P11_KIT_SERVER_ADDRESS="unix:path=$W/p11.sock"
	RKEY="pkcs11:token=modsign;object=rsa2048?module-path=$client"
	RCERT="pkcs11:token=modsign;object=rsa2048;type=cert?module-path=$client"
}

teardown() {
	[ -z "${P11_SERVER:-}" ] || kill "$P11_SERVER" 2>/dev/null || true
	[ -z "${MODSIGN_AGENT_PID:-}" ] ||
		kill "$MODSIGN_AGENT_PID" 2>/dev/null || true
	return 0
}

@test "p11-kit server: one file, --batch and under the agent, each signed as from PEM" {
	p11kit_server
	modules_and_pem r 4 7000
	run -0 "$SIGN_FILE" --pin-file pin sha256 "$RKEY" "$RCERT" r1.ko
	cmp pem1.ko r1.ko
	run -0 "$SIGN_FILE" --batch -q --pin-file pin sha256 "$RKEY" "$RCERT" r2.ko
	cmp pem2.ko r2.ko
	printf '#!/bin/sh\nfor f in r3.ko r4.ko; do "%s" sha256 "$1" "$2" "$f" || exit 1; done\n' \
		"$SIGN_FILE" > each.sh
	chmod +x each.sh
	run -0 "$SIGN_FILE" --agent --pin-file pin sha256 "$RKEY" "$RCERT" \
		-- ./each.sh "$RKEY" "$RCERT"
	cmp pem3.ko r3.ko
	cmp pem4.ko r4.ko
}
