/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An RSA private key (PKCS#1 RSAPrivateKey, two primes) into a provider
 * key without OpenSSL's decoder machinery.  Setting up the RSA decoder
 * was the largest start-up cost left in a single signing run that the
 * run does not need (the key's eight numbers are all it takes).
 */
#ifndef MODSIGN_SIGN_FILE_RSA_IMPORT_H
#define MODSIGN_SIGN_FILE_RSA_IMPORT_H

#include <stddef.h>

#include <openssl/evp.h>

/*
 * The key in der (exactly len bytes), or NULL for anything else: another
 * version (multi-prime), trailing bytes, a malformed number.  A NULL is
 * no verdict: the caller hands the bytes to the general decoder, which
 * accepts or words the error.
 */
EVP_PKEY *ms_rsa_import_pkcs1(const unsigned char *der, size_t len);

#endif
