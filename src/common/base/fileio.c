// SPDX-License-Identifier: GPL-2.0-or-later

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/fileio.h"

/*
 * The read-only file mappings this process holds, so that code hashing a
 * buffer can give pages back once they are hashed (ms_map_release)
 * without knowing where the buffer came from: only ranges found here are
 * ever dropped, never heap memory.
 */
static struct map_reg {
	const uint8_t *p;
	size_t len;
} *maps;
static size_t nmaps, maps_cap;
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;

static void map_register(const uint8_t *p, size_t len)
{
	pthread_mutex_lock(&maps_lock);
	if (nmaps == maps_cap) {
		size_t cap = maps_cap ? 2 * maps_cap : 16;
		struct map_reg *m = realloc(maps, cap * sizeof(*m));

		if (!m)
			goto out;	/* the pages just stay resident */
		maps = m;
		maps_cap = cap;
	}
	maps[nmaps++] = (struct map_reg){ p, len };
out:
	pthread_mutex_unlock(&maps_lock);
}

static void map_unregister(const uint8_t *p)
{
	pthread_mutex_lock(&maps_lock);
	for (size_t i = 0; i < nmaps; i++) {
		if (maps[i].p == p) {
			maps[i] = maps[--nmaps];
			break;
		}
	}
	if (!nmaps) {
		free(maps);
		maps = NULL;
		maps_cap = 0;
	}
	pthread_mutex_unlock(&maps_lock);
}

void ms_map_release(const void *p, size_t len)
{
	const uint8_t *b = p;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;
	int found = 0;

	pthread_mutex_lock(&maps_lock);
	for (size_t i = 0; i < nmaps && !found; i++)
		found = b >= maps[i].p && len <= maps[i].len &&
			(size_t)(b - maps[i].p) <= maps[i].len - len;
	pthread_mutex_unlock(&maps_lock);
	if (!found)
		return;
	/* Whole pages inside the range only: a page shared with bytes not
	 * yet read stays.  Dropping a clean private file page only unmaps
	 * it; touching it again reads it back from the page cache. */
	lo = ((uintptr_t)b + page - 1) & ~(page - 1);
	hi = ((uintptr_t)b + len) & ~(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/*
 * The test hook (fileio.h): stop at a named point, once per process,
 * until the test says go.  Read from the environment once.
 */
static const char *pause_at, *pause_dir;
static pthread_once_t pause_once = PTHREAD_ONCE_INIT;
static atomic_int paused;

static void pause_init(void)
{
	pause_at = getenv("MODSIGN_TEST_PAUSE_AT");
	pause_dir = getenv("MODSIGN_TEST_PAUSE_DIR");
}

static void test_pause(const char *point)
{
	char path[PATH_MAX], c;
	int fd;

	pthread_once(&pause_once, pause_init);
	if (!pause_at || !pause_dir || strcmp(pause_at, point) != 0 ||
	    atomic_exchange(&paused, 1))
		return;
	snprintf(path, sizeof(path), "%s/reached", pause_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dprintf(fd, "%s %ld\n", point, (long)getpid());
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/resume", pause_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while (read(fd, &c, 1) > 0)
			;
		close(fd);
	}
}

/*
 * One spare read buffer per thread.  A batch worker reads thousands of
 * inputs: reusing its buffer spares it, for each file, a fresh
 * allocation, the page faults of touching it, and (for one big enough to
 * be mmapped by malloc) the munmap whose TLB shootdown interrupts every
 * other thread.  The key's destructor frees a worker's buffer when it
 * exits; the main thread's stays reachable until the process ends.
 */
struct spare {
	uint8_t *p;
	size_t cap;
};
static __thread struct spare spare;
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static int spare_key_ok;

static void spare_free(void *arg)
{
	struct spare *sp = arg;

	free(sp->p);
	sp->p = NULL;
	sp->cap = 0;
}

static void spare_key_init(void)
{
	spare_key_ok = pthread_key_create(&spare_key, spare_free) == 0;
}

/* Sizes rounded up so that modules of similar sizes share one buffer. */
#define SPARE_ROUND ((size_t)64 << 10)

static uint8_t *buf_take(size_t need, size_t *cap)
{
	uint8_t *p;

	if (spare.p && spare.cap >= need) {
		p = spare.p;
		*cap = spare.cap;
		spare.p = NULL;
		spare.cap = 0;
		return p;
	}
	/* Too small: the bigger one that replaces it is what is kept. */
	free(spare.p);
	spare.p = NULL;
	spare.cap = 0;
	*cap = (need + SPARE_ROUND - 1) & ~(SPARE_ROUND - 1);
	return malloc(*cap);
}

static void buf_give(uint8_t *p, size_t cap)
{
	if (!p)
		return;
	if (spare.p && spare.cap >= cap) {
		free(p);
		return;
	}
	pthread_once(&spare_once, spare_key_init);
	free(spare.p);
	spare.p = p;
	spare.cap = cap;
	/* Any non-NULL value makes the destructor run at thread exit. */
	if (spare_key_ok)
		pthread_setspecific(spare_key, &spare);
}

/* pread until len bytes or end of file; a file that shrank since fstat
 * yields what it has now, as a mapping would (without the SIGBUS). */
static int read_at_most(int fd, uint8_t *p, size_t len, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got, (off_t)*got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

static atomic_int threaded;

void ms_file_set_threaded(int on)
{
	atomic_store(&threaded, on);
}

static int load_data(struct ms_file *f)
{
	/* Files this thread has loaded: from the second on, its spare
	 * buffer is worth having (see ms_file_set_threaded). */
	static __thread unsigned long loads;
	size_t got;
	void *map;
	int err;

	if (f->len < MS_READ_MAX && (atomic_load(&threaded) || loads++)) {
		f->buf = buf_take(f->len, &f->buf_cap);
		if (!f->buf)
			return -ENOMEM;
		err = read_at_most(f->fd, f->buf, f->len, &got);
		if (err || !got) {
			buf_give(f->buf, f->buf_cap);
			f->buf = NULL;
			f->len = 0;
			return err;
		}
		f->len = got;
		f->data = f->buf;
		return 0;
	}
	map = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	f->data = map;
	/* A big file is read front to back once: read ahead, and let the
	 * pages go as they are hashed. */
	if (f->len >= MS_MAP_MIN) {
		madvise(map, f->len, MADV_SEQUENTIAL);
		map_register(f->data, f->len);
	}
	test_pause("input-mapped");
	return 0;
}

enum { NO_LOCK, LOCK_WAIT, LOCK_TRY };

/* Open a regular file (locked if asked); its bytes only if want_data. */
static int open_regular(const char *path, struct ms_file *f, int lock,
			int want_data)
{
	struct stat now;
	int err, waited;

	memset(f, 0, sizeof(*f));
again:
	f->fd = -1;	/* what a failed open leaves, for ms_file_close */
	/*
	 * Refuse what is not a regular file before opening it: open() of a
	 * device can act (a tape rewinds on close, a watchdog arms).  The
	 * fstat below still catches an entry swapped in after this check,
	 * and O_NONBLOCK keeps a FIFO swapped in from blocking the open.
	 */
	if (stat(path, &now) < 0)
		return -errno;
	if (S_ISDIR(now.st_mode))
		return -EISDIR;
	if (!S_ISREG(now.st_mode))
		return -ENOTSUP;
	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (f->fd < 0)
		return -errno;
	if (fstat(f->fd, &f->st) < 0) {
		err = -errno;
		goto fail;
	}
	if (lock && S_ISREG(f->st.st_mode)) {
		waited = 0;
		while (flock(f->fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EWOULDBLOCK || lock == LOCK_TRY) {
				err = -errno;
				goto fail;
			}
			test_pause("lock-busy");
			while (flock(f->fd, LOCK_EX) < 0) {
				if (errno != EINTR) {
					err = -errno;
					goto fail;
				}
			}
			waited = 1;
			break;
		}
		/* Whoever held the lock, even for a moment between the open
		 * and the flock, may have renamed a new file over the path:
		 * then lock that one instead. */
		if (stat(path, &now) == 0 && (now.st_ino != f->st.st_ino ||
					      now.st_dev != f->st.st_dev)) {
			close(f->fd);
			goto again;
		}
		/* After a wait the file may have changed under its holder;
		 * taken at once, it is as fstat saw it (signers only ever
		 * replace a module, under the lock). */
		if (waited && fstat(f->fd, &f->st) < 0) {
			err = -errno;
			goto fail;
		}
	}
	if (S_ISDIR(f->st.st_mode)) {
		err = -EISDIR;
		goto fail;
	}
	if (!S_ISREG(f->st.st_mode)) {
		err = -ENOTSUP;
		goto fail;
	}
	f->len = (size_t)f->st.st_size;
	if (f->len == 0 || !want_data)
		return 0;
	err = load_data(f);
	if (err)
		goto fail;
	return 0;
fail:
	close(f->fd);
	f->fd = -1;
	return err;
}

int ms_file_open(const char *path, struct ms_file *f)
{
	return open_regular(path, f, NO_LOCK, 1);
}

int ms_file_open_locked(const char *path, struct ms_file *f)
{
	return open_regular(path, f, LOCK_WAIT, 1);
}

int ms_file_open_trylock(const char *path, struct ms_file *f)
{
	return open_regular(path, f, LOCK_TRY, 1);
}

void ms_file_unmap(struct ms_file *f)
{
	if (f->buf) {
		buf_give(f->buf, f->buf_cap);
	} else if (f->data) {
		map_unregister(f->data);
		munmap((void *)f->data, f->len);
	}
	f->buf = NULL;
	f->buf_cap = 0;
	f->data = NULL;
}

void ms_file_close(struct ms_file *f)
{
	ms_file_unmap(f);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int ms_read_all(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	struct ms_file f;
	int err;

	*buf = NULL;
	*len = 0;
	/* Straight into the caller's buffer: no spare (a key must not
	 * linger in one), no mapping to copy from. */
	err = open_regular(path, &f, NO_LOCK, 0);
	if (err)
		return err;
	if (f.len > max) {
		ms_file_close(&f);
		return -EFBIG;
	}
	*buf = malloc(f.len ? f.len : 1);
	if (!*buf) {
		ms_file_close(&f);
		return -ENOMEM;
	}
	err = read_at_most(f.fd, *buf, f.len, len);
	ms_file_close(&f);
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

const char *ms_io_strerror(int err)
{
	switch (-err) {
	case ENOTSUP:
		return "not a regular file";
	case EFBIG:
		return "file too large";
	default:
		return strerror(-err);
	}
}

/*
 * Temporary files to remove if a signal arrives mid-write.  Batch mode has
 * many in flight at once, from several threads: slots are claimed and
 * released with atomic operations, which the handler can read without a
 * lock.  A run with more pending files than slots (never with the -j and
 * group limits of the tools) only loses the cleanup of the extra ones.
 */
#define MAX_PENDING 4096
static char *_Atomic pending[MAX_PENDING];

static void pending_add(char *path)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		char *none = NULL;

		if (atomic_compare_exchange_strong(&pending[i], &none, path))
			return;
	}
}

static void pending_del(char *path)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		char *mine = path;

		if (atomic_compare_exchange_strong(&pending[i], &mine, NULL))
			return;
	}
}

static void on_signal(int sig)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		char *path = atomic_load(&pending[i]);

		if (path)
			unlink(path);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void ms_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static mode_t umask_value;

static void read_umask(void)
{
	umask_value = umask(0);
	umask(umask_value);
}

mode_t ms_default_mode(void)
{
	/* umask() can only be read by setting it: once, so that batch
	 * workers never see (or leave) the umask at 0 in between. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_umask);
	return 0666 & ~umask_value;
}

mode_t ms_output_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	return ms_default_mode();
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

int ms_out_begin(const char *target, mode_t mode, struct ms_out *o)
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
	dircopy = strdup(o->target);
	base = strdup(o->target);
	if (!dircopy || !base) {
		err = -ENOMEM;
		goto fail;
	}
	dir = dirname(dircopy);
	/* Dot-prefixed so that globs like *.ko never pick up a half file. */
	if (asprintf(&o->tmp, "%s/.%s.XXXXXX", dir, basename(base)) < 0) {
		o->tmp = NULL;
		err = -ENOMEM;
		goto fail;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		err = -errno;
		goto fail;
	}
	pending_add(o->tmp);
	free(dircopy);
	free(base);
	test_pause("output-begun");
	return 0;
fail:
	free(dircopy);
	free(base);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return err;
}

int ms_out_write(struct ms_out *o, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(o->fd, p, len);

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

int ms_out_writev(struct ms_out *o, const struct iovec *iov, int iovcnt)
{
	struct iovec v[MS_OUT_IOV_MAX];
	int n = 0;

	if (iovcnt > MS_OUT_IOV_MAX)
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

int ms_out_copy(struct ms_out *o, int fd, const uint8_t *map, size_t len)
{
	loff_t in_off = 0;
	size_t done = 0;

	/* copy_file_range shares extents (reflink) on btrfs/xfs and avoids
	 * a trip through user space elsewhere; fall back to write(). */
	while (done < len) {
		ssize_t n = copy_file_range(fd, &in_off, o->fd, NULL,
					    len - done, 0);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno != EXDEV && errno != ENOSYS &&
			    errno != EOPNOTSUPP && errno != EINVAL)
				return -errno;
			break;
		}
		done += (size_t)n;
	}
	return ms_out_write(o, map + done, len - done);
}

int ms_fsync_dir_of(const char *path)
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

int ms_out_commit_flags(struct ms_out *o, unsigned int flags)
{
	int err = 0;

	if (fchmod(o->fd, o->mode) < 0 ||
	    ((flags & MS_SYNC_FILE) && fsync(o->fd) < 0))
		return -errno;
	test_pause("output-ready");
	if (close(o->fd) < 0) {
		o->fd = -1;
		return -errno;
	}
	o->fd = -1;
	if (rename(o->tmp, o->target) < 0)
		return -errno;
	pending_del(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	test_pause("output-renamed");
	if (flags & MS_SYNC_DIR)
		err = ms_fsync_dir_of(o->target);
	free(o->target);
	o->target = NULL;
	return err;
}

int ms_out_commit(struct ms_out *o)
{
	return ms_out_commit_flags(o, MS_SYNC_FILE | MS_SYNC_DIR);
}

void ms_out_abort(struct ms_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp) {
		unlink(o->tmp);
		pending_del(o->tmp);
	}
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
}
