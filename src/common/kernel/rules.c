// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>

#include "kernel/rules.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Spans of releases (struct rules_span) */
#define ALWAYS { 0, 0 }
#define NONE { 0, 0 }
#define SINCE(a, b) { RULES_V(a, b), 0 }
#define UNTIL(a, b) { 0, RULES_V(a, b) }
#define FROM_TO(a, b, c, d) { RULES_V(a, b), RULES_V(c, d) }

/*
 * Digests: pkcs7_sig_note_digest_algo() (crypto/asymmetric_keys/
 * pkcs7_parser.c) names what a SignerInfo may use, and
 * crypto_alloc_shash() whether the kernel can compute it.  History behind
 * the columns:
 *  - md4/md5 left the PKCS#7 and X.509 parsers in v6.7 (8468516f9f93
 *    "crypto: pkcs7 - remove md4 md5 x.509 support"), so 6.1 still parses
 *    them; md4 has no pkcs1pad digest-info template, so it counts as
 *    absent everywhere;
 *  - sha1 was removed in v6.7 (16ab7cb5825f) and restored in v6.9-rc1
 *    (203a6763ab69, "Revert ... remove sha1 support"), so every line
 *    accepts it; v7.0 only dropped MODULE_SIG_SHA1, the choice to sign
 *    the kernel's own modules with it;
 *  - sha3-* arrived in v6.7 ("crypto: x509 pkcs7 - allow FIPS 202 SHA-3
 *    signatures", Oct 2023: pkcs7_sig_note_digest_algo, the ecdsa-with-
 *    SHA3 SignerInfo OIDs, the RSA/ECDSA SHA-3 X.509 OIDs and the ECDSA
 *    hash list of software_key_determine_akcipher);
 *  - sm3 and streebog arrived in the PKCS#7 parser in v6.0 ("pkcs7:
 *    parser support SM2 and SM3 algorithms combination", "pkcs7: support
 *    EC-RDSA/streebog in SignerInfo"; 5.12.9's and 5.19's parsers have
 *    neither, 6.0.1's both), so they are parsed by every line from 6.1,
 *    but the test kernel (like Debian's) builds neither, so
 *    crypto_alloc_shash() fails: -ENOPKG.  5.10's parser knows neither:
 *    -ENOPKG at the parse ("Unsupported digest algo").
 */
#define WHY_MD45 "unsupported digest algorithm: md4 and md5 left the " \
	"kernel's PKCS#7 parser in v6.7 (pkcs7_sig_note_digest_algo)"
#define WHY_SHA3 "unsupported digest algorithm: SHA-3 digests arrived in " \
	"the kernel's PKCS#7 parser in v6.7 (pkcs7_sig_note_digest_algo)"
#define WHY_SM3 "unsupported digest algorithm: sm3 and streebog digests " \
	"arrived in the kernel's PKCS#7 parser in v6.0 " \
	"(pkcs7_sig_note_digest_algo)"
#define WHY_SHA1 "unsupported digest algorithm: 6.7 and 6.8's PKCS#7 " \
	"parser has no SHA-1 (back in v6.9)"
#define NOT_BUILT(name, opt) "digest algorithm not available in the " \
	"kernel: it has no " name " (" opt " is not set)"
static const struct rules_hash hashes[] = {
	{ "1.2.840.113549.2.4", "md4", "md4", UNTIL(6, 7), NONE, false, false,
	  WHY_MD45,
	  "digest algorithm not available in the kernel: no kernel has "
	  "md4's pkcs1pad DigestInfo",
	  "MD4 is broken for signatures; use sha256 or better" },
	{ "1.2.840.113549.2.5", "md5", "md5", UNTIL(6, 7), NONE, true, false,
	  WHY_MD45,
	  NOT_BUILT("md5", "CONFIG_CRYPTO_MD5"),
	  "MD5 is broken for signatures and gone from the kernel's parsers "
	  "since v6.7; use sha256 or better" },
	{ "1.3.14.3.2.26", "sha1", "sha1", ALWAYS, FROM_TO(6, 7, 6, 9), true,
	  true, WHY_SHA1,
	  NOT_BUILT("sha1", "CONFIG_CRYPTO_SHA1"),
	  "SHA-1 is broken for signatures and gone from the kernel's hash "
	  "choices; use sha256 or better" },
	{ "2.16.840.1.101.3.4.2.4", "sha224", "sha224", ALWAYS, NONE, true, true,
	  NULL, NOT_BUILT("sha224", "CONFIG_CRYPTO_SHA256"), NULL },
	{ "2.16.840.1.101.3.4.2.1", "sha256", "sha256", ALWAYS, NONE, true, true,
	  NULL, NOT_BUILT("sha256", "CONFIG_CRYPTO_SHA256"), NULL },
	{ "2.16.840.1.101.3.4.2.2", "sha384", "sha384", ALWAYS, NONE, true, true,
	  NULL, NOT_BUILT("sha384", "CONFIG_CRYPTO_SHA512"), NULL },
	{ "2.16.840.1.101.3.4.2.3", "sha512", "sha512", ALWAYS, NONE, true, true,
	  NULL, NOT_BUILT("sha512", "CONFIG_CRYPTO_SHA512"), NULL },
	{ "2.16.840.1.101.3.4.2.8", "sha3-256", "sha3-256", SINCE(6, 7), NONE,
	  true, true, WHY_SHA3,
	  NOT_BUILT("sha3-256", "CONFIG_CRYPTO_SHA3"), NULL },
	{ "2.16.840.1.101.3.4.2.9", "sha3-384", "sha3-384", SINCE(6, 7), NONE,
	  true, true, WHY_SHA3,
	  NOT_BUILT("sha3-384", "CONFIG_CRYPTO_SHA3"), NULL },
	{ "2.16.840.1.101.3.4.2.10", "sha3-512", "sha3-512", SINCE(6, 7), NONE,
	  true, true, WHY_SHA3,
	  NOT_BUILT("sha3-512", "CONFIG_CRYPTO_SHA3"), NULL },
	{ "1.2.156.10197.1.401", "sm3", "sm3", SINCE(6, 0), NONE, false, false,
	  WHY_SM3,
	  NOT_BUILT("sm3", "CONFIG_CRYPTO_SM3_GENERIC"), NULL },
	{ "1.2.643.7.1.1.2.2", "streebog256", NULL, SINCE(6, 0), NONE, false,
	  false, WHY_SM3,
	  NOT_BUILT("streebog256", "CONFIG_CRYPTO_STREEBOG"), NULL },
	{ "1.2.643.7.1.1.2.3", "streebog512", NULL, SINCE(6, 0), NONE, false,
	  false, WHY_SM3,
	  NOT_BUILT("streebog512", "CONFIG_CRYPTO_STREEBOG"), NULL },
};

/*
 * SignerInfo signature algorithms: rsaEncryption only for RSA (no
 * sha256WithRSAEncryption), ecdsa-with-* whose hash is ignored, and since
 * v7.0 pure ML-DSA (b63c90720348, "pkcs7, x509: Add ML-DSA support":
 * pkcs7_sig_note_pkey_algo sets pkey_algo "mldsa44/65/87", encoding
 * "raw", algo_takes_data).  The SHA-3 ECDSA OIDs came with the v6.7 SHA-3
 * work.  GOST R 34.10-2012 keys' OIDs name an "ecrdsa" signature on every
 * line: on an RSA or ECDSA key that fails public_key_verify_signature()
 * -EKEYREJECTED, as any other mismatch (a real 6.1, 6.12 and 7.3 kernel,
 * seed 6105 of tests/kernel/kernel-mutants.sh).
 */
#define WHY_SHA3_SIG "unsupported signature algorithm: the SHA-3 signature " \
	"OIDs arrived in v6.7"
#define WHY_MLDSA_SIG "unsupported signature algorithm: ML-DSA arrived in " \
	"v7.0 (pkcs7_sig_note_pkey_algo, x509_note_sig_algo)"
#define WHY_MD45_SIG "unsupported signature algorithm: md4 and md5 left " \
	"the kernel's X.509 parser in v6.7"
/* SM2-with-SM3: 6.1's pkcs7_sig_note_pkey_algo() and x509_note_sig_algo()
 * still know it (pkey_algo "sm2", encoding "raw"; no BIT STRING unused-bits
 * octet to discard), so a SignerInfo naming it on another key's signature
 * fails public_key_verify_signature() -EKEYREJECTED there; the 6.12 and
 * 7.3 parsers no longer have it (-ENOPKG).  SM2 left the kernel in v6.11:
 * 6.10.0 (msgeden/cryptocap-arm64-linux-6.10) still has crypto/sm2.c and
 * SM2 in the X.509 and PKCS#7 parsers, 6.11.11 (segzix/linux-6.11.11)
 * none of them */
#define WHY_SM2_SIG "unsupported signature algorithm: SM2 came to the " \
	"PKCS#7 parser in v6.0 (5.10's X.509 parser has it) and left the " \
	"kernel in v6.11"
/* Until v5.15 pkcs7_sig_note_pkey_algo() takes rsaEncryption alone
 * ("Unsupported pkey algo": -ENOPKG): ECDSA keys and certificate
 * signatures came in v5.13, ECDSA SignerInfos (and MODULE_SIG_KEY_TYPE_ECDSA)
 * only in v5.15 (5.14.2's parser has none, 5.15.16's has them); 5.10's
 * x509_note_pkey_algo() takes no ECDSA signature either */
#define WHY_ECDSA_SIG "unsupported signature algorithm: ECDSA SignerInfos " \
	"arrived in v5.15; before, the PKCS#7 parser takes rsaEncryption " \
	"only (pkcs7_sig_note_pkey_algo)"
#define WHY_ECDSA_X509 "unsupported certificate signature algorithm: " \
	"ECDSA arrived in v5.13 (x509_note_pkey_algo)"
#define WHY_GOST_SIG "unsupported signature algorithm: GOST SignerInfos " \
	"arrived in the kernel's PKCS#7 parser in v6.0 " \
	"(pkcs7_sig_note_pkey_algo)"
static const struct rules_sinfo_algo sinfo_algos[] = {
	{ "1.2.840.113549.1.1.1", "rsaEncryption", "rsa", "pkcs1", ALWAYS, false, NULL },
	{ "1.2.840.10045.4.1", "ecdsa-with-SHA1", "ecdsa", "x962", SINCE(5, 15), false, WHY_ECDSA_SIG },
	{ "1.2.840.10045.4.3.1", "ecdsa-with-SHA224", "ecdsa", "x962", SINCE(5, 15), false, WHY_ECDSA_SIG },
	{ "1.2.840.10045.4.3.2", "ecdsa-with-SHA256", "ecdsa", "x962", SINCE(5, 15), false, WHY_ECDSA_SIG },
	{ "1.2.840.10045.4.3.3", "ecdsa-with-SHA384", "ecdsa", "x962", SINCE(5, 15), false, WHY_ECDSA_SIG },
	{ "1.2.840.10045.4.3.4", "ecdsa-with-SHA512", "ecdsa", "x962", SINCE(5, 15), false, WHY_ECDSA_SIG },
	{ "2.16.840.1.101.3.4.3.10", "ecdsa-with-SHA3-256", "ecdsa", "x962", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.11", "ecdsa-with-SHA3-384", "ecdsa", "x962", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.12", "ecdsa-with-SHA3-512", "ecdsa", "x962", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "1.2.156.10197.1.501", "sm2-with-sm3", "sm2", "raw", FROM_TO(6, 0, 6, 11), false, WHY_SM2_SIG },
	{ "1.2.643.7.1.1.1.1", "GOST R 34.10-2012 (256)", "ecrdsa", "raw", SINCE(6, 0), false, WHY_GOST_SIG },
	{ "1.2.643.7.1.1.1.2", "GOST R 34.10-2012 (512)", "ecrdsa", "raw", SINCE(6, 0), false, WHY_GOST_SIG },
	{ "2.16.840.1.101.3.4.3.17", "ML-DSA-44", "mldsa44", "raw", SINCE(7, 0), true, WHY_MLDSA_SIG },
	{ "2.16.840.1.101.3.4.3.18", "ML-DSA-65", "mldsa65", "raw", SINCE(7, 0), true, WHY_MLDSA_SIG },
	{ "2.16.840.1.101.3.4.3.19", "ML-DSA-87", "mldsa87", "raw", SINCE(7, 0), true, WHY_MLDSA_SIG },
};

/* X.509 signature algorithms (x509_note_sig_algo); ML-DSA certificates
 * get hash_algo "none" and are verified over the TBS itself (v7.0). */
static const struct rules_x509_algo x509_algos[] = {
	/* include/linux/oid_registry.h names 1.2.840.113549.1.1.4 (which is
	 * md5WithRSAEncryption) OID_md4WithRSAEncryption, and .1.1.3 (the
	 * real md4WithRSAEncryption) md3: so an md5WithRSA certificate has a
	 * "md4" signature, which no kernel can check (unsupported_sig: it
	 * still loads), and an md4WithRSA one is -ENOPKG (a real 5.10
	 * kernel, corpus case c86) */
	{ "1.2.840.113549.1.1.4", "rsa", "pkcs1", "md4", UNTIL(6, 7), false, WHY_MD45_SIG },
	{ "1.2.840.113549.1.1.5", "rsa", "pkcs1", "sha1", ALWAYS, false, NULL },
	{ "1.2.840.113549.1.1.14", "rsa", "pkcs1", "sha224", ALWAYS, false, NULL },
	{ "1.2.840.113549.1.1.11", "rsa", "pkcs1", "sha256", ALWAYS, false, NULL },
	{ "1.2.840.113549.1.1.12", "rsa", "pkcs1", "sha384", ALWAYS, false, NULL },
	{ "1.2.840.113549.1.1.13", "rsa", "pkcs1", "sha512", ALWAYS, false, NULL },
	{ "2.16.840.1.101.3.4.3.14", "rsa", "pkcs1", "sha3-256", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.15", "rsa", "pkcs1", "sha3-384", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.16", "rsa", "pkcs1", "sha3-512", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "1.2.840.10045.4.1", "ecdsa", "x962", "sha1", SINCE(5, 13), false, WHY_ECDSA_X509 },
	{ "1.2.840.10045.4.3.1", "ecdsa", "x962", "sha224", SINCE(5, 13), false, WHY_ECDSA_X509 },
	{ "1.2.840.10045.4.3.2", "ecdsa", "x962", "sha256", SINCE(5, 13), false, WHY_ECDSA_X509 },
	{ "1.2.840.10045.4.3.3", "ecdsa", "x962", "sha384", SINCE(5, 13), false, WHY_ECDSA_X509 },
	{ "1.2.840.10045.4.3.4", "ecdsa", "x962", "sha512", SINCE(5, 13), false, WHY_ECDSA_X509 },
	{ "2.16.840.1.101.3.4.3.10", "ecdsa", "x962", "sha3-256", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.11", "ecdsa", "x962", "sha3-384", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "2.16.840.1.101.3.4.3.12", "ecdsa", "x962", "sha3-512", SINCE(6, 7), false, WHY_SHA3_SIG },
	{ "1.2.156.10197.1.501", "sm2", "raw", "sm3", UNTIL(6, 11), false, WHY_SM2_SIG },
	/* GOST R 34.10-2012: every line's x509_note_sig_algo() knows it
	 * (pkey_algo "ecrdsa"); no kernel here builds streebog, so such a
	 * signature stays unchecked (unsupported_sig), but the certificate
	 * parses on to the checks after it */
	{ "1.2.643.7.1.1.3.2", "ecrdsa", "raw", "streebog256", ALWAYS, false, NULL },
	{ "1.2.643.7.1.1.3.3", "ecrdsa", "raw", "streebog512", ALWAYS, false, NULL },
	{ "2.16.840.1.101.3.4.3.17", "mldsa44", "raw", "none", SINCE(7, 0), true, WHY_MLDSA_SIG },
	{ "2.16.840.1.101.3.4.3.18", "mldsa65", "raw", "none", SINCE(7, 0), true, WHY_MLDSA_SIG },
	{ "2.16.840.1.101.3.4.3.19", "mldsa87", "raw", "none", SINCE(7, 0), true, WHY_MLDSA_SIG },
};

/*
 * Public keys (x509_extract_key_data): RSA, id-ecPublicKey (the curve
 * names the algorithm), GOST R 34.10-2012 ("ecrdsa", every line), SM2
 * (6.1 only of the lines: gone in v6.11) and, since v7.0, ML-DSA, whose key is the BIT
 * STRING's content and must have its parameter set's length
 * (crypto/mldsa.c crypto_mldsa_set_pub_key: 1312, 1952, 2592 bytes).
 * GOST and SM2 keys parse, so a signature of another algorithm on them
 * is -EKEYREJECTED (public_key_verify_signature), not -ENOPKG: a real
 * 6.1 kernel, seed 6104 of tests/kernel/kernel-mutants.sh.
 */
const char rules_why_key_algo[] = "the kernel takes RSA, ECDSA, GOST, SM2 "
	"(until v6.11) and ML-DSA (since v7.0) keys only "
	"(x509_extract_key_data)";
#define WHY_MLDSA "ML-DSA keys arrived in v7.0 (x509_extract_key_data)"
#define WHY_SM2 "SM2 keys left the kernel in v6.11, and 5.10 knows no SM2 " \
	"key OID (x509_extract_key_data)"
static const struct rules_key_algo key_algos[] = {
	{ "1.2.840.113549.1.1.1", "rsa", ALWAYS, 0, NULL },
	{ "1.2.840.10045.2.1", NULL, ALWAYS, 0, NULL },
	{ "1.2.643.7.1.1.1.1", "ecrdsa", ALWAYS, 0, NULL },
	{ "1.2.643.7.1.1.1.2", "ecrdsa", ALWAYS, 0, NULL },
	/* the SM2 OID as the key's algorithm: from v5.13 (5.10 names every
	 * id-ecPublicKey key "sm2" instead: ec_keys_sm2) */
	{ "1.2.156.10197.1.301", "sm2", FROM_TO(5, 13, 6, 11), 0, WHY_SM2 },
	{ "2.16.840.1.101.3.4.3.17", "mldsa44", SINCE(7, 0), 1312, WHY_MLDSA },
	{ "2.16.840.1.101.3.4.3.18", "mldsa65", SINCE(7, 0), 1952, WHY_MLDSA },
	{ "2.16.840.1.101.3.4.3.19", "mldsa87", SINCE(7, 0), 2592, WHY_MLDSA },
};

/*
 * Named curves; P-521 arrived in v6.10 ("crypto: ecdsa - Register NIST
 * P521 and extend test suite").  crypto/ecdsa.c registers P-192 too (not
 * in FIPS mode, which Debian's kernels do not boot in).  Anything else
 * (secp256k1, brainpool) is -ENOPKG at the parse.
 */
const char rules_why_curve[] = "the kernel's ECDSA takes the NIST curves "
	"P-192, P-256, P-384 and (since v6.10) P-521 only "
	"(x509_extract_key_data)";
static const struct rules_curve curves[] = {
	{ "1.2.840.10045.3.1.1", "ecdsa-nist-p192", ALWAYS, 24, NULL },
	{ "1.2.840.10045.3.1.7", "ecdsa-nist-p256", ALWAYS, 32, NULL },
	{ "1.3.132.0.34", "ecdsa-nist-p384", ALWAYS, 48, NULL },
	{ "1.3.132.0.35", "ecdsa-nist-p521", SINCE(6, 10), 66,
	  "NIST P-521 keys arrived in v6.10 (x509_extract_key_data)" },
	/* 6.1 also takes SM2 named as a curve of id-ecPublicKey */
	{ "1.2.156.10197.1.301", "sm2", FROM_TO(5, 13, 6, 11), 32, WHY_SM2 },
};

/*
 * RSA key sizes: crypto/rsa.c rsa_set_pub_key() reads the modulus with
 * mpi_read_raw_data(), which drops leading zero bytes and counts 64-bit
 * limbs (BITS_PER_LONG on the 64-bit kernels this models), and
 * rsa_check_key_length(mpi_get_size(n) << 3) takes the sizes below; the
 * three smallest only without fips=1 (not Debian's default boot).  The
 * same code in 6.1, 6.12 and 7.3.  mpi_get_size() is also the key size
 * pkcs1pad (6.x) and rsassa-pkcs1 (7.x) make a signature's length match.
 * Over 16384 bits mpi_read_raw_data() gives up and the kernel returns
 * -ENOMEM; that is counted as a wrong size (-EINVAL) here.
 */
static const char rules_why_rsa_size[] = "the kernel's RSA takes only 512, 1024, "
	"1536 (not with fips=1), 2048, 3072 and 4096-bit keys "
	"(rsa_check_key_length)";
static const unsigned rsa_bits[] = { 512, 1024, 1536, 2048, 3072, 4096 };

/*
 * Per-line switches (commits found with the source search):
 *  - keyUsage/basicConstraints parsing arrived in v6.4 (30eae2b037af
 *    "KEYS: X.509: Parse Basic Constraints for CA", 567671281a75 "KEYS:
 *    X.509: Parse Key Usage"); 6.1 ignores both.  Debian's 6.12.118 has
 *    the strict form a stable update brought: basicConstraints empty or
 *    cA TRUE, anything else (an explicit FALSE too) fails the parse; the
 *    real-kernel stage (tests/kernel) caught our older, lenient reading;
 *  - is_key_on_revocation_list() ran only for the platform keyring until
 *    v6.6 (218a2680624c "certs: Reference revocation list for all
 *    keyrings", tpmdd-v6.6), so module verification on 6.1 skips it;
 *  - v7.0 looks certificates up in the blacklist by SHA-256(TBS) only
 *    (2c62068ac86b "x509: Separately calculate sha256 for blacklist");
 *  - Debian's module whole-file hash check is in its 6.1 and 6.12
 *    (kernel/module/signing.c mod_is_hash_blacklisted), gone from its
 *    6.17 on ("Don't longer use UEFI DBX for module denylisting");
 *  - x509_akid.asn1's GeneralName alternatives are IMPLICIT in 6.12 and
 *    7.3 (otherName a SEQUENCE { OID, [0] ANY }, the strings primitive),
 *    EXPLICIT in 6.1: an AKID naming its issuer as an otherName with
 *    a Name's contents is a good parse on 6.1 and -EBADMSG on 6.12 (real
 *    kernels, seed 255974488 of tests/kernel/kernel-mutants.sh);
 *  - the ML-DSA authattrs waiver (v7.0) is a Kconfig default-n option:
 *    only a .config turns it on.
 */
/* Each switch of struct rules_rules, by the releases it holds for. */
static const struct {
	size_t off;
	struct rules_span on;
} switches[] = {
#define SW(field, span) { offsetof(struct rules_rules, field), span }
	SW(x509_constraints, SINCE(6, 4)),
	/* 6.7: "X.509: Add missing IMPLICIT annotations to AKID ASN.1
	 * module": x509_akid.asn1 has them in 6.7.3, 6.8.0 and 6.9.0, not
	 * in 6.6.9 nor 6.6.63 (so no stable backport) */
	SW(akid_implicit_names, SINCE(6, 7)),
	SW(revocation_all_keyrings, SINCE(6, 6)),
	SW(tbs_blacklist_sha256, SINCE(7, 0)),
	SW(module_bin_blacklist, UNTIL(6, 17)),
	/* 5.13: "x509: Detect sm2 keys by their parameters OID" and ECDSA */
	SW(ec_keys_sm2, UNTIL(5, 13)),
	SW(old_pkey_algo_checks, UNTIL(5, 18)),
	/* "crypto: rsa - restrict plaintext/ciphertext values more" (6.9:
	 * rsa_check_payload() is in 6.9.0's crypto/rsa.c, not in 6.8.0's
	 * nor 6.8.1's) */
	SW(rsa_payload_strict, SINCE(6, 9)),
#undef SW
};

/* The lines: releases a real kernel of the stage confirms. */
static const struct {
	int major, minor;
	const char *name;
} line_at[RULES_NLINES] = {
	[RULES_5_10] = { 5, 10, "5.10" },
	[RULES_6_1] = { 6, 1, "6.1" },
	[RULES_6_12] = { 6, 12, "6.12" },
	[RULES_7_3] = { 7, 3, "7.3" },
};
const char rules_oldest[] = "5.10";

/*
 * The line a release is reported with (JSON "kernel"): the one whose
 * rules it shares most, by the first release of each range; and what a
 * release that is not the line's own gets, said once: its rules as the
 * kernel's history has them (the spans above), which no real kernel of
 * that release confirmed.
 */
static const struct {
	int since;
	enum rules_line line;
	const char *note;
} ranges[] = {
	{ RULES_V(5, 10), RULES_5_10, "5.10's rules, which the kernel's history "
	  "keeps until v5.13 (not confirmed by a real kernel of that "
	  "release)" },
	{ RULES_V(5, 13), RULES_6_1, "6.1's rules as the kernel's history has them "
	  "for that release (not confirmed by a real kernel of it): ECDSA "
	  "keys from v5.13 and SignerInfos from v5.15, sm3, SM2, GOST and "
	  "streebog in the PKCS#7 parser "
	  "from v6.0, and before v5.18 no check of the "
	  "key's algorithm against the signature's" },
	{ RULES_V(6, 2), RULES_6_1, "6.1's rules as the kernel's history has them "
	  "for that release (not confirmed by a real kernel of it): "
	  "keyUsage and basicConstraints parsed from v6.4, the revocation "
	  "list for every keyring from v6.6" },
	{ RULES_V(6, 7), RULES_6_12, "6.12's rules as the kernel's history has them "
	  "for that release (not confirmed by a real kernel of it): no SHA-1 "
	  "in 6.7 and 6.8, the RSA value range only from v6.9, P-521 only "
	  "from v6.10, and SM2 until v6.11" },
	{ RULES_V(6, 13), RULES_6_12, "6.12's rules as the kernel's history has "
	  "them for that release (not confirmed by a real kernel of it): "
	  "Debian's module whole-file hash check until its 6.17" },
	{ RULES_V(7, 0), RULES_7_3, "7.3's rules, which the kernel's history has "
	  "from v7.0 (not confirmed by a real kernel of that release)" },
	{ RULES_V(7, 4), RULES_7_3, "newer than 7.3, the newest line this tool "
	  "knows: judged by 7.3's rules" },
};

bool rules_on(const struct rules_rules *kr, struct rules_span span)
{
	return kr->version >= span.since &&
	       (!span.until || kr->version < span.until);
}

const char *rules_label(const struct rules_rules *kr)
{
	return kr->asked[0] ? kr->asked : kr->name;
}

/* A hash the release's PKCS#7 parser names (pkcs7_sig_note_digest_algo) */
static bool hash_parsed(const struct rules_rules *kr, const struct rules_hash *h)
{
	return rules_on(kr, h->pkcs7) && !(h->gap.since && rules_on(kr, h->gap));
}

int rules_resolve_mm(int major, int minor, struct rules_rules *out,
		  const char **note)
{
	int v = RULES_V(major, minor), newest;
	size_t i, at = 0;

	if (note)
		*note = NULL;
	if (major < 0 || minor < 0 || minor > 999 || major > 999)
		return -EINVAL;
	if (v < ranges[0].since)
		return -ERANGE;
	for (i = 0; i < N(ranges); i++)
		if (v >= ranges[i].since)
			at = i;
	memset(out, 0, sizeof(*out));
	out->line = ranges[at].line;
	out->name = line_at[out->line].name;
	out->exact = v == RULES_V(line_at[out->line].major,
			       line_at[out->line].minor);
	if (!out->exact)
		snprintf(out->asked, sizeof(out->asked), "%d.%d", major,
			 minor);
	/* past the newest line nothing is known: its rules as they are */
	newest = RULES_V(line_at[RULES_NLINES - 1].major,
		      line_at[RULES_NLINES - 1].minor);
	out->version = v > newest ? newest : v;
	for (i = 0; i < N(switches); i++)
		*(bool *)((char *)out + switches[i].off) =
			rules_on(out, switches[i].on);
	if (note && !out->exact)
		*note = ranges[at].note;
	return 0;
}

int rules_resolve(const char *name, struct rules_rules *out, const char **note)
{
	unsigned long major, minor;
	char *end;

	if (note)
		*note = NULL;
	if (!name || name[0] < '0' || name[0] > '9')
		return -EINVAL;
	major = strtoul(name, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	minor = strtoul(end + 1, &end, 10);
	/* 6.1.192, 6.12.0-12-amd64, 7.3.4+deb13, or nothing more */
	if (*end && *end != '.' && *end != '-' && *end != '+')
		return -EINVAL;
	if (major > 999 || minor > 999)
		return -EINVAL;
	return rules_resolve_mm((int)major, (int)minor, out, note);
}

static struct rules_rules lines[RULES_NLINES];
static pthread_once_t lines_once = PTHREAD_ONCE_INIT;

static void resolve_lines(void)
{
	for (int i = 0; i < RULES_NLINES; i++)
		rules_resolve_mm(line_at[i].major, line_at[i].minor, &lines[i],
			      NULL);
}

const struct rules_rules *rules_get(enum rules_line line)
{
	if (line >= RULES_NLINES)
		return NULL;
	pthread_once(&lines_once, resolve_lines);
	return &lines[line];
}

const char *rules_line_names(void)
{
	return "5.10, 6.1, 6.12, 7.3";
}

const struct rules_hash *rules_pkcs7_hash(const struct rules_rules *kr,
				    const char *oid)
{
	const struct rules_hash *h = rules_hash_by_oid(oid);

	return h && hash_parsed(kr, h) ? h : NULL;
}

const struct rules_hash *rules_hash_by_oid(const char *oid)
{
	size_t i;

	for (i = 0; i < N(hashes); i++)
		if (strcmp(hashes[i].oid, oid) == 0)
			return &hashes[i];
	return NULL;
}

const struct rules_hash *rules_hash_by_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < N(hashes); i++)
		if (strcmp(hashes[i].name, name) == 0)
			return &hashes[i];
	return NULL;
}

const struct rules_sinfo_algo *rules_sinfo_algo(const struct rules_rules *kr,
					  const char *oid)
{
	size_t i;

	for (i = 0; i < N(sinfo_algos); i++)
		if (rules_on(kr, sinfo_algos[i].on) &&
		    strcmp(sinfo_algos[i].oid, oid) == 0)
			return &sinfo_algos[i];
	return NULL;
}

const struct rules_x509_algo *rules_x509_algo(const struct rules_rules *kr,
					const char *oid)
{
	size_t i;

	for (i = 0; i < N(x509_algos); i++)
		if (rules_on(kr, x509_algos[i].on) &&
		    strcmp(x509_algos[i].oid, oid) == 0)
			return &x509_algos[i];
	return NULL;
}

const char *rules_sinfo_algo_absent(const char *oid)
{
	size_t i;

	for (i = 0; i < N(sinfo_algos); i++)
		if (strcmp(sinfo_algos[i].oid, oid) == 0 && sinfo_algos[i].absent)
			return sinfo_algos[i].absent;
	return "unsupported signature algorithm";
}

const char *rules_x509_algo_absent(const char *oid)
{
	size_t i;

	for (i = 0; i < N(x509_algos); i++)
		if (strcmp(x509_algos[i].oid, oid) == 0 && x509_algos[i].absent)
			return x509_algos[i].absent;
	return "unsupported certificate signature algorithm";
}

const struct rules_key_algo *rules_key_algo(const char *oid)
{
	size_t i;

	for (i = 0; i < N(key_algos); i++)
		if (strcmp(key_algos[i].oid, oid) == 0)
			return &key_algos[i];
	return NULL;
}

const struct rules_curve *rules_curve(const char *oid)
{
	size_t i;

	for (i = 0; i < N(curves); i++)
		if (strcmp(curves[i].oid, oid) == 0)
			return &curves[i];
	return NULL;
}

int rules_rsa_modulus(size_t n_bytes, size_t *key_size, const char **why)
{
	size_t limbs = (n_bytes + 7) / 8, i;

	*key_size = limbs * 8;
	for (i = 0; i < N(rsa_bits); i++)
		if (limbs * 64 == rsa_bits[i])
			return 0;
	*why = rules_why_rsa_size;
	return -EINVAL;
}

static const struct {
	const char *name;
	size_t n;		/* prefix length compared, 0: whole name */
	enum rules_crypto bit;
} crypto_names[] = {
	{ "md5", 0, RULES_C_MD5 },
	{ "sha1", 0, RULES_C_SHA1 },
	{ "sha224", 0, RULES_C_SHA256 },
	{ "sha256", 0, RULES_C_SHA256 },
	{ "sha384", 0, RULES_C_SHA512 },
	{ "sha512", 0, RULES_C_SHA512 },
	{ "sha3-", 5, RULES_C_SHA3 },
	{ "sm3", 0, RULES_C_SM3 },
	{ "streebog", 8, RULES_C_STREEBOG },
	{ "rsa", 0, RULES_C_RSA },
	{ "ecdsa", 5, RULES_C_ECDSA },
	{ "mldsa", 5, RULES_C_MLDSA },
};

enum rules_crypto rules_crypto_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < N(crypto_names); i++)
		if (crypto_names[i].n ?
		    strncmp(name, crypto_names[i].name, crypto_names[i].n) == 0 :
		    strcmp(name, crypto_names[i].name) == 0)
			return crypto_names[i].bit;
	return RULES_C_NONE;
}

static bool config_has(const struct rules_rules *kr, const char *name)
{
	enum rules_crypto b = rules_crypto_of(name);

	return b != RULES_C_NONE && (kr->crypto & (1u << b));
}

bool rules_hash_available(const struct rules_rules *kr, const struct rules_hash *h)
{
	if (!h || !rules_md(h))
		return false;
	/* a .config replaces the column; md4 has no bit (no pkcs1pad
	 * digest-info template: absent on every build) */
	if (kr->from_config)
		return config_has(kr, h->name);
	return h->built;
}

bool rules_pkey_available(const struct rules_rules *kr, const char *pkey_algo)
{
	/* the line's own tables already refused what it has no parser for */
	return !kr->from_config || config_has(kr, pkey_algo);
}

/*
 * Each hash's OpenSSL digest, fetched once.  A digest looked up by name
 * (EVP_get_digestbyname) is fetched again from the provider at every
 * EVP_DigestInit, under the method store's lock: per module of a tree
 * that is a name lookup and a lock round trip on every CPU.  Also each
 * hash's OID in DER, for the pkcs1pad DigestInfo (public_key.c).
 */
static struct {
	EVP_MD *md;
	uint8_t oid[20];
	size_t oid_len;
} fetched[N(hashes)];
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;

static void release_fetched(void)
{
	/* an OPENSSL_atexit() handler: OPENSSL_cleanup() runs it first,
	 * at exit or when a main calls it (openssl_init_done) */
	for (size_t i = 0; i < N(hashes); i++) {
		EVP_MD_free(fetched[i].md);
		fetched[i].md = NULL;
	}
}

static void fetch_all(void)
{
	for (size_t i = 0; i < N(hashes); i++) {
		ASN1_OBJECT *o = OBJ_txt2obj(hashes[i].oid, 1);
		unsigned char *p = fetched[i].oid;
		int n = o ? i2d_ASN1_OBJECT(o, NULL) : 0;

		if (n > 0 && (size_t)n <= sizeof(fetched[i].oid) &&
		    i2d_ASN1_OBJECT(o, &p) == n)
			fetched[i].oid_len = (size_t)n;
		ASN1_OBJECT_free(o);
		if (hashes[i].ossl)
			fetched[i].md = EVP_MD_fetch(NULL, hashes[i].ossl,
						     NULL);
	}
	ERR_clear_error();	/* md4 without the legacy provider */
	OPENSSL_atexit(release_fetched);
}

static ptrdiff_t hash_index(const struct rules_hash *h)
{
	if (!h || h < hashes || h >= hashes + N(hashes))
		return -1;
	pthread_once(&fetch_once, fetch_all);
	return h - hashes;
}

const EVP_MD *rules_md(const struct rules_hash *h)
{
	ptrdiff_t i = hash_index(h);

	return i < 0 ? NULL : fetched[i].md;
}

const uint8_t *rules_hash_oid_der(const struct rules_hash *h, size_t *len)
{
	ptrdiff_t i = hash_index(h);

	*len = i < 0 ? 0 : fetched[i].oid_len;
	return *len ? fetched[i].oid : NULL;
}

/* The row of an OpenSSL digest, by its OID. */
static const struct rules_hash *hash_of_md(const EVP_MD *md)
{
	const ASN1_OBJECT *o = OBJ_nid2obj(EVP_MD_get_type(md));
	char oid[64];

	if (!o || OBJ_obj2txt(oid, sizeof(oid), o, 1) <= 0) {
		ERR_clear_error();
		return NULL;
	}
	return rules_hash_by_oid(oid);
}

/* pkcs7_sig_note_digest_algo(), then pkcs7_digest()'s allocation. */
static int hash_enabled(const struct rules_rules *kr, const struct rules_hash *h,
		     const char **why)
{
	if (!h) {
		*why = "unsupported digest algorithm: no kernel's PKCS#7 "
		       "parser knows it (use sha256, sha384, sha512 or "
		       "sha3-*)";
		return -ENOPKG;
	}
	if (!hash_parsed(kr, h)) {
		*why = h->unparsed;
		return -ENOPKG;
	}
	if (!rules_hash_available(kr, h)) {
		*why = h->unavailable;
		return -ENOPKG;
	}
	return 0;
}

int rules_digest_check(const struct rules_rules *kr, const EVP_MD *md,
		    const char **why, const char **advice)
{
	const struct rules_hash *h = hash_of_md(md);
	int ret = 0;

	*why = NULL;
	*advice = h ? h->advice : NULL;
	if (kr)
		return hash_enabled(kr, h, why);
	/* no line named: only what every line refuses, in the newest
	 * line's words */
	for (int l = RULES_NLINES - 1; l >= 0; l--) {
		const char *w;
		int r = hash_enabled(rules_get((enum rules_line)l), h, &w);

		if (!r)
			return 0;
		if (!ret) {
			ret = r;
			*why = w;
		}
	}
	return ret;
}
