/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One file judged as the kernel is handed it: a module is decompressed
 * first, as finit_module() does with MODULE_INIT_COMPRESSED_FILE
 * (kernel/module/main.c, init_module_from_file), then its appended
 * signature is checked, then, when the kernel goes on (the signature
 * accepted, or one it loads when not enforcing), the ELF checks of
 * load_module() (module/elf_check.h); data with a detached signature (firmware,
 * regulatory.db) is checked as stored, as verify_pkcs7_signature() is
 * called by its loaders.
 */
#ifndef MODSIGN_KERNEL_JUDGE_FILE_H
#define MODSIGN_KERNEL_JUDGE_FILE_H

#include "kernel/verify.h"
#include "module/module_file.h"

struct judge_file_judgement {
	enum verify_usage usage;	/* the usage the file was judged for */
	struct verify_result r;	/* the kernel's verdict */
	const char *why;	/* static: why the file could not be
				 * decompressed, else NULL */
	int sig_unreadable;	/* the error was the detached signature's */
	char reason[160];	/* r.reason, when made for this file */
	/* The parsed message points into these: open until freed. */
	struct module_file file;
	struct infile sig;
};

/*
 * Judge file, with sigpath its detached signature or NULL for an
 * appended one; usage < 0 takes the default of the form (module for
 * appended, unspecified for detached).  Returns 0 when judged (the
 * verdict is j->r.err), else the -errno that kept the file (or with
 * j->sig_unreadable, its signature) from being read, INFILE_ECHANGED when
 * it changed while it was read.  A module that does not decompress is
 * judged -EINVAL, as module_decompress() answers (j->why says why).
 * With kv->sig_unchecked a module's signature is not looked at: 0 with
 * the reason that none is checked, or the ELF checks' -ENOEXEC.
 * judge_file_free in every case.
 */
int judge_file_run(const struct verify_ctx *kv, const char *file,
		  const char *sigpath, int usage, struct judge_file_judgement *j);
void judge_file_free(struct judge_file_judgement *j);

#endif
