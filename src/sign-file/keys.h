/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading signing keys and X.509 certificates.
 */
#ifndef MODSIGN_SIGN_FILE_KEYS_H
#define MODSIGN_SIGN_FILE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/* Why a key or certificate could not be used; for the tools' messages. */
enum ms_key_problem {
	MS_KEY_OK,
	MS_KEY_UNREADABLE,	/* open/read failed: errno in the return */
	MS_KEY_NOT_A_KEY,	/* no private key in the file */
	MS_KEY_NEED_PIN,	/* encrypted and no passphrase given */
	MS_KEY_BAD_PIN,		/* encrypted and the passphrase is wrong */
	MS_KEY_NOT_A_CERT,	/* neither DER nor PEM X.509 */
	MS_KEY_MISMATCH,	/* private key does not belong to the cert */
	MS_KEY_PIN_UNREADABLE,	/* --pin-file/--pin-fd: errno in the return */
	/* PKCS#11, one value per step so the user knows what to fix */
	MS_KEY_P11_URI,		/* malformed pkcs11: URI */
	MS_KEY_P11_PIN_IN_URI,	/* pin-value= would put the PIN in argv */
	MS_KEY_P11_MODULE_IN_PATH, /* ;module-path= in the path part */
	MS_KEY_P11_UNAVAILABLE,	/* no provider answers and no engine */
	MS_KEY_P11_PROVIDER,	/* --provider NAME does not load */
	MS_KEY_P11_MODULE,	/* the PKCS#11 module does not load */
	MS_KEY_P11_TOKEN,	/* no initialised token matches the URI */
	MS_KEY_P11_NEED_PIN,	/* the token wants a login, no PIN given */
	MS_KEY_P11_LOGIN,	/* C_Login refused the PIN */
	MS_KEY_P11_LOCKED,	/* the user PIN is locked */
	MS_KEY_P11_KEY,		/* no private key object matches */
	MS_KEY_P11_CERT,	/* no certificate object matches */
	MS_KEY_P11_LOAD,	/* provider/engine could not load the object */
};

const char *ms_key_problem_str(enum ms_key_problem p);

/* How keys on tokens are reached. */
struct ms_key_opts {
	const char *provider;	/* --provider NAME, or NULL: "pkcs11" */
	const char *p11_module;	/* --pkcs11-module PATH, or NULL */
};

/* What a token-held key needs kept alive while it signs. */
struct ms_p11_load_token;
void ms_p11_load_free(struct ms_p11_load_token *t);
/* The token(s) a failed lookup searched or saw (pkcs11/token.h:
 * ms_token_list), "" for none or a key file. */
const char *ms_p11_load_searched(const struct ms_p11_load_token *t);

/*
 * Load a private key.  spec is a file or a pkcs11: URI.
 *  - Files: PEM or DER; PKCS#1, PKCS#8 (encrypted or not), traditional
 *    encrypted PEM, or PKCS#12, which also yields its certificate in
 *    *cert.  A PEM file may also hold the certificate (the kernel's
 *    signing_key.pem); only the key is taken from it.
 *  - pkcs11: URIs through a provider or the pkcs11 engine (pkcs11/);
 *    *tok then holds the session, provider or engine.
 * The passphrase or PIN comes from pin.h (read once per run) and is
 * offered exactly once, as the kernel's sign-file does with
 * KBUILD_SIGN_PIN: a wrong one is never retried.  *cert may be NULL.
 */
int ms_key_load_private(const char *spec, const struct ms_key_opts *o,
			struct ms_p11_load_token **tok, EVP_PKEY **key, X509 **cert,
			enum ms_key_problem *why);

/*
 * Read an X.509 certificate, DER or PEM, recognised by content: DER when
 * the first bytes are a SEQUENCE with a long-form length (30 81..84), as
 * the kernel's sign-file decides; PEM otherwise; then PKCS#12 (its
 * certificate).  A pkcs11: URI reads the certificate from the token,
 * reusing *tok's session when the key came from the same token.
 */
int ms_key_load_cert_spec(const char *spec, const struct ms_key_opts *o,
			  struct ms_p11_load_token **tok, X509 **cert,
			  enum ms_key_problem *why);
/* A certificate file only (DER or PEM): base/cert_file.h's reading,
 * its failure told as a key problem. */
int ms_key_load_cert(const char *path, X509 **cert, enum ms_key_problem *why);

/* 0 when key is the private half of cert's public key. */
int ms_key_matches_cert(EVP_PKEY *key, X509 *cert);

/*
 * ML-DSA (FIPS 204).  OpenSSL signs with it from 3.5 on.
 * ms_key_mldsa_signing: this build can sign with ML-DSA (built against
 * OpenSSL 3.5 or later, and the library it runs with has the algorithm).
 * ms_key_mldsa_named: the parameter set (44, 65 or 87) an unencrypted PKCS#8
 * key file or a certificate file (cert may be NULL) names by its
 * algorithm OID, read without decoding the key, so that an OpenSSL
 * without ML-DSA can still tell why it cannot load the key; 0 for
 * anything else, and for pkcs11: URIs.
 */
int ms_key_mldsa_signing(void);
int ms_key_mldsa_named(const char *key, const char *cert);
/* key is an ML-DSA-44, -65 or -87 key. */
int ms_key_is_mldsa(EVP_PKEY *key);

/* The passphrase callback used for keys: offers st->pin once. */
struct ms_key_pin_state {
	const char *pin;
	int asked;
};
int ms_key_pin_cb(char *buf, int size, int rwflag, void *u);


#endif
