#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# In-place signing under SIGKILL, SIGTERM and a concurrent run: the module
# is always exactly the original or exactly the complete signed file.

load helpers

SIZE=$((256 * 1024 * 1024))

# exec: a signal sent to $! must reach sign-file, not a bash subshell
sign() { exec "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$@"; }

setup_file() {
	D="$BATS_FILE_TMPDIR"
	head -c "$SIZE" /dev/urandom > "$D/orig.ko"
	cp "$D/orig.ko" "$D/signed.ko"
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$D/signed.ko"
	# how long one in-place signing takes, in ms, to spread the kills
	cp "$D/orig.ko" "$D/t.ko"
	local t0 t1
	t0=$(date +%s%N)
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$D/t.ko"
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 )) > "$D/ms"
	rm -f "$D/t.ko"
}

# original or complete, nothing else
state_of() { # file
	local d="$BATS_FILE_TMPDIR" size
	size=$(stat -c %s "$1")
	if [ "$size" = "$(stat -c %s "$d/orig.ko")" ] && cmp -s "$1" "$d/orig.ko"; then
		echo original
	elif [ "$size" = "$(stat -c %s "$d/signed.ko")" ] && cmp -s "$1" "$d/signed.ko"; then
		echo signed
	else
		echo "CORRUPT (size $size)"
	fi
}

@test "SIGKILL at 50 points of an in-place signing never leaves a partial module" {
	local d="$BATS_FILE_TMPDIR" ms i delay st orig=0 signed=0
	ms=$(cat "$d/ms")
	cp "$d/orig.ko" m.ko
	for i in $(seq 1 50); do
		# 45 kills spread over one run, then 5 ever later (to 500%), so
		# that some land after the rename even on a loaded machine
		if [ "$i" -le 45 ]; then
			delay=$(( ms * i / 45 ))
		else
			delay=$(( ms * (i - 44) ))
		fi
		sign m.ko 2>/dev/null & pid=$!
		sleep "$(awk -v m="$delay" 'BEGIN{printf "%.3f", m/1000}')"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		st=$(state_of m.ko)
		case $st in
		original) orig=$((orig + 1)) ;;
		signed) signed=$((signed + 1)); cp "$d/orig.ko" m.ko ;;
		*) echo "trial $i (kill after ${delay} ms): $st"; return 1 ;;
		esac
	done
	echo "# 50 kills over 0..$((6 * ms)) ms: $orig left the original, $signed the signed file" >&3
	# the kills really were spread: before and after the rename
	[ "$orig" -gt 0 ] && [ "$signed" -gt 0 ]
}

@test "a rerun after a kill signs correctly beside the stale temporary file" {
	local d="$BATS_FILE_TMPDIR" ms try
	ms=$(cat "$d/ms")
	# kill mid-run; on a machine faster now than when ms was measured the
	# kill can land after the rename, so try earlier until one leaves the
	# original and a stale temporary file behind
	for try in 1 2 3 4 5 6; do
		cp "$d/orig.ko" m.ko
		rm -f .m.ko.*
		sign m.ko & pid=$!
		sleep "$(awk -v m="$ms" -v t="$try" 'BEGIN{printf "%.3f", m/2000/t}')"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" || true
		if [ "$(state_of m.ko)" = original ] && compgen -G '.m.ko.*' >/dev/null; then
			break
		fi
	done
	[ "$(state_of m.ko)" = original ]
	compgen -G '.m.ko.*' >/dev/null
	run "$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	assert_success
	[ "$(state_of m.ko)" = signed ]
}

@test "SIGTERM and SIGINT remove the temporary file and keep the original" {
	local d="$BATS_FILE_TMPDIR" ms sig
	ms=$(cat "$d/ms")
	for sig in TERM INT; do
		cp "$d/orig.ko" m.ko
		sign m.ko & pid=$!
		sleep "$(awk -v m="$ms" 'BEGIN{printf "%.3f", m/2000}')"
		kill -"$sig" "$pid"
		wait "$pid" || true
		[ "$(state_of m.ko)" = original ] || [ "$(state_of m.ko)" = signed ]
		run ls -A
		assert_output "m.ko"
	done
}

@test "two runs on one module at once: one signs, the other refuses" {
	local d="$BATS_FILE_TMPDIR"
	cp "$d/orig.ko" m.ko
	sign m.ko 2>a.err & a=$!
	sign m.ko 2>b.err & b=$!
	local ra=0 rb=0
	wait "$a" || ra=$?
	wait "$b" || rb=$?
	[ "$(state_of m.ko)" = signed ]
	# exactly one success and one "already signed" (exit 8)
	[ $((ra + rb)) = 8 ]
	cat a.err b.err | grep -q "m.ko: already signed"
}
