// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "treewalk.h"

static int add(struct ms_tree *t, char *path)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		char **p = realloc(t->paths, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->paths = p;
		t->cap = cap;
	}
	t->paths[t->n++] = path;
	return 0;
}

static void note_unreadable(struct ms_tree *t, const char *dir, int err)
{
	if (!t->unreadable++) {
		t->first_unreadable = strdup(dir);
		t->first_err = err;
	}
}

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/* Returns 0 or -ENOMEM; a directory that cannot be read is noted. */
static int walk(struct ms_tree *t, const char *dir,
		int (*want)(const char *name))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int err = 0;

	if (!d) {
		note_unreadable(t, dir, -errno);
		return 0;
	}
	while (!err && (errno = 0, e = readdir(d)) != NULL) {
		unsigned char type = e->d_type;
		struct stat st;
		char *path;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (type == DT_UNKNOWN) {
			/* some file systems leave the type to a stat */
			if (fstatat(dirfd(d), e->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if (type != DT_DIR && (type != DT_REG || !want(e->d_name)))
			continue;
		path = join(dir, e->d_name);
		if (!path) {
			err = -ENOMEM;
			break;
		}
		if (type == DT_DIR) {
			err = walk(t, path, want);
			free(path);
		} else if ((err = add(t, path)) != 0) {
			free(path);
		}
	}
	if (!err && errno)
		note_unreadable(t, dir, -errno);
	closedir(d);
	return err;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ms_tree_collect(const char *dir, int (*want)(const char *name),
		    struct ms_tree *t)
{
	struct stat st;
	size_t len = strlen(dir);
	char *top;
	int err;

	memset(t, 0, sizeof(*t));
	/* The top is followed when it is a link (find -H): a tree reached
	 * through /lib -> usr/lib or a symlinked build directory is still
	 * the tree asked for. */
	if (stat(dir, &st) < 0)
		return -errno;
	/* "dir/" lists as "dir/x.ko", not "dir//x.ko" (as nftw does) */
	top = strdup(dir);
	if (!top)
		return -ENOMEM;
	while (len > 1 && top[len - 1] == '/')
		top[--len] = '\0';
	if (S_ISDIR(st.st_mode)) {
		err = walk(t, top, want);
		free(top);
	} else if (S_ISREG(st.st_mode) && want(top)) {
		err = add(t, top);	/* a single file is its own tree */
		if (err)
			free(top);
	} else {
		free(top);
		err = 0;
	}
	if (err) {
		ms_tree_free(t);
		return err;
	}
	qsort(t->paths, t->n, sizeof(*t->paths), cmp_path);
	return 0;
}

void ms_tree_free(struct ms_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->paths[i]);
	free(t->paths);
	free(t->first_unreadable);
	memset(t, 0, sizeof(*t));
}
