/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files below a directory, for verify-file -r: regular files whose
 * names a filter accepts, never through a symbolic link (nftw's FTW_PHYS),
 * sorted by strcmp so that output order does not depend on the file
 * system's.  Entry types come from readdir where the file system gives
 * them: a tree of 4,000 modules is listed without a stat per file, which
 * matters because the listing runs before any worker can start.
 */
#ifndef MODSIGN_TREEWALK_H
#define MODSIGN_TREEWALK_H

#include <stddef.h>

struct ms_tree {
	char **paths;		/* sorted, each malloc'd */
	size_t n, cap;
	size_t unreadable;	/* subdirectories that could not be listed */
	char *first_unreadable;	/* the first of them, for a message */
	int first_err;		/* and its -errno */
};

/*
 * List dir.  Returns 0, -ENOMEM, or the -errno of opening dir itself;
 * subdirectories that cannot be read are counted, not fatal.
 */
int ms_tree_collect(const char *dir, int (*want)(const char *name),
		    struct ms_tree *t);
void ms_tree_free(struct ms_tree *t);

#endif
