// SPDX-License-Identifier: GPL-2.0-or-later

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/outfile.h"
#include "base/outfile_tmp.h"

static mode_t umask_value;

static void read_umask(void)
{
	umask_value = umask(0);
	umask(umask_value);
}

mode_t outfile_default_mode(void)
{
	/* umask() can only be read by setting it: once, so that batch
	 * workers never see (or leave) the umask at 0 in between. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_umask);
	return 0666 & ~umask_value;
}

mode_t outfile_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	return outfile_default_mode();
}

/*
 * Resolve a symlinked target so that the rename replaces the file.  *st
 * is what the resolved target is now; *exists 0 when there is none yet.
 * One lstat for the usual target that is no link (batch mode does this
 * per module).
 */
static char *resolve_target(const char *target, struct stat *st,
			    int *exists)
{
	char *real;

	*exists = lstat(target, st) == 0;
	if (!*exists || !S_ISLNK(st->st_mode))
		return strdup(target);
	real = realpath(target, NULL);
	if (real)
		*exists = stat(real, st) == 0;
	return real;
}

/*
 * An unnamed temporary file (O_TMPFILE): a run killed before the rename
 * leaves nothing behind; the file gets its name (linkat through
 * /proc/self/fd, which needs no privilege) only when it is complete.  Off
 * where the file system lacks it or /proc is not mounted.
 */
static int tmpfile_wanted;
static pthread_once_t tmpfile_once = PTHREAD_ONCE_INIT;

static void tmpfile_init(void)
{
	tmpfile_wanted = access("/proc/self/fd", X_OK) == 0;
}

/*
 * The tests' hooks (tests/preload/test-hooks.c) take an output as begun at
 * the first call on its descriptor, and as complete at the linkat or close
 * of outfile_commit_flags: so a named file is registered for the signal
 * cleanup (outfile_pending_add) before its descriptor is first used.
 */
int outfile_begin(const char *target, mode_t mode, struct outfile *o)
{
	char *dircopy = NULL, *base = NULL, *dir;
	struct stat st;
	int err, exists;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->mode = mode;
	o->target = resolve_target(target, &st, &exists);
	if (!o->target)
		return -errno;
	/*
	 * Only a regular file is ever replaced: the rename would otherwise
	 * put a file where a FIFO or a device node was (as root, a dest of
	 * /dev/null would replace /dev/null itself).
	 */
	if (exists && !S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ENOTSUP;
		goto fail;
	}
	o->replaces = exists;
	o->uid = st.st_uid;
	o->gid = st.st_gid;
	dircopy = strdup(o->target);
	base = strdup(o->target);
	if (!dircopy || !base) {
		err = -ENOMEM;
		goto fail;
	}
	dir = dirname(dircopy);
	if (asprintf(&o->tmp, "%s/.%.*s.%ld" OUTFILE_TMP_TAG "XXXXXX", dir,
		     outfile_tmp_room(getpid()), basename(base),
		     (long)getpid()) < 0) {
		o->tmp = NULL;
		err = -ENOMEM;
		goto fail;
	}
	outfile_remove_stale(dir);
	pthread_once(&tmpfile_once, tmpfile_init);
	if (tmpfile_wanted) {
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (o->fd >= 0) {
			o->anon = 1;
			outfile_tmp_randomize(o->tmp);
			goto begun;
		}
		/* Any other error is the directory's, and the named file
		 * would meet it too. */
		if (errno != EOPNOTSUPP && errno != EISDIR &&
		    errno != EINVAL) {
			err = -errno;
			goto fail;
		}
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		err = -errno;
		goto fail;
	}
	outfile_pending_add(o->tmp);
begun:
	free(dircopy);
	free(base);
	return 0;
fail:
	free(dircopy);
	free(base);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return err;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Bytes of a mapped input go out through a small buffer read with
 * pread (infile_map_read), never through the mapping. */
#define COPY_CHUNK ((size_t)64 << 10)

int outfile_write_fd(int fd, const void *buf, size_t len)
{
	uint8_t chunk[COPY_CHUNK];
	const uint8_t *p = buf;
	int err;

	if (!infile_is_mapped(buf, len))
		return write_all(fd, p, len);
	while (len) {
		size_t n = len < COPY_CHUNK ? len : COPY_CHUNK;

		err = infile_map_read(chunk, p, n);
		if (!err)
			err = write_all(fd, chunk, n);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

int outfile_write(struct outfile *o, const void *buf, size_t len)
{
	return outfile_write_fd(o->fd, buf, len);
}

int outfile_writev(struct outfile *o, const struct iovec *iov, int iovcnt)
{
	struct iovec v[OUTFILE_IOV_MAX];
	int n = 0;

	if (iovcnt > OUTFILE_IOV_MAX)
		return -EINVAL;
	for (int i = 0; i < iovcnt; i++)
		if (iov[i].iov_len)
			v[n++] = iov[i];
	while (n) {
		ssize_t w = writev(o->fd, v, n);
		int i = 0;

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* A short write: drop what went out, go on with the rest. */
		while (i < n && (size_t)w >= v[i].iov_len)
			w -= (ssize_t)v[i++].iov_len;
		if (i < n) {
			v[i].iov_base = (uint8_t *)v[i].iov_base + w;
			v[i].iov_len -= (size_t)w;
		}
		memmove(v, v + i, (size_t)(n - i) * sizeof(*v));
		n -= i;
	}
	return 0;
}

/* Append [off, off + len) of fd: copy_file_range shares extents
 * (reflink) on btrfs/xfs and avoids a trip through user space elsewhere;
 * else pread and write. */
static int copy_range(struct outfile *o, int fd, off_t off, size_t len)
{
	uint8_t chunk[COPY_CHUNK];
	loff_t in_off = off;
	size_t done = 0;
	int err;

	while (done < len) {
		ssize_t n = copy_file_range(fd, &in_off, o->fd, NULL,
					    len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)	/* the input ended early: it shrank */
			return INFILE_ECHANGED;
		if (n < 0) {
			if (errno != EXDEV && errno != ENOSYS &&
			    errno != EOPNOTSUPP && errno != EINVAL)
				return -errno;
			break;
		}
		done += (size_t)n;
	}
	while (done < len) {
		size_t want = len - done < COPY_CHUNK ? len - done : COPY_CHUNK;
		ssize_t n = pread(fd, chunk, want, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : INFILE_ECHANGED;
		err = write_all(o->fd, chunk, (size_t)n);
		if (err)
			return err;
		done += (size_t)n;
	}
	return 0;
}

int outfile_copy(struct outfile *o, int fd, size_t len)
{
	off_t pos = 0, end = (off_t)len, data, hole;
	int err, tail_hole = 0;

	/*
	 * A hole in the input stays a hole in the output (SEEK_DATA,
	 * SEEK_HOLE): a sparse module is copied without writing its
	 * zeros, as cp does.  Where the file system cannot say, all of it
	 * is data.
	 */
	while (pos < end) {
		data = lseek(fd, pos, SEEK_DATA);
		if (data < 0)
			data = errno == ENXIO ? end : pos;
		if (data > end)
			data = end;
		if (data > pos) {
			if (lseek(o->fd, data - pos, SEEK_CUR) < 0)
				return -errno;
			pos = data;
			tail_hole = 1;
			continue;
		}
		hole = lseek(fd, pos, SEEK_HOLE);
		if (hole <= pos || hole > end)
			hole = end;
		err = copy_range(o, fd, pos, (size_t)(hole - pos));
		if (err)
			return err;
		pos = hole;
		tail_hole = 0;
	}
	/* Skipped, the last hole would leave the file short. */
	if (tail_hole) {
		off_t at = lseek(o->fd, 0, SEEK_CUR);

		if (at < 0 || ftruncate(o->fd, at) < 0)
			return -errno;
	}
	return 0;
}

int outfile_fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, err = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	/* Some file systems refuse fsync on directories: not an error. */
	if (fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Give an unnamed temporary file its name: linkat through /proc (no
 * privilege needed, unlike AT_EMPTY_PATH).  Registered for the signal
 * handler first, so that a SIGTERM in between leaves nothing either.
 */
static int link_anon(struct outfile *o)
{
	char proc[32];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (int tries = 0;; tries++) {
		int e;

		outfile_pending_add(o->tmp);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp,
			   AT_SYMLINK_FOLLOW) == 0) {
			o->anon = 0;
			return 0;
		}
		e = errno;
		outfile_pending_del(o->tmp);
		if (e != EEXIST || tries == 100)
			return -e;
		outfile_tmp_randomize(o->tmp);
	}
}

/* 0, or -1 with errno for a failure other than "not allowed". */
static int keep_owner(const struct outfile *o)
{
	struct stat st;

	if (fstat(o->fd, &st) < 0)
		return -1;
	if (st.st_uid == o->uid && st.st_gid == o->gid)
		return 0;
	if (fchown(o->fd, o->uid, o->gid) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	/* not root: at least the group, when it is one of ours */
	if (fchown(o->fd, (uid_t)-1, o->gid) < 0 && errno != EPERM)
		return -1;
	return 0;
}

int outfile_commit_flags(struct outfile *o, unsigned int flags)
{
	int err = 0;

	/* Owner first: chown clears set-id bits that the mode then puts
	 * back.  The target's owner where this process may give it (root,
	 * or a group it belongs to); the new file stays its own where not
	 * (EPERM), as when it was written by anyone else. */
	if (o->replaces && keep_owner(o) < 0)
		return -errno;
	if (fchmod(o->fd, o->mode) < 0 ||
	    ((flags & OUTFILE_SYNC_FILE) && fsync(o->fd) < 0))
		return -errno;
	if (o->anon) {
		err = link_anon(o);
		if (err)
			return err;
	}
	if (close(o->fd) < 0) {
		o->fd = -1;
		return -errno;
	}
	o->fd = -1;
	if (rename(o->tmp, o->target) < 0)
		return -errno;
	outfile_pending_del(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	if (flags & OUTFILE_SYNC_DIR)
		err = outfile_fsync_dir_of(o->target);
	free(o->target);
	o->target = NULL;
	return err;
}

int outfile_commit(struct outfile *o)
{
	return outfile_commit_flags(o, OUTFILE_SYNC_FILE | OUTFILE_SYNC_DIR);
}

void outfile_abort(struct outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	/* An unnamed file went with its descriptor. */
	if (o->tmp && !o->anon) {
		unlink(o->tmp);
		outfile_pending_del(o->tmp);
	}
	o->anon = 0;
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
}
