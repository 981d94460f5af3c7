// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Signing one file in steps: prepare (open and lock, check, sign or
 * attach, write the temporary outputs), commit (rename into place),
 * release; and the two at once for a single file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "base/infile.h"
#include "base/outfile.h"
#include "kernel/rules.h"
#include "module/compress.h"
#include "module/module_file.h"
#include "sign-file/cms.h"
#include "sign-file/durability.h"
#include "sign-file/pkcs11/direct.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

/*
 * For a compressed module everything after this sees the decompressed
 * bytes: already-signed checks, the signature and the .p7s.  The file
 * stays locked until its replacement is renamed into place.
 */
static int open_module(const struct ms_signer_req *r, struct ms_signer_prep *p,
		       struct ms_signer_failure *fail)
{
	const char *why;
	int err;

	err = r->nowait ? module_file_open_trylock(r->module, &p->in, &why)
			: module_file_open_locked(r->module, &p->in, &why);
	if (err)
		return ms_signer_fail(fail, why ? MS_SIGNER_STAGE_DECOMPRESS :
						  MS_SIGNER_STAGE_INPUT,
				      r->module, why, err);
	return 0;
}

/* -s and --attach: the CMS made elsewhere, checked as the target kernel
 * would check it. */
static int attach_sig(const struct ms_signer *s, const struct ms_signer_req *r,
		      struct ms_signer_prep *p, struct ms_signer_failure *fail)
{
	int err;

	p->sig = s->raw_sig;
	p->sig_len = s->raw_sig_len;
	/* --attach with a bare value: wrap it as sign-file would, then
	 * check it like any other CMS made elsewhere. */
	if (s->raw_is_value) {
		err = ms_cms_from_value(s->certs[0], s->md, s->use_keyid,
					s->raw_sig, s->raw_sig_len, &p->der,
					&p->sig_len);
		if (err)
			return ms_signer_fail(fail, MS_SIGNER_STAGE_RAWSIG, s->raw_path,
					      "cannot build a CMS around this "
					      "signature value", err);
		p->sig = p->der;
	}
	return ms_signer_check_attach(s, r, fail, p->sig, p->sig_len, p->in.data,
				      p->body_len);
}

/* Why the signing failed, in words that point at the fix; bad is the
 * signer that refused, or -1. */
static int sign_failed(const struct ms_signer *s, const struct ms_signer_req *r,
		       int err, int bad, struct ms_signer_failure *fail)
{
	const char *why, *advice;

	/* A digest no kernel takes in a module signature (blake2b512,
	 * md4): OpenSSL's refusal is the hash's, as the kernel's would be
	 * (-ENOPKG, 5), not the key's. */
	if (rules_digest_check(NULL, s->md, &why, &advice) == -ENOPKG)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGN, r->module,
				      "cannot sign with this hash (use sha256, "
				      "sha384 or sha512)", -ENOPKG);
	if (err == -ENOPKG)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGN, r->module,
				      "this OpenSSL cannot make a CMS signature with "
				      "this key type and hash (use sha256, sha384 or "
				      "sha512)", err);
	fail->token = bad >= 0 ? s->toks[bad] != NULL : s->toks[0] != NULL;
	return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGN, r->module, s->use_keyid ?
			      "cannot sign (with -k the certificate needs a "
			      "subjectKeyIdentifier extension)" :
			      fail->token ? "signing refused by the PKCS#11 token"
			      : "cannot sign", err);
}

/* A token key signing directly (sign_many.h): -ENOTSUP when there is
 * none, or when the token failed, and the provider or engine signs and
 * reports a real failure in its own words. */
static int sign_direct(const struct ms_signer *s, const uint8_t *digest,
		       unsigned int dlen, uint8_t **der, size_t *der_len)
{
	uint8_t sig[MS_P11_DIRECT_SIG_MAX];
	size_t len;

	if (!s->direct || !s->tmpl ||
	    ms_p11_direct_sign(s->direct, digest, dlen, sig, &len))
		return -ENOTSUP;
	return ms_cms_template_with_value(s->tmpl, sig, len, der, der_len);
}

/* The signature made here, over the body's digest, and judged by the
 * kernel model when it is ML-DSA. */
static int sign_body(const struct ms_signer *s, const struct ms_signer_req *r,
		     struct ms_signer_prep *p, struct ms_signer_failure *fail)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int err, bad = -1;

	/* Hashing needs no token: only the signing is serialised. */
	err = p->in.comp == COMPRESS_NONE
		? digest_input(s->md, &p->in.file, p->body_len, digest,
				  &dlen)
		: digest_bytes(s->md, p->in.data, p->body_len, digest, &dlen);
	if (!err) {
		if (s->serial)
			pthread_mutex_lock(s->serial);
		err = sign_direct(s, digest, dlen, &p->der, &p->sig_len);
		if (err == -ENOTSUP)
			err = s->tmpl
			    ? ms_cms_sign_template(s->tmpl, digest, dlen,
						   &p->der, &p->sig_len, &bad)
			    : ms_cms_sign_digest(s->certs, s->keys, s->n,
						 s->md, s->use_keyid, digest,
						 dlen, &p->der, &p->sig_len,
						 &bad);
		if (s->serial)
			pthread_mutex_unlock(s->serial);
	}
	if (err)
		return sign_failed(s, r, err, bad, fail);
	p->sig = p->der;
	return ms_signer_check_mldsa(s, r, fail, p->sig, p->sig_len, p->in.data,
				     p->body_len);
}

/*
 * The end of every prepare that opened the module: the job keeps only
 * what the commit needs, the descriptor holding the lock (no mapping, no
 * decompressed copy), so many jobs can wait for a group commit without
 * holding their modules in memory; on failure or skip, nothing.
 */
static int end_prepare(const struct ms_signer_req *r, struct ms_signer_signed *job,
		       struct ms_signer_prep *p, int err, int skipped,
		       struct ms_signer_failure *fail)
{
	if (p->copying)		/* signing failed while the body was copied */
		pthread_join(p->copy.tid, NULL);
	/* Whatever went wrong, a module that changed while it was read is
	 * the reason (and nothing computed from it may be written). */
	if (err == INFILE_ECHANGED || infile_check(&p->in.file))
		err = ms_signer_fail(fail, MS_SIGNER_STAGE_INPUT, r->module, NULL,
				     INFILE_ECHANGED);
	free(p->der);
	free(p->in.buf);
	p->in.buf = NULL;
	infile_unmap(&p->in.file);
	job->in = p->in;
	if (err || skipped)
		ms_signer_release(job);
	return err;
}

int ms_signer_prepare(const struct ms_signer *s, const struct ms_signer_req *r,
		      struct ms_signer_signed *job, int *skipped, struct ms_signer_failure *fail)
{
	struct ms_signer_prep p = { .target = r->dest ? r->dest : r->module };
	int err;

	memset(fail, 0, sizeof(*fail));
	memset(job, 0, sizeof(*job));
	job->out.fd = job->p7s.fd = -1;
	job->in.file.fd = -1;
	*skipped = 0;
	err = open_module(r, &p, fail);
	if (err)
		return err;
	job->module = r->module;
	err = ms_signer_policy_check(s, r, &p.in, &p.body_len, skipped, fail);
	if (!err && !*skipped)
		err = ms_signer_policy_dest(r, p.in.data, p.body_len, fail);
	if (err || *skipped)
		goto done;
	/* In place keeps the module's mode, an existing dest its own, and
	 * a new dest gets umask's. */
	p.mode = r->dest ? outfile_mode(r->dest)
			 : (p.in.file.st.st_mode & 07777);
	ms_signer_write_copy_start(s, r, &job->out, &p);
	err = s->raw_sig ? attach_sig(s, r, &p, fail)
			 : sign_body(s, r, &p, fail);
	/* a failed hash or signature is reported and wins over the copy */
	if (!err)
		err = ms_signer_write_copy_join(&p, fail);
	if (err)
		goto done;
	if (r->describe)
		job->made = ms_signer_check_describe(s, r, r->cert_path ?
						     r->cert_path : "given", p.in.data,
						     p.body_len, p.sig, p.sig_len);
	err = ms_signer_write_outputs(s, r, job, &p, fail);
done:
	return end_prepare(r, job, &p, err, *skipped, fail);
}

int ms_signer_commit(struct ms_signer_signed *job, unsigned int sync,
		     struct ms_signer_failure *fail)
{
	int err;

	memset(fail, 0, sizeof(*fail));
	/* Both files are complete: only now replace anything. */
	if (job->p7s.tmp) {
		err = outfile_commit_flags(&job->p7s, sync);
		if (err)
			return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, job->p7s_path,
					      NULL, err);
	}
	if (job->out.tmp) {
		const char *target = job->out.target;
		char path[sizeof(fail->path)];

		snprintf(path, sizeof(path), "%s", target);
		err = outfile_commit_flags(&job->out, sync);
		if (err)
			return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, path, NULL, err);
	}
	return 0;
}

void ms_signer_release(struct ms_signer_signed *job)
{
	if (job->made)
		sig_describe_free(&job->made->d);
	free(job->made);
	job->made = NULL;
	outfile_abort(&job->p7s);
	outfile_abort(&job->out);
	free(job->p7s_path);
	job->p7s_path = NULL;
	module_file_close(&job->in);
}

int ms_signer_sign_file(const struct ms_signer *s, const struct ms_signer_req *r,
			int *skipped, struct ms_signer_failure *fail)
{
	struct ms_signer_signed job;
	int err;

	err = ms_signer_prepare(s, r, &job, skipped, fail);
	if (err || *skipped)
		return err;
	err = ms_signer_commit(&job, ms_dur_commit_flags(job.out.tmp ?
			       job.out.fd : job.p7s.fd, job.out.tmp &&
			       job.out.replaces && !job.p7s.tmp), fail);
	ms_signer_release(&job);
	return err;
}
