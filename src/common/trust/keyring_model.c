// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trust/keyring_model.h"

/* v in [since, until); an empty span ({0, 0}) holds nothing */
static bool in_span(int v, struct rules_span s)
{
	if (!s.since && !s.until)
		return false;
	return v >= s.since && (!s.until || v < s.until);
}

/* The options the judged kernel has: its .config's, else the vendor's
 * shipped ones. */
static struct vendors_options options_of(const struct kernel_config *kc,
				    const struct vendors_row *row)
{
	if (!kc)
		return row->shipped;
	return (struct vendors_options){
		.keyrings = kc->keyrings,
		/* arch_get_ima_policy() needs CONFIG_MODULE_SIG to enforce */
		.ima_arch_policy = kc->ima_arch_policy && kc->module_sig,
		.lockdown_in_sb = kc->lockdown_lsm && kc->lockdown_in_sb,
		.revocation_list = kc->revocation_list,
		.sig_force = kc->sig_force,
	};
}

/* ima_efi.c: IMA_ARCH_POLICY and IMA_SECURE_AND_OR_TRUSTED_BOOT (which
 * IMA_ARCH_POLICY selects on x86 and arm64) */
static bool ima_secure_boot(const struct kernel_config *kc, const struct vendors_row *row)
{
	return kc ? kc->ima_secure_boot || kc->ima_arch_policy :
		    row->shipped.ima_arch_policy;
}

/* What the kernel does when booted with Secure Boot, whatever the
 * machine: the lockdown level its patch raises to. */
static void sb_lockdown(const struct kernel_config *kc, struct keyring_model *o)
{
	if (!o->opts.lockdown_in_sb) {
		o->sb_lockdown = KERNEL_CONFIG_LOCK_NONE;
		return;
	}
	o->sb_lockdown = o->row->sb_level;
	if (!kc)
		o->sb_lockdown_by = o->row->sb_level == KERNEL_CONFIG_LOCK_CONFIDENTIALITY ?
			"EFI Secure Boot (assumed: no kernel config; the "
			"vendor's patch locks down to confidentiality)" :
			"EFI Secure Boot (assumed: no kernel config)";
	else if (o->row->sb_level == KERNEL_CONFIG_LOCK_CONFIDENTIALITY)
		o->sb_lockdown_by = "EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_"
				    "SECURE_BOOT: the vendor's patch locks down "
				    "to confidentiality)";
	else if (kc->lockdown_in_sb_opt &&
		 strcmp(kc->lockdown_in_sb_opt,
			"CONFIG_LOCK_DOWN_IN_SECURE_BOOT") == 0)
		o->sb_lockdown_by = "EFI Secure Boot "
				    "(CONFIG_LOCK_DOWN_IN_SECURE_BOOT)";
	else
		o->sb_lockdown_by = "EFI Secure Boot "
				    "(CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT)";
}

static void revocation(const struct kernel_config *kc, struct keyring_model *o)
{
	o->revocation_certs = o->opts.revocation_list;
	if (o->revocation_certs)
		return;
	/* certs/blacklist.c: add_key_to_revocation_list() and
	 * is_key_on_revocation_list() are stubs without it */
	o->revocation_why = kc ?
		"CONFIG_SYSTEM_REVOCATION_LIST is not set: an X.509 "
		"certificate in dbx or MokListXRT revokes nothing (its hashes "
		"still do)" :
		"no kernel config, and the vendor ships no "
		"SYSTEM_REVOCATION_LIST: an X.509 certificate in dbx or "
		"MokListXRT revokes nothing (its hashes still do)";
}

void keyring_model_decide(const struct kernel_config *kc, const struct machine *m,
			  enum vendors_id given, const char *banner, const char *version,
			  struct keyring_model *o)
{
	int major = 0, minor = 0, v;
	bool sb_on;

	memset(o, 0, sizeof(*o));
	if (!version || sscanf(version, "%d.%d", &major, &minor) != 2)
		major = minor = 0;
	v = RULES_V(major, minor);
	o->assumed_config = !kc;
	if (given != VENDORS_UNKNOWN) {
		o->vendor = given;
		o->vendor_why = "--kernel-vendor";
	} else {
		o->vendor = vendors_detect(banner, m ? m->release : NULL,
					   m ? m->pkgbase : NULL, &o->vendor_why);
	}
	o->row = vendors_row_of(o->vendor);
	o->opts = options_of(kc, o->row);
	/* kernel/module/signing.c: mod_verify_sig(), the vendor's "KEYS:
	 * Make use of platform keyring for module signature verify" */
	o->platform_for_modules = o->row->platform_retry &&
				  (o->opts.keyrings & KERNEL_CONFIG_PLATFORM);
	sb_lockdown(kc, o);
	revocation(kc, o);
	o->mok_asks_arch = vendors_mok_asks_arch(kc, version, &o->mok_asks_why);
	/* arch_get_secureboot() is the EFI stub's verdict, which shim's
	 * MokSBState turns off; unknown is taken as on, and said */
	sb_on = m && m->has_efivars &&
		(m->sb == MACHINE_SB_ON || m->sb == MACHINE_SB_UNKNOWN);
	/* ima_efi.c arch_get_ima_policy(): with Secure Boot on, module
	 * signatures are enforced from then on */
	if (sb_on && o->opts.ima_arch_policy) {
		o->ima_enforce = true;
		o->enforce_why = kc ? "IMA's architecture policy under Secure "
			"Boot (CONFIG_IMA_ARCH_POLICY): set_module_sig_enforced()" :
			"IMA's architecture policy under Secure Boot (assumed: "
			"no kernel config, the vendor ships IMA_ARCH_POLICY): "
			"set_module_sig_enforced()";
	}

	if (!m || !m->has_efivars) {
		o->mok = KEYRING_MODEL_MOK_NOT_LOADED;
		o->mok_why = "not booted with UEFI";
		o->db_why = "not booted with UEFI";
		return;
	}
	if (!(o->opts.keyrings & KERNEL_CONFIG_LOAD_UEFI)) {
		o->mok = KEYRING_MODEL_MOK_NOT_LOADED;
		o->mok_why = "CONFIG_LOAD_UEFI_KEYS is not set";
		o->db_why = o->mok_why;
		return;
	}
	/* load_uefi_certs(): db unless MokIgnoreDB, dbx always */
	o->dbx = true;
	if (m->has_ignore_db)
		o->db_why = "MokIgnoreDB (mokutil --ignore-db): the kernel "
			    "does not load db";
	else if (!(o->opts.keyrings & KERNEL_CONFIG_PLATFORM))
		o->db_why = "CONFIG_INTEGRITY_PLATFORM_KEYRING is not set";
	else
		o->db = true;
	/* "the MOK/MOKx can not be trusted when secure boot is disabled" */
	if (!sb_on) {
		o->mok = KEYRING_MODEL_MOK_NOT_LOADED;
		o->mok_why = m->sb == MACHINE_SB_SHIM_OFF ?
			"shim's validation is off (MokSBState): the kernel "
			"sees Secure Boot off and loads no MOK or MOKx key" :
			"Secure Boot is off: the kernel loads no MOK or MOKx "
			"key";
		return;
	}
	/* load_uefi_certs(): "the MOK/MOKx can not be trusted when secure
	 * boot is disabled", asked of IMA before the integrity-wide change:
	 * a kernel without IMA_SECURE_AND_OR_TRUSTED_BOOT never loads them */
	if (!o->mok_asks_arch && !ima_secure_boot(kc, o->row)) {
		o->mok = KEYRING_MODEL_MOK_NOT_LOADED;
		o->mok_why = kc ? "MokListRT and MokListXRT not loaded: "
			"load_uefi_certs() asks IMA's arch_ima_get_secureboot(), "
			"false without CONFIG_IMA_SECURE_AND_OR_TRUSTED_BOOT "
			"(release before \"integrity: Make "
			"arch_ima_get_secureboot integrity-wide\")" :
			"MokListRT and MokListXRT not loaded: load_uefi_certs() "
			"asks IMA's arch_ima_get_secureboot(), and the vendor "
			"ships no IMA (assumed: no kernel config)";
		return;
	}
	o->mokx = true;
	/* machine_keyring.c: trust_moklist(): the row's releases where it
	 * returns true; where not known, kernel.org's is taken and said */
	if (v && in_span(v, o->row->trust_always)) {
		o->trust_moklist = true;
		o->trust_why = "MokListRT, trusted as Debian's "
				"trust_moklist() trusts it always";
	} else {
		if (in_span(v ? v : o->row->trust_unknown.since,
			    o->row->trust_unknown))
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
	if (!(o->opts.keyrings & KERNEL_CONFIG_MACHINE) || !o->trust_moklist) {
		o->mok = (o->opts.keyrings & KERNEL_CONFIG_PLATFORM) ? KEYRING_MODEL_MOK_PLATFORM :
							  KEYRING_MODEL_MOK_NOT_LOADED;
		o->mok_why = !(o->opts.keyrings & KERNEL_CONFIG_MACHINE) ?
			"MokListRT: CONFIG_INTEGRITY_MACHINE_KEYRING is not set" :
			o->trust_why;
		return;
	}
	o->mok_why = o->trust_why;
	if (o->opts.keyrings & KERNEL_CONFIG_CA_MACHINE_MAX)
		o->mok = KEYRING_MODEL_MOK_MACHINE_CA_MAX;
	else if (o->opts.keyrings & KERNEL_CONFIG_CA_MACHINE)
		o->mok = KEYRING_MODEL_MOK_MACHINE_CA;
	else
		o->mok = KEYRING_MODEL_MOK_MACHINE;
}
