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
 * Two things no .config says are the distribution's patches: Debian's
 * kernel/module/signing.c retries an -ENOKEY module against .platform
 * (VERIFY_USE_PLATFORM_KEYRING; in Debian's 5.10, 6.1, 6.12 and 7.3
 * sources), and Debian's trust_moklist() of 6.1 and 6.12 is always true,
 * while Debian's 7.3 has kernel.org's: MokListRT trusted only when shim
 * published MokListTrustedRT in its MOK variable table.  Kernel.org's has
 * no retry.  Which kernel it is comes from the image's version line, or
 * is given.
 */
#ifndef MODSIGN_TRUST_KEYRING_MODEL_H
#define MODSIGN_TRUST_KEYRING_MODEL_H

#include <stdbool.h>

#include "kernel/kernel_config.h"
#include "trust/machine.h"

enum km_vendor {
	KM_VENDOR_UNKNOWN,	/* judged as kernel.org's, and said */
	KM_VENDOR_DEBIAN,
	KM_VENDOR_MAINLINE,
};

/* "debian", "mainline", "unknown"; km_vendor_by_name: -1 for others
 * (unknown is no name one may give) */
const char *km_vendor_name(enum km_vendor v);
int km_vendor_by_name(const char *name);

enum km_mok {
	KM_MOK_NOT_LOADED,	/* Secure Boot off, no UEFI, or no MOK list */
	KM_MOK_MACHINE,		/* .machine, trusted for modules */
	KM_MOK_MACHINE_CA,	/* .machine for CA keys, the rest .platform */
	KM_MOK_MACHINE_CA_MAX,	/* the same, CA keys without digitalSignature */
	KM_MOK_PLATFORM,	/* .platform */
};

struct km_model {
	enum km_vendor vendor;
	const char *vendor_why;		/* static words */
	bool platform_for_modules;	/* the -ENOKEY retry against .platform */
	bool trust_moklist;
	const char *trust_why;
	bool trust_assumed;	/* a Debian line whose trust_moklist() is not
				 * known: kernel.org's taken */
	enum km_mok mok;
	const char *mok_why;
	bool db, dbx, mokx;		/* loaded */
	const char *db_why;		/* why db is not, or NULL */
	bool assumed_config;		/* no .config: Debian's options taken */
};

/*
 * Decide the model.  kc: the judged kernel's config, or NULL; m: the
 * machine (Secure Boot, MOK variables), or NULL for no machine; vendor:
 * given (--kernel-vendor), or KM_VENDOR_UNKNOWN to take the banner's
 * (banner may be NULL); major.minor: the kernel's version (0.0: not
 * known), which decides Debian's trust_moklist().
 */
void km_decide(const struct kconfig *kc, const struct mc_machine *m,
	       enum km_vendor given, const char *banner, int major,
	       int minor, struct km_model *out);

#endif
