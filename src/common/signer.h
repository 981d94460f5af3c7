/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signing one file: the whole sign-file job below option parsing, so that
 * a batch mode can load the key once and sign many files.
 */
#ifndef MODSIGN_SIGNER_H
#define MODSIGN_SIGNER_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "keys.h"

/* Which step failed, so the tool can pick the exit code and the words. */
enum ms_stage {
	MS_STAGE_NONE,
	MS_STAGE_HASH,		/* unknown digest name */
	MS_STAGE_KEY,		/* private key file */
	MS_STAGE_CERT,		/* certificate file */
	MS_STAGE_MATCH,		/* key/cert pair */
	MS_STAGE_RAWSIG,	/* -s file: unreadable or not attachable */
	MS_STAGE_INPUT,		/* the module: unreadable, not regular */
	MS_STAGE_DECOMPRESS,	/* compressed module: corrupt, too large */
	MS_STAGE_SIGNED_AFTER,	/* signed after compression (use --replace) */
	MS_STAGE_SIGNED,	/* the module is already signed */
	MS_STAGE_TRAILER,	/* --replace met a malformed old trailer */
	MS_STAGE_SIGN,		/* OpenSSL refused to sign */
	MS_STAGE_OUTPUT,	/* writing the result */
};

struct ms_fail {
	enum ms_stage stage;
	char path[4096];	/* the file the failure is about */
	const char *reason;	/* static text, or NULL for strerror(-err) */
	enum ms_key_problem key;
};

enum ms_signed_policy {
	MS_SIGNED_REFUSE,	/* default: exit 8 */
	MS_SIGNED_REPLACE,	/* strip every trailer, then sign (also one
				 * appended after compression) */
	MS_SIGNED_SKIP,		/* leave the file alone, succeed */
};

struct ms_signer {
	const EVP_MD *md;
	EVP_PKEY *key;		/* NULL in -s mode */
	X509 *cert;
	int use_keyid;		/* -k: SignerInfo by subjectKeyIdentifier */
	uint8_t *raw_sig;	/* -s: the CMS to append */
	size_t raw_sig_len;
	const char *raw_path;
};

/* Load everything the signature needs; checks the key matches the cert. */
int ms_signer_load(struct ms_signer *s, const char *hash, const char *key,
		   const char *cert, int use_keyid, struct ms_fail *fail);
/* The same for -s: an externally made CMS instead of a key. */
int ms_signer_load_raw(struct ms_signer *s, const char *raw,
		       const char *cert, struct ms_fail *fail);
void ms_signer_free(struct ms_signer *s);

struct ms_sign_req {
	const char *module;
	const char *dest;	/* NULL: replace module in place */
	int save_p7s;		/* -p: also write <module>.p7s */
	int p7s_only;		/* -d: write only <module>.p7s */
	enum ms_signed_policy signed_policy;
};

/*
 * Sign one file.  On success *skipped tells whether --skip-signed left it
 * alone.  Nothing is written unless everything before the write worked,
 * and a failed write leaves no file behind.  A gzip, xz or zstd module
 * (by content) is decompressed, signed, and compressed again in the same
 * format (see compress.h), so any loop over files handles both kinds.
 */
int ms_sign_file(const struct ms_signer *s, const struct ms_sign_req *r,
		 int *skipped, struct ms_fail *fail);

#endif
