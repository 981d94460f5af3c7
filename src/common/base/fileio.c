// SPDX-License-Identifier: GPL-2.0-or-later

#include <ctype.h>
#include <dirent.h>
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
#include <sys/random.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/fileio.h"

/*
 * The read-only file mappings this process holds.  Code that hashes or
 * copies a buffer reads a mapped file's bytes through its descriptor
 * instead (ms_map_read), without knowing where the buffer came from; and
 * the SIGBUS handler below must find the mapping a faulting address
 * belongs to.  A signal handler can take no lock, so the table is a
 * fixed array of slots claimed and freed with atomic operations.  A file
 * that finds no free slot is read into memory, not mapped: no mapping is
 * ever made that the handler does not know.
 */
#define MAP_SLOTS 256
#define SLOT_BUSY ((uintptr_t)1)	/* claimed, being filled */

static struct map_slot {
	_Atomic uintptr_t start;	/* 0 free, SLOT_BUSY, or the mapping */
	_Atomic size_t len;
	atomic_int fd;
	atomic_int damaged;	/* some of its bytes could not be read */
} slots[MAP_SLOTS];
static atomic_int slots_hi;	/* no slot from here on was ever used */
static size_t page_size;

/*
 * The slot whose mapping holds [p, p + len), len > 0, counting its last
 * page whole when whole_pages; or NULL.  Safe in a signal handler.  The
 * caller reads its own mapping, whose slot cannot change meanwhile; any
 * other slot may be freed and claimed again while it is looked at, so its
 * start is read again after its length: a length from another mapping
 * than the start could otherwise make a range that holds p.
 */
static struct map_slot *slot_find(const void *p, size_t len, int whole_pages)
{
	uintptr_t a = (uintptr_t)p;
	int hi = atomic_load(&slots_hi);

	for (int i = 0; i < hi; i++) {
		uintptr_t s = atomic_load_explicit(&slots[i].start,
						   memory_order_acquire);
		size_t l;

		if (s <= SLOT_BUSY || a < s)
			continue;
		l = atomic_load_explicit(&slots[i].len, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&slots[i].start,
					 memory_order_relaxed) != s)
			continue;
		if (whole_pages)
			l = (l + page_size - 1) & ~(page_size - 1);
		if (len <= l && a - s <= l - len)
			return &slots[i];
	}
	return NULL;
}

static struct map_slot *slot_of(const void *p, size_t len)
{
	return slot_find(p, len, 0);
}

/* 1 + the slot now holding the mapping, or 0 when all are taken. */
static unsigned int slot_claim(const uint8_t *p, size_t len, int fd)
{
	for (int i = 0; i < MAP_SLOTS; i++) {
		uintptr_t none = 0;
		int hi;

		if (!atomic_compare_exchange_strong(&slots[i].start, &none,
						    SLOT_BUSY))
			continue;
		atomic_store(&slots[i].len, len);
		atomic_store(&slots[i].fd, fd);
		atomic_store(&slots[i].damaged, 0);
		hi = atomic_load(&slots_hi);
		while (hi < i + 1 &&
		       !atomic_compare_exchange_weak(&slots_hi, &hi, i + 1))
			;
		atomic_store_explicit(&slots[i].start, (uintptr_t)p,
				      memory_order_release);
		return (unsigned int)i + 1;
	}
	return 0;
}

/*
 * SIGBUS: a page of a mapped input that the file cannot back, because
 * the file shrank since it was mapped (another process truncated it),
 * its storage failed, or a tmpfs is full (a read fault on a hole of a
 * tmpfs file allocates a page; read() of the same hole does not).  The
 * handler puts a page in its place, filled from the file with pread():
 * a hole then reads as the zeros it is, and bytes the file no longer has
 * as zeros with the mapping marked damaged, which every tool checks
 * (ms_file_check) before it acts on what it read.  So a read never kills
 * the process and never has to be undone.
 *
 * Why not siglongjmp out of the read, the other usual answer: the reads
 * happen deep in OpenSSL, zlib, liblzma and libzstd, whose state (and any
 * lock or allocation they hold) a jump would abandon, and every reader in
 * every worker thread would need its own recovery point.  Here nothing
 * unwinds: a fault is delivered to the thread that made it, the handler
 * needs no per-thread state, and the new page is complete before one
 * mremap() puts it in place, so another thread reading the same page
 * sees the old mapping (and faults itself, to the same effect) or the
 * finished page, never a half-filled one.
 *
 * A SIGBUS anywhere else (or one sent by kill) keeps its default action.
 */
static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	int saved = errno;
	uintptr_t a = (uintptr_t)si->si_addr, page = a & ~(page_size - 1);
	struct map_slot *s = NULL;
	struct sigaction dfl;
	size_t off, len, want, got = 0;
	long fresh;

	(void)uctx;
	/* whole pages: a fault can come from the last page's tail, past
	 * the file's end as it was mapped */
	if (si->si_code > 0)
		s = slot_find(si->si_addr, 1, 1);
	if (!s)
		goto fatal;
	off = page - atomic_load(&s->start);
	len = atomic_load(&s->len);
	want = len - off < page_size ? len - off : page_size;
	/* Raw system calls: async-signal-safe, and unseen by sanitizers'
	 * interceptors. */
	fresh = syscall(SYS_mmap, NULL, page_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == -1)
		goto fatal;
	while (got < want) {
		long n = syscall(SYS_pread64, atomic_load(&s->fd),
				 (char *)fresh + got,
				 want - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got < want)
		atomic_store(&s->damaged, 1);
	if (syscall(SYS_mprotect, fresh, page_size, PROT_READ) == -1 ||
	    syscall(SYS_mremap, fresh, page_size, page_size,
		    MREMAP_MAYMOVE | MREMAP_FIXED, page) == -1) {
		syscall(SYS_munmap, fresh, page_size);
		goto fatal;
	}
	errno = saved;
	return;
fatal:
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered, and fatal, when the handler returns */
	errno = saved;
}

static void sigbus_install(void)
{
	struct sigaction sa;

	page_size = (size_t)sysconf(_SC_PAGESIZE);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static pthread_once_t sigbus_once = PTHREAD_ONCE_INIT;

int ms_file_check(const struct ms_file *f)
{
	struct map_slot *s;
	struct stat now;

	if (!f->map_slot)
		return 0;
	s = &slots[f->map_slot - 1];
	/* Shrunk within the last page, it gave zeros without a fault. */
	if (fstat(f->fd, &now) == 0 && (uint64_t)now.st_size < f->len)
		atomic_store(&s->damaged, 1);
	return atomic_load(&s->damaged) ? MS_ECHANGED : 0;
}

int ms_map_read(void *dst, const void *src, size_t n)
{
	struct map_slot *s = n ? slot_of(src, n) : NULL;
	size_t got = 0;
	off_t off;

	if (!s) {
		if (n)
			memcpy(dst, src, n);
		return 0;
	}
	off = (off_t)((uintptr_t)src - atomic_load(&s->start));
	while (got < n) {
		ssize_t r = pread(atomic_load(&s->fd), (uint8_t *)dst + got,
				  n - got, off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			atomic_store(&s->damaged, 1);
			memset((uint8_t *)dst + got, 0, n - got);
			return MS_ECHANGED;
		}
		got += (size_t)r;
	}
	return 0;
}

int ms_is_mapped(const void *p, size_t len)
{
	return len && slot_of(p, len) != NULL;
}

int ms_file_read_at(const struct ms_file *f, void *dst, size_t n,
		    uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(f->fd, (uint8_t *)dst + got, n - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? -errno : MS_ECHANGED;

			if (f->map_slot)
				atomic_store(&slots[f->map_slot - 1].damaged,
					     1);
			return err;
		}
		got += (size_t)r;
	}
	return 0;
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

static int read_into_buffer(struct ms_file *f)
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

static int load_data(struct ms_file *f)
{
	/* Files this thread has loaded: from the second on, its spare
	 * buffer is worth having (see ms_file_set_threaded). */
	static __thread unsigned long loads;
	void *map;

	if (f->len < MS_READ_MAX && (atomic_load(&threaded) || loads++))
		return read_into_buffer(f);
	pthread_once(&sigbus_once, sigbus_install);
	map = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	f->map_slot = slot_claim(map, f->len, f->fd);
	if (!f->map_slot) {
		munmap(map, f->len);
		return read_into_buffer(f);
	}
	f->data = map;
	/* A big file's mapping is read front to back, if at all (bulk
	 * reads go through the descriptor: ms_map_read). */
	if (f->len >= MS_MAP_MIN)
		madvise(map, f->len, MADV_SEQUENTIAL);
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
		/* Out of the table first: a slot never names an address
		 * that another mapping may take. */
		atomic_store(&slots[f->map_slot - 1].start, 0);
		munmap((void *)f->data, f->len);
	}
	f->map_slot = 0;
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
	case ESTALE:	/* MS_ECHANGED; NFS's stale handle is the same */
		return "changed while it was read (it shrank, or its storage "
		       "failed)";
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

/*
 * Temporary names: ".<target>.<pid>.tmp-XXXXXX" in the target's
 * directory.  Dot-prefixed so that globs like *.ko never pick up a half
 * file; the pid so that a later run can tell a file left by a killed run
 * (its pid is gone) from one still being written.
 */
#define TMP_TAG ".tmp-"
#define TMP_RAND 6

/* The pid a name of that form encodes; 0 for any other name. */
static pid_t tmp_name_pid(const char *name)
{
	size_t n = strlen(name), i;
	const char *tag, *p;
	long pid = 0;

	if (name[0] != '.' || n < 4 + strlen(TMP_TAG) + TMP_RAND)
		return 0;
	for (i = n - TMP_RAND; i < n; i++)
		if (!isalnum((unsigned char)name[i]))
			return 0;
	tag = name + n - TMP_RAND - strlen(TMP_TAG);
	if (memcmp(tag, TMP_TAG, strlen(TMP_TAG)) != 0)
		return 0;
	for (p = tag; p > name + 2 && isdigit((unsigned char)p[-1]); p--)
		;
	/* ".", at least one character of the target's name, ".", pid */
	if (p == tag || tag - p > 9 || p - 1 < name + 2 || p[-1] != '.')
		return 0;
	for (; p < tag; p++)
		pid = pid * 10 + (*p - '0');
	return (pid_t)pid;
}

/*
 * Remove what killed runs left in dir: names of our form whose pid is
 * gone, regular files of this user.  Once per directory per process (a
 * batch signs many modules in one directory).  A pid taken again by
 * another process keeps its file until that one ends too.  (A run in
 * another pid namespace or on another host sharing the directory could
 * look dead; it then loses its temporary file and fails, it does not
 * corrupt anything.)
 */
static void remove_stale(const char *dir)
{
	static struct dir_id {
		dev_t dev;
		ino_t ino;
	} *seen;
	static size_t nseen, cap;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct dirent *e;
	struct stat st;
	size_t i;
	int done;
	DIR *d;

	if (stat(dir, &st) < 0)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nseen; i++)
		if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino)
			break;
	done = i < nseen;
	if (!done && nseen == cap) {
		size_t c = cap ? 2 * cap : 16;
		struct dir_id *n = realloc(seen, c * sizeof(*n));

		if (n) {
			seen = n;
			cap = c;
		}
	}
	if (!done && nseen < cap)
		seen[nseen++] = (struct dir_id){ st.st_dev, st.st_ino };
	pthread_mutex_unlock(&lock);
	if (done)
		return;

	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t pid = tmp_name_pid(e->d_name);
		struct stat fs;

		if (pid <= 0 || pid == getpid() ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), e->d_name, &fs, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(fs.st_mode) || fs.st_uid != geteuid())
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* Replace the name's last TMP_RAND characters with random ones. */
static void tmp_name_randomize(char *name)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[TMP_RAND];
	char *x = name + strlen(name) - TMP_RAND;
	static atomic_uint counter;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned int c = atomic_fetch_add(&counter, 1) ^
				 (unsigned int)(uintptr_t)name;

		for (int i = 0; i < TMP_RAND; i++, c = c * 1103515245u + 12345u)
			r[i] = (unsigned char)(c >> 16);
	}
	for (int i = 0; i < TMP_RAND; i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
}

/*
 * An unnamed temporary file (O_TMPFILE): a run killed before the rename
 * leaves nothing behind; the file gets its name (linkat through
 * /proc/self/fd, which needs no privilege) only when it is complete.  Off
 * where the file system lacks it or /proc is not mounted, and with
 * MODSIGN_TEST_NO_TMPFILE set (to test the named fallback).
 */
static int tmpfile_wanted;
static pthread_once_t tmpfile_once = PTHREAD_ONCE_INIT;

static void tmpfile_init(void)
{
	tmpfile_wanted = !getenv("MODSIGN_TEST_NO_TMPFILE") &&
			 access("/proc/self/fd", X_OK) == 0;
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
	if (asprintf(&o->tmp, "%s/.%s.%ld" TMP_TAG "XXXXXX", dir,
		     basename(base), (long)getpid()) < 0) {
		o->tmp = NULL;
		err = -ENOMEM;
		goto fail;
	}
	remove_stale(dir);
	pthread_once(&tmpfile_once, tmpfile_init);
	if (tmpfile_wanted) {
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (o->fd >= 0) {
			o->anon = 1;
			tmp_name_randomize(o->tmp);
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
	pending_add(o->tmp);
begun:
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
 * pread (ms_map_read), never through the mapping. */
#define COPY_CHUNK ((size_t)64 << 10)

int ms_write_fd(int fd, const void *buf, size_t len)
{
	uint8_t chunk[COPY_CHUNK];
	const uint8_t *p = buf;
	int err;

	if (!ms_is_mapped(buf, len))
		return write_all(fd, p, len);
	while (len) {
		size_t n = len < COPY_CHUNK ? len : COPY_CHUNK;

		err = ms_map_read(chunk, p, n);
		if (!err)
			err = write_all(fd, chunk, n);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

int ms_out_write(struct ms_out *o, const void *buf, size_t len)
{
	return ms_write_fd(o->fd, buf, len);
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

/* Append [off, off + len) of fd: copy_file_range shares extents
 * (reflink) on btrfs/xfs and avoids a trip through user space elsewhere;
 * else pread and write. */
static int copy_range(struct ms_out *o, int fd, off_t off, size_t len)
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
			return MS_ECHANGED;
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
			return n < 0 ? -errno : MS_ECHANGED;
		err = write_all(o->fd, chunk, (size_t)n);
		if (err)
			return err;
		done += (size_t)n;
	}
	return 0;
}

int ms_out_copy(struct ms_out *o, int fd, size_t len)
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

/*
 * Give an unnamed temporary file its name: linkat through /proc (no
 * privilege needed, unlike AT_EMPTY_PATH).  Registered for the signal
 * handler first, so that a SIGTERM in between leaves nothing either.
 */
static int link_anon(struct ms_out *o)
{
	char proc[32];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (int tries = 0;; tries++) {
		int e;

		pending_add(o->tmp);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp,
			   AT_SYMLINK_FOLLOW) == 0) {
			o->anon = 0;
			return 0;
		}
		e = errno;
		pending_del(o->tmp);
		if (e != EEXIST || tries == 100)
			return -e;
		tmp_name_randomize(o->tmp);
	}
}

/* 0, or -1 with errno for a failure other than "not allowed". */
static int keep_owner(const struct ms_out *o)
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

int ms_out_commit_flags(struct ms_out *o, unsigned int flags)
{
	int err = 0;

	/* Owner first: chown clears set-id bits that the mode then puts
	 * back.  The target's owner where this process may give it (root,
	 * or a group it belongs to); the new file stays its own where not
	 * (EPERM), as when it was written by anyone else. */
	if (o->replaces && keep_owner(o) < 0)
		return -errno;
	if (fchmod(o->fd, o->mode) < 0 ||
	    ((flags & MS_SYNC_FILE) && fsync(o->fd) < 0))
		return -errno;
	test_pause("output-ready");
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
	/* An unnamed file went with its descriptor. */
	if (o->tmp && !o->anon) {
		unlink(o->tmp);
		pending_del(o->tmp);
	}
	o->anon = 0;
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
}

int ms_read_stream(const char *path, size_t max, uint8_t **out,
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
