/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the codec files of module/compress.c share: one struct
 * compress_codec per format (compress_gzip.c, compress_xz.c, ...), the
 * output buffer every decoder writes to, and the way a codec opens its
 * library.  Only the compress*.c files include this.
 */
#ifndef MODSIGN_MODULE_COMPRESS_CODEC_H
#define MODSIGN_MODULE_COMPRESS_CODEC_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "module/compress.h"

/*
 * The output of one decompression, which refuses to pass limit bytes.
 * The buffer grows to keep bytes at most: past that the output is only
 * counted (spilled), its bytes dropped, so that a small file that expands
 * without end (a decompression bomb) costs keep bytes of memory, not
 * limit, before it is refused; each decoder keeps its own history window,
 * so dropping what it already returned changes nothing it decodes.  A
 * stream that spilled and still fits is decoded again into a buffer of
 * the size then known (compress_decode).
 */
struct compress_buf {
	uint8_t *p;
	size_t len, cap;
	size_t keep;		/* the largest buffer kept */
	size_t limit;		/* the most bytes accepted */
	size_t spilled;		/* bytes counted and dropped */
};

int compress_buf_init(struct compress_buf *o, size_t guess, size_t limit,
		      size_t keep);
/* The bytes out so far, kept or not. */
size_t compress_buf_total(const struct compress_buf *o);
/*
 * Room for need bytes after o->len (or as many as fit), growing the
 * buffer up to keep and dropping its bytes past that; never room for
 * more than one byte over the limit, so that crossing it stops the
 * decoder at once: -EFBIG from then on.
 */
int compress_buf_reserve(struct compress_buf *o, size_t need, size_t *room);
/* Room after o->len, at most UINT_MAX (zlib and bzip2 count in
 * unsigned int). */
int compress_buf_room(struct compress_buf *o, size_t *room);
void compress_buf_free(struct compress_buf *o);

size_t compress_iov_total(const struct iovec *iov, int iovcnt);

/*
 * One format: its magic as the kernel (kernel/module/decompress.c for
 * modules, lib/decompress.c for kernel images) tells it, its library,
 * its decoder and, for the formats modules come in, its encoder.
 */
struct compress_codec {
	enum compress_fmt id;
	const char *name;
	bool module;		/* a module format (compress_detect) */
	/* the format's magic starts buf */
	bool (*sniff)(const uint8_t *buf, size_t len);
	/* open the library (once per process); -ELIBACC when missing */
	int (*need)(void);
	/* decompress the first stream of in into o; *used its bytes */
	int (*decode)(const uint8_t *in, size_t in_len,
		      struct compress_buf *o, size_t *used, const char **why);
	/* kbuild's compression into o; NULL: read, never written */
	int (*encode)(const struct iovec *iov, int iovcnt,
		      struct compress_buf *o);
};

extern const struct compress_codec compress_gzip, compress_xz,
	compress_lzma, compress_zstd, compress_lz4, compress_bzip2;

/* buf starts with magic */
static inline bool compress_magic(const uint8_t *buf, size_t len,
				  const uint8_t *magic, size_t magic_len)
{
	return len >= magic_len && __builtin_memcmp(buf, magic, magic_len) == 0;
}

/*
 * The compression libraries are opened when a format is first needed,
 * not linked: five more libraries for the dynamic loader to map and
 * relocate would add to every run's start-up, a visible part of signing
 * a plain module, and most runs never decompress anything.  The headers
 * still give each entry point its type; the sonames are the libraries' ABI.
 */
#define COMPRESS_FN_PTR(f) __typeof__(f) *f;
#define COMPRESS_FN_LOAD(f) \
	if (!(lib->f = (__typeof__(f) *)dlsym(h, #f))) \
		goto fail;

/* The entry points FNS of a library as the struct name (name.f), and
 * name_need(), which opens the first soname found once per process. */
#define COMPRESS_DEFINE_LIB(name, FNS, ...) \
static struct name##_api { FNS(COMPRESS_FN_PTR) } name; \
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
	FNS(COMPRESS_FN_LOAD) \
	name##_ok = 1; \
	return; \
fail: \
	dlclose(h); \
} \
static int name##_need(void) \
{ \
	static pthread_once_t once = PTHREAD_ONCE_INIT; \
\
	pthread_once(&once, name##_load); \
	return name##_ok ? 0 : -ELIBACC; \
}

#endif
