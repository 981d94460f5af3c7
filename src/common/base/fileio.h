/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Safe file I/O: inputs must be regular files, read whole into memory when
 * small and mapped read-only when large;
 * outputs are written to a temporary file in the target's directory, then
 * fsynced and renamed over the target, so a reader (or a crash) sees either
 * the old file or the complete new one, never a partial one.
 *
 * Test hooks, read from the environment (tests/bats/helpers.bash):
 *   MODSIGN_TEST_PAUSE_AT=POINT, MODSIGN_TEST_PAUSE_DIR=DIR: the first
 *     time the process reaches POINT it writes "POINT PID" to the FIFO
 *     DIR/reached, then waits until the FIFO DIR/resume is opened and
 *     closed by a writer.  Points: lock-busy (another process holds the
 *     lock ms_file_open_locked waits for), input-mapped (an input is
 *     mapped, none of its bytes read yet), output-begun (a temporary
 *     output file exists), output-ready (it is complete, before it gets
 *     its name or replaces the target), output-renamed (it replaced the
 *     target).
 *   MODSIGN_TEST_NO_TMPFILE: write outputs through named temporary files
 *     even where O_TMPFILE works.
 */
#ifndef MODSIGN_BASE_FILEIO_H
#define MODSIGN_BASE_FILEIO_H

#include <errno.h>
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
	unsigned int map_slot;	/* data is mapped: its slot, from 1 */
};

/*
 * What reading a mapped input returns when the file could not give all
 * of its bytes: it shrank while it was read (another process truncated
 * it) or its storage failed.  Reading never ends in SIGBUS: the bytes
 * missing read as zeros and the file is marked, so whatever was computed
 * from it must be thrown away: ms_file_check says so.
 */
#define MS_ECHANGED (-ESTALE)

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
 * MS_ECHANGED when some bytes of f's mapping could not be read (above),
 * else 0.  Call before acting on what was read, and before
 * ms_file_unmap.
 */
int ms_file_check(const struct ms_file *f);
/*
 * Copy n bytes from src to dst.  When they lie in an input's mapping
 * they are read from the file (pread) instead, so that bulk reads
 * (hashing, copying) never touch the mapping: no page fault per 4 KiB,
 * no tmpfs page allocated for a hole, and a file that shrank gives
 * MS_ECHANGED (and is marked, see ms_file_check) rather than a signal.
 * Safe from any thread.
 */
int ms_map_read(void *dst, const void *src, size_t n);
/* 1 if [p, p + len) lies in an input's mapping (len > 0). */
int ms_is_mapped(const void *p, size_t len);
/* pread n bytes at off of an open input; MS_ECHANGED (and f marked) if
 * the file ends first, -errno on an error. */
int ms_file_read_at(const struct ms_file *f, void *dst, size_t n,
		    uint64_t off);
/* Write all of buf to fd, through ms_map_read when it is mapped. */
int ms_write_fd(int fd, const void *buf, size_t len);
/*
 * Files under MS_READ_MAX may be read into a buffer (see
 * ms_file_set_threaded), so a worker's buffer stays under this bound;
 * larger ones are mapped, read through a small chunk when hashed, and
 * copied file to file.  A mapping from MS_MAP_MIN on is read ahead.
 */
#define MS_READ_MAX (1u << 20)
#define MS_MAP_MIN (4u << 20)

/* Read a whole regular file of at most max bytes into a malloc'd buffer. */
int ms_read_all(const char *path, size_t max, uint8_t **buf, size_t *len);

/*
 * Read a file or a pipe to its end, at most max bytes (-EFBIG past it),
 * into a malloc'd buffer: for /proc files, whose size says 0, and
 * pipes.  -EISDIR for a directory, -errno.
 */
int ms_read_stream(const char *path, size_t max, uint8_t **buf,
		   size_t *len);

/* Message for an error returned by this module ("not a regular file"...). */
const char *ms_io_strerror(int err);

struct ms_out {
	int fd;
	char *tmp;	/* temporary path, registered for signal cleanup */
	char *target;	/* final path (symlinks resolved) */
	mode_t mode;
	int anon;	/* fd is unnamed (O_TMPFILE): tmp is the name it
			 * will be linked under at commit */
	int replaces;	/* the target exists: its owner is kept */
	uid_t uid;
	gid_t gid;
};

/*
 * Start writing 'target'.  mode is applied before the rename (the kernel
 * tool creates files with umask permissions and loses the original's mode;
 * we keep it), and so are an existing target's owner and group, where
 * this process may give them (root; a group of its own otherwise): the
 * kernel tool rewrites the file in place, which keeps them.  When target is a symlink, the file it points to is replaced
 * and the link kept.  An existing target that is not a regular file is
 * refused (-EISDIR, -ENOTSUP), never replaced.  The temporary file is
 * unnamed (O_TMPFILE) where the file system allows, so that even SIGKILL
 * leaves nothing behind; else it is named ".<target>.<pid>.tmp-XXXXXX",
 * and such files that a killed run left in the directory (their pid is
 * gone) are removed.
 */
int ms_out_begin(const char *target, mode_t mode, struct ms_out *o);
int ms_out_write(struct ms_out *o, const void *buf, size_t len);
/* The same for up to MS_OUT_IOV_MAX pieces, in one system call when it
 * can (-EINVAL for more). */
#define MS_OUT_IOV_MAX 8
struct iovec;
int ms_out_writev(struct ms_out *o, const struct iovec *iov, int iovcnt);
/* Append len bytes of fd from offset 0, reflinking where the fs can and
 * keeping holes; MS_ECHANGED if fd ends first. */
int ms_out_copy(struct ms_out *o, int fd, size_t len);
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
