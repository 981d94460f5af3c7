// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * extract-sig: split a signed module (or firmware) into body and signature,
 * and describe the signature for people (default), scripts (--json) and
 * modinfo readers (--modinfo); describe a detached .p7s too, and many
 * files in one run (FILE..., --files-from, -r).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/batch_run.h"
#include "base/cert_file.h"
#include "base/exitcode.h"
#include "base/fileio.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "kernel/public_key.h"
#include "module/describe.h"
#include "report/describe.h"
#include "report/kernel_arg.h"

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

/* The command line as the describe pipeline (module/describe.h) and
 * its printer (report/describe.h) take it. */
static void describe_opts(const struct args *a, X509 *cert,
			  struct ms_describe_opts *o, struct rp_describe *r)
{
	*o = (struct ms_describe_opts){
		.part = a->view == VIEW_BODY ? MS_PART_BODY :
			a->view == VIEW_SIG ? MS_PART_SIG :
			a->view == VIEW_DESC ? MS_PART_DESCRIPTOR :
			a->view == VIEW_MODINFO ? MS_PART_MODINFO :
			MS_PART_NONE,
		.quiet = a->view == VIEW_NONE,
		.field = a->field, .body_out = a->body_out,
		.sig_out = a->sig_out, .sig = a->sig, .detached = a->detached,
		.cert = cert, .cert_path = a->cert,
	};
	*r = (struct rp_describe){
		.view = a->view == VIEW_JSON ? RP_DESCRIBE_JSON :
			a->view == VIEW_DESCRIBE ? RP_DESCRIBE_TEXT :
			RP_DESCRIBE_NONE,
		.kernel = a->kernel, .cert_path = a->cert,
	};
}

/* Many files, each described in input order, then (for a tree or a list,
 * as verify-file) their count. */
static int describe_all(const struct args *a, const struct ms_describe_opts *o,
			const struct ms_describe_sink *sink)
{
	struct ms_describe_tally t;
	int code;

	code = ms_describe_all(o, sink, a->files, a->nfiles, a->from, a->nul,
			       a->walk, a->jobs, &t);
	if (t.files && (a->walk || a->from) && a->view != VIEW_NONE)
		rp_print_describe_summary(stdout, &t, code,
					  a->view == VIEW_JSON);
	return code;
}

int main(int argc, char **argv)
{
	struct args a = { .view = VIEW_DESCRIBE };
	struct ms_describe_opts o;
	struct ms_describe_sink sink;
	struct rp_describe r;
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
	describe_opts(&a, NULL, &o, &r);
	if (ms_describe_check_outputs(&o, a.nfiles ? a.files[0] : NULL))
		return MS_EXIT_USAGE;
	ms_cleanup_on_signals();
	if (a.cert) {
		err = ms_cert_read(a.cert, &cert);
		if (err) {
			ms_error(a.cert, "%s", ms_cert_strerror(err));
			return MS_EXIT_KEY;
		}
	}
	o.cert = cert;
	sink = rp_describe_sink(&r);
	if (a.walk || a.from || a.nfiles > 1)
		rc = describe_all(&a, &o, &sink);
	else
		rc = ms_describe_file(&o, &sink, a.files[0], stdout);
	X509_free(cert);
	if (fflush(stdout) != 0) {
		ms_error("stdout", "%s", strerror(errno));
		rc = MS_EXIT_IO;
	}
	return rc;
}
