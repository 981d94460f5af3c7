/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules a kernel .config fixes: its version (the header line
 * "# Linux/x86 6.1.192 Kernel Configuration"), the digests and key types
 * its crypto API has, MODULE_SIG / MODULE_SIG_FORCE, the module signing
 * hash and key type, and the blacklist and revocation files.
 *
 * Crypto built as a module (=m) counts as present: crypto_alloc_shash()
 * and crypto_alloc_akcipher() request_module("crypto-<name>") on a miss,
 * so the algorithm is there once modprobe can reach /lib/modules (not in
 * the earliest boot, before the initramfs is mounted).
 */
#ifndef MODSIGN_KERNEL_KERNEL_CONFIG_H
#define MODSIGN_KERNEL_KERNEL_CONFIG_H

#include <stdbool.h>

#include <openssl/evp.h>

#include "kernel/rules.h"

/* security/lockdown: the levels of enum lockdown_reason's two maxima */
enum kernel_config_lockdown {
	KERNEL_CONFIG_LOCK_NONE,
	KERNEL_CONFIG_LOCK_INTEGRITY,
	KERNEL_CONFIG_LOCK_CONFIDENTIALITY,
};

/* "none", "integrity", "confidentiality" */
const char *kernel_config_lockdown_name(enum kernel_config_lockdown l);
/* The level named so (as /sys/kernel/security/lockdown words it), or -1 */
int kernel_config_lockdown_by_name(const char *name);

/* The options that say which keyrings there are and what may enter
 * them (certs/Kconfig, security/integrity/Kconfig). */
enum kernel_config_keyring {
	KERNEL_CONFIG_SECONDARY = 1u << 0,		/* SECONDARY_TRUSTED_KEYRING */
	KERNEL_CONFIG_SECONDARY_BY_BUILTIN = 1u << 1, /* ..._SIGNED_BY_BUILTIN */
	KERNEL_CONFIG_MACHINE = 1u << 2,		/* INTEGRITY_MACHINE_KEYRING */
	KERNEL_CONFIG_CA_MACHINE = 1u << 3,	/* INTEGRITY_CA_MACHINE_KEYRING */
	KERNEL_CONFIG_CA_MACHINE_MAX = 1u << 4,	/* INTEGRITY_CA_MACHINE_KEYRING_MAX */
	KERNEL_CONFIG_PLATFORM = 1u << 5,		/* INTEGRITY_PLATFORM_KEYRING */
	KERNEL_CONFIG_LOAD_UEFI = 1u << 6,		/* LOAD_UEFI_KEYS */
	KERNEL_CONFIG_INTEGRITY_TRUSTED = 1u << 7,	/* INTEGRITY_TRUSTED_KEYRING */
};

/*
 * Whether the kernel loads modules, and checks their signatures
 * (kernel/module/internal.h: without CONFIG_MODULE_SIG, module_sig_check()
 * is an inline returning 0; without CONFIG_MODULES, kernel/sys_ni.c gives
 * finit_module() as -ENOSYS).
 */
enum kernel_config_modules {
	KERNEL_CONFIG_MODS_CHECKED,	/* CONFIG_MODULE_SIG=y */
	KERNEL_CONFIG_MODS_ASSUMED,	/* neither MODULE_SIG line: taken as set */
	KERNEL_CONFIG_MODS_UNCHECKED,	/* "# CONFIG_MODULE_SIG is not set" */
	KERNEL_CONFIG_MODS_NONE,		/* "# CONFIG_MODULES is not set" */
};

struct kernel_config {
	char version[32];	/* "6.1.192"; "" when the header is missing */
	int major, minor;
	struct rules_rules rules;	/* the version's line, with the crypto bits
				 * and the ML-DSA authattrs waiver */
	const char *line_note;	/* rules_resolve_mm()'s note, or NULL */
	bool too_old;		/* older than the oldest line: refused */
	unsigned modular;	/* crypto bits present only as =m */
	bool module_sig, sig_force;
	enum kernel_config_modules modules;
	/* SECURITY_LOCKDOWN_LSM; LOCK_DOWN_IN_EFI_SECURE_BOOT or Ubuntu's
	 * LOCK_DOWN_IN_SECURE_BOOT (locked down when booted with Secure
	 * Boot; lockdown_in_sb_opt names the one set); LOCK_DOWN_KERNEL_FORCE_* */
	bool lockdown_lsm, lockdown_in_sb;
	const char *lockdown_in_sb_opt;
	/* security/integrity/ima/Kconfig: IMA, IMA_ARCH_POLICY (with
	 * Secure Boot on, ima_efi.c's arch_get_ima_policy() calls
	 * set_module_sig_enforced()), IMA_SECURE_AND_OR_TRUSTED_BOOT (the
	 * real arch_ima_get_secureboot(), which load_uefi_certs() asked
	 * before MOK until "integrity: Make arch_ima_get_secureboot
	 * integrity-wide") */
	bool ima, ima_arch_policy, ima_secure_boot;
	/* arch/Kconfig HAVE_ARCH_GET_SECUREBOOT: only in kernels with that
	 * change, whose load_uefi_certs() asks arch_get_secureboot() */
	bool arch_get_secureboot;
	/* certs/Kconfig SYSTEM_REVOCATION_LIST: X.509 certificates in dbx
	 * and MokListXRT (and SYSTEM_REVOCATION_KEYS) revoke their key */
	bool revocation_list;
	enum kernel_config_lockdown lockdown_force;
	char sig_hash[32];	/* CONFIG_MODULE_SIG_HASH */
	const char *key_type;	/* "rsa", "ecdsa", "mldsa65"... or NULL */
	/* CONFIG_SYSTEM_BLACKLIST_HASH_LIST and CONFIG_SYSTEM_REVOCATION_KEYS
	 * (only with SYSTEM_REVOCATION_LIST=y) as written, and resolved
	 * against the kernel tree; NULL when unset or "" */
	char *blacklist, *blacklist_path;
	char *revocation, *revocation_path;
	const char *why;	/* static: why a compressed config failed */
	unsigned keyrings;	/* enum kernel_config_keyring bits set =y */
};

/*
 * Read a .config: a file or a pipe, plain or compressed with gzip (as
 * /proc/config.gz), xz or zstd.  tree is the kernel tree the file names in it are
 * relative to; NULL: the directory holding the .config.  -errno when
 * unreadable, -EBADMSG (kc->why) for a corrupt compressed one;
 * -EINVAL (*line set) for a line that is no Kconfig
 * assignment or comment; -ENODATA when no CONFIG_ line at all.
 */
/*
 * A .config without its "# Linux/<arch> VERSION Kernel Configuration"
 * line says no version: kernel_config_load takes the newest line's rules, and the
 * user's --kernel settles it instead (the crypto bits read stay).  No
 * change, and -EEXIST, when the file names its version.
 */
int kernel_config_settle_line(struct kernel_config *kc, const struct rules_rules *kr);
int kernel_config_load(const char *path, const char *tree, struct kernel_config *kc,
	    int *line);
/*
 * kernel_config_load's failure err in words, the same in every tool: why gets the
 * line to say after the file's name, and the exit code is returned
 * (base/exitcode.h): EXITCODE_USAGE for a file that is not a .config,
 * EXITCODE_IO for one that cannot be read or decompressed.
 */
int kernel_config_load_failure(int err, int line, const struct kernel_config *kc, char *why,
		    size_t n);
void kernel_config_free(struct kernel_config *kc);


#define KERNEL_CONFIG_MAX_WARN 2
/*
 * sign-file's checks against the kernel, as lines in warn[] (their count
 * returned): the digest differs from CONFIG_MODULE_SIG_HASH or the
 * kernel lacks it; the key type differs from MODULE_SIG_KEY_TYPE_* or
 * the kernel lacks it.
 */
int kernel_config_digest_warnings(const struct kernel_config *kc, const char *hash,
		       char warn[KERNEL_CONFIG_MAX_WARN][200]);
int kernel_config_key_warnings(const struct kernel_config *kc, EVP_PKEY *key,
		    char warn[KERNEL_CONFIG_MAX_WARN][200]);

#endif
