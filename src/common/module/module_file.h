/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A module file as the kernel sees it.  finit_module() decompresses a
 * .ko.gz/.ko.xz/.ko.zst before it looks for the signature (kernel/module/
 * signing.c, module_sig_check()), so every tool judges the decompressed
 * bytes; this is the one
 * place that turns a path into those bytes, so that sign-file, extract-sig
 * and verify-file cannot disagree.
 */
#ifndef MODSIGN_MODULE_MODULE_FILE_H
#define MODSIGN_MODULE_MODULE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/infile.h"
#include "module/compress.h"

/*
 * Stored file and kernel view:
 *
 *   plain:       file = [ module ... (trailer) ]            data = file
 *   compressed:  file = [ stream ]                  data = decompress(stream)
 *   signed after compression (the common mistake):
 *                file = [ stream ][ CMS | desc | magic ]
 *                       `stream_len'  ignored by the kernel's decompressors
 */
struct module_file {
	struct infile file;	/* as stored: fd, read-only map, stat */
	enum compress_fmt comp;	/* recognised by content, not by name */
	const uint8_t *data;	/* the module the kernel sees */
	size_t len;
	size_t stream_len;	/* stored bytes of the compressed stream */
	int signed_after;	/* a signature trailer follows the stream */
	uint8_t *buf;		/* decompressed copy (owned), or NULL */
};

/*
 * Open path and, when it is compressed, decompress its first stream.
 * Errors: those of infile_open() with *why = NULL; or, with *why saying
 * what is wrong with the content, -EBADMSG (corrupt or truncated stream,
 * bytes after the stream that are not a signature trailer, or a stream
 * that expands past COMPRESS_DECODE_MAX, *why naming the limit),
 * -ENOMEM.  A signature appended after compression is not an error
 * here: signed_after is set and data holds
 * the decompressed stream without it, which is what the kernel loads.
 */
int module_file_open(const char *path, struct module_file *m,
		    const char **why);
/* The same under the file's exclusive lock (infile_open_locked). */
int module_file_open_locked(const char *path, struct module_file *m,
			   const char **why);
/* Or -EWOULDBLOCK at once when the lock is held (infile_open_trylock). */
int module_file_open_trylock(const char *path, struct module_file *m,
			    const char **why);
void module_file_close(struct module_file *m);

#define MODULE_FILE_SIGNED_AFTER_MSG \
	"signature appended to a compressed module: the kernel sees an " \
	"unsigned module"

/*
 * The kernel's verdict on a signed_after file, with the words for it:
 * -ENODATA and MODULE_FILE_SIGNED_AFTER_MSG when the decompressed module carries
 * no signature of its own; 0 with a warning text when it does (the
 * outer trailer is then merely ignored by the kernel).
 */
int module_file_signed_after(const struct module_file *m, const char **what);

#endif
