// SPDX-License-Identifier: GPL-2.0-or-later

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/infile_map.h"

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

void infile_set_threaded(int on)
{
	atomic_store(&threaded, on);
}

static int read_into_buffer(struct infile *f)
{
	size_t got;
	int err;

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

static int load_data(struct infile *f)
{
	/* Files this thread has loaded: from the second on, its spare
	 * buffer is worth having (see infile_set_threaded). */
	static __thread unsigned long loads;
	void *map;

	if (f->len < INFILE_READ_MAX && (atomic_load(&threaded) || loads++))
		return read_into_buffer(f);
	infile_map_arm();
	map = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	f->map_slot = infile_map_claim(map, f->len, f->fd);
	if (!f->map_slot) {
		munmap(map, f->len);
		return read_into_buffer(f);
	}
	f->data = map;
	/* A big file's mapping is read front to back, if at all (bulk
	 * reads go through the descriptor: infile_map_read). */
	if (f->len >= INFILE_MAP_MIN)
		madvise(map, f->len, MADV_SEQUENTIAL);
	return 0;
}

enum { NO_LOCK, LOCK_WAIT, LOCK_TRY };

/* Open a regular file (locked if asked); its bytes only if want_data. */
static int open_regular(const char *path, struct infile *f, int lock,
			int want_data)
{
	struct stat now;
	int err, waited;

	memset(f, 0, sizeof(*f));
again:
	f->fd = -1;	/* what a failed open leaves, for infile_close */
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
			/* the blocking flock is where the tests' hooks see a
			 * busy lock (tests/preload/test-hooks.c) */
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

int infile_open(const char *path, struct infile *f)
{
	return open_regular(path, f, NO_LOCK, 1);
}

int infile_open_locked(const char *path, struct infile *f)
{
	return open_regular(path, f, LOCK_WAIT, 1);
}

int infile_open_trylock(const char *path, struct infile *f)
{
	return open_regular(path, f, LOCK_TRY, 1);
}

void infile_unmap(struct infile *f)
{
	if (f->buf) {
		buf_give(f->buf, f->buf_cap);
	} else if (f->data) {
		/* Out of the table first: a slot never names an address
		 * that another mapping may take. */
		infile_map_release(f->map_slot);
		munmap((void *)f->data, f->len);
	}
	f->map_slot = 0;
	f->buf = NULL;
	f->buf_cap = 0;
	f->data = NULL;
}

void infile_close(struct infile *f)
{
	infile_unmap(f);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int infile_read_all(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	struct infile f;
	int err;

	*buf = NULL;
	*len = 0;
	/* Straight into the caller's buffer: no spare (a key must not
	 * linger in one), no mapping to copy from. */
	err = open_regular(path, &f, NO_LOCK, 0);
	if (err)
		return err;
	if (f.len > max) {
		infile_close(&f);
		return -EFBIG;
	}
	*buf = malloc(f.len ? f.len : 1);
	if (!*buf) {
		infile_close(&f);
		return -ENOMEM;
	}
	err = read_at_most(f.fd, *buf, f.len, len);
	infile_close(&f);
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

const char *infile_strerror(int err)
{
	switch (-err) {
	case ENOTSUP:
		return "not a regular file";
	case EFBIG:
		return "file too large";
	case ESTALE:	/* INFILE_ECHANGED; NFS's stale handle is the same */
		return "changed while it was read (it shrank, or its storage "
		       "failed)";
	default:
		return strerror(-err);
	}
}

int infile_read_stream(const char *path, size_t max, uint8_t **out,
		   size_t *out_len)
{
	size_t len = 0, cap = 0;
	uint8_t *buf = NULL, *grown;
	struct stat st;
	int fd, ret = 0;
	ssize_t n;

	*out = NULL;
	*out_len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > max + 1)
				cap = max + 1;
			if (len == cap) {
				ret = -EFBIG;
				break;
			}
			grown = realloc(buf, cap);
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	*out = buf;
	*out_len = len;
	return 0;
}
