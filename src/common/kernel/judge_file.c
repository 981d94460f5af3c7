// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "base/fileio.h"
#include "kernel/judge_file.h"

/* No verdict on bytes a file no longer has: it shrank, or its storage
 * failed, while it was read (base/fileio.h, MS_ECHANGED). */
static int unchanged(struct kv_judgement *j)
{
	if (ms_file_check(&j->file.file))
		return MS_ECHANGED;
	if (ms_file_check(&j->sig)) {
		j->sig_unreadable = 1;
		return MS_ECHANGED;
	}
	return 0;
}

int kv_judge_file(const struct kv_ctx *kv, const char *file,
		  const char *sigpath, int usage, struct kv_judgement *j)
{
	struct ms_modfile *m = &j->file;
	const char *why = NULL;
	int err;

	memset(j, 0, sizeof(*j));
	j->file.file.fd = -1;
	j->sig.fd = -1;
	if (sigpath) {
		/* Detached data is checked as stored. */
		j->usage = usage >= 0 ? (enum kv_usage)usage
				      : KV_USAGE_UNSPECIFIED;
		err = ms_file_open(file, &m->file);
		if (err)
			return err;
		m->data = m->file.data;
		m->len = m->file.len;
		err = ms_file_open(sigpath, &j->sig);
		if (err) {
			j->sig_unreadable = 1;
			return err;
		}
		kv_verify_pkcs7(kv, m->data, m->len, j->sig.data, j->sig.len,
				j->usage, &j->r);
		return unchanged(j);
	}
	j->usage = usage >= 0 ? (enum kv_usage)usage : KV_USAGE_MODULE;
	err = ms_modfile_open(file, m, &why);
	if (err) {
		j->why = why;
		return err;
	}
	if (m->signed_after && ms_modfile_signed_after(m, &why) == -ENODATA) {
		/* The trailer sits after the compressed stream, where the
		 * kernel's decompressor never looks: an unsigned module. */
		j->r.err = -ENODATA;
		j->r.reason = MS_SIGNED_AFTER_MSG;
	} else {
		kv_verify_module(kv, m->data, m->len, j->usage, &j->r);
	}
	return unchanged(j);
}

void kv_judgement_free(struct kv_judgement *j)
{
	kv_result_free(&j->r);
	ms_file_close(&j->sig);
	ms_modfile_close(&j->file);
}
