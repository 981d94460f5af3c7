# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real DKMS (Debian 12's dkms package) signs with our sign-file
# (make check-dkms; kept out of make check, as each dkms build is slow):
# framework.conf sets sign_file=, mok_signing_key= and mok_certificate=,
# dkms builds a tiny out-of-tree module against the headers of an
# installed Debian kernel (-k VERSION, a kernel that is not running), and
# the module dkms installs verifies with verify-file against the MOK
# certificate.  dkms 3.0.10 runs, in prepare_signing/do_build:
#   "$sign_file" "$sign_hash" "$mok_signing_key" "$mok_certificate" "$built_module"
# with sign_hash from the kernel's CONFIG_MODULE_SIG_HASH, and only warns
# when signing fails, so the verification below is what catches failure.
#
# Nothing outside the test's directory changes: dkms gets its own
# --dkmstree, --sourcetree and --installtree, --no-depmod, and the
# framework.conf.d it reads is the test's, bind-mounted in a private mount
# namespace (unshare -m) over /etc/dkms/framework.conf.d.

bats_require_minimum_version 1.5.0
load ../bats/helpers

SOFTHSM_MODULE=${SOFTHSM_MODULE:-/usr/lib/softhsm/libsofthsm2.so}

setup_file() {
	# The newest kernel whose headers dkms can build against.
	local d kv
	kv=$(for d in /lib/modules/*/build; do
		[ -e "$d/include" ] && [ -r "$d/.config" ] &&
			basename "${d%/build}"
	done | sort -V | tail -n1)
	export DKMS_KVER="$kv"
}

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	need_root "dkms builds and installs as root"
	command -v dkms > /dev/null ||
		fail "dkms not found: install the Debian package dkms (scripts/install-deps.sh dkms)"
	[ -n "$DKMS_KVER" ] ||
		fail "no kernel headers with a .config under /lib/modules: install linux-headers-$(dpkg --print-architecture) (scripts/install-deps.sh dkms)"
	[ -d /etc/dkms/framework.conf.d ] ||
		fail "dkms has no /etc/dkms/framework.conf.d (dkms 3.0 has it)"
	unshare -m true 2> /dev/null ||
		skip "cannot make a mount namespace (unshare -m) to give dkms its own framework.conf.d"
	make_source
	mkdir -p conf.d tree "inst/$DKMS_KVER"
	openssl req -new -x509 -nodes -days 30 -subj "/CN=modsign DKMS MOK" \
		-newkey rsa:2048 -keyout mok.key -outform DER -out mok.pub \
		2> /dev/null
}

# A tiny out-of-tree module with its dkms.conf.
make_source() {
	local s="$W/src/modsign-hello-1.0"
	mkdir -p "$s"
	cat > "$s/modsign_hello.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-or-later
#include <linux/init.h>
#include <linux/module.h>

static int __init modsign_hello_init(void)
{
	return 0;
}

static void __exit modsign_hello_exit(void)
{
}

module_init(modsign_hello_init);
module_exit(modsign_hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("signed by modsign through dkms");
EOF
	echo 'obj-m := modsign_hello.o' > "$s/Kbuild"
	cat > "$s/dkms.conf" <<'EOF'
PACKAGE_NAME="modsign-hello"
PACKAGE_VERSION="1.0"
BUILT_MODULE_NAME[0]="modsign_hello"
DEST_MODULE_LOCATION[0]="/updates/dkms"
MAKE[0]="make -C ${kernel_source_dir} M=${dkms_tree}/${PACKAGE_NAME}/${PACKAGE_VERSION}/build modules"
CLEAN="true"
AUTOINSTALL="no"
EOF
}

# dkms add, build and install for $DKMS_KVER, reading the test's
# conf.d as /etc/dkms/framework.conf.d.  Output in $W/dkms.log.
run_dkms() {
	${DKMS_WRAP:+"${DKMS_WRAP[@]}"} unshare -m bash -c '
		set -e
		mount --bind "$1/conf.d" /etc/dkms/framework.conf.d
		t=(--dkmstree "$1/tree" --sourcetree "$1/src")
		dkms add -m modsign-hello -v 1.0 "${t[@]}"
		dkms build -m modsign-hello -v 1.0 -k "$2" "${t[@]}"
		dkms install -m modsign-hello -v 1.0 -k "$2" "${t[@]}" \
			--installtree "$1/inst" --no-depmod' \
		_ "$W" "$DKMS_KVER" > "$W/dkms.log" 2>&1 ||
		{ cat "$W/dkms.log"; return 1; }
}

installed_module() {
	echo "$W/inst/$DKMS_KVER/updates/dkms/modsign_hello.ko"
}

@test "dkms with sign_file= ours and a MOK key file: the installed module verifies" {
	cat > conf.d/modsign.conf <<EOF
sign_file="$SIGN_FILE"
mok_signing_key="$W/mok.key"
mok_certificate="$W/mok.pub"
EOF
	run_dkms
	run -0 grep -F "Sign command: $SIGN_FILE" dkms.log
	run -0 grep -F "Signing module " dkms.log
	assert_file_exists "$(installed_module)"
	run -0 "$VERIFY_FILE" -c mok.pub "$(installed_module)"
	# The hash is the target kernel's CONFIG_MODULE_SIG_HASH.
	local want
	want=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' \
		"/lib/modules/$DKMS_KVER/build/.config")
	run -0 "$EXTRACT_SIG" --modinfo=sig_hashalgo "$(installed_module)"
	assert_output "${want:-sha512}"
	# Signed after strip, not before: the body is still an ELF module.
	split_signed "$(installed_module)" body sig.cms
	assert_equal "$(head -c 4 body | od -An -c | tr -d ' ')" '177ELF'
}

@test "dkms with a quoted pkcs11: URI as mok_signing_key (dkms#240): the installed module verifies" {
	require_file "$SOFTHSM_MODULE" softhsm2
	require_cmd pkcs11-tool opensc
	mkdir tokens
	export SOFTHSM2_CONF="$W/softhsm2.conf"
	printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\n' \
		"$W" > "$SOFTHSM2_CONF"
	softhsm2-util --init-token --free --label "dkms mok" --pin 1234 \
		--so-pin 5678 > /dev/null
	pkcs11-tool --module "$SOFTHSM_MODULE" --token-label "dkms mok" \
		--login --pin 1234 --write-object mok.key --type privkey \
		--id 01 --label mok > /dev/null 2>&1
	# ; ? = and a space (%20) in the URI: what eval used to mangle.
	local uri="pkcs11:token=dkms%20mok;object=mok;type=private?module-path=$SOFTHSM_MODULE"
	cat > conf.d/modsign.conf <<EOF
sign_file="$SIGN_FILE"
mok_signing_key="$uri"
mok_certificate="$W/mok.pub"
EOF
	# dkms passes its environment on to sign-file.
	export KBUILD_SIGN_PIN=1234
	run_dkms
	run -0 grep -F "Signing key: $uri" dkms.log
	run -0 "$VERIFY_FILE" -c mok.pub "$(installed_module)"
	# The same key from the file signs the same body to the same bytes.
	split_signed "$(installed_module)" body sig.cms
	cp body again.ko
	"$SIGN_FILE" --kmodsign -D "$("$EXTRACT_SIG" --modinfo=sig_hashalgo \
		"$(installed_module)")" mok.key mok.pub again.ko again.sig
	cat body again.sig | cmp - "$(installed_module)"
}

@test "dkms with sign_file= a kmodsign link, as Ubuntu's dkms picks it: the module verifies" {
	ln -s "$SIGN_FILE" kmodsign
	cat > conf.d/modsign.conf <<EOF
sign_file="$W/kmodsign"
mok_signing_key="$W/mok.key"
mok_certificate="$W/mok.pub"
EOF
	run_dkms
	run -0 grep -F "Sign command: $W/kmodsign" dkms.log
	run -0 "$VERIFY_FILE" -c mok.pub "$(installed_module)"
	# A second key does not verify it: the check can fail.
	openssl req -new -x509 -nodes -days 30 -subj "/CN=other" \
		-newkey rsa:2048 -keyout other.key -outform DER -out other.pub \
		2> /dev/null
	run -4 "$VERIFY_FILE" -c other.pub "$(installed_module)"
}

# The whole dkms run under one signing agent: dkms's sign_file call hands
# the module over.  Only the agent has the key's passphrase, so a sign-file
# run that signed itself would fail.
@test "dkms under sign-file --agent: the module signed by the agent, as signing without it would" {
	openssl req -new -x509 -days 30 -subj "/CN=modsign DKMS agent" \
		-newkey rsa:2048 -passout pass:dkms-pin -keyout enc.key \
		-outform DER -out enc.pub 2> /dev/null
	echo dkms-pin > pin
	cat > conf.d/modsign.conf <<EOF
sign_file="$SIGN_FILE"
mok_signing_key="$W/enc.key"
mok_certificate="$W/enc.pub"
EOF
	local hash
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' \
		"/lib/modules/$DKMS_KVER/build/.config")
	unset KBUILD_SIGN_PIN
	DKMS_WRAP=("$SIGN_FILE" --agent --pin-file "$W/pin" "${hash:-sha512}" \
		"$W/enc.key" "$W/enc.pub" --)
	run_dkms
	run -0 grep -F "Signing module " dkms.log
	run -0 "$VERIFY_FILE" -c enc.pub "$(installed_module)"
	split_signed "$(installed_module)" body sig.cms
	KBUILD_SIGN_PIN=dkms-pin "$SIGN_FILE" "${hash:-sha512}" enc.key enc.pub \
		body direct.ko
	cmp direct.ko "$(installed_module)"
}
