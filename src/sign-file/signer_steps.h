/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steps of signing one file (signer.h), shared by signer*.c alone:
 * the set (signer.c), the policy and dest checks (signer_policy.c), the
 * writers (signer_write.c), the kernel's judgment (signer_check.c),
 * prepare/commit (signer_prepare.c) and --digest-only (signer_digest.c).
 */
#ifndef MODSIGN_SIGN_FILE_SIGNER_STEPS_H
#define MODSIGN_SIGN_FILE_SIGNER_STEPS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/infile.h"
#include "base/outfile.h"
#include "module/module_file.h"
#include "sign-file/signer.h"

/* Fill fail (stage, path, reason) and return err. */
int ms_signer_fail(struct ms_signer_failure *f, enum ms_signer_stage stage, const char *path,
		   const char *reason, int err);

/* A large plain module's body going into the output on a thread of
 * its own while it is hashed (signer_write.c). */
struct ms_signer_body_copy {
	pthread_t tid;
	struct outfile *out;
	const char *target;
	mode_t mode;
	const struct infile *in;
	size_t len;
	int err;
};

/* What the steps of ms_signer_prepare hand on to each other. */
struct ms_signer_prep {
	struct module_file in;	/* the module, locked; for a compressed one
				 * the decompressed bytes */
	size_t body_len;	/* in's bytes that are signed: without the
				 * trailers --replace strips */
	const char *target;	/* where the signed module goes */
	mode_t mode;		/* and the mode it gets */
	struct ms_signer_body_copy copy;	/* the body going out while
						 * it is hashed */
	int copying;
	uint8_t *der;		/* a CMS made here (owned) */
	const uint8_t *sig;	/* the CMS appended: der or the raw one */
	size_t sig_len;
};

/* signer_policy.c */
int ms_signer_policy_check(const struct ms_signer *s,
			   const struct ms_signer_req *r, struct module_file *in,
			   size_t *body_len, int *skipped, struct ms_signer_failure *fail);
int ms_signer_policy_dest(const struct ms_signer_req *r, const uint8_t *body,
			  size_t body_len, struct ms_signer_failure *fail);

/* signer_write.c */
int ms_signer_write_fail(struct ms_signer_failure *fail, const char *target, int err);
void ms_signer_write_copy_start(const struct ms_signer *s,
				const struct ms_signer_req *r,
				struct outfile *out, struct ms_signer_prep *p);
int ms_signer_write_copy_join(struct ms_signer_prep *p, struct ms_signer_failure *fail);
int ms_signer_write_outputs(const struct ms_signer *s,
			    const struct ms_signer_req *r, struct ms_signer_signed *job,
			    const struct ms_signer_prep *p,
			    struct ms_signer_failure *fail);

/* signer_check.c */
int ms_signer_check_attach(const struct ms_signer *s,
			   const struct ms_signer_req *r, struct ms_signer_failure *fail,
			   const uint8_t *sig, size_t sig_len,
			   const uint8_t *data, size_t len);
int ms_signer_check_mldsa(const struct ms_signer *s,
			  const struct ms_signer_req *r, struct ms_signer_failure *fail,
			  const uint8_t *sig, size_t sig_len,
			  const uint8_t *data, size_t len);
struct ms_signer_made_sig *ms_signer_check_describe(const struct ms_signer *s,
					     const struct ms_signer_req *r,
					     const char *cert_from,
					     const uint8_t *body,
					     size_t body_len,
					     const uint8_t *sig,
					     size_t sig_len);

#endif
