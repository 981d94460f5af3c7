/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compressed modules (.ko.gz, .ko.xz, .ko.zst): recognise the format by
 * content, decompress one stream, and compress again with the settings
 * kbuild's modules_install uses, which the kernel's in-kernel decompressors
 * (kernel/module/decompress.c) and kmod accept.  The kernel checks the
 * signature of the decompressed module (kernel/module/signing.c,
 * module_sig_check()), so a
 * signature belongs inside the compressed stream, never after it.
 */
#ifndef MODSIGN_MODULE_COMPRESS_H
#define MODSIGN_MODULE_COMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

enum compress_fmt {
	COMPRESS_NONE,
	COMPRESS_GZIP,
	COMPRESS_XZ,
	COMPRESS_ZSTD,
	/* Kernel images only (bzImage payloads): the kernel's module loader
	 * knows none of these, so compress_detect() never answers them. */
	COMPRESS_LZ4,		/* lz4 -l: the legacy frame of lib/decompress_unlz4 */
	COMPRESS_LZMA,		/* lzma -9: the .lzma "alone" format */
	COMPRESS_BZIP2,
};

/*
 * Largest decompressed module accepted.  The biggest modules of
 * distribution kernels are tens of MiB, debug builds a few hundred; the cap
 * only stops a small file from filling memory.
 */
#define COMPRESS_DECODE_MAX ((size_t)1 << 30)

/* The format whose magic starts buf; COMPRESS_NONE for anything else. */
enum compress_fmt compress_detect(const uint8_t *buf, size_t len);

/*
 * The format of a kernel image payload (arch/x86/boot/compressed: gzip,
 * xz, zstd, lz4, lzma, bzip2) at the start of buf; COMPRESS_NONE else.
 */
enum compress_fmt compress_detect_kernel(const uint8_t *buf, size_t len);

/* "gzip", "xz", "zstd", "lz4", "lzma", "bzip2"; "none" for COMPRESS_NONE. */
const char *compress_name(enum compress_fmt c);

/*
 * Decompress the first stream (gzip member, xz stream, zstd frame, lz4
 * legacy frame, lzma stream, bzip2 stream) of in,
 * as the kernel does, into a malloc'd *out.  *used gets the compressed
 * bytes that stream took: anything after it is ignored by the kernel and
 * left for the caller to judge.  Errors: -EBADMSG for a corrupt or
 * truncated stream (with *why saying which), -EFBIG when the result would
 * exceed max (*why naming max), -ENOMEM, -EINVAL for COMPRESS_NONE,
 * -ELIBACC when the format's library cannot be loaded.  A stream that
 * expands past max is stopped as soon as it crosses it, after at most
 * max(16 MiB, 8 times in_len) bytes of output memory, never max; an
 * output beyond that which still fits is decoded twice.
 */
int compress_decode(enum compress_fmt c, const uint8_t *in, size_t in_len,
		  size_t max, uint8_t **out, size_t *out_len, size_t *used,
		  const char **why);

/*
 * Compress the concatenation of the iov pieces into one stream in a
 * malloc'd *out, with kbuild's settings (scripts/Makefile.modinst):
 *   gzip  "gzip -n -f": deflate level 6, no name, mtime 0
 *   xz    "xz --check=crc32 --lzma2=dict=1MiB": CRC32 check (the kernel's
 *         xz decoder knows no CRC64), LZMA2 preset 6 with a 1 MiB dictionary
 *   zstd  "zstd -T0 --rm -f -q": level 3 with a content checksum
 * Errors: -ENOMEM, -EFBIG, -EIO (the library refused), -EINVAL (also for
 * the kernel-image-only formats), -ELIBACC (the library cannot be
 * loaded).
 */
int compress_encode(enum compress_fmt c, const struct iovec *iov, int iovcnt,
		uint8_t **out, size_t *out_len);


#endif
