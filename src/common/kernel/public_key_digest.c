// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "base/digest.h"
#include "kernel/public_key.h"

int pk_digest2(const struct rules_hash *h, uint8_t first, const uint8_t *data,
	       size_t len, uint8_t *out, size_t *out_len)
{
	const EVP_MD *md = rules_md(h);
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
	     digest_update_mapped(c, data, len);
	ok = ok && EVP_DigestFinal_ex(c, out, &n);
	EVP_MD_CTX_free(c);
	if (!ok)
		return -ENOPKG;
	*out_len = n;
	return 0;
}

int pk_digest(const struct rules_hash *h, const uint8_t *data, size_t len,
	      uint8_t *out, size_t *out_len)
{
	return pk_digest2(h, 0, data, len, out, out_len);
}
