// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "module/compress_codec.h"

#define LZMA_FNS(X) X(lzma_stream_decoder) X(lzma_alone_decoder) \
	X(lzma_code) X(lzma_end) X(lzma_lzma_preset) X(lzma_stream_encoder) \
	X(lzma_stream_footer_decode) X(lzma_index_buffer_decode) \
	X(lzma_index_stream_size) X(lzma_index_uncompressed_size) \
	X(lzma_index_end)

COMPRESS_DEFINE_LIB(liblzma, LZMA_FNS, "liblzma.so.5")

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
		     const uint8_t *in, size_t in_len, struct compress_buf *o,
		     size_t *used, const char **why)
{
	lzma_ret ret;
	size_t room;
	int err;

	s->next_in = in;
	s->avail_in = in_len;
	for (;;) {
		err = compress_buf_room(o, &room);
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
static int unxz(const uint8_t *in, size_t in_len, struct compress_buf *o,
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

/* lzma -9 (.lzma, "LZMA alone"): lib/decompress_unlzma.c's format. */
static int unlzma(const uint8_t *in, size_t in_len, struct compress_buf *o,
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

/* Run the xz encoder until it has taken all of s->next_in (and, for
 * LZMA_FINISH, closed the stream). */
static int lzma_some(lzma_stream *s, struct compress_buf *o, lzma_action action)
{
	lzma_ret ret;
	size_t room;
	int err;

	do {
		err = compress_buf_room(o, &room);
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
static int xz_iov(const struct iovec *iov, int iovcnt, struct compress_buf *o)
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

/* the xz stream header magic */
static bool xz_sniff(const uint8_t *buf, size_t len)
{
	static const uint8_t magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

	return compress_magic(buf, len, magic, sizeof(magic));
}

/* lzma's "magic" is its usual properties byte and a small dictionary */
static bool lzma_sniff(const uint8_t *buf, size_t len)
{
	static const uint8_t magic[] = { 0x5d, 0x00, 0x00 };

	return compress_magic(buf, len, magic, sizeof(magic));
}

const struct compress_codec compress_xz = {
	.id = COMPRESS_XZ,
	.name = "xz",
	.module = true,
	.sniff = xz_sniff,
	.need = liblzma_need,
	.decode = unxz,
	.encode = xz_iov,
};

const struct compress_codec compress_lzma = {
	.id = COMPRESS_LZMA,
	.name = "lzma",
	.sniff = lzma_sniff,
	.need = liblzma_need,
	.decode = unlzma,
};
