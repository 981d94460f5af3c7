/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trusted keys from where they live: the certificate list built into a
 * kernel image and UEFI signature lists (files, db, dbx, MokListRT).
 *
 * Where each goes, as the kernel files them (certs/system_keyring.c,
 * certs/blacklist.c):
 *   kernel image      .builtin_trusted_keys
 *   --esl FILE, MOK   trusted: .machine is linked into the secondary
 *                     keyring (CONFIG_INTEGRITY_MACHINE_KEYRING)
 *   UEFI db           .platform: modules only through the distribution
 *                     fallback (kernel/verify.h, verify_ctx.platform)
 *   dbx X.509         revocation certificates (uefi_revocation_list_x509)
 *   dbx X509_SHA256   "tbs:" blacklist hashes (uefi_blacklist_x509_tbs)
 *   dbx SHA256        "bin:" hashes (uefi_blacklist_binary): consulted by
 *                     IMA and kexec, never by module verification
 */
#ifndef MODSIGN_TRUST_TRUST_SOURCES_H
#define MODSIGN_TRUST_TRUST_SOURCES_H

#include "kernel/blacklist.h"
#include "kernel/keyring.h"
#include "kernel/rules.h"
#include "kernel/x509.h"
#include "trust/kernel_image.h"

struct trust_sources_stores {
	const struct rules_rules *kr;
	struct keyring *trusted, *revoked, *platform;
	struct blacklist *bl;
};

/* What one source gave, for messages. */
struct trust_sources_note {
	/* kernel image */
	enum compress_fmt comp;
	enum kernel_image_how how;
	size_t n_runs, list_off, list_len;
	int listed;		/* system list elements seen */
	int revocation;		/* revocation list elements seen */
	unsigned hashes;	/* blacklist hash strings taken */
	bool framing_error;	/* "Problem parsing in-kernel X.509 ..." */
	size_t stop_off;
	/* signature lists */
	unsigned x509, tbs_hashes, bin_hashes, other;
	size_t bad_off;		/* where a malformed list starts */
	const char *why;	/* static, on error */
};

/*
 * Load the built-in certificates of a kernel image into st->trusted, its
 * revocation certificates into st->revoked and its blacklist hashes into
 * st->bl (hashes first, as the kernel loads them).
 * -errno (note->why) when the image cannot be read or understood.
 */
int trust_sources_add_vmlinux(const struct trust_sources_stores *st, const char *path,
			      struct trust_sources_note *note);

/* The release of a kernel image (kernel_image_version()); -errno when the
 * file cannot be read or holds none (-ENOENT), -EINVAL when empty. */
int trust_sources_vmlinux_version(const char *path, char *out, size_t size);

/* Its version line (kernel_image_banner()); -errno as above. */
int trust_sources_vmlinux_banner(const char *path, char *out, size_t size);

enum trust_sources_esl_role {
	TRUST_SOURCES_ESL_TRUSTED,		/* --esl FILE, --mok */
	TRUST_SOURCES_ESL_PLATFORM,	/* --efi-db */
	TRUST_SOURCES_ESL_DBX,		/* --dbx FILE, --efi-dbx */
	/* dbx or MokListXRT of a kernel without SYSTEM_REVOCATION_LIST:
	 * hashes only, its X.509 entries counted as other */
	TRUST_SOURCES_ESL_DBX_HASHES,
	/* MokListRT into a .machine restricted to CA keys
	 * (restrict_link_by_ca, _MAX: not digitalSignature either); a key
	 * refused goes to .platform (add_to_machine_keyring) */
	TRUST_SOURCES_ESL_MACHINE_CA,
	TRUST_SOURCES_ESL_MACHINE_CA_MAX,
};

/*
 * Load a signature list (a file, or efivar when efivar is true: 4 bytes
 * of attributes first).  X.509 entries go where role says; hash entries
 * go to st->bl for TRUST_SOURCES_ESL_DBX(_HASHES) and are counted (and ignored, as the
 * kernel's db and MOK handlers ignore them) otherwise.  -ENOENT when the
 * file or variable is absent, -EBADMSG (note->bad_off) when malformed.
 */
int trust_sources_add_esl(const struct trust_sources_stores *st, const char *path, bool efivar,
			  enum trust_sources_esl_role role, struct trust_sources_note *note);

/* The efivarfs file of db, dbx or MokListRT (static storage). */
const char *trust_sources_efivar(enum trust_sources_esl_role role, bool mok);

#endif
