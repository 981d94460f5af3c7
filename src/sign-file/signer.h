/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signing one file: the whole sign-file job below option parsing, so that
 * a batch mode can load the key once and sign many files.
 */
#ifndef MODSIGN_SIGN_FILE_SIGNER_H
#define MODSIGN_SIGN_FILE_SIGNER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "base/outfile.h"
#include "module/module_file.h"
#include "module/sig_describe.h"
#include "sign-file/keys.h"

struct rules_rules;

/* Which step failed, so the tool can pick the exit code and the words. */
enum ms_signer_stage {
	MS_SIGNER_STAGE_NONE,
	MS_SIGNER_STAGE_HASH,		/* unknown digest name */
	MS_SIGNER_STAGE_KEY,		/* private key file */
	MS_SIGNER_STAGE_CERT,		/* certificate file */
	MS_SIGNER_STAGE_MATCH,		/* key/cert pair */
	MS_SIGNER_STAGE_RAWSIG,	/* -s file: unreadable or not attachable */
	MS_SIGNER_STAGE_INPUT,		/* the module: unreadable, not regular */
	MS_SIGNER_STAGE_DECOMPRESS,	/* compressed module: corrupt, too large */
	MS_SIGNER_STAGE_SIGNED_AFTER,	/* signed after compression (use --replace) */
	MS_SIGNER_STAGE_SIGNED,	/* the module is already signed */
	MS_SIGNER_STAGE_TRAILER,	/* --replace met a malformed old trailer */
	MS_SIGNER_STAGE_SIGN,		/* OpenSSL refused to sign */
	MS_SIGNER_STAGE_KERNEL,	/* the target kernel would refuse the result:
				 * the error is its -errno, the reason says
				 * which kernel and why */
	MS_SIGNER_STAGE_NOALG,		/* this build's OpenSSL lacks the algorithm
				 * (ML-DSA before OpenSSL 3.5): -ENOSYS */
	MS_SIGNER_STAGE_OUTPUT,	/* writing the result */
	MS_SIGNER_STAGE_DEST,		/* <dest> holds another kernel module: not
				 * overwritten (a glob that matched two) */
	MS_SIGNER_STAGE_NOT_MODULE,	/* empty body, or a .ko that is not ELF:
				 * -ENOEXEC, as finit_module() would say */
	MS_SIGNER_STAGE_OTHER_SIGNER,	/* --skip-signed: signed, but not by these
				 * certificates (reason names the signer) */
	MS_SIGNER_STAGE_CLOBBER,	/* an output is one of the run's inputs
				 * (sign-file/outputs.h): nothing written */
};

struct ms_signer_failure {
	enum ms_signer_stage stage;
	int token;		/* the failing key is on a PKCS#11 token */
	char path[4096];	/* the file the failure is about */
	const char *reason;	/* static text or text[], or NULL for
				 * strerror(-err) */
	enum ms_key_problem key;
	char text[512];		/* a reason made for this failure */
};

enum ms_signer_signed_policy {
	MS_SIGNER_SIGNED_REFUSE,	/* default: exit 8 */
	MS_SIGNER_SIGNED_REPLACE,	/* strip every trailer, then sign (also one
				 * appended after compression) */
	MS_SIGNER_SIGNED_SKIP,		/* leave the file alone, succeed */
};

/* Key rollover needs two; a few more cost nothing. */
#define MS_SIGNER_MAX 8

struct ms_signer {
	const EVP_MD *md;
	EVP_MD *md_fetched;	/* md, when fetched explicitly (freed here) */
	int n;			/* key/certificate pairs (0 in -s mode) */
	EVP_PKEY *keys[MS_SIGNER_MAX];
	X509 *certs[MS_SIGNER_MAX];	/* certs[0] also in -s/--attach */
	struct ms_p11_load_token *toks[MS_SIGNER_MAX];	/* NULL for key files */
	int use_keyid;		/* -k: SignerInfo by subjectKeyIdentifier */
	uint8_t *raw_sig;	/* -s/--attach: the CMS or value to append */
	size_t raw_sig_len;
	int raw_is_value;	/* --attach got a bare signature value */
	const char *raw_path;
	/* Batch mode with a key on a PKCS#11 token: signing is done under
	 * this lock, one file at a time (sign_many.c owns it). */
	pthread_mutex_t *serial;
	/* Batch mode: the SignedData encoded once (cms.h), owned by the
	 * batch; NULL to build it per file. */
	const struct ms_cms_template *tmpl;
	/* Batch mode with one RSA key on a token: that key signing through
	 * PKCS#11 directly (pkcs11/direct.h), owned by the batch; used
	 * under serial, with tmpl. */
	struct ms_p11_direct *direct;
};

/* Start a signer for the digest named hash; add pairs with
 * ms_signer_add.  Only the digest is needed for --digest-only. */
int ms_signer_init(struct ms_signer *s, const char *hash, int use_keyid,
		   struct ms_signer_failure *fail);
/*
 * Load one key and its certificate (files or pkcs11: URIs) and check that
 * they belong together.  When the key source also carries a certificate
 * (PKCS#12) and cert is the same name, that certificate is used.
 */
int ms_signer_add(struct ms_signer *s, const char *key, const char *cert,
		  const struct ms_key_opts *o, struct ms_signer_failure *fail);
/* The same for -s: an externally made CMS instead of a key. */
int ms_signer_load_raw(struct ms_signer *s, const char *raw,
		       const char *cert, struct ms_signer_failure *fail);
/*
 * --attach: like -s, but raw may also be a bare signature value, which is
 * wrapped into the CMS sign-file would have made with cert and hash.
 */
int ms_signer_load_attach(struct ms_signer *s, const char *hash,
			  const char *raw, const char *cert, int use_keyid,
			  const struct ms_key_opts *o, struct ms_signer_failure *fail);
void ms_signer_free(struct ms_signer *s);

struct ms_signer_req {
	const char *module;
	const char *dest;	/* NULL: replace module in place */
	int save_p7s;		/* -p: also write <module>.p7s */
	int p7s_only;		/* -d: write only <module>.p7s */
	int trailer_only;	/* kmodsign -D: write to dest only what would
				 * be appended (CMS, descriptor, magic), so
				 * that cat module dest is the signed module */
	enum ms_signer_signed_policy signed_policy;
	int firmware;		/* --usage firmware: the body need not be
				 * ELF even when named .ko */
	int describe;		/* batch --json: keep the description of
				 * the signature made (ms_signer_signed) */
	const char *cert_path;	/* the first certificate's name, for
				 * those facts */
	int nowait;		/* batch: -EWOULDBLOCK (MS_SIGNER_STAGE_INPUT)
				 * instead of waiting for the module's lock */
	int overlap;		/* single runs: copy a large module's body
				 * into the output on a second thread while
				 * this one hashes it (batch keeps every CPU
				 * busy with whole files instead) */
	/* The kernel the result is for (--kernel, --kernel-config): a CMS
	 * made elsewhere is attached only if this kernel's model accepts
	 * it.  NULL: the newest line (RULES_DEFAULT). */
	const struct rules_rules *kernel;
};

/*
 * Sign one file.  On success *skipped tells whether --skip-signed left it
 * alone.  Nothing is written unless everything before the write worked,
 * and a failed write leaves no file behind.  A gzip, xz or zstd module
 * (by content) is decompressed, signed, and compressed again in the same
 * format (see compress.h), so any loop over files handles both kinds.
 */
int ms_signer_sign_file(const struct ms_signer *s, const struct ms_signer_req *r,
			int *skipped, struct ms_signer_failure *fail);

/*
 * The same in two steps, for batch mode's group commit.  ms_signer_prepare
 * does everything but the replacing: on success (and not skipped) job
 * holds the complete, unsynced temporary file(s) and the module's lock,
 * and nothing else (no mapping, no decompressed copy).  ms_signer_commit
 * renames them into place with the given MS_SYNC_* flushes (base/outfile.h):
 * without OUTFILE_SYNC_FILE the caller has made the data durable first.
 * ms_signer_release then removes whatever was not committed and unlocks;
 * it is also the way to give up on a prepared job.
 */
/* With describe: the signature made, described as extract-sig describes
 * an appended signature, and judged with the first certificate alone as
 * extract-sig -c judges it (kernel/cert_check.h). */
struct ms_signer_made_sig {
	struct sig_describe d;
	char key_description[320];	/* d.cert_description's text */
};

struct ms_signer_signed {
	const char *module;
	struct module_file in;	/* the locked input: fd only */
	struct outfile out, p7s;	/* out.tmp NULL with -d */
	char *p7s_path;
	struct ms_signer_made_sig *made;	/* with describe; freed by release */
};

int ms_signer_prepare(const struct ms_signer *s, const struct ms_signer_req *r,
		      struct ms_signer_signed *job, int *skipped,
		      struct ms_signer_failure *fail);
int ms_signer_commit(struct ms_signer_signed *job, unsigned int sync,
		     struct ms_signer_failure *fail);
void ms_signer_release(struct ms_signer_signed *job);

/*
 * --digest-only: write what a remote signer must sign, without any key:
 *   <module>.digest   the raw digest of the body (what ECDSA signs, and
 *                     what "openssl pkeyutl -sign -pkeyopt digest:HASH"
 *                     takes for RSA);
 *   <module>.tbs      the DER DigestInfo {hash OID, digest}, what an RSA
 *                     PKCS#1 v1.5 signer pads and signs (CKM_RSA_PKCS).
 * The body is the module as it would be signed: for a compressed module
 * the decompressed one (what the kernel checks); under --replace, without
 * its old signatures.  digest gets the bytes (EVP_MAX_MD_SIZE room).
 */
int ms_signer_digest_file(const struct ms_signer *s, const struct ms_signer_req *r,
			  uint8_t *digest, unsigned int *digest_len, int *skipped,
			  struct ms_signer_failure *fail);

#endif
