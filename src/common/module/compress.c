// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "module/compress.h"
#include "module/trailer.h"

/*
 * The compression libraries are opened when a format is first needed,
 * not linked: five more libraries for the dynamic loader to map and
 * relocate would add to every run's start-up, a visible part of signing
 * a plain module, and most runs never decompress anything.  The headers
 * still give each entry point its type; the sonames are the libraries' ABI.
 */
#define ZLIB_FNS(X) X(inflateInit2_) X(inflate) X(inflateEnd) \
	X(deflateInit2_) X(deflate) X(deflateEnd)
#define LZMA_FNS(X) X(lzma_stream_decoder) X(lzma_alone_decoder) \
	X(lzma_code) X(lzma_end) X(lzma_lzma_preset) X(lzma_stream_encoder) \
	X(lzma_stream_footer_decode) X(lzma_index_buffer_decode) \
	X(lzma_index_stream_size) X(lzma_index_uncompressed_size) \
	X(lzma_index_end)
#define ZSTD_FNS(X) X(ZSTD_findFrameCompressedSize) \
	X(ZSTD_getFrameContentSize) X(ZSTD_createDCtx) X(ZSTD_freeDCtx) \
	X(ZSTD_decompressStream) X(ZSTD_isError) X(ZSTD_getErrorCode) \
	X(ZSTD_createCCtx) X(ZSTD_freeCCtx) X(ZSTD_CCtx_setParameter) \
	X(ZSTD_CCtx_setPledgedSrcSize) X(ZSTD_compressStream2)
#define LZ4_FNS(X) X(LZ4_decompress_safe)
#define BZ2_FNS(X) X(BZ2_bzDecompressInit) X(BZ2_bzDecompress) \
	X(BZ2_bzDecompressEnd)

#define FN_PTR(f) __typeof__(f) *f;
#define FN_LOAD(f) \
	if (!(lib->f = (__typeof__(f) *)dlsym(h, #f))) \
		goto fail;

#define DEFINE_LIB(name, FNS, ...) \
static struct name##_api { FNS(FN_PTR) } name; \
static int name##_ok; \
static void name##_load(void) \
{ \
	static const char *const sonames[] = { __VA_ARGS__, NULL }; \
	struct name##_api *lib = &name; \
	void *h = NULL; \
\
	for (int i = 0; !h && sonames[i]; i++) \
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL); \
	if (!h) \
		return; \
	FNS(FN_LOAD) \
	name##_ok = 1; \
	return; \
fail: \
	dlclose(h); \
}

DEFINE_LIB(libz, ZLIB_FNS, "libz.so.1")
DEFINE_LIB(liblzma, LZMA_FNS, "liblzma.so.5")
DEFINE_LIB(libzstd, ZSTD_FNS, "libzstd.so.1")
DEFINE_LIB(liblz4, LZ4_FNS, "liblz4.so.1")
/* Debian names bzip2's soname libbz2.so.1.0; others libbz2.so.1. */
DEFINE_LIB(libbz2, BZ2_FNS, "libbz2.so.1.0", "libbz2.so.1")

/* Open the library format c needs (once per process); -ELIBACC when it
 * is missing or lacks an entry point. */
static int need_lib(enum ms_comp c)
{
	static pthread_once_t once[MS_COMP_BZIP2 + 1] = {
		PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
		PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
		PTHREAD_ONCE_INIT,
	};

	switch (c) {
	case MS_COMP_GZIP:
		pthread_once(&once[c], libz_load);
		return libz_ok ? 0 : -ELIBACC;
	case MS_COMP_XZ:
	case MS_COMP_LZMA:
		pthread_once(&once[MS_COMP_XZ], liblzma_load);
		return liblzma_ok ? 0 : -ELIBACC;
	case MS_COMP_ZSTD:
		pthread_once(&once[c], libzstd_load);
		return libzstd_ok ? 0 : -ELIBACC;
	case MS_COMP_LZ4:
		pthread_once(&once[c], liblz4_load);
		return liblz4_ok ? 0 : -ELIBACC;
	case MS_COMP_BZIP2:
		pthread_once(&once[c], libbz2_load);
		return libbz2_ok ? 0 : -ELIBACC;
	case MS_COMP_NONE:
		break;
	}
	return -EINVAL;
}

/*
 * Magic numbers, as kernel/module/decompress.c and kmod's libkmod-file.c
 * test them: gzip (RFC 1952: ID1 ID2), xz (the stream header magic), zstd
 * (the frame magic 0xFD2FB528, little-endian).
 */
static const uint8_t gzip_magic[] = { 0x1f, 0x8b };
static const uint8_t xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
static const uint8_t zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };

static int starts_with(const uint8_t *buf, size_t len, const uint8_t *magic,
		       size_t magic_len)
{
	return len >= magic_len && memcmp(buf, magic, magic_len) == 0;
}

enum ms_comp ms_comp_detect(const uint8_t *buf, size_t len)
{
	if (starts_with(buf, len, gzip_magic, sizeof(gzip_magic)))
		return MS_COMP_GZIP;
	if (starts_with(buf, len, xz_magic, sizeof(xz_magic)))
		return MS_COMP_XZ;
	if (starts_with(buf, len, zstd_magic, sizeof(zstd_magic)))
		return MS_COMP_ZSTD;
	return MS_COMP_NONE;
}

/*
 * A bzImage payload: the magics of lib/decompress.c's compressed_formats
 * table, which arch/x86/boot/compressed and the initramfs code share.
 * lzma's "magic" is its usual properties byte and a small dictionary.
 */
static const uint8_t lz4_legacy_magic[] = { 0x02, 0x21, 0x4c, 0x18 };
static const uint8_t lzma_magic[] = { 0x5d, 0x00, 0x00 };
static const uint8_t bzip2_magic[] = { 'B', 'Z', 'h' };

enum ms_comp ms_comp_detect_kernel(const uint8_t *buf, size_t len)
{
	enum ms_comp c = ms_comp_detect(buf, len);

	if (c != MS_COMP_NONE)
		return c;
	if (starts_with(buf, len, lz4_legacy_magic, sizeof(lz4_legacy_magic)))
		return MS_COMP_LZ4;
	if (starts_with(buf, len, lzma_magic, sizeof(lzma_magic)))
		return MS_COMP_LZMA;
	if (starts_with(buf, len, bzip2_magic, sizeof(bzip2_magic)) &&
	    len > 3 && buf[3] >= '1' && buf[3] <= '9')
		return MS_COMP_BZIP2;
	return MS_COMP_NONE;
}

const char *ms_comp_name(enum ms_comp c)
{
	switch (c) {
	case MS_COMP_GZIP:
		return "gzip";
	case MS_COMP_XZ:
		return "xz";
	case MS_COMP_ZSTD:
		return "zstd";
	case MS_COMP_LZ4:
		return "lz4";
	case MS_COMP_LZMA:
		return "lzma";
	case MS_COMP_BZIP2:
		return "bzip2";
	case MS_COMP_NONE:
		break;
	}
	return "none";
}

/*
 * The output of one decompression, which refuses to pass limit bytes.
 * The buffer grows to keep bytes at most: past that the output is only
 * counted (spilled), its bytes dropped, so that a small file that expands
 * without end (a decompression bomb) costs keep bytes of memory, not
 * limit, before it is refused; each decoder keeps its own history window,
 * so dropping what it already returned changes nothing it decodes.  A
 * stream that spilled and still fits is decoded again into a buffer of
 * the size then known (ms_decompress).
 */
struct outbuf {
	uint8_t *p;
	size_t len, cap;
	size_t keep;		/* the largest buffer kept */
	size_t limit;		/* the most bytes accepted */
	size_t spilled;		/* bytes counted and dropped */
};

static int outbuf_init(struct outbuf *o, size_t guess, size_t limit,
		       size_t keep)
{
	o->len = 0;
	o->spilled = 0;
	o->limit = limit;
	o->keep = keep;
	o->cap = guess < 65536 ? 65536 : guess;
	if (o->cap > keep)
		o->cap = keep;
	o->p = malloc(o->cap ? o->cap : 1);
	return o->p ? 0 : -ENOMEM;
}

/* The bytes out so far, kept or not. */
static size_t outbuf_total(const struct outbuf *o)
{
	return o->spilled + o->len;
}

/*
 * Room for need bytes after o->len (or as many as fit), growing the
 * buffer up to keep and dropping its bytes past that; never room for
 * more than one byte over the limit, so that crossing it stops the
 * decoder at once: -EFBIG from then on.
 */
static int outbuf_reserve(struct outbuf *o, size_t need, size_t *room)
{
	size_t left;

	if (outbuf_total(o) > o->limit)
		return -EFBIG;
	while (o->cap - o->len < need && o->cap < o->keep) {
		size_t cap = o->cap < o->keep / 2 ? o->cap * 2 : o->keep;
		uint8_t *p = realloc(o->p, cap);

		if (!p)
			return -ENOMEM;
		o->p = p;
		o->cap = cap;
	}
	if (o->cap - o->len < need) {
		o->spilled += o->len;
		o->len = 0;
	}
	*room = o->cap - o->len;
	left = o->limit - outbuf_total(o) + 1;
	if (*room > left)
		*room = left;
	return 0;
}

/* Room after o->len, at most UINT_MAX (zlib and bzip2 count in
 * unsigned int). */
static int outbuf_room(struct outbuf *o, size_t *room)
{
	int err = outbuf_reserve(o, 1, room);

	if (*room > UINT_MAX)
		*room = UINT_MAX;
	return err;
}

static void outbuf_free(struct outbuf *o)
{
	free(o->p);
	o->p = NULL;
}

/*
 * One gzip member.  The kernel skips the header itself and inflates raw
 * deflate data, ignoring what follows; zlib's gzip mode also checks the
 * CRC32 and size in the member trailer.
 */
static int gunzip(const uint8_t *in, size_t in_len, struct outbuf *o,
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
		err = outbuf_room(o, &room);
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

/*
 * liblzma's decoders (xz streams and "LZMA alone") share one loop; what
 * differs is how the stream is set up, the action, and the words used.
 */
struct lzma_fmt {
	lzma_action action;
	/* LZMA_RUN reports a stream that stops early as LZMA_OK with
	 * nothing left to feed: count that as the end of the data */
	bool stall_is_truncation;
	const char *stalled, *buf_error, *options, *corrupt;
};

static int lzma_loop(lzma_stream *s, const struct lzma_fmt *f,
		     const uint8_t *in, size_t in_len, struct outbuf *o,
		     size_t *used, const char **why)
{
	lzma_ret ret;
	size_t room;
	int err;

	s->next_in = in;
	s->avail_in = in_len;
	for (;;) {
		err = outbuf_room(o, &room);
		if (err)
			goto out;
		s->next_out = o->p + o->len;
		s->avail_out = room;
		ret = liblzma.lzma_code(s, f->action);
		o->len += room - s->avail_out;
		if (ret == LZMA_STREAM_END)
			break;
		if (ret == LZMA_OK && (!f->stall_is_truncation ||
				       s->avail_in || !s->avail_out))
			continue;
		switch (ret) {
		case LZMA_MEM_ERROR:
			err = -ENOMEM;
			goto out;
		case LZMA_OK:
			*why = f->stalled;
			break;
		case LZMA_BUF_ERROR:
			*why = f->buf_error;
			break;
		case LZMA_OPTIONS_ERROR:
			*why = f->options;
			break;
		default:
			*why = f->corrupt;
			break;
		}
		err = -EBADMSG;
		goto out;
	}
	*used = in_len - s->avail_in;
	err = 0;
out:
	liblzma.lzma_end(s);
	return err;
}

/*
 * The size an xz stream that fills the whole of in declares in its index
 * (found from the stream footer at the end), or 0 when in is not such a
 * stream.  Only an early answer: the decoder checks the index against
 * the blocks (so does the kernel's xz_dec_run()), and output past the
 * limit stops it whatever the index said.
 */
static uint64_t xz_declared_size(const uint8_t *in, size_t in_len)
{
	lzma_stream_flags footer;
	lzma_index *idx = NULL;
	uint64_t memlimit = (uint64_t)1 << 26, size = 0;
	size_t pos;

	if (in_len < 2 * LZMA_STREAM_HEADER_SIZE ||
	    liblzma.lzma_stream_footer_decode(&footer, in + in_len -
					      LZMA_STREAM_HEADER_SIZE) !=
	    LZMA_OK ||
	    footer.backward_size > in_len - 2 * LZMA_STREAM_HEADER_SIZE)
		return 0;
	pos = in_len - LZMA_STREAM_HEADER_SIZE - footer.backward_size;
	if (liblzma.lzma_index_buffer_decode(&idx, &memlimit, NULL, in, &pos,
					     in_len - LZMA_STREAM_HEADER_SIZE)
	    != LZMA_OK)
		return 0;
	if (liblzma.lzma_index_stream_size(idx) == in_len)
		size = liblzma.lzma_index_uncompressed_size(idx);
	liblzma.lzma_index_end(idx, NULL);
	return size;
}

/*
 * One xz stream, without LZMA_CONCATENATED: the kernel's xz_dec_run()
 * stops at the end of the first stream too.
 */
static int unxz(const uint8_t *in, size_t in_len, struct outbuf *o,
		size_t *used, const char **why)
{
	static const struct lzma_fmt xz = {
		LZMA_FINISH, false, NULL, "truncated xz data",
		"xz data uses unsupported options", "corrupt xz data",
	};
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;

	/* A declared size beyond the cap is refused before any work. */
	if (xz_declared_size(in, in_len) > o->limit)
		return -EFBIG;
	ret = liblzma.lzma_stream_decoder(&s, UINT64_MAX, 0);
	if (ret != LZMA_OK)
		return ret == LZMA_MEM_ERROR ? -ENOMEM : -EIO;
	return lzma_loop(&s, &xz, in, in_len, o, used, why);
}

/* One zstd frame, as the kernel's module_zstd_decompress(). */
static int unzstd(const uint8_t *in, size_t in_len, struct outbuf *o,
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

		err = outbuf_room(o, &room);
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

/*
 * lz4 -l, as lib/decompress_unlz4.c reads it: the magic, then blocks of
 * "le32 compressed size, data", each at most 8 MiB decompressed.  The
 * kernel build appends the decompressed size (size_append): four or fewer
 * bytes left after a block end the stream.
 */
#define LZ4_LEGACY_BLOCK (8u << 20)

static int unlz4(const uint8_t *in, size_t in_len, struct outbuf *o,
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
		err = outbuf_reserve(o, LZ4_LEGACY_BLOCK, &room);
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

/* lzma -9 (.lzma, "LZMA alone"): lib/decompress_unlzma.c's format. */
static int unlzma(const uint8_t *in, size_t in_len, struct outbuf *o,
		  size_t *used, const char **why)
{
	static const struct lzma_fmt lzma = {
		LZMA_RUN, true, "truncated lzma data", "corrupt lzma data",
		"corrupt lzma data", "corrupt lzma data",
	};
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret = liblzma.lzma_alone_decoder(&s, UINT64_MAX);

	if (ret != LZMA_OK)
		return ret == LZMA_MEM_ERROR ? -ENOMEM : -EIO;
	return lzma_loop(&s, &lzma, in, in_len, o, used, why);
}

/* bzip2 -9: one stream, as lib/decompress_bunzip2.c. */
static int unbzip2(const uint8_t *in, size_t in_len, struct outbuf *o,
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
		err = outbuf_room(o, &room);
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

static int decode(enum ms_comp c, const uint8_t *in, size_t in_len,
		  struct outbuf *o, size_t *used, const char **why)
{
	switch (c) {
	case MS_COMP_GZIP:
		return gunzip(in, in_len, o, used, why);
	case MS_COMP_XZ:
		return unxz(in, in_len, o, used, why);
	case MS_COMP_ZSTD:
		return unzstd(in, in_len, o, used, why);
	case MS_COMP_LZ4:
		return unlz4(in, in_len, o, used, why);
	case MS_COMP_LZMA:
		return unlzma(in, in_len, o, used, why);
	case MS_COMP_BZIP2:
		return unbzip2(in, in_len, o, used, why);
	case MS_COMP_NONE:
		break;
	}
	return -EINVAL;
}

/*
 * How much output one decompression keeps before it only counts: eight
 * times the input (modules compress about 3:1; one that compresses better
 * and expands past that is decoded twice), at least 16 MiB (two of lz4's
 * 8 MiB blocks), never more than the limit allows.  A bomb of a few
 * hundred KiB is refused after 16 MiB of output memory, under -j N after
 * N times that, whatever the limit.
 */
#define KEEP_RATIO 8
#define KEEP_MIN ((size_t)16 << 20)

static size_t keep_for(size_t in_len, size_t max)
{
	size_t keep = KEEP_MIN;

	if (in_len > KEEP_MIN / KEEP_RATIO)
		keep = in_len < SIZE_MAX / KEEP_RATIO ? in_len * KEEP_RATIO
						      : SIZE_MAX - 1;
	/* one byte over max tells "exactly max" from "more than max" */
	return keep > max ? max + 1 : keep;
}

/* "the decompressed size limit of 1024 MiB", said for this thread. */
static const char *over_limit(size_t max)
{
	static __thread char words[96];

	if (max % ((size_t)1 << 20) == 0)
		snprintf(words, sizeof(words), "expands past the decompressed "
			 "size limit of %zu MiB", max >> 20);
	else
		snprintf(words, sizeof(words), "expands past the decompressed "
			 "size limit of %zu bytes", max);
	return words;
}

int ms_decompress(enum ms_comp c, const uint8_t *in, size_t in_len,
		  size_t max, uint8_t **out, size_t *out_len, size_t *used,
		  const char **why)
{
	struct outbuf o;
	size_t total, first;
	int err;

	*out = NULL;
	*out_len = 0;
	*used = 0;
	*why = NULL;
	if (c == MS_COMP_NONE)
		return -EINVAL;
	err = need_lib(c);
	if (err) {
		*why = "cannot load the decompression library";
		return err;
	}
	/* Modules compress about 3:1; start near that, grow by doubling. */
	err = outbuf_init(&o, in_len < max / 4 ? in_len * 4 : max, max,
			  keep_for(in_len, max));
	if (!err)
		err = decode(c, in, in_len, &o, used, why);
	total = outbuf_total(&o);
	if (!err && o.spilled && total <= max) {
		/* it fits after all: again, into a buffer of its size */
		first = total;
		outbuf_free(&o);
		err = outbuf_init(&o, first + 1, max, first + 1);
		if (!err)
			err = decode(c, in, in_len, &o, used, why);
		total = outbuf_total(&o);
		if (!err && (o.spilled || total != first))
			err = -EIO;	/* a decoder that is not deterministic */
	}
	if (!err && total > max)
		err = -EFBIG;
	if (err == -EFBIG)
		*why = over_limit(max);
	if (err) {
		outbuf_free(&o);
		*used = 0;
		return err;
	}
	*out = o.p;
	*out_len = o.len;
	return 0;
}

static size_t iov_total(const struct iovec *iov, int iovcnt)
{
	size_t total = 0;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	return total;
}

/* Run deflate until it has taken all of zs->next_in (and, for Z_FINISH,
 * written the member trailer). */
static int deflate_some(z_stream *zs, struct outbuf *o, int flush)
{
	size_t room;
	int ret, err;

	do {
		err = outbuf_room(o, &room);
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
static int gzip_iov(const struct iovec *iov, int iovcnt, struct outbuf *o)
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

/* Run the xz encoder until it has taken all of s->next_in (and, for
 * LZMA_FINISH, closed the stream). */
static int lzma_some(lzma_stream *s, struct outbuf *o, lzma_action action)
{
	lzma_ret ret;
	size_t room;
	int err;

	do {
		err = outbuf_room(o, &room);
		if (err)
			return err;
		s->next_out = o->p + o->len;
		s->avail_out = room;
		ret = liblzma.lzma_code(s, action);
		o->len += room - s->avail_out;
		if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			return ret == LZMA_MEM_ERROR ? -ENOMEM : -EIO;
	} while (s->avail_in ||
		 (action == LZMA_FINISH && ret != LZMA_STREAM_END));
	return 0;
}

/* kbuild: cmd_xz = $(XZ) --check=crc32 --lzma2=dict=1MiB -f $< */
static int xz_iov(const struct iovec *iov, int iovcnt, struct outbuf *o)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_options_lzma lzma2;
	lzma_filter filters[2];
	lzma_ret ret;
	int err = 0;

	/* --lzma2=dict=1MiB starts from the default preset (6) and changes
	 * only the dictionary; no BCJ filter, as kbuild. */
	if (liblzma.lzma_lzma_preset(&lzma2, LZMA_PRESET_DEFAULT))
		return -EIO;
	lzma2.dict_size = 1u << 20;
	filters[0] = (lzma_filter){ LZMA_FILTER_LZMA2, &lzma2 };
	filters[1] = (lzma_filter){ LZMA_VLI_UNKNOWN, NULL };
	/* CRC32: the kernel's xz decoder (lib/xz) supports only CRC32 and
	 * no check; xz's own default, CRC64, fails to load. */
	ret = liblzma.lzma_stream_encoder(&s, filters, LZMA_CHECK_CRC32);
	if (ret != LZMA_OK)
		return ret == LZMA_MEM_ERROR ? -ENOMEM : -EIO;
	for (int i = 0; i < iovcnt && !err; i++) {
		s.next_in = iov[i].iov_base;
		s.avail_in = iov[i].iov_len;
		err = lzma_some(&s, o, LZMA_RUN);
	}
	if (!err)
		err = lzma_some(&s, o, LZMA_FINISH);
	liblzma.lzma_end(&s);
	return err;
}

/* Run the zstd encoder until it has taken all of zin (and, for
 * ZSTD_e_end, closed the frame). */
static int zstd_some(ZSTD_CCtx *cctx, struct outbuf *o, ZSTD_inBuffer *zin,
		     ZSTD_EndDirective mode)
{
	ZSTD_outBuffer zout;
	size_t room, ret;
	int err;

	do {
		err = outbuf_room(o, &room);
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
static int zstd_iov(const struct iovec *iov, int iovcnt, struct outbuf *o)
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
				iov_total(iov, iovcnt)))) {
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

int ms_compress(enum ms_comp c, const struct iovec *iov, int iovcnt,
		uint8_t **out, size_t *out_len)
{
	size_t total = iov_total(iov, iovcnt);
	struct outbuf o;
	int err;

	*out = NULL;
	*out_len = 0;
	if (c == MS_COMP_NONE)
		return -EINVAL;
	err = need_lib(c);
	if (err)
		return err;
	/* Modules shrink to a third or so: start at half, grow by doubling. */
	err = outbuf_init(&o, total / 2 + 4096, SIZE_MAX / 2, SIZE_MAX / 2);
	if (err)
		return err;
	switch (c) {
	case MS_COMP_GZIP:
		err = gzip_iov(iov, iovcnt, &o);
		break;
	case MS_COMP_XZ:
		err = xz_iov(iov, iovcnt, &o);
		break;
	case MS_COMP_ZSTD:
		err = zstd_iov(iov, iovcnt, &o);
		break;
	case MS_COMP_LZ4:
	case MS_COMP_LZMA:
	case MS_COMP_BZIP2:
		/* kernel images are read, never written */
		err = -EINVAL;
		break;
	case MS_COMP_NONE:
		break;
	}
	if (err) {
		outbuf_free(&o);
		return err;
	}
	*out = o.p;
	*out_len = o.len;
	return 0;
}
