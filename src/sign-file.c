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

#include "exitcode.h"
#include "fileio.h"
#include "log.h"
#include "signer.h"

static const char short_opts[] = "sdpkvqhV";
static const struct option long_opts[] = {
	{ "raw-sig", no_argument, NULL, 's' },
	{ "sign-only", no_argument, NULL, 'd' },
	{ "save-sig", no_argument, NULL, 'p' },
	{ "keyid", no_argument, NULL, 'k' },
	{ "replace", no_argument, NULL, 'R' },
	{ "skip-signed", no_argument, NULL, 'S' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s [-dpk] <hash> <key> <x509> <module> [<dest>]\n"
		"       %1$s -s <raw-cms> <hash> <x509> <module> [<dest>]\n",
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
"      --replace       strip every existing signature, then sign (also one\n"
"                      appended after compression)\n"
"      --skip-signed   leave already-signed files alone and succeed\n"
"  -v, --verbose       say what was done; show OpenSSL's error details\n"
"  -q, --quiet         no message for files skipped by --skip-signed\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"<hash> is a digest name such as sha256, sha384, sha512 or sha3-256.\n"
"<key> is a PEM private key; an encrypted key's passphrase is read from\n"
"KBUILD_SIGN_PIN.  <x509> is the signer's certificate, DER or PEM; the key\n"
"and certificate may share one PEM file.  An already-signed <module> is\n"
"refused unless --replace or --skip-signed is given.\n"
"\n"
"Compressed modules (gzip, xz or zstd, recognised by content, not by name)\n"
"are signed where the kernel checks them: decompressed, signed, compressed\n"
"again in the same format with kbuild's settings (xz: --check=crc32\n"
"--lzma2=dict=1MiB) and written atomically under the same name, or to\n"
"<dest>.  The <module>.p7s of -p and -d is the signature of the\n"
"decompressed module.  A file signed after compression, which the kernel\n"
"sees as unsigned, is refused with exit 6 even with --skip-signed;\n"
"--replace removes that trailer and signs the module inside.\n");
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
		if (f->key == MS_KEY_UNREADABLE)
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

int main(int argc, char **argv)
{
	struct ms_sign_req req = { .signed_policy = MS_SIGNED_REFUSE };
	int raw = 0, keyid = 0, quiet = 0, verbose = 0, skipped, opt, err;
	const char *hash, *key = NULL, *rawsig = NULL;
	struct ms_signer signer;
	struct ms_fail fail;

	ms_log_init(argv[0]);
	while ((opt = getopt_long(argc, argv, short_opts, long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 's':
			raw = 1;
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
		case 'h':
			help();
			return MS_EXIT_OK;
		case 'V':
			printf("sign-file (modsign) %s\n", MODSIGN_VERSION);
			return MS_EXIT_OK;
		case '?':
		default:
			usage(stderr);
			return MS_EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 4 || argc > 5) {
		usage(stderr);
		return MS_EXIT_USAGE;
	}
	ms_set_verbose(verbose);
	ms_cleanup_on_signals();

	/* Positional layout of the kernel tool: in -s mode the key slot
	 * holds the raw CMS and the hash moves to the second place. */
	if (raw) {
		rawsig = argv[0];
		hash = argv[1];
	} else {
		hash = argv[0];
		key = argv[1];
	}
	req.module = argv[3];
	if (argc == 5 && strcmp(argv[3], argv[4]) != 0)
		req.dest = argv[4];

	if (raw)
		err = ms_signer_load_raw(&signer, rawsig, argv[2], &fail);
	else
		err = ms_signer_load(&signer, hash, key, argv[2], keyid, &fail);
	if (err) {
		ms_signer_free(&signer);
		return report(&fail, err);
	}
	err = ms_sign_file(&signer, &req, &skipped, &fail);
	ms_signer_free(&signer);
	if (err)
		return report(&fail, err);
	if (skipped && !quiet)
		fprintf(stderr, "%s: %s: already signed, left unchanged\n",
			ms_prog(), req.module);
	else if (!skipped)
		ms_info("signed %s%s%s", req.module,
			req.p7s_only ? " (detached .p7s only)" : "",
			req.dest ? " into the destination" : "");
	return MS_EXIT_OK;
}
