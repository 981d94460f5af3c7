// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli_options.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "sign-file/pin.h"
#include "sign-file/sign_cmd.h"

int ms_cmd_add_signers(const struct ms_cmd *c, struct ms_signer *s,
		       int with_words, const char **names,
		       struct ms_signer_failure *fail)
{
	int err = 0;

	if (with_words) {
		names[s->n] = c->pos.key;
		err = ms_signer_add(s, c->pos.key, c->pos.cert, &c->kopts,
				    fail);
	}
	for (int i = 0; !err && i < c->nextra; i++) {
		names[s->n] = c->extra_keys[i];
		err = ms_signer_add(s, c->extra_keys[i], c->extra_certs[i],
				    &c->kopts, fail);
	}
	return err;
}

int ms_cmd_load(const struct ms_cmd *c, struct ms_signer *s,
		const char *hash, const char *cert, const char **names,
		struct ms_signer_failure *fail)
{
	int err;

	switch (c->verb) {
	case MS_SIGN_WORDS_RAW:
		/* In -s mode the key slot holds the raw CMS. */
		return ms_signer_load_raw(s, c->pos.raw, c->pos.cert, fail);
	case MS_SIGN_WORDS_ATTACH:
		names[0] = cert;
		return ms_signer_load_attach(s, hash, c->rawsig, cert, c->keyid,
					     &c->kopts, fail);
	case MS_SIGN_WORDS_DIGEST:
		return ms_signer_init(s, hash, 0, fail);
	case MS_SIGN_WORDS_SIGN:
	default:
		err = ms_signer_init(s, hash, c->keyid, fail);
		return err ? err : ms_cmd_add_signers(c, s, c->pos.key != NULL,
						      names, fail);
	}
}

void ms_cmd_inputs(const struct ms_cmd *c, const char *key,
		   const char *cert, struct samefile_inputs *in)
{
	samefile_inputs_add(in, key, c->verb == MS_SIGN_WORDS_RAW ? "the raw CMS"
						      : "the key");
	samefile_inputs_add(in, cert, "the certificate");
	samefile_inputs_add(in, c->rawsig, "the signature to attach");
	for (int i = 0; i < c->nextra; i++) {
		samefile_inputs_add(in, c->extra_keys[i], "a --signer key");
		samefile_inputs_add(in, c->extra_certs[i], "a --signer certificate");
	}
	samefile_inputs_add(in, c->pin_file, "the PIN file");
	samefile_inputs_add(in, c->kcpath, "the kernel config");
	samefile_inputs_add(in, c->batch.from, "the --files-from list");
}

/*
 * The kmodsign personality.  Ubuntu's kmodsign (sbsigntool's
 * src/kmodsign.c, "kmodsign 4.4", read in the neverware-mirrors/sbsigntool
 * copy at 4f5aef50) is a fork of the kernel's sign-file with getopt
 * string "dpkDhV" and only --help and --version as long options:
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
int ms_cmd_kmodsign_check(const struct ms_signer_req *req)
{
	if (!req->trailer_only)
		return 0;
	if (req->p7s_only) {
		log_error(NULL, "-d and -D exclude each other");
		return -EINVAL;
	}
	if (!req->dest) {
		log_error(NULL, "-D writes the signature block to <dest>: give "
			 "a <dest> other than <module>");
		return -EINVAL;
	}
	return 0;
}

/* How many positional words the verb takes before the optional <dest>
 * (with --signer the key and certificate may come from --signer alone). */
static int words_wanted(const struct ms_cmd *o)
{
	switch (o->verb) {
	case MS_SIGN_WORDS_SIGN:
		return o->nextra && o->nwords <= 3 ? 2 : 4;
	case MS_SIGN_WORDS_RAW:
		return 4;
	case MS_SIGN_WORDS_ATTACH:
		return 3;
	case MS_SIGN_WORDS_DIGEST:
	default:
		return 2;
	}
}

/* Too few or too many positional words (need of them, and up to more
 * optional): say which, then CLI_OPTIONS_USAGE. */
static int words_error(const struct ms_cmd *o, int need, int more)
{
	if (o->kmod)		/* kmodsign says only its usage */
		return CLI_OPTIONS_USAGE;
	if (!o->nwords)
		log_error(NULL, "no arguments (%d needed)", need);
	else if (o->nwords < need)
		log_error(NULL, "missing arguments: %d given, %d needed",
			 o->nwords, need);
	else
		log_error(NULL, "too many arguments (at most %d): '%s'",
			 need + more, o->pos.extra);
	return CLI_OPTIONS_USAGE;
}

int ms_cmd_check_one(struct ms_cmd *o)
{
	int npos = words_wanted(o);

	ms_sign_words_decode(o->verb, npos - 1, o->words, o->nwords, &o->pos);
	if (o->nextra && o->verb != MS_SIGN_WORDS_SIGN)
		log_error(NULL, "--signer only goes with signing here");
	else if (o->req.trailer_only && o->verb == MS_SIGN_WORDS_DIGEST)
		log_error(NULL, "-D and --digest-only exclude each other");
	else if ((o->req.save_p7s || o->req.p7s_only) &&
		 (o->verb == MS_SIGN_WORDS_ATTACH || o->verb == MS_SIGN_WORDS_DIGEST))
		log_error(NULL, "-d and -p only go with signing here");
	else if (o->nwords < npos ||
		 o->nwords > npos + (o->verb == MS_SIGN_WORDS_DIGEST ? 0 : 1))
		return words_error(o, npos, o->verb == MS_SIGN_WORDS_DIGEST ? 0 : 1);
	else
		return 0;
	return EXITCODE_USAGE;
}

int ms_cmd_check_batch(struct ms_cmd *o)
{
	int npos = o->nextra ? 1 : 3;

	ms_sign_words_decode(o->verb, npos, o->words, o->nwords, &o->pos);
	if (!o->batch.on)
		log_error(NULL, "-r, --files-from, -0, -j and --json go with "
			 "--batch");
	else if (o->verb != MS_SIGN_WORDS_SIGN)
		log_error(NULL, "--batch only signs (not -s, --attach or "
			 "--digest-only)");
	else if (o->batch.nul && !o->batch.from)
		log_error(NULL, "-0 goes with --files-from");
	else if (o->nwords < npos ||
		 (o->nwords == npos && !o->batch.from && !o->batch.walk))
		return words_error(o, npos + 1, 0);
	else
		return 0;
	return EXITCODE_USAGE;
}

int ms_cmd_pin_source(int from_file, const char *arg)
{
	int err = ms_pin_set_source(from_file ? MS_PIN_FILE : MS_PIN_FD,
				    arg);

	if (err)
		log_error(NULL, err == -EEXIST ? "--pin-file and --pin-fd "
			 "exclude each other" : "--pin-fd needs a descriptor "
			 "number");
	return err ? EXITCODE_USAGE : 0;
}

void ms_cmd_done(void)
{
	ms_pin_clear();
	openssl_init_done();
}

void ms_cmd_say_done(const struct ms_cmd *c, struct ms_cmd_one_done *d)
{
	const struct ms_signer_req *req = &c->req;

	if (d->by_agent)
		return;
	if (d->digest_hex)
		printf("%s %s  %s\n", d->hash, d->digest_hex, req->module);
	free(d->hash);
	free(d->digest_hex);
	if (d->skipped && !c->quiet)
		fprintf(stderr, "%s: %s: already signed, left unchanged\n",
			log_prog(), req->module);
	else if (!d->skipped)
		log_info("%s %s%s%s", c->verb == MS_SIGN_WORDS_DIGEST ? "digested" :
			"signed", req->module, req->p7s_only ?
			" (detached .p7s only)" : "", req->dest ?
			" into the destination" : "");
}
