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

struct ms_list;

/* Subdirectories that could not be listed: counted, not fatal. */
struct ms_tree_skipped {
	size_t n;
	char *first;		/* the first of them, for a message */
	int first_err;		/* and its -errno */
	size_t links;		/* links to directories, not followed */
	char *first_link;
};

/*
 * Append the files below dir to out, sorted among themselves.  DIR
 * itself is followed when it is a link (find -H); a regular file is its
 * own tree.  Returns 0, -ENOMEM, or the -errno of dir itself.
 */
int ms_tree_collect(const char *dir, int (*want)(const char *name),
		    struct ms_list *out, struct ms_tree_skipped *skipped);
void ms_tree_skipped_free(struct ms_tree_skipped *skipped);

/* A kernel module's name: *.ko, or one compressed as kbuild's
 * modules_install does (*.ko.gz, *.ko.xz, *.ko.zst). */
int ms_is_module_name(const char *path);

/*
 * The inputs of a many-file run, in this order: the names given, the
 * names in --files-from LIST, the modules below -r DIR.
 */
struct ms_inputs {
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
int ms_inputs_collect(const struct ms_inputs *in, struct ms_list *out);

#endif
