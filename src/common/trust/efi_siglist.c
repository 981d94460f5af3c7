// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "trust/efi_siglist.h"

/*
 * GUIDs as stored, the first three fields little-endian:
 * EFI_CERT_X509_GUID        a5c059a1-94e4-4aa7-87b5-ab155c2bf072
 * EFI_CERT_SHA256_GUID      c1c41626-504c-4092-aca9-41f936934328
 * EFI_CERT_X509_SHA256_GUID 3bd2a492-96c0-4079-b420-fcf98ef103ed
 */
static const uint8_t guid_x509[16] = {
	0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
	0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72,
};
static const uint8_t guid_sha256[16] = {
	0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
	0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28,
};
static const uint8_t guid_x509_sha256[16] = {
	0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
	0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed,
};

#define ESL_HDR 28
#define ESL_OWNER 16

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static enum efi_siglist_type type_of(const uint8_t *guid)
{
	if (memcmp(guid, guid_x509, 16) == 0)
		return EFI_SIGLIST_X509;
	if (memcmp(guid, guid_sha256, 16) == 0)
		return EFI_SIGLIST_SHA256;
	if (memcmp(guid, guid_x509_sha256, 16) == 0)
		return EFI_SIGLIST_X509_SHA256;
	return EFI_SIGLIST_OTHER;
}

int efi_siglist_walk(const uint8_t *buf, size_t len, efi_siglist_fn fn, void *ctx,
		     size_t *bad)
{
	size_t off = 0;
	unsigned list = 0;
	int ret;

	while (off < len) {
		const uint8_t *h = buf + off;
		size_t lsize, hsize, esize, elsize, pos;
		struct efi_siglist_entry e;

		*bad = off;
		if (len - off < ESL_HDR)
			return -EBADMSG;
		lsize = le32(h + 16);
		hsize = le32(h + 20);
		esize = le32(h + 24);
		/* efi_parser.c: "Overrun", then "bad size combo" */
		if (lsize > len - off)
			return -EBADMSG;
		if (lsize < ESL_HDR || lsize - ESL_HDR < hsize ||
		    esize < ESL_OWNER)
			return -EBADMSG;
		elsize = lsize - ESL_HDR - hsize;
		if (elsize < esize || elsize % esize != 0)
			return -EBADMSG;
		list++;
		e.type = type_of(h);
		e.list = list;
		e.index = 0;
		for (pos = ESL_HDR + hsize; pos < lsize; pos += esize) {
			e.index++;
			e.data = h + pos + ESL_OWNER;
			e.len = esize - ESL_OWNER;
			ret = fn(ctx, &e);
			if (ret)
				return ret;
		}
		off += lsize;
	}
	return 0;
}

int efi_siglist_read_efivar(const char *path, uint8_t **data, size_t *len)
{
	uint8_t *buf;
	size_t n;
	int ret;

	/* db and MokListRT are at most a few hundred KiB */
	ret = infile_read_all(path, 16u << 20, &buf, &n);
	if (ret)
		return ret;
	if (n < 4) {
		free(buf);
		return -EBADMSG;
	}
	memmove(buf, buf + 4, n - 4);
	*data = buf;
	*len = n - 4;
	return 0;
}
