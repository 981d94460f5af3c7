// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * extract-sig: split a signed module (or firmware) into body and signature,
 * and describe the signature for people (default), scripts (--json) and
 * modinfo readers (--modinfo).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/fileio.h"
#include "base/signer_facts.h"
#include "base/log.h"
#include "module/modinfo.h"
#include "module/module_file.h"
#include "module/sig_describe.h"
#include "module/trailer.h"
#include "kernel/rules.h"
#include "kernel/waiver.h"
#include "sign/keys.h"

static const char short_opts[] = "0sdc:jvqhV";
enum { OPT_BODY = 256, OPT_SIG, OPT_MODINFO, OPT_KERNEL };
static const struct option long_opts[] = {
	{ "body", required_argument, NULL, OPT_BODY },
	{ "sig", required_argument, NULL, OPT_SIG },
	{ "body-stdout", no_argument, NULL, '0' },
	{ "sig-stdout", no_argument, NULL, 's' },
	{ "descriptor", no_argument, NULL, 'd' },
	{ "cert", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "modinfo", optional_argument, NULL, OPT_MODINFO },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
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
	const char *body_out, *sig_out, *cert, *field, *file;
	const struct kr_rules *kernel;	/* --kernel; NULL: the newest */
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [options] <signed-file>\n", ms_prog());
}

static void help(void)
{
	usage(stdout);
	printf(
"Split a file signed by sign-file into its body and its signature, and\n"
"describe the signature: signer, key id, hash, key type.\n"
"\n"
"What to print on stdout (one at most; default: a description):\n"
"  -j, --json          the description as one JSON object\n"
"      --modinfo[=FIELD]  kmod modinfo's sig_id, signer, sig_key,\n"
"                      sig_hashalgo and signature lines, formatted as\n"
"                      modinfo prints them (or one FIELD's value, as\n"
"                      modinfo -F FIELD)\n"
"  -0, --body-stdout   the body without any signature (extract-module-sig.pl -0)\n"
"  -s, --sig-stdout    the raw signature blob (extract-module-sig.pl -s)\n"
"  -d, --descriptor    the descriptor: algo hash id_type signer_len\n"
"                      key_id_len sig_len (extract-module-sig.pl -d)\n"
"\n"
"Files to write (atomically; may be combined with the above):\n"
"      --body FILE     write the body to FILE\n"
"      --sig FILE      write the signature blob to FILE\n"
"\n"
"Other options:\n"
"  -c, --cert CERT     the signer's certificate (DER or PEM), to show the\n"
"                      key type and size\n"
"      --kernel LINE   the kernel line (default the newest) to say of an\n"
"                      ML-DSA signer whether its signed attributes need\n"
"                      CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA\n"
"  -q, --quiet         print nothing on stdout (check and extract only)\n"
"  -v, --verbose       show OpenSSL's error details\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"A module compressed with gzip, xz or zstd (recognised by content) is read\n"
"decompressed, as the kernel reads it: sizes, offsets, -0 and --body are\n"
"of the decompressed module.  A signature appended after compression is\n"
"never seen by the kernel: it is reported, with exit 3 (not signed).\n");
	ms_exit_help(stdout);
}

static int set_view(struct args *a, enum view v)
{
	if (a->view_set && a->view != v) {
		ms_error(NULL, "choose one of --json, --modinfo, -0, -s, -d, "
			 "-q");
		return -1;
	}
	a->view = v;
	a->view_set = 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int opt, verbose = 0;

	while ((opt = getopt_long(argc, argv, short_opts, long_opts,
				  NULL)) != -1) {
		int bad = 0;

		switch (opt) {
		case '0':
			bad = set_view(a, VIEW_BODY);
			break;
		case 's':
			bad = set_view(a, VIEW_SIG);
			break;
		case 'd':
			bad = set_view(a, VIEW_DESC);
			break;
		case 'j':
			bad = set_view(a, VIEW_JSON);
			break;
		case 'q':
			bad = set_view(a, VIEW_NONE);
			break;
		case OPT_MODINFO:
			bad = set_view(a, VIEW_MODINFO);
			a->field = optarg;
			break;
		case OPT_KERNEL: {
			const char *note;

			a->kernel = kr_for_version(optarg, &note);
			if (!a->kernel) {
				ms_error(NULL, "not a kernel version '%s' (use "
					 "MAJOR.MINOR: the lines are %s)",
					 optarg, kr_line_names());
				bad = 1;
			} else if (note) {
				ms_warn(NULL, "--kernel %s: %s", optarg, note);
			}
			break;
		}
		case OPT_BODY:
			a->body_out = optarg;
			break;
		case OPT_SIG:
			a->sig_out = optarg;
			break;
		case 'c':
			a->cert = optarg;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			help();
			exit(MS_EXIT_OK);
		case 'V':
			printf("extract-sig (modsign) %s\n", MODSIGN_VERSION);
			exit(MS_EXIT_OK);
		case '?':
		default:
			bad = 1;
			break;
		}
		if (bad) {
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return -1;
	}
	a->file = argv[optind];
	ms_set_verbose(verbose);
	return 0;
}

/* The module changed while it was read: say so, nothing else. */
static int input_changed(const struct args *a)
{
	ms_error(a->file, "%s", ms_io_strerror(MS_ECHANGED));
	return MS_ECHANGED;
}

static int write_part(const struct args *a, const struct ms_modfile *f,
		      const char *path, const uint8_t *p, size_t len)
{
	struct ms_out o;
	int err = ms_out_begin(path, ms_default_mode(), &o);

	if (!err)
		err = ms_out_write(&o, p, len);
	/* never a part made of bytes the module no longer has */
	if (err == MS_ECHANGED || ms_file_check(&f->file)) {
		ms_out_abort(&o);
		return input_changed(a);
	}
	if (!err)
		err = ms_out_commit(&o);
	ms_out_abort(&o);
	if (err)
		ms_error(path, "cannot write: %s", ms_io_strerror(err));
	return err;
}

static int write_stdout(const struct args *a, const uint8_t *p, size_t len)
{
	int err = ms_write_fd(STDOUT_FILENO, p, len);

	if (err == MS_ECHANGED)
		return input_changed(a);
	if (err)
		ms_error("stdout", "%s", strerror(-err));
	return err;
}

/* The PKCS#7 id type is the only one the kernel accepts
 * (kernel/module/signing.c, module_sig_check()). */
static int id_type_exit(const struct args *a, const struct ms_trailer *t)
{
	const char *name = ms_id_type_name(t->desc.id_type);

	if (t->desc.id_type == MS_ID_PKCS7)
		return MS_EXIT_OK;
	if (name)
		ms_error(a->file, "signature id type %u (%s) is not PKCS#7: "
			 "the legacy pre-4.3 format, which kernels refuse "
			 "(ENOPKG)", t->desc.id_type, name);
	else
		ms_error(a->file, "unknown signature id type %u: not a "
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
static int signed_after(const struct args *a, const struct ms_modfile *f)
{
	const char *what;

	if (!f->signed_after)
		return MS_EXIT_OK;
	if (ms_modfile_signed_after(f, &what)) {
		ms_error(a->file, "%s", what);
		return MS_EXIT_UNSIGNED;
	}
	ms_warn(a->file, "%s; describing the signature inside", what);
	return MS_EXIT_OK;
}

static int run(const struct args *a, const struct ms_modfile *f, X509 *cert)
{
	struct ms_trailer t;
	struct ms_sigdesc d;
	const char *why;
	int err, rc;

	err = ms_trailer_split(f->data, f->len, &t, &why);
	if (ms_file_check(&f->file)) {
		input_changed(a);
		return MS_EXIT_IO;
	}
	if (err) {
		ms_error(a->file, "%s", why);
		return err == -ENODATA ? MS_EXIT_UNSIGNED : MS_EXIT_MALFORMED;
	}
	/* Files first: the parts exist whatever the id type. */
	if (a->body_out && write_part(a, f, a->body_out, f->data, t.body_len))
		return MS_EXIT_IO;
	if (a->sig_out &&
	    write_part(a, f, a->sig_out, f->data + t.sig_off, t.sig_len))
		return MS_EXIT_IO;

	switch (a->view) {
	case VIEW_BODY:
		return write_stdout(a, f->data, t.body_len) ? MS_EXIT_IO : 0;
	case VIEW_SIG:
		return write_stdout(a, f->data + t.sig_off, t.sig_len) ?
			       MS_EXIT_IO : 0;
	case VIEW_DESC:
		printf("%u %u %u %u %u %u\n", t.desc.algo, t.desc.hash,
		       t.desc.id_type, t.desc.signer_len, t.desc.key_id_len,
		       t.desc.sig_len);
		return MS_EXIT_OK;
	case VIEW_NONE:
		return id_type_exit(a, &t);
	case VIEW_MODINFO:
		err = ms_modinfo_print(stdout, f->data, f->len, a->field);
		if (err == -EINVAL) {
			ms_error(NULL, "unknown modinfo field '%s' (sig_id, "
				 "signer, sig_key, sig_hashalgo, signature)",
				 a->field);
			return MS_EXIT_USAGE;
		}
		if (err)
			ms_info("%s: modinfo shows no signature fields for "
				"this file", a->file);
		return id_type_exit(a, &t);
	case VIEW_DESCRIBE:
	case VIEW_JSON:
		break;
	}

	err = ms_sigdesc_fill(&d, f->data, f->len, cert, a->cert);
	if (ms_file_check(&f->file)) {
		ms_sigdesc_free(&d);
		input_changed(a);
		return MS_EXIT_IO;
	}
	if (!err)
		kr_describe_waivers(a->kernel ? a->kernel : kr_get(KR_DEFAULT),
				    &d);
	if (f->comp != MS_COMP_NONE) {
		d.compression = ms_comp_name(f->comp);
		d.compressed_len = f->file.len;
	}
	if (err) {
		ms_error(a->file, "signature blob is not a CMS/PKCS#7 "
			 "SignedData message");
		ms_sigdesc_free(&d);
		return MS_EXIT_MALFORMED;
	}
	if (a->view == VIEW_JSON) {
		json_object *o = ms_sigdesc_json(&d, a->file);

		puts(json_object_to_json_string_ext(o, MS_JSON_FLAGS));
		json_object_put(o);
	} else {
		ms_sigdesc_print(&d, a->file);
	}
	rc = id_type_exit(a, &t);
	ms_sigdesc_free(&d);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { .view = VIEW_DESCRIBE };
	enum ms_key_problem why;
	struct ms_modfile f;
	const char *content;
	X509 *cert = NULL;
	int err, rc;

	ms_log_init(argv[0]);
	if (parse_args(argc, argv, &a))
		return MS_EXIT_USAGE;
	ms_cleanup_on_signals();
	if (a.cert) {
		err = ms_load_cert(a.cert, &cert, &why);
		if (err) {
			ms_error(a.cert, "%s", why == MS_KEY_UNREADABLE ?
				 ms_io_strerror(err) : ms_key_problem_str(why));
			return MS_EXIT_KEY;
		}
	}
	/* A compressed module is described as the kernel sees it:
	 * decompressed. */
	err = ms_modfile_open(a.file, &f, &content);
	if (err) {
		if (content)
			ms_error(a.file, "cannot decompress: %s", content);
		else
			ms_error(a.file, "%s", ms_io_strerror(err));
		X509_free(cert);
		return content ? ms_exit_for_errno(err) : MS_EXIT_IO;
	}
	rc = signed_after(&a, &f);
	if (rc == MS_EXIT_OK)
		rc = run(&a, &f, cert);
	/* what was said about a module that changed meanwhile is void */
	if (ms_file_check(&f.file) && rc != MS_EXIT_IO) {
		input_changed(&a);
		rc = MS_EXIT_IO;
	}
	ms_modfile_close(&f);
	X509_free(cert);
	if (fflush(stdout) != 0) {
		ms_error("stdout", "%s", strerror(errno));
		rc = MS_EXIT_IO;
	}
	return rc;
}
