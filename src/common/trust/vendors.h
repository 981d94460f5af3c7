/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whose kernel it is, as data: one row per vendor (and per line where a
 * vendor changed behaviour), each read from the vendor's own source, and
 * the kernel.org releases whose load_uefi_certs() asks
 * arch_get_secureboot() before loading MOK.  What the patches decide (the
 * platform keyring retry, trust_moklist(), the lockdown level Secure Boot
 * raises to) is in the row; what a .config decides is read from the
 * .config, and the row's shipped options are taken only when none is
 * found (and that is said).  trust/keyring_model.c applies them.
 */
#ifndef MODSIGN_TRUST_VENDORS_H
#define MODSIGN_TRUST_VENDORS_H

#include <stdbool.h>

#include "kernel/kernel_config.h"
#include "kernel/rules.h"

enum vendors_id {
	VENDORS_UNKNOWN,	/* judged as kernel.org's, and said */
	VENDORS_DEBIAN,
	VENDORS_MAINLINE,	/* kernel.org */
	VENDORS_UBUNTU,
	VENDORS_FEDORA,	/* Fedora, RHEL, CentOS Stream and rebuilds */
	VENDORS_SUSE,		/* openSUSE Tumbleweed/Leap, SLES */
	VENDORS_ARCH,
	VENDORS_N,
};

/* The options a vendor ships, taken when no .config is found. */
struct vendors_options {
	unsigned keyrings;	/* enum kernel_config_keyring bits */
	bool ima_arch_policy;	/* IMA, IMA_ARCH_POLICY,
				 * IMA_SECURE_AND_OR_TRUSTED_BOOT */
	bool lockdown_in_sb;	/* LOCK_DOWN_IN_(EFI_)SECURE_BOOT */
	bool revocation_list;	/* SYSTEM_REVOCATION_LIST */
	bool sig_force;		/* MODULE_SIG_FORCE */
};

struct vendors_row {
	enum vendors_id vendor;
	const char *name;	/* --kernel-vendor and the JSON */
	const char *title;	/* for messages */
	/* kernel/module/signing.c mod_verify_sig(): an -ENOKEY module is
	 * verified again against .platform ("KEYS: Make use of platform
	 * keyring for module signature verify") */
	bool platform_retry;
	/* machine_keyring.c trust_moklist() returns true whatever shim
	 * published, on these releases; on trust_unknown's it is not known
	 * (kernel.org's taken, and said) */
	struct rules_span trust_always, trust_unknown;
	/* the level efi_set_secure_boot()'s lockdown patch raises to */
	enum kernel_config_lockdown sb_level;
	struct vendors_options shipped;
	const char *shipped_from;	/* whose config shipped[] was read from */
};

const struct vendors_row *vendors_row_of(enum vendors_id v);
/* "debian", "ubuntu", ..., "mainline", "unknown" */
const char *vendors_name(enum vendors_id v);
/* A --kernel-vendor name (kernel.org's also as "kernel.org"), or -1. */
int vendors_by_name(const char *name);
/* The names --kernel-vendor takes, for messages: "debian, ubuntu, ..." */
const char *vendors_names(void);

/*
 * The vendor a kernel's own marks name: its version line (banner: the
 * builder and UTS version, may be NULL), its release string and Arch's
 * /usr/lib/modules/R/pkgbase (pkgbase: "" when none).  *why gets the
 * mark, in words (static).  VENDORS_UNKNOWN when none.
 */
enum vendors_id vendors_detect(const char *banner, const char *release,
			      const char *pkgbase, const char **why);

/*
 * Whether load_uefi_certs() asks arch_get_secureboot() (Secure Boot as
 * the EFI stub saw it) before loading MOK, rather than IMA's
 * arch_ima_get_secureboot() (false without
 * IMA_SECURE_AND_OR_TRUSTED_BOOT): a .config with
 * HAVE_ARCH_GET_SECUREBOOT says so, else the release (version:
 * "6.12.110", "7.1.7-arch1", "6.12.0-55.el10"; NULL or "" when not
 * known).  *why gets the reason (static).
 */
bool vendors_mok_asks_arch(const struct kernel_config *kc, const char *version,
			   const char **why);

#endif
