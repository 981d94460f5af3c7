// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/log.h"
#include "sign-file/agent_wire.h"
#include "sign-file/front.h"

/* Where `make install` put the tool proper (Makefile: PKGLIBDIR). */
#ifndef MODSIGN_PKGLIBDIR
#define MODSIGN_PKGLIBDIR "/usr/local/lib/modsign"
#endif
#define CORE_NAME "sign-file"
/* From the executable's directory: bin/ and lib/modsign/ side by side,
 * in the build tree (build/bin) as in an installed prefix. */
#define CORE_FROM_BIN "../lib/modsign/" CORE_NAME

int ms_front_kmodsign(int argc, char **argv)
{
	if (strcmp(log_prog(), "kmodsign") == 0)
		return 1;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--kmodsign") == 0)
			return 1;
	return 0;
}

void ms_front_job_words(struct ms_agent_job *j,
			const struct ms_sign_words *w)
{
	j->hash = w->hash;
	j->key = w->key;
	j->cert = w->cert;
	j->module = w->module;
	j->dest = NULL;
	if (w->dest && strcmp(w->module, w->dest) != 0)
		j->dest = w->dest;
}

int ms_front_delegate(int argc, char **argv, int *code)
{
	const char *sock = getenv(MS_AGENT_ENV);
	struct ms_agent_job j = { 0 };
	struct ms_sign_words w;

	if (!sock || (argc != 5 && argc != 6) || ms_front_kmodsign(argc, argv))
		return 0;
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-')
			return 0;
	ms_sign_words_decode(MS_SIGN_WORDS_SIGN, 3, argv + 1, argc - 1, &w);
	ms_front_job_words(&j, &w);
	if (ms_agent_delegate(sock, &j, code))
		return 1;
	unsetenv(MS_AGENT_ENV);
	return 0;
}

/* dir/rel, where dir is the directory of the file path names. */
static int beside(const char *path, const char *rel, char *out, size_t len)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	int n;

	if (!slash)
		return -1;
	n = snprintf(out, len, "%.*s/%s", (int)(slash - path), path, rel);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int ms_front_run_core(char **argv)
{
	char self[PATH_MAX], cand[3][PATH_MAX + sizeof(CORE_FROM_BIN)];
	const char *run_as = (const char *)getauxval(AT_EXECFN);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct stat me;
	int nc = 0;

	if (n > 0) {
		self[n] = '\0';
		nc += !beside(self, CORE_FROM_BIN, cand[nc], sizeof(cand[0]));
	}
	nc += !beside(run_as, CORE_FROM_BIN, cand[nc], sizeof(cand[0]));
	snprintf(cand[nc++], sizeof(cand[0]), "%s/%s", MODSIGN_PKGLIBDIR,
		 CORE_NAME);
	/* a front end found where its tool proper belongs would run
	 * itself for ever */
	if (stat("/proc/self/exe", &me) != 0)
		memset(&me, 0, sizeof(me));	/* no inode is 0 */
	for (int i = 0; i < nc; i++) {
		struct stat it;

		if (stat(cand[i], &it) != 0 ||
		    (me.st_dev == it.st_dev && me.st_ino == it.st_ino))
			continue;
		execv(cand[i], argv);
		log_error(cand[i], "cannot run sign-file's signing code: %s "
			 "(reinstall modsign)", strerror(errno));
		return EXITCODE_IO;
	}
	log_error(NULL, "cannot find sign-file's signing code, %s, beside "
		 "%s or in %s: run the sign-file that make built or "
		 "installed, or a symlink to it, not a copy", CORE_FROM_BIN,
		 n > 0 ? self : "this executable", MODSIGN_PKGLIBDIR);
	return EXITCODE_IO;
}
