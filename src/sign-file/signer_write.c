// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The writers: the .p7s, the signed module (plain or compressed again) or
 * kmodsign -D's block, as temporary files beside their targets, and a
 * large module's body copied on a second thread while it is hashed.
 */
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "base/infile.h"
#include "base/outfile.h"
#include "module/compress.h"
#include "module/module_file.h"
#include "module/trailer.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

/*
 * A failed write, named by what it needed.  The file is never written in
 * place: a new one is created beside it (base/outfile.h: outfile_begin), so a
 * read-only directory refuses even a writable module, and "Permission
 * denied" on the module's name would point at the wrong thing.
 */
int ms_signer_write_fail(struct ms_signer_failure *fail, const char *target, int err)
{
	char *copy;
	const char *dir;

	ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, target, NULL, err);
	if (err != -EACCES && err != -EPERM && err != -EROFS)
		return err;
	copy = strdup(target);
	if (!copy)
		return err;
	dir = dirname(copy);
	snprintf(fail->text, sizeof(fail->text), "cannot create a file in "
		 "the directory %s: %s (the signed file is written there "
		 "as a new file, then renamed over %s: make the directory "
		 "writable, or give a <dest> elsewhere)", dir, strerror(-err),
		 target);
	fail->reason = fail->text;
	free(copy);
	return err;
}

static int write_p7s(const char *module, const uint8_t *der, size_t len,
		     struct outfile *o, char **path, struct ms_signer_failure *fail)
{
	int err;

	if (asprintf(path, "%s.p7s", module) < 0) {
		*path = NULL;
		return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, module, NULL, -ENOMEM);
	}
	err = outfile_begin(*path, outfile_mode(*path), o);
	if (err)
		return ms_signer_write_fail(fail, *path, err);
	err = outfile_write(o, der, len);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, *path, NULL, err);
	return 0;
}

/*
 * What is appended after the body: CMS, descriptor, magic.  Written alone
 * it is kmodsign -D's "full detached signature block": the module
 * followed by it is the module signed in place.  (For a compressed module
 * it completes the decompressed module, as the .p7s does.)
 */
static int write_trailer(struct outfile *out, const uint8_t *sig,
			 size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	int err;

	err = outfile_write(out, sig, sig_len);
	if (!err) {
		trailer_encode((uint32_t)sig_len, trailer);
		err = outfile_write(out, trailer, sizeof(trailer));
	}
	return err;
}

/*
 * A plain module: body, CMS, descriptor and magic, so the output is the
 * kernel tool's byte for byte.  A body read into memory goes out with the
 * trailer in one writev; a mapped (large) one is copied file to file,
 * reflinked where the file system can, never passing through user space.
 */
static int write_plain(struct outfile *out, const struct infile *in,
		       size_t body_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	struct iovec iov[3];
	int err;

	if (!in->buf) {
		err = outfile_copy(out, in->fd, body_len);
		return err ? err : write_trailer(out, sig, sig_len);
	}
	trailer_encode((uint32_t)sig_len, trailer);
	iov[0] = (struct iovec){ (void *)in->data, body_len };
	iov[1] = (struct iovec){ (void *)sig, sig_len };
	iov[2] = (struct iovec){ trailer, sizeof(trailer) };
	return outfile_writev(out, iov, 3);
}

/*
 * A compressed module: sign first, then compress (the kernel checks the
 * decompressed module), in the input's format with kbuild's settings.
 */
static int write_compressed(struct outfile *out, enum compress_fmt comp,
			    const uint8_t *body, size_t body_len,
			    const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	struct iovec iov[3];
	uint8_t *packed;
	size_t packed_len;
	int err;

	trailer_encode((uint32_t)sig_len, trailer);
	iov[0] = (struct iovec){ (void *)body, body_len };
	iov[1] = (struct iovec){ (void *)sig, sig_len };
	iov[2] = (struct iovec){ trailer, sizeof(trailer) };
	err = compress_encode(comp, iov, 3, &packed, &packed_len);
	if (err)
		return err;
	err = outfile_write(out, packed, packed_len);
	free(packed);
	return err;
}

/*
 * A large plain module's body goes into the output while it is hashed:
 * the copy (copy_file_range: a reflink on btrfs/xfs, an in-kernel copy
 * elsewhere) and SHA-256 each take about as long, and a single run has
 * a CPU to spare for the one, so the copy hides behind the hashing
 * (bench/NOTES; bench/sign-bench.sh measures it).  Below this size the
 * thread costs more than it hides.
 */
#define OVERLAP_MIN ((size_t)1 << 20)

static void *copy_body(void *arg)
{
	struct ms_signer_body_copy *c = arg;

	c->err = outfile_begin(c->target, c->mode, c->out);
	if (!c->err)
		c->err = outfile_copy(c->out, c->in->fd, c->len);
	return NULL;
}

/* A large plain module's body starts going into the output now, on a
 * thread of its own (OVERLAP_MIN). */
void ms_signer_write_copy_start(const struct ms_signer *s,
				const struct ms_signer_req *r, struct outfile *out,
				struct ms_signer_prep *p)
{
	if (!r->overlap || s->raw_sig || r->p7s_only || r->trailer_only ||
	    p->in.comp != COMPRESS_NONE || p->in.file.buf ||
	    p->body_len < OVERLAP_MIN)
		return;
	p->copy = (struct ms_signer_body_copy){ .out = out, .target = p->target,
				      .mode = p->mode, .in = &p->in.file,
				      .len = p->body_len };
	/* No thread: the copy is made after the signature, as for a small
	 * module. */
	p->copying = pthread_create(&p->copy.tid, NULL, copy_body, &p->copy)
		     == 0;
}

/* The body copied while it was hashed: 0 once the copy is done, or the
 * copy's error. */
int ms_signer_write_copy_join(struct ms_signer_prep *p, struct ms_signer_failure *fail)
{
	if (!p->copying)
		return 0;
	pthread_join(p->copy.tid, NULL);
	p->copying = 0;
	return p->copy.err ? ms_signer_write_fail(fail, p->target, p->copy.err) : 0;
}

/* The outputs, complete but not in place: the .p7s of -p and -d, then
 * the signed module (or kmodsign -D's block) as a temporary file. */
int ms_signer_write_outputs(const struct ms_signer *s,
			    const struct ms_signer_req *r, struct ms_signer_signed *job,
			    const struct ms_signer_prep *p, struct ms_signer_failure *fail)
{
	struct outfile *out = &job->out;
	int err;

	/* -p and -d only exist for signatures made here, as in the kernel
	 * tool, whose .p7s writing sits in its non-raw branch.  For a
	 * compressed module the .p7s covers the decompressed module, which
	 * is what the kernel checks. */
	if (!s->raw_sig && (r->save_p7s || r->p7s_only)) {
		err = write_p7s(r->module, p->sig, p->sig_len, &job->p7s,
				&job->p7s_path, fail);
		if (err || r->p7s_only)
			return err;
	}
	if (out->tmp) {
		/* the body went in while it was hashed */
		err = write_trailer(out, p->sig, p->sig_len);
	} else {
		err = outfile_begin(p->target, p->mode, out);
		if (!err && r->trailer_only)
			err = write_trailer(out, p->sig, p->sig_len);
		else if (!err && p->in.comp == COMPRESS_NONE)
			err = write_plain(out, &p->in.file, p->body_len, p->sig,
					  p->sig_len);
		else if (!err)
			err = write_compressed(out, p->in.comp, p->in.data,
					       p->body_len, p->sig, p->sig_len);
	}
	return err ? ms_signer_write_fail(fail, p->target, err) : 0;
}
