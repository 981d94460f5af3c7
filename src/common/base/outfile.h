/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Atomic file output: outputs are written to a temporary file in the
 * target's directory, then fsynced and renamed over the target, so a
 * reader (or a crash) sees either the old file or the complete new one,
 * never a partial one.  Errors are -errno, and those of base/infile.h
 * (infile_strerror words them).
 *
 * The tests stop a tool at points of this module, or take O_TMPFILE away,
 * from a preloaded library (tests/preload/test-hooks.c) that knows each
 * point by the libc call made there: the tools themselves carry no hook.
 */
#ifndef MODSIGN_BASE_OUTFILE_H
#define MODSIGN_BASE_OUTFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Write all of buf to fd, through infile_map_read when it is mapped. */
int outfile_write_fd(int fd, const void *buf, size_t len);

struct outfile {
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
 * kernel tool rewrites the file in place, which keeps them.  When target
 * is a symlink, the file it points to is replaced and the link kept.
 * An existing target that is not a regular file is refused (-EISDIR,
 * -ENOTSUP), never replaced.  The temporary file is
 * unnamed (O_TMPFILE) where the file system allows, so that even SIGKILL
 * leaves nothing behind; else it is named ".<target>.<pid>.tmp-XXXXXX",
 * and such files that a killed run left in the directory (their pid is
 * gone) are removed.
 */
int outfile_begin(const char *target, mode_t mode, struct outfile *o);
int outfile_write(struct outfile *o, const void *buf, size_t len);
/* The same for up to OUTFILE_IOV_MAX pieces, in one system call when it
 * can (-EINVAL for more). */
#define OUTFILE_IOV_MAX 8
struct iovec;
int outfile_writev(struct outfile *o, const struct iovec *iov, int iovcnt);
/* Append len bytes of fd from offset 0, reflinking where the fs can and
 * keeping holes; INFILE_ECHANGED if fd ends first. */
int outfile_copy(struct outfile *o, int fd, size_t len);
/* fsync, rename over the target, fsync the directory. */
int outfile_commit(struct outfile *o);
/*
 * The same with a choice of flushes, for batch mode, which makes the data
 * durable for many files at once (syncfs) before their renames and
 * flushes each directory once afterwards.  Without OUTFILE_SYNC_FILE the
 * caller must have made the data durable itself: a rename must never
 * reach the disk before the bytes it points to.
 */
#define OUTFILE_SYNC_FILE 1u	/* fsync the file before the rename */
#define OUTFILE_SYNC_DIR 2u	/* fsync the directory after it */
int outfile_commit_flags(struct outfile *o, unsigned int flags);
/* fsync the directory holding path (makes a rename in it durable). */
int outfile_fsync_dir_of(const char *path);
/* Remove the temporary file; safe to call after commit or twice. */
void outfile_abort(struct outfile *o);

/* Mode for a newly created output file: 0666 less the umask. */
mode_t outfile_default_mode(void);
/* The mode an output replacing path should get: the existing file's
 * (the kernel tool rewrites an existing file and so keeps it), else the
 * default. */
mode_t outfile_mode(const char *path);

/* SIGINT, SIGTERM, SIGHUP: remove pending temporary files, then die. */
void outfile_cleanup_on_signals(void);

#endif
