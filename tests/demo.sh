#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make demo: a throwaway key, a sample module signed with it, what
# extract-sig says about it, and (where verify-file is built) the verdict
# on it and on a tampered copy.  Everything lives in a temporary directory
# that is removed at the end.
set -eu
bin=$1
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# Commands in bold on a terminal only: a log or a pipe gets no escapes.
bold='' plain=''
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then
	bold=$(printf '\033[1m') plain=$(printf '\033[0m')
fi
step() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }

echo "== modsign demo in $tmp"
echo "making a throwaway RSA-2048 key and certificate"
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 \
	-subj "/CN=modsign demo key" -keyout demo.key -out demo.crt 2>/dev/null
"$top/tests/fixtures/make-module.sh" hello.ko hello
mkdir certs && cp demo.crt certs/
step "$bin/sign-file" sha256 demo.key demo.crt hello.ko
step "$bin/extract-sig" -c demo.crt hello.ko
step "$bin/extract-sig" --modinfo hello.ko
if [ -x "$bin/verify-file" ]; then
	step "$bin/verify-file" -k certs hello.ko
	cp hello.ko tampered.ko
	# flip one byte of the body
	printf 'X' | dd of=tampered.ko bs=1 seek=100 conv=notrunc 2>/dev/null
	step "$bin/verify-file" -k certs tampered.ko || echo "(exit $?: rejected, as the kernel would)"
fi
echo
echo "== demo done"
