/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What differs between the kernel lines verify-file can imitate.  Every
 * difference is a column of one table (kernel_rules.c), never an if on a
 * version number somewhere else.
 */
#ifndef MODSIGN_KERNEL_RULES_H
#define MODSIGN_KERNEL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

enum kr_line {
	KR_6_1,
	KR_6_12,
	KR_NLINES,
};
#define KR_LINE(l) (1u << (l))
#define KR_ALL (KR_LINE(KR_6_1) | KR_LINE(KR_6_12))
#define KR_DEFAULT KR_6_12

/* A digest the kernel's parsers name (struct public_key_signature.hash_algo). */
struct kr_hash {
	const char *oid;	/* dotted OID as a SignerInfo digestAlgorithm */
	const char *name;	/* kernel crypto name: "sha256", "sha3-256" */
	const char *ossl;	/* OpenSSL name */
	unsigned pkcs7_lines;	/* lines whose PKCS#7 parser accepts the OID */
	unsigned avail_lines;	/* lines where crypto_alloc_shash() succeeds */
	bool ecdsa_ok;		/* software_key_determine_akcipher() list */
};

/* A SignerInfo digestEncryptionAlgorithm (pkcs7_sig_note_pkey_algo). */
struct kr_sinfo_algo {
	const char *oid;
	const char *name;	/* for messages */
	const char *pkey_algo;	/* "rsa", "ecdsa" */
	const char *encoding;	/* "pkcs1", "x962" */
	unsigned lines;
};

/* An X.509 signature algorithm (x509_note_sig_algo). */
struct kr_x509_algo {
	const char *oid;
	const char *pkey_algo;
	const char *encoding;
	const char *hash;	/* kernel hash name */
	unsigned lines;
};

/* An EC named curve for id-ecPublicKey keys (x509_extract_key_data). */
struct kr_curve {
	const char *oid;
	const char *pkey_algo;	/* "ecdsa-nist-p256" */
	unsigned lines;
};

/*
 * Crypto a kernel build may leave out, one bit each.  Without a .config
 * the line's table columns decide (the conformance test kernel); with one
 * (kconfig.c), these bits do.
 */
enum kr_crypto {
	KR_C_MD5,
	KR_C_SHA1,
	KR_C_SHA256,		/* sha224 and sha256 */
	KR_C_SHA512,		/* sha384 and sha512 */
	KR_C_SHA3,
	KR_C_SM3,
	KR_C_STREEBOG,
	KR_C_RSA,
	KR_C_ECDSA,
	KR_C_N,
	KR_C_NONE = -1,		/* nothing provides it (md4) */
};

struct kr_rules {
	enum kr_line line;
	const char *name;	/* "6.1" */
	/* keyUsage and basicConstraints are parsed (and can fail the parse) */
	bool x509_constraints;
	/* the revocation list is consulted for every keyring, not only the
	 * platform keyring (verify_pkcs7_message_sig) */
	bool revocation_all_keyrings;
	/* ML-DSA module signatures may carry authattrs (neither line) */
	bool mldsa_authattr_waiver;
	/* from a kernel .config: bit (1 << enum kr_crypto) set when the
	 * kernel has that crypto, built in or as a module */
	bool from_config;
	unsigned crypto;
};

const struct kr_rules *kr_get(enum kr_line line);
/* "6.1" or "6.12"; NULL when unknown. */
const struct kr_rules *kr_by_name(const char *name);

/* Lookups by dotted OID for a line; NULL when that line does not know it. */
const struct kr_hash *kr_pkcs7_hash(const struct kr_rules *kr,
				    const char *oid);
const struct kr_hash *kr_hash_by_name(const char *name);
const struct kr_sinfo_algo *kr_sinfo_algo(const struct kr_rules *kr,
					  const char *oid);
const struct kr_x509_algo *kr_x509_algo(const struct kr_rules *kr,
					const char *oid);
const struct kr_curve *kr_curve(const struct kr_rules *kr, const char *oid);
/* crypto_alloc_shash(name) would succeed on this line. */
bool kr_hash_available(const struct kr_rules *kr, const struct kr_hash *h);
/* The crypto bit behind a kernel algorithm name ("sha384", "rsa",
 * "ecdsa-nist-p256"); KR_C_NONE when none. */
enum kr_crypto kr_crypto_of(const char *name);
/* The akcipher for a key ("rsa", "ecdsa-nist-p256") can be allocated:
 * false only when a .config leaves it out. */
bool kr_pkey_available(const struct kr_rules *kr, const char *pkey_algo);
/* The OpenSSL digest for a kernel hash (fetched once), or NULL. */
const EVP_MD *kr_md(const struct kr_hash *h);
/* The hash's OID in DER (tag and length included), or NULL. */
const uint8_t *kr_hash_oid_der(const struct kr_hash *h, size_t *len);

#endif
