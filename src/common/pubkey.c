// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <openssl/ecdsa.h>
#include <openssl/rsa.h>

#include "pubkey.h"

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
	     EVP_DigestUpdate(c, data, len) &&
	     EVP_DigestFinal_ex(c, out, &n);
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

int pk_verify(EVP_PKEY *key, const char *key_algo, const struct pk_sig *sig)
{
	EVP_PKEY_CTX *ctx = NULL;
	bool rsa;
	int ret;

	/* §4.3.1: the signature's algorithm must be the key's; "ecdsa"
	 * matches any "ecdsa-nist-*" key (public_key.c) */
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
		rsa = true;
	} else if (strncmp(key_algo, "ecdsa-", 6) == 0) {
		if (strcmp(sig->encoding, "x962") != 0)
			return -EINVAL;
		if (!sig->hash || !sig->hash->ecdsa_ok)
			return -EINVAL;
		rsa = false;
	} else {
		return -ENOPKG;
	}
	if (!key)
		return -EBADMSG;	/* the key would not load (set_pub_key) */

	if (!rsa) {
		/* x962 wants a DER Ecdsa-Sig-Value */
		const unsigned char *p = sig->s;
		ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)sig->slen);

		if (!es)
			return -EBADMSG;
		ECDSA_SIG_free(es);
	}

	ctx = EVP_PKEY_CTX_new(key, NULL);
	if (!ctx)
		return -ENOMEM;
	ret = -EKEYREJECTED;
	if (EVP_PKEY_verify_init(ctx) <= 0)
		goto out;
	if (rsa) {
		/* pkcs1pad(rsa,<hash>): EMSA-PKCS1-v1_5 over the DigestInfo */
		const EVP_MD *md = kr_md(sig->hash);

		if (!md) {
			ret = -ENOPKG;
			goto out;
		}
		if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_signature_md(ctx, md) <= 0)
			goto out;
		/* the kernel wants the signature exactly as long as the key */
		if (sig->slen != (size_t)EVP_PKEY_get_size(key))
			goto out;
	}
	if (EVP_PKEY_verify(ctx, sig->s, sig->slen, sig->digest,
			    sig->dlen) == 1)
		ret = 0;
out:
	EVP_PKEY_CTX_free(ctx);
	return ret;
}
