// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

#include "base/openssl_init.h"

static int teardown_needed;

void openssl_init(int verbose)
{
	/* OpenSSL's error texts are printed only with -v (base/
	 * log_openssl.c); loading their tables is start-up time a
	 * run without -v never uses.  No
	 * OPENSSL_cleanup() at exit: openssl_init_done() says when. */
	OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT |
			    (verbose ? 0 : OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS),
			    NULL);
	/*
	 * RSA blinding and ECDSA nonces draw from the DRBG.  The default,
	 * CTR-DRBG, fetches AES, and a first cipher fetch constructs every
	 * cipher of the provider, which nothing else in a signing run
	 * uses.  HASH-DRBG over SHA-256 is as much an SP
	 * 800-90A DRBG (also in the FIPS provider), seeded the same way,
	 * and uses a digest every run fetches anyway.  Set before the
	 * configuration file is read, so that a [random] section there
	 * still picks the DRBG.
	 */
	RAND_set_DRBG_type(NULL, "HASH-DRBG", NULL, NULL, "SHA256");
}

/*
 * Why a main tears OpenSSL down itself rather than leaving it to exit():
 * libcrypto registers OPENSSL_cleanup() with atexit() when it starts, and
 * only OPENSSL_cleanup() frees a provider (OSSL_PROVIDER_unload() drops
 * our reference; the library context keeps its own).  PKCS#11 modules
 * are dlopen()ed later, and a C++ one registers its static destructors
 * with __cxa_atexit() as it loads.  exit() runs handlers in reverse
 * order, so SoftHSM's destructor of its static std::unique_ptr<SoftHSM>
 * deletes the SoftHSM object first; then OPENSSL_cleanup() frees
 * pkcs11-provider, whose teardown calls C_CloseSession on its sessions
 * and SoftHSM reaches them through the deleted object (SIGSEGV
 * after a good signature; SoftHSMv2 issues 729 and 780).  A module
 * named directly hid it: our session's C_Finalize ended SoftHSM for the
 * provider too.  Through p11-kit's proxy, the default module, it does
 * not: the proxy counts C_Initialize calls, so SoftHSM stays initialised
 * for the provider until OpenSSL's teardown.
 *
 * So the order is: the keys and certificates (signer.c), then each token
 * (pkcs11/load.c: engine finished, provider unloaded, our session logged
 * out, closed and finalised), then here every provider, which closes its
 * sessions and finalises its module while each module is whole, and only
 * then exit() with the modules' own destructors.  Nothing may use OpenSSL
 * after this; OPENSSL_atexit() handlers run inside it.
 */
void openssl_init_need_teardown(void)
{
	teardown_needed = 1;
}

/*
 * Without a token, OPENSSL_cleanup() only frees memory that exit() gives
 * back anyway, at a cost every run would pay (bench/NOTES,
 * "OPENSSL_cleanup"), so it runs only when a token was opened.  The
 * keys, with their secrets, are freed (and cleared) by their owners
 * before either.
 */
void openssl_init_done(void)
{
	if (teardown_needed)
		OPENSSL_cleanup();
}

void openssl_init_print_version(const char *tool, int mldsa)
{
	printf("%s (modsign) %s\n", tool, MODSIGN_VERSION);
	printf("OpenSSL %s (built with %s); ML-DSA: %s\n",
	       OpenSSL_version(OPENSSL_VERSION_STRING), OPENSSL_VERSION_STR,
	       mldsa ? "yes" : "no (needs OpenSSL 3.5 or later)");
}
