// SPDX-License-Identifier: GPL-2.0-or-later
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "base/openssl_init.h"

void ms_openssl_init(int verbose)
{
	/* OpenSSL's error texts are printed only with -v (log.c's
	 * ms_openssl_detail); loading their tables costs ~0.4 ms. */
	if (!verbose)
		OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, NULL);
	/*
	 * RSA blinding and ECDSA nonces draw from the DRBG.  The default,
	 * CTR-DRBG, fetches AES, and a first cipher fetch constructs every
	 * cipher of the provider (~0.9 ms here), which nothing else in a
	 * signing run uses.  HASH-DRBG over SHA-256 is as much an SP
	 * 800-90A DRBG (also in the FIPS provider), seeded the same way,
	 * and uses a digest every run fetches anyway.  Set before the
	 * configuration file is read, so that a [random] section there
	 * still picks the DRBG.
	 */
	RAND_set_DRBG_type(NULL, "HASH-DRBG", NULL, NULL, "SHA256");
}
