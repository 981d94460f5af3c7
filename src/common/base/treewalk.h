/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files below a directory, for verify-file -r: regular files whose
 * names a filter accepts, and symbolic links with such names (followed
 * when opened, as modprobe opens the path modules.dep names: a dangling
 * one then gets its error like any unreadable file); links to
 * directories are not descended into (a loop, or a tree twice) but
 * counted and named,
 * sorted by strcmp so that output order does not depend on the file
 * system's.  Entry types come from readdir where the file system gives
 * them: a tree of 4,000 modules is listed without a stat per file, which
 * matters because the listing runs before any worker can start.
 */
#ifndef MODSIGN_BASE_TREEWALK_H
#define MODSIGN_BASE_TREEWALK_H

#include <stddef.h>

struct batch_run_list;

/*
 * The inputs of a many-file run, in this order: the names given, the
 * names in --files-from LIST, the modules below -r DIR.
 */
struct treewalk_inputs {
	char **names;
	int n;
	const char *from;	/* --files-from LIST, or NULL */
	int nul;		/* -0: LIST's names end with NUL */
	const char *walk;	/* -r DIR, or NULL */
};

/*
 * Fill out with in's files.  Returns 0 or an exit code (base/exitcode.h)
 * after one line naming the list or directory at fault: an unreadable
 * LIST or DIR (out is then empty), a LIST or DIR that yields no file (a
 * mistyped path must not pass as "0 files checked"), or subdirectories
 * that could not be listed (out keeps what was found).
 */
int treewalk_collect(const struct treewalk_inputs *in, struct batch_run_list *out);

/* Whether path names a kernel module: *.ko, or one compressed as kbuild's
 * modules_install does (*.ko.gz, *.ko.xz, *.ko.zst).  -r takes these;
 * sign-file refuses to sign a body so named that is no ELF file. */
int treewalk_is_module(const char *path);

#endif
