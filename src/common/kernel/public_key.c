// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>

#include "base/digest.h"
#include "base/fileio.h"
#include "kernel/public_key.h"

int pk_digest2(const struct kr_hash *h, uint8_t first, const uint8_t *data,
	       size_t len, uint8_t *out, size_t *out_len)
{
	const EVP_MD *md = kr_md(h);
	EVP_MD_CTX *c;
	unsigned int n = 0;
	int ok;

	if (!md)
		return -ENOPKG;
	c = EVP_MD_CTX_new();
	if (!c)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(c, md, NULL) &&
	     (first == 0 || EVP_DigestUpdate(c, &first, 1)) &&
	     ms_digest_update_mapped(c, data, len);
	ok = ok && EVP_DigestFinal_ex(c, out, &n);
	EVP_MD_CTX_free(c);
	if (!ok)
		return -ENOPKG;
	*out_len = n;
	return 0;
}

int pk_digest(const struct kr_hash *h, const uint8_t *data, size_t len,
	      uint8_t *out, size_t *out_len)
{
	return pk_digest2(h, 0, data, len, out, out_len);
}

/* The DER DigestInfo prefix for a hash: SEQ { SEQ { OID, NULL }, OCTET STRING } */
static size_t digest_info(const struct kr_hash *h, size_t dlen, uint8_t *out)
{
	size_t n;
	const uint8_t *oid = kr_hash_oid_der(h, &n);

	if (!oid || n > 20 || dlen > 64)
		return 0;
	out[0] = 0x30;
	out[1] = (uint8_t)(n + 4 + 2 + dlen);
	out[2] = 0x30;
	out[3] = (uint8_t)(n + 2);
	memcpy(out + 4, oid, n);
	out[4 + n] = 0x05;
	out[5 + n] = 0x00;
	out[6 + n] = 0x04;
	out[7 + n] = (uint8_t)dlen;
	return n + 8;
}

/*
 * pkcs1pad(rsa,<hash>) verification, step by step, so that a signature
 * fails with the kernel's errno: -EINVAL for a wrong length or a value
 * that does not decrypt to key_size-1 bytes, -EBADMSG for broken padding
 * or DigestInfo, -EKEYREJECTED for a digest that differs.
 */
static int rsa_pkcs1_verify(EVP_PKEY *key, const struct pk_sig *sig)
{
	size_t ksize = (size_t)EVP_PKEY_get_size(key), n = ksize, pos, il;
	uint8_t m[1024], info[40], *b = m;
	EVP_PKEY_CTX *ctx;
	int ok;

	if (sig->slen != ksize || ksize > sizeof(m))
		return -EINVAL;
	ctx = EVP_PKEY_CTX_new(key, NULL);
	if (!ctx)
		return -ENOMEM;
	ok = EVP_PKEY_verify_recover_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
	     EVP_PKEY_verify_recover(ctx, m, &n, sig->s, sig->slen) > 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	if (!ok)
		return -EINVAL;		/* s >= n: rsa_verify() refuses */
	/* pkcs1pad_verify_complete(): the value fills key_size bytes and
	 * must start with a zero byte, else -EINVAL */
	if (n != ksize || m[0] != 0x00)
		return -EINVAL;
	b++;
	n--;
	if (b[0] != 0x01)
		return -EBADMSG;
	for (pos = 1; pos < n && b[pos] == 0xff; pos++)
		;
	if (pos < 9 || pos == n || b[pos] != 0x00)
		return -EBADMSG;
	pos++;
	il = digest_info(sig->hash, sig->dlen, info);
	if (!il)
		return -ENOPKG;
	if (n - pos < il || memcmp(b + pos, info, il) != 0)
		return -EBADMSG;
	pos += il;
	if (n - pos != sig->dlen ||
	    memcmp(b + pos, sig->digest, sig->dlen) != 0)
		return -EKEYREJECTED;
	return 0;
}

int pk_verify(EVP_PKEY *key, const char *key_algo, const struct pk_sig *sig)
{
	EVP_PKEY_CTX *ctx = NULL;
	const unsigned char *p;
	ECDSA_SIG *es;
	int ret;

	/* §4.3.1: the signature's algorithm must be the key's; "ecdsa"
	 * matches any "ecdsa-nist-*" key (public_key.c; both checks here
	 * since v5.18, 2abc9c246e05 and 590bfb57b232, so in 6.1 and 6.12) */
	if (sig->pkey_algo && strcmp(sig->pkey_algo, key_algo) != 0 &&
	    (strncmp(key_algo, "ecdsa-", 6) != 0 ||
	     strcmp(sig->pkey_algo, "ecdsa") != 0))
		return -EKEYREJECTED;

	/* §4.3.2: software_key_determine_akcipher() */
	if (!sig->encoding)
		return -EINVAL;
	if (strcmp(key_algo, "rsa") == 0) {
		if (strcmp(sig->encoding, "pkcs1") != 0)
			return -EINVAL;
		if (!key)
			return -EBADMSG;	/* rsa_set_pub_key() failed */
		return rsa_pkcs1_verify(key, sig);
	}
	if (strncmp(key_algo, "ecdsa-", 6) != 0)
		return -ENOPKG;
	if (strcmp(sig->encoding, "x962") != 0)
		return -EINVAL;
	if (!sig->hash || !sig->hash->ecdsa_ok)
		return -EINVAL;
	if (!key)
		return -EBADMSG;

	/* x962: a DER Ecdsa-Sig-Value, else -EBADMSG */
	p = sig->s;
	es = d2i_ECDSA_SIG(NULL, &p, (long)sig->slen);
	if (!es)
		return -EBADMSG;
	ECDSA_SIG_free(es);

	ctx = EVP_PKEY_CTX_new(key, NULL);
	if (!ctx)
		return -ENOMEM;
	ret = -EKEYREJECTED;
	if (EVP_PKEY_verify_init(ctx) > 0 &&
	    EVP_PKEY_verify(ctx, sig->s, sig->slen, sig->digest,
			    sig->dlen) == 1)
		ret = 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return ret;
}
