// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "module/module_file.h"
#include "module/trailer.h"

static int modfile_open(const char *path, struct module_file *m,
			const char **why, int lock)
{
	const uint8_t *stored;
	size_t used;
	int err;

	memset(m, 0, sizeof(*m));
	*why = NULL;
	err = lock == 2 ? infile_open_trylock(path, &m->file)
	    : lock ? infile_open_locked(path, &m->file)
		   : infile_open(path, &m->file);
	if (err)
		return err;
	stored = m->file.data;
	m->comp = compress_detect(stored, m->file.len);
	if (m->comp == COMPRESS_NONE) {
		m->data = stored;
		m->len = m->file.len;
		return 0;
	}

	err = compress_decode(m->comp, stored, m->file.len, COMPRESS_DECODE_MAX,
			    &m->buf, &m->len, &used, why);
	/* No module is that large: one that expands past the limit is a
	 * malformed file (a decompression bomb), not a failing disk. */
	if (err == -EFBIG)
		err = -EBADMSG;
	if (err)
		goto fail;
	m->data = m->buf;
	m->stream_len = used;
	/* The kernel's decompressors stop at the end of the first stream
	 * and never look further (kernel/module/decompress.c), nor does
	 * kmod; xz -d and zstd -d call such a file corrupt.  A trailer there
	 * is the signed-after-compression mistake; anything else is damage. */
	if (used < m->file.len) {
		if (!trailer_has_magic(stored, m->file.len)) {
			*why = "data after the end of the compressed stream";
			err = -EBADMSG;
			goto fail;
		}
		m->signed_after = 1;
	}
	return 0;
fail:
	/* Garbage read from a file that changed meanwhile is not its
	 * content's fault. */
	if (infile_check(&m->file)) {
		*why = NULL;
		err = INFILE_ECHANGED;
	}
	module_file_close(m);
	return err;
}

void module_file_close(struct module_file *m)
{
	infile_close(&m->file);
	free(m->buf);
	m->buf = NULL;
	m->data = NULL;
	m->len = 0;
}

int module_file_signed_after(const struct module_file *m, const char **what)
{
	if (trailer_has_magic(m->data, m->len)) {
		*what = "a second signature is appended after compression, "
			"where the kernel never looks";
		return 0;
	}
	*what = MODULE_FILE_SIGNED_AFTER_MSG;
	return -ENODATA;
}

int module_file_open(const char *path, struct module_file *m, const char **why)
{
	return modfile_open(path, m, why, 0);
}

int module_file_open_locked(const char *path, struct module_file *m,
			   const char **why)
{
	return modfile_open(path, m, why, 1);
}

int module_file_open_trylock(const char *path, struct module_file *m,
			    const char **why)
{
	return modfile_open(path, m, why, 2);
}
