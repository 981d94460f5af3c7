// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>
#include <zstd_errors.h>

#include "module/compress_codec.h"

#define ZSTD_FNS(X) X(ZSTD_findFrameCompressedSize) \
	X(ZSTD_getFrameContentSize) X(ZSTD_createDCtx) X(ZSTD_freeDCtx) \
	X(ZSTD_decompressStream) X(ZSTD_isError) X(ZSTD_getErrorCode) \
	X(ZSTD_createCCtx) X(ZSTD_freeCCtx) X(ZSTD_CCtx_setParameter) \
	X(ZSTD_CCtx_setPledgedSrcSize) X(ZSTD_compressStream2)

COMPRESS_DEFINE_LIB(libzstd, ZSTD_FNS, "libzstd.so.1")

/* One zstd frame, as the kernel's module_zstd_decompress(). */
static int unzstd(const uint8_t *in, size_t in_len, struct compress_buf *o,
		  size_t *used, const char **why)
{
	size_t frame_len = libzstd.ZSTD_findFrameCompressedSize(in, in_len);
	unsigned long long content;
	ZSTD_inBuffer zin;
	ZSTD_DCtx *dctx;
	size_t room, ret;
	int err;

	if (libzstd.ZSTD_isError(frame_len)) {
		*why = "truncated or corrupt zstd data";
		return -EBADMSG;
	}
	/* A declared size beyond the cap is refused before any work. */
	content = libzstd.ZSTD_getFrameContentSize(in, frame_len);
	if (content == ZSTD_CONTENTSIZE_ERROR) {
		*why = "corrupt zstd frame header";
		return -EBADMSG;
	}
	if (content != ZSTD_CONTENTSIZE_UNKNOWN && content > o->limit)
		return -EFBIG;
	dctx = libzstd.ZSTD_createDCtx();
	if (!dctx)
		return -ENOMEM;
	zin = (ZSTD_inBuffer){ in, frame_len, 0 };
	for (;;) {
		ZSTD_outBuffer zout;

		err = compress_buf_room(o, &room);
		if (err)
			goto out;
		zout = (ZSTD_outBuffer){ o->p + o->len, room, 0 };
		ret = libzstd.ZSTD_decompressStream(dctx, &zout, &zin);
		o->len += zout.pos;
		if (libzstd.ZSTD_isError(ret)) {
			*why = "corrupt zstd data";
			err = -EBADMSG;
			goto out;
		}
		if (ret == 0)
			break;
		if (zin.pos == zin.size && zout.pos < zout.size) {
			*why = "truncated zstd data";
			err = -EBADMSG;
			goto out;
		}
	}
	*used = frame_len;
	err = 0;
out:
	libzstd.ZSTD_freeDCtx(dctx);
	return err;
}

/* Run the zstd encoder until it has taken all of zin (and, for
 * ZSTD_e_end, closed the frame). */
static int zstd_some(ZSTD_CCtx *cctx, struct compress_buf *o,
		     ZSTD_inBuffer *zin, ZSTD_EndDirective mode)
{
	ZSTD_outBuffer zout;
	size_t room, ret;
	int err;

	do {
		err = compress_buf_room(o, &room);
		if (err)
			return err;
		zout = (ZSTD_outBuffer){ o->p + o->len, room, 0 };
		ret = libzstd.ZSTD_compressStream2(cctx, &zout, zin, mode);
		o->len += zout.pos;
		if (libzstd.ZSTD_isError(ret))
			return libzstd.ZSTD_getErrorCode(ret) ==
					       ZSTD_error_memory_allocation ?
				       -ENOMEM : -EIO;
	} while (zin->pos < zin->size || (mode == ZSTD_e_end && ret != 0));
	return 0;
}

/*
 * kbuild: cmd_zstd = $(ZSTD) -T0 --rm -f -q $< (6.1; 6.12 drops -T0):
 * the command line's defaults, level 3 with a content checksum, and the
 * content size in the frame header as for any file input.
 */
static int zstd_iov(const struct iovec *iov, int iovcnt, struct compress_buf *o)
{
	ZSTD_inBuffer zin = { NULL, 0, 0 };
	ZSTD_CCtx *cctx = libzstd.ZSTD_createCCtx();
	int err = 0;

	if (!cctx)
		return -ENOMEM;
	if (libzstd.ZSTD_isError(libzstd.ZSTD_CCtx_setParameter(cctx,
				ZSTD_c_compressionLevel, ZSTD_CLEVEL_DEFAULT)) ||
	    libzstd.ZSTD_isError(libzstd.ZSTD_CCtx_setParameter(cctx,
				ZSTD_c_checksumFlag, 1)) ||
	    libzstd.ZSTD_isError(libzstd.ZSTD_CCtx_setPledgedSrcSize(cctx,
				compress_iov_total(iov, iovcnt)))) {
		libzstd.ZSTD_freeCCtx(cctx);
		return -EIO;
	}
	for (int i = 0; i < iovcnt && !err; i++) {
		zin = (ZSTD_inBuffer){ iov[i].iov_base, iov[i].iov_len, 0 };
		err = zstd_some(cctx, o, &zin, ZSTD_e_continue);
	}
	zin = (ZSTD_inBuffer){ NULL, 0, 0 };
	if (!err)
		err = zstd_some(cctx, o, &zin, ZSTD_e_end);
	libzstd.ZSTD_freeCCtx(cctx);
	return err;
}

/* the frame magic 0xFD2FB528, little-endian */
static bool zstd_sniff(const uint8_t *buf, size_t len)
{
	static const uint8_t magic[] = { 0x28, 0xb5, 0x2f, 0xfd };

	return compress_magic(buf, len, magic, sizeof(magic));
}

const struct compress_codec compress_zstd = {
	.id = COMPRESS_ZSTD,
	.name = "zstd",
	.module = true,
	.sniff = zstd_sniff,
	.need = libzstd_need,
	.decode = unzstd,
	.encode = zstd_iov,
};
