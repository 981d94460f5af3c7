/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What differs between the kernel lines verify-file can imitate, and the
 * one table sign-file asks before signing.  Every difference is a column
 * of the tables in rules.c, never an if on a version number somewhere
 * else: a digest, a signature algorithm, a key type, a curve or a key size
 * the kernel refuses is refused by verify-file and warned about by
 * sign-file from the same row, with the same reason.
 */
#ifndef MODSIGN_KERNEL_RULES_H
#define MODSIGN_KERNEL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

enum rules_line {
	RULES_5_10,
	RULES_6_1,
	RULES_6_12,
	RULES_7_3,
	RULES_NLINES,
};
#define RULES_DEFAULT RULES_7_3

/* A kernel release as one number: RULES_V(6, 12) */
#define RULES_V(major, minor) ((major) * 1000 + (minor))
/* The releases a rule holds for: since <= release < until (0: no bound) */
struct rules_span {
	int since, until;
};

/* A digest the kernel's parsers name (struct public_key_signature.hash_algo). */
struct rules_hash {
	const char *oid;	/* dotted OID as a SignerInfo digestAlgorithm */
	const char *name;	/* kernel crypto name: "sha256", "sha3-256" */
	const char *ossl;	/* OpenSSL name */
	struct rules_span pkcs7;	/* releases whose PKCS#7 parser takes the OID */
	struct rules_span gap;	/* ... except these ({0, 0}: none) */
	bool built;		/* crypto_alloc_shash() succeeds on the test
				 * kernels (their .config builds it) */
	bool ecdsa_ok;		/* software_key_determine_akcipher() list */
	const char *unparsed;	/* why a line's parser refuses it */
	const char *unavailable; /* why a line cannot compute it */
	const char *advice;	/* sign-file's warning on every line, or NULL */
};

/* A SignerInfo digestEncryptionAlgorithm (pkcs7_sig_note_pkey_algo). */
struct rules_sinfo_algo {
	const char *oid;
	const char *name;	/* for messages */
	const char *pkey_algo;	/* "rsa", "ecdsa", "mldsa65" */
	const char *encoding;	/* "pkcs1", "x962", "raw" */
	struct rules_span on;
	bool takes_data;	/* ML-DSA: signs the message, not a digest */
	const char *absent;	/* why a line refuses it */
};

/* An X.509 signature algorithm (x509_note_sig_algo). */
struct rules_x509_algo {
	const char *oid;
	const char *pkey_algo;
	const char *encoding;
	const char *hash;	/* kernel hash name; "none" for ML-DSA */
	struct rules_span on;
	bool takes_data;
	const char *absent;	/* why a line refuses it */
};

/* A SubjectPublicKeyInfo algorithm (x509_extract_key_data). */
struct rules_key_algo {
	const char *oid;
	const char *pkey_algo;	/* "rsa", "mldsa65"; NULL: the curve names it */
	struct rules_span on;
	size_t raw_len;		/* ML-DSA: the one key length of the set */
	const char *absent;	/* why a line refuses it */
};

/* An EC named curve for id-ecPublicKey keys (x509_extract_key_data). */
struct rules_curve {
	const char *oid;
	const char *pkey_algo;	/* "ecdsa-nist-p256" */
	struct rules_span on;
	unsigned bytes;		/* one coordinate */
	const char *absent;	/* why a line refuses it */
};

/*
 * Crypto a kernel build may leave out, one bit each.  Without a .config
 * the line's table columns decide (the conformance test kernel); with one
 * (kernel_config.c), these bits do.
 */
enum rules_crypto {
	RULES_C_MD5,
	RULES_C_SHA1,
	RULES_C_SHA256,		/* sha224 and sha256 */
	RULES_C_SHA512,		/* sha384 and sha512 */
	RULES_C_SHA3,
	RULES_C_SM3,
	RULES_C_STREEBOG,
	RULES_C_RSA,
	RULES_C_ECDSA,
	RULES_C_MLDSA,
	RULES_C_N,
	RULES_C_NONE = -1,		/* nothing provides it (md4) */
};

struct rules_rules {
	enum rules_line line;	/* the line at or below the release */
	const char *name;	/* the line: "6.1" */
	int version;		/* RULES_V() of the release judged */
	/* the release asked for ("6.6"), "" when it is the line itself */
	char asked[12];
	/* the release is a line's own: every rule here was confirmed by
	 * that line's real kernel; otherwise each rule is as the source
	 * history has it at that release, unconfirmed */
	bool exact;
	/* keyUsage and basicConstraints are parsed (and can fail the parse) */
	bool x509_constraints;
	/* x509_akid.asn1 tags the GeneralName alternatives IMPLICIT (an
	 * otherName is then SEQUENCE { OID, [0] ANY } under its [0], a
	 * dNSName a primitive [2]); 6.1's grammar had them EXPLICIT */
	bool akid_implicit_names;
	/* the revocation list is consulted for every keyring, not only the
	 * platform keyring (verify_pkcs7_message_sig) */
	bool revocation_all_keyrings;
	/* x509_get_sig_params() looks certificates up in the blacklist by
	 * SHA-256(TBS) whatever their signature hash (v7.0); before, by the
	 * digest of their own signature hash */
	bool tbs_blacklist_sha256;
	/* Debian's "MODSIGN: checking the blacklisted hash before loading a
	 * kernel module": a verified module whose whole-file SHA-256 is a
	 * bin: entry is rejected (Debian 6.1 and 6.12; dropped in 6.17) */
	bool module_bin_blacklist;
	/* before v5.18 (2abc9c246e05, 590bfb57b232): x509_extract_key_data
	 * names every id-ecPublicKey key "sm2" without reading its curve
	 * (until ECDSA in v5.13); public_key_verify_signature() does not
	 * compare the signature's algorithm with the key's, and
	 * software_key_determine_akcipher() makes "pkcs1pad(<key
	 * algo>,<hash>)" of any key; pkcs7_find_key() passes over an
	 * embedded certificate whose key algorithm is not the SignerInfo's;
	 * x509_check_for_self_signed() compares the two algorithms itself,
	 * before it looks at whether the signature can be checked */
	bool ec_keys_sm2;
	bool old_pkey_algo_checks;
	/* crypto/rsa.c rsa_check_payload() (SP 800-56B): a signature value
	 * must be 1 < s < n - 1, else -EINVAL; before, 0 <= s < n */
	bool rsa_payload_strict;
	/* CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA: from a .config
	 * only, the "7.3" line leaves it at its default, n */
	bool mldsa_authattr_waiver;
	/* from a kernel .config: bit (1 << enum rules_crypto) set when the
	 * kernel has that crypto, built in or as a module */
	bool from_config;
	unsigned crypto;
};

const struct rules_rules *rules_get(enum rules_line line);
/* The rule's span holds for the release these rules are for. */
bool rules_on(const struct rules_rules *kr, struct rules_span span);
/* The release to name in messages: the one asked for, else the line. */
const char *rules_label(const struct rules_rules *kr);
/* The lines, oldest first, for messages: "5.10, 6.1, 6.12, 7.3". */
const char *rules_line_names(void);

/*
 * The rules of a kernel release: the line at or below it, with each rule
 * as that release had it (the spans in rules.c).  name: "7.3", "6.1.192",
 * "6.12.0-12-amd64" (uname -r), "7.3.4+deb13".  0; -EINVAL when name
 * starts with no MAJOR.MINOR; -ERANGE for a release older than the
 * oldest line (5.10), which is refused rather than guessed: before 5.10
 * the module-signature rules changed in ways no real kernel of the stage
 * confirms.  *note (may be NULL) gets what is assumed for a release that
 * is not a line's own (NULL for a line's).
 */
int rules_resolve(const char *name, struct rules_rules *out, const char **note);
int rules_resolve_mm(int major, int minor, struct rules_rules *out,
		  const char **note);
/* The oldest line, for messages: "5.10". */
extern const char rules_oldest[];

/* Lookups by dotted OID for a line; NULL when that line does not know it. */
const struct rules_hash *rules_pkcs7_hash(const struct rules_rules *kr,
				    const char *oid);
/* The row of a digest whatever the line (for its reasons), or NULL. */
const struct rules_hash *rules_hash_by_oid(const char *oid);
const struct rules_hash *rules_hash_by_name(const char *name);
const struct rules_sinfo_algo *rules_sinfo_algo(const struct rules_rules *kr,
					  const char *oid);
const struct rules_x509_algo *rules_x509_algo(const struct rules_rules *kr,
					const char *oid);
/* Why a line has no such SignerInfo or certificate signature algorithm
 * (the row another line has), or a generic reason. */
const char *rules_sinfo_algo_absent(const char *oid);
const char *rules_x509_algo_absent(const char *oid);
/* Key algorithms and curves: the row whatever the line, so that the
 * caller can say why a line refuses it (rules_on(kr, row->on)). */
const struct rules_key_algo *rules_key_algo(const char *oid);
const struct rules_curve *rules_curve(const char *oid);
/* Why no line takes a key algorithm or curve this table lacks. */
extern const char rules_why_key_algo[], rules_why_curve[];

/*
 * rsa_set_pub_key(): the modulus, its leading zero bytes dropped, is read
 * into 64-bit limbs, and rsa_check_key_length() takes 512, 1024, 1536,
 * 2048, 3072 or 4096 bits of limbs (the first three not with fips=1).
 * 0, or -EINVAL and *why.  *key_size gets what the kernel then calls the
 * key size in bytes, the length a signature must have.
 */
int rules_rsa_modulus(size_t n_bytes, size_t *key_size, const char **why);

/* crypto_alloc_shash(name) would succeed on this line. */
bool rules_hash_available(const struct rules_rules *kr, const struct rules_hash *h);
/* The crypto bit behind a kernel algorithm name ("sha384", "rsa",
 * "ecdsa-nist-p256", "mldsa65"); RULES_C_NONE when none. */
enum rules_crypto rules_crypto_of(const char *name);
/* The signature algorithm for a key ("rsa", "ecdsa-nist-p256",
 * "mldsa65") can be allocated: false only when a .config leaves it out
 * or the line has no such algorithm. */
bool rules_pkey_available(const struct rules_rules *kr, const char *pkey_algo);
/* The OpenSSL digest for a kernel hash (fetched once), or NULL. */
const EVP_MD *rules_md(const struct rules_hash *h);
/* The hash's OID in DER (tag and length included), or NULL. */
const uint8_t *rules_hash_oid_der(const struct rules_hash *h, size_t *len);

/*
 * sign-file's question before it signs with md: 0 when the line (kr
 * NULL: at least one line) accepts it in a module signature; else the
 * error that kernel returns (-ENOPKG) and *why, the reason verify-file
 * gives for the same signature.  *advice gets a warning that holds on
 * every line (SHA-1, MD5), or NULL.
 */
int rules_digest_check(const struct rules_rules *kr, const EVP_MD *md,
		    const char **why, const char **advice);

#endif
