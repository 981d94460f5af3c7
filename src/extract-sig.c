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

#include "base/cli_options.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "extract-sig/extract_sig.h"

/*
 * One letter, one meaning in all three tools: -j is --jobs, -0 is --null
 * (for --files-from), -r walks a tree, -q silences the verdicts, and
 * --json has no letter.  extract-module-sig.pl's -0, -s and -d mean
 * other things in sign-file, so their modes are long options only, and
 * --sig FILE.p7s is an input here as in verify-file: the outputs are
 * --body-out and --sig-out.
 */
static const char short_opts[] = "c:";
/* Its own options; the shared ones are base/cli_options.h's. */
enum {
	OPT_BODY_OUT = CLI_OPTIONS_CODE_OWN, OPT_SIG_OUT, OPT_SIG, OPT_DETACHED,
	OPT_MODINFO, OPT_BODY_STDOUT, OPT_SIG_STDOUT, OPT_DESCRIPTOR,
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
	{ "modinfo", optional_argument, NULL, OPT_MODINFO },
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
	const struct rules_rules *kernel;	/* --kernel; NULL: the newest */
	struct rules_rules kernel_buf;
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
		log_prog());
}

/* --help: one line an option; man/extract-sig.h2m says the rest. */
static void help(void)
{
	usage(stdout);
	printf(
"Split a file signed by sign-file into its body and its signature, and\n"
"describe the signature: certificate, issuer, key id, hash, key type.  A\n"
"detached signature (a .p7s, as sign-file -d writes) is described too.\n"
"\n"
"What to print on stdout (one of these, --json or -q; default: a description):\n"
"      --modinfo[=FIELD]  the signature lines of kmod's modinfo (or FIELD's)\n"
"      --body-stdout     the unsigned body (extract-module-sig.pl -0)\n"
"      --sig-stdout      the raw signature blob (extract-module-sig.pl -s)\n"
"      --descriptor      the descriptor's fields (extract-module-sig.pl -d)\n"
"\n"
"Files to write (atomically; may be combined with the above):\n"
"      --body-out FILE   write the body to FILE\n"
"      --sig-out FILE    write the signature blob to FILE\n"
"\n"
"Which signature:\n"
"      --sig FILE.p7s    detached signature of the single FILE (an input)\n"
"      --detached        use FILE.p7s beside each FILE\n"
"\n"
"Other options:\n"
"  -c, --cert CERT       the signer's certificate, for its key type and size\n"
"\n"
"Options of every tool (many files: one description each, in input order):\n");
	cli_options_help(stdout, CLI_OPTIONS_ALL & ~CLI_OPTIONS_KERNEL_CONFIG);
	exitcode_help(stdout);
}

static int set_view(struct args *a, enum view v)
{
	if (a->view_set && a->view != v) {
		log_error(NULL, "choose one of --json, --modinfo, "
			 "--body-stdout, --sig-stdout, --descriptor, -q");
		return -1;
	}
	a->view = v;
	a->view_set = 1;
	return 0;
}

static int take_kernel(struct args *a)
{
	if (rp_kernel_arg_release("--kernel", optarg, &a->kernel_buf))
		return -1;
	a->kernel = &a->kernel_buf;
	return 0;
}

/* One of its own options, or -q, --json or --kernel, into a: CLI_OPTIONS_GO,
 * or CLI_OPTIONS_USAGE after saying why. */
static int take_option(void *ctx, int opt)
{
	struct args *a = ctx;

	switch (opt) {
	case OPT_BODY_STDOUT: return set_view(a, VIEW_BODY);
	case OPT_SIG_STDOUT: return set_view(a, VIEW_SIG);
	case OPT_DESCRIPTOR: return set_view(a, VIEW_DESC);
	case CLI_OPTIONS_CODE_JSON: return set_view(a, VIEW_JSON);
	case 'q': return set_view(a, VIEW_NONE);
	case OPT_MODINFO:
		a->field = optarg;
		return set_view(a, VIEW_MODINFO);
	case CLI_OPTIONS_CODE_KERNEL: return take_kernel(a);
	case OPT_BODY_OUT: a->body_out = optarg; return 0;
	case OPT_SIG_OUT: a->sig_out = optarg; return 0;
	case OPT_SIG: a->sig = optarg; return 0;
	case OPT_DETACHED: a->detached = 1; return 0;
	case 'c': a->cert = optarg; return 0;
	default:
		return CLI_OPTIONS_USAGE;
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
		log_error(NULL, "no FILE to describe");
	else if (a->walk && a->nfiles)
		log_error(NULL, "give either -r DIR or FILEs, not both");
	else if (a->nul && !a->from)
		log_error(NULL, "-0 goes with --files-from");
	else if (a->sig && a->detached)
		log_error(NULL, "--sig and --detached exclude each other");
	else if (a->sig && many)
		log_error(NULL, "--sig needs exactly one FILE");
	else if (splits && many)
		log_error(NULL, "--body-stdout, --sig-stdout, --descriptor, "
			 "--modinfo, --body-out and --sig-out take exactly one "
			 "FILE");
	else if (splits && (a->sig || a->detached))
		log_error(NULL, "--body-stdout, --sig-stdout, --descriptor, "
			 "--modinfo, --body-out and --sig-out split an "
			 "appended signature: not with --sig or --detached");
	else
		return 0;
	return -1;
}

static void help_cb(void *ctx)
{
	(void)ctx;
	help();
}

/* Its own options, and the shared ones (base/cli_options.h) into a: an
 * answer of cli_options_parse, CLI_OPTIONS_USAGE when they do not hold together. */
static int parse_args(int argc, char **argv, struct args *a)
{
	const struct cli_options_tool t = {
		.name = "extract-sig",
		.takes = CLI_OPTIONS_ALL & ~CLI_OPTIONS_KERNEL_CONFIG,
		.letters = CLI_OPTIONS_ALL,
		.tell = CLI_OPTIONS_QUIET | CLI_OPTIONS_JSON | CLI_OPTIONS_KERNEL,
		.short_opts = short_opts, .long_opts = long_opts,
		.take = take_option, .help = help_cb,
		.mldsa = rp_kernel_arg_mldsa_checkable, .ctx = a,
	};
	struct cli_options c = { 0 };
	int r = cli_options_parse(argc, argv, &t, &c);

	if (r)
		return r;
	a->walk = c.walk;
	a->from = c.from;
	a->nul = c.nul;
	a->jobs = c.jobs;
	a->files = argv + optind;
	a->nfiles = argc - optind;
	if (validate(a))
		return CLI_OPTIONS_USAGE;
	log_set_verbose(c.verbose);
	return CLI_OPTIONS_GO;
}

/* The command line as the describe pipeline (extract-sig/describe_run.h) and
 * its printer (extract-sig/describe_print.h) take it. */
static void describe_opts(const struct args *a, X509 *cert,
			  struct ms_describe_opts *o, struct ms_describe_print *r)
{
	*o = (struct ms_describe_opts){
		.part = a->view == VIEW_BODY ? MS_DESCRIBE_PART_BODY :
			a->view == VIEW_SIG ? MS_DESCRIBE_PART_SIG :
			a->view == VIEW_DESC ? MS_DESCRIBE_PART_DESCRIPTOR :
			a->view == VIEW_MODINFO ? MS_DESCRIBE_PART_MODINFO :
			MS_DESCRIBE_PART_NONE,
		.quiet = a->view == VIEW_NONE,
		.field = a->field, .body_out = a->body_out,
		.sig_out = a->sig_out, .sig = a->sig, .detached = a->detached,
		.cert = cert, .cert_path = a->cert,
	};
	*r = (struct ms_describe_print){
		.view = a->view == VIEW_JSON ? MS_DESCRIBE_PRINT_JSON :
			a->view == VIEW_DESCRIBE ? MS_DESCRIBE_PRINT_TEXT :
			MS_DESCRIBE_PRINT_NONE,
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
		ms_describe_print_summary(stdout, &t, code,
					  a->view == VIEW_JSON);
	else if (!t.files && code && a->view == VIEW_JSON)
		exitcode_json(stdout, code, 0);
	return code;
}

int main(int argc, char **argv)
{
	struct args a = { .view = VIEW_DESCRIBE };
	struct ms_describe_opts o;
	struct ms_describe_sink sink;
	struct ms_describe_print r;
	int err, rc;

	log_init(argv[0]);
	rc = parse_args(argc, argv, &a);
	if (rc == CLI_OPTIONS_STOP)
		return EXITCODE_OK;
	if (rc) {
		log_usage_hint();
		if (a.view == VIEW_JSON)
			exitcode_json(stdout, EXITCODE_USAGE, 0);
		return EXITCODE_USAGE;
	}
	describe_opts(&a, NULL, &o, &r);
	err = ms_describe_begin(&o, a.nfiles ? a.files[0] : NULL);
	if (err) {
		rc = err == -EEXIST ? EXITCODE_USAGE : EXITCODE_KEY;
		if (a.view == VIEW_JSON)
			exitcode_json(stdout, rc, err);
		return rc;
	}
	sink = ms_describe_print_sink(&r);
	if (a.walk || a.from || a.nfiles > 1)
		rc = describe_all(&a, &o, &sink);
	else
		rc = ms_describe_file(&o, &sink, a.files[0], stdout);
	ms_describe_end(&o);
	if (fflush(stdout) != 0) {
		log_error("stdout", "%s", strerror(errno));
		rc = EXITCODE_IO;
	}
	return rc;
}
