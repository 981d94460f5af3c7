/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile.c's temporary files, as outfile_tmp.c names, registers and
 * cleans them: ".<target>.<pid>.tmp-XXXXXX" in the target's directory
 * (dot-prefixed so that globs like *.ko never pick up a half file; the
 * pid so that a later run can tell a file left by a killed run from one
 * still being written), removed by the signal handler while pending.
 * Only the outfile*.c files include this.
 */
#ifndef MODSIGN_BASE_OUTFILE_TMP_H
#define MODSIGN_BASE_OUTFILE_TMP_H

#include <sys/types.h>

#define OUTFILE_TMP_TAG ".tmp-"
#define OUTFILE_TMP_RAND 6

/* Register / unregister a named temporary file for the signal cleanup
 * (outfile_cleanup_on_signals). */
void outfile_pending_add(char *path);
void outfile_pending_del(char *path);

/* How much of the target's name goes into its temporary name. */
int outfile_tmp_room(pid_t pid);
/* Remove the temporary files in dir that killed runs left. */
void outfile_remove_stale(const char *dir);
/* Replace the name's last OUTFILE_TMP_RAND characters with random ones. */
void outfile_tmp_randomize(char *name);

#endif
