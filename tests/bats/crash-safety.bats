#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# In-place signing under SIGKILL, SIGTERM, SIGINT and a concurrent run: the
# module is always exactly the original or exactly the complete signed
# file, and nothing is left beside it.  Every signal is sent while
# sign-file waits at a known point (the test hook, helpers.bash:
# pause_start), never after a guessed delay.

load helpers
bats_require_minimum_version 1.5.0

# A large module (8 MiB; a distribution kernel ships drivers bigger
# still), whose write is the longest one for a signal to land in, and a
# small one (100 KB), as most modules are: the guarantees hold for both.
SIZE=$((8 << 20))
SMALL=100000

SIGN=("$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

setup_file() {
	local d="$BATS_FILE_TMPDIR"
	make_large_module "$d/orig.ko" "$SIZE"
	cp "$d/orig.ko" "$d/signed.ko"
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" "$d/signed.ko"
	make_module "$d/small-orig.ko" "$SMALL"
	cp "$d/small-orig.ko" "$d/small-signed.ko"
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" \
		"$d/small-signed.ko"
}

teardown() {
	pause_cleanup
}

# The module lives alone in d/, so that its directory listing means
# something (the pause FIFOs are made in the test's own directory).
setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	mkdir d
	cp "$BATS_FILE_TMPDIR/orig.ko" d/m.ko
}

# original or complete, nothing else; PREFIX "small-" for the small one
state_of() { # file [prefix]
	local d="$BATS_FILE_TMPDIR"
	if cmp -s "$1" "$d/${2:-}orig.ko"; then
		echo original
	elif cmp -s "$1" "$d/${2:-}signed.ko"; then
		echo signed
	else
		echo "CORRUPT (size $(stat -c %s "$1"))"
	fi
}

@test "SIGKILL at every stage of an in-place signing, large or small: the original or the signed module, nothing beside it" {
	local point want size
	for size in "" small-; do
		for point in input-mapped output-begun output-ready output-renamed; do
			cp "$BATS_FILE_TMPDIR/${size}orig.ko" d/m.ko
			pause_start "$point" "${SIGN[@]}" d/m.ko
			kill -KILL "$PAUSED_PID"
			pause_wait
			assert_equal "$PAUSED_STATUS" 137
			want=original
			[ "$point" != output-renamed ] || want=signed
			[ "$(state_of d/m.ko "$size")" = "$want" ] ||
				fail "${size}module killed at $point: $(state_of d/m.ko "$size"), not $want"
			# the temporary file was unnamed (O_TMPFILE): it died with
			# the process
			[ "$(dir_listing d)" = m.ko ] ||
				fail "${size}module killed at $point, left: $(dir_listing d)"
		done
	done
}

# The command line to sign in place: with the temporary file named
# (MODSIGN_TEST_NO_TMPFILE in the preloaded hooks: the fallback where a
# file system lacks O_TMPFILE) or unnamed (the default).
sign_cmd() { # named|unnamed
	CMD=(env)
	if [ "$1" = named ]; then
		hooks_env
		CMD+=("${HOOKS_ENV[@]}" MODSIGN_TEST_NO_TMPFILE=1)
	fi
	CMD+=("${SIGN[@]}" d/m.ko)
}

@test "without O_TMPFILE: SIGKILL leaves a named temporary file, and the next run removes it" {
	local next stale
	# What is not a dead run's is kept: a live pid's (this shell's), and
	# names of any other form.
	: > "d/.m.ko.$$.tmp-Live00"
	: > d/.m.ko.swp
	: > d/.m.ko.1x.tmp-AbCdEf
	: > d/.1.tmp-NoName
	local keep
	keep=$(dir_listing d | grep -v '^m.ko$')
	for next in named unnamed; do
		cp "$BATS_FILE_TMPDIR/orig.ko" d/m.ko
		sign_cmd named
		pause_start output-ready "${CMD[@]}"
		kill -KILL "$PAUSED_PID"
		pause_wait
		assert_equal "$PAUSED_STATUS" 137
		[ "$(state_of d/m.ko)" = original ]
		# the name says whose it was: ".m.ko.<pid>.tmp-XXXXXX"
		stale=$(cd d && compgen -G ".m.ko.$PAUSED_PID.tmp-??????")
		assert_equal "$(dir_listing d)" "$(printf '%s\n' $keep "$stale" m.ko | LC_ALL=C sort)"
		# the next run, whichever way it writes, removes it
		sign_cmd "$next"
		run "${CMD[@]}"
		assert_success
		[ "$(state_of d/m.ko)" = signed ]
		assert_equal "$(dir_listing d)" "$(printf '%s\n' $keep m.ko | LC_ALL=C sort)"
	done
}

@test "SIGTERM and SIGINT remove the temporary file and keep the original" {
	local sig point how code
	for sig in TERM INT; do
		code=$((128 + $(kill -l "$sig")))
		for point in output-begun output-ready; do
			for how in named unnamed; do
				cp "$BATS_FILE_TMPDIR/orig.ko" d/m.ko
				sign_cmd "$how"
				pause_start "$point" "${CMD[@]}"
				kill -"$sig" "$PAUSED_PID"
				pause_wait
				assert_equal "$PAUSED_STATUS" "$code"
				[ "$(state_of d/m.ko)" = original ] ||
					fail "SIG$sig at $point ($how): $(state_of d/m.ko)"
				[ "$(dir_listing d)" = m.ko ] ||
					fail "SIG$sig at $point ($how) left: $(dir_listing d)"
			done
		done
	done
}

@test "two runs on one module at once: the second waits for the lock, then refuses" {
	local a b
	# the first stops with its signed copy complete, holding the lock
	pause_start output-ready "${SIGN[@]}" d/m.ko
	a=$PAUSE_DIR
	# so the second finds the lock taken: it stops there, then waits
	pause_start lock-busy "${SIGN[@]}" d/m.ko
	b=$PAUSE_DIR
	pause_resume "$b"
	pause_resume "$a"
	pause_wait "$a"
	assert_equal "$PAUSED_STATUS" 0
	pause_wait "$b"
	assert_equal "$PAUSED_STATUS" 8
	assert_equal "$PAUSED_STDERR" "sign-file: d/m.ko: already signed (use --replace or --skip-signed)"
	[ "$(state_of d/m.ko)" = signed ]
	[ "$(dir_listing d)" = m.ko ]
}

@test "the tools carry no test hook: the traps above come from the preloaded tests/preload/test-hooks.c" {
	run grep -l MODSIGN_TEST "$SIGN_FILE" "$VERIFY_FILE" "$EXTRACT_SIG"
	assert_failure 1
	assert_output ""
}
