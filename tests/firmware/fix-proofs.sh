#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fix-proofs.sh [BINDIR]
#
# make firmware-fixes, after firmware-verdicts.sh: every fix verify-file
# --machine names for a module a booted machine refused or loaded tainted,
# applied to that machine and proven by a second boot.
#
# For each such KERNEL/MACHINE/CASE of build/firmware-verdicts/verdicts.tsv
# it lays out the machine's root (boot-lib.sh: fw_sysroot) with the
# certificate the case was signed with where dkms keeps its key
# (/var/lib/dkms/mok.pub, DER: a DKMS user's machine), asks verify-file
# --machine --sysroot for the fix, and turns the fix into what it does to
# the machine's variable store, exactly as the command it prints:
#   mokutil --import FILE        FILE's certificate appended to MokList
#                                (what MokManager does at the next boot)
#   mokutil --trust-mok          MokListTrusted gone (MokManager again)
#   mokutil --enable-validation  MokSBState gone
#   secure-boot-off, no command  the firmware's SecureBootEnable on
# The fixed store is booted (once for every fix that gives the same
# store; a store equal to one of the stage's machines is that machine's
# boot), and the case must load verified there: finit_module 0 without
# the E taint, and verify-file --machine --sysroot on the second
# machine's root must say OK.  Fixes that change the module instead (sign,
# revoked, changed-after-signing, unsupported-algorithm) are listed, not
# booted.  Every firmware fix kind must be proven at least once.
#
# Results: build/firmware-verdicts/fixes.tsv (kernel, machine, case,
# kind, command, proof, verdict after).  Exit 1 on any fix that did not
# make its module load.
set -euo pipefail
PROG=fix-proofs.sh
FW_DIR=$(cd "$(dirname "$0")" && pwd)
. "$FW_DIR/../kernel/lib.sh"
. "$FW_DIR/boot-lib.sh"
BIN=${1:-$KH_TOP/build/bin}
VF=$BIN/verify-file
[ -x "$VF" ] || die "$VF missing (make)"
command -v jq >/dev/null || die "jq missing (scripts/install-deps.sh test)"
fw_globals
[ -f "$OUT/verdicts.tsv" ] || die "$OUT/verdicts.tsv missing: run firmware-verdicts.sh first"
T0=$(now)
FIXES=$OUT/fixes
rm -rf "$FIXES"
mkdir -p "$FIXES"

# The certificate each case was signed with (firmware-verdicts.sh's
# sign_case), or nothing.
case_cert() { # CASE
	case $1 in
	builtin) echo "$KKEYS/trusted-cert.pem" ;;
	unknown) echo "$KKEYS/untrusted-cert.pem" ;;
	mok | mokx | dbx | db) echo "$KEYS/$1-cert.pem" ;;
	esac
}

# The fw-vars.py options of a stage machine.
machine_opts() { # MACHINE
	local spec
	for spec in "${MACHINES[@]}"; do
		[ "${spec%%:*}" != "$1" ] || { echo "${spec#*:}"; return 0; }
	done
	die "$1: not a machine of boot-lib.sh"
}

# opts without one option word
without() { # OPTS WORD
	local o out=
	for o in $1; do
		[ "$o" = "$2" ] || out="$out $o"
	done
	echo "${out# }"
}

# fw-vars.py options in one spelling: single spaces, no empty words
normal() { # OPTS
	tr ' ' '\n' <<<"$1" | sed '/^$/d' | paste -sd' '
}

# The store a fix makes of a machine's: its fw-vars.py options, or
# nothing (exit 1) when the fix does not change firmware state.  An
# enrolment whose words say what else it takes (Secure Boot turned on,
# mokutil --trust-mok) gets that too.
fixed_opts() { # OPTS KIND COMMAND ROOT WHY
	local opts=$1 kind=$2 cmd=$3 root=$4 why=$5 words
	mapfile -t words < <(python3 -c 'import shlex, sys
print("\n".join(shlex.split(sys.argv[1])))' "$cmd")
	case "${words[0]:-} ${words[1]:-}" in
	"mokutil --import")
		[ ${#words[@]} -eq 3 ] || return 1
		case $why in
		*"Secure Boot is off, so the kernel loads no MOK key until it is turned on"*)
			opts=$(without "$(without "$opts" --sb-off)" --mok-sb-off) ;;
		*"run mokutil --trust-mok too"*)
			opts=$(without "$opts" --untrust-mok) ;;
		esac
		echo "$opts --mok-add $root${words[2]}" ;;
	"mokutil --trust-mok")
		[[ " $opts " == *" --untrust-mok "* ]] || return 1
		without "$opts" --untrust-mok ;;
	"mokutil --enable-validation")
		[[ " $opts " == *" --mok-sb-off "* ]] || return 1
		without "$opts" --mok-sb-off ;;
	" ")
		# no command: only Secure Boot's own switch is a firmware fix
		[ "$kind" = secure-boot-off ] && [[ " $opts " == *" --sb-off "* ]] ||
			return 1
		without "$opts" --sb-off ;;
	*) return 1 ;;
	esac
}

# 1. The fixes verify-file names, and the stores they make.  First every
# refused or tainted case's root and verify-file's answer on it
# ($FIXES/K.M.C.json), as many at once as there are CPUs: each reads and
# decompresses the kernel image, most of the stage's time outside the
# boots.
ask_fix() { # KERNEL MACHINE CASE
	local k=$1 m=$2 c=$3 root=$FIXES/$1.$2.$3.root cert
	fw_sysroot "$k" "$m" "$root"
	cert=$(case_cert "$c")
	if [ -n "$cert" ]; then
		mkdir -p "$root/var/lib/dkms"
		openssl x509 -in "$cert" -outform DER -out "$root/var/lib/dkms/mok.pub"
	fi
	"$VF" --machine --sysroot "$root" --json "$(fw_cases "$k")/$c.ko" \
		2>"$FIXES/$k.$m.$c.stderr" | head -n 1 >"$FIXES/$k.$m.$c.json" || true
}
max=${MODSIGN_FW_BOOTS:-$(nproc)}
while IFS=$'\t' read -r k m c r taint; do
	[ "$k" != kernel ] || continue
	[ "$r" != 0 ] || [[ "$taint" == *E* ]] || continue
	fw_slot "$max"
	ask_fix "$k" "$m" "$c" </dev/null &
done <"$OUT/verdicts.tsv"
wait

declare -A store_of=()	# normalised options -> boot name
nboots=0
printf 'kernel\tmachine\tcase\tkind\tcommand\tstore\n' >"$FIXES/wanted.tsv"
while IFS=$'\t' read -r k m c r taint; do
	[ "$k" != kernel ] || continue
	[ "$r" != 0 ] || [[ "$taint" == *E* ]] || continue
	root=$FIXES/$k.$m.$c.root
	json=$(cat "$FIXES/$k.$m.$c.json" 2>/dev/null) || json=
	kind=$(jq -r '.fix.kind // "none"' <<<"$json" 2>/dev/null) || kind=error
	cmd=$(jq -r '.fix.command // ""' <<<"$json" 2>/dev/null) || cmd=
	why=$(jq -r '.fix.why // ""' <<<"$json" 2>/dev/null) || why=
	opts=$(machine_opts "$m")
	if new=$(fixed_opts "$opts" "$kind" "$cmd" "$root" "$why"); then
		norm=$(normal "$new")
		if [ -z "${store_of[$k $norm]:-}" ]; then
			store_of[$k $norm]=-
			# a store equal to a stage machine's: that machine's
			# boot, where this kernel was booted on it
			for spec in "${MACHINES[@]}"; do
				[ "$(normal "${spec#*:}")" != "$norm" ] ||
					! fw_boots_on "$k" "${spec%%:*}" ||
					store_of[$k $norm]=${spec%%:*}
			done
			if [ "${store_of[$k $norm]}" = - ]; then
				nboots=$((nboots + 1))
				store_of[$k $norm]=fix-$nboots
				printf '%s\t%s\t%s\n' "$k" "fix-$nboots" "$new" >>"$FIXES/boots.tsv"
			fi
		fi
		store=${store_of[$k $norm]}
	else
		store=-
	fi
	# "-" for no command: read splits on tabs as whitespace, and an
	# empty field would shift the next into its place
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$m" "$c" "$kind" "${cmd:--}" "$store" >>"$FIXES/wanted.tsv"
done <"$OUT/verdicts.tsv"

# 2. The second boots.
failed=0
if [ -f "$FIXES/boots.tsv" ]; then
	fw_boot_many "$FIXES/boots.tsv"
	while IFS=$'\t' read -r k name _; do
		fw_booted "$k" "$name" || failed=$((failed + 1))
	done <"$FIXES/boots.tsv"
fi

# 3. Each fix against its second boot.
proven=0 unproven=0 module_fixes=0
declare -A kinds=()
printf 'kernel\tmachine\tcase\tkind\tcommand\tproof\tafter\n' >"$OUT/fixes.tsv"
while IFS=$'\t' read -r k m c kind cmd store; do
	[ "$k" != kernel ] || continue
	[ "$cmd" != - ] || cmd=
	if [ "$store" = - ]; then
		case $kind in
		none | error)
			proof="no fix" ;;
		*)
			proof="changes the module: not booted"
			module_fixes=$((module_fixes + 1)) ;;
		esac
		printf '%s\t%s\t%s\t%s\t%s\t%s\t-\n' "$k" "$m" "$c" "$kind" "$cmd" "$proof" >>"$OUT/fixes.tsv"
		continue
	fi
	after=$(awk -F'\t' -v c="$c" '$3 == c { print $4 " " $5 }' "$OUT/$k/$store.tsv" 2>/dev/null)
	root=$FIXES/$k.$store.after
	[ -d "$root" ] || fw_sysroot "$k" "$store" "$root"
	vv=$("$VF" --machine --sysroot "$root" --json "$(fw_cases "$k")/$c.ko" 2>/dev/null |
		jq -r '.verdict' 2>/dev/null) || vv=error
	case $after in
	"0 "*E*) ok=0 ;;
	"0 "*) ok=1 ;;
	*) ok=0 ;;
	esac
	[ "$vv" = OK ] || ok=0
	if [ $ok = 1 ]; then
		proof="proven by $store"
		proven=$((proven + 1))
		kinds[$kind]=1
	else
		proof="NOT PROVEN by $store"
		unproven=$((unproven + 1))
		echo "UNPROVEN $k/$m/$c: $kind (${cmd:-no command}): on $store the kernel says ${after:-nothing}, verify-file --machine $vv" >&2
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s, verify-file %s\n' "$k" "$m" "$c" "$kind" \
		"$cmd" "$proof" "${after:-none}" "$vv" >>"$OUT/fixes.tsv"
done <"$FIXES/wanted.tsv"

# Every kind that changes firmware state, proven at least once: a stage
# whose machines no longer give one has lost its proof.
missing=
for kind in enrol-mok trust-mok secure-boot-off db-key; do
	[ -n "${kinds[$kind]:-}" ] || missing="$missing $kind"
done
[ -z "$missing" ] || echo "fix-proofs: never proven by a second boot:$missing" >&2
note "total $(elapsed "$T0")s, $nboots second boots"
echo "fix-proofs: $proven proven, $unproven not proven, $failed boots failed, $module_fixes module fixes not booted (table: $OUT/fixes.tsv)"
[ "$unproven" -eq 0 ] && [ "$failed" -eq 0 ] && [ -z "$missing" ]
