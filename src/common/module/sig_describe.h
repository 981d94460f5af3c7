/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Describing an appended signature for people and scripts (extract-sig):
 * where it sits, what the descriptor says, and who signed with what.
 * Printed, as text or JSON, by extract-sig/describe_print.h.
 */
#ifndef MODSIGN_MODULE_SIG_DESCRIBE_H
#define MODSIGN_MODULE_SIG_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

#include "module/trailer.h"

#define SIG_DESCRIBE_MAX_SIGNERS 8

/*
 * What a kernel line makes of an ML-DSA signer's signed attributes on a
 * module (pkcs7_verify(), CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA,
 * v7.0), filled in by waiver_describe (kernel/waiver.h).
 */
enum sig_describe_waiver {
	SIG_DESCRIBE_WAIVER_UNKNOWN,	/* not an ML-DSA signer, or not asked */
	SIG_DESCRIBE_WAIVER_NOT_NEEDED,	/* no signed attributes */
	SIG_DESCRIBE_WAIVER_NEEDED,	/* signed attributes: accepted only with it */
	SIG_DESCRIBE_WAIVER_NOT_WAIVABLE,	/* signed attributes, and the first signer
				 * is not ML-DSA: rejected even with it */
	SIG_DESCRIBE_WAIVER_NO_MLDSA,	/* the line has no ML-DSA at all */
};

struct sig_describe_signer {
	int by_skid;		/* SignerInfo identifies by SKID (CMS v3) */
	char *issuer;		/* base/format's spelling, or NULL */
	char *issuer_cn;	/* kmod's "signer": issuer CN (else last RDN) */
	uint8_t *serial;	/* magnitude, big-endian, no leading zeros */
	size_t serial_len;
	uint8_t *skid;
	size_t skid_len;
	char hash[32];		/* digest long name, as kmod prints it */
	char sig_alg[48];	/* signature algorithm name */
	char sig_oid[48];	/* the same, dotted */
	int mldsa;		/* ML-DSA parameter set (44, 65, 87), or 0 */
	enum sig_describe_waiver waiver;	/* for an ML-DSA signer, on d->kernel */
	int signed_attrs;	/* signedAttrs present */
	uint8_t *sig;		/* signature value */
	size_t sig_len;
	char key[32];		/* "RSA-2048" when a certificate is known */
	const char *cert_from;	/* "embedded", the -c path, or NULL */
	char *subject;		/* matching certificate's subject */
	char *subject_cn;	/* kmod's "signer" of that subject, or NULL */
	char *cert_issuer;	/* that certificate's issuer, or NULL */
	char *cert_issuer_cn;	/* its CN (else last RDN), or NULL */
};

struct sig_describe {
	size_t file_len;	/* of the module the kernel sees */
	/* Set by the caller for a compressed module (NULL, 0 otherwise):
	 * every size and offset here is then of the decompressed module. */
	const char *compression;
	size_t compressed_len;
	struct trailer t;
	int cms_ok;		/* the blob parsed as CMS SignedData */
	int n_signers;		/* all SignerInfos, even past SIG_DESCRIBE_MAX_SIGNERS */
	int n_certs;		/* embedded certificates */
	int detached;		/* no embedded content */
	struct sig_describe_signer s[SIG_DESCRIBE_MAX_SIGNERS];
	const char *kernel;	/* the line the waivers speak for, or NULL */
	/* A detached signature (sig_describe_fill_detached): the file it was
	 * read from; t then holds only body_len (0: no body given) and
	 * sig_len.  NULL for an appended one. */
	const char *sig_file;
	/* -c CERT: given, and whether it is a signer's (issuer and serial,
	 * or subjectKeyIdentifier, of some SignerInfo) */
	const char *cert_path;
	int cert_signs;
	/* Set by the caller that judged the signature with CERT alone as
	 * the kernel would (kernel/cert_check.h), else cert_judged 0:
	 * CERT's key as the kernel names it, and per signer whether CERT
	 * vouched for it ("key_description", "trusted") */
	int cert_judged;
	const char *cert_description;
	int cert_trusted[SIG_DESCRIBE_MAX_SIGNERS];
	/* The body itself still ends with the magic: signed twice, and
	 * the kernel reads only the last signature. */
	int signed_twice;
};

/*
 * Describe the signature of buf.  cert (may be NULL) names the signer's
 * certificate given by the user, cert_path its file.  Returns 0, or the
 * split error (-ENODATA unsigned, -EBADMSG truncated); for id types other
 * than PKCS#7 returns 0 with cms_ok = 0, and -EBADMSG when a PKCS#7 blob
 * is not CMS.
 */
int sig_describe_fill(struct sig_describe *d, const uint8_t *buf, size_t len,
		    X509 *cert, const char *cert_path);
/*
 * Describe a detached signature blob (a .p7s, as sign-file -d writes),
 * for a body of body_len bytes (0 when none was given) that may itself
 * end with the magic (body_tail_magic).  sig_file names the blob's file.
 * Returns 0, or -EBADMSG when blob is not CMS SignedData.
 */
int sig_describe_fill_detached(struct sig_describe *d, const uint8_t *blob,
			     size_t len, size_t body_len, int body_tail_magic,
			     const char *sig_file, X509 *cert,
			     const char *cert_path);
void sig_describe_free(struct sig_describe *d);

/* "PKCS#7", "X509", "PGP"; NULL for an unknown id type. */
const char *sig_describe_id_type_name(unsigned id_type);

#endif
