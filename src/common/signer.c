// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cms.h"
#include "compress.h"
#include "fileio.h"
#include "modfile.h"
#include "signer.h"
#include "trailer.h"

/* The kernel's ASN.1 decoder stops at 64 KiB (§3.1); leave room above it
 * so that an oversized -s blob is reported by the CMS check, not here. */
#define RAW_SIG_MAX (1u << 20)

static int fail_at(struct ms_fail *f, enum ms_stage stage, const char *path,
		   const char *reason, int err)
{
	f->stage = stage;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->reason = reason;
	return err;
}

int ms_signer_load(struct ms_signer *s, const char *hash, const char *key,
		   const char *cert, int use_keyid, struct ms_fail *fail)
{
	int err;

	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->use_keyid = use_keyid;
	s->md = ms_digest_by_name(hash);
	if (!s->md)
		return fail_at(fail, MS_STAGE_HASH, hash, NULL, -EINVAL);
	err = ms_load_private_key(key, &s->key, &fail->key);
	if (err)
		return fail_at(fail, MS_STAGE_KEY, key, NULL, err);
	err = ms_load_cert(cert, &s->cert, &fail->key);
	if (err)
		return fail_at(fail, MS_STAGE_CERT, cert, NULL, err);
	/* Refuse before writing anything: a mismatched pair makes a module
	 * the kernel rejects, found only at load time. */
	if (ms_key_matches_cert(s->key, s->cert)) {
		fail->key = MS_KEY_MISMATCH;
		return fail_at(fail, MS_STAGE_MATCH, key, NULL, -EKEYREJECTED);
	}
	return 0;
}

int ms_signer_load_raw(struct ms_signer *s, const char *raw,
		       const char *cert, struct ms_fail *fail)
{
	int err;

	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->raw_path = raw;
	err = ms_read_all(raw, RAW_SIG_MAX, &s->raw_sig, &s->raw_sig_len);
	if (err)
		return fail_at(fail, MS_STAGE_RAWSIG, raw, NULL, err);
	err = ms_load_cert(cert, &s->cert, &fail->key);
	if (err)
		return fail_at(fail, MS_STAGE_CERT, cert, NULL, err);
	return 0;
}

void ms_signer_free(struct ms_signer *s)
{
	EVP_PKEY_free(s->key);
	X509_free(s->cert);
	free(s->raw_sig);
	memset(s, 0, sizeof(*s));
}

/* Body length once every appended trailer is peeled off (--replace). */
static int strip_trailers(const uint8_t *buf, size_t len, size_t *body_len)
{
	struct ms_trailer t;
	const char *why;

	while (ms_has_magic(buf, len)) {
		int err = ms_trailer_split(buf, len, &t, &why);

		if (err)
			return err;
		len = t.body_len;
	}
	*body_len = len;
	return 0;
}

static int write_p7s(const char *module, const uint8_t *der, size_t len,
		     struct ms_out *o, char **path, struct ms_fail *fail)
{
	int err;

	if (asprintf(path, "%s.p7s", module) < 0) {
		*path = NULL;
		return fail_at(fail, MS_STAGE_OUTPUT, module, NULL, -ENOMEM);
	}
	err = ms_out_begin(*path, ms_default_mode(), o);
	if (!err)
		err = ms_out_write(o, der, len);
	if (err)
		return fail_at(fail, MS_STAGE_OUTPUT, *path, NULL, err);
	return 0;
}

/*
 * A plain module: the body is copied from the input file (reflinked where
 * the file system can), so the output is the kernel tool's byte for byte.
 */
static int write_plain(struct ms_out *out, const struct ms_file *in,
		       size_t body_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[MS_TRAILER_OVERHEAD];
	int err;

	err = ms_out_copy(out, in->fd, in->data, body_len);
	if (!err)
		err = ms_out_write(out, sig, sig_len);
	if (!err) {
		ms_trailer_encode((uint32_t)sig_len, trailer);
		err = ms_out_write(out, trailer, sizeof(trailer));
	}
	return err;
}

/*
 * A compressed module: sign first, then compress (the kernel checks the
 * decompressed module), in the input's format with kbuild's settings.
 */
static int write_compressed(struct ms_out *out, enum ms_comp comp,
			    const uint8_t *body, size_t body_len,
			    const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[MS_TRAILER_OVERHEAD];
	struct iovec iov[3];
	uint8_t *packed;
	size_t packed_len;
	int err;

	ms_trailer_encode((uint32_t)sig_len, trailer);
	iov[0] = (struct iovec){ (void *)body, body_len };
	iov[1] = (struct iovec){ (void *)sig, sig_len };
	iov[2] = (struct iovec){ trailer, sizeof(trailer) };
	err = ms_compress(comp, iov, 3, &packed, &packed_len);
	if (err)
		return err;
	err = ms_out_write(out, packed, packed_len);
	free(packed);
	return err;
}

int ms_sign_file(const struct ms_signer *s, const struct ms_sign_req *r,
		 int *skipped, struct ms_fail *fail)
{
	struct ms_out out = { .fd = -1 }, p7s = { .fd = -1 };
	const char *target = r->dest ? r->dest : r->module;
	uint8_t *der = NULL;
	const uint8_t *sig;
	char *p7s_path = NULL;
	struct ms_modfile in;
	const char *why;
	size_t body_len, sig_len;
	mode_t mode;
	int err;

	memset(fail, 0, sizeof(*fail));
	*skipped = 0;
	/* For a compressed module everything below sees the decompressed
	 * bytes: already-signed checks, the signature and the .p7s.  The
	 * file stays locked until its replacement is renamed into place. */
	err = ms_modfile_open_locked(r->module, &in, &why);
	if (err)
		return fail_at(fail, why ? MS_STAGE_DECOMPRESS : MS_STAGE_INPUT,
			       r->module, why, err);
	body_len = in.len;

	/* A trailer after the compressed stream is neither "signed" nor
	 * harmless: only --replace may drop it, and even --skip-signed must
	 * not leave it as it is. */
	if (in.signed_after && r->signed_policy != MS_SIGNED_REPLACE) {
		ms_modfile_signed_after(&in, &why);
		err = fail_at(fail, MS_STAGE_SIGNED_AFTER, r->module, why,
			      -EBADMSG);
		goto done;
	}

	if (ms_has_magic(in.data, in.len)) {
		switch (r->signed_policy) {
		case MS_SIGNED_SKIP:
			*skipped = 1;
			goto done;
		case MS_SIGNED_REPLACE:
			err = strip_trailers(in.data, in.len, &body_len);
			if (err) {
				fail_at(fail, MS_STAGE_TRAILER, r->module,
					"existing signature trailer is "
					"malformed; cannot strip it", err);
				goto done;
			}
			break;
		case MS_SIGNED_REFUSE:
			err = fail_at(fail, MS_STAGE_SIGNED, r->module, NULL,
				      -EEXIST);
			goto done;
		}
	}

	if (s->raw_sig) {
		err = ms_cms_check_attachable(s->raw_sig, s->raw_sig_len,
					      s->cert, in.data, body_len, &why);
		if (err) {
			fail_at(fail, MS_STAGE_RAWSIG, s->raw_path, why, err);
			goto done;
		}
		sig = s->raw_sig;
		sig_len = s->raw_sig_len;
	} else {
		err = ms_cms_sign(s->cert, s->key, s->md, s->use_keyid,
				  in.data, body_len, &der, &sig_len);
		if (err == -ENOPKG) {
			fail_at(fail, MS_STAGE_SIGN, r->module,
				"this OpenSSL cannot make a CMS signature with "
				"this key type and hash (use sha256, sha384 or "
				"sha512)", err);
			goto done;
		}
		if (err) {
			fail_at(fail, MS_STAGE_SIGN, r->module, s->use_keyid ?
				"cannot sign (with -k the certificate needs a "
				"subjectKeyIdentifier extension)" :
				"cannot sign", err);
			goto done;
		}
		sig = der;
	}

	/* -p and -d only exist for signatures made here, as in the kernel
	 * tool, whose .p7s writing sits in its non-raw branch.  For a
	 * compressed module the .p7s covers the decompressed module, which
	 * is what the kernel checks. */
	if (!s->raw_sig && (r->save_p7s || r->p7s_only)) {
		err = write_p7s(r->module, sig, sig_len, &p7s, &p7s_path, fail);
		if (err)
			goto done;
		if (r->p7s_only) {
			err = ms_out_commit(&p7s);
			if (err)
				fail_at(fail, MS_STAGE_OUTPUT, p7s_path, NULL,
					err);
			goto done;
		}
	}

	/* In place keeps the module's mode; a new dest gets umask's. */
	mode = r->dest ? ms_default_mode() : (in.file.st.st_mode & 07777);
	err = ms_out_begin(target, mode, &out);
	if (!err && in.comp == MS_COMP_NONE)
		err = write_plain(&out, &in.file, body_len, sig, sig_len);
	else if (!err)
		err = write_compressed(&out, in.comp, in.data, body_len, sig,
				       sig_len);
	if (err) {
		fail_at(fail, MS_STAGE_OUTPUT, target, NULL, err);
		goto done;
	}
	/* Both files are complete: only now replace anything. */
	if (p7s.tmp) {
		err = ms_out_commit(&p7s);
		if (err) {
			fail_at(fail, MS_STAGE_OUTPUT, p7s_path, NULL, err);
			goto done;
		}
	}
	err = ms_out_commit(&out);
	if (err)
		fail_at(fail, MS_STAGE_OUTPUT, target, NULL, err);
done:
	ms_out_abort(&p7s);
	ms_out_abort(&out);
	free(p7s_path);
	free(der);
	ms_modfile_close(&in);
	return err;
}
