/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Digests of module bodies: by name as the kernel's sign-file looks them
 * up, over a mapped file in steps, or over an open input in chunks.
 */
#ifndef MODSIGN_BASE_DIGEST_H
#define MODSIGN_BASE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

/* The digest named on the command line: any name OpenSSL knows, as the
 * kernel's sign-file (EVP_get_digestbyname).  NULL when unknown. */
const EVP_MD *digest_by_name(const char *name);

/* EVP_DigestUpdate over data; a mapped file's bytes read through its
 * descriptor (infile_map_read), in small chunks.  1 on success. */
int digest_update_mapped(EVP_MD_CTX *c, const uint8_t *data, size_t len);
int digest_bytes(const EVP_MD *md, const uint8_t *data, size_t len,
	      uint8_t *digest, unsigned int *digest_len);
/*
 * The same over the first len bytes of an open input: from its buffer
 * when it was read, else read from the descriptor in small chunks rather
 * than through the mapping.  INFILE_ECHANGED if the file is now shorter than
 * len.
 */
struct infile;
int digest_input(const EVP_MD *md, const struct infile *f, size_t len,
		    uint8_t *digest, unsigned int *digest_len);
#endif
