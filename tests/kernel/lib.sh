# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by the kernel harness scripts: where things live, and small helpers.
# Sourced, not run.  Callers set PROG and LINE before calling kh_paths.

KH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KH_TOP=$(git -C "$KH_DIR" rev-parse --show-toplevel 2>/dev/null || (cd "$KH_DIR/../.." && pwd))
KH_JOBS=${MODSIGN_JOBS:-$(nproc)}
# Every kernel line the harness builds, oldest first.
KH_LINES="5.10 6.1 6.12 7.3"

die() {
	echo "${PROG:-kernel-harness}: $*" >&2
	exit 1
}

note() {
	echo "${PROG:-kernel-harness}: $*" >&2
}

# Seconds since the epoch with a fraction, for step timings.
now() {
	date +%s.%N
}

elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# kh_paths LINE: validate LINE and set the cache layout.
#   KH_CACHE            cache root (MODSIGN_KERNEL_CACHE, relative to the repo top)
#   KH_LINEDIR          per-line directory
#   KH_TREE             extracted kernel source, built in place
#   KH_TARBALL          Debian's linux-source tarball: /usr/src (apt-get
#                       install), else, for a line this host's apt cannot
#                       install, where fetch-source.sh puts it
#   KH_SUITE            the Debian suite fetch-source.sh takes LINE from
#                       ("" for lines the host installs with apt)
#   KH_SUITE_FALLBACK   a second suite to try when the host has no apt
#                       source for KH_SUITE's archive (5.10: bullseye's
#                       point release when the host has no security source)
#   KH_JUDGE_KEY/CERT   the judge's throwaway signing key, shared by all lines
kh_paths() {
	KH_SUITE_FALLBACK=
	case "$1" in
	# Debian 11's kernel; bullseye-security carries the newest 5.10 (LTS)
	5.10) KH_SUITE=bullseye-security KH_SUITE_FALLBACK=bullseye ;;
	6.1 | 6.12) KH_SUITE= ;;
	# Debian 12 has no 7.x; trixie-backports has Debian's 7.3
	7.3) KH_SUITE=trixie-backports ;;
	*) die "unknown kernel line '$1' (expected one of: $KH_LINES)" ;;
	esac
	LINE=$1
	KH_CACHE=${MODSIGN_KERNEL_CACHE:-build/kernel}
	case "$KH_CACHE" in
	/*) ;;
	*) KH_CACHE=$KH_TOP/$KH_CACHE ;;
	esac
	KH_LINEDIR=$KH_CACHE/$LINE
	KH_TREE=$KH_LINEDIR/linux-source-$LINE
	KH_TARBALL=/usr/src/linux-source-$LINE.tar.xz
	if [ -n "$KH_SUITE" ] && [ ! -f "$KH_TARBALL" ]; then
		KH_TARBALL=$KH_LINEDIR/linux-source-$LINE.tar.xz
	fi
	KH_JUDGE_KEY=$KH_CACHE/judge-key/judge-key.pem
	KH_JUDGE_CERT=$KH_CACHE/judge-key/judge-cert.pem
	KH_BZIMAGE=$KH_TREE/arch/x86/boot/bzImage
}

# Options one line needs =y beyond the common list of build-kernel.sh
# (they come from config-LINE.fragment).  MODULE_SIG_FORCE is built in on
# every line but 7.3, whose one configuration the firmware stage shares
# (config-7.3.fragment: there module.sig_enforce=1 alone enforces).
kh_line_syms() {
	case $LINE in
	# 5.10 has no ECDSA (crypto/ecdsa.c came in 5.13)
	5.10) echo MODULE_SIG_FORCE ;;
	6.1 | 6.12) echo MODULE_SIG_FORCE CRYPTO_ECDSA ;;
	7.3) echo CRYPTO_ECDSA CRYPTO_MLDSA PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA \
		EFI EFI_STUB EFIVAR_FS SECURITY_LOCKDOWN_LSM LOCK_DOWN_IN_EFI_SECURE_BOOT \
		INTEGRITY INTEGRITY_PLATFORM_KEYRING INTEGRITY_MACHINE_KEYRING \
		LOAD_UEFI_KEYS IMA IMA_APPRAISE CMDLINE_BOOL FUTEX ;;
	esac
}

# Options one line must NOT have (=y or =m) after olddefconfig.
kh_line_nosyms() {
	case $LINE in
	7.3) echo MODULE_SIG_FORCE INTEGRITY_CA_MACHINE_KEYRING IMA_ARCH_POLICY ;;
	esac
}

# Options for loading compressed modules in the kernel
# (finit_module's MODULE_INIT_COMPRESSED_FILE, 5.17); none before that.
kh_line_decompress() {
	case $LINE in
	5.10) ;;
	*) echo MODULE_COMPRESS_XZ MODULE_DECOMPRESS ;;
	esac
}

# The two in-tree modules (=m in the line's configuration, no dependencies)
# that modsign-cases.sh has kbuild's modules_install sign.  7.x made the
# CRC library options invisible (select-only), so 7.3 builds two of
# crypto/'s stand-alone algorithm modules instead.
kh_intree_modules() {
	case $LINE in
	5.10 | 6.1 | 6.12) echo crc7 crc-itu-t ;;
	*) echo wp512 serpent_generic ;;
	esac
}

# kh_kmake ARGS...: make in the kernel tree, quietly, logging to build.log.
kh_kmake() {
	if ! make -C "$KH_TREE" ARCH=x86_64 -j"$KH_JOBS" "$@" \
		>>"$KH_LINEDIR/build.log" 2>&1; then
		tail -n 40 "$KH_LINEDIR/build.log" >&2
		die "make $* failed in $KH_TREE (full log: $KH_LINEDIR/build.log)"
	fi
}

# kh_ext_module SRCDIR NAME: build an external module against the tree.
# The sources are copied into the cache so the work tree stays clean.
# Prints the path of the built NAME.ko.
kh_ext_module() {
	local src=$1 name=$2 out=$KH_LINEDIR/$2
	[ -f "$KH_TREE/Module.symvers" ] ||
		die "$KH_TREE is not built (run build-kernel.sh $LINE CERTS.pem first)"
	mkdir -p "$out"
	# copy only when changed, so an unchanged module is not rebuilt
	local f
	for f in "$src"/*.c "$src"/Kbuild; do
		cmp -s "$f" "$out/${f##*/}" || cp "$f" "$out/"
	done
	if ! make -C "$KH_TREE" ARCH=x86_64 M="$out" modules \
		>"$out/build.log" 2>&1; then
		cat "$out/build.log" >&2
		die "building $name against $LINE failed"
	fi
	[ -f "$out/$name.ko" ] || die "$out/$name.ko was not produced"
	echo "$out/$name.ko"
}

# kh_private_apt SUITE MIRROR: a private apt configuration for SUITE under
# $KH_CACHE/apt/SUITE (its own sources file, lists and cache; the host's
# apt state is only read), with fresh lists.  Sets APT (the directory) and
# aptopts (the options for apt-get and apt-cache).  One directory per
# suite, so lists of different suites do not mix and a second fetch from
# the same suite reuses them.  The signature chain is apt's usual one:
# the Release file verified with the archive keyring.
kh_private_apt() {
	local suite=$1 mirror=$2
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || die "$keyring missing (apt-get install debian-archive-keyring)"
	APT=$KH_CACHE/apt/$suite
	mkdir -p "$APT/sources" "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/deb"
	printf '%s\n' "# written by ${PROG:-tests/kernel/lib.sh} from the host's apt sources" \
		"Types: deb" "URIs: $mirror" "Suites: $suite" "Components: main" \
		"Signed-By: $keyring" >"$APT/sources/modsign.sources"
	aptopts=(
		-o Dir::Etc::SourceList=/dev/null
		-o Dir::Etc::SourceParts="$APT/sources"
		-o Dir::State::Lists="$APT/lists"
		-o Dir::Cache="$APT/cache"
		-o Acquire::Languages=none
		# no Contents indices (apt-file's, which a host may enable): large,
		# of no use here, and one more way for a mirror mid-sync to fail
		-o Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false
		# the downloads land in our own directories, which _apt may not write
		-o APT::Sandbox::User=root
	)
	apt-get "${aptopts[@]}" -q update >"$APT/update.log" 2>&1 ||
		{ cat "$APT/update.log" >&2; die "apt-get update for $suite ($mirror) failed"; }
}
