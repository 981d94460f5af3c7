// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "module/compress_codec.h"

#define ZLIB_FNS(X) X(inflateInit2_) X(inflate) X(inflateEnd) \
	X(deflateInit2_) X(deflate) X(deflateEnd)

COMPRESS_DEFINE_LIB(libz, ZLIB_FNS, "libz.so.1")

/*
 * One gzip member.  The kernel skips the header itself and inflates raw
 * deflate data, ignoring what follows; zlib's gzip mode also checks the
 * CRC32 and size in the member trailer.
 */
static int gunzip(const uint8_t *in, size_t in_len, struct compress_buf *o,
		  size_t *used, const char **why)
{
	z_stream zs;
	size_t fed = 0, room;
	int ret, err;

	memset(&zs, 0, sizeof(zs));
	ret = libz.inflateInit2_(&zs, 16 + MAX_WBITS, ZLIB_VERSION,
				   (int)sizeof(zs));
	if (ret != Z_OK)
		return ret == Z_MEM_ERROR ? -ENOMEM : -EIO;
	for (;;) {
		if (zs.avail_in == 0 && fed < in_len) {
			size_t n = in_len - fed > UINT_MAX ? UINT_MAX
							   : in_len - fed;

			zs.next_in = (Bytef *)(in + fed);
			zs.avail_in = (uInt)n;
			fed += n;
		}
		err = compress_buf_room(o, &room);
		if (err)
			goto out;
		zs.next_out = o->p + o->len;
		zs.avail_out = (uInt)room;
		ret = libz.inflate(&zs, Z_NO_FLUSH);
		o->len += room - zs.avail_out;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_MEM_ERROR) {
			err = -ENOMEM;
			goto out;
		}
		if (ret == Z_BUF_ERROR && zs.avail_in == 0 && fed == in_len) {
			*why = "truncated gzip data";
			err = -EBADMSG;
			goto out;
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR) {
			*why = "corrupt gzip data";
			err = -EBADMSG;
			goto out;
		}
	}
	*used = fed - zs.avail_in;
	err = 0;
out:
	libz.inflateEnd(&zs);
	return err;
}

/* Run deflate until it has taken all of zs->next_in (and, for Z_FINISH,
 * written the member trailer). */
static int deflate_some(z_stream *zs, struct compress_buf *o, int flush)
{
	size_t room;
	int ret, err;

	do {
		err = compress_buf_room(o, &room);
		if (err)
			return err;
		zs->next_out = o->p + o->len;
		zs->avail_out = (uInt)room;
		ret = libz.deflate(zs, flush);
		o->len += room - zs->avail_out;
		if (ret == Z_STREAM_ERROR)
			return -EIO;
	} while (zs->avail_in || (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

/* kbuild: cmd_gzip = $(KGZIP) -n -f $<, and KGZIP = gzip: level 6. */
static int gzip_iov(const struct iovec *iov, int iovcnt, struct compress_buf *o)
{
	z_stream zs;
	int err = 0;

	memset(&zs, 0, sizeof(zs));
	/* 16 + MAX_WBITS: a gzip wrapper whose header zlib writes with no
	 * name, no extra field and mtime 0, as gzip -n does (the kernel's
	 * header parser knows only the name field). */
	if (libz.deflateInit2_(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
			       Z_DEFAULT_STRATEGY, ZLIB_VERSION,
			       (int)sizeof(zs)) != Z_OK)
		return -ENOMEM;
	for (int i = 0; i < iovcnt && !err; i++) {
		const uint8_t *p = iov[i].iov_base;
		size_t left = iov[i].iov_len;

		while (left && !err) {
			size_t n = left > UINT_MAX ? UINT_MAX : left;

			zs.next_in = (Bytef *)p;
			zs.avail_in = (uInt)n;
			err = deflate_some(&zs, o, Z_NO_FLUSH);
			p += n;
			left -= n;
		}
	}
	if (!err)
		err = deflate_some(&zs, o, Z_FINISH);
	libz.deflateEnd(&zs);
	return err;
}

/* RFC 1952: ID1 ID2 */
static bool gzip_sniff(const uint8_t *buf, size_t len)
{
	static const uint8_t magic[] = { 0x1f, 0x8b };

	return compress_magic(buf, len, magic, sizeof(magic));
}

const struct compress_codec compress_gzip = {
	.id = COMPRESS_GZIP,
	.name = "gzip",
	.module = true,
	.sniff = gzip_sniff,
	.need = libz_need,
	.decode = gunzip,
	.encode = gzip_iov,
};
