/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * public_key_verify_signature() (kernel-rules.md §4.3) on top of OpenSSL
 * primitives: the algorithm checks are the kernel's, the arithmetic is
 * EVP_PKEY_verify().
 */
#ifndef MODSIGN_KERNEL_PUBLIC_KEY_H
#define MODSIGN_KERNEL_PUBLIC_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "kernel/rules.h"

struct pk_sig {
	const char *pkey_algo;		/* "rsa", "ecdsa" */
	const char *encoding;		/* "pkcs1", "x962" */
	const struct kr_hash *hash;
	const uint8_t *s;		/* signature bytes */
	size_t slen;
	uint8_t digest[64];
	size_t dlen;
};

/*
 * Verify sig with a key of kernel algorithm key_algo ("rsa",
 * "ecdsa-nist-p256").  0, or -EKEYREJECTED (algorithm mismatch, bad
 * signature), -EINVAL (encoding/hash the akcipher cannot take), -ENOPKG
 * (unknown key algorithm), -EBADMSG (undecodable signature or key).
 */
int pk_verify(EVP_PKEY *key, const char *key_algo, const struct pk_sig *sig);

/* digest = H(data); -ENOPKG when the hash is missing (§4.2 step 1). */
int pk_digest(const struct kr_hash *h, const uint8_t *data, size_t len,
	      uint8_t *out, size_t *out_len);
/* The same over a prefix byte followed by data (the authattrs re-tag). */
int pk_digest2(const struct kr_hash *h, uint8_t first, const uint8_t *data,
	       size_t len, uint8_t *out, size_t *out_len);

#endif
