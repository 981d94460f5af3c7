/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading signing keys and X.509 certificates.
 */
#ifndef MODSIGN_KEYS_H
#define MODSIGN_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/* Why a key or certificate could not be used; for the tools' messages. */
enum ms_key_problem {
	MS_KEY_OK,
	MS_KEY_UNREADABLE,	/* open/read failed: errno in the return */
	MS_KEY_NOT_A_KEY,	/* no private key in the file */
	MS_KEY_NEED_PIN,	/* encrypted and KBUILD_SIGN_PIN unset */
	MS_KEY_BAD_PIN,		/* encrypted and the passphrase is wrong */
	MS_KEY_NOT_A_CERT,	/* neither DER nor PEM X.509 */
	MS_KEY_MISMATCH,	/* private key does not belong to the cert */
};

const char *ms_key_problem_str(enum ms_key_problem p);

/*
 * Read a PEM private key.  The passphrase comes from KBUILD_SIGN_PIN, as in
 * the kernel's sign-file, and is offered exactly once.  The file may also
 * hold the certificate (the kernel's signing_key.pem).
 */
int ms_load_private_key(const char *path, EVP_PKEY **key,
			enum ms_key_problem *why);

/*
 * Read an X.509 certificate, DER or PEM, recognised by content: DER when
 * the first bytes are a SEQUENCE with a long-form length (30 81..84), as
 * the kernel's sign-file decides; PEM otherwise.
 */
int ms_load_cert(const char *path, X509 **cert, enum ms_key_problem *why);
/* The same from memory. */
X509 *ms_cert_from_buf(const uint8_t *buf, size_t len);

/* 0 when key is the private half of cert's public key. */
int ms_key_matches_cert(EVP_PKEY *key, X509 *cert);

/* "RSA-4096", "ECDSA-P256", "ML-DSA-65"... into buf. */
void ms_pkey_describe(EVP_PKEY *pkey, char *buf, size_t len);

#endif
