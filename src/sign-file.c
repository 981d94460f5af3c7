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

#include "base/exitcode.h"
#include "base/fileio.h"
#include "base/format.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "base/workpool.h"
#include "kernel/algcheck.h"
#include "kernel/kernel_config.h"
#include "sign/batch_sign.h"
#include "sign/pin.h"
#include "sign/pkcs11/load.h"
#include "sign/signer.h"

/* Batch mode's options: long-only values kept apart from the rest. */
enum { OPT_BATCH = 0x4200, OPT_FILES_FROM };
/* kmodsign personality */
enum { OPT_KMODSIGN = 0x4300 };

static const char short_opts[] = "sdpkvqhVj:0";
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
	{ "kmodsign", no_argument, NULL, OPT_KMODSIGN },
	{ NULL, 0, NULL, 0 },
};

/*
 * The kmodsign personality.  Ubuntu's kmodsign (sbsigntool's
 * src/kmodsign.c, "kmodsign 4.4", read in the neverware-mirrors/sbsigntool
 * copy at 4f5aef50; the landscape notes of an older DER-only cert reader
 * come from osresearch/safeboot#17) is a fork of the kernel's sign-file with getopt string "dpkDhV"
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

/* -D's rules, checked once the positional words are known. */
static int kmodsign_check(const struct ms_sign_req *req)
{
	if (!req->trailer_only)
		return 0;
	if (req->p7s_only) {
		ms_error(NULL, "-d and -D exclude each other");
		return -1;
	}
	if (!req->dest) {
		ms_error(NULL, "-D writes the signature block to <dest>: give "
			 "a <dest> other than <module>");
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s [-dpk] <hash> <key> <x509> <module> [<dest>]\n"
		"       %1$s -s <raw-cms> <hash> <x509> <module> [<dest>]\n"
		"       %1$s [-dpk] --signer <key> <x509> [--signer ...] "
		"<hash> <module> [<dest>]\n"
		"       %1$s --digest-only <hash> <module>\n"
		"       %1$s [-k] --attach <sig> <hash> <x509> <module> "
		"[<dest>]\n"
		"       %1$s --batch [-j N] [-dpk] <hash> <key> <x509> "
		"[--files-from LIST [-0]] [<module>...]\n",
		ms_prog());
}

static void help(void)
{
	usage(stdout);
	printf(
"Append a PKCS#7/CMS signature, the module_signature descriptor and the\n"
"magic \"~Module signature appended~\" to a kernel module (or firmware),\n"
"exactly as the kernel's scripts/sign-file does.  Without <dest>, or when\n"
"<dest> is <module>, the module is replaced atomically.\n"
"\n"
"Options:\n"
"  -d, --sign-only     write only the detached signature <module>.p7s\n"
"  -p, --save-sig      also keep the detached signature <module>.p7s\n"
"  -k, --keyid         identify the signer by subjectKeyIdentifier\n"
"                      (CMS v3) instead of issuer and serial number\n"
"  -s, --raw-sig       append the CMS in <raw-cms> (made elsewhere) after\n"
"                      checking it is a detached signature of <module> by\n"
"                      the certificate <x509>\n"
"      --signer KEY X509  one more signer (repeatable): one CMS with a\n"
"                      SignerInfo per key, for key rollover\n"
"      --digest-only   write <module>.digest (raw digest) and <module>.tbs\n"
"                      (DER DigestInfo) for a remote signer; no key needed\n"
"      --attach SIG    append SIG: a CMS, or a bare signature value (RSA\n"
"                      PKCS#1 v1.5 or ECDSA over the digest) wrapped here\n"
"                      as sign-file would; checked against <x509> and the\n"
"                      module first\n"
"      --pin-file FILE read the passphrase or token PIN from FILE\n"
"      --pin-fd N      read it from file descriptor N\n"
"      --provider NAME OpenSSL provider for pkcs11: keys (default pkcs11,\n"
"                      then libp11's pkcs11 engine if no provider answers)\n"
"      --pkcs11-module PATH  PKCS#11 module when the URI has no\n"
"                      module-path (default: p11-kit's proxy)\n"
"      --kernel LINE   warn when kernel LINE (6.1, 6.12) would reject the\n"
"                      key type or digest\n"
"      --kernel-config FILE  the same for the kernel built from this\n"
"                      .config (its version picks LINE); also warn when\n"
"                      <hash> is not CONFIG_MODULE_SIG_HASH or the key is\n"
"                      not MODULE_SIG_KEY_TYPE_*; <hash> \"-\" takes\n"
"                      CONFIG_MODULE_SIG_HASH\n"
"      --replace       strip every existing signature, then sign (also one\n"
"                      appended after compression)\n"
"      --skip-signed   leave already-signed files alone and succeed\n"
"      --batch         sign every <module> given (and those of\n"
"                      --files-from) with one key load: one PIN, one\n"
"                      token login; one line per file in input order\n"
"      --files-from LIST  read more module names from LIST (- is\n"
"                      standard input), one a line\n"
"  -0, --null          names in LIST end with NUL, not newline\n"
"  -j, --jobs N        batch workers (default: the online CPUs)\n"
"      --kmodsign      read Ubuntu kmodsign's command line, as when run\n"
"                      under the name kmodsign: -D writes the signature\n"
"                      block to <dest> (see kmodsign --help)\n"
"  -v, --verbose       say what was done; show OpenSSL's error details\n"
"  -q, --quiet         no message for files skipped by --skip-signed\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"<hash> is a digest name such as sha256, sha384, sha512 or sha3-256.\n"
"<key> is a private key file, PEM or DER (PKCS#1, PKCS#8, encrypted or\n"
"not, or PKCS#12), or a pkcs11: URI (RFC 7512).  <x509> is the signer's\n"
"certificate: DER, PEM, a PKCS#12 file, or a pkcs11: URI; give the same\n"
".p12 as key and <x509> to take both from it.  Passphrases and PINs come\n"
"from --pin-file, --pin-fd or KBUILD_SIGN_PIN, are read once per run and\n"
"offered once (never retried); never put them on the command line.  An\n"
"already-signed <module> is refused unless --replace or --skip-signed.\n"
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
"The exit status is the most severe of all files'.  With --signer, give\n"
"no <key> <x509>: \"--batch --signer K C ... <hash> <module>...\".\n");
}

/* Exit code and one line for a failed step. */
static int report(const struct ms_fail *f, int err)
{
	switch (f->stage) {
	case MS_STAGE_HASH:
		ms_error(NULL, "unknown hash algorithm '%s' (use sha256, "
			 "sha384, sha512, sha3-256, ...)", f->path);
		return MS_EXIT_USAGE;
	case MS_STAGE_KEY:
	case MS_STAGE_CERT:
	case MS_STAGE_MATCH:
		if (f->key == MS_KEY_PIN_UNREADABLE) {
			ms_error(ms_pin_source_name(), "%s",
				 err == -EMSGSIZE ? "longer than 1023 bytes"
						  : ms_io_strerror(err));
			return MS_EXIT_KEY;
		}
		if (f->reason)
			ms_error(f->path, "%s", f->reason);
		else if (f->key == MS_KEY_UNREADABLE)
			ms_error(f->path, "%s", ms_io_strerror(err));
		else
			ms_error(f->path, "%s", ms_key_problem_str(f->key));
		return MS_EXIT_KEY;
	case MS_STAGE_RAWSIG:
		if (!f->reason) {
			ms_error(f->path, "%s", ms_io_strerror(err));
			return MS_EXIT_IO;
		}
		ms_error(f->path, "%s", f->reason);
		if (err == -ENOKEY)
			return MS_EXIT_KEY;
		return err == -EKEYREJECTED ? MS_EXIT_REJECTED
					    : MS_EXIT_MALFORMED;
	case MS_STAGE_SIGNED:
		ms_error(f->path, "already signed (use --replace or "
			 "--skip-signed)");
		return MS_EXIT_SIGNED;
	case MS_STAGE_TRAILER:
		ms_error(f->path, "%s", f->reason);
		return MS_EXIT_MALFORMED;
	case MS_STAGE_DECOMPRESS:
		/* A corrupt stream is malformed input (6); too large or out
		 * of memory is a system limit (7). */
		ms_error(f->path, "cannot decompress: %s", f->reason);
		return ms_exit_for_errno(err);
	case MS_STAGE_SIGNED_AFTER:
		/* Not 8: the kernel does not see this module as signed, and
		 * a script treating 8 as "nothing to do" would ship it. */
		ms_error(f->path, "%s (use --replace to sign the decompressed "
			 "module)", f->reason);
		return MS_EXIT_MALFORMED;
	case MS_STAGE_SIGN:
		ms_error(f->path, "%s", f->reason);
		return err == -ENOPKG ? MS_EXIT_NOPKG : MS_EXIT_KEY;
	case MS_STAGE_INPUT:
	case MS_STAGE_OUTPUT:
	case MS_STAGE_NONE:
		break;
	}
	ms_error(f->path, "%s", ms_io_strerror(err));
	return MS_EXIT_IO;
}

/* Warnings before anything is signed: the key types and digest the
 * kernel (or the line named by --kernel) would reject. */
static void warn_algorithms(const struct ms_signer *s, const char *hash,
			    const char *kernel,
			    const char *const *names)
{
	const char *w[MS_ALG_MAX_WARN];
	int n;

	n = ms_alg_check_digest(s->md, kernel, w);
	for (int i = 0; i < n; i++)
		ms_warn(hash, "%s", w[i]);
	for (int k = 0; k < s->n || (k == 0 && s->certs[0]); k++) {
		EVP_PKEY *key = k < s->n ? s->keys[k]
					 : X509_get0_pubkey(s->certs[0]);
		char desc[64];

		if (!key)
			continue;
		ms_pkey_describe(key, desc, sizeof(desc));
		n = ms_alg_check_key(key, kernel, w);
		for (int i = 0; i < n; i++)
			ms_warn(names[k], "%s key: %s", desc, w[i]);
		if (k < s->n)
			ms_info("signer %d: %s key from %s (%s)", k + 1, desc,
				names[k], ms_token_via(s->toks[k]));
	}
}

/*
 * --kernel-config: its line stands in for --kernel (a different explicit
 * --kernel is a usage error), and "-" as <hash> means its
 * CONFIG_MODULE_SIG_HASH.  The positional <hash> otherwise stays the
 * user's: a drop-in never second-guesses its arguments, it warns.
 */
static int load_kconfig(const char *path, struct kconfig *kc,
			const char **kernel, const char **hash)
{
	int err, line;

	err = kc_load(path, NULL, kc, &line);
	if (err == -EINVAL || err == -ENODATA) {
		ms_error(path, "not a kernel .config (line %d)", line);
		return MS_EXIT_USAGE;
	}
	if (err) {
		ms_error(path, "cannot read the kernel config: %s",
			 ms_io_strerror(err));
		return MS_EXIT_IO;
	}
	if (*kernel && strcmp(*kernel, kc->rules.name) != 0) {
		ms_error(path, "kernel %s is the %s line, not --kernel %s",
			 kc->version, kc->rules.name, *kernel);
		kc_free(kc);
		return MS_EXIT_USAGE;
	}
	*kernel = kc->rules.name;
	if (strcmp(*hash, "-") == 0) {
		if (!kc->sig_hash[0]) {
			ms_error(path, "no CONFIG_MODULE_SIG_HASH to take for "
				 "\"-\" (give the hash)");
			kc_free(kc);
			return MS_EXIT_USAGE;
		}
		*hash = kc->sig_hash;
	}
	return 0;
}

static void warn_kconfig(const struct kconfig *kc, const char *path,
			 const struct ms_signer *s, const char *hash)
{
	char w[KC_MAX_WARN][200];
	int n, i, k;

	n = kc_digest_warnings(kc, hash, w);
	for (i = 0; i < n; i++)
		ms_warn(path, "%s: %s", hash, w[i]);
	for (k = 0; k < s->n || (k == 0 && s->certs[0]); k++) {
		EVP_PKEY *key = k < s->n ? s->keys[k]
					 : X509_get0_pubkey(s->certs[0]);

		n = key ? kc_key_warnings(kc, key, w) : 0;
		for (i = 0; i < n; i++)
			ms_warn(path, "signing key: %s", w[i]);
	}
}

enum verb { SIGN, RAW, ATTACH, DIGEST };

static int set_verb(enum verb *v, enum verb want)
{
	/* Two verbs is a usage error, never "last one wins". */
	if (*v != SIGN && *v != want) {
		ms_error(NULL, "-s, --attach and --digest-only exclude each "
			 "other");
		return -1;
	}
	*v = want;
	return 0;
}

struct batch_opts {
	int on, nul, jobs;
	const char *from;
};

/*
 * --batch: "<hash> <key> <x509> <module>..." (or "<hash> <module>..."
 * with --signer), plus --files-from.  One key load for all files.
 */
static int run_batch(const struct batch_opts *b, enum verb verb, int argc,
		     char **argv, struct ms_sign_req *req, int keyid,
		     int quiet, int verbose, const char *kernel,
		     const struct ms_key_opts *kopts, int nextra,
		     const char *const *extra_keys,
		     const char *const *extra_certs)
{
	const char *names[MS_MAX_SIGNERS] = { 0 };
	struct ms_list list = { 0 };
	struct ms_signer signer;
	struct ms_fail fail;
	int npos = nextra ? 1 : 3, err, code;

	if (!b->on) {
		ms_error(NULL, "--files-from, -0 and -j go with --batch");
		return MS_EXIT_USAGE;
	}
	if (verb != SIGN) {
		ms_error(NULL, "--batch only signs (not -s, --attach or "
			 "--digest-only)");
		return MS_EXIT_USAGE;
	}
	if (b->nul && !b->from) {
		ms_error(NULL, "-0 goes with --files-from");
		return MS_EXIT_USAGE;
	}
	if (argc < npos || (argc == npos && !b->from)) {
		usage(stderr);
		return MS_EXIT_USAGE;
	}
	for (int i = npos; i < argc; i++)
		if (ms_list_add(&list, argv[i]))
			goto nomem;
	if (b->from) {
		err = ms_list_read(&list, b->from, b->nul);
		if (err == -ENOMEM)
			goto nomem;
		if (err) {
			ms_error(b->from, "cannot read the file list: %s "
				 "(check --files-from)", strerror(-err));
			ms_list_free(&list);
			return MS_EXIT_IO;
		}
	}
	ms_set_verbose(verbose);
	ms_openssl_init(verbose);
	ms_cleanup_on_signals();

	/* One key load, one PIN read, one token login for the whole run. */
	err = ms_signer_init(&signer, argv[0], keyid, &fail);
	if (!err && !nextra) {
		names[signer.n] = argv[1];
		err = ms_signer_add(&signer, argv[1], argv[2], kopts, &fail);
	}
	for (int i = 0; !err && i < nextra; i++) {
		names[signer.n] = extra_keys[i];
		err = ms_signer_add(&signer, extra_keys[i], extra_certs[i],
				    kopts, &fail);
	}
	if (err) {
		code = report(&fail, err);
		goto out;
	}
	warn_algorithms(&signer, argv[0], kernel, names);
	code = ms_batch_sign(&signer, req, &list, b->jobs ? b->jobs :
			     ms_pool_default_workers(), quiet, report);
out:
	ms_signer_free(&signer);
	ms_pin_clear();
	ms_list_free(&list);
	return code;
nomem:
	ms_error(NULL, "out of memory");
	ms_list_free(&list);
	return MS_EXIT_IO;
}

int main(int argc, char **argv)
{
	struct ms_sign_req req = { .signed_policy = MS_SIGNED_REFUSE };
	int keyid = 0, quiet = 0, verbose = 0, skipped, opt, err, npos;
	const char *hash, *rawsig = NULL, *kernel = NULL, *cert;
	const char *extra_keys[MS_MAX_SIGNERS], *extra_certs[MS_MAX_SIGNERS];
	const char *names[MS_MAX_SIGNERS] = { 0 };
	struct ms_key_opts kopts = { NULL, NULL };
	struct batch_opts batch = { 0 };
	struct ms_signer signer;
	struct ms_fail fail;
	enum verb verb = SIGN;
	int nextra = 0;
	const char *kcpath = NULL;
	struct kconfig kc = { 0 };
	int kmod, li;

	ms_log_init(argv[0]);
	memset(&signer, 0, sizeof(signer));
	kmod = kmodsign_personality(argc, argv);
	/* li stays -1 for a short option: kmodsign's -D and --digest-only
	 * share a value. */
	while ((li = -1, opt = getopt_long(argc, argv, kmod ?
					   kmodsign_short_opts : short_opts,
					   long_opts, &li)) != -1) {
		switch (opt) {
		case 's':
			if (set_verb(&verb, RAW))
				return MS_EXIT_USAGE;
			break;
		case 'A':
			if (set_verb(&verb, ATTACH))
				return MS_EXIT_USAGE;
			rawsig = optarg;
			break;
		case 'D':
			if (kmod && li < 0) {
				req.trailer_only = 1;
				break;
			}
			if (set_verb(&verb, DIGEST))
				return MS_EXIT_USAGE;
			break;
		case 'G':
			/* --signer KEY CERT: the certificate is the next
			 * word, consumed here as getopt consumes optarg. */
			if (optind >= argc || nextra >= MS_MAX_SIGNERS - 1) {
				ms_error(NULL, optind >= argc ?
					 "--signer needs a key and a "
					 "certificate" : "too many --signer");
				return MS_EXIT_USAGE;
			}
			extra_keys[nextra] = optarg;
			extra_certs[nextra++] = argv[optind++];
			break;
		case 'P':
		case 'F':
			err = ms_pin_set_source(opt == 'P' ? MS_PIN_FILE
							   : MS_PIN_FD, optarg);
			if (err) {
				ms_error(NULL, err == -EEXIST ?
					 "--pin-file and --pin-fd exclude "
					 "each other" :
					 "--pin-fd needs a descriptor number");
				return MS_EXIT_USAGE;
			}
			break;
		case 'O':
			kopts.provider = optarg;
			break;
		case 'M':
			kopts.p11_module = optarg;
			break;
		case 'K':
			if (ms_alg_line_known(optarg)) {
				ms_error(NULL, "unknown kernel line '%s' (use "
					 "%s)", optarg, ms_alg_lines());
				return MS_EXIT_USAGE;
			}
			kernel = optarg;
			break;
		case 0x300:
			kcpath = optarg;
			break;
		case 'd':
			req.p7s_only = 1;
			break;
		case 'p':
			req.save_p7s = 1;
			break;
		case 'k':
			keyid = 1;
			break;
		case 'R':
		case 'S':
			/* Two policies for one situation: refuse, never
			 * "last one wins". */
			if (req.signed_policy != MS_SIGNED_REFUSE) {
				ms_error(NULL, "--replace and --skip-signed "
					 "exclude each other");
				return MS_EXIT_USAGE;
			}
			req.signed_policy = opt == 'R' ? MS_SIGNED_REPLACE
						       : MS_SIGNED_SKIP;
			break;
		case 'v':
			verbose++;
			break;
		case 'q':
			quiet = 1;
			break;
		case OPT_KMODSIGN:
			if (!kmod) {
				/* An abbreviation, not seen before getopt. */
				ms_error(NULL, "spell out --kmodsign");
				return MS_EXIT_USAGE;
			}
			break;
		case 'h':
			if (kmod)
				kmodsign_help();
			else
				help();
			return MS_EXIT_OK;
		case 'V':
			printf("%s (modsign) %s\n", kmod ? "kmodsign" :
			       "sign-file", MODSIGN_VERSION);
			return MS_EXIT_OK;
		case OPT_BATCH:
			batch.on = 1;
			break;
		case OPT_FILES_FROM:
			batch.from = optarg;
			break;
		case '0':
			batch.nul = 1;
			break;
		case 'j':
			if (ms_jobs_parse(optarg, &batch.jobs)) {
				ms_error(NULL, "-j needs a number of workers "
					 "from 1 to %d", MS_JOBS_MAX);
				return MS_EXIT_USAGE;
			}
			break;
		case '?':
		default:
			if (kmod)
				kmodsign_usage(stderr);
			else
				usage(stderr);
			return MS_EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (batch.on || batch.from || batch.nul || batch.jobs)
		return run_batch(&batch, verb, argc, argv, &req, keyid, quiet,
				 verbose, kernel, &kopts, nextra, extra_keys,
				 extra_certs);
	if (nextra && verb != SIGN) {
		ms_error(NULL, "--signer only goes with signing here");
		return MS_EXIT_USAGE;
	}
	if (req.trailer_only && verb == DIGEST) {
		ms_error(NULL, "-D and --digest-only exclude each other");
		return MS_EXIT_USAGE;
	}
	if ((req.save_p7s || req.p7s_only) && (verb == ATTACH ||
					       verb == DIGEST)) {
		ms_error(NULL, "-d and -p only go with signing here");
		return MS_EXIT_USAGE;
	}
	/* Positional words per verb; with --signer the key and certificate
	 * may come from --signer alone. */
	switch (verb) {
	case SIGN:
		npos = nextra && argc <= 3 ? 2 : 4;
		break;
	case RAW:
		npos = 4;
		break;
	case ATTACH:
		npos = 3;
		break;
	case DIGEST:
	default:
		npos = 2;
		break;
	}
	if (argc < npos || argc > npos + (verb == DIGEST ? 0 : 1)) {
		if (kmod)
			kmodsign_usage(stderr);
		else
			usage(stderr);
		return MS_EXIT_USAGE;
	}
	ms_set_verbose(verbose);
	ms_openssl_init(verbose);
	ms_cleanup_on_signals();

	/* Positional layout of the kernel tool: in -s mode the key slot
	 * holds the raw CMS and the hash moves to the second place. */
	hash = verb == RAW ? argv[1] : argv[0];
	if (kcpath) {
		err = load_kconfig(kcpath, &kc, &kernel, &hash);
		if (err)
			return err;
	}
	cert = verb == ATTACH ? argv[1] : argv[2];
	req.module = argv[npos - 1];
	req.overlap = 1;
	if (argc == npos + 1 && strcmp(argv[npos - 1], argv[npos]) != 0)
		req.dest = argv[npos];
	if (kmodsign_check(&req))
		return MS_EXIT_USAGE;

	switch (verb) {
	case RAW:
		err = ms_signer_load_raw(&signer, argv[0], argv[2], &fail);
		break;
	case ATTACH:
		names[0] = cert;
		err = ms_signer_load_attach(&signer, hash, rawsig, cert, keyid,
					    &kopts, &fail);
		break;
	case DIGEST:
		err = ms_signer_init(&signer, hash, 0, &fail);
		break;
	case SIGN:
	default:
		err = ms_signer_init(&signer, hash, keyid, &fail);
		if (!err && npos == 4) {
			names[signer.n] = argv[1];
			err = ms_signer_add(&signer, argv[1], argv[2], &kopts,
					    &fail);
		}
		for (int i = 0; !err && i < nextra; i++) {
			names[signer.n] = extra_keys[i];
			err = ms_signer_add(&signer, extra_keys[i],
					    extra_certs[i], &kopts, &fail);
		}
		break;
	}
	if (err)
		goto fail;
	if (verb != RAW)
		warn_algorithms(&signer, hash, kernel, names);
	if (kcpath && verb != RAW)
		warn_kconfig(&kc, kcpath, &signer, hash);

	if (verb == DIGEST) {
		uint8_t digest[EVP_MAX_MD_SIZE];
		unsigned int dlen = 0;

		err = ms_digest_file(&signer, &req, digest, &dlen, &skipped,
				     &fail);
		if (err)
			goto fail;
		if (!skipped) {
			/* "<hash> <hex digest>  <module>", as sha256sum's
			 * line with the algorithm in front. */
			char *hex = ms_hex(digest, dlen);

			if (!hex) {
				err = -ENOMEM;
				fail.stage = MS_STAGE_OUTPUT;
				snprintf(fail.path, sizeof(fail.path), "%s",
					 req.module);
				goto fail;
			}
			printf("%s %s  %s\n", hash, hex, req.module);
			free(hex);
		}
	} else {
		err = ms_sign_file(&signer, &req, &skipped, &fail);
		if (err)
			goto fail;
	}
	ms_signer_free(&signer);
	ms_pin_clear();
	kc_free(&kc);
	if (skipped && !quiet)
		fprintf(stderr, "%s: %s: already signed, left unchanged\n",
			ms_prog(), req.module);
	else if (!skipped)
		ms_info("%s %s%s%s", verb == DIGEST ? "digested" : "signed",
			req.module,
			req.p7s_only ? " (detached .p7s only)" : "",
			req.dest ? " into the destination" : "");
	return MS_EXIT_OK;
fail:
	ms_signer_free(&signer);
	ms_pin_clear();
	kc_free(&kc);
	return report(&fail, err);
}
