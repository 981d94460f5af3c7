// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/batch_run.h"
#include "base/treewalk.h"

static void note_skipped(struct ms_tree_skipped *s, const char *dir, int err)
{
	if (!s->n++) {
		s->first = strdup(dir);
		s->first_err = err;
	}
}

/* Returns 0 or -ENOMEM; a directory that cannot be read is noted. */
static int walk(const char *dir, int (*want)(const char *name),
		struct ms_list *out, struct ms_tree_skipped *skipped)
{
	size_t dlen = strlen(dir);
	DIR *d = opendir(dir);
	struct dirent *e;
	char *path = NULL;
	int err = 0;

	if (!d) {
		note_skipped(skipped, dir, -errno);
		return 0;
	}
	while (!err && (errno = 0, e = readdir(d)) != NULL) {
		unsigned char type = e->d_type;
		struct stat st;

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
		free(path);
		path = malloc(dlen + strlen(e->d_name) + 2);
		if (!path) {
			err = -ENOMEM;
			break;
		}
		sprintf(path, "%s/%s", dir, e->d_name);
		err = type == DT_DIR ? walk(path, want, out, skipped)
				     : ms_list_add(out, path);
	}
	if (!err && errno)
		note_skipped(skipped, dir, -errno);
	free(path);
	closedir(d);
	return err;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ms_tree_collect(const char *dir, int (*want)(const char *name),
		    struct ms_list *out, struct ms_tree_skipped *skipped)
{
	size_t from = out->n, len = strlen(dir);
	struct stat st;
	char *top;
	int err = 0;

	memset(skipped, 0, sizeof(*skipped));
	if (stat(dir, &st) < 0)
		return -errno;
	/* "dir/" lists as "dir/x.ko", not "dir//x.ko" (as nftw does) */
	top = strdup(dir);
	if (!top)
		return -ENOMEM;
	while (len > 1 && top[len - 1] == '/')
		top[--len] = '\0';
	if (S_ISDIR(st.st_mode))
		err = walk(top, want, out, skipped);
	else if (S_ISREG(st.st_mode) && want(top))
		err = ms_list_add(out, top);
	free(top);
	if (!err)
		qsort(out->v + from, out->n - from, sizeof(*out->v), cmp_path);
	return err;
}

void ms_tree_skipped_free(struct ms_tree_skipped *skipped)
{
	free(skipped->first);
	memset(skipped, 0, sizeof(*skipped));
}
