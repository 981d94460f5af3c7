#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The man pages as man shows them: help2man makes them from --help and
# man/*.h2m (the Makefile's rule, repeated here so that the test reads the
# binaries under test), and what roff does with that text is checked: every
# usage form in SYNOPSIS, no line eaten as a roff request, no option run
# into its description, no page that sends the reader to itself.

load helpers
bats_require_minimum_version 1.5.0

TOOLS=(sign-file verify-file extract-sig)

setup_file() {
	require_cmd help2man help2man
	require_cmd man man-db
	require_cmd groff groff-base
	for t in "${TOOLS[@]}"; do
		help2man --no-info --no-discard-stderr --version-string=0.0 \
			--include="$TOP/man/$t.h2m" \
			--include="$TOP/man/common.h2m" \
			-o "$BATS_FILE_TMPDIR/$t.1" "$BIN/$t"
	done
}

# The page as man prints it, wide enough that no line is broken.
render() { # tool
	MANWIDTH=1000 man -P cat -l "$BATS_FILE_TMPDIR/$1.1"
}

@test "SYNOPSIS shows every usage form of --help, and DESCRIPTION none" {
	for t in "${TOOLS[@]}"; do
		# the forms: "Usage: t ..." and "   or: t ...", spaces squeezed
		mapfile -t forms < <("$BIN/$t" --help |
			sed -nE 's/^(Usage| +or):  *//p' | tr -s ' ')
		[ "${#forms[@]}" -ge 2 ]
		run -0 render "$t"
		mapfile -t synopsis < <(sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' <<< "$output" |
			sed -nE 's/^ +//p' | tr -s ' ')
		assert_equal "${#synopsis[@]}" "${#forms[@]}"
		for i in "${!forms[@]}"; do
			assert_equal "${synopsis[$i]}" "${forms[$i]}"
		done
		# no usage form left behind in DESCRIPTION
		desc=$(sed -n '/^DESCRIPTION$/,/^[A-Z]/p' <<< "$output")
		run grep -E "^ +$t (-|\\[)" <<< "$desc"
		assert_failure 1
	done
}

@test "no line of a man page is lost as a roff request" {
	for t in "${TOOLS[@]}"; do
		# groff warns of every line taken as an unknown request or macro
		run -0 --separate-stderr groff -man -Tutf8 -ww -z "$BATS_FILE_TMPDIR/$t.1"
		assert_equal "$stderr" ""
	done
	# the sentence that lost its ".p7s" line
	run -0 render verify-file
	assert_output --partial "to a module's appended signature, or to a detached signature (a .p7s file), against a trusted keyring"
}

@test "every option's name stands alone above its description" {
	for t in "${TOOLS[@]}"; do
		# each .TP tag that is an option: option names and upper-case
		# argument words only, nothing of the description
		run python3 - "$BATS_FILE_TMPDIR/$t.1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
bad = []
for i, l in enumerate(lines[:-1]):
    tag = lines[i + 1]
    if l != ".TP" or not tag.startswith("\\fB\\-"):
        continue
    text = re.sub(r"\\f[BIRP]|\\/|\\,", "", tag).replace("\\-", "-")
    words = re.sub(r"--?[A-Za-z0-9][A-Za-z0-9-]*(\[=[A-Z]+\])?,?", "", text)
    words = re.sub(r"\b[A-Z][A-Z0-9_]*(\.[a-z0-9]+)?\b", "", words)
    if not re.fullmatch(r"[ ,|<>\[\]=.-]*", words):
        bad.append(text)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
		assert_success
		assert_output ""
	done
	# the three that ran together
	run -0 render sign-file
	assert_line --regexp '^ +--pin-file FILE$'
	assert_line --regexp '^ +--provider NAME$'
	run -0 render verify-file
	assert_line --regexp '^ +--kernel-tree DIR$'
}

@test "SEE ALSO names the other pages, never the page itself" {
	for t in "${TOOLS[@]}"; do
		run -0 render "$t"
		see=$(sed -n '/^SEE ALSO$/,/^[A-Z]/p' <<< "$output")
		[[ "$see" != *"$t(1)"* ]] || fail "$t(1) lists itself: $see"
		for o in "${TOOLS[@]}"; do
			[ "$o" = "$t" ] || [[ "$see" == *"$o(1)"* ]] ||
				fail "$t(1) does not list $o(1): $see"
		done
	done
}

@test "--help fits on a screen: at most 60 lines, option lines within 80 columns" {
	for t in "${TOOLS[@]}"; do
		run -0 "$BIN/$t" --help
		[ "${#lines[@]}" -le 60 ] || fail "$t --help: ${#lines[@]} lines"
		# the usage forms may run long; an option's line may not
		run awk 'length > 79 && !/^(Usage| +or):/' <<< "$output"
		assert_output ""
	done
}

@test "what --help leaves out of an option is in the man page, after OPTIONS" {
	for t in "${TOOLS[@]}"; do
		run -0 render "$t"
		# OPTIONS IN DETAIL follows OPTIONS, and names only options
		# that --help lists
		run -0 sed -n '/^OPTIONS IN DETAIL$/,/^[A-Z]/p' <<< "$output"
		[ "${#lines[@]}" -gt 5 ] || fail "$t: no OPTIONS IN DETAIL"
		help=$("$BIN/$t" --help)
		detailed=$(grep -oE '^ {7}(-[A-Za-z0-9], )?--[a-z0-9-]+' <<< "$output" |
			   grep -oE -- '--[a-z0-9-]+')
		[ "$(wc -l <<< "$detailed")" -ge 5 ] || fail "$t: $detailed"
		for o in $detailed; do
			grep -qE -- "^ +(-[A-Za-z0-9], )?$o( |\\[|$)" <<< "$help" ||
				fail "$t(1) details $o, which --help does not list"
		done
	done
}
