/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * X.509 certificates as the kernel's x509_cert_parser.c sees them
 * (crypto/asymmetric_keys/x509_cert_parser.c): its strictness, its key
 * identifiers, its
 * self-signed test and its fabricated description.
 */
#ifndef MODSIGN_KERNEL_X509_H
#define MODSIGN_KERNEL_X509_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "kernel/blacklist.h"
#include "kernel/public_key.h"
#include "kernel/rules.h"

/* struct asymmetric_key_id: compared by length and bytes */
struct x509k_kid {
	uint8_t *data;
	size_t len;
};

/* asymmetric_key_id_same(): false when either side is absent */
bool x509k_kid_same(const struct x509k_kid *a, const struct x509k_kid *b);
int x509k_kid_make(struct x509k_kid *k, const uint8_t *a, size_t alen,
	     const uint8_t *b, size_t blen);
void x509k_kid_free(struct x509k_kid *k);

struct x509k_cert {
	uint8_t *der;
	size_t der_len;
	const uint8_t *serial, *issuer, *subject;	/* contents, in der */
	size_t serial_len, issuer_len, subject_len;
	struct x509k_kid id;		/* serial ‖ issuer (x509_cert_parser.c) */
	struct x509k_kid skid;
	struct x509k_kid akid_id;	/* auth_ids[0]: AKID serial ‖ directoryName */
	struct x509k_kid akid_keyid;	/* auth_ids[1] */
	struct pk_key pub;	/* pub.algo: "rsa", "ecdsa-nist-p256", ... */
	struct pk_sig sig;	/* the certificate's own signature */
	int64_t valid_from, valid_to;
	bool self_signed, unsupported_sig, blacklisted;
	/* an ML-DSA self-signature this build cannot check: taken as good,
	 * so that a verdict depending on it can say so (-EXITCODE_ENOALG) */
	bool selfsig_unchecked;
	bool ca, digsig, keycertsign;
	char name[256];		/* x509_fabricate_name() */

	/* State of one verification run (pkcs7_verify / validate_trust). */
	struct x509k_cert *signer;
	bool seen, verified;
	unsigned index;
	char *path;		/* where a keyring certificate came from */
	/* the keyring the kernel filed it in (".machine"...) and why,
	 * static words; NULL when not modelled (-k, -c) */
	const char *keyring, *filed_why;
};

/*
 * Parse one DER certificate.  The kernel's errors: -EMSGSIZE over 64 KiB,
 * -EBADMSG (malformed, bad time, bad extension form), -ENOPKG (unknown
 * signature, key or curve), -EINVAL (inner and outer algorithms differ),
 * -EKEYREJECTED (self-signed AKID half-match, bad self-signature), and
 * what public_key_verify_signature() gives a self-signed certificate
 * whose key the kernel refuses (-EINVAL for an RSA-8192 key, -ENOENT for
 * a key type its .config leaves out).  bl may be NULL.  *why gets a
 * static explanation on failure.
 */
int x509k_parse(const uint8_t *der, size_t len, const struct rules_rules *kr,
		const struct blacklist *bl, struct x509k_cert **out,
		const char **why);
void x509k_free(struct x509k_cert *c);

/* Key description as in /proc/keys: "<name>: <skid or serial hex>". */
void x509k_describe(const struct x509k_cert *c, char *buf, size_t size);

/* x509_decode_time(): 0 and *t, or -EBADMSG
 * (crypto/asymmetric_keys/x509_cert_parser.c). */
int x509k_decode_time(uint8_t tag, const uint8_t *v, size_t len,
		      int64_t *t);

#endif
