# SPDX-License-Identifier: GPL-2.0-or-later
# Shared set-up for the bats suite: the binaries under test, the committed
# test keys, the reference tool, and a scratch directory per test.

# bats-support, bats-assert and bats-file, their sources read directly:
# each library's load.bash finds its files with a $(dirname) per file,
# and bats reads this file again for every test, so those 17 processes
# were a quarter of a second per test (about 10 minutes of a make check).
for _lib in bats-support bats-assert bats-file; do
	for _src in "/usr/lib/bats/$_lib"/src/*.bash; do
		[ -r "$_src" ] || {
			echo "$_src: missing: install the Debian package $_lib (scripts/install-deps.sh test)" >&2
			exit 1
		}
		# shellcheck disable=SC1090
		source "$_src"
	done
done
unset _lib _src

# Two levels above the test's directory (tests/bats, tests/dkms or
# tests/deb), which bats gives as an absolute path: no subshell per test.
TOP=${BATS_TEST_DIRNAME%/*}
TOP=${TOP%/*}
# The binaries under test: make check sets MODSIGN_BIN (build/bin, or
# build/asan/bin for the sanitizer run); by hand, the plain build.
BIN="${MODSIGN_BIN:-$TOP/build/bin}"
KEYS="$TOP/tests/fixtures/keys"
SIGN_FILE="$BIN/sign-file"
EXTRACT_SIG="$BIN/extract-sig"
VERIFY_FILE="$BIN/verify-file"

# The kernel's own sign-file from the platform's linux-kbuild package
# (linux-kbuild-6.1 on Debian 12, linux-kbuild-6.12.* on Debian 13),
# fetched by tests/fixtures/get-reference.sh (run by make check).
# MODSIGN_REF_DIR: where the fetched references are (the autopkgtest
# hands it those of a build tree, debian/tests/command-suite).
REF_DIR="${MODSIGN_REF_DIR:-$TOP/build/reference}"
REF_SIGN_FILE="${MODSIGN_REF_SIGN_FILE:-$REF_DIR/sign-file}"

# sign-file is a front end and the tool proper it runs from
# ../lib/modsign beside it (src/sign-file/front.h): a copy elsewhere
# takes both, in the same layout.  Prints the copy's executable.
copy_sign_file() { # dir
	mkdir -p "$1/bin" "$1/lib/modsign" &&
		cp "$SIGN_FILE" "$1/bin/" &&
		cp "$BIN/../lib/modsign/sign-file" "$1/lib/modsign/" &&
		echo "$1/bin/sign-file"
}

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
}

# A deterministic test module of N bytes (tests/fixtures/elf-module.py):
# a counter under a minimal ELF object the kernel's ELF checks accept, so
# that sign-file signs it and verify-file judges its signature; below 193
# bytes only the ELF magic and the counter (no module).  --usage firmware
# signs any data.
make_module() { # path size
	python3 "$TOP/tests/fixtures/elf-module.py" "$1" "$2"
}

# The same head on an existing file of 193 bytes or more (a sparse one,
# random bytes), in place: it is then a module by the ELF checks.
elf_head() { # path
	python3 "$TOP/tests/fixtures/elf-module.py" --head "$1"
}

# make check fetches the reference first and sets MODSIGN_CHECK: there a
# missing reference is a failure; by hand a skip that says how to get it.
need_reference() {
	[ -x "$REF_SIGN_FILE" ] && return 0
	[ -z "${MODSIGN_CHECK:-}" ] ||
		fail "reference sign-file $REF_SIGN_FILE missing under make check (tests/fixtures/get-reference.sh fetches it)"
	skip "reference sign-file missing: run tests/fixtures/get-reference.sh"
}

# A file from a package a test needs, likewise.
require_file() { # path package
	[ -r "$1" ] ||
		fail "$1 not found: install the Debian package $2 (scripts/install-deps.sh test)"
}

# A command a test needs: fail, naming the Debian package that has it
# (scripts/install-deps.sh test installs them all).  Never a skip: a
# machine without it is not set up for the suite.
require_cmd() { # command package
	command -v "$1" > /dev/null ||
		fail "$1 not found: install the Debian package $2 (scripts/install-deps.sh test)"
}

# The second reference, the 7.3 kernel's sign-file (tests/fixtures/
# get-reference-7.3.sh): built from Debian's linux-source-7.3 against this
# machine's OpenSSL, and Debian's own build from linux-kbuild-7.3, which
# runs only with Debian 13's OpenSSL (3.5).
# setup_suite.bash asks openssl once for the whole run; a file run from
# elsewhere (tests/dkms, tests/deb) asks here.
OPENSSL_VERSION=${MODSIGN_TEST_OPENSSL_VERSION:-$(openssl version | cut -d' ' -f2)}
REF73_SIGN_FILE="${MODSIGN_REF73_SIGN_FILE:-$REF_DIR/sign-file-7.3-openssl-$OPENSSL_VERSION}"
REF73_DEBIAN_SIGN_FILE="$REF_DIR/sign-file-7.3-debian"

need_reference73() {
	[ -x "$REF73_SIGN_FILE" ] ||
		skip "7.3 reference sign-file for OpenSSL $OPENSSL_VERSION missing: run tests/fixtures/get-reference-7.3.sh"
}

# sign-file's build signs with ML-DSA (its --version says so: built with
# OpenSSL 3.5 or later).  The ML-DSA tests expect signatures then, and the
# refusal otherwise.
mldsa_build() {
	"$SIGN_FILE" --version | grep -q '; ML-DSA: yes$'
}

# tests/fixtures/cms-mask.py: signature values zeroed (der) or left out
# of a tag tree (tree), for comparing randomised signatures.
CMS_MASK="$TOP/tests/fixtures/cms-mask.py"

# The same bytes as make_module (which builds them a whole array at a
# time) for the multi-megabyte modules.
make_large_module() { make_module "$@"; }

# The signature trailer: PKCS#7 DER, 12-byte module_signature, magic.
SIG_MAGIC=$'~Module signature appended~\n'	# 28 bytes, newline included
SIG_TRAILER_LEN=40

# True if the file ends in the 28-byte magic.
ends_with_sig_magic() { # file
	[ "$(tail -c 28 "$1" | od -An -c | tr -d ' \n')" = '~Modulesignatureappended~\n' ]
}

file_size() { stat -c %s "$1"; }

file_sha256() { sha256sum < "$1" | cut -d' ' -f1; }

# Every name in a directory, dot files included, one a line.
dir_listing() { (cd "$1" && LC_ALL=C ls -A); }

# sig_len from a signed file's descriptor (big-endian, bytes 8..11).
trailer_sig_len() { # signed-file
	local hex
	hex=$(tail -c 32 "$1" | head -c 4 | od -An -tx1 | tr -d ' \n')
	echo $((16#$hex))
}

# The 12 descriptor bytes as hex ("000002000000000000000123").
trailer_desc_hex() { # signed-file
	tail -c "$SIG_TRAILER_LEN" "$1" | head -c 12 | od -An -tx1 | tr -d ' \n'
}

# Split a signed file into its body and its CMS using only the descriptor
# (independent of extract-sig).
split_signed() { # signed-file body-out sig-out
	local size sig_len body_len
	size=$(file_size "$1")
	sig_len=$(trailer_sig_len "$1")
	body_len=$((size - SIG_TRAILER_LEN - sig_len))
	[ "$body_len" -ge 0 ] || return 1
	head -c "$body_len" "$1" > "$2"
	tail -c $((SIG_TRAILER_LEN + sig_len)) "$1" | head -c "$sig_len" > "$3"
}

# OpenSSL's own check of a detached module signature over BODY.
openssl_verify_detached() { # sig body cert
	openssl cms -verify -binary -inform DER -in "$1" -content "$2" \
		-certfile "$3" -nointern -noverify -out /dev/null
}

need_root() { # reason
	[ "$(id -u)" -eq 0 ] || skip "needs root: $1"
}

# Run a command as root without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH, so
# that file modes apply to it (root otherwise reads a chmod 000 file).
without_dac_override() { # cmd...
	setpriv --bounding-set -dac_override,-dac_read_search -- "$@"
}

# True if without_dac_override really stops root reading a chmod 000 file.
can_drop_dac_override() {
	local probe="$BATS_TEST_TMPDIR/.dac-probe"
	command -v setpriv > /dev/null || return 1
	echo probe > "$probe" && chmod 000 "$probe" || return 1
	! without_dac_override cat "$probe" > /dev/null 2>&1
	local ok=$?
	rm -f "$probe"
	return $ok
}

# Unmount whatever a test mounted under its scratch directory (deepest
# first) and undo chattr +i, so that bats can delete $W.
release_scratch() {
	local m
	[ -n "${W:-}" ] || return 0
	awk -v w="$W" '$2 == w || index($2, w "/") == 1 { print $2 }' \
		/proc/mounts | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	if command -v lsattr > /dev/null; then
		find "$W" -xdev -exec lsattr -d {} + 2>/dev/null |
			awk '$1 ~ /i/ { print $2 }' |
			while read -r m; do chattr -i "$m" 2>/dev/null; done
	fi
	return 0
}

# make_module's bytes, generated once per .bats file and then copied:
# starting python for every test is the slow part of a big matrix.
copy_module() { # path size
	local cache="$BATS_FILE_TMPDIR/module-$2"
	if [ ! -f "$cache" ]; then
		if [ "$2" -ge $((1 << 20)) ]; then
			make_large_module "$cache.new" "$2"
		else
			make_module "$cache.new" "$2"
		fi && mv "$cache.new" "$cache" || return 1
	fi
	cp "$cache" "$1"
}

# In a background subshell: close every descriptor but 0-2.  A process
# left waiting (by a failed test) must not hold bats' output open, or the
# whole run would wait for it.
close_extra_fds() {
	local fd
	for fd in /proc/$BASHPID/fd/*; do
		fd=${fd##*/}
		[ "$fd" -le 2 ] || eval "exec $fd>&-"
	done
}

# --- The tests' traps live in a preloaded library, not in the tools
# (tests/preload/test-hooks.c, built by make; make check names it in
# MODSIGN_TEST_HOOKS).  hooks_env sets HOOKS_ENV to the environment that
# loads it.  The library is not instrumented (a paused command's env or sh
# loads it too), so an ASan build is told that its runtime is not the
# first library, as sign-file-pkcs11.bats does for its preload.
TEST_HOOKS="${MODSIGN_TEST_HOOKS:-$TOP/build/preload/test-hooks.so}"
hooks_env() {
	[ -r "$TEST_HOOKS" ] ||
		fail "$TEST_HOOKS missing: make builds it"
	HOOKS_ENV=("LD_PRELOAD=$TEST_HOOKS${LD_PRELOAD:+:$LD_PRELOAD}")
	if ldd "$SIGN_FILE" | grep -q libasan; then
		HOOKS_ENV+=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
	fi
}

# --- Stopping a tool at a known point (MODSIGN_TEST_PAUSE_AT, read by the
# preloaded hooks above), so that a test acts while the tool is exactly
# there and never races it.  pause_start POINT CMD...: start CMD in the
# background and return once it waits at POINT (PAUSED_PID is then its
# pid), failing the test if it ends without getting there.  Then
# pause_resume lets it go on, and pause_wait collects its exit status
# (PAUSED_STATUS; 128+N after signal N) and its stderr (PAUSED_STDERR),
# whether it was resumed or killed.  Several at once: pause_start sets
# PAUSE_DIR, which pause_resume and pause_wait take as an argument.
pause_start() { # point cmd...
	local point=$1 what pid
	shift
	hooks_env
	PAUSE_DIR=$(mktemp -d "$BATS_TEST_TMPDIR/pause.XXXXXX")
	mkfifo "$PAUSE_DIR/reached" "$PAUSE_DIR/resume"
	# the subshell reports the end on the same FIFO: a command that
	# never reaches the point cannot leave the read below waiting
	(
		close_extra_fds
		rc=0
		export "${HOOKS_ENV[@]}"
		MODSIGN_TEST_PAUSE_AT=$point MODSIGN_TEST_PAUSE_DIR=$PAUSE_DIR \
			"$@" > "$PAUSE_DIR/stdout" 2> "$PAUSE_DIR/stderr" || rc=$?
		echo "exited $rc" > "$PAUSE_DIR/reached"
	) &
	echo $! > "$PAUSE_DIR/subshell"
	fifo_line "$PAUSE_DIR/reached"
	read -r what pid <<< "$REPLY"
	if [ "$what" != "$point" ]; then
		wait "$(cat "$PAUSE_DIR/subshell")"
		rm -f "$PAUSE_DIR/subshell"
		fail "$* did not reach $point ($what $pid): $(cat "$PAUSE_DIR/stderr")"
	fi
	echo "$pid" > "$PAUSE_DIR/pid"
	PAUSED_PID=$pid
}

# One line from a FIFO into REPLY.  The tool may close its end of
# "reached" only after the test has its line (or be killed with it still
# open): the next open then meets that writer and reads an end of file,
# so read again, until a line comes.
fifo_line() { # fifo
	while ! read -r REPLY < "$1"; do
		:
	done
}

pause_resume() { # [pause-dir]
	echo go > "${1:-$PAUSE_DIR}/resume"
}

pause_wait() { # [pause-dir]
	local d=${1:-$PAUSE_DIR} what
	fifo_line "$d/reached"
	read -r what PAUSED_STATUS <<< "$REPLY"
	wait "$(cat "$d/subshell")"
	# ended and reaped: nothing for pause_cleanup to stop
	rm -f "$d/pid" "$d/subshell"
	[ "$what" = exited ] || fail "unexpected report from $d: $what"
	PAUSED_STDERR=$(cat "$d/stderr")
}

# For a test's teardown: end whatever a failed test left stopped.
pause_cleanup() {
	local d
	for d in "$BATS_TEST_TMPDIR"/pause.*; do
		[ -f "$d/subshell" ] || continue
		kill -KILL "$(cat "$d/pid" 2>/dev/null)" "$(cat "$d/subshell")" 2>/dev/null
	done
	return 0
}

# --- FIFOs that no tool may open (it would block).  So that a regression
# ends in a failed assertion rather than a hung suite, with no timeout:
# fifo_for_reading PATH makes a FIFO with a writer waiting to hand one
# byte to whoever opens it, fifo_for_writing PATH one with a reader
# waiting to drain whoever writes to it.  fifo_release PATH ends the
# guard (each must be released, before the test ends), and fails if a
# FIFO for reading was opened (its byte gone) or is
# no longer a FIFO.
declare -gA FIFO_GUARD

# Run a command in the background without bats' descriptors.
background_bare() { # cmd...
	(
		close_extra_fds
		exec "$@"
	) &
}

fifo_for_reading() { # path (an existing FIFO gets a new guard)
	[ -p "$1" ] || mkfifo "$1"
	background_bare sh -c 'printf x > "$1"' sh "$1"
	FIFO_GUARD[$1]="$! reading"
}

fifo_for_writing() { # path
	mkfifo "$1"
	background_bare sh -c 'cat "$1" > /dev/null' sh "$1"
	FIFO_GUARD[$1]="$! writing"
}

fifo_release() { # path
	local fd pid kind rc=0 unread=0
	read -r pid kind <<< "${FIFO_GUARD[$1]}"
	unset "FIFO_GUARD[$1]"
	if [ ! -p "$1" ]; then
		kill "$pid"
		wait "$pid" || :
		fail "$1 is no longer a FIFO"
	fi
	# Opened read-write, the FIFO has a reader and a writer: the
	# guard's open completes, whichever side it waits on (Linux wakes
	# it even if this end is closed again first).
	exec {fd}<>"$1"
	if [ "$kind" = writing ]; then
		exec {fd}>&-	# no writer left: the reader guard ends
		wait "$pid"
		return 0
	fi
	# The writer guard writes its byte and ends; the byte is still
	# there unless a tool opened the FIFO before (then the guard got
	# it, or died of SIGPIPE when the tool closed first).
	wait "$pid" || rc=$?
	if read -r -t 0 -u "$fd"; then
		unread=1
	fi
	exec {fd}>&-
	[ "$rc" -eq 0 ] && [ "$unread" -eq 1 ] ||
		fail "$1 was opened (guard exit $rc, byte unread: $unread)"
}

# A kernel-like ELF object for --vmlinux: RODATA (assembler lines for
# .rodata: a release banner, a decoy certificate, or nothing), then the
# CERTS back to back at system_certificate_list in .init.rodata with its
# _size symbol, as kernel builds lay them out (certs/system_certificates.S).
make_cert_elf() { # out rodata-asm cert...
	local out=$1 rodata=$2 f
	shift 2
	{
		[ -z "$rodata" ] || printf '.section .rodata,"a"\n%s\n' "$rodata"
		echo '.section .init.rodata,"a"'
		echo '.balign 8'
		echo '.globl system_certificate_list'
		echo 'system_certificate_list:'
		for f in "$@"; do echo ".incbin \"$f\""; done
		echo 'cert_list_end:'
		echo '.balign 8'
		echo '.globl system_certificate_list_size'
		echo 'system_certificate_list_size:'
		echo '.quad cert_list_end - system_certificate_list'
	} > "$out.S"
	gcc -c -o "$out" "$out.S"
}
