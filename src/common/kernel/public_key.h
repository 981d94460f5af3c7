/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's public keys (x509_extract_key_data) and
 * public_key_verify_signature() on top of OpenSSL primitives: the
 * algorithm, key and size checks are the kernel's, with its errnos; the
 * arithmetic is OpenSSL's.
 */
#ifndef MODSIGN_KERNEL_PUBLIC_KEY_H
#define MODSIGN_KERNEL_PUBLIC_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "kernel/rules.h"

/* struct public_key: what the kernel keeps of a SubjectPublicKeyInfo. */
struct pk_key {
	EVP_PKEY *pkey;		/* NULL when OpenSSL cannot decode it (or,
				 * for ML-DSA, this build cannot) */
	const char *algo;	/* "rsa", "ecdsa-nist-p256", "mldsa65" */
	const uint8_t *raw;	/* the BIT STRING's content (pub->key) */
	size_t raw_len;
	unsigned ec_bytes;	/* ECDSA: one coordinate of the curve */
	size_t mldsa_len;	/* ML-DSA: the key length of the set */
	int rsa_err;		/* RSA: rsa_parse_pub_key()'s error */
};

/* struct public_key_signature */
struct pk_sig {
	const char *pkey_algo;		/* "rsa", "ecdsa", "mldsa65" */
	const char *encoding;		/* "pkcs1", "x962", "raw" */
	const struct rules_hash *hash;	/* NULL with hash_none */
	bool hash_none;			/* hash_algo "none" (ML-DSA) */
	bool takes_data;		/* algo_takes_data: m is the message */
	const uint8_t *s;		/* signature bytes */
	size_t slen;
	uint8_t digest[64];		/* m for digest-signing algorithms */
	size_t dlen;
	const uint8_t *m;		/* m for ML-DSA: the message itself */
	size_t mlen;
};

/*
 * The same from the parts x509_cert_parse() keeps: the algorithm OID's
 * contents, its parameters element (header included; NULL when absent)
 * and the BIT STRING's contents.
 */
int pk_key_make(const struct rules_rules *kr, const uint8_t *oid, size_t oid_len,
		const uint8_t *params, size_t params_len, const uint8_t *bits,
		size_t bits_len, struct pk_key *k, const char **why);

/*
 * public_key_verify_signature(key, sig): 0, or -EKEYREJECTED (algorithm
 * mismatch, bad signature), -EINVAL (encoding or hash the algorithm
 * cannot take, a key of a size or form the kernel refuses, a signature of
 * the wrong length), -EBADMSG (undecodable signature or key), -ENOPKG
 * (unknown key algorithm), -ENOENT (a .config leaves the algorithm out),
 * or -EXITCODE_ENOALG when this build's OpenSSL cannot do the arithmetic
 * (ML-DSA before OpenSSL 3.5).  *why on failure.
 */
/* A signature's algorithm is the key's: the same name, or "ecdsa" for
 * any "ecdsa-nist-*" key (ECDSA signatures do not name the curve). */
bool pk_algo_matches(const char *key_algo, const char *sig_algo);
int pk_verify(const struct rules_rules *kr, const struct pk_key *k,
	      const struct pk_sig *sig, const char **why);

/*
 * sign-file's question about a key (kr NULL: at least one line): 0 when
 * the kernel would take it, else the error it gives (-ENOPKG: no such
 * algorithm or curve; -EINVAL: a size or form it refuses) and *why, the
 * reason verify-file gives for the same key.
 */
int pk_check_pkey(const struct rules_rules *kr, EVP_PKEY *key,
		  const char **why);
/* The same for a key given as its DER SubjectPublicKeyInfo (a
 * certificate's, as the kernel will read it). */
int pk_check_spki(const struct rules_rules *kr, const uint8_t *der, size_t len,
		  const char **why);

/* This build can check ML-DSA signatures (OpenSSL >= 3.5, with the
 * algorithm available at run time). */
bool pk_mldsa_checkable(void);

/* digest = H(data); -ENOPKG when the hash is missing (pkcs7_digest). */
int pk_digest(const struct rules_hash *h, const uint8_t *data, size_t len,
	      uint8_t *out, size_t *out_len);
/* The same over a prefix byte followed by data (the authattrs re-tag). */
int pk_digest2(const struct rules_hash *h, uint8_t first, const uint8_t *data,
	       size_t len, uint8_t *out, size_t *out_len);

#endif
