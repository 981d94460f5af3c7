// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/opensslv.h>

#include "base/exitcode.h"
#include "kernel/public_key.h"
#include "kernel/public_key_parts.h"

/* ML-DSA's arithmetic: EVP_PKEY_verify_message_init() and the ML-DSA
 * keys and signatures arrived in OpenSSL 3.5. */
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
#define PK_HAVE_MLDSA 1
#endif

/*
 * The FIPS 204 parameter sets, as far as the shape of a signature goes:
 * c~ (lambda/4 bytes), then l polynomials z of 256 coefficients packed in
 * zbits bits each, then the hint (omega + k bytes).
 */
static const struct mldsa_set {
	const char *algo, *ossl;
	size_t sig_len;
	unsigned ctilde, l, k, zbits, omega;
	int32_t gamma1, beta;
} mldsa_sets[] = {
	{ "mldsa44", "ML-DSA-44", 2420, 32, 4, 4, 18, 80, 1 << 17, 78 },
	{ "mldsa65", "ML-DSA-65", 3309, 48, 5, 6, 20, 55, 1 << 19, 196 },
	{ "mldsa87", "ML-DSA-87", 4627, 64, 7, 8, 20, 75, 1 << 19, 120 },
};

static const struct mldsa_set *mldsa_set(const char *algo)
{
	for (size_t i = 0; i < sizeof(mldsa_sets) / sizeof(mldsa_sets[0]); i++)
		if (strcmp(mldsa_sets[i].algo, algo) == 0)
			return &mldsa_sets[i];
	return NULL;
}

#ifdef PK_HAVE_MLDSA
static EVP_SIGNATURE *mldsa_alg[3];
static pthread_once_t mldsa_once = PTHREAD_ONCE_INIT;

static void mldsa_release(void)
{
	for (size_t i = 0; i < 3; i++) {
		EVP_SIGNATURE_free(mldsa_alg[i]);
		mldsa_alg[i] = NULL;
	}
}

/* Fetched once: a provider configuration (a FIPS provider without it,
 * say) can leave ML-DSA out even of an OpenSSL 3.5 build. */
static void mldsa_fetch(void)
{
	for (size_t i = 0; i < 3; i++)
		mldsa_alg[i] = EVP_SIGNATURE_fetch(NULL, mldsa_sets[i].ossl,
						   NULL);
	ERR_clear_error();
	atexit(mldsa_release);
}

static EVP_SIGNATURE *mldsa_signature(const struct mldsa_set *set)
{
	pthread_once(&mldsa_once, mldsa_fetch);
	return mldsa_alg[set - mldsa_sets];
}
#endif

bool pk_mldsa_checkable(void)
{
#ifdef PK_HAVE_MLDSA
	for (size_t i = 0; i < 3; i++)
		if (!mldsa_signature(&mldsa_sets[i]))
			return false;
	return true;
#else
	return false;
#endif
}

/* The ML-DSA key for the raw public key bytes (length already checked). */
EVP_PKEY *pk_mldsa_pkey(const char *algo, const uint8_t *raw, size_t len)
{
#ifdef PK_HAVE_MLDSA
	const struct mldsa_set *set = mldsa_set(algo);
	EVP_PKEY *k;

	if (!set)
		return NULL;
	k = EVP_PKEY_new_raw_public_key_ex(NULL, set->ossl, NULL, raw, len);
	ERR_clear_error();
	return k;
#else
	(void)algo;
	(void)raw;
	(void)len;
	return NULL;
#endif
}



/* Little-endian bit unpacking of FIPS 204's BitUnpack. */
static uint32_t bits_at(const uint8_t *p, size_t bit, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		v |= (uint32_t)((p[bit / 8] >> (bit % 8)) & 1) << i;
	return v;
}

/*
 * What lib/crypto/mldsa.c mldsa_verify() refuses as -EBADMSG before any
 * arithmetic: a z coefficient with |z| >= gamma1 - beta (decode_z), and a
 * hint that is not in FIPS 204's HintBitUnpack form (decode_hint_vector:
 * per polynomial, increasing indices up to a running count that never
 * falls and stays within omega; zero padding after the last).
 */
static bool mldsa_shape_ok(const struct mldsa_set *set, const uint8_t *s)
{
	const uint8_t *z = s + set->ctilde;
	const uint8_t *h = z + (size_t)set->l * 256 * set->zbits / 8;
	size_t i, n = (size_t)set->l * 256;
	unsigned idx = 0, first;

	for (i = 0; i < n; i++) {
		int32_t c = set->gamma1 -
			    (int32_t)bits_at(z, i * set->zbits, set->zbits);

		if (c >= set->gamma1 - set->beta ||
		    c <= -(set->gamma1 - set->beta))
			return false;
	}
	for (i = 0; i < set->k; i++) {
		unsigned end = h[set->omega + i];

		if (end < idx || end > set->omega)
			return false;
		first = idx;
		for (; idx < end; idx++)
			if (idx > first && h[idx - 1] >= h[idx])
				return false;
	}
	for (; idx < set->omega; idx++)
		if (h[idx])
			return false;
	return true;
}

/* crypto/mldsa.c over lib/crypto/mldsa.c: pure ML-DSA, empty context. */
int pk_mldsa_verify(const struct pk_key *k, const struct pk_sig *sig,
		    const char **why)
{
	const struct mldsa_set *set = mldsa_set(k->algo);
	int ret = -EKEYREJECTED;

	if (!set) {
		*why = rules_why_key_algo;
		return -ENOPKG;
	}
	if (sig->slen != set->sig_len) {
		*why = "ML-DSA signature of the wrong length for its "
		       "parameter set (mldsa_verify)";
		return -EBADMSG;
	}
	if (!mldsa_shape_ok(set, sig->s)) {
		*why = "ML-DSA signature with a z coefficient out of range "
		       "or a malformed hint (mldsa_verify)";
		return -EBADMSG;
	}
	*why = "ML-DSA signature";
	if (!pk_mldsa_checkable() || !k->pkey)
		return -EXITCODE_ENOALG;
#ifdef PK_HAVE_MLDSA
	{
		EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k->pkey,
							       NULL);

		if (!ctx)
			return -ENOMEM;
		*why = "ML-DSA signature does not verify";
		if (EVP_PKEY_verify_message_init(ctx, mldsa_signature(set),
						 NULL) == 1 &&
		    EVP_PKEY_verify(ctx, sig->s, sig->slen, sig->m,
				    sig->mlen) == 1)
			ret = 0;
		EVP_PKEY_CTX_free(ctx);
		ERR_clear_error();
	}
#endif
	return ret;
}
