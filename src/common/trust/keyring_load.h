/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filling the keyrings a verify-file run judges with, from the sources
 * named on its command line, in the order the kernel would fill them:
 * dbx-style lists first (their hashes must be known when certificates
 * are parsed, as the kernel loads its blacklist before any key), then
 * kernel images, signature lists and certificate files.
 *
 * The caller is told what each source gave through a report callback,
 * and why a source failed through struct tl_failure: the words are the
 * tool's.
 */
#ifndef MODSIGN_TRUST_KEYRING_LOAD_H
#define MODSIGN_TRUST_KEYRING_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/blacklist.h"
#include "kernel/keyring.h"
#include "trust/trust_sources.h"

enum tl_kind {
	TL_DIR,		/* -k DIR: every certificate file in it */
	TL_CERT,	/* -c FILE */
	TL_REVOKED,	/* --revoked FILE: revocation certificates */
	TL_VMLINUX,	/* --vmlinux: a kernel image's built-in lists */
	TL_ESL,		/* --esl FILE */
	TL_DBX,		/* --dbx FILE */
	TL_EFI_DB,	/* UEFI db from efivarfs */
	TL_EFI_DBX,	/* UEFI dbx from efivarfs */
	TL_MOK,		/* MokListRT from efivarfs */
	TL_MOKX,	/* MokListXRT from efivarfs: as dbx */
	TL_SECONDARY,	/* --secondary FILE: keyring_load_add_secondaries(), after
			 * keyring_load(), which passes it over */
};

/* How --machine's keyring model files a source (TL_MOK, TL_EFI_DB,
 * and the dbx-style lists) */
enum tl_file {
	TL_FILE_AS_KIND,	/* the kind's default keyring */
	TL_FILE_PLATFORM,	/* MokListRT into .platform */
	TL_FILE_MACHINE_CA,	/* .machine's CA restriction */
	TL_FILE_MACHINE_CA_MAX,
	TL_FILE_HASHES_ONLY,	/* a dbx-style list of a kernel without
				 * SYSTEM_REVOCATION_LIST: its X.509
				 * entries revoke nothing */
};

struct tl_source {
	enum tl_kind kind;
	const char *path;	/* NULL for the efivarfs sources: this
				 * machine's (or that file under a root) */
	enum tl_file file;
	bool raw;		/* a MOK variable table file: no efivarfs
				 * attribute bytes */
	/* the keyring its keys are filed in and why, for --list-keys and
	 * verdicts (static words); NULL: not modelled */
	const char *keyring, *why;
};

/* Whether a source adds trusted keys (not only revocations or hashes). */
int keyring_load_kind_trusts(enum tl_kind kind);

enum tl_event {
	TL_SKIPPED,		/* a file or certificate left out: .skipped */
	TL_DIR_DONE,		/* -k DIR read: the counts */
	TL_IMAGE_DONE,		/* a kernel image read: .note */
	TL_LIST_DONE,		/* a signature list read: .note */
	TL_EFIVAR_ABSENT,	/* an efivarfs variable is not there */
};

struct tl_report {
	enum tl_event event;
	const struct tl_source *src;
	const char *path;		/* the file read (efivarfs path too) */
	const struct keyring_skipped *skipped;
	const struct ts_note *note;
	/* TL_DIR_DONE */
	size_t loaded, repeats, empty_files, left_out;
};

struct tl_failure {
	const struct tl_source *src;
	const char *path;
	struct ts_note note;	/* why, bad_off for images and lists */
};

/*
 * Load every source into st.  Returns 0, or the -errno of the first
 * source that failed, with *fail naming it: -ENODATA for a certificate
 * file with no certificate in it, -EINVAL for a PKCS#12 file given as a
 * certificate file, -EINVAL or -EBADMSG for a kernel image or signature
 * list that is not one (fail->note.why for these), else the error
 * reading it.  An absent efivarfs variable is reported, not an error.
 */
int keyring_load(const struct tl_source *srcs, size_t n,
		 const struct ts_stores *st,
		 void (*report)(void *ctx, const struct tl_report *r), void *ctx,
		 struct tl_failure *fail);

/*
 * A CONFIG_SYSTEM_BLACKLIST_HASH_LIST file into bl: -errno when it
 * cannot be read; -EINVAL with *line the first entry the kernel would
 * refuse.
 */
int keyring_load_blacklist(const char *path, struct blacklist *bl, int *line);

/* A certificate --secondary refused, as keyctl padd would fail. */
struct tl_refusal {
	const char *path;
	int index;		/* 1-based in the file */
	int err;		/* the kernel's errno */
	const char *why;	/* static */
};


/*
 * Every TL_SECONDARY source of srcs, in order, as above; on a kernel
 * without the secondary keyring (!have) each file is refused whole
 * (index 0).  -errno with *fail naming the file that cannot be read.
 */
int keyring_load_add_secondaries(const struct tl_source *srcs, size_t n,
				 const struct ts_stores *st, bool have,
				 bool builtin_only,
				 void (*refused)(void *ctx, const struct tl_refusal *r),
				 void *ctx, struct tl_failure *fail);

#endif
