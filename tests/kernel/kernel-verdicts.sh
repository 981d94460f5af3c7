#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-verdicts.sh [--update] [LINE...]        (make kernel-verdicts)
#
# Let real kernels decide the conformance corpus, and hold verify-file to
# what they decided.  For each LINE (default: every line of lib.sh's
# KH_LINES, 5.10 6.1 6.12 7.3):
#
#  1. build the LINE kernel trusting tests/fixtures/conformance/trusted.pem
#     and trusted-mldsa.pem, with that corpus's blacklist hash and
#     revocation certificate (kernel-needs.txt; build-kernel.sh adds them);
#  2. generate the corpus signed over the payload module built for that
#     kernel (vermagic must match), its ML-DSA cases (gen-mldsa-cases.sh:
#     the signatures need OpenSSL >= 3.5, and the k* cases the 7.3 kernel's
#     own sign-file built against it; both run under the command prefix
#     $MODSIGN_OSSL35_RUN, e.g. "chroot ROOT" for a Debian 13 root that sees
#     this tree at the same path; unset: this system if its openssl has
#     ML-DSA, else the Debian 13 root ossl35-root.sh makes and mounts in
#     $MODSIGN_OSSL35_ROOT, default /var/tmp/modsign-ossl35-root), plus the cases modsign itself makes
#     (modsign-cases.sh: our sign-file's signing paths and kbuild's
#     modules_install calling our sign-file) and the mutants
#     kernel-mutants.sh kept (mutant-corpus.py: conformance/mutants/);
#  3. boot once and judge every case (judge-cases.sh);
#  4. check the kernel against the committed expectations:
#       - tests/fixtures/conformance/expected.tsv, column errno_LINE, for the
#         corpus (the judge's underlying errno: what an unenforcing kernel
#         decides); with --update that column is rewritten (or added) from
#         the kernel instead, and the differences are listed;
#       - modsign-expected.tsv for the modsign cases (finit and judge);
#       - mutants/mutants.tsv, column errno_LINE, for the kept mutants
#         (--update rewrites it too);
#       - finit_module under enforcement must agree with the judge (ENODATA,
#         ENOPKG, ENOKEY fold into EKEYREJECTED), or the judge is wrong;
#  5. check that verify-file --vmlinux --list-keys reads out of the bzImage
#     exactly the keys the kernel logged loading at boot;
#  6. hold verify-file to the kernel's verdict on every case, twice: with
#     the corpus's files (-c trusted*.pem --blacklist --revoked) and with
#     nothing but the kernel image (--vmlinux bzImage), which must yield the
#     same keys, blacklist and revocation list the kernel booted with; both
#     with the kernel's own .config (--kernel-config: its crypto, the
#     ML-DSA waiver, its enforcement, whose folded verdict names the
#     judge's errno in brackets).  A verify-file built against OpenSSL <
#     3.5 must say CANNOT-CHECK (exit 10) exactly where it does not agree,
#     and only on ML-DSA cases; a second verify-file built under the
#     prefix above (build/ossl35) is then held to every verdict as well.
#     A line verify-file does not know yet (its --kernel refuses it) is
#     held to the kernel with the newest line verify-file knows, as a
#     stand-in; every disagreement is listed (verify.tsv, summary) and
#     fails the stage like any other: it is what verify-file still lacks.
#  7. list the cases on which consecutive lines decide differently
#     (LINE-vs-NEXT.tsv).
#
# Results: build/kernel-verdicts/LINE/ (cases, kernel.tsv, verify.tsv) and
# build/kernel-verdicts/summary.txt.  Exits non-zero on any disagreement.
set -euo pipefail
PROG=kernel-verdicts.sh
. "$(dirname "$0")/lib.sh"

update=0
lines=()
for a in "$@"; do
	case $a in
	--update) update=1 ;;
	-h | --help)
		sed -n '4,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		case " $KH_LINES " in
		*" $a "*) lines+=("$a") ;;
		*) die "unknown argument '$a' (usage: $PROG [--update] [LINE...], LINE: $KH_LINES)" ;;
		esac
		;;
	esac
done
# shellcheck disable=SC2206
[ ${#lines[@]} -gt 0 ] || lines=($KH_LINES)

CONF=$KH_TOP/tests/fixtures/conformance
EXPECTED=$CONF/expected.tsv
BIN=${MODSIGN_BIN:-$KH_TOP/build/bin}
VERIFY=$BIN/verify-file
[ -x "$VERIFY" ] && [ -x "$BIN/sign-file" ] || die "$BIN lacks the tools (run make first)"
OUTROOT=$KH_TOP/build/kernel-verdicts
mkdir -p "$OUTROOT"
# what every line's kernel trusts: the corpus's certificates, ML-DSA ones
# included (6.1 and 6.12 cannot load those: they log -ENOPKG and go on)
TRUST=$OUTROOT/trusted.pem
cat "$CONF/trusted.pem" "$CONF/trusted-mldsa.pem" >"$TRUST"
# OpenSSL >= 3.5 for the ML-DSA cases: this system, a prefix the caller
# gives, or a Debian 13 root made here (ossl35-root.sh).  The root is made
# in the background, beside the first kernel's build: debootstrap waits
# on the network and the disk, the build on the CPU, and the first use of
# OpenSSL 3.5 (the ML-DSA cases) comes after that build.
OSSL35_ROOT=""
OSSL35_PID=""
ossl35_stop() {
	# a root still being made is let finish: killing it would leave
	# debootstrap's children running into a root that is torn down
	[ -z "$OSSL35_PID" ] || wait "$OSSL35_PID" 2>/dev/null || true
	"$KH_DIR/ossl35-root.sh" down "$OSSL35_ROOT"
}
if [ -z "${MODSIGN_OSSL35_RUN+x}" ]; then
	if openssl list -signature-algorithms 2>/dev/null | grep -q ML-DSA-65; then
		MODSIGN_OSSL35_RUN=
	else
		kh_paths "${lines[0]}"
		# outside the tree and the kernel cache, which it sees
		OSSL35_ROOT=${MODSIGN_OSSL35_ROOT:-/var/tmp/modsign-ossl35-root}
		trap ossl35_stop EXIT
		trap 'exit 143' TERM
		trap 'exit 130' INT
		"$KH_DIR/ossl35-root.sh" up "$OSSL35_ROOT" "$KH_CACHE" \
			>"$OUTROOT/ossl35.run" 2>"$OUTROOT/ossl35.log" </dev/null &
		OSSL35_PID=$!
	fi
fi
# The root ready (waited for once), MODSIGN_OSSL35_RUN exported, and the
# verify-file that checks ML-DSA: this one if it can, else one built with
# the prefix's OpenSSL (and the sign-file that makes modsign's own ML-DSA
# cases: modsign-cases.sh).
VERIFY35=""
OSSL35_READY=0
mldsa_ok='ML-DSA( signatures)?: (checked|yes)'
ossl35_ready() {
	[ $OSSL35_READY -eq 0 ] || return 0
	if [ -n "$OSSL35_PID" ]; then
		local t rc=0
		t=$(now)
		wait "$OSSL35_PID" || rc=$?
		OSSL35_PID=
		cat "$OUTROOT/ossl35.log" >&2
		[ $rc -eq 0 ] || die "the Debian 13 root for OpenSSL 3.5 failed (exit $rc; above)"
		MODSIGN_OSSL35_RUN=$(cat "$OUTROOT/ossl35.run")
		note "OpenSSL 3.5 from a Debian 13 root ($MODSIGN_OSSL35_RUN): made beside the first build (its steps' times above), waited $(elapsed "$t")s for it"
	fi
	export MODSIGN_OSSL35_RUN
	if ! "$VERIFY" --version | grep -Eq "$mldsa_ok"; then
		# shellcheck disable=SC2086
		$MODSIGN_OSSL35_RUN make -s -C "$KH_TOP" BUILD=build/ossl35 \
			build/ossl35/bin/verify-file build/ossl35/bin/sign-file >&2 ||
			die "could not build verify-file with ${MODSIGN_OSSL35_RUN:-this system}'s OpenSSL"
		VERIFY35="$MODSIGN_OSSL35_RUN $KH_TOP/build/ossl35/bin/verify-file"
		$VERIFY35 --version | grep -Eq "$mldsa_ok" ||
			die "$KH_TOP/build/ossl35/bin/verify-file does not check ML-DSA either"
		export MODSIGN_SIGN35="$MODSIGN_OSSL35_RUN $KH_TOP/build/ossl35/bin/sign-file"
	fi
	OSSL35_READY=1
}
SUMMARY=$OUTROOT/summary.txt
: >"$SUMMARY"
fail=0
T0=$(now)

say() { echo "$*" | tee -a "$SUMMARY"; }

# Where the 7.3 kernel's scripts/sign-file.c is, for the k* cases: its tree
# when extracted, else the three files it needs out of its tarball (every
# line judges the same cases).
sign_file_src() {
	(
		kh_paths 7.3
		if [ -f "$KH_LINEDIR/.extracted" ]; then
			echo "$KH_TREE"
			exit 0
		fi
		"$KH_DIR/fetch-source.sh" 7.3 >/dev/null
		d=$OUTROOT/sign-file-7.3
		rm -rf "$d"
		mkdir -p "$d"
		tar -xJf "$KH_TARBALL" -C "$d" --strip-components=1 \
			linux-source-7.3/scripts/sign-file.c \
			linux-source-7.3/scripts/ssl-common.h \
			linux-source-7.3/tools/include/uapi/linux/module_signature.h
		echo "$d"
	)
}

# The --kernel verify-file is given for LINE: LINE itself if verify-file
# accepts it, else the newest line it accepts (printed with a "~" in front:
# a stand-in, not verify-file's own model of LINE).
vf_line() {
	local l cand=
	if "$VERIFY" --kernel "$1" -c "$TRUST" --list-keys >/dev/null 2>&1; then
		echo "$1"
		return
	fi
	for l in $KH_LINES; do
		"$VERIFY" --kernel "$l" -c "$TRUST" --list-keys >/dev/null 2>&1 &&
			cand=$l
	done
	[ -n "$cand" ] || die "verify-file accepts none of the lines $KH_LINES"
	echo "~$cand"
}

# A case<TAB>errno table into an associative array (ARRAY: a name
# reference, which shellcheck takes for unused).
# shellcheck disable=SC2034
load() { # ARRAY FILE
	local -n arr=$1
	local x y
	while IFS=$'\t' read -r x y; do
		arr[$x]=$y
	done <"$2"
}
# what the kernel and each verify-file said, per case (step e)
declare -A kern=() va=() vb=() vc=()

for line in "${lines[@]}"; do
	kh_paths "$line"
	dir=$OUTROOT/$line
	cases=$dir/cases
	t=$(now)
	"$KH_DIR/build-kernel.sh" "$line" "$TRUST" >/dev/null
	tb=$(elapsed "$t")
	ossl35_ready
	rm -rf "$dir"
	mkdir -p "$dir"
	payload=$("$KH_DIR/payload-path.sh" "$line")
	sh "$CONF/gen-cases.sh" --payload "$payload" --out "$cases" >"$dir/gen.log" 2>&1 ||
		{ cat "$dir/gen.log" >&2; die "$line: gen-cases.sh failed"; }
	[ -n "${SFSRC:-}" ] || SFSRC=$(sign_file_src)
	sh "$CONF/gen-mldsa-cases.sh" --payload "$payload" \
		--kernel-sign-file-src "$SFSRC" --out "$cases" >>"$dir/gen.log" 2>&1 ||
		{ cat "$dir/gen.log" >&2; die "$line: gen-mldsa-cases.sh failed"; }
	n_corpus=$(awk -F'\t' '!/^#/ && $1 != "case" && NF' "$cases/cases.tsv" | wc -l)
	n_mldsa=$(grep -c '^[dk][0-9]' "$cases/cases.tsv" || true)
	"$KH_DIR/modsign-cases.sh" "$line" "$cases"
	python3 "$KH_DIR/mutant-corpus.py" add "$cases"
	t=$(now)
	"$KH_DIR/judge-cases.sh" -c "$TRUST" "$line" "$cases" "$dir/kernel.tsv"
	tj=$(elapsed "$t")
	# (awk stops at the header itself: a reader that leaves a pipe
	# early would be a SIGPIPE under pipefail)
	col=$(awk -F'\t' -v l="errno_$line" \
		'$1 == "case" { for (i = 1; i <= NF; i++) if ($i == l) print i; exit }' \
		"$EXPECTED")
	newcol=0
	if [ -z "$col" ]; then
		newcol=1
		[ $update -eq 1 ] ||
			die "$EXPECTED has no errno_$line column (make kernel-verdicts-update adds it)"
		# a new line: an empty column at the end, filled below
		awk -F'\t' -v l="errno_$line" 'BEGIN { OFS = "\t" }
			$1 == "case" { $(NF + 1) = l } $1 !~ /^#/ && $1 != "case" { $(NF + 1) = "?" }
			{ print }' "$EXPECTED" >"$EXPECTED.tmp"
		mv "$EXPECTED.tmp" "$EXPECTED"
		col=$(awk -F'\t' '$1 == "case" { print NF; exit }' "$EXPECTED")
		say "$line: expected.tsv gained the column errno_$line"
	fi

	# kernel verdict per case: the judge's errno, or finit's for the
	# compressed modules the judge cannot read
	awk -F'\t' 'NR > 1 { print $1 "\t" ($3 == "n/a" ? $2 : $3) }' \
		"$dir/kernel.tsv" >"$dir/kernel-errno.tsv"

	# (a) enforcement folds the judge's errno as module_sig_check() does
	bad_fold=$(awk -F'\t' 'NR > 1 && $2 != "-" && $3 != "n/a" {
		want = ($3 == "ENODATA" || $3 == "ENOPKG" || $3 == "ENOKEY") ? "EKEYREJECTED" : $3
		# an accepted signature over no valid ELF: load_module() goes
		# on to elf_validity_check()
		if ($3 == "0" && $2 == "ENOEXEC") want = $2
		if ($2 != want) print $1 ": finit_module " $2 ", judge " $3
	}' "$dir/kernel.tsv")
	if [ -n "$bad_fold" ]; then
		say "$line: the judge disagrees with finit_module:"
		say "$bad_fold"
		fail=1
	fi

	# (b) modsign's own cases: exactly what modsign-expected.tsv says
	bad_m=$(awk -F'\t' -v line="$line" '
		FNR == NR { if ($1 !~ /^#/ && $1 != "case" && ($2 == "*" || $2 == line)) want[$1] = $3 "\t" $4; next }
		FNR > 1 && ($1 in want) { seen[$1] = 1
			if ($2 "\t" $3 != want[$1]) print $1 ": kernel " $2 "/" $3 ", expected " want[$1] }
		END { for (c in want) if (!(c in seen)) print c ": not judged" }' \
		"$KH_DIR/modsign-expected.tsv" "$dir/kernel.tsv" | tr '\t' '/')
	n_mod=$(grep -c '^m[0-9]' "$dir/kernel.tsv" || true)
	if [ -n "$bad_m" ]; then
		say "$line: modsign-made modules the kernel did not take as expected:"
		say "$bad_m"
		fail=1
	fi

	# (c) the corpus against expected.tsv (or rewrite it)
	diffs=$(awk -F'\t' -v col="$col" '
		FNR == NR { k[$1] = $2; next }
		$1 !~ /^#/ && $1 != "case" && ($1 in k) && $col != k[$1] {
			print $1 ": expected " $col ", kernel " k[$1] }
		$1 !~ /^#/ && $1 != "case" && !($1 in k) { print $1 ": not judged" }' \
		"$dir/kernel-errno.tsv" "$EXPECTED")
	if [ $update -eq 1 ]; then
		awk -F'\t' -v col="$col" 'BEGIN { OFS = "\t" }
			FNR == NR { k[$1] = $2; next }
			$1 !~ /^#/ && $1 != "case" && ($1 in k) { $col = k[$1] }
			{ print }' "$dir/kernel-errno.tsv" "$EXPECTED" >"$EXPECTED.tmp"
		mv "$EXPECTED.tmp" "$EXPECTED"
		[ -z "$diffs" ] || [ $newcol -eq 1 ] ||
			{ say "$line: expected.tsv rewritten from the kernel:"; say "$diffs"; }
	elif [ -n "$diffs" ]; then
		say "$line: the kernel decides differently from expected.tsv (make kernel-verdicts-update rewrites it):"
		say "$diffs"
		fail=1
	fi

	# (c2) the mutants kernel-mutants.sh kept, against their recorded verdicts
	if ! bad_k=$(python3 "$KH_DIR/mutant-corpus.py" check $([ $update -eq 0 ] || echo --update) \
		"$line" "$dir/kernel-errno.tsv"); then
		say "$line: kept mutants the kernel decides differently from mutants/mutants.tsv:"
		say "$bad_k"
		fail=1
	fi

	# (d) the keys: every "Loaded X.509 cert" line the kernel logged at
	# boot (built-in list and revocation list), and no other, must be what
	# verify-file --vmlinux --list-keys reads out of the same bzImage
	tr -d '\r' <"$dir/kernel.tsv.log" | awk -F'\t' '$1 == "MODSIGN-BOOT" &&
		$2 ~ /^Loaded X.509 cert / { print $2 }' | sort >"$dir/keys-kernel.txt"
	vline=$(vf_line "$line")
	if [ "${vline#\~}" != "$vline" ]; then
		say "$line: verify-file does not know --kernel $line yet: it is held to the $line kernel with --kernel ${vline#\~} (stand-in)"
	fi
	vline=${vline#\~}
	"$VERIFY" --kernel "$vline" --vmlinux "$KH_BZIMAGE" --list-keys 2>/dev/null |
		grep '^Loaded X.509 cert ' | sort >"$dir/keys-verify.txt" || true
	n_keys=$(wc -l <"$dir/keys-kernel.txt")
	if [ "$n_keys" -eq 0 ] || ! diff -u "$dir/keys-kernel.txt" "$dir/keys-verify.txt" >"$dir/keys.diff"; then
		say "$line: verify-file --vmlinux --list-keys differs from the keys the kernel loaded:"
		say "$(cat "$dir/keys.diff")"
		fail=1
	fi

	# (e) verify-file against the kernel, case by case, with the kernel's
	# own .config; the OpenSSL 3.0 build may say CANNOT-CHECK on ML-DSA
	# cases only, where the 3.5 build (VERIFY35) must agree instead.
	# verify-cases.py asks verify-file in a few runs (modules in one,
	# detached cases one per usage), not three runs a case: each run
	# reads the keys and decompresses the image once.
	kconf=(--kernel-config "$KH_TREE/.config")
	trust=(-c "$TRUST" --blacklist "$CONF/blacklist-hashes.txt" --revoked "$CONF/revoked.pem")
	vcases=(python3 "$KH_DIR/verify-cases.py" --cannot-check UNCHECKABLE)
	"${vcases[@]}" "$VERIFY" "$cases" --kernel "$vline" "${kconf[@]}" "${trust[@]}" \
		>"$dir/verify-files.tsv" || die "$line: verify-cases.py failed (-c)"
	"${vcases[@]}" "$VERIFY" "$cases" --kernel "$vline" "${kconf[@]}" --vmlinux "$KH_BZIMAGE" \
		>"$dir/verify-image.tsv" || die "$line: verify-cases.py failed (--vmlinux)"
	: >"$dir/verify-35.tsv"
	if [ -n "$VERIFY35" ]; then
		"${vcases[@]}" "$VERIFY35" "$cases" --kernel "$vline" "${kconf[@]}" "${trust[@]}" \
			>"$dir/verify-35.tsv" || die "$line: verify-cases.py failed (OpenSSL 3.5)"
	fi
	kern=() va=() vb=() vc=()
	load kern "$dir/kernel-errno.tsv"
	load va "$dir/verify-files.tsv"
	load vb "$dir/verify-image.tsv"
	load vc "$dir/verify-35.tsv"
	: >"$dir/verify.tsv"
	agree=0 agree_img=0 agree35=0 uncheck=0 total=0
	while IFS=$'\t' read -r id _; do
		case $id in '#'* | case | '') continue ;; esac
		k=${kern[$id]:-}
		a=${va[$id]:-}
		b=${vb[$id]:-}
		c=-
		if [ -n "$VERIFY35" ]; then
			c=${vc[$id]:-}
			[ "$c" = "$k" ] && agree35=$((agree35 + 1))
			[ "$c" = "$k" ] || { say "$line: $id: kernel ${k:-?}, verify-file (OpenSSL 3.5) --kernel $vline -c ${c:-?}"; fail=1; }
		fi
		total=$((total + 1))
		for v in a b; do
			[ "${!v}" = UNCHECKABLE ] || continue
			# only an ML-DSA case may depend on what OpenSSL 3.0 lacks
			case $id in
			d[0-9]* | k[0-9]* | *mldsa*) [ "$v" = b ] || uncheck=$((uncheck + 1)) ;;
			*) say "$line: $id: verify-file says CANNOT-CHECK on a case with no ML-DSA in it"; fail=1 ;;
			esac
			[ -n "$VERIFY35" ] ||
				{ say "$line: $id: verify-file says CANNOT-CHECK, and there is no verify-file that checks ML-DSA"; fail=1; }
			printf -v "$v" '%s' "$k"
		done
		[ "$a" = "$k" ] && agree=$((agree + 1))
		[ "$b" = "$k" ] && agree_img=$((agree_img + 1))
		printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$k" "${a:-?}" "${b:-?}" "${c:-?}" >>"$dir/verify.tsv"
		[ "$a" = "$k" ] || { say "$line: $id: kernel ${k:-?}, verify-file --kernel $vline -c ${a:-?}"; fail=1; }
		[ "$b" = "$k" ] || { say "$line: $id: kernel ${k:-?}, verify-file --kernel $vline --vmlinux ${b:-?}"; fail=1; }
	done <"$cases/cases.tsv"
	n35=
	[ -z "$VERIFY35" ] || n35=", the OpenSSL 3.5 build on $agree35/$total"
	n35="$n35 ($uncheck CANNOT-CHECK by this build's OpenSSL, all ML-DSA, counted as agreeing where the 3.5 build decides)"
	say "$line: $total cases judged by the kernel ($n_corpus corpus, $n_mldsa of them ML-DSA or 7.3 sign-file, + $n_mod modsign-made); verify-file --kernel $vline agrees on $agree/$total with the corpus's files, $agree_img/$total with --vmlinux alone$n35; --vmlinux --list-keys names the $n_keys keys the kernel loaded; kernel build ${tb}s, boot and judge ${tj}s"
done

# 7. consecutive lines judged in this run: where they differ
prev=
for line in $KH_LINES; do
	[ -f "$OUTROOT/$line/kernel-errno.tsv" ] && [[ " ${lines[*]} " == *" $line "* ]] || continue
	if [ -n "$prev" ]; then
		awk -F'\t' 'BEGIN { OFS = "\t" } FNR == NR { a[$1] = $2; next }
			($1 in a) && a[$1] != $2 { print $1, a[$1], $2 }' \
			"$OUTROOT/$prev/kernel-errno.tsv" "$OUTROOT/$line/kernel-errno.tsv" \
			>"$OUTROOT/$prev-vs-$line.tsv"
		say "$prev and $line decide differently on $(wc -l <"$OUTROOT/$prev-vs-$line.tsv") cases ($OUTROOT/$prev-vs-$line.tsv: case, $prev, $line)"
	fi
	prev=$line
done
say "kernel stage took $(elapsed "$T0")s"
[ $fail -eq 0 ] || die "disagreements above (details: $OUTROOT/LINE/)"
