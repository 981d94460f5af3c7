#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen.sh bash|zsh BINDIR > file: a shell completion for sign-file,
# extract-sig, verify-file (and sign-file as kmodsign), with the options
# read from each tool's --help, so that the completion cannot lag the code.
# The shell-specific logic lives in completions/modsign.<shell>.in; this
# script puts the option tables where that template says @OPTIONS@.
#
# An option line in --help is "  -x, --long ARG  description" (short or
# long may be missing, "--long[=ARG]" takes an optional argument); ARG
# words are upper case (KEY, X509, FILE.p7s) and end at two spaces or at a
# lower-case word.
set -eu
shell=$1
bin=$2
here=$(dirname "$0")

# One record per option: short|long|optional|ARG ARG...|description
options() { # tool [options to reach its help]
	tool=$1
	shift
	"$bin/$tool" "$@" --help | awk '
	# A description: its lines joined, cut at the first clause, at most
	# about 60 characters.
	function flush() {
		if (rec == "")
			return
		d = desc
		if (match(d, /(: |; |\. | \()/))
			d = substr(d, 1, RSTART - 1)
		if (length(d) > 60) {
			d = substr(d, 1, 60)
			sub(/ [^ ]*$/, "", d)
		}
		print rec "|" d
		rec = ""
	}
	# (no {m,n} intervals here: mawk lacks them)
	match($0, /^ +-/) && RLENGTH <= 9 {
		flush()
		line = $0
		sub(/^ +/, "", line)
		short = ""; long = ""; opt = 0; args = ""
		if (match(line, /^-[A-Za-z0-9]/)) {
			short = substr(line, 1, 2)
			line = substr(line, 3)
			sub(/^, /, "", line)
		}
		if (match(line, /^--[a-z0-9-]+/)) {
			long = substr(line, 1, RLENGTH)
			line = substr(line, RLENGTH + 1)
		}
		if (match(line, /^\[=[A-Z]+\]/)) {
			opt = 1
			args = substr(line, 3, RLENGTH - 3)
			line = substr(line, RLENGTH + 1)
		}
		while (!opt && match(line, /^ [A-Z][A-Z0-9_]*(\.[a-z0-9]+)?( |$)/)) {
			word = substr(line, 2, RLENGTH - 1)
			sub(/ $/, "", word)
			args = args (args == "" ? "" : " ") word
			line = substr(line, RLENGTH)
		}
		sub(/^ +/, "", line)
		rec = short "|" long "|" opt "|" args
		desc = line
		next
	}
	# continuation lines of a description, deeper indented
	rec != "" && match($0, /^ +[^ -]/) && RLENGTH > 10 {
		line = $0
		sub(/^ +/, "", line)
		desc = desc " " line
		next
	}
	{ flush() }
	END { flush() }'
}

# Option tables for one tool, in the syntax of the shell.
tables() { # var-name tool [options to reach its help]
	name=$1
	shift
	options "$@" | awk -F'|' -v name="$name" -v shell="$shell" '
	function zq(s) { gsub(/\047/, "\047\\\047\047", s); gsub(/\[/, "\\[", s);
			 gsub(/\]/, "\\]", s); gsub(/:/, "\\:", s); return s }
	# what completes an argument named w (zsh action)
	function zact(w) {
		if (w == "DIR") return "_files -/"
		if (w == "VERSION") return "(6.1 6.12 7.3)"
		if (w == "USAGE") return "(module firmware unspecified kexec bpf)"
		if (w == "MODE") return "(none integrity confidentiality)"
		if (w == "RELEASE") return " "
		if (w == "FIELD") return "(sig_id signer sig_key sig_hashalgo signature)"
		if (w == "N" || w == "NAME") return " "
		return "_files"
	}
	{
		words = ($1 != "" ? $1 : "") ($1 != "" && $2 != "" ? " " : "") $2
		all = all (all == "" ? "" : " ") words
		n = split($4, a, " ")
		if (shell == "bash") {
			if ($3 == 0 && n > 0) {
				if ($1 != "") argc = argc " " $1 ":" n ":" a[1]
				if ($2 != "") argc = argc " " $2 ":" n ":" a[1]
			}
			if ($3 == 1)
				optional = optional " " $2 ":" a[1]
			next
		}
		spec = "[" zq($5) "]"
		for (i = 1; i <= n; i++)
			spec = spec ":" tolower(a[i]) ":" zact(a[i])
		if ($3 == 1)
			spec = "=-" spec
		if ($1 != "" && $2 != "")
			printf "\t\t\047*\047{%s,%s}\047%s\047\n", $1, $2, spec
		else
			printf "\t\t\047*%s%s\047\n", $1 $2, spec
	}
	END {
		if (shell == "bash") {
			printf "_modsign_opts_%s=\047%s\047\n", name, all
			printf "_modsign_args_%s=\047%s \047\n", name, argc
			printf "_modsign_optional_%s=\047%s \047\n", name, optional
		}
	}'
}

emit() {
	if [ "$shell" = bash ]; then
		tables sign_file sign-file
		tables kmodsign sign-file --kmodsign
		tables extract_sig extract-sig
		tables verify_file verify-file
		return
	fi
	for t in sign_file:sign-file kmodsign:sign-file:--kmodsign \
		 extract_sig:extract-sig verify_file:verify-file; do
		name=${t%%:*}
		rest=${t#*:}
		printf '_modsign_specs_%s=(\n' "$name"
		# shellcheck disable=SC2086
		tables "$name" $(echo "$rest" | tr : ' ')
		printf ')\n'
	done
}

case $shell in
bash | zsh) ;;
*)
	echo "usage: $0 bash|zsh BINDIR" >&2
	exit 2
	;;
esac
tab=$(mktemp)
trap 'rm -f "$tab"' EXIT
emit > "$tab"
# The template with @OPTIONS@ replaced by the tables.
awk -v tab="$tab" '
	$0 == "@OPTIONS@" { while ((getline l < tab) > 0) print l; next }
	{ print }' "$here/modsign.$shell.in"
