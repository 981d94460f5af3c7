// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "base/treewalk.h"

/* Subdirectories that could not be listed: counted, not fatal. */
struct treewalk_skipped {
	size_t n;
	char *first;		/* the first of them, for a message */
	int first_err;		/* and its -errno */
	size_t links;		/* links to directories, not followed */
	char *first_link;
};

static void note_skipped(struct treewalk_skipped *s, const char *dir, int err)
{
	if (!s->n++) {
		s->first = strdup(dir);
		s->first_err = err;
	}
}

/* DIR/NAME, malloc'd; NULL when out of memory. */
static char *child(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* A kernel module's name: *.ko, or one compressed as kbuild's
 * modules_install does (*.ko.gz, *.ko.xz, *.ko.zst). */
int treewalk_is_module(const char *path)
{
	static const char *const ends[] = { ".ko", ".ko.xz", ".ko.zst",
					    ".ko.gz" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);

		if (n > e && strcmp(path + n - e, ends[i]) == 0)
			return 1;
	}
	return 0;
}

/* Returns 0 or -ENOMEM; a directory that cannot be read is noted. */
static int walk(const char *dir, struct batch_run_list *out,
		struct treewalk_skipped *skipped)
{
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
		/* a link to a directory is not followed, but said */
		if (type == DT_LNK && !treewalk_is_module(e->d_name)) {
			if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 &&
			    S_ISDIR(st.st_mode) && !skipped->links++ &&
			    !(skipped->first_link = child(dir, e->d_name))) {
				err = -ENOMEM;
				break;
			}
			continue;
		}
		if (type != DT_DIR && ((type != DT_REG && type != DT_LNK) ||
				       !treewalk_is_module(e->d_name)))
			continue;
		free(path);
		if (!(path = child(dir, e->d_name))) {
			err = -ENOMEM;
			break;
		}
		err = type == DT_DIR ? walk(path, out, skipped)
				     : batch_run_list_add(out, path);
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

/*
 * Append the files below dir to out, sorted among themselves.  DIR
 * itself is followed when it is a link (find -H); a regular file is its
 * own tree.  Returns 0, -ENOMEM, or the -errno of dir itself.
 */
static int tree_collect(const char *dir, struct batch_run_list *out,
			struct treewalk_skipped *skipped)
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
		err = walk(top, out, skipped);
	else if (S_ISREG(st.st_mode) && treewalk_is_module(top))
		err = batch_run_list_add(out, top);
	free(top);
	/* an empty tree may have no array at all: qsort takes no NULL */
	if (!err && out->n > from)
		qsort(out->v + from, out->n - from, sizeof(*out->v), cmp_path);
	return err;
}

static void ms_tree_skipped_free(struct treewalk_skipped *skipped)
{
	free(skipped->first);
	free(skipped->first_link);
	memset(skipped, 0, sizeof(*skipped));
}

static int collect_list(const struct treewalk_inputs *in, struct batch_run_list *out)
{
	size_t before = out->n;
	int err = batch_run_list_read(out, in->from, in->nul);

	if (err == -ENOMEM)
		return err;
	if (err == -EILSEQ) {
		log_error(in->from, "the file list holds NUL bytes: its names "
			 "are NUL-separated (add -0)");
		return EXITCODE_USAGE;
	}
	if (err) {
		log_error(in->from, "cannot read the file list: %s (check "
			 "--files-from)", strerror(-err));
		return EXITCODE_IO;
	}
	if (out->n == before) {
		log_error(in->from, "the file list names no file (check "
			 "--files-from)");
		return EXITCODE_USAGE;
	}
	return 0;
}

/* *partial: some directories were skipped, the rest is in out. */
static int collect_tree(const struct treewalk_inputs *in, struct batch_run_list *out,
			int *partial)
{
	struct treewalk_skipped skipped = { 0 };
	size_t before = out->n;
	int err, code = 0;

	err = tree_collect(in->walk, out, &skipped);
	if (err == -ENOMEM) {
		ms_tree_skipped_free(&skipped);
		return err;
	}
	if (err) {
		log_error(in->walk, "cannot walk the directory: %s (check -r)",
			 strerror(-err));
		ms_tree_skipped_free(&skipped);
		return EXITCODE_IO;
	}
	if (skipped.n) {
		log_warn(skipped.first, "cannot list this directory: %s; %zu "
			"director%s below %s skipped",
			strerror(-skipped.first_err), skipped.n,
			skipped.n == 1 ? "y" : "ies", in->walk);
		/* results may be missing: as with find, that fails the run */
		code = EXITCODE_IO;
		*partial = out->n > before;
	}
	if (skipped.links)
		/* said, not failed: modprobe does not descend into them
		 * either (it loads what modules.dep names) */
		log_warn(skipped.first_link, "a link to a directory, not "
			"followed; %zu such link%s below %s skipped",
			skipped.links, skipped.links == 1 ? "" : "s", in->walk);
	if (out->n == before && !code) {
		log_error(in->walk, "no kernel module (*.ko, *.ko.gz, *.ko.xz, "
			 "*.ko.zst) below this directory (check -r)");
		code = EXITCODE_USAGE;
	}
	ms_tree_skipped_free(&skipped);
	return code;
}

int treewalk_collect(const struct treewalk_inputs *in, struct batch_run_list *out)
{
	int code = 0, partial = 0;

	for (int i = 0; i < in->n; i++)
		if (batch_run_list_add(out, in->names[i]))
			goto nomem;
	if (in->from)
		code = collect_list(in, out);
	if (!code && in->walk)
		code = collect_tree(in, out, &partial);
	if (code == -ENOMEM)
		goto nomem;
	/* Unreadable or empty: nothing is worked on. */
	if (code && !partial)
		batch_run_list_free(out);
	return code;
nomem:
	batch_run_list_free(out);
	log_error(NULL, "out of memory");
	return EXITCODE_IO;
}
