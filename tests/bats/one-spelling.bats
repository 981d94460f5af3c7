#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One spelling per fact: the same signer's issuer, serial number and key
# identifier read the same in extract-sig and verify-file, as text and as
# JSON (src/common/base/format.c is their one formatter).

load helpers
bats_require_minimum_version 1.5.0

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	mkdir certs
}

# A certificate whose names and serial exercise the formatter: UTF-8 in
# the subject (the issuer, self-signed) and a serial with its high bit
# set, which DER stores behind a zero byte.
odd_cert() {
	openssl req -new -x509 -newkey rsa:2048 -nodes -keyout odd.key \
		-out certs/odd.pem -days 2 -utf8 -set_serial 0x8000000000000a01 \
		-subj "/O=Zürich Ütilities/CN=Ünïcødé signer" \
		-addext "keyUsage=digitalSignature" 2>/dev/null
}

# field of the first signer in a JSON object on stdin
signer_field() {
	python3 -c 'import json, sys
print(json.load(sys.stdin)["signers"][0][sys.argv[1]])' "$1"
}

@test "extract-sig and verify-file --json spell issuer and serial alike" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	issuer=$(openssl x509 -in "$KEYS/rsa2048.crt" -noout -issuer \
		-nameopt esc_ctrl,utf8,sep_comma_plus_space,sname | cut -d= -f2-)
	serial=$(openssl x509 -in "$KEYS/rsa2048.crt" -noout -serial |
		cut -d= -f2 | tr A-F a-f | sed 's/^0*//')
	assert_equal "$(signer_field issuer < es.json)" "$issuer"
	assert_equal "$(signer_field issuer < vf.json)" "$issuer"
	assert_equal "$(signer_field serial < es.json)" "$serial"
	assert_equal "$(signer_field serial < vf.json)" "$serial"
}

@test "UTF-8 names stay UTF-8 and a high-bit serial loses its DER zero byte" {
	odd_cert
	make_module m.ko 4096
	"$SIGN_FILE" sha256 odd.key certs/odd.pem m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	assert_equal "$(signer_field issuer < es.json)" \
		"O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_equal "$(signer_field issuer < vf.json)" \
		"O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_equal "$(signer_field serial < es.json)" "8000000000000a01"
	assert_equal "$(signer_field serial < vf.json)" "8000000000000a01"
	run "$EXTRACT_SIG" m.ko
	assert_success
	assert_line "  issuer:         O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_line "  serial:         8000000000000a01"
	run "$VERIFY_FILE" -k certs --list-keys
	assert_success
	assert_line "    subject: O=Zürich Ütilities, CN=Ünïcødé signer"
	assert_line "    serial:  8000000000000a01"
}

@test "a -k signer's key identifier reads alike in both tools" {
	make_module m.ko 4096
	cp "$KEYS/ec256.crt" certs/
	"$SIGN_FILE" -k sha256 "$KEYS/ec256.key" "$KEYS/ec256.crt" m.ko
	skid=$(openssl x509 -in "$KEYS/ec256.crt" -noout -ext subjectKeyIdentifier |
		tail -1 | tr -d ' :' | tr A-F a-f)
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	assert_equal "$(signer_field skid < es.json)" "$skid"
	assert_equal "$(signer_field skid < vf.json)" "$skid"
}

@test "both tools' signer objects have the same keys (one JSON schema)" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	"$EXTRACT_SIG" --json m.ko > es.json
	"$VERIFY_FILE" --json -k certs m.ko > vf.json
	keys() {
		python3 -c 'import json, sys
print(" ".join(sorted(json.load(sys.stdin)["signers"][0])))'
	}
	assert_equal "$(keys < es.json)" "$(keys < vf.json)"
	assert_equal "$(keys < es.json)" "certificate certificate_issuer certificate_subject hash index issuer key_description key_type ml_dsa modinfo_signer serial signature_algorithm signature_size signed_attributes signer signer_id skid subject trusted"
}

@test "verify-file --json: an unreadable file is an ERROR object, -r ends with a summary object, no escaped slashes" {
	mkdir tree
	make_module tree/m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" tree/m.ko
	run --separate-stderr "$VERIFY_FILE" --json -k certs tree/m.ko tree/missing.ko
	assert_failure 7
	refute_output --partial '\/'
	assert_equal "${#lines[@]}" 2
	run python3 -c 'import json, sys
o = json.loads(sys.argv[1])
assert o["file"] == "tree/missing.ko" and o["verdict"] == "ERROR", o
assert o["errno"] == "ENOENT" and "cannot read" in o["reason"], o' "${lines[1]}"
	assert_success
	run --separate-stderr "$VERIFY_FILE" --json -k certs -r tree
	assert_success
	run python3 -c 'import json, sys
s = json.loads(sys.argv[1])["summary"]
assert s == {"files": 1, "ok": 1, "unsigned": 0, "unknown_key": 0,
             "unsupported": 0, "rejected": 0, "malformed": 0,
             "unreadable": 0, "exit": 0}, s' "${lines[-1]}"
	assert_success
}

# --- one letter, one meaning: the options every tool shares ---

TOOLS=(sign-file verify-file extract-sig)
SHARED=(--recursive --files-from --null --jobs --kernel --kernel-config
	--json --quiet --verbose --help --version)

# The option line of tool's --help that names opt, squeezed to one space.
help_line() { # tool opt
	"$BIN/$1" --help | grep -E -- "^ +(-[A-Za-z0-9], )?$2( |$)" |
		tr -s ' ' | sed 's/^ //'
}

# A valid value for a shared option that takes one, for the command line.
value_of() { # opt
	case $1 in
	--recursive) echo tree ;;
	--files-from) echo list ;;
	--jobs) echo 1 ;;
	--kernel) echo 6.1 ;;
	--kernel-config) echo .config ;;
	esac
}

@test "a shared option reads the same in the --help of every tool that takes it" {
	for o in "${SHARED[@]}"; do
		ref="" n=0
		for t in "${TOOLS[@]}"; do
			line=$(help_line "$t" "$o")
			[ -n "$line" ] || continue
			n=$((n + 1))
			[ -n "$ref" ] || ref=$line
			assert_equal "$line" "$ref"
		done
		[ "$n" -ge 2 ] || fail "$o is in the --help of $n tool(s)"
	done
	for t in "${TOOLS[@]}"; do
		# --json (where there is one) has no letter
		run -0 "$BIN/$t" --help
		refute_output --regexp '-[a-zA-Z0-9], --json'
	done
	# --sig names an input wherever it exists
	assert_equal "$(help_line verify-file --sig)" "$(help_line extract-sig --sig | sed 's/ (an input)$//')"
	run -0 help_line verify-file --sig
	assert_output --regexp '^--sig FILE.p7s detached signature of the single FILE'
	# extract-module-sig.pl's letters are long options in extract-sig
	run -0 "$EXTRACT_SIG" --help
	assert_line --regexp '^ +--body-stdout '
	assert_line --regexp '^ +--sig-stdout '
	assert_line --regexp '^ +--descriptor '
	assert_line --regexp '^ +--sig-out FILE '
	assert_line --regexp '^ +--body-out FILE '
}

@test "a tool takes exactly the shared options its --help lists, by both spellings" {
	for t in "${TOOLS[@]}"; do
		usage=$("$BIN/$t" --help)
		for o in "${SHARED[@]}"; do
			v=$(value_of "$o")
			line=$(help_line "$t" "$o")
			if [ -z "$line" ]; then
				# not listed: refused as getopt refuses any unknown option
				run -2 --separate-stderr "$BIN/$t" "$o" ${v:+"$v"}
				assert_output ""
				[[ $stderr == *"unrecognized option '$o'"* ]] || fail "$t $o: $stderr"
				continue
			fi
			# -h and -V below
			[ "$o" != --help ] && [ "$o" != --version ] || continue
			# taken (and nothing run): --help after it still answers
			run -0 --separate-stderr "$BIN/$t" "$o" ${v:+"$v"} --help
			assert_equal "$output" "$usage"
			assert_equal "$stderr" ""
			# its letter, where --help gives one, is the same option
			letter=$(sed -nE 's/^(-[A-Za-z0-9]), .*/\1/p' <<< "$line")
			[ -n "$letter" ] || continue
			run -0 --separate-stderr "$BIN/$t" "$letter" ${v:+"$v"} --help
			assert_equal "$output" "$usage"
		done
		# -h is --help and -V is --version; what follows is not read
		run -0 "$BIN/$t" -h --no-such-option
		assert_equal "$output" "$usage"
		run -0 "$BIN/$t" -V
		assert_equal "$output" "$("$BIN/$t" --version)"
		run -2 --separate-stderr "$BIN/$t" --no-such-option --help
		assert_output ""
	done
}

@test "a bad value for a shared option: the same line, then the --help hint, in every tool" {
	for args in "-j 0" "--jobs 257" "-j two" "-r a -r b" "--kernel 4.19" "--kernel six"; do
		ref=""
		for t in "${TOOLS[@]}"; do
			# shellcheck disable=SC2086 # the option and its value
			run -2 --separate-stderr "$BIN/$t" $args
			assert_output ""
			assert_equal "${#stderr_lines[@]}" 2
			assert_equal "${stderr_lines[1]}" "Try '$t --help' for the usage."
			said=${stderr_lines[0]#"$t: "}
			[ "$said" != "${stderr_lines[0]}" ] || fail "$t $args: ${stderr_lines[0]}"
			[ -n "$ref" ] || ref=$said
			assert_equal "$said" "$ref"
		done
	done
}

@test "a --kernel-config that cannot be used: the same line and exit status in sign-file and verify-file" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	printf 'garbage\n' > bad.config
	printf '# only a comment\n' > comment.config
	printf 'CONFIG_MODULE_SIG=y\n' | gzip | head -c 12 > cut.gz
	for c in bad.config comment.config cut.gz missing.config; do
		run --separate-stderr "$SIGN_FILE" --kernel-config "$c" sha256 \
			"$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko out.ko
		sf_status=$status sf=${stderr#sign-file: }
		run --separate-stderr "$VERIFY_FILE" --kernel-config "$c" -k certs m.ko
		assert_equal "$status" "$sf_status"
		assert_equal "${stderr#verify-file: }" "$sf"
		[[ $sf == "$c: "* ]] || fail "$sf"
		[ ! -e out.ko ]
	done
	# a file that is no .config is a usage error, one unreadable an I/O one
	run -2 "$SIGN_FILE" --kernel-config bad.config sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko out.ko
	run -7 "$SIGN_FILE" --kernel-config cut.gz sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko out.ko
}

@test "kmodsign takes the shared options by their long names only: its letters are kmodsign's" {
	ln -s "$SIGN_FILE" kmodsign
	run -2 --separate-stderr ./kmodsign -j 2 sha256 k c m.ko
	[[ $stderr == *"invalid option -- 'j'"* ]] || fail "$stderr"
	run -2 --separate-stderr ./kmodsign --jobs 0 sha256 k c m.ko
	assert_equal "${stderr_lines[0]}" "kmodsign: -j needs a number of workers from 1 to 256"
	run -0 ./kmodsign -V
	assert_line --index 0 --regexp '^kmodsign \(modsign\) '
}

@test "-j N, -0 and -q behave alike in all three tools" {
	make_module m.ko 4096
	cp "$KEYS/rsa2048.crt" certs/
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")
	# -j 0: the same usage error everywhere
	run -2 "$SIGN_FILE" --batch -j 0 "${K[@]}" m.ko
	assert_line --index 0 "sign-file: -j needs a number of workers from 1 to 256"
	run -2 "$VERIFY_FILE" -j 0 -k certs m.ko
	assert_line --index 0 "verify-file: -j needs a number of workers from 1 to 256"
	run -2 "$EXTRACT_SIG" -j 0 m.ko
	assert_line --index 0 "extract-sig: -j needs a number of workers from 1 to 256"
	# -0 without --files-from: the same usage error everywhere
	run -2 "$SIGN_FILE" --batch -0 "${K[@]}" m.ko
	assert_line --index 0 "sign-file: -0 goes with --files-from"
	run -2 "$VERIFY_FILE" -0 -k certs m.ko
	assert_line --index 0 "verify-file: -0 goes with --files-from"
	run -2 "$EXTRACT_SIG" -0 m.ko
	assert_line --index 0 "extract-sig: -0 goes with --files-from"
	# -0 --files-from: NUL-separated names, in every tool
	mkdir 'a b'
	cp m.ko 'a b/x
y.ko'
	printf 'a b/x\ny.ko\0' > list0
	run -0 --separate-stderr "$VERIFY_FILE" -k certs -0 --files-from list0
	# the newline in the name is quoted as ls quotes it: one verdict line,
	# then the summary
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --partial "'a b/x'\$'\\n''y.ko': OK (sha256, RSA-2048"
	run -0 --separate-stderr "$EXTRACT_SIG" -j 2 --json -0 --files-from list0
	# the object, then the summary
	assert_equal "${#lines[@]}" 2
	assert_output --partial '"file":"a b/x\ny.ko"'
	# -q: no verdict on stdout, in every tool
	run -0 --separate-stderr "$VERIFY_FILE" -q -k certs m.ko
	assert_output ""
	run -0 --separate-stderr "$EXTRACT_SIG" -q m.ko
	assert_output ""
	make_module u.ko 4096
	run -0 --separate-stderr "$SIGN_FILE" --batch -q "${K[@]}" u.ko
	assert_output ""
}

@test "-r DIR and --files-from LIST work in every many-file tool" {
	mkdir -p tree/sub
	make_module tree/a.ko 4096
	make_module tree/sub/b.ko 5000
	K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")
	cp "$KEYS/rsa2048.crt" certs/
	run -0 --separate-stderr "$SIGN_FILE" --batch -r tree "${K[@]}"
	assert_line "tree/a.ko: signed"
	assert_line "tree/sub/b.ko: signed"
	run -0 --separate-stderr "$VERIFY_FILE" -k certs -r tree
	assert_line --partial "tree/a.ko: OK"
	assert_line --partial "tree/sub/b.ko: OK"
	run -0 --separate-stderr "$EXTRACT_SIG" --json -r tree
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 --partial '{"summary":{"files":2,"signed":2,'
	assert_line --index 0 --partial '"file":"tree/a.ko"'
	assert_line --index 1 --partial '"file":"tree/sub/b.ko"'
	printf 'tree/sub/b.ko\ntree/a.ko\n' > list
	run -0 --separate-stderr "$VERIFY_FILE" -k certs --files-from list
	assert_line --index 0 --partial "tree/sub/b.ko: OK"
	assert_line --index 1 --partial "tree/a.ko: OK"
	run -0 --separate-stderr "$EXTRACT_SIG" --files-from - < list
	assert_line --index 0 --regexp "^file: +tree/sub/b.ko \\([0-9]+ bytes\\)$"
	assert_line --regexp "^file: +tree/a.ko \\([0-9]+ bytes\\)$"
	assert_equal "$(grep -c '^file:' <<< "$output")" 2
}

@test "an empty -r directory or --files-from list fails in every tool, naming it" {
	mkdir empty
	: > nothing.list
	K=(sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt")
	cp "$KEYS/rsa2048.crt" certs/
	for cmd in "$SIGN_FILE --batch ${K[*]}" "$VERIFY_FILE -k certs" "$EXTRACT_SIG"; do
		tool=$(basename "${cmd%% *}")
		# shellcheck disable=SC2086 # the command's words
		run -2 --separate-stderr $cmd -r empty
		assert_output ""
		assert_equal "$stderr" "$tool: empty: no kernel module (*.ko, *.ko.gz, *.ko.xz, *.ko.zst) below this directory (check -r)"
		# shellcheck disable=SC2086
		run -2 --separate-stderr $cmd --files-from nothing.list
		assert_output ""
		assert_equal "$stderr" "$tool: nothing.list: the file list names no file (check --files-from)"
		# shellcheck disable=SC2086
		run -2 --separate-stderr $cmd --files-from - < /dev/null
		assert_equal "$stderr" "$tool: -: the file list names no file (check --files-from)"
	done
}

@test "--version: one shape in all three tools (tool, modsign version, OpenSSL, ML-DSA)" {
	for t in sign-file verify-file extract-sig; do
		run -0 "$BIN/$t" --version
		assert_equal "${#lines[@]}" 2
		assert_line --index 0 --regexp "^$t \\(modsign\\) [0-9]+\\.[0-9]+\\.[0-9]+\$"
		assert_line --index 1 --regexp '^OpenSSL [0-9.]+[a-z-]* \(built with [0-9.]+\); ML-DSA: (yes|no \(needs OpenSSL 3\.5 or later\))$'
	done
}

# --- one description of a signature in every tool and form ---

@test "the signer reads the same in verify-file's text and JSON and in extract-sig's JSON" {
	# the kernel names this key "Acme Drivers: Acme module signing 2026"
	openssl req -new -x509 -newkey rsa:2048 -nodes -keyout acme.key \
		-out certs/acme.pem -days 2 -subj "/O=Acme Drivers/CN=Acme module signing 2026" \
		-addext "keyUsage=digitalSignature" 2>/dev/null
	make_module m.ko 4096
	"$SIGN_FILE" sha256 acme.key certs/acme.pem m.ko
	cn=$("$EXTRACT_SIG" --json m.ko | python3 -c 'import json, sys
print(json.load(sys.stdin)["signers"][0]["signer"])')
	[ "$cn" = "Acme module signing 2026" ]
	run -0 "$VERIFY_FILE" --json -k certs m.ko
	[[ $output == *"\"signer\":\"$cn\""* ]] || fail "$output"
	[[ $output == *"\"modinfo_signer\":\"$cn\""* ]] || fail "$output"
	[[ $output == *"\"certificate_subject\":\"O=Acme Drivers, CN=$cn\""* ]] ||
		fail "$output"
	run -0 "$VERIFY_FILE" -k certs m.ko
	assert_output --partial "certificate \"$cn\", issuer \"$cn\","
}

@test "a module signed twice is flagged by verify-file as by extract-sig, in text and JSON" {
	cp "$KEYS/rsa2048.crt" certs/
	make_module m.ko 4096
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	# the kernel's own tool signs a signed module again
	need_reference
	"$REF_SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko twice.ko
	run "$EXTRACT_SIG" twice.ko
	assert_output --partial "signed twice:     yes"
	run --separate-stderr "$VERIFY_FILE" -k certs twice.ko
	assert_success
	assert_equal "$stderr" "verify-file: warning: twice.ko: signed twice: the body still ends with an older signature, which the kernel reads as part of the module (sign the unsigned module, or use sign-file --replace)"
	run --separate-stderr "$VERIFY_FILE" --json -k certs twice.ko m.ko
	assert_line -n 0 --partial '"signed_twice":true'
	assert_line -n 1 --partial '"signed_twice":false'
}

@test "verify-file's JSON summary ends with the exit status, as sign-file's" {
	mkdir tree
	cp "$KEYS/rsa2048.crt" certs/
	make_module tree/m.ko 4096
	run --separate-stderr "$VERIFY_FILE" --json -k certs -r tree
	assert_failure 3
	assert_line -n 1 '{"summary":{"files":1,"ok":0,"unsigned":1,"unknown_key":0,"unsupported":0,"rejected":0,"malformed":0,"unreadable":0,"exit":3}}'
}

@test "extract-sig -c fills key_description and trusted as verify-file -c does" {
	make_module m.ko 4096
	"$SIGN_FILE" sha256 "$KEYS/rsa2048.key" "$KEYS/rsa2048.crt" m.ko
	for cert in "$KEYS/rsa2048.crt" "$KEYS/ec256.der"; do
		a=$("$EXTRACT_SIG" --json -c "$cert" m.ko 2>/dev/null | signer_field key_description)
		b=$("$VERIFY_FILE" --json -c "$cert" m.ko 2>/dev/null | signer_field key_description)
		assert_equal "$a" "$b"
		a=$("$EXTRACT_SIG" --json -c "$cert" m.ko 2>/dev/null | signer_field trusted)
		b=$("$VERIFY_FILE" --json -c "$cert" m.ko 2>/dev/null | signer_field trusted)
		assert_equal "$a" "$b"
	done
	# the signer's certificate: described and trusted; another: neither
	run signer_field trusted < <("$EXTRACT_SIG" --json -c "$KEYS/rsa2048.crt" m.ko)
	assert_output True
	run signer_field trusted < <("$EXTRACT_SIG" --json -c "$KEYS/ec256.der" m.ko 2>/dev/null)
	assert_output False
	# without -c: not judged
	run signer_field trusted < <("$EXTRACT_SIG" --json m.ko)
	assert_output None
}
