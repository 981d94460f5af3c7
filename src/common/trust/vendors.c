// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "trust/vendors.h"

#define OPTS_COMMON (KERNEL_CONFIG_SECONDARY | KERNEL_CONFIG_MACHINE | \
		     KERNEL_CONFIG_PLATFORM | KERNEL_CONFIG_LOAD_UEFI)
#define SPAN(a, b) { (a), (b) }

/*
 * One row per vendor.  Each row says where it was read; "config" is the
 * vendor's shipped x86_64 config, trimmed into tests/fixtures/vendor/ by
 * tests/fixtures/vendor-configs.sh (which names the same sources).
 */
static const struct vendors_row rows[VENDORS_N] = {
	/* Nothing says whose kernel: kernel.org's patches, and the options
	 * a distribution kernel has (the firmware stage's
	 * config-efi.fragment), lockdown assumed under Secure Boot. */
	[VENDORS_UNKNOWN] = {
		VENDORS_UNKNOWN, "unknown", "unknown (judged as kernel.org's)",
		false, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON, false, true, true, false },
		"none: a distribution kernel's keyring options assumed",
	},
	/* Debian: linux-source-6.12 6.12.118-1~deb12u1 and linux-source-6.1
	 * 6.1.192-3 (Debian's apt archive): kernel/module/signing.c
	 * mod_verify_sig() retries -ENOKEY with VERIFY_USE_PLATFORM_KEYRING;
	 * security/integrity/platform_certs/machine_keyring.c
	 * trust_moklist() returns true in 6.1 and 6.12, kernel.org's in
	 * 7.3; security/lockdown via efi_set_secure_boot():
	 * LOCKDOWN_INTEGRITY_MAX.  config: linux-config-6.12
	 * 6.12.118-1~deb12u1 and linux-config-6.1 6.1.192-3,
	 * config.amd64_none_amd64: IMA_ARCH_POLICY=y,
	 * LOCK_DOWN_IN_EFI_SECURE_BOOT=y, SYSTEM_REVOCATION_LIST unset. */
	[VENDORS_DEBIAN] = {
		VENDORS_DEBIAN, "debian", "Debian",
		true, SPAN(0, RULES_V(6, 13)), SPAN(RULES_V(6, 13), RULES_V(7, 3)),
		KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON, true, true, false, false },
		"Debian's linux-config-6.12 6.12.118-1~deb12u1",
	},
	/* kernel.org: torvalds/linux kernel/module/signing.c (no retry),
	 * machine_keyring.c trust_moklist() (MokListTrustedRT); no
	 * Secure Boot lockdown patch. */
	[VENDORS_MAINLINE] = {
		VENDORS_MAINLINE, "mainline", "kernel.org",
		false, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON, false, true, true, false },
		"none (kernel.org ships no config): a distribution kernel's "
		"keyring options assumed",
	},
	/* Ubuntu: canonical/shim-review@202b7b3f README.md lists "UBUNTU:
	 * SAUCE: (lockdown) KEYS: Make use of platform keyring for module
	 * signature verify" and integrity lockdown under Secure Boot;
	 * config: debian.master/config/annotations as copied in
	 * CriticalShift/linux-ubuntu-resolute@3d79a7ba (26.04):
	 * IMA_ARCH_POLICY=y, LOCK_DOWN_IN_SECURE_BOOT=y (Ubuntu's name),
	 * SYSTEM_REVOCATION_LIST=y, INTEGRITY_CA_MACHINE_KEYRING=n,
	 * MODULE_SIG_FORCE=n.  trust_moklist(): not read, kernel.org's. */
	[VENDORS_UBUNTU] = {
		VENDORS_UBUNTU, "ubuntu", "Ubuntu",
		true, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON, true, true, true, false },
		"Ubuntu's debian.master/config/annotations (26.04)",
	},
	/* Fedora / RHEL / CentOS Stream (kernel-ark's redhat patches, as
	 * carried by bazzite-org/kernel-bazzite@043889c9, 6.17.7):
	 * patch-1-redhat.patch kernel/module/signing.c retries -ENOKEY
	 * against VERIFY_USE_PLATFORM_KEYRING, efi lockdown
	 * LOCKDOWN_INTEGRITY_MAX, trust_moklist() unpatched; config:
	 * kernel-x86_64-fedora.config and kernel-x86_64-rhel.config:
	 * IMA_ARCH_POLICY=y, INTEGRITY_CA_MACHINE_KEYRING(_MAX)=y,
	 * LOCK_DOWN_IN_EFI_SECURE_BOOT=y, SYSTEM_REVOCATION_LIST unset. */
	[VENDORS_FEDORA] = {
		VENDORS_FEDORA, "fedora", "Fedora/RHEL",
		true, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON | KERNEL_CONFIG_CA_MACHINE | KERNEL_CONFIG_CA_MACHINE_MAX, true, true,
		  false, false },
		"kernel-ark's kernel-x86_64-fedora.config (6.17.7)",
	},
	/* openSUSE / SLES: openSUSE/kernel-source patches.suse/
	 * KEYS-Make-use-of-platform-keyring-for-module-signatu.patch (the
	 * retry) and 0003-efi-Lock-down-the-kernel-if-booted-in-secure-
	 * boot-mode.patch (LOCKDOWN_CONFIDENTIALITY_MAX); config:
	 * openSUSE/kernel-source@8b68be23 config/x86_64/default (6.4.0):
	 * IMA_ARCH_POLICY=y, LOCK_DOWN_IN_EFI_SECURE_BOOT=y,
	 * SYSTEM_REVOCATION_LIST=y, INTEGRITY_CA_MACHINE_KEYRING unset. */
	[VENDORS_SUSE] = {
		VENDORS_SUSE, "suse", "openSUSE/SLES",
		true, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_CONFIDENTIALITY,
		{ OPTS_COMMON, true, true, true, false },
		"openSUSE/kernel-source config/x86_64/default (6.4.0)",
	},
	/* Arch: its configs as mirrored by Frogging-Family/linux-tkg@22bcc87d
	 * linux-tkg-config/7.1/config.x86_64 (7.1.7-arch1) and 7.0
	 * (7.0.13-arch1): IMA unset, LOCK_DOWN_KERNEL_FORCE_NONE and no
	 * Secure Boot lockdown option, SYSTEM_REVOCATION_LIST=y,
	 * MODULE_SIG_KEY_TYPE_ECDSA, MODULE_SIG_SHA512,
	 * INTEGRITY_CA_MACHINE_KEYRING unset; no module signing patch. */
	[VENDORS_ARCH] = {
		VENDORS_ARCH, "arch", "Arch Linux",
		false, SPAN(0, 0), SPAN(0, 0), KERNEL_CONFIG_LOCK_INTEGRITY,
		{ OPTS_COMMON, false, false, true, false },
		"Arch's config (7.1.7-arch1)",
	},
};

const struct vendors_row *vendors_row_of(enum vendors_id v)
{
	return &rows[v < VENDORS_N ? v : VENDORS_UNKNOWN];
}

const char *vendors_name(enum vendors_id v)
{
	return vendors_row_of(v)->name;
}

int vendors_by_name(const char *name)
{
	if (strcmp(name, "kernel.org") == 0)
		return VENDORS_MAINLINE;
	for (int v = VENDORS_DEBIAN; v < VENDORS_N; v++)
		if (strcmp(name, rows[v].name) == 0)
			return v;
	return -1;
}

const char *vendors_names(void)
{
	return "debian, ubuntu, fedora, suse, arch, kernel.org (or mainline)";
}

/* "6.12.0-55.el10" holds ".el10": a dot, the mark, digits */
static bool has_mark(const char *s, const char *mark)
{
	size_t n = strlen(mark);

	for (const char *p = s ? strstr(s, mark) : NULL; p;
	     p = strstr(p + 1, mark))
		if (p[n] >= '0' && p[n] <= '9')
			return true;
	return false;
}

/* The release a version line starts with ("6.17.7-300.fc43.x86_64 (...")
 * into out; false when it is too long. */
static bool banner_release(const char *banner, char *out, size_t n)
{
	size_t len = strcspn(banner, " ");

	if (len >= n)
		return false;
	memcpy(out, banner, len);
	out[len] = '\0';
	return true;
}

enum vendors_id vendors_detect(const char *banner, const char *release,
			      const char *pkgbase, const char **why)
{
	char rel[128];

	/* Arch's linux and linux-lts PKGBUILDs install
	 * /usr/lib/modules/R/pkgbase; mkinitcpio names /boot's image by it */
	if (pkgbase && pkgbase[0]) {
		*why = "Arch's /usr/lib/modules/RELEASE/pkgbase is there";
		return VENDORS_ARCH;
	}
	/* "6.1.0-41-amd64 (debian-kernel@lists.debian.org) ... #1 SMP
	 * PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)": the builder
	 * debian/rules.real sets, the UTS version gencontrol.py writes */
	if (banner && (strstr(banner, "(debian-kernel@lists.debian.org)") ||
		       strstr(banner, " Debian "))) {
		*why = "the image's version line names Debian";
		return VENDORS_DEBIAN;
	}
	/* "#52-Ubuntu SMP": Ubuntu's UTS version (debian/rules.d) */
	if (banner && strstr(banner, "-Ubuntu ")) {
		*why = "the image's version line names Ubuntu (#N-Ubuntu)";
		return VENDORS_UBUNTU;
	}
	/* kernel.spec: "6.17.7-300.fc43.x86_64", "5.14.0-503.el9.x86_64" */
	if (has_mark(release, ".fc") || has_mark(release, ".el")) {
		*why = "the release is Fedora's or RHEL's (.fcNN, .elN)";
		return VENDORS_FEDORA;
	}
	if (banner && banner_release(banner, rel, sizeof(rel)) &&
	    (has_mark(rel, ".fc") || has_mark(rel, ".el"))) {
		*why = "the image's version line names a Fedora or RHEL "
		       "release (.fcNN, .elN)";
		return VENDORS_FEDORA;
	}
	/* rpm/kernel-binary.spec.in: built by geeko@buildhost with "gcc
	 * (SUSE Linux)"; releases end in the flavour ("-default") */
	if (banner && (strstr(banner, "(geeko@buildhost)") ||
		       strstr(banner, "(SUSE Linux)"))) {
		*why = "the image's version line names SUSE (geeko@buildhost)";
		return VENDORS_SUSE;
	}
	/* "6.12.8-arch1-1 (linux@archlinux)", "(linux-lts@archlinux)" */
	if (banner && strstr(banner, "@archlinux)")) {
		*why = "the image's version line names Arch's builder";
		return VENDORS_ARCH;
	}
	*why = banner ? "the image's version line names no known vendor: "
			"judged as kernel.org's (give --kernel-vendor)" :
			"no image version line: judged as kernel.org's "
			"(give --kernel-vendor)";
	return VENDORS_UNKNOWN;
}

/*
 * The releases whose load_uefi_certs() asks arch_get_secureboot():
 * "integrity: Make arch_ima_get_secureboot integrity-wide" (31a6a07eefeb,
 * the integrity-v7.1 pull) and its fix "integrity: Eliminate weak
 * definition of arch_get_secureboot()" (which adds
 * HAVE_ARCH_GET_SECUREBOOT).  Other stable lines: 6.1 had not taken it
 * by 6.1.192 (Debian's linux-source-6.1 6.1.192-3 load_uefi.c still asks
 * arch_ima_get_secureboot()); 6.18 had not by 6.18.40 (Arch's 6.18.40
 * config as mirrored by linux-tkg has no HAVE_ARCH_GET_SECUREBOOT);
 * 5.10, 5.15, 6.6 and 7.0: not found taken.  A .config that has the
 * option settles it whatever the release.
 */
static const struct {
	int mm;			/* RULES_V(major, minor) */
	int sublevel;		/* the first release of that line */
	const char *why;
} arch_sb_since[] = {
	/* mainline: in v7.1 (integrity-v7.1 pull, 31a6a07eefeb) */
	{ RULES_V(7, 1), 0, "kernel.org 7.1 and later ask arch_get_secureboot()" },
	/* Debian's linux 6.12.111-1 changelog lists both commits among
	 * "Update to 6.12.110" (linux-source-6.12 6.12.118-1~deb12u1,
	 * changelog.Debian.gz) */
	{ RULES_V(6, 12), 110, "6.12.110 and later ask arch_get_secureboot() "
	  "(stable backport)" },
};

bool vendors_mok_asks_arch(const struct kernel_config *kc, const char *version,
			   const char **why)
{
	int maj = 0, min = 0, sub = 0;

	if (kc && kc->arch_get_secureboot) {
		*why = "CONFIG_HAVE_ARCH_GET_SECUREBOOT: load_uefi_certs() asks "
		       "arch_get_secureboot()";
		return true;
	}
	if (version && sscanf(version, "%d.%d.%d", &maj, &min, &sub) >= 2) {
		int mm = RULES_V(maj, min);

		if (mm >= arch_sb_since[0].mm) {
			*why = arch_sb_since[0].why;
			return true;
		}
		for (size_t i = 1; i < sizeof(arch_sb_since) /
				       sizeof(arch_sb_since[0]); i++)
			if (mm == arch_sb_since[i].mm &&
			    sub >= arch_sb_since[i].sublevel) {
				*why = arch_sb_since[i].why;
				return true;
			}
	}
	*why = "load_uefi_certs() asks IMA's arch_ima_get_secureboot() "
	       "(before \"integrity: Make arch_ima_get_secureboot "
	       "integrity-wide\")";
	return false;
}
