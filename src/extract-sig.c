// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * extract-sig: split a signed module (or firmware) into body and signature,
 * and describe the signature for people (default), scripts (--json) and
 * modinfo readers (--modinfo); describe a detached .p7s too, and many
 * files in one run (FILE..., --files-from, -r).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/batch_run.h"
#include "base/cert_file.h"
#include "base/exitcode.h"
#include "base/fileio.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "base/samefile.h"
#include "base/signer_facts.h"
#include "base/treewalk.h"
#include "base/workpool.h"
#include "kernel/cert_check.h"
#include "kernel/public_key.h"
#include "kernel/rules.h"
#include "kernel/waiver.h"
#include "module/modinfo.h"
#include "module/module_file.h"
#include "module/sig_describe.h"
#include "module/trailer.h"
#include "report/kernel_arg.h"
#include "report/verdict.h"

/*
 * One letter, one meaning in all three tools: -j is --jobs, -0 is --null
 * (for --files-from), -r walks a tree, -q silences the verdicts, and
 * --json has no letter.  extract-module-sig.pl's -0, -s and -d mean
 * other things in sign-file, so their modes are long options only, and
 * --sig FILE.p7s is an input here as in verify-file: the outputs are
 * --body-out and --sig-out.
 */
static const char short_opts[] = "c:r:j:0vqhV";
enum {
	OPT_BODY_OUT = 256, OPT_SIG_OUT, OPT_SIG, OPT_DETACHED, OPT_MODINFO,
	OPT_KERNEL, OPT_JSON, OPT_BODY_STDOUT, OPT_SIG_STDOUT, OPT_DESCRIPTOR,
	OPT_FILES_FROM,
};
static const struct option long_opts[] = {
	{ "body-out", required_argument, NULL, OPT_BODY_OUT },
	/* the old spelling: it means nothing else anywhere */
	{ "body", required_argument, NULL, OPT_BODY_OUT },
	{ "sig-out", required_argument, NULL, OPT_SIG_OUT },
	{ "sig", required_argument, NULL, OPT_SIG },
	{ "detached", no_argument, NULL, OPT_DETACHED },
	{ "body-stdout", no_argument, NULL, OPT_BODY_STDOUT },
	{ "sig-stdout", no_argument, NULL, OPT_SIG_STDOUT },
	{ "descriptor", no_argument, NULL, OPT_DESCRIPTOR },
	{ "cert", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "modinfo", optional_argument, NULL, OPT_MODINFO },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "recursive", required_argument, NULL, 'r' },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "null", no_argument, NULL, '0' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* What goes to stdout: exactly one of these. */
enum view { VIEW_DESCRIBE, VIEW_JSON, VIEW_MODINFO, VIEW_BODY, VIEW_SIG,
	    VIEW_DESC, VIEW_NONE };

struct args {
	enum view view;
	int view_set;
	const char *body_out, *sig_out, *cert, *field;
	const char *sig;	/* --sig FILE.p7s: the detached signature */
	int detached;		/* --detached: FILE.p7s beside each FILE */
	const struct kr_rules *kernel;	/* --kernel; NULL: the newest */
	struct kr_rules kernel_buf;
	const char *from, *walk;	/* --files-from, -r */
	int nul, jobs;
	char **files;
	int nfiles;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s [options] FILE...\n"
		"   or: %1$s [options] -r DIR\n"
		"   or: %1$s [options] --files-from LIST [-0]\n"
		"   or: %1$s [options] --sig FILE.p7s FILE\n"
		"   or: %1$s [options] FILE.p7s\n"
		"   or: %1$s --body-stdout|--sig-stdout|--descriptor|"
		"--modinfo[=FIELD] FILE\n"
		"   or: %1$s [--body-out BODY] [--sig-out SIG] -q FILE\n",
		ms_prog());
}

static void help(void)
{
	usage(stdout);
	printf(
"Split a file signed by sign-file into its body and its signature, and\n"
"describe the signature: signer, key id, hash, key type.  A detached\n"
"signature (a .p7s, as sign-file -d writes) is described too.\n"
"\n"
"What to print on stdout (one at most; default: a description):\n"
"      --json            the description as one JSON object per file\n"
"      --modinfo[=FIELD]  kmod modinfo's sig_id, signer, sig_key,\n"
"                        sig_hashalgo and signature lines, formatted as\n"
"                        modinfo prints them (or one FIELD's value, as\n"
"                        modinfo -F FIELD)\n"
"      --body-stdout     the body without any signature\n"
"                        (extract-module-sig.pl -0)\n"
"      --sig-stdout      the raw signature blob (extract-module-sig.pl -s)\n"
"      --descriptor      the descriptor: algo hash id_type signer_len\n"
"                        key_id_len sig_len (extract-module-sig.pl -d)\n"
"  -q, --quiet           print nothing on stdout; only the exit code tells\n"
"\n"
"Files to write (atomically; may be combined with the above):\n"
"      --body-out FILE   write the body to FILE\n"
"      --sig-out FILE    write the signature blob to FILE\n"
"\n"
"Which signature:\n"
"      --sig FILE.p7s    detached signature of the single FILE (an input,\n"
"                        as in verify-file)\n"
"      --detached        use FILE.p7s beside each FILE\n"
"\n"
"Many files (one description, or JSON object, per file, in input order):\n"
"  -r, --recursive DIR   describe every module (*.ko, *.ko.gz, *.ko.xz,\n"
"                        *.ko.zst) under DIR\n"
"      --files-from LIST  read more file names from LIST (- is standard\n"
"                        input), one a line\n"
"  -0, --null            names in LIST end with NUL, not newline\n"
"  -j, --jobs N          workers (default: the online CPUs)\n"
"\n"
"Other options:\n"
"  -c, --cert CERT       the signer's certificate (DER or PEM), to show the\n"
"                        key type and size; a warning says when CERT is\n"
"                        not this signature's signer\n"
"      --kernel LINE     the kernel line (default the newest) to say of an\n"
"                        ML-DSA signer whether its signed attributes need\n"
"                        CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA\n"
"  -v, --verbose         show OpenSSL's error details\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version, the OpenSSL and whether it\n"
"                        checks ML-DSA, and exit\n"
"\n"
"A module compressed with gzip, xz or zstd (recognised by content) is read\n"
"decompressed, as the kernel reads it: sizes, offsets, --body-stdout and\n"
"--body-out are of the decompressed module.  A signature appended after\n"
"compression is never seen by the kernel: it is reported, with exit 3\n"
"(not signed).  An -r DIR or --files-from LIST that yields no file is\n"
"an error (exit 2).  A body that itself ends with the signature magic was\n"
"signed twice: the description says so (\"signed twice\", JSON\n"
"\"signed_twice\").  With --json a file that cannot be described is an\n"
"object with \"verdict\": \"ERROR\" and its errno, as in verify-file.\n");
	ms_exit_help(stdout);
}

static int set_view(struct args *a, enum view v)
{
	if (a->view_set && a->view != v) {
		ms_error(NULL, "choose one of --json, --modinfo, "
			 "--body-stdout, --sig-stdout, --descriptor, -q");
		return -1;
	}
	a->view = v;
	a->view_set = 1;
	return 0;
}

static int take_kernel(struct args *a)
{
	if (rp_kernel_release("--kernel", optarg, &a->kernel_buf))
		return -1;
	a->kernel = &a->kernel_buf;
	return 0;
}

/* take_option's answer for --help and --version: stop, successfully. */
#define STOP_OK 1

/* One option into a: 0 to go on, STOP_OK, or -1 for a usage error. */
static int take_option(struct args *a, int opt, int *verbose)
{
	switch (opt) {
	case OPT_BODY_STDOUT: return set_view(a, VIEW_BODY);
	case OPT_SIG_STDOUT: return set_view(a, VIEW_SIG);
	case OPT_DESCRIPTOR: return set_view(a, VIEW_DESC);
	case OPT_JSON: return set_view(a, VIEW_JSON);
	case 'q': return set_view(a, VIEW_NONE);
	case OPT_MODINFO:
		a->field = optarg;
		return set_view(a, VIEW_MODINFO);
	case OPT_KERNEL: return take_kernel(a);
	case OPT_BODY_OUT: a->body_out = optarg; return 0;
	case OPT_SIG_OUT: a->sig_out = optarg; return 0;
	case OPT_SIG: a->sig = optarg; return 0;
	case OPT_DETACHED: a->detached = 1; return 0;
	case OPT_FILES_FROM: a->from = optarg; return 0;
	case '0': a->nul = 1; return 0;
	case 'c': a->cert = optarg; return 0;
	case 'v': (*verbose)++; return 0;
	case 'r':
		if (a->walk) {
			ms_error(NULL, "-r given twice (walk one tree per "
				 "run)");
			return -1;
		}
		a->walk = optarg;
		return 0;
	case 'j':
		if (ms_jobs_parse(optarg, &a->jobs)) {
			ms_error(NULL, "-j needs a number of workers from 1 to "
				 "%d", MS_JOBS_MAX);
			return -1;
		}
		return 0;
	case 'h':
		help();
		return STOP_OK;
	case 'V':
		/* ML-DSA: whether this build checks its signatures */
		ms_print_version("extract-sig", pk_mldsa_checkable());
		return STOP_OK;
	case '?':
	default:
		return -1;
	}
}

/* The command line holds together: 0, else -1 after saying why. */
static int validate(const struct args *a)
{
	int many = a->walk || a->from || a->nfiles != 1;
	int splits = a->view == VIEW_BODY || a->view == VIEW_SIG ||
		     a->view == VIEW_DESC || a->view == VIEW_MODINFO ||
		     a->body_out || a->sig_out;

	if (!a->walk && !a->from && !a->nfiles)
		ms_error(NULL, "no FILE to describe");
	else if (a->walk && a->nfiles)
		ms_error(NULL, "give either -r DIR or FILEs, not both");
	else if (a->nul && !a->from)
		ms_error(NULL, "-0 goes with --files-from");
	else if (a->sig && a->detached)
		ms_error(NULL, "--sig and --detached exclude each other");
	else if (a->sig && many)
		ms_error(NULL, "--sig needs exactly one FILE");
	else if (splits && many)
		ms_error(NULL, "--body-stdout, --sig-stdout, --descriptor, "
			 "--modinfo, --body-out and --sig-out take exactly one "
			 "FILE");
	else if (splits && (a->sig || a->detached))
		ms_error(NULL, "--body-stdout, --sig-stdout, --descriptor, "
			 "--modinfo, --body-out and --sig-out split an "
			 "appended signature: not with --sig or --detached");
	else
		return 0;
	return -1;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int opt, verbose = 0, r;

	while ((opt = getopt_long(argc, argv, short_opts, long_opts,
				  NULL)) != -1)
		if ((r = take_option(a, opt, &verbose)))
			return r;
	a->files = argv + optind;
	a->nfiles = argc - optind;
	if (validate(a))
		return -1;
	ms_set_verbose(verbose);
	return 0;
}

/* One file's work: where its text goes, and what it is described with. */
struct job {
	const struct args *a;
	X509 *cert;
	const char *file;
	FILE *out;
};

/*
 * A file that cannot be described: one line on stderr and, with --json,
 * verify-file's ERROR object (report/verdict.h) so that every input has
 * its object.  Returns code.
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
	ms_error(j->file, "%s", why);
	if (j->a->view == VIEW_JSON)
		rp_print_error_json(j->out, j->file, err, why);
	return code;
}

/* The module changed while it was read: say so, nothing else. */
static int input_changed(const struct job *j)
{
	return fail(j, MS_ECHANGED, MS_EXIT_IO, "%s",
		    ms_io_strerror(MS_ECHANGED));
}

static int write_part(const struct job *j, const struct ms_modfile *f,
		      const char *path, const uint8_t *p, size_t len)
{
	struct ms_out o;
	int err = ms_out_begin(path, ms_default_mode(), &o);

	if (!err)
		err = ms_out_write(&o, p, len);
	/* never a part made of bytes the module no longer has */
	if (err == MS_ECHANGED || ms_file_check(&f->file)) {
		ms_out_abort(&o);
		input_changed(j);
		return MS_ECHANGED;
	}
	if (!err)
		err = ms_out_commit(&o);
	ms_out_abort(&o);
	if (err)
		ms_error(path, "cannot write: %s", ms_io_strerror(err));
	return err;
}

static int write_stdout(const struct job *j, const uint8_t *p, size_t len)
{
	int err = ms_write_fd(STDOUT_FILENO, p, len);

	if (err == MS_ECHANGED)
		return input_changed(j);
	if (err)
		ms_error("stdout", "%s", strerror(-err));
	return err ? MS_EXIT_IO : MS_EXIT_OK;
}

/* The PKCS#7 id type is the only one the kernel accepts
 * (kernel/module/signing.c, module_sig_check()). */
static int id_type_exit(const struct job *j, const struct ms_trailer *t)
{
	const char *name = ms_id_type_name(t->desc.id_type);

	if (t->desc.id_type == MS_ID_PKCS7)
		return MS_EXIT_OK;
	if (name)
		ms_error(j->file, "signature id type %u (%s) is not PKCS#7: "
			 "the legacy pre-4.3 format, which kernels refuse "
			 "(ENOPKG)", t->desc.id_type, name);
	else
		ms_error(j->file, "unknown signature id type %u: not a "
			 "PKCS#7 module signature (the kernel says ENOPKG)",
			 t->desc.id_type);
	return MS_EXIT_NOPKG;
}

/*
 * A trailer after the compressed stream: the kernel decompresses first and
 * never sees it.  When the module inside carries no signature the kernel's
 * verdict is ENODATA, so exit 3 as for any unsigned module; when it does,
 * that inner signature is what counts and is described.
 */
static int signed_after(const struct job *j, const struct ms_modfile *f)
{
	const char *what;

	if (!f->signed_after)
		return MS_EXIT_OK;
	if (ms_modfile_signed_after(f, &what))
		return fail(j, -ENODATA, MS_EXIT_UNSIGNED, "%s", what);
	ms_warn(j->file, "%s; describing the signature inside", what);
	return MS_EXIT_OK;
}

/* Print the description d of j's file, with the warnings it calls for. */
static int print_desc(const struct job *j, const struct ms_modfile *f,
		      struct ms_sigdesc *d)
{
	const struct args *a = j->a;

	kr_describe_waivers(a->kernel ? a->kernel : kr_get(KR_DEFAULT), d);
	if (f && f->comp != MS_COMP_NONE) {
		d->compression = ms_comp_name(f->comp);
		d->compressed_len = f->file.len;
	}
	/* -c names a certificate that signed nothing here: its key type
	 * says nothing about this signature */
	if (d->cert_path && !d->cert_signs)
		ms_warn(a->cert, "not the signer of %s (neither issuer and "
			"serial nor subjectKeyIdentifier match a signer)",
			j->file);
	if (d->signed_twice)
		ms_warn(j->file, "signed twice: the body still ends with an "
			"older signature");
	if (a->view == VIEW_JSON) {
		json_object *o = ms_sigdesc_json(d, j->file);

		fprintf(j->out, "%s\n",
			json_object_to_json_string_ext(o, MS_JSON_FLAGS));
		json_object_put(o);
	} else if (a->view == VIEW_DESCRIBE) {
		ms_sigdesc_print(j->out, d, j->file);
	}
	return MS_EXIT_OK;
}

/* The split-off views of one appended signature. */
static int split_view(const struct job *j, const struct ms_modfile *f,
		      const struct ms_trailer *t)
{
	const struct args *a = j->a;
	int err;

	switch (a->view) {
	case VIEW_BODY:
		return write_stdout(j, f->data, t->body_len);
	case VIEW_SIG:
		return write_stdout(j, f->data + t->sig_off, t->sig_len);
	case VIEW_DESC:
		fprintf(j->out, "%u %u %u %u %u %u\n", t->desc.algo,
			t->desc.hash, t->desc.id_type, t->desc.signer_len,
			t->desc.key_id_len, t->desc.sig_len);
		return MS_EXIT_OK;
	case VIEW_MODINFO:
		err = ms_modinfo_print(j->out, f->data, f->len, a->field);
		if (err == -EINVAL) {
			ms_error(NULL, "unknown modinfo field '%s' (sig_id, "
				 "signer, sig_key, sig_hashalgo, signature)",
				 a->field);
			return MS_EXIT_USAGE;
		}
		if (err)
			ms_info("%s: modinfo shows no signature fields for "
				"this file", j->file);
		return id_type_exit(j, t);
	default:
		return -1;	/* not a split view */
	}
}

/* A file with no trailer may be a .p7s itself: describe it.  -EBADMSG
 * when it is not CMS either. */
static int describe_p7s(const struct job *j, const struct ms_modfile *f)
{
	struct ms_sigdesc d;
	int err, rc;

	err = ms_sigdesc_fill_detached(&d, f->data, f->len, 0, 0, j->file,
				       j->cert, j->a->cert);
	if (err) {
		ms_sigdesc_free(&d);
		return err;
	}
	rc = print_desc(j, NULL, &d);
	ms_sigdesc_free(&d);
	return rc;
}

static int run(const struct job *j, const struct ms_modfile *f)
{
	const struct args *a = j->a;
	struct ms_trailer t;
	struct ms_sigdesc d;
	const char *why;
	char desc[320];
	int err, rc;

	err = ms_trailer_split(f->data, f->len, &t, &why);
	if (ms_file_check(&f->file))
		return input_changed(j);
	if (err == -ENODATA && (a->view == VIEW_DESCRIBE ||
				a->view == VIEW_JSON || a->view == VIEW_NONE) &&
	    !f->signed_after && describe_p7s(j, f) == 0)
		return MS_EXIT_OK;
	if (err)
		return fail(j, err, err == -ENODATA ? MS_EXIT_UNSIGNED :
			    MS_EXIT_MALFORMED, "%s", why);
	/* Files first: the parts exist whatever the id type. */
	if (a->body_out &&
	    write_part(j, f, a->body_out, f->data, t.body_len))
		return MS_EXIT_IO;
	if (a->sig_out &&
	    write_part(j, f, a->sig_out, f->data + t.sig_off, t.sig_len))
		return MS_EXIT_IO;
	rc = split_view(j, f, &t);
	if (rc >= 0)
		return rc;
	if (a->view == VIEW_NONE)
		return id_type_exit(j, &t);

	err = ms_sigdesc_fill(&d, f->data, f->len, j->cert, a->cert);
	if (ms_file_check(&f->file)) {
		ms_sigdesc_free(&d);
		return input_changed(j);
	}
	if (err) {
		ms_sigdesc_free(&d);
		return fail(j, -EBADMSG, MS_EXIT_MALFORMED, "signature blob "
			    "is not a CMS/PKCS#7 SignedData message");
	}
	/* -c: CERT's key and whether it vouches, as verify-file says */
	if (a->cert)
		kv_cert_check(a->cert, a->kernel ? a->kernel :
			      kr_get(KR_DEFAULT), f->data, f->len, &d, desc,
			      sizeof(desc));
	print_desc(j, f, &d);
	rc = id_type_exit(j, &t);
	ms_sigdesc_free(&d);
	return rc;
}

/* --sig FILE.p7s or --detached: the file and its detached signature. */
static int run_detached(const struct job *j, const struct ms_modfile *f)
{
	const struct args *a = j->a;
	struct ms_modfile s;
	struct ms_sigdesc d;
	const char *content;
	char *p7s = NULL;
	const char *path = a->sig;
	int err, rc;

	if (!path) {
		if (asprintf(&p7s, "%s.p7s", j->file) < 0)
			return fail(j, -ENOMEM, MS_EXIT_IO, "out of memory");
		path = p7s;
	}
	err = ms_modfile_open(path, &s, &content);
	if (err) {
		rc = fail(j, err, MS_EXIT_IO, "cannot read the detached "
			  "signature %s: %s (give it with --sig)", path,
			  content ? content : ms_io_strerror(err));
		free(p7s);
		return rc;
	}
	err = ms_sigdesc_fill_detached(&d, s.data, s.len, f->len,
				       ms_has_magic(f->data, f->len), path,
				       j->cert, a->cert);
	if (err)
		rc = fail(j, -EBADMSG, MS_EXIT_MALFORMED, "%s is not a "
			  "CMS/PKCS#7 SignedData message", path);
	else
		rc = print_desc(j, f, &d);
	if (ms_file_check(&f->file) || ms_file_check(&s.file))
		rc = input_changed(j);
	ms_sigdesc_free(&d);
	ms_modfile_close(&s);
	free(p7s);
	return rc;
}

/* One file, start to end: its exit code. */
static int describe_file(const struct job *j)
{
	struct ms_modfile f;
	const char *content;
	int err, rc;

	/* A compressed module is described as the kernel sees it:
	 * decompressed. */
	err = ms_modfile_open(j->file, &f, &content);
	if (err) {
		if (content)
			return fail(j, err, ms_exit_for_errno(err),
				    "cannot decompress: %s", content);
		return fail(j, err, MS_EXIT_IO, "%s", ms_io_strerror(err));
	}
	if (j->a->sig || j->a->detached) {
		rc = run_detached(j, &f);
	} else {
		rc = signed_after(j, &f);
		if (rc == MS_EXIT_OK)
			rc = run(j, &f);
	}
	/* what was said about a module that changed meanwhile is void */
	if (ms_file_check(&f.file) && rc != MS_EXIT_IO)
		rc = input_changed(j);
	ms_modfile_close(&f);
	return rc;
}

/* Many files: the shared worker pool, output in input order. */
struct each {
	const struct args *a;
	X509 *cert;
	const struct ms_list *files;
	struct rp_describe_summary sum;
};

static void each_done(void *ctx, size_t i, int code)
{
	(void)i;
	rp_describe_count(&((struct each *)ctx)->sum, code);
}

static int each_describe(void *ctx, size_t i, FILE *out)
{
	const struct each *e = ctx;
	const struct job j = { e->a, e->cert, e->files->v[i], out };

	/* descriptions of many files: a blank line between them */
	if (i && e->a->view == VIEW_DESCRIBE)
		fputc('\n', out);
	return describe_file(&j);
}

static int describe_all(const struct args *a, X509 *cert)
{
	const struct ms_inputs in = {
		.names = a->files, .n = a->nfiles,
		.from = a->from, .nul = a->nul, .walk = a->walk,
	};
	struct ms_list files = { 0 };
	struct each e = { a, cert, &files, { 0 } };
	int code;

	code = ms_inputs_collect(&in, &files);
	if (files.n)
		code = ms_exit_worst(code, ms_batch_each(&files, a->jobs ?
			a->jobs : ms_pool_default_workers(), "described",
			each_describe, each_done, &e));
	/* as verify-file: a tree or a list ends with its count */
	if (files.n && (a->walk || a->from) && a->view != VIEW_NONE)
		rp_print_describe_summary(stdout, files.n, &e.sum, code,
					  a->view == VIEW_JSON);
	ms_list_free(&files);
	return code;
}

/* --body-out and --sig-out never replace a file this run reads
 * (base/samefile.h), nor each other: 0 or exit 2 after one line. */
static int check_outputs(const struct args *a)
{
	const char *const outs[] = { a->body_out, a->sig_out };
	struct ms_input_set in = { 0 };
	const char *bad;
	char why[512];

	ms_inputs_add(&in, a->nfiles ? a->files[0] : NULL, "the module");
	ms_inputs_add(&in, a->cert, "the certificate");
	if (!ms_outputs_check(&in, outs, 2, &bad, why, sizeof(why)))
		return 0;
	ms_error(bad, "%s", why);
	return MS_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct args a = { .view = VIEW_DESCRIBE };
	X509 *cert = NULL;
	int err, rc;

	ms_log_init(argv[0]);
	rc = parse_args(argc, argv, &a);
	if (rc == STOP_OK)
		return MS_EXIT_OK;
	if (rc) {
		ms_usage_hint();
		return MS_EXIT_USAGE;
	}
	if ((rc = check_outputs(&a)))
		return rc;
	ms_cleanup_on_signals();
	if (a.cert) {
		err = ms_cert_read(a.cert, &cert);
		if (err) {
			ms_error(a.cert, "%s", ms_cert_strerror(err));
			return MS_EXIT_KEY;
		}
	}
	if (a.walk || a.from || a.nfiles > 1) {
		rc = describe_all(&a, cert);
	} else {
		const struct job j = { &a, cert, a.files[0], stdout };

		rc = describe_file(&j);
	}
	X509_free(cert);
	if (fflush(stdout) != 0) {
		ms_error("stdout", "%s", strerror(errno));
		rc = MS_EXIT_IO;
	}
	return rc;
}
