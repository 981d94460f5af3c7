// SPDX-License-Identifier: GPL-2.0-or-later
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>

#include "kernel/rules.h"

#define L61 KR_LINE(KR_6_1)
#define L612 KR_LINE(KR_6_12)

/*
 * §3.4 digest table.  Kernel history behind the columns:
 *  - md4/md5 left the PKCS#7 and X.509 parsers in v6.7 (8468516f9f93
 *    "crypto: pkcs7 - remove md4 md5 x.509 support"), so 6.1 still parses
 *    them;
 *  - sha1 was removed in v6.7 (16ab7cb5825f) and restored in v6.9-rc1
 *    (203a6763ab69, "Revert ... remove sha1 support"), so both lines
 *    accept it;
 *  - sha3-* arrived in v6.7 ("crypto: x509 pkcs7 - allow FIPS 202 SHA-3
 *    signatures", Oct 2023: pkcs7_sig_note_digest_algo, the ecdsa-with-
 *    SHA3 SignerInfo OIDs, the RSA/ECDSA SHA-3 X.509 OIDs and the ECDSA
 *    hash list of software_key_determine_akcipher), so only 6.12 has them;
 *  - sm3 and streebog are parsed by both, but the test kernel builds
 *    neither (kernel-needs.txt), so crypto_alloc_shash() fails: -ENOPKG.
 *  - md4 has no pkcs1pad digest-info template, so it counts as absent.
 */
static const struct kr_hash hashes[] = {
	{ "1.2.840.113549.2.4", "md4", "md4", L61, 0, false },
	{ "1.2.840.113549.2.5", "md5", "md5", L61, L61, false },
	{ "1.3.14.3.2.26", "sha1", "sha1", KR_ALL, KR_ALL, true },
	{ "2.16.840.1.101.3.4.2.4", "sha224", "sha224", KR_ALL, KR_ALL, true },
	{ "2.16.840.1.101.3.4.2.1", "sha256", "sha256", KR_ALL, KR_ALL, true },
	{ "2.16.840.1.101.3.4.2.2", "sha384", "sha384", KR_ALL, KR_ALL, true },
	{ "2.16.840.1.101.3.4.2.3", "sha512", "sha512", KR_ALL, KR_ALL, true },
	{ "2.16.840.1.101.3.4.2.8", "sha3-256", "sha3-256", L612, L612, true },
	{ "2.16.840.1.101.3.4.2.9", "sha3-384", "sha3-384", L612, L612, true },
	{ "2.16.840.1.101.3.4.2.10", "sha3-512", "sha3-512", L612, L612, true },
	{ "1.2.156.10197.1.401", "sm3", "sm3", KR_ALL, 0, false },
	{ "1.2.643.7.1.1.2.2", "streebog256", NULL, KR_ALL, 0, false },
	{ "1.2.643.7.1.1.2.3", "streebog512", NULL, KR_ALL, 0, false },
};

/*
 * §3.4 SignerInfo signature algorithms: rsaEncryption only for RSA (no
 * sha256WithRSAEncryption), ecdsa-with-* whose hash is ignored.  The SHA-3
 * ECDSA OIDs came with the v6.7 SHA-3 work.  GOST (ecrdsa) is left out:
 * OpenSSL 3 cannot check it, so such signers stay -ENOPKG here.
 */
static const struct kr_sinfo_algo sinfo_algos[] = {
	{ "1.2.840.113549.1.1.1", "rsaEncryption", "rsa", "pkcs1", KR_ALL },
	{ "1.2.840.10045.4.1", "ecdsa-with-SHA1", "ecdsa", "x962", KR_ALL },
	{ "1.2.840.10045.4.3.1", "ecdsa-with-SHA224", "ecdsa", "x962", KR_ALL },
	{ "1.2.840.10045.4.3.2", "ecdsa-with-SHA256", "ecdsa", "x962", KR_ALL },
	{ "1.2.840.10045.4.3.3", "ecdsa-with-SHA384", "ecdsa", "x962", KR_ALL },
	{ "1.2.840.10045.4.3.4", "ecdsa-with-SHA512", "ecdsa", "x962", KR_ALL },
	{ "2.16.840.1.101.3.4.3.10", "ecdsa-with-SHA3-256", "ecdsa", "x962", L612 },
	{ "2.16.840.1.101.3.4.3.11", "ecdsa-with-SHA3-384", "ecdsa", "x962", L612 },
	{ "2.16.840.1.101.3.4.3.12", "ecdsa-with-SHA3-512", "ecdsa", "x962", L612 },
};

/* §5.2 X.509 signature algorithms (x509_note_sig_algo). */
static const struct kr_x509_algo x509_algos[] = {
	{ "1.2.840.113549.1.1.3", "rsa", "pkcs1", "md4", L61 },
	{ "1.2.840.113549.1.1.4", "rsa", "pkcs1", "md5", L61 },
	{ "1.2.840.113549.1.1.5", "rsa", "pkcs1", "sha1", KR_ALL },
	{ "1.2.840.113549.1.1.14", "rsa", "pkcs1", "sha224", KR_ALL },
	{ "1.2.840.113549.1.1.11", "rsa", "pkcs1", "sha256", KR_ALL },
	{ "1.2.840.113549.1.1.12", "rsa", "pkcs1", "sha384", KR_ALL },
	{ "1.2.840.113549.1.1.13", "rsa", "pkcs1", "sha512", KR_ALL },
	{ "2.16.840.1.101.3.4.3.14", "rsa", "pkcs1", "sha3-256", L612 },
	{ "2.16.840.1.101.3.4.3.15", "rsa", "pkcs1", "sha3-384", L612 },
	{ "2.16.840.1.101.3.4.3.16", "rsa", "pkcs1", "sha3-512", L612 },
	{ "1.2.840.10045.4.1", "ecdsa", "x962", "sha1", KR_ALL },
	{ "1.2.840.10045.4.3.1", "ecdsa", "x962", "sha224", KR_ALL },
	{ "1.2.840.10045.4.3.2", "ecdsa", "x962", "sha256", KR_ALL },
	{ "1.2.840.10045.4.3.3", "ecdsa", "x962", "sha384", KR_ALL },
	{ "1.2.840.10045.4.3.4", "ecdsa", "x962", "sha512", KR_ALL },
	{ "2.16.840.1.101.3.4.3.10", "ecdsa", "x962", "sha3-256", L612 },
	{ "2.16.840.1.101.3.4.3.11", "ecdsa", "x962", "sha3-384", L612 },
	{ "2.16.840.1.101.3.4.3.12", "ecdsa", "x962", "sha3-512", L612 },
};

/* §5.2 named curves; P-521 arrived in v6.10 ("crypto: ecdsa - ... NIST
 * P521"). */
static const struct kr_curve curves[] = {
	{ "1.2.840.10045.3.1.1", "ecdsa-nist-p192", KR_ALL },
	{ "1.2.840.10045.3.1.7", "ecdsa-nist-p256", KR_ALL },
	{ "1.3.132.0.34", "ecdsa-nist-p384", KR_ALL },
	{ "1.3.132.0.35", "ecdsa-nist-p521", L612 },
};

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
 *  - the ML-DSA authattrs waiver is in neither line.
 */
static const struct kr_rules lines[KR_NLINES] = {
	[KR_6_1] = { KR_6_1, "6.1", false, false, false },
	[KR_6_12] = { KR_6_12, "6.12", true, true, false },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct kr_rules *kr_get(enum kr_line line)
{
	return line < KR_NLINES ? &lines[line] : NULL;
}

const struct kr_rules *kr_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < KR_NLINES; i++)
		if (strcmp(lines[i].name, name) == 0)
			return &lines[i];
	return NULL;
}

const struct kr_hash *kr_pkcs7_hash(const struct kr_rules *kr,
				    const char *oid)
{
	size_t i;

	for (i = 0; i < N(hashes); i++)
		if ((hashes[i].pkcs7_lines & KR_LINE(kr->line)) &&
		    strcmp(hashes[i].oid, oid) == 0)
			return &hashes[i];
	return NULL;
}

const struct kr_hash *kr_hash_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < N(hashes); i++)
		if (strcmp(hashes[i].name, name) == 0)
			return &hashes[i];
	return NULL;
}

const struct kr_sinfo_algo *kr_sinfo_algo(const struct kr_rules *kr,
					  const char *oid)
{
	size_t i;

	for (i = 0; i < N(sinfo_algos); i++)
		if ((sinfo_algos[i].lines & KR_LINE(kr->line)) &&
		    strcmp(sinfo_algos[i].oid, oid) == 0)
			return &sinfo_algos[i];
	return NULL;
}

const struct kr_x509_algo *kr_x509_algo(const struct kr_rules *kr,
					const char *oid)
{
	size_t i;

	for (i = 0; i < N(x509_algos); i++)
		if ((x509_algos[i].lines & KR_LINE(kr->line)) &&
		    strcmp(x509_algos[i].oid, oid) == 0)
			return &x509_algos[i];
	return NULL;
}

const struct kr_curve *kr_curve(const struct kr_rules *kr, const char *oid)
{
	size_t i;

	for (i = 0; i < N(curves); i++)
		if ((curves[i].lines & KR_LINE(kr->line)) &&
		    strcmp(curves[i].oid, oid) == 0)
			return &curves[i];
	return NULL;
}

static const struct {
	const char *name;
	size_t n;		/* prefix length compared, 0: whole name */
	enum kr_crypto bit;
} crypto_names[] = {
	{ "md5", 0, KR_C_MD5 },
	{ "sha1", 0, KR_C_SHA1 },
	{ "sha224", 0, KR_C_SHA256 },
	{ "sha256", 0, KR_C_SHA256 },
	{ "sha384", 0, KR_C_SHA512 },
	{ "sha512", 0, KR_C_SHA512 },
	{ "sha3-", 5, KR_C_SHA3 },
	{ "sm3", 0, KR_C_SM3 },
	{ "streebog", 8, KR_C_STREEBOG },
	{ "rsa", 0, KR_C_RSA },
	{ "ecdsa", 5, KR_C_ECDSA },
};

enum kr_crypto kr_crypto_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < N(crypto_names); i++)
		if (crypto_names[i].n ?
		    strncmp(name, crypto_names[i].name, crypto_names[i].n) == 0 :
		    strcmp(name, crypto_names[i].name) == 0)
			return crypto_names[i].bit;
	return KR_C_NONE;
}

static bool config_has(const struct kr_rules *kr, const char *name)
{
	enum kr_crypto b = kr_crypto_of(name);

	return b != KR_C_NONE && (kr->crypto & (1u << b));
}

bool kr_hash_available(const struct kr_rules *kr, const struct kr_hash *h)
{
	if (!h || !kr_md(h))
		return false;
	/* a .config replaces the column; md4 has no bit (no pkcs1pad
	 * digest-info template: absent on every build) */
	if (kr->from_config)
		return config_has(kr, h->name);
	return h->avail_lines & KR_LINE(kr->line);
}

bool kr_pkey_available(const struct kr_rules *kr, const char *pkey_algo)
{
	return !kr->from_config || config_has(kr, pkey_algo);
}

/*
 * Each hash's OpenSSL digest, fetched once.  A digest looked up by name
 * (EVP_get_digestbyname) is fetched again from the provider at every
 * EVP_DigestInit, under the method store's lock: per module of a tree
 * that is a name lookup and a lock round trip on every CPU.  Also each
 * hash's OID in DER, for the pkcs1pad DigestInfo (pubkey.c).
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
	 * at exit or when a main calls it (ms_openssl_done) */
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

static ptrdiff_t hash_index(const struct kr_hash *h)
{
	if (!h || h < hashes || h >= hashes + N(hashes))
		return -1;
	pthread_once(&fetch_once, fetch_all);
	return h - hashes;
}

const EVP_MD *kr_md(const struct kr_hash *h)
{
	ptrdiff_t i = hash_index(h);

	return i < 0 ? NULL : fetched[i].md;
}

const uint8_t *kr_hash_oid_der(const struct kr_hash *h, size_t *len)
{
	ptrdiff_t i = hash_index(h);

	*len = i < 0 ? 0 : fetched[i].oid_len;
	return *len ? fetched[i].oid : NULL;
}
