/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A token's RSA key signing through PKCS#11 itself, for a signer that
 * serves many files (the agent, --batch).  A signature through the
 * provider or engine is two calls to the token, C_SignInit then C_Sign,
 * both while the file waits.  Here the next operation is initialised
 * while no file waits (ms_p11_direct_arm, after the agent has answered
 * a client), so a file waits for C_Sign alone: one round trip less per
 * module to a remote token (p11-kit's remoting, a network HSM), and for
 * SoftHSM the key's unwrapping off the module's path.
 *
 * The value is RSA PKCS#1 v1.5 over the DigestInfo (CKM_RSA_PKCS), the
 * same operation the provider and the engine ask the token for, and the
 * scheme is deterministic: the bytes are theirs.  The key is used only
 * when the URI names exactly one private key, an RSA one whose modulus
 * and exponent are the certificate's, which needs no login per
 * signature and whose token signs with CKM_RSA_PKCS; anything else is
 * -ENOTSUP, and the provider or engine stays the signer.
 *
 * Not thread-safe: callers hold the signer's lock (signer.h, serial).
 */
#ifndef MODSIGN_SIGN_FILE_PKCS11_DIRECT_H
#define MODSIGN_SIGN_FILE_PKCS11_DIRECT_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "sign-file/keys.h"

/* The longest value: RSA-8192. */
#define MS_P11_DIRECT_SIG_MAX 1024

struct ms_p11_direct;

/* Set up the key of tok (a pkcs11: key, cert its certificate) to sign
 * md's DigestInfo, with the first operation armed.  -ENOTSUP as above. */
int ms_p11_direct_new(const struct ms_p11_load_token *tok, X509 *cert,
		      const EVP_MD *md, struct ms_p11_direct **out);

/*
 * Sign a digest of md into sig (MS_P11_DIRECT_SIG_MAX bytes); *sig_len
 * gets the value's length, the modulus's.  -EINVAL for a digest of
 * another length than md's.  -EIO when the token fails:
 * the session is closed and every later call is -ENOTSUP, so the caller
 * signs through the provider or engine, which reports a real failure in
 * its own words.
 */
int ms_p11_direct_sign(struct ms_p11_direct *d, const uint8_t *digest,
		       unsigned int digest_len, uint8_t *sig,
		       size_t *sig_len);

/* Initialise the next operation now, unless it already is (or the
 * token failed): a failure here is left to the next signature. */
void ms_p11_direct_arm(struct ms_p11_direct *d);

void ms_p11_direct_free(struct ms_p11_direct *d);

#endif
