/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which flushes a signed file's commit pays, in each way of running.
 *
 * The promise, in every mode: a reader, or a crash of anything but the
 * machine (SIGKILL included), sees the original module or the signed
 * one, never a partial one, and nothing is left behind: the file is
 * written whole under no name (O_TMPFILE) and renamed over the target.
 * Against a power loss the promise is the same (the original or the
 * signed module), which needs the new file's data on disk before its
 * rename is: an fsync of it, unless the file system orders the two
 * itself (ms_dur_orders_replace).  A flush of the directory only makes
 * the rename itself durable (after a power loss the signed module
 * rather than the original), which the kernel's scripts/sign-file never
 * does either; a single run does not pay it, --batch pays it once a
 * directory, the agent once a file system (syncfs) when it ends.
 */
#ifndef MODSIGN_SIGN_FILE_DURABILITY_H
#define MODSIGN_SIGN_FILE_DURABILITY_H

/*
 * 1 when the file system holding fd (any file or directory on it) writes
 * a file's data before it commits a rename of that file over another, so
 * that a power loss leaves the old file or the new one: ext4 with
 * auto_da_alloc (its default) in data=ordered (its default) or
 * data=journal mode (Documentation/admin-guide/ext4.rst, auto_da_alloc;
 * fs/ext4/namei.c: ext4_rename() starts the writeback of the source's
 * delayed blocks when the target exists, and data=ordered makes the
 * journal commit holding the rename wait for it).  Not btrfs: its
 * btrfs_rename() starts that writeback too (fs/btrfs/inode.c) but its
 * transaction commit does not wait for it without -o flushoncommit.
 * 0 for anything else, or when it cannot tell.
 */
int ms_dur_orders_replace(int fd);

/* 1 when nothing on fd's file system survives a power loss anyway
 * (tmpfs, ramfs): a flush there buys nothing. */
int ms_dur_volatile(int fd);

/*
 * The MS_SYNC_* flags (base/outfile.h) for committing one signed file, in
 * a single run or served by the agent: out_fd is the output's open
 * temporary file (on the target's file system), replaces says that its
 * rename replaces an existing file.  OUTFILE_SYNC_FILE, or 0 where the file
 * system orders a replacing rename after the data itself, or where
 * nothing survives a power loss; never OUTFILE_SYNC_DIR.
 */
unsigned int ms_dur_commit_flags(int out_fd, int replaces);

#endif
