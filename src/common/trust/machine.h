/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One machine as verify-file --machine sees it: the kernel it is about
 * to boot (/boot/vmlinuz-RELEASE and /boot/config-RELEASE), its UEFI
 * variables (efivarfs: MOK list, db, dbx, Secure Boot state) and the
 * running kernel's lockdown and module.sig_enforce.  Everything is read
 * under a root directory, "/" for this machine or a mounted image of
 * another one; what is missing is recorded, never an error.
 */
#ifndef MODSIGN_TRUST_MACHINE_H
#define MODSIGN_TRUST_MACHINE_H

#include <stdbool.h>

enum machine_secure_boot {
	MACHINE_SB_NO_UEFI,		/* no efivarfs: not booted with UEFI */
	MACHINE_SB_OFF,		/* SecureBoot absent or 0, or SetupMode=1 */
	MACHINE_SB_SHIM_OFF,		/* on, but shim's validation disabled */
	MACHINE_SB_ON,
	MACHINE_SB_UNKNOWN,		/* SecureBoot unreadable */
};

struct machine {
	char release[128];	/* the kernel judged for */
	char *root;		/* NULL: this machine */
	bool running;		/* release is the kernel running there */
	/* malloc'd paths, resolved inside the root (trust/rootpath.h);
	 * has_* when the file is there, and then *_from names the layout
	 * it was found by (static words); else the first place looked */
	const char *vmlinuz_from, *config_from;
	char *vmlinuz, *config, *efivars, *lockdown_path, *enforce_path;
	char *mok, *db, *dbx;	/* efivarfs files, for the trust loader */
	bool has_vmlinuz, has_config, has_efivars, has_mok, has_db, has_dbx;
	/* shim's MOK variable table as the kernel reads it first
	 * (load_moklist_certs: MokListRT; trust_moklist: MokListTrustedRT),
	 * MokListXRT and MokIgnoreDB (efivarfs) */
	char *mokvars, *mok_table, *mok_trusted, *mokx, *ignore_db;
	bool has_mokvars, has_mok_table, has_mok_trusted, has_mokx;
	bool has_ignore_db;
	char *proc_keys;	/* the running kernel's /proc/keys */
	enum machine_secure_boot sb;
	int lockdown;		/* enum kernel_config_lockdown, -1 when not readable */
	int sig_enforce;	/* 0 or 1, -1 when not readable */
	bool mok_pending;	/* MokNew: a key waits for MokManager */
	char pkgbase[128];	/* Arch's /usr/lib/modules/R/pkgbase, or "" */
};

/*
 * Look at the machine under root (NULL: "/") for kernel release (NULL:
 * the running kernel's, uname -r; under a root other than "/", the one
 * kernel installed there, BLS ones included).  The image is taken from /boot/vmlinuz-R,
 * Arch's /boot/vmlinuz-<pkgbase>, /usr/lib/modules/R/vmlinuz or
 * /lib/modules/R/vmlinuz, the first there, else the Boot Loader
 * Specification's /boot/MACHINE-ID/R/linux or the image a
 * /boot/loader/entries/NAME.conf names; the config from
 * /boot/config-R, /usr/lib/modules/R/config (and /lib/...), the
 * headers' build/.config, or /proc/config.gz when R runs there.
 * Returns 0, -ENOENT when root has no kernel to choose, -ENOTUNIQ
 * (*several set) when it has several, -ENAMETOOLONG or -ENOMEM.
 * machine_free in every case.
 */
int machine_probe(const char *root, const char *release, struct machine *m,
	     int *several);
void machine_free(struct machine *m);

/* Where images and configs are looked for, as one line for messages. */
const char *machine_image_places(void);
const char *machine_config_places(void);

/* What is known of a kernel's lockdown (security/lockdown). */
enum machine_lockdown {
	MACHINE_LD_UNKNOWN,		/* nothing says: no .config, no machine */
	MACHINE_LD_NONE,
	MACHINE_LD_IF_SB,		/* LOCK_DOWN_IN_EFI_SECURE_BOOT, Secure Boot
				 * state not known */
	MACHINE_LD_INTEGRITY,
	MACHINE_LD_CONFIDENTIALITY,
};

struct kernel_config;
struct keyring_model;

/*
 * The lockdown the judged kernel runs in: given (an enum kernel_config_lockdown,
 * -1 when not given) wins; else kc's (none without
 * SECURITY_LOCKDOWN_LSM, LOCK_DOWN_KERNEL_FORCE_*), the running
 * kernel's lockdown file, and under Secure Boot the level km's vendor
 * patch raises to (integrity; SUSE's confidentiality) with
 * LOCK_DOWN_IN_EFI_SECURE_BOOT or Ubuntu's LOCK_DOWN_IN_SECURE_BOOT,
 * the vendor's shipped options when there is no .config.  kc, m and km
 * may be NULL (no km: integrity, assumed without a .config).  *by: what
 * set the level (static or m's), or NULL.
 */
enum machine_lockdown machine_lockdown(int given, const struct kernel_config *kc,
			     const struct machine *m,
			     const struct keyring_model *km, const char **by);

/* "on", "off", ... as the JSON and messages say it */
const char *machine_secure_boot_name(enum machine_secure_boot sb);

#endif
