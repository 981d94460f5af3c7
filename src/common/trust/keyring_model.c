// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "trust/keyring_model.h"

static const char *const vendor_names[] = {
	[KM_VENDOR_UNKNOWN] = "unknown",
	[KM_VENDOR_DEBIAN] = "debian",
	[KM_VENDOR_MAINLINE] = "mainline",
};

const char *km_vendor_name(enum km_vendor v)
{
	return vendor_names[v];
}

int km_vendor_by_name(const char *name)
{
	if (strcmp(name, "debian") == 0)
		return KM_VENDOR_DEBIAN;
	if (strcmp(name, "mainline") == 0)
		return KM_VENDOR_MAINLINE;
	return -1;
}

/*
 * The vendor a version line names: Debian's kernels are built by
 * debian-kernel@lists.debian.org and say "Debian <version>" in their
 * UTS version; nothing else is known (KM_VENDOR_UNKNOWN).
 */
static enum km_vendor km_vendor_of_banner(const char *banner)
{
	/* "6.1.0-41-amd64 (debian-kernel@lists.debian.org) (gcc-12 ...)
	 * #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)": the
	 * builder debian/rules.real sets, and the UTS version
	 * debian/bin/gencontrol.py writes */
	if (!banner)
		return KM_VENDOR_UNKNOWN;
	if (strstr(banner, "(debian-kernel@lists.debian.org)") ||
	    strstr(banner, " Debian "))
		return KM_VENDOR_DEBIAN;
	return KM_VENDOR_UNKNOWN;
}

/* Debian's options, taken when no .config was read (every Debian line
 * since 6.1 has them; 5.10 has no machine keyring) */
#define KM_DEBIAN_OPTS (KC_SECONDARY | KC_MACHINE | KC_PLATFORM | \
			KC_LOAD_UEFI)

void km_decide(const struct kconfig *kc, const struct mc_machine *m,
	       enum km_vendor given, const char *banner, int major,
	       int minor, struct km_model *o)
{
	int v = major * 1000 + minor;
	unsigned opts = kc ? kc->keyrings : KM_DEBIAN_OPTS;
	bool sb_on;

	memset(o, 0, sizeof(*o));
	o->assumed_config = !kc;
	if (given != KM_VENDOR_UNKNOWN) {
		o->vendor = given;
		o->vendor_why = "--kernel-vendor";
	} else {
		o->vendor = km_vendor_of_banner(banner);
		o->vendor_why = o->vendor == KM_VENDOR_DEBIAN ?
			"the image's version line names Debian" : banner ?
			"the image's version line names no known vendor: "
			"judged as kernel.org's (give --kernel-vendor)" :
			"no image version line: judged as kernel.org's "
			"(give --kernel-vendor)";
	}
	/* kernel/module/signing.c: mod_verify_sig(), Debian's
	 * "KEYS: Make use of platform keyring for module signature
	 * verify" */
	o->platform_for_modules = o->vendor == KM_VENDOR_DEBIAN &&
				  (opts & KC_PLATFORM);

	if (!m || !m->has_efivars) {
		o->mok = KM_MOK_NOT_LOADED;
		o->mok_why = "not booted with UEFI";
		o->db_why = "not booted with UEFI";
		return;
	}
	if (!(opts & KC_LOAD_UEFI)) {
		o->mok = KM_MOK_NOT_LOADED;
		o->mok_why = "CONFIG_LOAD_UEFI_KEYS is not set";
		o->db_why = o->mok_why;
		return;
	}
	/* load_uefi_certs(): db unless MokIgnoreDB, dbx always */
	o->dbx = true;
	if (m->has_ignore_db)
		o->db_why = "MokIgnoreDB (mokutil --ignore-db): the kernel "
			    "does not load db";
	else if (!(opts & KC_PLATFORM))
		o->db_why = "CONFIG_INTEGRITY_PLATFORM_KEYRING is not set";
	else
		o->db = true;
	/* "the MOK/MOKx can not be trusted when secure boot is disabled":
	 * arch_get_secureboot() is the EFI stub's verdict, which shim's
	 * MokSBState turns off; unknown is taken as on, and said */
	sb_on = m->sb == MC_SB_ON || m->sb == MC_SB_UNKNOWN;
	if (!sb_on) {
		o->mok = KM_MOK_NOT_LOADED;
		o->mok_why = m->sb == MC_SB_SHIM_OFF ?
			"shim's validation is off (MokSBState): the kernel "
			"sees Secure Boot off and loads no MOK or MOKx key" :
			"Secure Boot is off: the kernel loads no MOK or MOKx "
			"key";
		return;
	}
	o->mokx = true;
	/* machine_keyring.c: trust_moklist().  Debian's 6.1 and 6.12
	 * return true; its 7.3 has kernel.org's; the lines between are
	 * not known and taken as 7.3 is, and said */
	if (o->vendor == KM_VENDOR_DEBIAN && v && v <= 6012) {
		o->trust_moklist = true;
		o->trust_why = "MokListRT, trusted as Debian's "
				"trust_moklist() trusts it always";
	} else {
		if (o->vendor == KM_VENDOR_DEBIAN && (!v || v < 7003))
			o->trust_assumed = true;
		o->trust_moklist = m->has_mok_trusted;
		o->trust_why = m->has_mok_trusted ?
			"MokListRT, trusted by MokListTrustedRT in shim's MOK "
			"variable table" : m->has_mokvars ?
			"MokListRT, untrusted: no MokListTrustedRT in shim's "
			"MOK variable table (mokutil --untrust-mok, or a shim "
			"without it)" :
			"MokListRT, untrusted: no MOK variable table "
			"(/sys/firmware/efi/mok-variables), so no "
			"MokListTrustedRT";
	}
	/* keyring_handler.c: get_handler_for_mok() */
	if (!(opts & KC_MACHINE) || !o->trust_moklist) {
		o->mok = (opts & KC_PLATFORM) ? KM_MOK_PLATFORM :
						KM_MOK_NOT_LOADED;
		o->mok_why = !(opts & KC_MACHINE) ?
			"MokListRT: CONFIG_INTEGRITY_MACHINE_KEYRING is not set" :
			o->trust_why;
		return;
	}
	o->mok_why = o->trust_why;
	if (opts & KC_CA_MACHINE_MAX)
		o->mok = KM_MOK_MACHINE_CA_MAX;
	else if (opts & KC_CA_MACHINE)
		o->mok = KM_MOK_MACHINE_CA;
	else
		o->mok = KM_MOK_MACHINE;
}
