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

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "report/kernel_arg.h"
#include "sign/pin.h"
#include "sign/run_agent.h"
#include "sign/run_batch.h"
#include "sign/run_one.h"
#include "sign/sign_report.h"

/* Batch mode's options: long-only values kept apart from the rest. */
enum { OPT_BATCH = 0x4200, OPT_FILES_FROM, OPT_USAGE, OPT_JSON };
/* kmodsign personality */
enum { OPT_KMODSIGN = 0x4300 };
/* the signing agent */
enum { OPT_AGENT = 0x4400, OPT_AGENT_START, OPT_AGENT_STOP };

static const char short_opts[] = "sdpkvqhVj:0r:";
static const struct option long_opts[] = {
	{ "raw-sig", no_argument, NULL, 's' },
	{ "sign-only", no_argument, NULL, 'd' },
	{ "save-sig", no_argument, NULL, 'p' },
	{ "keyid", no_argument, NULL, 'k' },
	{ "attach", required_argument, NULL, 'A' },
	{ "digest-only", no_argument, NULL, 'D' },
	{ "signer", required_argument, NULL, 'G' },
	{ "pin-file", required_argument, NULL, 'P' },
	{ "pin-fd", required_argument, NULL, 'F' },
	{ "provider", required_argument, NULL, 'O' },
	{ "pkcs11-module", required_argument, NULL, 'M' },
	{ "kernel", required_argument, NULL, 'K' },
	{ "kernel-config", required_argument, NULL, 0x300 },
	{ "replace", no_argument, NULL, 'R' },
	{ "skip-signed", no_argument, NULL, 'S' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "jobs", required_argument, NULL, 'j' },
	{ "null", no_argument, NULL, '0' },
	{ "recursive", required_argument, NULL, 'r' },
	{ "kmodsign", no_argument, NULL, OPT_KMODSIGN },
	{ "usage", required_argument, NULL, OPT_USAGE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "agent", no_argument, NULL, OPT_AGENT },
	{ "agent-start", no_argument, NULL, OPT_AGENT_START },
	{ "agent-stop", no_argument, NULL, OPT_AGENT_STOP },
	{ NULL, 0, NULL, 0 },
};

/*
 * The kmodsign personality.  Ubuntu's kmodsign (sbsigntool's
 * src/kmodsign.c, "kmodsign 4.4", read in the neverware-mirrors/sbsigntool
 * copy at 4f5aef50) is a fork of the kernel's sign-file with getopt string "dpkDhV"
 * and only --help and --version as long options:
 *
 *   kmodsign [-dpkD] <hash algo> <key> <x509> <module> [<dest>]
 *
 * -p, -d and -k are sign-file's.  -D ("produce a full detached signature
 * block (may be cat'd onto the end of a module)") skips copying the module
 * and writes only the CMS, the module_signature descriptor and the magic,
 * to <dest>; Launchpad's signer runs "kmodsign -D sha512 key cert image
 * image.sig".  The certificate is read as DER, then PEM; the key as PEM or
 * a pkcs11: URI (through the pkcs11 engine), with KBUILD_SIGN_PIN.  Usage
 * errors print the usage on stdout and exit 2, every other error exits 1
 * through err(3), --help and --version exit 0.
 *
 * What we mirror: the command line, option letters, the meaning of -D
 * and the positional layout, exit 0 and 2.  Where we differ, on purpose:
 *  - -D without a <dest> (or with <dest> equal to <module>): kmodsign
 *    writes the block to <module>.~signed~ and renames it over the module,
 *    destroying it.  We refuse with exit 2.
 *  - -d -D: kmodsign writes the .p7s and silently ignores -D.  We refuse
 *    with exit 2: two outputs asked for, one given.
 *  - Failures use modsign's exit table (1-9, see sign-file(1)), not 1 for
 *    all; scripts calling kmodsign test only for non-zero.  An already
 *    signed module is refused (8) instead of signed twice; --replace and
 *    every other long option of sign-file are accepted here too.
 *  - Usage goes to stderr on errors, as for sign-file.
 */
static const char kmodsign_short_opts[] = "dpkDhV";

/* Invoked as kmodsign, or --kmodsign before any "--": decided before
 * getopt runs, since it changes what the short option -D means. */
static int kmodsign_personality(int argc, char **argv)
{
	if (strcmp(ms_prog(), "kmodsign") == 0)
		return 1;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--kmodsign") == 0)
			return 1;
	return 0;
}

static void kmodsign_usage(FILE *f)
{
	fprintf(f, "Usage: %s [-dpkD] <hash algo> <key> <x509> <module> "
		"[<dest>]\n", ms_prog());
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
		ms_prog());
}

static void help(void)
{
	usage(stdout);
	printf(
"Append a PKCS#7/CMS signature, the module_signature descriptor and the\n"
"magic \"~Module signature appended~\" to a kernel module (or firmware),\n"
"exactly as the kernel's scripts/sign-file does.  Without <dest>, or when\n"
"<dest> is <module>, the module is replaced atomically, keeping its mode,\n"
"owner and group.  A <dest> that is another kernel module (a glob that\n"
"matched two) is not overwritten (exit 2): sign many with --batch.\n"
"\n"
"Options:\n"
"  -d, --sign-only     write only the detached signature <module>.p7s\n"
"  -p, --save-sig      also keep the detached signature <module>.p7s\n"
"  -k, --keyid         identify the signer by subjectKeyIdentifier\n"
"                      (CMS v3) instead of issuer and serial number\n"
"  -s, --raw-sig       append the CMS in <raw-cms> (made elsewhere) if the\n"
"                      kernel (--kernel) would accept it on <module> with\n"
"                      <x509> as its only trusted key\n"
"      --signer KEY X509  one more signer (repeatable): one CMS with a\n"
"                      SignerInfo per key, for key rollover\n"
"      --digest-only   write <module>.digest (raw digest) and <module>.tbs\n"
"                      (DER DigestInfo) for a remote signer; no key needed\n"
"      --attach SIG    append SIG: a CMS, or a bare signature value (RSA\n"
"                      PKCS#1 v1.5 or ECDSA over the digest) wrapped here\n"
"                      as sign-file would; checked first as for -s\n"
"      --pin-file FILE\n"
"                      read the passphrase or token PIN from FILE\n"
"      --pin-fd N      read it from file descriptor N\n"
"      --provider NAME\n"
"                      OpenSSL provider for pkcs11: keys (default pkcs11,\n"
"                      then libp11's pkcs11 engine if no provider answers;\n"
"                      another NAME that does not load is an error)\n"
"      --pkcs11-module PATH  PKCS#11 module when the URI has no\n"
"                      module-path (default: p11-kit's proxy)\n"
"      --kernel VERSION  warn when that kernel would reject the key type,\n"
"                      key size or digest (5.10 on; the lines: 5.10,\n"
"                      6.1, 6.12, 7.3)\n"
"      --kernel-config FILE  the same for the kernel built from this\n"
"                      .config (its version stands for --kernel); also\n"
"                      warn when <hash> is not CONFIG_MODULE_SIG_HASH or\n"
"                      the key is not MODULE_SIG_KEY_TYPE_*; <hash> \"-\"\n"
"                      takes CONFIG_MODULE_SIG_HASH (and needs this option)\n"
"      --replace       strip every existing signature, then sign (also one\n"
"                      appended after compression)\n"
"      --skip-signed   leave files that <x509> already signed alone and\n"
"                      succeed; another signer's signature fails (exit 8,\n"
"                      naming it): re-sign those with --replace\n"
"      --usage USAGE   module (the default: a file that is not ELF is\n"
"                      refused) or firmware (data: sign it whatever it\n"
"                      holds)\n"
"      --batch         sign every <module> given (and those of -r and\n"
"                      of --files-from) with one key load: one PIN, one\n"
"                      token login; one line per file in input order\n"
"  -r, --recursive DIR  with --batch: sign every module (*.ko, *.ko.gz,\n"
"                      *.ko.xz, *.ko.zst) under DIR\n"
"      --files-from LIST  read more module names from LIST (- is\n"
"                      standard input), one a line\n"
"  -0, --null          names in LIST end with NUL, not newline\n"
"  -j, --jobs N        batch workers (default: the online CPUs)\n"
"      --json          batch: one JSON object a file (the signers as\n"
"                      extract-sig --json gives them; \"verdict\":\"ERROR\"\n"
"                      with errno, reason and exit for a failure), then\n"
"                      a summary object; replaces the lines, even with -q\n"
"      --agent         load the key once and run COMMAND with MODSIGN_AGENT\n"
"                      set: each plain sign-file run beneath it with the\n"
"                      same <hash> <key> <x509> is signed by this process\n"
"                      (one PIN, one token login); exit with COMMAND's status\n"
"      --agent-start   the same, detached: print the variables to export\n"
"      --agent-stop    end the agent MODSIGN_AGENT names\n"
"      --kmodsign      read Ubuntu kmodsign's command line, as when run\n"
"                      under the name kmodsign: -D writes the signature\n"
"                      block to <dest> (see kmodsign --help)\n"
"  -v, --verbose       say what was done; show OpenSSL's error details\n"
"  -q, --quiet         print no per-file verdicts (\"signed\", \"already\n"
"                      signed\"); failures still go to standard error\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version, the OpenSSL and whether it\n"
"                      signs with ML-DSA, and exit\n"
"\n"
"<hash> is a digest name such as sha256, sha384, sha512 or sha3-256.\n"
"<key> is a private key file, PEM or DER (PKCS#1, PKCS#8, encrypted or\n"
"not, or PKCS#12), or a pkcs11: URI (RFC 7512).  <x509> is the signer's\n"
"certificate: DER, PEM, a PKCS#12 file, or a pkcs11: URI; give the same\n"
".p12 as key and <x509> to take both from it.  Passphrases and PINs come\n"
"from --pin-file, --pin-fd or KBUILD_SIGN_PIN, are read once per run and\n"
"offered once (never retried); never put them on the command line.  An\n"
"already-signed <module> is refused unless --replace or --skip-signed.\n"
"An empty module is refused, and so is a .ko (decompressed) that is not\n"
"ELF unless --usage firmware (exit 6: the kernel refuses both, -ENOEXEC);\n"
"the kernel's tool signs them.\n"
"\n"
"Compressed modules (gzip, xz or zstd, recognised by content, not by name)\n"
"are signed where the kernel checks them: decompressed, signed, compressed\n"
"again in the same format with kbuild's settings (xz: --check=crc32\n"
"--lzma2=dict=1MiB) and written atomically under the same name, or to\n"
"<dest>.  The <module>.p7s of -p and -d is the signature of the\n"
"decompressed module.  A file signed after compression, which the kernel\n"
"sees as unsigned, is refused with exit 6 even with --skip-signed;\n"
"--replace removes that trailer and signs the module inside.\n"
"\n"
"Batch mode signs each module in place, in parallel, under the same rules\n"
"as one file (already-signed policy, lock, atomic replace); a bad file\n"
"fails alone.  Each file gets a line on stdout (\"signed\", \"already\n"
"signed, left unchanged\" or \"FAILED (exit N)\" with the reason on\n"
"stderr), in input order, then a summary; -q keeps only the failures.\n"
"An -r DIR or --files-from LIST that yields no file is an error (exit 2).\n"
"The exit status is the most severe of all files'.  With --signer, give\n"
"no <key> <x509>: \"--batch --signer K C ... <hash> <module>...\".\n");
	ms_exit_help(stdout);
}

/*
 * What the option and word checks answer besides 0 (go on): USAGE_ERR
 * for a command line to be shown the usage, MS_EXIT_USAGE when the
 * check has said what is wrong itself, STOP_OK after --help or
 * --version.
 */
#define USAGE_ERR (-1)
#define STOP_OK (-2)

static int set_verb(struct ms_sign_cmd *o, enum ms_verb want)
{
	/* Two verbs is a usage error, never "last one wins". */
	if (o->verb != MS_VERB_SIGN && o->verb != want) {
		ms_error(NULL, "-s, --attach and --digest-only exclude each "
			 "other");
		return MS_EXIT_USAGE;
	}
	o->verb = want;
	return 0;
}

/* --signer KEY CERT: the certificate is the next word, consumed here as
 * getopt consumes optarg. */
static int take_signer(struct ms_sign_cmd *o, int argc, char **argv)
{
	if (optind >= argc || o->nextra >= MS_MAX_SIGNERS - 1) {
		ms_error(NULL, optind >= argc ? "--signer needs a key and a "
			 "certificate" : "too many --signer");
		return MS_EXIT_USAGE;
	}
	o->extra_keys[o->nextra] = optarg;
	o->extra_certs[o->nextra++] = argv[optind++];
	return 0;
}

static int take_pin_source(int opt)
{
	int err = ms_pin_set_source(opt == 'P' ? MS_PIN_FILE : MS_PIN_FD,
				    optarg);

	if (err)
		ms_error(NULL, err == -EEXIST ? "--pin-file and --pin-fd "
			 "exclude each other" : "--pin-fd needs a descriptor "
			 "number");
	return err ? MS_EXIT_USAGE : 0;
}

static int take_policy(struct ms_sign_cmd *o, int opt)
{
	/* Two policies for one situation: refuse, never "last one
	 * wins". */
	if (o->req.signed_policy != MS_SIGNED_REFUSE) {
		ms_error(NULL, "--replace and --skip-signed exclude each other");
		return MS_EXIT_USAGE;
	}
	o->req.signed_policy = opt == 'R' ? MS_SIGNED_REPLACE : MS_SIGNED_SKIP;
	return 0;
}

/*
 * One option into o: 0 to go on, STOP_OK, or -1 for a usage error.  li
 * is the long option's index, -1 for a short one: kmodsign's -D and
 * --digest-only share a value.
 */
/* --kernel VERSION: the line whose rules that version has (rules.c) */
static int take_kernel(struct ms_sign_cmd *o)
{
	if (rp_kernel_release("--kernel", optarg, &o->kr_buf))
		return MS_EXIT_USAGE;
	o->req.kernel = &o->kr_buf;
	return 0;
}

static int take_option(struct ms_sign_cmd *o, int opt, int li, int argc,
		       char **argv)
{
	switch (opt) {
	case 's':
		return set_verb(o, MS_VERB_RAW);
	case 'A':
		o->rawsig = optarg;
		return set_verb(o, MS_VERB_ATTACH);
	case 'D':
		if (o->kmod && li < 0) {
			o->req.trailer_only = 1;
			return 0;
		}
		return set_verb(o, MS_VERB_DIGEST);
	case 'G':
		return take_signer(o, argc, argv);
	case 'P':
		o->pin_file = optarg;
		/* fall through */
	case 'F':
		return take_pin_source(opt);
	case 'O': o->kopts.provider = optarg; return 0;
	case 'M': o->kopts.p11_module = optarg; return 0;
	case 0x300: o->kcpath = optarg; return 0;
	case 'd': o->req.p7s_only = 1; return 0;
	case 'p': o->req.save_p7s = 1; return 0;
	case 'k': o->keyid = 1; return 0;
	case 'v': o->verbose++; return 0;
	case 'q': o->quiet = 1; return 0;
	case OPT_BATCH: o->batch.on = 1; return 0;
	case OPT_FILES_FROM: o->batch.from = optarg; return 0;
	case 'r':
		if (o->batch.walk) {
			ms_error(NULL, "-r given twice (walk one tree per "
				 "run)");
			return MS_EXIT_USAGE;
		}
		o->batch.walk = optarg;
		return 0;
	case OPT_JSON: o->batch.json = 1; o->req.describe = 1; return 0;
	case OPT_USAGE:
		/* what the file is: a module (ELF, checked) or data the
		 * kernel checks with a detached or appended signature */
		if (strcmp(optarg, "firmware") && strcmp(optarg, "module")) {
			ms_error(NULL, "--usage takes module or firmware, not "
				 "'%s'", optarg);
			return MS_EXIT_USAGE;
		}
		o->req.firmware = strcmp(optarg, "firmware") == 0;
		return 0;
	case '0': o->batch.nul = 1; return 0;
	case OPT_AGENT:
	case OPT_AGENT_START:
	case OPT_AGENT_STOP:
		if (o->agent && o->agent != opt) {
			ms_error(NULL, "--agent, --agent-start and "
				 "--agent-stop exclude each other");
			return MS_EXIT_USAGE;
		}
		o->agent = opt;
		return 0;
	case 'R':
	case 'S':
		return take_policy(o, opt);
	case 'K':
		return take_kernel(o);
	case 'j':
		if (ms_jobs_parse(optarg, &o->batch.jobs)) {
			ms_error(NULL, "-j needs a number of workers from 1 to "
				 "%d", MS_JOBS_MAX);
			return MS_EXIT_USAGE;
		}
		return 0;
	case OPT_KMODSIGN:
		if (!o->kmod) {
			/* An abbreviation, not seen before getopt. */
			ms_error(NULL, "spell out --kmodsign");
			return MS_EXIT_USAGE;
		}
		return 0;
	case 'h':
		if (o->kmod)
			kmodsign_help();
		else
			help();
		return STOP_OK;
	case 'V':
		/* ML-DSA: whether it signs with ML-DSA keys */
		ms_print_version(o->kmod ? "kmodsign" : "sign-file",
				 ms_mldsa_signing());
		return STOP_OK;
	case '?':
	default:
		return USAGE_ERR;
	}
}

/* Parse argv into o: 0 to go on, or one of the answers above. */
static int parse_options(int argc, char **argv, struct ms_sign_cmd *o)
{
	int opt, li, ret;

	o->req.signed_policy = MS_SIGNED_REFUSE;
	o->kmod = kmodsign_personality(argc, argv);
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			o->ncmd = argc - i - 1;
			break;
		}
	while ((li = -1, opt = getopt_long(argc, argv, o->kmod ?
					   kmodsign_short_opts : short_opts,
					   long_opts, &li)) != -1)
		if ((ret = take_option(o, opt, li, argc, argv)))
			return ret;
	o->words = argv + optind;
	o->nwords = argc - optind;
	return 0;
}

/* How many positional words the verb takes before the optional <dest>;
 * with --signer the key and certificate may come from --signer alone. */
static int words_wanted(const struct ms_sign_cmd *o)
{
	switch (o->verb) {
	case MS_VERB_SIGN:
		return o->nextra && o->nwords <= 3 ? 2 : 4;
	case MS_VERB_RAW:
		return 4;
	case MS_VERB_ATTACH:
		return 3;
	case MS_VERB_DIGEST:
	default:
		return 2;
	}
}

/* Too few or too many positional words (need of them, and up to more
 * optional): say which, then USAGE_ERR. */
static int words_error(const struct ms_sign_cmd *o, int need, int more)
{
	if (o->kmod)		/* kmodsign says only its usage */
		return USAGE_ERR;
	if (!o->nwords)
		ms_error(NULL, "no arguments (%d needed)", need);
	else if (o->nwords < need)
		ms_error(NULL, "missing arguments: %d given, %d needed",
			 o->nwords, need);
	else
		ms_error(NULL, "too many arguments (at most %d): '%s'",
			 need + more, o->words[need + more]);
	return USAGE_ERR;
}

/* The single-file command line holds together: 0, else an answer. */
static int validate_one(const struct ms_sign_cmd *o)
{
	int npos = words_wanted(o);

	if (o->nextra && o->verb != MS_VERB_SIGN)
		ms_error(NULL, "--signer only goes with signing here");
	else if (o->req.trailer_only && o->verb == MS_VERB_DIGEST)
		ms_error(NULL, "-D and --digest-only exclude each other");
	else if ((o->req.save_p7s || o->req.p7s_only) &&
		 (o->verb == MS_VERB_ATTACH || o->verb == MS_VERB_DIGEST))
		ms_error(NULL, "-d and -p only go with signing here");
	else if (o->nwords < npos ||
		 o->nwords > npos + (o->verb == MS_VERB_DIGEST ? 0 : 1))
		return words_error(o, npos, o->verb == MS_VERB_DIGEST ? 0 : 1);
	else
		return 0;
	return MS_EXIT_USAGE;
}

/* The batch command line holds together: 0, else an answer. */
static int validate_batch(const struct ms_sign_cmd *o)
{
	int npos = o->nextra ? 1 : 3;

	if (!o->batch.on)
		ms_error(NULL, "-r, --files-from, -0, -j and --json go with "
			 "--batch");
	else if (o->verb != MS_VERB_SIGN)
		ms_error(NULL, "--batch only signs (not -s, --attach or "
			 "--digest-only)");
	else if (o->batch.nul && !o->batch.from)
		ms_error(NULL, "-0 goes with --files-from");
	else if (o->nwords < npos ||
		 (o->nwords == npos && !o->batch.from && !o->batch.walk))
		return words_error(o, npos + 1, 0);
	else
		return 0;
	return MS_EXIT_USAGE;
}

/* --batch: the command line checked, then the run (sign/run_batch.h). */
static int run_batch(struct ms_sign_cmd *o)
{
	int code = validate_batch(o);

	return code ? code : ms_run_batch(o, ms_sign_report);
}

/* --agent*: the command line checked, then the run (sign/run_agent.h). */
static int run_agent(struct ms_sign_cmd *o)
{
	if (o->agent == OPT_AGENT_STOP)
		return o->nwords ? USAGE_ERR : ms_run_agent_stop();
	if (o->verb != MS_VERB_SIGN || o->nextra || o->kmod || o->req.kernel ||
	    o->kcpath || o->nwords - o->ncmd != 3 ||
	    (o->agent == OPT_AGENT) != (o->ncmd > 0))
		return USAGE_ERR;
	return ms_run_agent(o, o->agent == OPT_AGENT_START, ms_sign_report);
}

/*
 * One file, by the kernel tool's positional command line
 * (sign/run_one.h); then what worked is said: --digest-only's line
 * "<hash> <hex digest>  <module>" (sha256sum's, with the algorithm in
 * front) on stdout, "already signed" unless -q, what was done with -v.
 */
static int run_one(struct ms_sign_cmd *o)
{
	const struct ms_sign_req *req = &o->req;
	struct ms_one_done d;
	int code = validate_one(o);

	if (code)
		return code;
	code = ms_run_one(o, words_wanted(o), ms_sign_report, &d);
	if (code || d.by_agent)
		return code;
	if (d.digest_hex)
		printf("%s %s  %s\n", d.hash, d.digest_hex, req->module);
	free(d.hash);
	free(d.digest_hex);
	if (d.skipped && !o->quiet)
		fprintf(stderr, "%s: %s: already signed, left unchanged\n",
			ms_prog(), req->module);
	else if (!d.skipped)
		ms_info("%s %s%s%s", o->verb == MS_VERB_DIGEST ? "digested"
							    : "signed",
			req->module, req->p7s_only ? " (detached .p7s only)" : "",
			req->dest ? " into the destination" : "");
	return MS_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct ms_sign_cmd o = { 0 };
	int code;

	ms_log_init(argv[0]);
	code = parse_options(argc, argv, &o);
	if (code == STOP_OK)
		return MS_EXIT_OK;
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
			ms_usage_hint();
		code = MS_EXIT_USAGE;
	}
	/* Providers and their PKCS#11 modules go before exit(). */
	ms_openssl_done();
	return code;
}
