// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>

#include "module/compress_codec.h"

#define LZ4_FNS(X) X(LZ4_decompress_safe)

COMPRESS_DEFINE_LIB(liblz4, LZ4_FNS, "liblz4.so.1")

/*
 * lz4 -l, as lib/decompress_unlz4.c reads it: the magic, then blocks of
 * "le32 compressed size, data", each at most 8 MiB decompressed.  The
 * kernel build appends the decompressed size (size_append): four or fewer
 * bytes left after a block end the stream.
 */
#define LZ4_LEGACY_BLOCK (8u << 20)

static const uint8_t lz4_legacy_magic[] = { 0x02, 0x21, 0x4c, 0x18 };

static int unlz4(const uint8_t *in, size_t in_len, struct compress_buf *o,
		 size_t *used, const char **why)
{
	size_t pos = sizeof(lz4_legacy_magic), room, want;
	unsigned blocks = 0;
	uint32_t csize;
	int err, n;

	for (;;) {
		if (in_len - pos <= 4 && blocks)
			break;
		if (in_len - pos < 4) {
			*why = "truncated lz4 data";
			return -EBADMSG;
		}
		csize = (uint32_t)in[pos] | (uint32_t)in[pos + 1] << 8 |
			(uint32_t)in[pos + 2] << 16 |
			(uint32_t)in[pos + 3] << 24;
		pos += 4;
		if (csize == 0x184c2102u)	/* another archive follows */
			continue;
		if (csize > in_len - pos || csize > (uint32_t)INT_MAX) {
			*why = "truncated lz4 data";
			return -EBADMSG;
		}
		err = compress_buf_reserve(o, LZ4_LEGACY_BLOCK, &room);
		if (err)
			return err;
		want = room < LZ4_LEGACY_BLOCK ? room : LZ4_LEGACY_BLOCK;
		n = liblz4.LZ4_decompress_safe((const char *)in + pos,
					(char *)o->p + o->len, (int)csize,
					(int)want);
		if (n < 0) {
			if (want < LZ4_LEGACY_BLOCK)
				return -EFBIG;
			*why = "corrupt lz4 data";
			return -EBADMSG;
		}
		o->len += (size_t)n;
		pos += csize;
		blocks++;
	}
	*used = pos;
	return 0;
}

static bool lz4_sniff(const uint8_t *buf, size_t len)
{
	return compress_magic(buf, len, lz4_legacy_magic,
			      sizeof(lz4_legacy_magic));
}

const struct compress_codec compress_lz4 = {
	.id = COMPRESS_LZ4,
	.name = "lz4",
	.sniff = lz4_sniff,
	.need = liblz4_need,
	.decode = unlz4,
};
