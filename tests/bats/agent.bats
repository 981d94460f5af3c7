#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sign-file --agent: one key load serving the plain sign-file runs beneath
# it.  Whether a run was served by the agent is told by the key: the
# encrypted enc.key's passphrase is given to the agent only, so a client
# that signed itself would fail (exit 9) for want of it.

load helpers
bats_require_minimum_version 1.5.0

ENC=("$KEYS/enc.key" "$KEYS/enc.crt")
PEM=("$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	mkdir d
	make_module d/a.ko 30000
	make_module d/b.ko 300000
	make_module d/c.ko 5000000
	echo modsign-pin > pin
	unset KBUILD_SIGN_PIN MODSIGN_AGENT
}

teardown() {
	pause_cleanup
	if [ -n "${AGENT_STARTED:-}" ]; then
		"$SIGN_FILE" --agent-stop 2>/dev/null || true
	fi
	[ -z "${OTHER:-}" ] || rm -rf "$OTHER"
	return 0
}

# The same files signed without an agent, in ref/.
reference() { # key cert [sign-file options]
	local k=$1 c=$2
	shift 2
	cp -r d ref
	for f in ref/*.ko; do
		KBUILD_SIGN_PIN=modsign-pin "$SIGN_FILE" "$@" sha256 "$k" "$c" "$f"
	done
}

# A script signing each module of d/ in place, for the agent to run: it
# writes each run's exit status to rc.
write_signer() { # key cert
	cat > signer.sh <<-EOF
	#!/bin/sh
	for f in d/*.ko; do
		"$SIGN_FILE" sha256 "$1" "$2" "\$f"
		echo "\$f \$?" >> rc
	done
	EOF
	chmod +x signer.sh
}

@test "agent: every run beneath it signed by the agent, byte-identical to signing without it" {
	reference "${ENC[@]}"
	write_signer "${ENC[@]}"
	run -0 --separate-stderr "$SIGN_FILE" --agent --pin-file pin sha256 \
		"${ENC[@]}" -- ./signer.sh
	assert_equal "$stderr" ""
	assert_equal "$(cat rc)" "d/a.ko 0
d/b.ko 0
d/c.ko 0"
	for f in a b c; do
		cmp d/$f.ko ref/$f.ko
	done
	# without the agent the same run cannot sign: the key is encrypted
	make_module e.ko 3000
	run -9 "$SIGN_FILE" sha256 "${ENC[@]}" e.ko
}

@test "agent: exits with the command's status, removes its socket and directory" {
	run -3 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- sh -c \
		'echo "$MODSIGN_AGENT" > where; test -S "$MODSIGN_AGENT" || exit 9
		 stat -c %a "${MODSIGN_AGENT%/*}" > mode; exit 3'
	[[ "$(cat where)" == */modsign-agent.*/socket ]]
	assert_equal "$(cat mode)" 700
	assert_not_exists "$(cat where)"
	assert_not_exists "$(dirname "$(cat where)")"
}

@test "agent: a command that cannot be run is exit 127, nothing left behind" {
	export TMPDIR="$W/tmp"
	mkdir "$TMPDIR"
	run -127 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- ./no-such-command
	assert_output --partial "./no-such-command: cannot run"
	assert_equal "$(dir_listing "$TMPDIR")" ""
}

@test "agent: usage errors (no command, no --, other verbs)" {
	run -2 "$SIGN_FILE" --agent sha256 "${PEM[@]}"
	run -2 "$SIGN_FILE" --agent-start sha256 "${PEM[@]}" -- true
	run -2 "$SIGN_FILE" --agent -s sha256 "${PEM[@]}" -- true
	run -2 "$SIGN_FILE" --agent --agent-stop sha256 "${PEM[@]}" -- true
	assert_output "sign-file: --agent, --agent-start and --agent-stop exclude each other"
}

@test "agent: messages, exit codes and files of each run are those of signing without it" {
	KBUILD_SIGN_PIN=modsign-pin "$SIGN_FILE" sha256 "${ENC[@]}" d/a.ko
	make_module d/other.ko 4000
	printf 'not elf' > d/bad.ko
	cp -r d x1
	cp -r d x2
	cat > cases.sh <<-EOF
	#!/bin/bash
	cd "\$1"
	s() { "$SIGN_FILE" "\$@" 2>&1; echo "rc \$?"; }
	k=("${ENC[0]}" "${ENC[1]}")
	s sha256 "\${k[@]}" a.ko
	s --skip-signed sha256 "\${k[@]}" a.ko
	s -q --skip-signed sha256 "\${k[@]}" a.ko
	s sha256 "\${k[@]}" missing.ko
	s sha256 "\${k[@]}" b.ko other.ko
	s -p sha256 "\${k[@]}" b.ko out.ko
	s --replace sha256 "\${k[@]}" a.ko
	s sha256 "\${k[@]}" bad.ko
	s --usage firmware sha256 "\${k[@]}" bad.ko
	s -d sha256 "\${k[@]}" c.ko
	s -k sha256 "\${k[@]}" other.ko
	s sha256 "\${k[@]}" b.ko sub/missing-dir.ko
	s sha256 "\${k[@]}" "\$PWD/c.ko"
	EOF
	chmod +x cases.sh
	KBUILD_SIGN_PIN=modsign-pin ./cases.sh x1 > direct.out
	# -k is not what the agent was started with: that run signs itself,
	# and without the passphrase fails as a run of its own would
	sed -i 's/^\(s -k sha256 .*other.ko\)$/KBUILD_SIGN_PIN=modsign-pin \1/' cases.sh
	run -0 "$SIGN_FILE" --agent --pin-file pin sha256 "${ENC[@]}" -- \
		./cases.sh x2
	assert_output "$(cat direct.out)"
	diff -r x1 x2
	grep -q '^rc 8$' direct.out
	grep -q 'already signed, left unchanged' direct.out
}

@test "agent: --agent-start prints the variables, --agent-stop ends it and removes its socket" {
	run -0 --separate-stderr "$SIGN_FILE" --agent-start --pin-file pin \
		sha256 "${ENC[@]}"
	eval "$output"
	AGENT_STARTED=1
	[ -S "$MODSIGN_AGENT" ]
	kill -0 "$MODSIGN_AGENT_PID"
	reference "${ENC[@]}"
	for f in d/*.ko; do
		run -0 "$SIGN_FILE" sha256 "${ENC[@]}" "$f"
	done
	for f in a b c; do
		cmp d/$f.ko ref/$f.ko
	done
	run -0 "$SIGN_FILE" --agent-stop
	unset AGENT_STARTED
	assert_not_exists "$MODSIGN_AGENT"
	assert_not_exists "$(dirname "$MODSIGN_AGENT")"
	run -7 "$SIGN_FILE" --agent-stop
	assert_output --partial "$MODSIGN_AGENT: no signing agent answers there"
}

@test "agent: --agent-start with a key it cannot load fails with the key's exit code" {
	run -9 "$SIGN_FILE" --agent-start sha256 "${ENC[@]}"
	assert_output --partial "enc.key: private key is encrypted"
}

@test "agent: another key, hash or certificate is signed by the run itself" {
	reference "${PEM[@]}"
	cp -r d d2
	cat > other.sh <<-EOF
	#!/bin/sh
	for f in d/*.ko; do "$SIGN_FILE" sha256 "${PEM[0]}" "${PEM[1]}" "\$f" || exit 1; done
	# the agent's key, another hash: signs itself, without the passphrase
	"$SIGN_FILE" sha384 "${ENC[0]}" "${ENC[1]}" d2/a.ko && exit 1
	# the agent's key with another certificate file of the same bytes
	cp "${ENC[1]}" copy.crt
	"$SIGN_FILE" sha256 "${ENC[0]}" copy.crt d2/b.ko || exit 2
	exit 0
	EOF
	chmod +x other.sh
	run -0 "$SIGN_FILE" --agent --pin-file pin sha256 "${ENC[@]}" -- ./other.sh
	for f in a b c; do
		cmp d/$f.ko ref/$f.ko
	done
}

@test "agent: MODSIGN_AGENT naming nothing, or a stale socket, and the run signs itself" {
	reference "${PEM[@]}"
	MODSIGN_AGENT=$W/nothing "$SIGN_FILE" sha256 "${PEM[@]}" d/a.ko
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(sys.argv[1])' "$W/stale"
	[ -S stale ]
	MODSIGN_AGENT=$W/stale "$SIGN_FILE" sha256 "${PEM[@]}" d/b.ko
	MODSIGN_AGENT=$W/pin "$SIGN_FILE" sha256 "${PEM[@]}" d/c.ko
	for f in a b c; do
		cmp d/$f.ko ref/$f.ko
	done
}

@test "agent: a client of another uid is refused, and signs itself" {
	require_cmd setpriv util-linux
	# The other uid gets the binary, the key and the module where it can
	# reach them: neither the checkout (under /root, mode 0700, in CI's
	# fresh Debian roots) nor bats's scratch (mode 0700) need be open to
	# it.  The agent serves the same key file (the agent matches it by
	# identity), so only the client's uid can make it decline.
	OTHER=$(mktemp -d "${TMPDIR:-/tmp}/modsign-test-uid.XXXXXX")
	copy_sign_file "$OTHER" >/dev/null
	cp "${ENC[@]}" d/a.ko "$OTHER"/
	chmod 0644 "$OTHER"/enc.key "$OTHER"/enc.crt
	chmod 0666 "$OTHER"/a.ko
	chmod 0777 "$OTHER"
	chmod -R go+rX "$OTHER"/bin "$OTHER"/lib
	run -0 --separate-stderr "$OTHER"/bin/sign-file --agent-start \
		--pin-file pin sha256 "$OTHER"/enc.key "$OTHER"/enc.crt
	eval "$output"
	AGENT_STARTED=1
	# only a directory left open by mistake lets it reach the socket
	chmod 0755 "$(dirname "$MODSIGN_AGENT")"
	chmod 0777 "$MODSIGN_AGENT"
	cd "$OTHER"
	run -9 setpriv --reuid=65534 --regid=65534 --clear-groups \
		env MODSIGN_AGENT="$MODSIGN_AGENT" ./bin/sign-file sha256 \
		enc.key enc.crt a.ko
	assert_output --partial "private key is encrypted"
	cmp a.ko <(make_module /dev/stdout 30000)
}

# The agent killed while it signs a module: at each point the client
# signs the module itself or finds it signed, and nothing is left in d/.
@test "agent: SIGKILL of the agent in the middle of a module: the client signs it or finds it signed" {
	local point
	reference "${PEM[@]}"
	mkfifo done
	cat > one.sh <<-EOF
	#!/bin/sh
	unset MODSIGN_TEST_PAUSE_AT MODSIGN_TEST_PAUSE_DIR
	"$SIGN_FILE" sha256 "${PEM[0]}" "${PEM[1]}" d/c.ko 2> client.err
	echo "\$?" > done
	EOF
	chmod +x one.sh
	for point in output-begun output-ready output-renamed; do
		make_module d/c.ko 5000000
		pause_start "$point" "$SIGN_FILE" --agent sha256 "${PEM[@]}" \
			-- ./one.sh
		kill -KILL "$PAUSED_PID"
		pause_wait
		assert_equal "$PAUSED_STATUS" 137
		fifo_line done
		assert_equal "$REPLY" 0
		assert_equal "$(cat client.err)" ""
		cmp d/c.ko ref/c.ko
		assert_equal "$(dir_listing d)" "a.ko
b.ko
c.ko"
	done
}

@test "agent: SIGTERM ends the serving at once, is passed to the command, and nothing is left behind" {
	export TMPDIR="$W/tmp"
	mkdir "$TMPDIR"
	mkfifo ready
	"$SIGN_FILE" --agent sha256 "${PEM[@]}" -- sh -c \
		'echo "$MODSIGN_AGENT" > ready; exec sleep 1000' &
	pid=$!
	fifo_line ready
	[ -S "$REPLY" ]
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	assert_equal "$(dir_listing "$TMPDIR")" ""
}

@test "agent: no flush of the directory per module, one syncfs at the end; a run of its own flushes no directory either" {
	require_cmd strace strace
	# LeakSanitizer cannot run under ptrace: off for an ASan build
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -qq -e trace=fsync,syncfs -o agent.trace \
		"$SIGN_FILE" --agent sha256 "${PEM[@]}" -- sh -c \
		"for f in d/*.ko; do '$SIGN_FILE' sha256 '${PEM[0]}' '${PEM[1]}' \"\$f\" || exit 1; done"
	# at most the new files' own fsyncs (none where the file system
	# orders a replacing rename itself: ext4), never a directory's
	[ "$(grep -c ' fsync(' agent.trace)" -le 3 ]
	[ "$(grep -c ' syncfs(' agent.trace)" -eq 1 ]
	make_module e.ko 3000
	strace -f -qq -e trace=fsync,syncfs -o one.trace \
		"$SIGN_FILE" sha256 "${PEM[@]}" e.ko
	# the new file's fsync at most (durability.bats says when)
	[ "$(grep -c ' fsync(' one.trace)" -le 1 ]
}

@test "agent: clients served in parallel (-j 2, four at once), each module as signed without it" {
	for i in 1 2 3 4 5 6 7 8; do
		make_module "d/p$i.ko" $((20000 * i))
	done
	reference "${ENC[@]}"
	run -0 --separate-stderr "$SIGN_FILE" --agent -j 2 --pin-file pin \
		sha256 "${ENC[@]}" -- sh -c "ls d/*.ko | xargs -P 4 -n 1 \
		'$SIGN_FILE' sha256 '${ENC[0]}' '${ENC[1]}'"
	assert_equal "$stderr" ""
	for f in ref/*.ko; do
		cmp "$f" "d/${f#ref/}"
	done
}

@test "agent: --agent-stop under --agent ends the serving, not the command" {
	reference "${ENC[@]}"
	run -0 --separate-stderr "$SIGN_FILE" --agent --pin-file pin sha256 \
		"${ENC[@]}" -- sh -c "'$SIGN_FILE' sha256 '${ENC[0]}' '${ENC[1]}' d/a.ko &&
		'$SIGN_FILE' --agent-stop && test ! -e \"\$MODSIGN_AGENT\" &&
		KBUILD_SIGN_PIN=modsign-pin '$SIGN_FILE' sha256 '${ENC[0]}' '${ENC[1]}' d/b.ko &&
		echo finished"
	assert_output finished
	cmp d/a.ko ref/a.ko
	cmp d/b.ko ref/b.ko
}

@test "agent: the warnings a run of its own prints before signing, each served run prints too" {
	cp d/a.ko x.ko
	run -0 --separate-stderr "$SIGN_FILE" sha1 "${PEM[@]}" x.ko
	[ -n "$stderr" ]
	local direct=$stderr
	cp -r d ref
	KBUILD_SIGN_PIN=modsign-pin "$SIGN_FILE" sha1 "${ENC[@]}" ref/a.ko 2>/dev/null
	run -0 --separate-stderr "$SIGN_FILE" --agent --pin-file pin sha1 \
		"${ENC[@]}" -- "$SIGN_FILE" sha1 "${ENC[@]}" d/a.ko
	# the agent says them once for itself, the served run once more
	assert_equal "$stderr" "$direct
$direct"
	cmp d/a.ko ref/a.ko
}

@test "agent: a FIFO or device module is refused without being opened, as without it" {
	require_cmd strace strace
	fifo_for_reading fifo.ko
	mknod dev.ko c 1 3 2>/dev/null || ln -s /dev/null dev.ko
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	for m in fifo.ko dev.ko; do
		run -7 strace -f -e trace=open,openat -o trace \
			"$SIGN_FILE" --agent sha256 "${PEM[@]}" -- \
			"$SIGN_FILE" sha256 "${PEM[@]}" "$m"
		assert_output --partial "sign-file: $m: not a regular file"
		# by the client, or by the agent through /proc/self/fd
		! grep -F "$m\"" trace || fail "$m was opened"
	done
	fifo_release fifo.ko
}

@test "agent: what an agent killed by SIGKILL leaves is removed by the next agent; its clients sign themselves" {
	export TMPDIR="$W/tmp"
	mkdir "$TMPDIR"
	reference "${PEM[@]}"
	mkfifo ready
	"$SIGN_FILE" --agent sha256 "${PEM[@]}" -- sh -c \
		'echo "$$ $MODSIGN_AGENT" > ready; exec sleep 1000' &
	local pid=$! cmd sock
	fifo_line ready
	read -r cmd sock <<< "$REPLY"
	kill -KILL "$pid" "$cmd"
	wait "$pid" || true
	[ -S "$sock" ]
	# a stale socket: the run signs itself
	MODSIGN_AGENT=$sock run -0 "$SIGN_FILE" sha256 "${PEM[@]}" d/a.ko
	cmp d/a.ko ref/a.ko
	run -0 "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- true
	assert_equal "$(dir_listing "$TMPDIR")" ""
}

# A fake agent at $1 that accepts every client and never answers; with
# a second argument it holds that file's lock (flock) all along.  It says
# "ready" on the FIFO ready once it listens; FAKE_PID is its pid.
fake_agent() { # socket [file-to-lock]
	mkfifo ready
	background_bare python3 -c '
import fcntl, socket, sys
if len(sys.argv) > 2:
    held = open(sys.argv[2], "rb")
    fcntl.flock(held, fcntl.LOCK_EX)
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(sys.argv[1])
s.listen(16)
open("ready", "w").write("ready\n")
conns = []
while True:
    conns.append(s.accept()[0])
' "$@"
	FAKE_PID=$!
	fifo_line ready
}

@test "agent: an agent that never answers: after MODSIGN_AGENT_TIMEOUT the run says so and signs itself" {
	reference "${PEM[@]}"
	fake_agent "$W/hung"
	MODSIGN_AGENT=$W/hung MODSIGN_AGENT_TIMEOUT=0.2 run -0 --separate-stderr \
		"$SIGN_FILE" sha256 "${PEM[@]}" d/a.ko
	kill "$FAKE_PID"
	assert_equal "$stderr" "sign-file: warning: $W/hung: the signing agent did not answer within MODSIGN_AGENT_TIMEOUT: signing without it"
	cmp d/a.ko ref/a.ko
	assert_equal "$(dir_listing d)" "a.ko
b.ko
c.ko"
}

@test "agent: an agent that never answers and holds the module's lock: the run fails in one line, the module untouched" {
	cp d/b.ko orig.ko
	fake_agent "$W/hung" d/b.ko
	MODSIGN_AGENT=$W/hung MODSIGN_AGENT_TIMEOUT=0.2 run -7 --separate-stderr \
		"$SIGN_FILE" sha256 "${PEM[@]}" d/b.ko
	kill "$FAKE_PID"
	assert_equal "$stderr" "sign-file: d/b.ko: locked by the signing agent at $W/hung, which does not answer: stop it, or unset MODSIGN_AGENT"
	cmp d/b.ko orig.ko
	assert_equal "$(dir_listing d)" "a.ko
b.ko
c.ko"
}

# The real agent stopped inside a module (its lock held) past the client's
# timeout: the client gives up in one line; the agent, let go on, finds
# its client gone and leaves the module as it was.
@test "agent: a client that gave up is not signed for: the agent, resumed, leaves the module alone" {
	cp d/c.ko orig.ko
	mkfifo done
	cat > one.sh <<-EOF
	#!/bin/sh
	unset MODSIGN_TEST_PAUSE_AT MODSIGN_TEST_PAUSE_DIR
	MODSIGN_AGENT_TIMEOUT=0.2 "$SIGN_FILE" sha256 "${PEM[0]}" "${PEM[1]}" d/c.ko 2> client.err
	echo "\$?" > done
	EOF
	chmod +x one.sh
	pause_start output-begun "$SIGN_FILE" --agent sha256 "${PEM[@]}" \
		-- ./one.sh
	fifo_line done
	assert_equal "$REPLY" 7
	assert_equal "$(wc -l < client.err)" 1
	[[ $(cat client.err) == "sign-file: d/c.ko: locked by the signing agent at "*"/socket, which does not answer: stop it, or unset MODSIGN_AGENT" ]]
	pause_resume
	pause_wait
	assert_equal "$PAUSED_STATUS" 0
	cmp d/c.ko orig.ko
	assert_equal "$(dir_listing d)" "a.ko
b.ko
c.ko"
}
