/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a kernel files each key of a machine, and which keyrings it
 * asks for a module: the keyring model of one kernel on one machine.
 *
 *   source        keyring                       when
 *   image list    .builtin_trusted_keys         always
 *   UEFI db       .platform                     LOAD_UEFI_KEYS,
 *                                               INTEGRITY_PLATFORM_KEYRING,
 *                                               no MokIgnoreDB
 *   UEFI dbx      .blacklist / revocation       LOAD_UEFI_KEYS
 *   MokListXRT    .blacklist / revocation       and Secure Boot on
 *   MokListRT     .machine (-> secondary)       Secure Boot on,
 *                                               INTEGRITY_MACHINE_KEYRING,
 *                                               trust_moklist(); with
 *                                               INTEGRITY_CA_MACHINE_KEYRING
 *                                               only CA keys, the rest
 *                                               .platform
 *                 .platform                     Secure Boot on, otherwise
 *
 * security/integrity/platform_certs/load_uefi.c (load_uefi_certs,
 * uefi_check_ignore_db, load_moklist_certs), keyring_handler.c
 * (get_handler_for_mok, _db, _dbx), machine_keyring.c
 * (add_to_machine_keyring, trust_moklist), digsig.c
 * (integrity_init_keyring: restrict_link_by_ca), certs/system_keyring.c
 * (set_machine_trusted_keys links .machine into the secondary keyring).
 *
 * What no .config says is the vendor's (trust/vendors.h: the platform
 * keyring retry, trust_moklist(), the lockdown level); what a .config
 * says is read from it: whether load_uefi_certs() loads MOK at all under
 * Secure Boot (before "integrity: Make arch_ima_get_secureboot
 * integrity-wide" only with IMA_SECURE_AND_OR_TRUSTED_BOOT), IMA's
 * architecture policy enforcing module signatures under Secure Boot,
 * revocation certificates (SYSTEM_REVOCATION_LIST).  Which kernel it is
 * comes from its own marks, or is given.
 */
#ifndef MODSIGN_TRUST_KEYRING_MODEL_H
#define MODSIGN_TRUST_KEYRING_MODEL_H

#include <stdbool.h>

#include "kernel/kernel_config.h"
#include "trust/machine.h"
#include "trust/vendors.h"

enum keyring_model_mok {
	KEYRING_MODEL_MOK_NOT_LOADED,	/* Secure Boot off, no UEFI, or no MOK list */
	KEYRING_MODEL_MOK_MACHINE,		/* .machine, trusted for modules */
	KEYRING_MODEL_MOK_MACHINE_CA,	/* .machine for CA keys, the rest .platform */
	KEYRING_MODEL_MOK_MACHINE_CA_MAX,	/* the same, CA keys without digitalSignature */
	KEYRING_MODEL_MOK_PLATFORM,	/* .platform */
};

struct keyring_model {
	enum vendors_id vendor;
	const char *vendor_why;		/* static words */
	bool platform_for_modules;	/* the -ENOKEY retry against .platform */
	bool trust_moklist;
	const char *trust_why;
	bool trust_assumed;	/* a Debian line whose trust_moklist() is not
				 * known: kernel.org's taken */
	enum keyring_model_mok mok;
	const char *mok_why;
	bool db, dbx, mokx;		/* loaded */
	const char *db_why;		/* why db is not, or NULL */
	bool assumed_config;	/* no .config: the row's shipped options */
	const struct vendors_row *row;	/* the vendor's row */
	struct vendors_options opts;	/* the options judged by: the .config's,
				 * else the row's shipped ones */
	/* load_uefi_certs()'s question before MOK (static words) */
	bool mok_asks_arch;
	const char *mok_asks_why;
	/* ima_efi.c: IMA_ARCH_POLICY with Secure Boot on calls
	 * set_module_sig_enforced() */
	bool ima_enforce;
	const char *enforce_why;
	/* X.509 entries of dbx and MokListXRT are revocation certificates
	 * (SYSTEM_REVOCATION_LIST); why, when not */
	bool revocation_certs;
	const char *revocation_why;
	/* the level Secure Boot raises lockdown to (KERNEL_CONFIG_LOCK_NONE: this
	 * kernel has no such option), and the words saying so */
	enum kernel_config_lockdown sb_lockdown;
	const char *sb_lockdown_by;
};

/*
 * Decide the model.  kc: the judged kernel's config, or NULL; m: the
 * machine (Secure Boot, MOK variables, Arch's pkgbase), or NULL for no
 * machine; given: --kernel-vendor, or VENDORS_UNKNOWN to take the
 * kernel's own marks (banner: its version line, may be NULL); version:
 * the kernel's release ("6.12.110", "7.1.7-arch1"; NULL or "": not
 * known), which decides Debian's trust_moklist() and what
 * load_uefi_certs() asks.
 */
void keyring_model_decide(const struct kernel_config *kc, const struct machine *m,
			  enum vendors_id given, const char *banner, const char *version,
			  struct keyring_model *out);

#endif
