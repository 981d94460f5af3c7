#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-layers.sh: fail when a file includes a header of a layer or wing
# it must not depend on, when src/common holds what one tool alone uses,
# or when a main grows (make check-layers, run by make check).
#
# src/common is the layer the three tools share.  Its rooms and what each
# may include (besides itself):
#
#   base     nothing: file I/O, logs, exit codes, formatting, digests,
#            workers, file lists
#   module   base: the module file and its trailer, compression, what a
#            signature holds
#   kernel   base, module: the model of the kernel's verifier, the part
#            that parses hostile bytes and must agree with a real kernel,
#            and the kernel's answer (module_sig_check())
#   trust    base, module, kernel: where keyrings are filled from
#   report   base, module, kernel, trust: verdicts and descriptions as
#            the tools print them (text and JSON)
#
# Each tool has a wing beside its main, src/TOOL/ (sign-file, verify-file,
# extract-sig): its command, its run, its words.  A wing and its main may
# include src/common and their own wing, never another tool's wing;
# src/common includes no wing (src/front/, sign-file's front end, is
# sign-file's).  A file stays in src/common only while two tools use it
# or another file of src/common does (its header is included from there);
# the tests under tests/ do not count.  ONE_TOOL below names the few
# kernel-model files that one tool alone asks for, and why they stay.
#
# The mains (src/*.c) stay thin: options, dispatch and exit codes, at most
# 400 lines and 4 project headers each, one of them their wing's own
# (TOOL/TOOL.h with - as _: "sign-file/sign_file.h").
# A quoted include must name its room ("kernel/x509.h"): a bare name is an
# error too, so the direction of every dependency can be read off the line.
set -eu
cd "$(dirname "$0")/../src"
MAIN_LINES=400
MAIN_INCLUDES=4
WINGS="sign-file verify-file extract-sig"
# room/file (without .h): the reason it is in src/common with one tool
# for user
ONE_TOOL="
kernel/judge_file	the kernel model's whole-file judgment (load_module()), which only verify-file asks for
kernel/waiver	a kernel line's ML-DSA signed-attributes rule (pkcs7_verify()), which only extract-sig prints
trust/keyrings	the machine's keyrings as the kernel fills them, which only verify-file judges by
"

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
	w=${m%.c}
	wh="$w/$(printf '%s' "$w" | tr - _).h"
	if ! grep -q "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$wh\"" "$m"; then
		echo "src/$m: does not include its wing's header \"$wh\"" >&2
		bad=1
	fi
done

# The wings (and sign-file's front end): common, and their own wing only.
for f in $(find $WINGS front -name '*.[ch]' | sort) $(ls *.c); do
	case $f in
	front/*) own=sign-file ;;
	*/*) own=${f%%/*} ;;
	*) own=${f%.c} ;;
	esac
	for w in $WINGS; do
		[ "$w" = "$own" ] && continue
		if grep -n "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$w/" "$f" >&2; then
			echo "src/$f: includes the $w wing (a wing includes only src/common and its own wing, $own)" >&2
			bad=1
		fi
	done
done

# Who uses a header of src/common: "common", or the tool whose main or
# wing includes it; one word a line.
users() {
	grep -rl --include='*.[ch]' "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$1\"" . |
	sed 's|^\./||' | grep -v "^common/${1%.h}\.[ch]\$" |
	while IFS= read -r u; do
		case $u in
		common/*) echo common ;;
		front/*) echo sign-file ;;
		*/*) echo "${u%%/*}" ;;
		*) echo "${u%.c}" ;;
		esac
	done | sort -u
}
# Every exported function defined under src/ (a mains' main aside) starts
# with the prefix HACKING.md's table gives its file: the longest prefix of
# the table it starts with (or equals, less the last "_") must list that
# file.  No static function wears a prefix of the table.
# Every struct, union, enum and typedef a header under src/ defines, and
# every enum constant and macro it defines (upper case, the prefix too),
# follows the same rule, the header standing for its .c file unless the
# table lists the header itself.  Exempt: include guards (MODSIGN_..._H)
# and kernel/asn1.h's grammar vocabulary, ASN1_VOCABULARY below.
ASN1_VOCABULARY="M M_ACT M_F ACT MAYBE_ACT END_SEQ END_SEQ_ACT END_OF OP"
awk -v vocab="$ASN1_VOCABULARY" '
BEGIN { n = split(vocab, w, " "); for (i = 1; i <= n; i++) exempt[w[i]] = 1 }
FNR == 1 && FILENAME ~ /HACKING\.md$/ { table = 1 }
FNR == 1 && FILENAME !~ /HACKING\.md$/ {
	table = 0; file = FILENAME; sub(/^\.\//, "", file)
	hdr = file ~ /\.h$/; incomment = 0; inenum = 0; intypedef = 0; depth = 0
	cfile = file; sub(/\.h$/, ".c", cfile)
}
table && /^prefix[[:space:]]+file\(s\)/ { intable = 1; next }
table && intable && /^```/ { intable = 0; next }
table && intable && NF { np++; pre[np] = $1; files[np] = " " substr($0, index($0, $2)) " "; next }
table { next }
function prefix_of(name,   i, best, bl, p, stem) {
	best = 0; bl = 0
	for (i = 1; i <= np; i++) {
		p = pre[i]
		if (name ~ /^[A-Z]/)
			p = toupper(p)
		stem = p; sub(/_$/, "", stem)
		if ((index(name, p) == 1 || name == stem) && length(p) > bl) {
			best = i; bl = length(p)
		}
	}
	return best
}
function lists(i, f,   d, n, k, w) {
	if (index(files[i], " " f " ")) return 1
	d = f; sub(/\/[^\/]*$/, "/*", d)
	return index(files[i], " " d " ") > 0
}
function fname(line,   n, w) {
	sub(/\(.*/, "", line)
	n = split(line, w, /[^A-Za-z0-9_]+/)
	return w[n]
}
# A name a header defines: kind (for the message) and name.
function hname(kind, name,   i) {
	if (name in exempt && file == "common/kernel/asn1.h")
		return
	i = prefix_of(name)
	if (!i) {
		printf "src/%s:%d: %s %s: no prefix of HACKING.md'"'"'s table\n", file, FNR, kind, name > "/dev/stderr"
		bad = 1
	} else if (!lists(i, file) && !lists(i, cfile)) {
		printf "src/%s:%d: %s %s: %s is the prefix of%s(HACKING.md), not of this header\n", file, FNR, kind, name, pre[i], files[i] > "/dev/stderr"
		bad = 1
	}
}
hdr {
	line = $0
	# comments out, even across lines
	if (incomment) {
		if (!sub(/^([^*]|\*+[^*\/])*\*+\//, "", line))
			next
		incomment = 0
	}
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", line)
	if (sub(/\/\*.*/, "", line))
		incomment = 1
	sub(/\/\/.*/, "", line)
	if (line ~ /^[[:space:]]*#[[:space:]]*define[[:space:]]/) {
		d = line; sub(/^[[:space:]]*#[[:space:]]*define[[:space:]]+/, "", d)
		name = d; sub(/[^A-Za-z0-9_].*/, "", name)
		rest = substr(d, length(name) + 1)
		if (name ~ /^MODSIGN_[A-Z0-9_]*_H$/ && rest ~ /^[[:space:]]*$/)
			next	# an include guard
		hname("macro", name)
		next
	}
	if (line ~ /^[[:space:]]*#/)
		next
	if (!depth && line ~ /^[[:space:]]*typedef[[:space:]]/) {
		intypedef = 1
		td = ""
	}
	if (intypedef)
		td = td " " line
	if (line ~ /(^|[^A-Za-z0-9_])(struct|union|enum)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\{/) {
		t = line; sub(/.*(^|[^A-Za-z0-9_])(struct|union|enum)[[:space:]]+/, "", t)
		k = line; sub(/[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\{.*/, "", k); sub(/.*[^a-z]/, "", k)
		sub(/[^A-Za-z0-9_].*/, "", t)
		hname(k, t)
	}
	if (!depth && line ~ /(^|[^A-Za-z0-9_])enum([[:space:]]+[A-Za-z_][A-Za-z0-9_]*)?[[:space:]]*\{/) {
		inenum = 1
		body = line
		sub(/.*\{/, "", body)
	} else if (inenum)
		body = line
	else
		body = ""
	if (inenum) {
		if (sub(/\}.*/, "", body))
			inenum = 2
		n = split(body, parts, ",")
		for (j = 1; j <= n; j++) {
			c = parts[j]; sub(/^[[:space:]]+/, "", c)
			if (c !~ /^[A-Za-z_]/)
				continue
			sub(/[^A-Za-z0-9_].*/, "", c)
			hname("constant", c)
		}
		if (inenum == 2)
			inenum = 0
	}
	o = line; gsub(/[^{]/, "", o); cl = line; gsub(/[^}]/, "", cl)
	depth += length(o) - length(cl)
	if (intypedef && !depth && line ~ /;/) {
		t = td
		while (gsub(/\{[^{}]*\}/, " ", t))
			;	# the body of a struct or enum: members, not the name
		if (t ~ /\([[:space:]]*\*[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\)/) {
			sub(/^[^(]*\([[:space:]]*\*[[:space:]]*/, "", t); sub(/[^A-Za-z0-9_].*/, "", t)
		} else {
			sub(/[[:space:]]*(\[[^]]*\])?[[:space:]]*;.*/, "", t); sub(/.*[^A-Za-z0-9_]/, "", t)
		}
		hname("typedef", t)
		intypedef = 0
	}
	next
}
/^static[^=;]*\(/ && !/^static[^(]*=/ {
	name = fname($0)
	if (name ~ /^[a-z_][a-z0-9_]*$/ && (i = prefix_of(name))) {
		printf "src/%s:%d: static %s wears %s, the prefix of%s(HACKING.md)\n", file, FNR, name, pre[i], files[i] > "/dev/stderr"
		bad = 1
	}
	next
}
/^[A-Za-z_]/ && !/^(static|typedef|extern|#)/ && !/^(struct|enum|union)( [A-Za-z0-9_]+)? *\{/ && /\(/ && !/;[[:space:]]*$/ && !/^[a-z_]+:/ {
	name = fname($0)
	if (name !~ /^[a-z_][a-z0-9_]*$/ || name == "main")
		next
	i = prefix_of(name)
	if (!i) {
		printf "src/%s:%d: %s: no prefix of HACKING.md'"'"'s table\n", file, FNR, name > "/dev/stderr"
		bad = 1
	} else if (!lists(i, file)) {
		printf "src/%s:%d: %s: %s is the prefix of%s(HACKING.md), not of this file\n", file, FNR, name, pre[i], files[i] > "/dev/stderr"
		bad = 1
	}
}
END { exit bad }
' ../HACKING.md $(find . -name '*.c' ! -path './front/*' | grep / | grep -v '^\./[^/]*\.c$' | sort) \
	$(find . -name '*.h' | sort) || bad=1

for h in $(cd common && find . -name '*.h' | sed 's|^\./||' | sort); do
	u=$(users "$h")
	case " $(echo $u) " in
	*" common "*) continue ;;
	esac
	[ "$(echo "$u" | grep -c .)" -ge 2 ] && continue
	printf '%s\n' "$ONE_TOOL" | grep -q "^${h%.h}	" && continue
	echo "src/common/${h%.h}: used by ${u:-nothing} alone; move it to that tool's wing (src/$u/)" >&2
	bad=1
done
cd common

allowed() {
	case $1 in
	base) echo "base" ;;
	module) echo "base module" ;;
	kernel) echo "base module kernel" ;;
	trust) echo "base module kernel trust" ;;
	report) echo "base module kernel trust report" ;;
	*) echo "" ;;
	esac
}

for f in $(find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	layer=${f%%/*}
	ok=$(allowed "$layer")
	if [ -z "$ok" ]; then
		echo "src/common/$f: not inside a layer folder (base module kernel trust report)" >&2
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
[ $bad = 0 ] && echo "check-layers: the mains are thin, each wing keeps to itself and src/common keeps its layering"
exit $bad
