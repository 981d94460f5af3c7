#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-layers.sh: fail when a file in src/common includes a header of a
# layer it must not depend on (make check-layers, run by make check).
#
# The layers and what each may include (besides itself):
#
#   base     nothing: file I/O, logs, exit codes, formatting, digests,
#            workers, file lists
#   module   base: the module file and its trailer, compression, modinfo,
#            describing a signature
#   kernel   base, module: the model of the kernel's verifier, the part
#            that parses hostile bytes and must agree with a real kernel
#   trust    base, module, kernel: where keyrings are filled from
#   report   base, module, kernel, trust: verdicts and descriptions as
#            the tools print them (text and JSON)
#   sign     base, module, kernel: the OpenSSL signing stack; it calls the
#            kernel model to check what it is about to attach, never the
#            reverse
#
# The tools' mains (src/*.c) may include any layer, but stay thin: options,
# dispatch and exit codes, at most 400 lines and 6 project
# headers each, so that the work lives where all three tools share it.
# A quoted include must name its layer ("kernel/x509.h"): a bare name is an
# error too, so the direction of every dependency can be read off the line.
set -eu
cd "$(dirname "$0")/../src"
MAIN_LINES=400
MAIN_INCLUDES=6

bad=0
for m in *.c; do
	n=$(wc -l < "$m")
	if [ "$n" -gt $MAIN_LINES ]; then
		echo "src/$m: $n lines; a main holds options, dispatch and exit codes (at most $MAIN_LINES)" >&2
		bad=1
	fi
	n=$(grep -c '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$m" || true)
	if [ "$n" -gt $MAIN_INCLUDES ]; then
		echo "src/$m: includes $n project headers (at most $MAIN_INCLUDES)" >&2
		bad=1
	fi
done
cd common

allowed() {
	case $1 in
	base) echo "base" ;;
	module) echo "base module" ;;
	kernel) echo "base module kernel" ;;
	trust) echo "base module kernel trust" ;;
	report) echo "base module kernel trust report" ;;
	sign) echo "base module kernel sign" ;;
	*) echo "" ;;
	esac
}

for f in $(find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	layer=${f%%/*}
	ok=$(allowed "$layer")
	if [ -z "$ok" ]; then
		echo "src/common/$f: not inside a layer folder (base module kernel trust report sign)" >&2
		bad=1
		continue
	fi
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	while IFS= read -r line; do
		n=${line%%:*}
		inc=$(printf '%s\n' "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
		case $inc in
		*/*) to=${inc%%/*} ;;
		*)
			echo "src/common/$f:$n: \"$inc\" does not name its layer" >&2
			echo x
			continue
			;;
		esac
		case " $ok " in
		*" $to "*) ;;
		*)
			echo "src/common/$f:$n: $layer may not include $inc ($layer may include: $ok)" >&2
			echo x
			;;
		esac
	done | grep -q x && bad=1
done
[ $bad = 0 ] && echo "check-layers: the mains are thin and src/common keeps its layering"
exit $bad
