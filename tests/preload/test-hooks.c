// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-hooks.so: the bats suite's traps, kept out of the tools.  Preloaded
 * (LD_PRELOAD, tests/bats/helpers.bash) into the runs that ask for them; it
 * watches the libc calls the tools make at the points below and changes
 * nothing else.  Read from the environment:
 *
 *   MODSIGN_TEST_PAUSE_AT=POINT, MODSIGN_TEST_PAUSE_DIR=DIR: the first
 *     time the process reaches POINT it writes "POINT PID" to the FIFO
 *     DIR/reached, then waits until the FIFO DIR/resume is opened and
 *     closed by a writer.  Each point is known by the call made there:
 *       lock-busy       flock(LOCK_EX) without LOCK_NB: another process
 *                       holds the lock the tool is about to wait for
 *       input-mapped    mmap() of a regular file, read-only and private,
 *                       has returned: none of its bytes read yet
 *       output-begun    the first call on a temporary output's descriptor
 *                       (one from open(O_TMPFILE), or from mkostemp() of a
 *                       ".NAME.PID.tmp-XXXXXX" name): the file exists and
 *                       the tool has registered it for its signal cleanup
 *       output-ready    linkat() of /proc/self/fd/N, or close(N), for such
 *                       a descriptor N: the file is complete, before it
 *                       gets its name or replaces the target
 *       output-renamed  rename() of such a name has returned 0: it
 *                       replaced the target
 *   MODSIGN_TEST_NO_TMPFILE: open(O_TMPFILE) fails with EOPNOTSUPP, as on
 *     a file system without it, so outputs take the named fallback.
 *
 * The tools make these calls only in src/common/base (the input and
 * output modules); their comments name the points.  Not async-signal
 * safe, and needs none: the tools' signal handlers make none of these
 * calls but unlink().
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* The next definition of a libc function (libc's own, or a sanitizer's
 * interceptor in front of it). */
#define NEXT(ret, name, ...)						\
	static ret (*next)(__VA_ARGS__);				\
	if (!next)							\
		*(void **)&next = dlsym(RTLD_NEXT, name)

static const char *pause_at, *pause_dir;
static int no_tmpfile;
static atomic_int paused;

__attribute__((constructor)) static void hooks_init(void)
{
	pause_at = getenv("MODSIGN_TEST_PAUSE_AT");
	pause_dir = getenv("MODSIGN_TEST_PAUSE_DIR");
	no_tmpfile = getenv("MODSIGN_TEST_NO_TMPFILE") != NULL;
}

static int wanted(const char *point)
{
	return pause_at && pause_dir && strcmp(pause_at, point) == 0;
}

static ssize_t raw_write(int fd, const void *p, size_t n);
static int raw_close(int fd);

/* Stop here, once per process, until the test says go. */
static void test_pause(const char *point)
{
	char path[PATH_MAX], line[128], c;
	int fd, n;

	if (!wanted(point) || atomic_exchange(&paused, 1))
		return;
	snprintf(path, sizeof(path), "%s/reached", pause_dir);
	fd = openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = snprintf(line, sizeof(line), "%s %ld\n", point,
			     (long)getpid());
		raw_write(fd, line, (size_t)n);
		raw_close(fd);
	}
	snprintf(path, sizeof(path), "%s/resume", pause_dir);
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while (read(fd, &c, 1) > 0)
			;
		raw_close(fd);
	}
}

/*
 * Temporary outputs' descriptors: 1 from creation to their first use, 2
 * after it, 0 for any other descriptor.  Batch mode writes many at once,
 * from several threads.
 */
#define FD_TRACKED 4096
static atomic_uchar tmp_fd[FD_TRACKED];

static void fd_track(int fd)
{
	if (fd >= 0 && fd < FD_TRACKED)
		atomic_store(&tmp_fd[fd], 1);
}

static int fd_tracked(int fd)
{
	return fd >= 0 && fd < FD_TRACKED && atomic_load(&tmp_fd[fd]);
}

/* Any call on a temporary output's descriptor: output-begun the first
 * time. */
static void fd_used(int fd)
{
	unsigned char fresh = 1;

	if (fd >= 0 && fd < FD_TRACKED &&
	    atomic_compare_exchange_strong(&tmp_fd[fd], &fresh, 2))
		test_pause("output-begun");
}

/* ".NAME.PID.tmp-XXXXXX", the last component of a named temporary
 * output (src/common/base: the output module's OUTFILE_TMP_TAG). */
static int tmp_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	return base[0] == '.' && n > 12 &&
	       memcmp(base + n - 11, ".tmp-", 5) == 0;
}

static ssize_t raw_write(int fd, const void *p, size_t n)
{
	NEXT(ssize_t, "write", int, const void *, size_t);
	return next(fd, p, n);
}

static int raw_close(int fd)
{
	NEXT(int, "close", int);
	return next(fd);
}

static int tmpfile_flags(int flags)
{
	return (flags & O_TMPFILE) == O_TMPFILE;
}

/* open(O_TMPFILE): refused under MODSIGN_TEST_NO_TMPFILE, else tracked. */
static int opened(int flags, int fd)
{
	if (fd >= 0 && tmpfile_flags(flags))
		fd_track(fd);
	return fd;
}

#define OPEN_MODE(flags, mode)						\
	do {								\
		if ((flags) & O_CREAT || tmpfile_flags(flags)) {	\
			va_list ap;					\
			va_start(ap, flags);				\
			mode = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
		if (no_tmpfile && tmpfile_flags(flags)) {		\
			errno = EOPNOTSUPP;				\
			return -1;					\
		}							\
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	NEXT(int, "open", const char *, int, ...);
	OPEN_MODE(flags, mode);
	return opened(flags, next(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	NEXT(int, "open64", const char *, int, ...);
	OPEN_MODE(flags, mode);
	return opened(flags, next(path, flags, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	NEXT(int, "openat", int, const char *, int, ...);
	OPEN_MODE(flags, mode);
	return opened(flags, next(dirfd, path, flags, mode));
}

int mkostemp(char *template, int flags)
{
	int fd;

	NEXT(int, "mkostemp", char *, int);
	fd = next(template, flags);
	if (fd >= 0 && tmp_name(template))
		fd_track(fd);
	return fd;
}

int flock(int fd, int op)
{
	NEXT(int, "flock", int, int);
	if ((op & LOCK_EX) && !(op & LOCK_NB))
		test_pause("lock-busy");
	return next(fd, op);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct stat st;
	void *p;

	NEXT(void *, "mmap", void *, size_t, int, int, int, off_t);
	p = next(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && fd >= 0 && prot == PROT_READ &&
	    (flags & MAP_PRIVATE) && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		test_pause("input-mapped");
	return p;
}

ssize_t write(int fd, const void *p, size_t n)
{
	fd_used(fd);
	return raw_write(fd, p, n);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	NEXT(ssize_t, "writev", int, const struct iovec *, int);
	fd_used(fd);
	return next(fd, iov, iovcnt);
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off,
			size_t len, unsigned int flags)
{
	NEXT(ssize_t, "copy_file_range", int, off_t *, int, off_t *, size_t,
	     unsigned int);
	fd_used(out);
	return next(in, in_off, out, out_off, len, flags);
}

off_t lseek(int fd, off_t off, int whence)
{
	NEXT(off_t, "lseek", int, off_t, int);
	fd_used(fd);
	return next(fd, off, whence);
}

int ftruncate(int fd, off_t len)
{
	NEXT(int, "ftruncate", int, off_t);
	fd_used(fd);
	return next(fd, len);
}

int fchmod(int fd, mode_t mode)
{
	NEXT(int, "fchmod", int, mode_t);
	fd_used(fd);
	return next(fd, mode);
}

int fsync(int fd)
{
	NEXT(int, "fsync", int);
	fd_used(fd);
	return next(fd);
}

int linkat(int olddirfd, const char *old, int newdirfd, const char *new,
	   int flags)
{
	int fd;

	NEXT(int, "linkat", int, const char *, int, const char *, int);
	if (sscanf(old, "/proc/self/fd/%d", &fd) == 1 && fd_tracked(fd)) {
		fd_used(fd);
		test_pause("output-ready");
	}
	return next(olddirfd, old, newdirfd, new, flags);
}

int close(int fd)
{
	if (fd_tracked(fd)) {
		fd_used(fd);
		test_pause("output-ready");
		atomic_store(&tmp_fd[fd], 0);
	}
	return raw_close(fd);
}

int rename(const char *old, const char *new)
{
	int ret;

	NEXT(int, "rename", const char *, const char *);
	ret = next(old, new);
	if (ret == 0 && tmp_name(old))
		test_pause("output-renamed");
	return ret;
}
