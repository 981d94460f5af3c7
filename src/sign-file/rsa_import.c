// SPDX-License-Identifier: GPL-2.0-or-later
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/param_build.h>

#include "sign-file/rsa_import.h"

/*
 * RFC 8017 A.1.2: RSAPrivateKey ::= SEQUENCE { version (0 for two
 * primes), modulus, publicExponent, privateExponent, prime1, prime2,
 * exponent1, exponent2, coefficient, otherPrimeInfos (version 1 only) }.
 * The provider's names for the eight numbers, in that order.
 */
static const char *const rsa_params[] = {
	OSSL_PKEY_PARAM_RSA_N,		OSSL_PKEY_PARAM_RSA_E,
	OSSL_PKEY_PARAM_RSA_D,		OSSL_PKEY_PARAM_RSA_FACTOR1,
	OSSL_PKEY_PARAM_RSA_FACTOR2,	OSSL_PKEY_PARAM_RSA_EXPONENT1,
	OSSL_PKEY_PARAM_RSA_EXPONENT2,	OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
#define NPARAMS (sizeof(rsa_params) / sizeof(rsa_params[0]))

/* Private numbers must not linger in freed memory. */
static void free_seq(STACK_OF(ASN1_TYPE) *seq)
{
	for (int i = 0; i < sk_ASN1_TYPE_num(seq); i++) {
		ASN1_TYPE *t = sk_ASN1_TYPE_value(seq, i);

		if (t && t->type == V_ASN1_INTEGER && t->value.integer)
			OPENSSL_cleanse(t->value.integer->data,
					(size_t)t->value.integer->length);
	}
	sk_ASN1_TYPE_pop_free(seq, ASN1_TYPE_free);
}

EVP_PKEY *ms_rsa_import_pkcs1(const unsigned char *der, size_t len)
{
	const unsigned char *p = der;
	STACK_OF(ASN1_TYPE) *seq;
	BIGNUM *bn[NPARAMS] = { NULL };
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *key = NULL;
	int ok;

	/* The generic reader takes a SEQUENCE without its constructed bit
	 * (tag 0x10); the RSAPrivateKey decoder rightly does not (found by
	 * fuzz_rsaimport). */
	if (len < 2 || der[0] != 0x30)
		return NULL;
	ERR_set_mark();
	seq = d2i_ASN1_SEQUENCE_ANY(NULL, &p, (long)len);
	ok = seq && p == der + len &&
	     sk_ASN1_TYPE_num(seq) == (int)NPARAMS + 1;
	for (int i = 0; ok && i <= (int)NPARAMS; i++) {
		const ASN1_TYPE *t = sk_ASN1_TYPE_value(seq, i);

		/* a negative INTEGER is V_ASN1_NEG_INTEGER inside */
		ok = t->type == V_ASN1_INTEGER &&
		     t->value.integer->type == V_ASN1_INTEGER;
		if (ok && i == 0)
			ok = ASN1_INTEGER_get(t->value.integer) == 0;
		else if (ok)
			ok = (bn[i - 1] = ASN1_INTEGER_to_BN(t->value.integer,
							     NULL)) != NULL;
	}
	ok = ok && (bld = OSSL_PARAM_BLD_new()) != NULL;
	for (size_t i = 0; ok && i < NPARAMS; i++)
		ok = OSSL_PARAM_BLD_push_BN(bld, rsa_params[i], bn[i]);
	ok = ok && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
	     (ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) != NULL &&
	     EVP_PKEY_fromdata_init(ctx) > 0 &&
	     EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_KEYPAIR, params) > 0;
	if (!ok) {
		EVP_PKEY_free(key);
		key = NULL;
	}
	EVP_PKEY_CTX_free(ctx);
	for (OSSL_PARAM *q = params; q && q->key; q++)
		OPENSSL_cleanse(q->data, q->data_size);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	for (size_t i = 0; i < NPARAMS; i++)
		BN_clear_free(bn[i]);
	if (seq)
		free_seq(seq);
	/* the general decoder gets its turn and its own errors */
	ERR_pop_to_mark();
	return key;
}
