#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Which flushes each way of signing pays (sign-file/durability.h), counted with
# strace: a single run flushes the new file before its rename only where
# the file system would not order the two itself, and never a directory;
# the agent flushes each file system once when it ends.  Each case runs on
# the scratch directory, on one beside the source tree (often another
# file system: /tmp may be tmpfs) and on /dev/shm where it is a tmpfs, with
# the expectation of that file system.

load helpers
bats_require_minimum_version 1.5.0

PEM=("$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	require_cmd strace strace
	require_cmd findmnt util-linux
	# LeakSanitizer cannot run under ptrace: off for an ASan build
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	mkdir -p "$TOP/build"
	DISK=$(mktemp -d "$TOP/build/durability.XXXXXX")
	DIRS=("$W" "$DISK")
	# and a tmpfs where there is one
	SHM=
	if [ "$(findmnt -n -o FSTYPE -T /dev/shm 2>/dev/null | tail -n 1)" = tmpfs ] &&
	   SHM=$(mktemp -d /dev/shm/modsign-durability.XXXXXX 2>/dev/null); then
		DIRS+=("$SHM")
	fi
	unset MODSIGN_AGENT
}

teardown() {
	[ -z "${DISK:-}" ] || rm -rf "$DISK"
	[ -z "${SHM:-}" ] || rm -rf "$SHM"
}

# What the file system holding dir is, for the flushes: "volatile"
# (tmpfs, ramfs: nothing survives a power loss), "ordered" (ext4 in its
# default data=ordered mode with auto_da_alloc: a rename over a file is
# committed after the new file's data), else "other".
fs_kind() { # dir
	local t o
	# the last line: where two file systems are mounted on one point
	# (a tmpfs mounted over /dev/shm again), findmnt lists both, and the
	# one mounted last is the one the path is on
	t=$(findmnt -n -o FSTYPE -T "$1" | tail -n 1)
	o=$(findmnt -n -o FS-OPTIONS -T "$1" | tail -n 1)
	case $t in
	tmpfs | ramfs) echo volatile ;;
	ext4)
		case ",$o," in
		*,noauto_da_alloc,* | *,data=writeback,*) echo other ;;
		*) echo ordered ;;
		esac
		;;
	*) echo other ;;
	esac
}

# The flush calls of a traced run, one a line ("fsync", "syncfs"...), in
# order, with "rename" where the output was renamed.
flushes() { # trace
	sed -n 's/^[0-9]* *\(fsync\|fdatasync\|syncfs\|rename\|renameat2\)(.*/\1/p' "$1"
}

# The fsyncs of the directory dir (strace -y names a descriptor's path).
dir_flushes() { # trace dir
	grep -cE "(fsync|fdatasync)\([0-9]+<$2>\)" "$1" || true
}

# sign-file ARGS... under strace, its flushes and renames into trace.
traced_sign() { # trace args...
	local trace=$1
	shift
	strace -f -qq -y -e trace=fsync,fdatasync,syncfs,rename,renameat2 \
		-o "$trace" "$SIGN_FILE" "$@"
}

# What committing one signed file into dir flushes: only the rename where
# dir's file system kind is one of kinds, else an fsync before it.
want_flushes() { # dir kinds
	case " $2 " in
	*" $(fs_kind "$1") "*) echo rename ;;
	*) printf 'fsync\nrename\n' ;;
	esac
}

@test "durability: a single run in place flushes no directory, and the file only where the file system needs it" {
	for d in "${DIRS[@]}"; do
		make_module "$d/m.ko" 200000
		traced_sign "$d/trace" sha256 "${PEM[@]}" "$d/m.ko"
		ends_with_sig_magic "$d/m.ko"
		assert_equal "$(dir_flushes "$d/trace" "$d")" 0
		assert_equal "$(flushes "$d/trace")" \
			"$(want_flushes "$d" "volatile ordered")"
	done
}

@test "durability: a new destination is flushed before its rename wherever a power loss could empty it" {
	for d in "${DIRS[@]}"; do
		make_module "$d/m.ko" 200000
		traced_sign "$d/trace" sha256 "${PEM[@]}" "$d/m.ko" "$d/out.ko"
		ends_with_sig_magic "$d/out.ko"
		assert_equal "$(dir_flushes "$d/trace" "$d")" 0
		assert_equal "$(flushes "$d/trace")" \
			"$(want_flushes "$d" volatile)"
	done
}

@test "durability: a detached .p7s beside the module is flushed like a new file" {
	for d in "${DIRS[@]}"; do
		make_module "$d/m.ko" 20000
		traced_sign "$d/trace" -d sha256 "${PEM[@]}" "$d/m.ko"
		assert_file_exists "$d/m.ko.p7s"
		assert_equal "$(flushes "$d/trace")" \
			"$(want_flushes "$d" volatile)"
	done
}

@test "durability: under the agent, the per-file flushes of a single run and one syncfs a file system at the end" {
	for d in "${DIRS[@]}"; do
		mkdir "$d/mods"
		for i in 1 2 3; do make_module "$d/mods/m$i.ko" 30000; done
		strace -f -qq -y -e trace=fsync,fdatasync,syncfs \
			-o "$d/trace" "$SIGN_FILE" --agent sha256 "${PEM[@]}" -- \
			sh -c "for f in '$d'/mods/*.ko; do '$SIGN_FILE' sha256 '${PEM[0]}' '${PEM[1]}' \"\$f\" || exit 1; done"
		for i in 1 2 3; do ends_with_sig_magic "$d/mods/m$i.ko"; done
		assert_equal "$(dir_flushes "$d/trace" "$d/mods")" 0
		case $(fs_kind "$d") in
		volatile | ordered) want=syncfs ;;
		*) want=$'fsync\nfsync\nfsync\nsyncfs' ;;
		esac
		assert_equal "$(flushes "$d/trace")" "$want"
	done
}
