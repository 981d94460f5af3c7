// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __has_include
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif

#include "trust/rootpath.h"

/* fs/namei.c: MAXSYMLINKS */
#define ROOT_MAX_LINKS 40

int rootpath_is_host(const char *root)
{
	return !root || !root[0] || strcmp(root, "/") == 0;
}

/* The resolved part: root, then "/comp" for each component taken. */
struct walk {
	char buf[PATH_MAX];
	size_t root_len, len;
};

static int push(struct walk *w, const char *comp, size_t n)
{
	if (w->len + 1 + n >= sizeof(w->buf))
		return -ENAMETOOLONG;
	w->buf[w->len++] = '/';
	memcpy(w->buf + w->len, comp, n);
	w->len += n;
	w->buf[w->len] = 0;
	return 0;
}

/* ".." never climbs above the root */
static void pop(struct walk *w)
{
	while (w->len > w->root_len && w->buf[w->len - 1] != '/')
		w->len--;
	if (w->len > w->root_len)
		w->len--;
	w->buf[w->len] = 0;
}

/*
 * The components still to walk are kept in rest (a malloc'd string):
 * a link's target is put before what followed it.
 */
static int prepend(char **rest, const char *target, size_t tlen,
		   const char *after)
{
	size_t alen = strlen(after);
	char *s = malloc(tlen + 1 + alen + 1);

	if (!s)
		return -ENOMEM;
	memcpy(s, target, tlen);
	s[tlen] = '/';
	memcpy(s + tlen + 1, after, alen + 1);
	free(*rest);
	*rest = s;
	return 0;
}

#if defined(SYS_openat2) && defined(RESOLVE_IN_ROOT)
/* The kernel's own resolution, where it has openat2(): it must reach
 * the file the walk reached.  Absent on either side is no disagreement:
 * the caller's open says so. */
static int same_as_kernel(const char *root, const char *path,
			  const char *found)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT |
					   RESOLVE_NO_MAGICLINKS };
	struct stat a, b;
	int rfd, fd, ret = 0;

	rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return 0;
	while (*path == '/')
		path++;
	fd = (int)syscall(SYS_openat2, rfd, *path ? path : ".", &how,
			  sizeof(how));
	close(rfd);
	if (fd < 0)
		return 0;	/* ENOSYS, a seccomp EPERM, ENOENT... */
	if (fstat(fd, &a) == 0 && stat(found, &b) == 0 &&
	    (a.st_dev != b.st_dev || a.st_ino != b.st_ino))
		ret = -EXDEV;
	close(fd);
	return ret;
}
#else
static int same_as_kernel(const char *root, const char *path,
			  const char *found)
{
	(void)root, (void)path, (void)found;
	return 0;
}
#endif

int rootpath_resolve(const char *root, const char *path, char **out)
{
	struct walk w;
	char *rest, *p, target[PATH_MAX];
	int links = 0, ret = 0;
	bool gone = false;

	*out = NULL;
	if (rootpath_is_host(root)) {
		*out = strdup(path);
		return *out ? 0 : -ENOMEM;
	}
	w.root_len = strlen(root);
	while (w.root_len > 1 && root[w.root_len - 1] == '/')
		w.root_len--;
	if (w.root_len >= sizeof(w.buf))
		return -ENAMETOOLONG;
	memcpy(w.buf, root, w.root_len);
	w.len = w.root_len;
	w.buf[w.len] = 0;
	rest = strdup(path);
	if (!rest)
		return -ENOMEM;
	p = rest;
	while (*p && !ret) {
		char *end, *next;
		struct stat st;
		ssize_t n;
		size_t clen;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		clen = end ? (size_t)(end - p) : strlen(p);
		next = end ? end : p + clen;
		if (clen == 1 && p[0] == '.') {
			p = next;
			continue;
		}
		if (!gone && clen == 2 && p[0] == '.' && p[1] == '.') {
			pop(&w);
			p = next;
			continue;
		}
		if ((ret = push(&w, p, clen)))
			break;
		p = next;
		if (gone)
			continue;
		if (lstat(w.buf, &st) != 0) {
			gone = true;	/* the rest as written */
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > ROOT_MAX_LINKS) {
			ret = -ELOOP;
			break;
		}
		n = readlink(w.buf, target, sizeof(target) - 1);
		if (n < 0) {
			ret = -errno;
			break;
		}
		pop(&w);
		if (target[0] == '/')
			w.len = w.root_len, w.buf[w.len] = 0;
		if ((ret = prepend(&rest, target, (size_t)n, p)))
			break;
		p = rest;
	}
	free(rest);
	if (ret)
		return ret;
	if (w.len == w.root_len && (ret = push(&w, ".", 1)))
		return ret;
	if ((ret = same_as_kernel(root, path, w.buf)))
		return ret;
	*out = strdup(w.buf);
	return *out ? 0 : -ENOMEM;
}
