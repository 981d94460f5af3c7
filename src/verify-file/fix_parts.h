/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the three files of verify-file's fixes share: fix.c decides a
 * module's fix, fix_places.c reads the certificates and keys it is found
 * from (the -c files, the places distributions' tools keep their module
 * signing key, the machine's MOK lists and db), fix_words.c words it.
 */
#ifndef MODSIGN_VERIFY_FILE_FIX_PARTS_H
#define MODSIGN_VERIFY_FILE_FIX_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/keyring.h"
#include "kernel/rules.h"
#include "trust/keyring_model.h"
#include "verify-file/fix.h"

/* One file of certificates a signer may be found in. */
struct ms_fix_local {
	const char *label;	/* static words */
	char *key;		/* its private key as the machine names it,
				 * when there; else NULL */
	bool given;		/* -c: its path is shown as given */
	struct keyring ring;
};

struct ms_fix_ctx {
	const struct keyrings_setup *t;
	const struct keyrings *k;
	struct verify_ctx kv;
	const struct machine *m;
	const struct keyring_model *km;
	size_t rootlen;		/* of m->root, trailing slashes left out */
	bool sb_on;		/* as keyring_model_decide() takes it */
	/* the models with Secure Boot on, and with MokListTrustedRT */
	struct keyring_model km_sb, km_trust;
	/* -c files, then the nplaces usual places (fix_places.c), then
	 * the rest of their directories */
	struct ms_fix_local *loc;
	size_t nloc, first_place, nplaces;
	/* the machine's own lists, loaded by its kernel or not */
	struct keyring mok, moknew, db;
	/* MokListXRT: what a kernel that loads MOK revokes */
	struct keyring mokx;
};

/* fix.c: what the kinds share */

/* A local key pair this kernel would take a module signed with: trusted
 * now, or (*enrol) once its certificate is enrolled; not skip. */
const struct ms_fix_local *ms_fix_pair(const struct ms_fix_ctx *c,
				       const struct x509k_cert *skip,
				       struct x509k_cert **cert, bool *enrol);
/* The local file x was read from, or NULL. */
const struct ms_fix_local *ms_fix_local_of(const struct ms_fix_ctx *c,
					   const struct x509k_cert *x);
/* The first signer one of the candidates names; *found its certificate */
const struct pkcs7_sinfo *ms_fix_find_signer(const struct ms_fix_ctx *c,
					     const struct verify_result *r,
					     struct x509k_cert **found);

/* fix_algorithm.c: unsupported-algorithm */

/* -ENOPKG: the signature's hash is not in this kernel */
void ms_fix_algorithm(const struct ms_fix_ctx *c,
		      const struct judge_file_judgement *j, const char *file,
		      struct ms_fix *f);
/* -ENOKEY: the first signer's key type is not in this kernel; false
 * when it is */
bool ms_fix_key_type(const struct ms_fix_ctx *c,
		     const struct judge_file_judgement *j, const char *file,
		     struct ms_fix *f);

/* fix_words.c: the words of a fix */

/* p as the judged machine names it: under --sysroot without the root */
const char *ms_fix_shown(const struct ms_fix_ctx *c, const char *p);
/* p quoted for a shell when it needs it, into buf (or p itself) */
const char *ms_fix_shq(const char *p, char *buf, size_t size);
void ms_fix_set(struct ms_fix *f, const char *kind);
/* appended to f->why; f->command set */
void ms_fix_why(struct ms_fix *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ms_fix_command(struct ms_fix *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A certificate as the words name it: "dkms's key /var/lib/dkms/mok.pub
 * (\"CN\")", or where the machine holds it (l NULL). */
void ms_fix_name_cert(const struct ms_fix_ctx *c, const struct ms_fix_local *l,
		      const struct x509k_cert *x, char *buf, size_t size);
/* sign-file's hash for this kernel (sha256 unless it lacks it), or NULL */
const char *ms_fix_hash_for(const struct rules_rules *kr);
/* After naming a local key pair to sign with: ", which this kernel
 * trusts", or (enrol) how to enrol its certificate x first */
void ms_fix_why_pair(const struct ms_fix_ctx *c, struct ms_fix *f,
		     const struct x509k_cert *x, bool enrol);
/* f's command: sign-file HASH KEY CERT FILE with l's key pair */
void ms_fix_sign_command(const struct ms_fix_ctx *c, struct ms_fix *f,
			 const char *hash, const struct ms_fix_local *l,
			 const struct x509k_cert *x, const char *file);

#endif
