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

# The kernel's own sign-file from the platform's linux-kbuild package
# (linux-kbuild-6.1 on Debian 12, linux-kbuild-6.12.* on Debian 13),
# fetched by tests/fixtures/get-reference.sh (run by make check).
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

# What the suite needs is installed by `make check` (scripts/install-deps.sh
# test, tests/fixtures/get-reference.sh): a missing one is a failure that
# names what to install, never a skip that would hide it.
need_reference() {
	[ -x "$REF_SIGN_FILE" ] ||
		fail "reference sign-file missing: run tests/fixtures/get-reference.sh"
}

need_cmd() { # command debian-package
	command -v "$1" > /dev/null ||
		fail "$1 missing: install Debian package $2 (scripts/install-deps.sh test)"
}

need_file() { # path debian-package
	[ -e "$1" ] ||
		fail "$1 missing: install Debian package $2 (scripts/install-deps.sh test)"
}

# The same bytes as make_module, built a whole array at a time: for the
# multi-megabyte modules (64 MiB takes seconds instead of tens of seconds).
make_large_module() { # path size
	python3 -c 'import sys, array
n=int(sys.argv[2])
a=array.array("I", range((n+3)//4))
if sys.byteorder != "little":
    a.byteswap()
open(sys.argv[1],"wb").write(a.tobytes()[:n])' "$1" "$2"
}

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
