// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sign-file: append a kernel module signature.  A drop-in for the kernel's
 * scripts/sign-file: same positional command line, same bytes out.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli_options.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "sign-file/sign_file.h"

/* Its own long-only options; the shared ones are base/cli_options.h's. */
enum {
	OPT_BATCH = CLI_OPTIONS_CODE_OWN, OPT_USAGE, OPT_KMODSIGN, OPT_AGENT,
	OPT_AGENT_START, OPT_AGENT_STOP, OPT_ATTACH, OPT_DIGEST_ONLY,
	OPT_SIGNER, OPT_PIN_FILE, OPT_PIN_FD, OPT_PROVIDER, OPT_P11_MODULE,
	OPT_REPLACE, OPT_SKIP_SIGNED,
};

static const char short_opts[] = "sdpk";
static const struct option long_opts[] = {
	{ "raw-sig", no_argument, NULL, 's' },
	{ "sign-only", no_argument, NULL, 'd' },
	{ "save-sig", no_argument, NULL, 'p' },
	{ "keyid", no_argument, NULL, 'k' },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "digest-only", no_argument, NULL, OPT_DIGEST_ONLY },
	{ "signer", required_argument, NULL, OPT_SIGNER },
	{ "pin-file", required_argument, NULL, OPT_PIN_FILE },
	{ "pin-fd", required_argument, NULL, OPT_PIN_FD },
	{ "provider", required_argument, NULL, OPT_PROVIDER },
	{ "pkcs11-module", required_argument, NULL, OPT_P11_MODULE },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "skip-signed", no_argument, NULL, OPT_SKIP_SIGNED },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "kmodsign", no_argument, NULL, OPT_KMODSIGN },
	{ "usage", required_argument, NULL, OPT_USAGE },
	{ "agent", no_argument, NULL, OPT_AGENT },
	{ "agent-start", no_argument, NULL, OPT_AGENT_START },
	{ "agent-stop", no_argument, NULL, OPT_AGENT_STOP },
	{ NULL, 0, NULL, 0 },
};

/* Its letters besides -h and -V (the shared ones: CLI_OPTIONS_HELP and
 * CLI_OPTIONS_VERSION); -D is kmodsign's own. */
static const char kmodsign_short_opts[] = "dpkD";

static void kmodsign_usage(FILE *f)
{
	fprintf(f, "Usage: %s [-dpkD] <hash algo> <key> <x509> <module> "
		"[<dest>]\n", log_prog());
}

static void kmodsign_help(void)
{
	kmodsign_usage(stdout);
	printf(
"Sign a kernel module image for use with an enforcing kernel, accepting\n"
"Ubuntu kmodsign's command line (modsign's sign-file under that name or\n"
"with --kmodsign).\n"
"\n"
"Options:\n"
"  -p           save a copy of the p7s signature (<module>.p7s)\n"
"  -d           produce a detached signature file (<module>.p7s) only\n"
"  -D           produce a full detached signature block in <dest>\n"
"               (may be cat'd onto the end of <module>)\n"
"  -k           switch to using keyid for identification\n"
"  -h, --help   show this help and exit\n"
"  -V, --version  show the version and exit\n"
"\n"
"sign-file's long options (--replace, --pin-file, --verbose, ...) work\n"
"too; see sign-file --help.  -D needs a <dest> other than <module>.\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s [-dpk] <hash> <key> <x509> <module> [<dest>]\n"
		"   or: %1$s -s <raw-cms> <hash> <x509> <module> [<dest>]\n"
		"   or: %1$s [-dpk] --signer <key> <x509> [--signer ...] "
		"<hash> <module> [<dest>]\n"
		"   or: %1$s --digest-only <hash> <module>\n"
		"   or: %1$s [-k] --attach <sig> <hash> <x509> <module> "
		"[<dest>]\n"
		"   or: %1$s --batch [-j N] [--json] [-dpk] <hash> <key> "
		"<x509> [-r DIR] [--files-from LIST [-0]] [<module>...]\n"
		"   or: %1$s --agent [-j N] [-k] <hash> <key> <x509> -- "
		"COMMAND [ARGS...]\n"
		"   or: %1$s --agent-start [-j N] [-k] <hash> <key> <x509>\n"
		"   or: %1$s --agent-stop\n",
		log_prog());
}

/* --help: one line an option; man/sign-file.h2m says the rest. */
static void help(void)
{
	usage(stdout);
	printf(
"Append a module signature exactly as the kernel's scripts/sign-file does;\n"
"without <dest>, or when it is <module>, <module> is replaced atomically.\n"
"\n"
"Options:\n"
"  -d, --sign-only     write only the detached signature <module>.p7s\n"
"  -p, --save-sig      also keep the detached signature <module>.p7s\n"
"  -k, --keyid         identify the signer by subjectKeyIdentifier (CMS v3)\n"
"  -s, --raw-sig       append the CMS in <raw-cms>, made elsewhere\n"
"      --signer KEY X509  one more signer (repeatable), for key rollover\n"
"      --digest-only   write <module>.digest and .tbs for a remote signer\n"
"      --attach SIG    append SIG: a CMS, or a bare signature value\n"
"      --pin-file FILE  read the passphrase or token PIN from FILE\n"
"      --pin-fd N      read it from file descriptor N\n"
"      --provider NAME  OpenSSL provider for pkcs11: keys (default: pkcs11)\n"
"      --pkcs11-module PATH  PKCS#11 module when the URI names none\n"
"      --replace       strip every existing signature, then sign\n"
"      --skip-signed   leave files that <x509> already signed alone\n"
"      --usage USAGE   module (the default: ELF, checked) or firmware\n"
"      --batch         sign every <module> given with one key load\n"
"      --agent         load the key once and run COMMAND beneath it\n"
"      --agent-start   the same, detached: print the variables to export\n"
"      --agent-stop    end the agent MODSIGN_AGENT names\n"
"      --kmodsign      read Ubuntu kmodsign's command line (kmodsign --help)\n"
"\n"
"Options of every tool (-r, --files-from, -0, -j and --json with --batch):\n");
	cli_options_help(stdout, CLI_OPTIONS_ALL);
	exitcode_help(stdout);
}

/*
 * What the option and word checks answer besides 0 (go on): USAGE_ERR
 * for a command line to be shown the usage (after a line saying why, or
 * getopt's), EXITCODE_USAGE when the check has said what is wrong itself
 * and the usage would not help, CLI_OPTIONS_STOP after --help or --version.
 */
#define USAGE_ERR CLI_OPTIONS_USAGE

static int set_verb(struct ms_cmd *o, enum ms_sign_words_verb want)
{
	/* Two verbs is a usage error, never "last one wins". */
	if (o->verb != MS_SIGN_WORDS_SIGN && o->verb != want) {
		log_error(NULL, "-s, --attach and --digest-only exclude each "
			 "other");
		return EXITCODE_USAGE;
	}
	o->verb = want;
	return 0;
}

/* --signer KEY CERT: the certificate is the next word, consumed here as
 * getopt consumes optarg. */
static int take_signer(struct ms_cmd *o, int argc, char **argv)
{
	if (optind >= argc || o->nextra >= MS_SIGNER_MAX - 1) {
		log_error(NULL, optind >= argc ? "--signer needs a key and a "
			 "certificate" : "too many --signer");
		return EXITCODE_USAGE;
	}
	o->extra_keys[o->nextra] = optarg;
	o->extra_certs[o->nextra++] = argv[optind++];
	return 0;
}

static int take_policy(struct ms_cmd *o, int opt)
{
	/* Two policies for one situation: refuse, never "last one
	 * wins". */
	if (o->req.signed_policy != MS_SIGNER_SIGNED_REFUSE) {
		log_error(NULL, "--replace and --skip-signed exclude each other");
		return EXITCODE_USAGE;
	}
	o->req.signed_policy = opt == OPT_REPLACE ? MS_SIGNER_SIGNED_REPLACE :
				MS_SIGNER_SIGNED_SKIP;
	return 0;
}

/* --kernel VERSION: the line whose rules that version has (rules.c);
 * a usage error after its line, as in every tool */
static int take_kernel(struct ms_cmd *o)
{
	if (rp_kernel_arg_release("--kernel", optarg, &o->rules_buf))
		return USAGE_ERR;
	o->req.kernel = &o->rules_buf;
	return 0;
}

/* What take_option works on: the options, and argv for --signer's
 * second word. */
struct parse {
	struct ms_cmd *o;
	int argc;
	char **argv;
};

/* One of its own options, or --kernel or --json, into o: 0 to go on,
 * else an answer above. */
static int take_option(void *ctx, int opt)
{
	struct parse *p = ctx;
	struct ms_cmd *o = p->o;

	switch (opt) {
	case 's':
		return set_verb(o, MS_SIGN_WORDS_RAW);
	case OPT_ATTACH:
		o->rawsig = optarg;
		return set_verb(o, MS_SIGN_WORDS_ATTACH);
	case 'D':		/* kmodsign's: the signature block only */
		o->req.trailer_only = 1;
		return 0;
	case OPT_DIGEST_ONLY:
		return set_verb(o, MS_SIGN_WORDS_DIGEST);
	case OPT_SIGNER:
		return take_signer(o, p->argc, p->argv);
	case OPT_PIN_FILE:
		o->pin_file = optarg;
		/* fall through */
	case OPT_PIN_FD:
		return ms_cmd_pin_source(opt == OPT_PIN_FILE, optarg);
	case OPT_PROVIDER: o->kopts.provider = optarg; return 0;
	case OPT_P11_MODULE: o->kopts.p11_module = optarg; return 0;
	case 'd': o->req.p7s_only = 1; return 0;
	case 'p': o->req.save_p7s = 1; return 0;
	case 'k': o->keyid = 1; return 0;
	case OPT_BATCH: o->batch.on = 1; return 0;
	case CLI_OPTIONS_CODE_JSON: o->req.describe = 1; return 0;
	case OPT_USAGE:
		/* what the file is: a module (ELF, checked) or data the
		 * kernel checks with a detached or appended signature */
		if (strcmp(optarg, "firmware") && strcmp(optarg, "module")) {
			log_error(NULL, "--usage takes module or firmware, not "
				 "'%s'", optarg);
			return EXITCODE_USAGE;
		}
		o->req.firmware = strcmp(optarg, "firmware") == 0;
		return 0;
	case OPT_AGENT:
	case OPT_AGENT_START:
	case OPT_AGENT_STOP:
		if (o->agent && o->agent != opt) {
			log_error(NULL, "--agent, --agent-start and "
				 "--agent-stop exclude each other");
			return EXITCODE_USAGE;
		}
		o->agent = opt;
		return 0;
	case OPT_REPLACE:
	case OPT_SKIP_SIGNED:
		return take_policy(o, opt);
	case CLI_OPTIONS_CODE_KERNEL:
		return take_kernel(o);
	case OPT_KMODSIGN:
		if (!o->kmod) {
			/* An abbreviation, not seen before getopt. */
			log_error(NULL, "spell out --kmodsign");
			return EXITCODE_USAGE;
		}
		return 0;
	default:
		return USAGE_ERR;
	}
}

static void help_cb(void *ctx)
{
	const struct parse *p = ctx;

	if (p->o->kmod)
		kmodsign_help();
	else
		help();
}

/* Parse argv into o: 0 to go on, or one of the answers above. */
static int parse_options(int argc, char **argv, struct ms_cmd *o)
{
	struct parse p = { o, argc, argv };
	struct cli_options_tool t = {
		.name = "sign-file",
		.takes = CLI_OPTIONS_ALL, .letters = CLI_OPTIONS_ALL,
		.tell = CLI_OPTIONS_KERNEL | CLI_OPTIONS_JSON,
		.short_opts = short_opts, .long_opts = long_opts,
		.take = take_option, .help = help_cb,
		/* ML-DSA: whether it signs with ML-DSA keys */
		.mldsa = ms_key_mldsa_signing, .ctx = &p,
	};
	struct cli_options c = { 0 };
	int ret;

	o->req.signed_policy = MS_SIGNER_SIGNED_REFUSE;
	o->kmod = ms_front_kmodsign(argc, argv);
	if (o->kmod) {
		/* kmodsign's letters; every long option stays */
		t.name = "kmodsign";
		t.short_opts = kmodsign_short_opts;
		t.letters = CLI_OPTIONS_HELP | CLI_OPTIONS_VERSION;
	}
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			o->ncmd = argc - i - 1;
			break;
		}
	ret = cli_options_parse(argc, argv, &t, &c);
	o->quiet = c.quiet;
	o->verbose = c.verbose;
	o->kcpath = c.kconfig;
	o->batch.nul = c.nul;
	o->batch.jobs = c.jobs;
	o->batch.json = c.json;
	o->batch.from = c.from;
	o->batch.walk = c.walk;
	if (ret)
		return ret;
	o->words = argv + optind;
	o->nwords = argc - optind;
	return 0;
}

/* --batch: the command line checked, then the run (sign-file/sign_cmd.h). */
static int run_batch(struct ms_cmd *o)
{
	const struct ms_outcome_view view = ms_sign_result_view(o->batch.json, o->quiet);
	struct ms_outcome_tally tally = { .code = -1 };
	int code = ms_cmd_check_batch(o);

	if (code)
		return code;
	code = ms_run_batch(o, &view, &tally);
	/* the count, once the files were reached (tally.code set) */
	if (tally.code >= 0)
		ms_sign_result_summary(stdout, &tally, o->batch.json, o->quiet);
	return code;
}

/* --agent*: the command line checked, then the run (sign-file/sign_cmd.h). */
static int run_agent(struct ms_cmd *o)
{
	if (o->agent == OPT_AGENT_STOP)
		return o->nwords ? USAGE_ERR : ms_run_agent_stop();
	if (o->verb != MS_SIGN_WORDS_SIGN || o->nextra || o->kmod || o->req.kernel ||
	    o->kcpath || o->nwords - o->ncmd != 3 ||
	    (o->agent == OPT_AGENT) != (o->ncmd > 0))
		return USAGE_ERR;
	return ms_run_agent(o, o->agent == OPT_AGENT_START);
}

/* One file, by the kernel tool's positional command line, then what
 * worked is said (sign-file/sign_cmd.h). */
static int run_one(struct ms_cmd *o)
{
	struct ms_cmd_one_done d;
	int code = ms_cmd_check_one(o);

	if (code)
		return code;
	code = ms_run_one(o, &d);
	if (!code)
		ms_cmd_say_done(o, &d);
	return code;
}

int main(int argc, char **argv)
{
	struct ms_cmd o = { 0 };
	int code;

	log_init(argv[0]);
	code = parse_options(argc, argv, &o);
	if (code == CLI_OPTIONS_STOP)
		return EXITCODE_OK;
	if (!code) {
		if (o.agent)
			code = run_agent(&o);
		else if (o.batch.on || o.batch.from || o.batch.nul ||
		    o.batch.jobs || o.batch.walk || o.batch.json)
			code = run_batch(&o);
		else
			code = run_one(&o);
	}
	if (code == USAGE_ERR) {
		if (o.kmod)
			kmodsign_usage(stderr);
		else
			log_usage_hint();
		code = EXITCODE_USAGE;
	}
	ms_cmd_done();
	return code;
}
