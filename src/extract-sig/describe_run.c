// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/batch_run.h"
#include "base/cert_file.h"
#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/outfile.h"
#include "base/samefile.h"
#include "base/treewalk.h"
#include "base/workpool.h"
#include "extract-sig/describe_run.h"
#include "extract-sig/modinfo.h"
#include "module/module_file.h"
#include "module/trailer.h"

/* One file's work: what is asked, where the text goes. */
struct job {
	const struct ms_describe_opts *o;
	const struct ms_describe_sink *sink;
	const char *file;
	FILE *out;
};

/*
 * A file that cannot be described: one line on stderr, and the sink's
 * word for it (with --json verify-file's ERROR object), so that every
 * input has its output.  Returns code.
 */
static int fail(const struct job *j, int err, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(const struct job *j, int err, int code, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_error(j->file, "%s", why);
	if (j->sink->failed)
		j->sink->failed(j->sink->ctx, j->out, j->file, err, why);
	return code;
}

/* The module changed while it was read: say so, nothing else. */
static int input_changed(const struct job *j)
{
	return fail(j, INFILE_ECHANGED, EXITCODE_IO, "%s",
		    infile_strerror(INFILE_ECHANGED));
}

/* A part written whole to a temporary file beside path: 0, or -errno
 * said (o is then free). */
static int prepare_part(const struct job *j, const struct module_file *f,
			const char *path, const uint8_t *p, size_t len,
			struct outfile *o)
{
	int err = outfile_begin(path, outfile_default_mode(), o);

	if (!err)
		err = outfile_write(o, p, len);
	/* never a part made of bytes the module no longer has */
	if (err == INFILE_ECHANGED || infile_check(&f->file)) {
		outfile_abort(o);
		input_changed(j);
		return INFILE_ECHANGED;
	}
	if (err) {
		outfile_abort(o);
		log_error(path, "cannot write: %s", infile_strerror(err));
	}
	return err;
}

/*
 * --body-out and --sig-out: both parts are written whole before either
 * takes its name, so that one that cannot be written leaves neither.
 */
static int write_parts(const struct job *j, const struct module_file *f,
		       const struct trailer *t)
{
	const struct ms_describe_opts *o = j->o;
	struct outfile body = { .fd = -1 }, sig = { .fd = -1 };
	int err = 0;

	if (o->body_out)
		err = prepare_part(j, f, o->body_out, f->data, t->body_len,
				   &body);
	if (!err && o->sig_out)
		err = prepare_part(j, f, o->sig_out, f->data + t->sig_off,
				   t->sig_len, &sig);
	if (err) {
		outfile_abort(&body);
		return err;
	}
	if (o->body_out) {
		err = outfile_commit(&body);
		if (err)
			log_error(o->body_out, "cannot write: %s",
				 infile_strerror(err));
	}
	if (!err && o->sig_out) {
		err = outfile_commit(&sig);
		if (err)
			log_error(o->sig_out, "cannot write: %s",
				 infile_strerror(err));
	}
	outfile_abort(&body);
	outfile_abort(&sig);
	return err;
}

static int write_stdout(const struct job *j, const uint8_t *p, size_t len)
{
	int err = outfile_write_fd(STDOUT_FILENO, p, len);

	if (err == INFILE_ECHANGED)
		return input_changed(j);
	if (err)
		log_error("stdout", "%s", strerror(-err));
	return err ? EXITCODE_IO : EXITCODE_OK;
}

/* The PKCS#7 id type is the only one the kernel accepts
 * (kernel/module/signing.c, module_sig_check()). */
static int id_type_exit(const struct job *j, const struct trailer *t)
{
	const char *name = sig_describe_id_type_name(t->desc.id_type);

	if (t->desc.id_type == TRAILER_ID_PKCS7)
		return EXITCODE_OK;
	if (name)
		log_error(j->file, "signature id type %u (%s) is not PKCS#7: "
			 "the legacy pre-4.3 format, which kernels refuse "
			 "(ENOPKG)", t->desc.id_type, name);
	else
		log_error(j->file, "unknown signature id type %u: not a "
			 "PKCS#7 module signature (the kernel says ENOPKG)",
			 t->desc.id_type);
	return EXITCODE_NOPKG;
}

/*
 * A trailer after the compressed stream: the kernel decompresses first and
 * never sees it.  When the module inside carries no signature the kernel's
 * verdict is ENODATA, so exit 3 as for any unsigned module; when it does,
 * that inner signature is what counts and is described.
 */
static int signed_after(const struct job *j, const struct module_file *f)
{
	const char *what;

	if (!f->signed_after)
		return EXITCODE_OK;
	if (module_file_signed_after(f, &what))
		return fail(j, -ENODATA, EXITCODE_UNSIGNED, "%s", what);
	log_warn(j->file, "%s; describing the signature inside", what);
	return EXITCODE_OK;
}

/*
 * Hand the description d of j's file to the sink, after the warnings it
 * calls for.  mod: the signed module (NULL for a lone .p7s or a detached
 * signature).
 */
static int show(const struct job *j, const struct module_file *f,
		struct sig_describe *d, const uint8_t *mod, size_t len)
{
	if (f && f->comp != COMPRESS_NONE) {
		d->compression = compress_name(f->comp);
		d->compressed_len = f->file.len;
	}
	/* -c names a certificate that signed nothing here: its key type
	 * says nothing about this signature */
	if (d->cert_path && !d->cert_signs)
		log_warn(j->o->cert_path, "not the signer of %s (neither "
			"issuer and serial nor subjectKeyIdentifier match a "
			"signer)", j->file);
	if (d->signed_twice)
		log_warn(j->file, "signed twice: the body still ends with an "
			"older signature");
	j->sink->show(j->sink->ctx, j->out, j->file, d, mod, len);
	return EXITCODE_OK;
}

/*
 * kmod's modinfo lines, and its exit status: modinfo reads a module whose
 * signature it cannot describe (unsigned, a legacy or unknown id type, a
 * descriptor or blob it rejects) as a module without signature lines and
 * exits 0 (tools/modinfo.c, modinfo_do()), so scripts that swap one for
 * the other see the same.  What the kernel would say of it is
 * verify-file's business.
 */
static int part_modinfo(const struct job *j, const struct module_file *f)
{
	int err = modinfo_print(j->out, f->data, f->len, j->o->field);

	if (err == -EINVAL) {
		log_error(NULL, "unknown modinfo field '%s' (sig_id, signer, "
			 "sig_key, sig_hashalgo, signature)", j->o->field);
		return EXITCODE_USAGE;
	}
	if (err)
		log_info("%s: modinfo shows no signature fields for this file",
			j->file);
	return EXITCODE_OK;
}

/* The split-off parts of one appended signature; -1 when none is asked. */
static int split_part(const struct job *j, const struct module_file *f,
		      const struct trailer *t)
{
	const struct ms_describe_opts *o = j->o;

	switch (o->part) {
	case MS_DESCRIBE_PART_BODY:
		return write_stdout(j, f->data, t->body_len);
	case MS_DESCRIBE_PART_SIG:
		return write_stdout(j, f->data + t->sig_off, t->sig_len);
	case MS_DESCRIBE_PART_DESCRIPTOR:
		fprintf(j->out, "%u %u %u %u %u %u\n", t->desc.algo,
			t->desc.hash, t->desc.id_type, t->desc.signer_len,
			t->desc.key_id_len, t->desc.sig_len);
		return EXITCODE_OK;
	case MS_DESCRIBE_PART_MODINFO:
		return part_modinfo(j, f);
	case MS_DESCRIBE_PART_NONE:
		break;
	}
	return -1;
}

/* A file with no trailer may be a .p7s itself: describe it.  -EBADMSG
 * when it is not CMS either. */
static int describe_p7s(const struct job *j, const struct module_file *f)
{
	const struct ms_describe_opts *o = j->o;
	struct sig_describe d;
	int err, rc;

	err = sig_describe_fill_detached(&d, f->data, f->len, 0, 0, j->file,
				       o->cert, o->cert_path);
	if (err) {
		sig_describe_free(&d);
		return err;
	}
	rc = show(j, NULL, &d, NULL, 0);
	sig_describe_free(&d);
	return rc;
}

/* An appended signature: the parts asked for, then its description. */
static int run(const struct job *j, const struct module_file *f)
{
	const struct ms_describe_opts *o = j->o;
	struct trailer t;
	struct sig_describe d;
	const char *why;
	int err, rc;

	err = trailer_split(f->data, f->len, &t, &why);
	if (infile_check(&f->file))
		return input_changed(j);
	if (err == -ENODATA && o->part == MS_DESCRIBE_PART_NONE && !f->signed_after &&
	    describe_p7s(j, f) == 0)
		return EXITCODE_OK;
	/* modinfo has its own reading of the trailer, and no error */
	if (err && o->part == MS_DESCRIBE_PART_MODINFO && !o->body_out && !o->sig_out)
		return part_modinfo(j, f);
	if (err)
		return fail(j, err, err == -ENODATA ? EXITCODE_UNSIGNED :
			    EXITCODE_MALFORMED, "%s", why);
	/* Files first: the parts exist whatever the id type. */
	if ((o->body_out || o->sig_out) && write_parts(j, f, &t))
		return EXITCODE_IO;
	rc = split_part(j, f, &t);
	if (rc >= 0)
		return rc;
	if (o->quiet)
		return id_type_exit(j, &t);

	err = sig_describe_fill(&d, f->data, f->len, o->cert, o->cert_path);
	if (infile_check(&f->file)) {
		sig_describe_free(&d);
		return input_changed(j);
	}
	if (err) {
		sig_describe_free(&d);
		return fail(j, -EBADMSG, EXITCODE_MALFORMED, "signature blob "
			    "is not a CMS/PKCS#7 SignedData message");
	}
	show(j, f, &d, f->data, f->len);
	rc = id_type_exit(j, &t);
	sig_describe_free(&d);
	return rc;
}

/* --sig FILE.p7s or --detached: the file and its detached signature. */
static int run_detached(const struct job *j, const struct module_file *f)
{
	const struct ms_describe_opts *o = j->o;
	struct module_file s;
	struct sig_describe d;
	const char *content;
	char *p7s = NULL;
	const char *path = o->sig;
	int err, rc;

	if (!path) {
		if (asprintf(&p7s, "%s.p7s", j->file) < 0)
			return fail(j, -ENOMEM, EXITCODE_IO, "out of memory");
		path = p7s;
	}
	err = module_file_open(path, &s, &content);
	if (err) {
		rc = fail(j, err, EXITCODE_IO, "cannot read the detached "
			  "signature %s: %s (give it with --sig)", path,
			  content ? content : infile_strerror(err));
		free(p7s);
		return rc;
	}
	err = sig_describe_fill_detached(&d, s.data, s.len, f->len,
				       trailer_has_magic(f->data, f->len), path,
				       o->cert, o->cert_path);
	if (err)
		rc = fail(j, -EBADMSG, EXITCODE_MALFORMED, "%s is not a "
			  "CMS/PKCS#7 SignedData message", path);
	else
		rc = show(j, f, &d, NULL, 0);
	if (infile_check(&f->file) || infile_check(&s.file))
		rc = input_changed(j);
	sig_describe_free(&d);
	module_file_close(&s);
	free(p7s);
	return rc;
}

int ms_describe_file(const struct ms_describe_opts *o,
		     const struct ms_describe_sink *sink, const char *file,
		     FILE *out)
{
	const struct job j = { o, sink, file, out };
	struct module_file f;
	const char *content;
	int err, rc;

	/* A compressed module is described as the kernel sees it:
	 * decompressed. */
	err = module_file_open(file, &f, &content);
	if (err) {
		if (content)
			return fail(&j, err, exitcode_for_errno(err),
				    "cannot decompress: %s", content);
		return fail(&j, err, EXITCODE_IO, "%s", infile_strerror(err));
	}
	if (o->sig || o->detached) {
		rc = run_detached(&j, &f);
	} else {
		rc = signed_after(&j, &f);
		if (rc == EXITCODE_OK)
			rc = run(&j, &f);
	}
	/* what was said about a module that changed meanwhile is void */
	if (infile_check(&f.file) && rc != EXITCODE_IO)
		rc = input_changed(&j);
	module_file_close(&f);
	return rc;
}

/* Many files: the shared worker pool, output in input order. */
struct each {
	const struct ms_describe_opts *o;
	const struct ms_describe_sink *sink;
	const struct batch_run_list *files;
	struct ms_describe_tally *t;
};

static void each_done(void *ctx, size_t i, int code)
{
	struct ms_describe_tally *t = ((struct each *)ctx)->t;

	(void)i;
	switch (code) {
	case EXITCODE_OK: t->signed_++; break;
	case EXITCODE_UNSIGNED: t->unsigned_++; break;
	case EXITCODE_MALFORMED: t->malformed++; break;
	default: t->errors++; break;
	}
}

static int each_describe(void *ctx, size_t i, FILE *out)
{
	const struct each *e = ctx;

	if (i && e->sink->between)
		fputs(e->sink->between, out);
	return ms_describe_file(e->o, e->sink, e->files->v[i], out);
}

int ms_describe_all(const struct ms_describe_opts *o,
		    const struct ms_describe_sink *sink, char **names,
		    int n, const char *from, int nul, const char *walk,
		    int jobs, struct ms_describe_tally *t)
{
	const struct treewalk_inputs in = {
		.names = names, .n = n, .from = from, .nul = nul, .walk = walk,
	};
	struct batch_run_list files = { 0 };
	struct each e = { o, sink, &files, t };
	int code;

	memset(t, 0, sizeof(*t));
	code = treewalk_collect(&in, &files);
	if (files.n)
		code = exitcode_worst(code, batch_run_each(&files, jobs ? jobs :
			workpool_default_workers(), "described",
			each_describe, each_done, &e));
	t->files = files.n;
	batch_run_list_free(&files);
	return code;
}

static int check_outputs(const struct ms_describe_opts *o,
			 const char *file)
{
	const char *const outs[] = { o->body_out, o->sig_out };
	struct samefile_inputs in = { 0 };
	const char *bad;
	char why[512];

	samefile_inputs_add(&in, file, "the module");
	samefile_inputs_add(&in, o->cert_path, "the certificate");
	if (!samefile_outputs_check(&in, outs, 2, &bad, why, sizeof(why)))
		return 0;
	log_error(bad, "%s", why);
	return -EEXIST;
}

int ms_describe_begin(struct ms_describe_opts *o, const char *file)
{
	int err = check_outputs(o, file);

	if (err)
		return err;
	outfile_cleanup_on_signals();
	o->cert = NULL;
	if (!o->cert_path)
		return 0;
	err = cert_file_read(o->cert_path, &o->cert);
	if (err) {
		log_error(o->cert_path, "%s", cert_file_strerror(err));
		return -ENOKEY;
	}
	return 0;
}

void ms_describe_end(struct ms_describe_opts *o)
{
	X509_free(o->cert);
	o->cert = NULL;
}
