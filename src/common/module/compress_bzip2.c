// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>

#include "module/compress_codec.h"

#define BZ2_FNS(X) X(BZ2_bzDecompressInit) X(BZ2_bzDecompress) \
	X(BZ2_bzDecompressEnd)

/* Debian names bzip2's soname libbz2.so.1.0; others libbz2.so.1. */
COMPRESS_DEFINE_LIB(libbz2, BZ2_FNS, "libbz2.so.1.0", "libbz2.so.1")

/* bzip2 -9: one stream, as lib/decompress_bunzip2.c. */
static int unbzip2(const uint8_t *in, size_t in_len, struct compress_buf *o,
		   size_t *used, const char **why)
{
	bz_stream bz;
	size_t fed = 0, room;
	int ret, err;

	memset(&bz, 0, sizeof(bz));
	ret = libbz2.BZ2_bzDecompressInit(&bz, 0, 0);
	if (ret != BZ_OK)
		return ret == BZ_MEM_ERROR ? -ENOMEM : -EIO;
	for (;;) {
		if (bz.avail_in == 0 && fed < in_len) {
			size_t n = in_len - fed > UINT_MAX ? UINT_MAX
							   : in_len - fed;

			bz.next_in = (char *)(in + fed);
			bz.avail_in = (unsigned)n;
			fed += n;
		}
		err = compress_buf_room(o, &room);
		if (err)
			goto out;
		bz.next_out = (char *)o->p + o->len;
		bz.avail_out = (unsigned)room;
		ret = libbz2.BZ2_bzDecompress(&bz);
		o->len += room - bz.avail_out;
		if (ret == BZ_STREAM_END)
			break;
		if (ret == BZ_MEM_ERROR) {
			err = -ENOMEM;
			goto out;
		}
		if (ret != BZ_OK) {
			*why = "corrupt bzip2 data";
			err = -EBADMSG;
			goto out;
		}
		if (bz.avail_in == 0 && fed == in_len && bz.avail_out) {
			*why = "truncated bzip2 data";
			err = -EBADMSG;
			goto out;
		}
	}
	*used = fed - bz.avail_in;
	err = 0;
out:
	libbz2.BZ2_bzDecompressEnd(&bz);
	return err;
}

/* "BZh" and the block size digit */
static bool bzip2_sniff(const uint8_t *buf, size_t len)
{
	static const uint8_t magic[] = { 'B', 'Z', 'h' };

	return compress_magic(buf, len, magic, sizeof(magic)) && len > 3 &&
	       buf[3] >= '1' && buf[3] <= '9';
}

const struct compress_codec compress_bzip2 = {
	.id = COMPRESS_BZIP2,
	.name = "bzip2",
	.sniff = bzip2_sniff,
	.need = libbz2_need,
	.decode = unbzip2,
};
