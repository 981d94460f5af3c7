// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "base/digest.h"
#include "base/infile.h"

const EVP_MD *digest_by_name(const char *name)
{
	return EVP_get_digestbyname(name);
}

/*
 * Chunks of a mapped input are read into a small buffer that stays hot,
 * and hashed there.  Hashing through the mapping instead touches every
 * page of it for the first time, which can cost more than the hash
 * itself (on a hypervisor with shadow page tables it does), and keeps
 * nothing in cache for the next chunk.
 * On the stack, so that no worker shares it and no allocation is made.
 */
#define HASH_CHUNK ((size_t)16 << 10)

int digest_update_mapped(EVP_MD_CTX *c, const uint8_t *data, size_t len)
{
	uint8_t chunk[HASH_CHUNK];
	int ok = 1;

	if (!infile_is_mapped(data, len))
		return len == 0 || EVP_DigestUpdate(c, data, len);
	/* A mapped file's bytes come through its descriptor (infile.h):
	 * one that shrank meanwhile fails here, and is marked. */
	while (ok && len) {
		size_t step = len < HASH_CHUNK ? len : HASH_CHUNK;

		ok = infile_map_read(chunk, data, step) == 0 &&
		     EVP_DigestUpdate(c, chunk, step);
		data += step;
		len -= step;
	}
	return ok;
}

int digest_bytes(const EVP_MD *md, const uint8_t *data, size_t len,
	      uint8_t *digest, unsigned int *digest_len)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	if (!c)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(c, md, NULL) &&
	     digest_update_mapped(c, data, len);
	ok = ok && EVP_DigestFinal_ex(c, digest, digest_len);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -EINVAL;
}

int digest_input(const EVP_MD *md, const struct infile *f, size_t len,
		    uint8_t *digest, unsigned int *digest_len)
{
	uint8_t chunk[HASH_CHUNK];
	EVP_MD_CTX *c;
	size_t off = 0;
	int ok, err = -EINVAL;

	if (f->buf)
		return digest_bytes(md, f->data, len, digest, digest_len);
	c = EVP_MD_CTX_new();
	if (!c)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(c, md, NULL);
	while (ok && off < len) {
		size_t want = len - off < HASH_CHUNK ? len - off : HASH_CHUNK;
		int rd = infile_read_at(f, chunk, want, off);

		if (rd) {
			err = rd;
			ok = 0;
			break;
		}
		ok = EVP_DigestUpdate(c, chunk, want);
		off += want;
	}
	if (ok && EVP_DigestFinal_ex(c, digest, digest_len))
		err = 0;
	EVP_MD_CTX_free(c);
	return err;
}
