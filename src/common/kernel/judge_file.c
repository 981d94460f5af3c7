// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <stdio.h>

#include "base/infile.h"
#include "kernel/judge_file.h"
#include "module/elf_check.h"
#include "module/trailer.h"

/* No verdict on bytes a file no longer has: it shrank, or its storage
 * failed, while it was read (base/infile.h, INFILE_ECHANGED). */
static int unchanged(struct judge_file_judgement *j)
{
	if (infile_check(&j->file.file))
		return INFILE_ECHANGED;
	if (infile_check(&j->sig)) {
		j->sig_unreadable = 1;
		return INFILE_ECHANGED;
	}
	return 0;
}

/*
 * load_module() (kernel/module/main.c) runs module_sig_check() first and
 * elf_validity_check() after it, on the body without its signature: a
 * module whose signature is refused gets the signature's errno, one
 * accepted, or let through unsigned (ENODATA, ENOKEY, ENOPKG when not
 * enforcing), then gets -ENOEXEC if it is no valid ELF module.
 */
static void after_sig_elf(struct judge_file_judgement *j)
{
	const struct module_file *m = &j->file;
	struct trailer t;
	const char *why;
	size_t body = m->len;
	int e = j->r.err;

	if (e && e != -ENODATA && e != -ENOKEY && e != -ENOPKG)
		return;
	if (!trailer_check(m->data, m->len, &t, &why))
		body = t.body_len;
	if (!elf_check_module(m->data, body, &why))
		return;
	j->r.elf_refused = 1;
	j->r.sig_err = e;
	j->r.sig_reason = j->r.reason;
	j->r.err = -ENOEXEC;
	j->r.reason = why;
}

/* the reason of every module judged for a kernel without
 * CONFIG_MODULE_SIG */
static const char no_sig_check[] = "CONFIG_MODULE_SIG is not set: the "
	"kernel checks no signature and sets no unsigned-module taint (E)";

/*
 * Without CONFIG_MODULE_SIG the signature stays in the module
 * (module_sig_check() strips it only when built) and elf_validity_check()
 * sees the whole file.
 */
static void only_elf(struct judge_file_judgement *j)
{
	const char *why;

	j->r.err = 0;
	j->r.reason = no_sig_check;
	if (!elf_check_module(j->file.data, j->file.len, &why))
		return;
	j->r.elf_refused = 1;
	j->r.err = -ENOEXEC;
	j->r.reason = why;
}

int judge_file_run(const struct verify_ctx *kv, const char *file,
		  const char *sigpath, int usage, struct judge_file_judgement *j)
{
	struct module_file *m = &j->file;
	const char *why = NULL;
	struct trailer t;
	int err;

	memset(j, 0, sizeof(*j));
	j->file.file.fd = -1;
	j->sig.fd = -1;
	if (sigpath) {
		/* Detached data is checked as stored. */
		j->usage = usage >= 0 ? (enum verify_usage)usage
				      : VERIFY_USAGE_UNSPECIFIED;
		err = infile_open(file, &m->file);
		if (err)
			return err;
		m->data = m->file.data;
		m->len = m->file.len;
		err = infile_open(sigpath, &j->sig);
		if (err) {
			j->sig_unreadable = 1;
			return err;
		}
		verify_pkcs7(kv, m->data, m->len, j->sig.data, j->sig.len,
				j->usage, &j->r);
		return unchanged(j);
	}
	j->usage = usage >= 0 ? (enum verify_usage)usage : VERIFY_USAGE_MODULE;
	err = module_file_open(file, m, &why);
	if (err) {
		j->why = why;
		/* module_decompress() (kernel/module/decompress.c) answers
		 * -EINVAL for any stream it cannot decompress, before the
		 * signature is looked at; too large or out of memory stays
		 * a system error. */
		if (!why || (err != -EBADMSG && err != -EINVAL))
			return err;
		snprintf(j->reason, sizeof(j->reason), "does not decompress: "
			 "%s", why);
		j->r.err = -EINVAL;
		j->r.reason = j->reason;
		return 0;
	}
	if (kv->sig_unchecked && j->usage == VERIFY_USAGE_MODULE) {
		only_elf(j);
		return unchanged(j);
	}
	if (m->signed_after && module_file_signed_after(m, &why) == -ENODATA) {
		/* The trailer sits after the compressed stream, where the
		 * kernel's decompressor never looks: an unsigned module. */
		j->r.err = -ENODATA;
		j->r.reason = MODULE_FILE_SIGNED_AFTER_MSG;
	} else {
		verify_module(kv, m->data, m->len, j->usage, &j->r);
	}
	/* signed twice: the kernel strips and checks the last signature
	 * only, as extract-sig says too */
	if (!trailer_check(m->data, m->len, &t, &why))
		j->r.signed_twice = trailer_has_magic(m->data, t.body_len);
	if (j->usage == VERIFY_USAGE_MODULE)
		after_sig_elf(j);
	return unchanged(j);
}

void judge_file_free(struct judge_file_judgement *j)
{
	verify_result_free(&j->r);
	infile_close(&j->sig);
	module_file_close(&j->file);
}
