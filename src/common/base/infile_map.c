// SPDX-License-Identifier: GPL-2.0-or-later

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/infile_map.h"

/*
 * The read-only file mappings this process holds.  Code that hashes or
 * copies a buffer reads a mapped file's bytes through its descriptor
 * instead (infile_map_read), without knowing where the buffer came from; and
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
 * (infile_check) before it acts on what it read.  So a read never kills
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


int infile_check(const struct infile *f)
{
	struct map_slot *s;
	struct stat now;

	if (!f->map_slot)
		return 0;
	s = &slots[f->map_slot - 1];
	/* Shrunk within the last page, it gave zeros without a fault. */
	if (fstat(f->fd, &now) == 0 && (uint64_t)now.st_size < f->len)
		atomic_store(&s->damaged, 1);
	return atomic_load(&s->damaged) ? INFILE_ECHANGED : 0;
}

int infile_map_read(void *dst, const void *src, size_t n)
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
			return INFILE_ECHANGED;
		}
		got += (size_t)r;
	}
	return 0;
}

int infile_is_mapped(const void *p, size_t len)
{
	return len && slot_of(p, len) != NULL;
}

int infile_read_at(const struct infile *f, void *dst, size_t n,
		    uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(f->fd, (uint8_t *)dst + got, n - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? -errno : INFILE_ECHANGED;

			if (f->map_slot)
				atomic_store(&slots[f->map_slot - 1].damaged,
					     1);
			return err;
		}
		got += (size_t)r;
	}
	return 0;
}

void infile_map_arm(void)
{
	static pthread_once_t sigbus_once = PTHREAD_ONCE_INIT;

	pthread_once(&sigbus_once, sigbus_install);
}

unsigned int infile_map_claim(const uint8_t *p, size_t len, int fd)
{
	return slot_claim(p, len, fd);
}

void infile_map_release(unsigned int slot)
{
	atomic_store(&slots[slot - 1].start, 0);
}
