// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the RSA key import that skips OpenSSL's decoders
 * (sign-file/rsa_import.c), against those decoders.  Every key it accepts, OpenSSL's
 * own RSAPrivateKey decoder must accept too, with the same numbers: the
 * shortcut may refuse more (the caller then asks the decoder) but never
 * accept anything else.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "sign-file/rsa_import.h"

static EVP_PKEY *decode(const uint8_t *data, size_t size)
{
	OSSL_DECODER_CTX *d;
	EVP_PKEY *key = NULL;

	d = OSSL_DECODER_CTX_new_for_pkey(&key, "DER", "type-specific", "RSA",
					  EVP_PKEY_KEYPAIR, NULL, NULL);
	if (d && !OSSL_DECODER_from_data(d, &data, &size)) {
		EVP_PKEY_free(key);
		key = NULL;
	}
	OSSL_DECODER_CTX_free(d);
	return key;
}

static int same_param(EVP_PKEY *a, EVP_PKEY *b, const char *name)
{
	BIGNUM *x = NULL, *y = NULL;
	int same = EVP_PKEY_get_bn_param(a, name, &x) &&
		   EVP_PKEY_get_bn_param(b, name, &y) && BN_cmp(x, y) == 0;

	BN_clear_free(x);
	BN_clear_free(y);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E,
		OSSL_PKEY_PARAM_RSA_D, OSSL_PKEY_PARAM_RSA_FACTOR1,
		OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1,
		OSSL_PKEY_PARAM_RSA_EXPONENT2,
		OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
	};
	EVP_PKEY *ours = ms_rsa_import_pkcs1(data, size), *theirs;

	if (!ours)
		return 0;
	theirs = decode(data, size);
	if (!theirs)
		abort();	/* accepted what OpenSSL refuses */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!same_param(ours, theirs, names[i]))
			abort();	/* a different key */
	EVP_PKEY_free(theirs);
	EVP_PKEY_free(ours);
	ERR_clear_error();
	return 0;
}
