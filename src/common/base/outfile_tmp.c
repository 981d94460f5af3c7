// SPDX-License-Identifier: GPL-2.0-or-later

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/outfile_tmp.h"

/*
 * Temporary files to remove if a signal arrives mid-write.  Batch mode has
 * many in flight at once, from several threads: slots are claimed and
 * released with atomic operations, which the handler can read without a
 * lock.  A run with more pending files than slots (never with the -j and
 * group limits of the tools) only loses the cleanup of the extra ones.
 */
#define MAX_PENDING 4096
static char *_Atomic pending[MAX_PENDING];

void outfile_pending_add(char *path)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		char *none = NULL;

		if (atomic_compare_exchange_strong(&pending[i], &none, path))
			return;
	}
}

void outfile_pending_del(char *path)
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

void outfile_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Temporary names: ".<target>.<pid>.tmp-XXXXXX" in the target's
 * directory.  Dot-prefixed so that globs like *.ko never pick up a half
 * file; the pid so that a later run can tell a file left by a killed run
 * (its pid is gone) from one still being written.
 */

/* How much of the target's name goes into its temporary name: all of
 * it, or as much as keeps the whole within NAME_MAX (a module named
 * with 243 to 255 bytes is still signed in place). */
int outfile_tmp_room(pid_t pid)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%ld", (long)pid);

	/* "." name "." pid OUTFILE_TMP_TAG random */
	return NAME_MAX - 2 - n - (int)strlen(OUTFILE_TMP_TAG) - OUTFILE_TMP_RAND;
}

/* The pid a name of that form encodes; 0 for any other name. */
static pid_t tmp_name_pid(const char *name)
{
	size_t n = strlen(name), i;
	const char *tag, *p;
	long pid = 0;

	if (name[0] != '.' || n < 4 + strlen(OUTFILE_TMP_TAG) + OUTFILE_TMP_RAND)
		return 0;
	for (i = n - OUTFILE_TMP_RAND; i < n; i++)
		if (!isalnum((unsigned char)name[i]))
			return 0;
	tag = name + n - OUTFILE_TMP_RAND - strlen(OUTFILE_TMP_TAG);
	if (memcmp(tag, OUTFILE_TMP_TAG, strlen(OUTFILE_TMP_TAG)) != 0)
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
void outfile_remove_stale(const char *dir)
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

/* Replace the name's last OUTFILE_TMP_RAND characters with random ones. */
void outfile_tmp_randomize(char *name)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[OUTFILE_TMP_RAND];
	char *x = name + strlen(name) - OUTFILE_TMP_RAND;
	static atomic_uint counter;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned int c = atomic_fetch_add(&counter, 1) ^
				 (unsigned int)(uintptr_t)name;

		for (int i = 0; i < OUTFILE_TMP_RAND; i++, c = c * 1103515245u + 12345u)
			r[i] = (unsigned char)(c >> 16);
	}
	for (int i = 0; i < OUTFILE_TMP_RAND; i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
}
