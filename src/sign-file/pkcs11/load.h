/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys and certificates on PKCS#11 tokens, by pkcs11: URI.
 *
 * Order, as OpenSSL 3 intends: the token is first checked step by step
 * (token.c) so a failure names its step; then the key is loaded through
 * OSSL_STORE with a provider (--provider NAME, else "pkcs11" =
 * pkcs11-provider when installed); when no provider answers and
 * OpenSSL still has ENGINE support, through libp11's "pkcs11" engine
 * (engine.c; Debian 12 ships that and no pkcs11-provider).
 */
#ifndef MODSIGN_SIGN_FILE_PKCS11_LOAD_H
#define MODSIGN_SIGN_FILE_PKCS11_LOAD_H

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "sign-file/keys.h"

int ms_p11_load_key(const char *uri, const struct ms_key_opts *o,
		    const char *pin, struct ms_p11_load_token **tok, EVP_PKEY **key,
		    enum ms_key_problem *why);
int ms_p11_load_cert(const char *uri, const struct ms_key_opts *o,
		     const char *pin, struct ms_p11_load_token **tok, X509 **cert,
		     enum ms_key_problem *why);
/* "provider pkcs11", "engine pkcs11": how the key was reached. */
const char *ms_p11_load_via(const struct ms_p11_load_token *t);
/* The checked, logged-in session of the token (token.h). */
struct ms_token_session;
const struct ms_token_session *ms_p11_load_session(const struct ms_p11_load_token *t);

/* The ENGINE half (engine.c): -ENOPKG when OpenSSL has no ENGINE
 * support or libp11's engine is not installed. */
struct ms_engine;
int ms_engine_open(struct ms_engine **e, const char *module,
		   const char *pin);
int ms_engine_load_key(struct ms_engine *e, const char *uri,
		       EVP_PKEY **key);
int ms_engine_load_cert(struct ms_engine *e, const char *uri, X509 **cert);
void ms_engine_close(struct ms_engine *e);

#endif
