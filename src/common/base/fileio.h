/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Safe file I/O: inputs must be regular files, read whole into memory when
 * small and mapped read-only when large;
 * outputs are written to a temporary file in the target's directory, then
 * fsynced and renamed over the target, so a reader (or a crash) sees either
 * the old file or the complete new one, never a partial one.
 *
 * Test hook, read from the environment (tests/bats/helpers.bash):
 *   MODSIGN_TEST_PAUSE_AT=POINT, MODSIGN_TEST_PAUSE_DIR=DIR: the first
 *     time the process reaches POINT it writes "POINT PID" to the FIFO
 *     DIR/reached, then waits until the FIFO DIR/resume is opened and
 *     closed by a writer.  Points: lock-busy (another process holds the
 *     lock ms_file_open_locked waits for), input-mapped (an input is
 *     mapped, none of its bytes read yet), output-begun (a temporary
 *     output file exists), output-ready (it is complete, before it gets
 *     its name or replaces the target), output-renamed (it replaced the
 *     target).
 */
#ifndef MODSIGN_BASE_FILEIO_H
#define MODSIGN_BASE_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct ms_file {
	int fd;
	const uint8_t *data;	/* whole file, read-only; NULL when empty */
	size_t len;
	struct stat st;
	uint8_t *buf;		/* data when read, not mapped (owned) */
	size_t buf_cap;
};

/*
 * Open a regular file and make its bytes available in data: mapped, or,
 * when the file is under MS_READ_MAX and worker threads run
 * (ms_file_set_threaded) or this thread has loaded a file before, read
 * into a buffer that the next open in the same thread reuses.  Errors:
 * -errno from open/fstat/read/mmap, -EISDIR for a directory, -ENOTSUP
 * for any other non-regular file (FIFO, device, socket): reading those
 * would block or lie about size.
 */
int ms_file_open(const char *path, struct ms_file *f);
/*
 * The same, holding an exclusive flock on the file until ms_file_close:
 * two sign-file runs on one module then take turns, and the second sees
 * the first one's result (the lock is retaken if the path was replaced
 * while waiting), so a module is never signed twice by a race.
 */
int ms_file_open_locked(const char *path, struct ms_file *f);
/* The same, but -EWOULDBLOCK at once when another holds the lock. */
int ms_file_open_trylock(const char *path, struct ms_file *f);
void ms_file_close(struct ms_file *f);
/*
 * Worker threads are running (on) or no longer (off).  A mapping then
 * costs every other CPU an interrupt when it is unmapped (TLB
 * shootdown), so small files are read instead.  A lone thread maps its
 * first file: a mapping's pages come straight from the page cache,
 * while a fresh buffer takes a page fault per 4 KiB to fill; from the
 * second file on the buffer is already there, and reading is cheaper
 * than a mapping per file.
 */
void ms_file_set_threaded(int on);
/* Drop the mapping or buffer but keep the descriptor (and so the
 * lock). */
void ms_file_unmap(struct ms_file *f);

/*
 * Bytes [p, p+len) of a mapped input have been consumed (hashed): when
 * they lie in a mapping made by ms_file_open, give their whole pages back
 * so that resident memory stays bounded however large the file.  Any
 * other memory is left alone.  Safe from any thread.
 */
void ms_map_release(const void *p, size_t len);
/* Hash in steps of this size, releasing each step (see above). */
#define MS_HASH_STEP (1u << 20)
/*
 * Files under MS_READ_MAX may be read into a buffer (see
 * ms_file_set_threaded), so a worker's buffer stays under this bound;
 * larger ones are mapped, read through a small chunk when hashed, and
 * copied file to file.  A mapping from MS_MAP_MIN on is also released
 * as it is hashed through (ms_map_release).
 */
#define MS_READ_MAX (1u << 20)
#define MS_MAP_MIN (4u << 20)

/* Read a whole regular file of at most max bytes into a malloc'd buffer. */
int ms_read_all(const char *path, size_t max, uint8_t **buf, size_t *len);

/* Message for an error returned by this module ("not a regular file"...). */
const char *ms_io_strerror(int err);

struct ms_out {
	int fd;
	char *tmp;	/* temporary path, registered for signal cleanup */
	char *target;	/* final path (symlinks resolved) */
	mode_t mode;
};

/*
 * Start writing 'target'.  mode is applied before the rename (the kernel
 * tool creates files with umask permissions and loses the original's mode;
 * we keep it).  When target is a symlink, the file it points to is replaced
 * and the link kept.  An existing target that is not a regular file is
 * refused (-EISDIR, -ENOTSUP), never replaced.
 */
int ms_out_begin(const char *target, mode_t mode, struct ms_out *o);
int ms_out_write(struct ms_out *o, const void *buf, size_t len);
/* The same for up to MS_OUT_IOV_MAX pieces, in one system call when it
 * can (-EINVAL for more). */
#define MS_OUT_IOV_MAX 8
struct iovec;
int ms_out_writev(struct ms_out *o, const struct iovec *iov, int iovcnt);
/* Append len bytes of fd from offset 0, reflinking where the fs can. */
int ms_out_copy(struct ms_out *o, int fd, const uint8_t *map, size_t len);
/* fsync, rename over the target, fsync the directory. */
int ms_out_commit(struct ms_out *o);
/*
 * The same with a choice of flushes, for batch mode, which makes the data
 * durable for many files at once (syncfs) before their renames and
 * flushes each directory once afterwards.  Without MS_SYNC_FILE the
 * caller must have made the data durable itself: a rename must never
 * reach the disk before the bytes it points to.
 */
#define MS_SYNC_FILE 1u	/* fsync the file before the rename */
#define MS_SYNC_DIR 2u	/* fsync the directory after it */
int ms_out_commit_flags(struct ms_out *o, unsigned int flags);
/* fsync the directory holding path (makes a rename in it durable). */
int ms_fsync_dir_of(const char *path);
/* Remove the temporary file; safe to call after commit or twice. */
void ms_out_abort(struct ms_out *o);

/* Mode for a newly created output file: 0666 less the umask. */
mode_t ms_default_mode(void);
/* The mode an output replacing path should get: the existing file's
 * (the kernel tool rewrites an existing file and so keeps it), else the
 * default. */
mode_t ms_output_mode(const char *path);

/* SIGINT, SIGTERM, SIGHUP: remove pending temporary files, then die. */
void ms_cleanup_on_signals(void);

#endif
