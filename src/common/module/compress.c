// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/compress.h"
#include "module/compress_codec.h"


/* One codec per format, in the order the magics are tried: the module
 * formats of kernel/module/decompress.c and kmod's libkmod-file.c first,
 * then those only kernel images (lib/decompress.c) come in. */
static const struct compress_codec *const codecs[] = {
	[COMPRESS_GZIP] = &compress_gzip,
	[COMPRESS_XZ] = &compress_xz,
	[COMPRESS_ZSTD] = &compress_zstd,
	[COMPRESS_LZ4] = &compress_lz4,
	[COMPRESS_LZMA] = &compress_lzma,
	[COMPRESS_BZIP2] = &compress_bzip2,
};

static const struct compress_codec *codec_of(enum compress_fmt c)
{
	if ((size_t)c >= sizeof(codecs) / sizeof(codecs[0]))
		return NULL;
	return codecs[c];
}

enum compress_fmt compress_detect(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (codecs[i] && codecs[i]->module &&
		    codecs[i]->sniff(buf, len))
			return codecs[i]->id;
	return COMPRESS_NONE;
}

enum compress_fmt compress_detect_kernel(const uint8_t *buf, size_t len)
{
	enum compress_fmt c = compress_detect(buf, len);

	if (c != COMPRESS_NONE)
		return c;
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
		if (codecs[i] && !codecs[i]->module &&
		    codecs[i]->sniff(buf, len))
			return codecs[i]->id;
	return COMPRESS_NONE;
}

const char *compress_name(enum compress_fmt c)
{
	const struct compress_codec *k = codec_of(c);

	return k ? k->name : "none";
}

int compress_buf_init(struct compress_buf *o, size_t guess, size_t limit,
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
size_t compress_buf_total(const struct compress_buf *o)
{
	return o->spilled + o->len;
}

/*
 * Room for need bytes after o->len (or as many as fit), growing the
 * buffer up to keep and dropping its bytes past that; never room for
 * more than one byte over the limit, so that crossing it stops the
 * decoder at once: -EFBIG from then on.
 */
int compress_buf_reserve(struct compress_buf *o, size_t need, size_t *room)
{
	size_t left;

	if (compress_buf_total(o) > o->limit)
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
	left = o->limit - compress_buf_total(o) + 1;
	if (*room > left)
		*room = left;
	return 0;
}

/* Room after o->len, at most UINT_MAX (zlib and bzip2 count in
 * unsigned int). */
int compress_buf_room(struct compress_buf *o, size_t *room)
{
	int err = compress_buf_reserve(o, 1, room);

	if (*room > UINT_MAX)
		*room = UINT_MAX;
	return err;
}

void compress_buf_free(struct compress_buf *o)
{
	free(o->p);
	o->p = NULL;
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

int compress_decode(enum compress_fmt c, const uint8_t *in, size_t in_len,
		  size_t max, uint8_t **out, size_t *out_len, size_t *used,
		  const char **why)
{
	const struct compress_codec *k = codec_of(c);
	struct compress_buf o;
	size_t total, first;
	int err;

	*out = NULL;
	*out_len = 0;
	*used = 0;
	*why = NULL;
	if (!k)
		return -EINVAL;
	err = k->need();
	if (err) {
		*why = "cannot load the decompression library";
		return err;
	}
	/* Modules compress about 3:1; start near that, grow by doubling. */
	err = compress_buf_init(&o, in_len < max / 4 ? in_len * 4 : max, max,
			  keep_for(in_len, max));
	if (!err)
		err = k->decode(in, in_len, &o, used, why);
	total = compress_buf_total(&o);
	if (!err && o.spilled && total <= max) {
		/* it fits after all: again, into a buffer of its size */
		first = total;
		compress_buf_free(&o);
		err = compress_buf_init(&o, first + 1, max, first + 1);
		if (!err)
			err = k->decode(in, in_len, &o, used, why);
		total = compress_buf_total(&o);
		if (!err && (o.spilled || total != first))
			err = -EIO;	/* a decoder that is not deterministic */
	}
	if (!err && total > max)
		err = -EFBIG;
	if (err == -EFBIG)
		*why = over_limit(max);
	if (err) {
		compress_buf_free(&o);
		*used = 0;
		return err;
	}
	*out = o.p;
	*out_len = o.len;
	return 0;
}

size_t compress_iov_total(const struct iovec *iov, int iovcnt)
{
	size_t total = 0;

	for (int i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	return total;
}

int compress_encode(enum compress_fmt c, const struct iovec *iov, int iovcnt,
		uint8_t **out, size_t *out_len)
{
	const struct compress_codec *k = codec_of(c);
	size_t total = compress_iov_total(iov, iovcnt);
	struct compress_buf o;
	int err;

	*out = NULL;
	*out_len = 0;
	if (!k)
		return -EINVAL;
	err = k->need();
	if (err)
		return err;
	/* Modules shrink to a third or so: start at half, grow by doubling. */
	err = compress_buf_init(&o, total / 2 + 4096, SIZE_MAX / 2,
				SIZE_MAX / 2);
	if (err)
		return err;
	/* kernel images are read, never written */
	err = k->encode ? k->encode(iov, iovcnt, &o) : -EINVAL;
	if (err) {
		compress_buf_free(&o);
		return err;
	}
	*out = o.p;
	*out_len = o.len;
	return 0;
}
