/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Safe file input: inputs must be regular files, read whole into memory
 * when small and mapped read-only when large; a mapped file that shrinks
 * while it is read gives an error (INFILE_ECHANGED), never a SIGBUS.  Outputs:
 * base/outfile.h.
 *
 * The tests stop a tool at points of this module from a preloaded library
 * (tests/preload/test-hooks.c) that knows each point by the libc call made
 * there: the tools themselves carry no hook.
 */
#ifndef MODSIGN_BASE_INFILE_H
#define MODSIGN_BASE_INFILE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct infile {
	int fd;
	const uint8_t *data;	/* whole file, read-only; NULL when empty */
	size_t len;
	struct stat st;
	uint8_t *buf;		/* data when read, not mapped (owned) */
	size_t buf_cap;
	unsigned int map_slot;	/* data is mapped: its slot, from 1 */
};

/*
 * What reading a mapped input returns when the file could not give all
 * of its bytes: it shrank while it was read (another process truncated
 * it) or its storage failed.  Reading never ends in SIGBUS: the bytes
 * missing read as zeros and the file is marked, so whatever was computed
 * from it must be thrown away: infile_check says so.
 */
#define INFILE_ECHANGED (-ESTALE)

/*
 * Open a regular file and make its bytes available in data: mapped, or,
 * when the file is under INFILE_READ_MAX and worker threads run
 * (infile_set_threaded) or this thread has loaded a file before, read
 * into a buffer that the next open in the same thread reuses.  Errors:
 * -errno from open/fstat/read/mmap, -EISDIR for a directory, -ENOTSUP
 * for any other non-regular file (FIFO, device, socket): reading those
 * would block or lie about size.
 */
int infile_open(const char *path, struct infile *f);
/*
 * The same, holding an exclusive flock on the file until infile_close:
 * two sign-file runs on one module then take turns, and the second sees
 * the first one's result (the lock is retaken if the path was replaced
 * while waiting), so a module is never signed twice by a race.
 */
int infile_open_locked(const char *path, struct infile *f);
/* The same, but -EWOULDBLOCK at once when another holds the lock. */
int infile_open_trylock(const char *path, struct infile *f);
void infile_close(struct infile *f);
/*
 * Worker threads are running (on) or no longer (off).  A mapping then
 * costs every other CPU an interrupt when it is unmapped (TLB
 * shootdown), so small files are read instead.  A lone thread maps its
 * first file: a mapping's pages come straight from the page cache,
 * while a fresh buffer takes a page fault per 4 KiB to fill; from the
 * second file on the buffer is already there, and reading is cheaper
 * than a mapping per file.
 */
void infile_set_threaded(int on);
/* Drop the mapping or buffer but keep the descriptor (and so the
 * lock). */
void infile_unmap(struct infile *f);

/*
 * INFILE_ECHANGED when some bytes of f's mapping could not be read (above),
 * else 0.  Call before acting on what was read, and before
 * infile_unmap.
 */
int infile_check(const struct infile *f);
/*
 * Copy n bytes from src to dst.  When they lie in an input's mapping
 * they are read from the file (pread) instead, so that bulk reads
 * (hashing, copying) never touch the mapping: no page fault per 4 KiB,
 * no tmpfs page allocated for a hole, and a file that shrank gives
 * INFILE_ECHANGED (and is marked, see infile_check) rather than a signal.
 * Safe from any thread.
 */
int infile_map_read(void *dst, const void *src, size_t n);
/* 1 if [p, p + len) lies in an input's mapping (len > 0). */
int infile_is_mapped(const void *p, size_t len);
/* pread n bytes at off of an open input; INFILE_ECHANGED (and f marked) if
 * the file ends first, -errno on an error. */
int infile_read_at(const struct infile *f, void *dst, size_t n,
		    uint64_t off);
/*
 * Files under INFILE_READ_MAX may be read into a buffer (see
 * infile_set_threaded), so a worker's buffer stays under this bound;
 * larger ones are mapped, read through a small chunk when hashed, and
 * copied file to file.  A mapping from INFILE_MAP_MIN on is read ahead.
 */
#define INFILE_READ_MAX (1u << 20)
#define INFILE_MAP_MIN (4u << 20)

/* Read a whole regular file of at most max bytes into a malloc'd buffer. */
int infile_read_all(const char *path, size_t max, uint8_t **buf, size_t *len);

/*
 * Read a file or a pipe to its end, at most max bytes (-EFBIG past it),
 * into a malloc'd buffer: for /proc files, whose size says 0, and
 * pipes.  -EISDIR for a directory, -errno.
 */
int infile_read_stream(const char *path, size_t max, uint8_t **buf,
		   size_t *len);

/* Message for an error returned by this module ("not a regular file"...). */
const char *infile_strerror(int err);

#endif
