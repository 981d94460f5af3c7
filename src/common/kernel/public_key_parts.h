/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the public_key*.c files share: public_key.c parses a key and
 * verifies a signature (public_key_verify_signature()); the algorithms'
 * steps live one file each (public_key_rsa.c, public_key_ecdsa.c,
 * public_key_mldsa.c), the SubjectPublicKeyInfo re-encoding and
 * sign-file's key check in public_key_spki.c, the digests in
 * public_key_digest.c.  Only those files include this.
 */
#ifndef MODSIGN_KERNEL_PUBLIC_KEY_PARTS_H
#define MODSIGN_KERNEL_PUBLIC_KEY_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "kernel/public_key.h"

/* A DER header for a length below 64 KiB into out; its size. */
size_t pk_der_hdr(uint8_t *out, uint8_t tag, size_t len);

/*
 * The key for OpenSSL, from the parts the kernel keeps (x509_cert_parse():
 * the algorithm, the parameters element, the key bits), re-encoded as a
 * DER SubjectPublicKeyInfo; NULL when OpenSSL cannot take it.
 */
EVP_PKEY *pk_spki_pkey(const uint8_t *oid, size_t oid_len,
		       const uint8_t *params, size_t params_len,
		       const uint8_t *bits, size_t bits_len);

/*
 * The set_pub_key() step: what the kernel refuses of a key before it
 * looks at any signature.  *key_size gets the RSA key size the signature
 * must match.
 */
int pk_key_usable(const struct pk_key *k, size_t *key_size,
		  const char **why);

/* The RSA key the kernel would set from the key bits: its errors kept in
 * k->rsa_err for public_key_verify_signature() to return */
void pk_rsa_pkey(struct pk_key *k, const uint8_t *oid, size_t oid_len);
/* pkcs1pad(rsa,<hash>) / pkcs1(rsa,<hash>) verification with the
 * kernel's errnos */
int pk_rsa_pkcs1_verify(EVP_PKEY *key, size_t ksize, bool strict,
			const struct pk_sig *sig, const char **why);

/* ecdsa-nist-*: the x962 signature decoded as the kernel decodes it,
 * then checked */
int pk_ecdsa_verify(EVP_PKEY *key, const struct pk_sig *sig,
		    const char **why);

/* An ML-DSA key for OpenSSL from its raw bits (NULL when this build
 * cannot), and the pure ML-DSA check with the kernel's shape tests. */
EVP_PKEY *pk_mldsa_pkey(const char *algo, const uint8_t *raw, size_t len);
int pk_mldsa_verify(const struct pk_key *k, const struct pk_sig *sig,
		    const char **why);

#endif
