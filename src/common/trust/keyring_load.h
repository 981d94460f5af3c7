/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filling the keyrings a verify-file run judges with, from the sources
 * named on its command line, in the order the kernel would fill them:
 * dbx-style lists first (their hashes must be known when certificates
 * are parsed, as the kernel loads its blacklist before any key), then
 * kernel images, signature lists and certificate files.
 *
 * The caller is told what each source gave through a report callback,
 * and why a source failed through struct keyring_load_failure: the words are the
 * tool's.
 */
#ifndef MODSIGN_TRUST_KEYRING_LOAD_H
#define MODSIGN_TRUST_KEYRING_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/blacklist.h"
#include "kernel/keyring.h"
#include "trust/trust_sources.h"

enum keyring_load_kind {
	KEYRING_LOAD_DIR,		/* -k DIR: every certificate file in it */
	KEYRING_LOAD_CERT,	/* -c FILE */
	KEYRING_LOAD_REVOKED,	/* --revoked FILE: revocation certificates */
	KEYRING_LOAD_VMLINUX,	/* --vmlinux: a kernel image's built-in lists */
	KEYRING_LOAD_ESL,		/* --esl FILE */
	KEYRING_LOAD_DBX,		/* --dbx FILE */
	KEYRING_LOAD_EFI_DB,	/* UEFI db from efivarfs */
	KEYRING_LOAD_EFI_DBX,	/* UEFI dbx from efivarfs */
	KEYRING_LOAD_MOK,		/* MokListRT from efivarfs */
	KEYRING_LOAD_MOKX,	/* MokListXRT from efivarfs: as dbx */
	KEYRING_LOAD_SECONDARY,	/* --secondary FILE: keyring_load_add_secondaries(), after
			 * keyring_load(), which passes it over */
};

/* How --machine's keyring model files a source (KEYRING_LOAD_MOK, KEYRING_LOAD_EFI_DB,
 * and the dbx-style lists) */
enum keyring_load_file {
	KEYRING_LOAD_FILE_AS_KIND,	/* the kind's default keyring */
	KEYRING_LOAD_FILE_PLATFORM,	/* MokListRT into .platform */
	KEYRING_LOAD_FILE_MACHINE_CA,	/* .machine's CA restriction */
	KEYRING_LOAD_FILE_MACHINE_CA_MAX,
	KEYRING_LOAD_FILE_HASHES_ONLY,	/* a dbx-style list of a kernel without
				 * SYSTEM_REVOCATION_LIST: its X.509
				 * entries revoke nothing */
};

struct keyring_load_source {
	enum keyring_load_kind kind;
	const char *path;	/* NULL for the efivarfs sources: this
				 * machine's (or that file under a root) */
	enum keyring_load_file file;
	bool raw;		/* a MOK variable table file: no efivarfs
				 * attribute bytes */
	/* the keyring its keys are filed in and why, for --list-keys and
	 * verdicts (static words); NULL: not modelled */
	const char *keyring, *why;
};

/* Whether a source adds trusted keys (not only revocations or hashes). */
int keyring_load_kind_trusts(enum keyring_load_kind kind);

enum keyring_load_event {
	KEYRING_LOAD_SKIPPED,		/* a file or certificate left out: .skipped */
	KEYRING_LOAD_DIR_DONE,		/* -k DIR read: the counts */
	KEYRING_LOAD_IMAGE_DONE,		/* a kernel image read: .note */
	KEYRING_LOAD_LIST_DONE,		/* a signature list read: .note */
	KEYRING_LOAD_EFIVAR_ABSENT,	/* an efivarfs variable is not there */
};

struct keyring_load_report {
	enum keyring_load_event event;
	const struct keyring_load_source *src;
	const char *path;		/* the file read (efivarfs path too) */
	const struct keyring_skipped *skipped;
	const struct trust_sources_note *note;
	/* KEYRING_LOAD_DIR_DONE */
	size_t loaded, repeats, empty_files, left_out;
};

struct keyring_load_failure {
	const struct keyring_load_source *src;
	const char *path;
	struct trust_sources_note note;	/* why, bad_off for images and lists */
};

/*
 * Load every source into st.  Returns 0, or the -errno of the first
 * source that failed, with *fail naming it: -ENODATA for a certificate
 * file with no certificate in it, -EINVAL for a PKCS#12 file given as a
 * certificate file, -EINVAL or -EBADMSG for a kernel image or signature
 * list that is not one (fail->note.why for these), else the error
 * reading it.  An absent efivarfs variable is reported, not an error.
 */
int keyring_load(const struct keyring_load_source *srcs, size_t n,
		 const struct trust_sources_stores *st,
		 void (*report)(void *ctx, const struct keyring_load_report *r), void *ctx,
		 struct keyring_load_failure *fail);

/*
 * A CONFIG_SYSTEM_BLACKLIST_HASH_LIST file into bl: -errno when it
 * cannot be read; -EINVAL with *line the first entry the kernel would
 * refuse.
 */
int keyring_load_blacklist(const char *path, struct blacklist *bl, int *line);

/* A certificate --secondary refused, as keyctl padd would fail. */
struct keyring_load_refusal {
	const char *path;
	int index;		/* 1-based in the file */
	int err;		/* the kernel's errno */
	const char *why;	/* static */
};


/*
 * Every KEYRING_LOAD_SECONDARY source of srcs, in order, as above; on a kernel
 * without the secondary keyring (!have) each file is refused whole
 * (index 0).  -errno with *fail naming the file that cannot be read.
 */
int keyring_load_add_secondaries(const struct keyring_load_source *srcs, size_t n,
				 const struct trust_sources_stores *st, bool have,
				 bool builtin_only,
				 void (*refused)(void *ctx, const struct keyring_load_refusal *r),
				 void *ctx, struct keyring_load_failure *fail);

#endif
