/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signing agent: one loaded signer serving sign-file runs over a UNIX
 * socket (sign-file/agent_wire.h), so that a whole kbuild or DKMS run pays one
 * key load and one token login.
 */
#ifndef MODSIGN_SIGN_FILE_AGENT_SERVER_H
#define MODSIGN_SIGN_FILE_AGENT_SERVER_H

#include "sign-file/signer.h"

struct ms_agent_conf {
	const struct ms_signer *signer;	/* loaded, with its one pair */
	/* The identity clients must present: the command line's strings
	 * (a key file by its identity, a certificate file by its bytes). */
	const char *hash, *key, *cert, *provider, *p11module;
	int keyid;
	int jobs;		/* clients served at once */
	/* What a run with this key prints before it signs (warnings about
	 * the key or hash), given only to clients naming the key the same
	 * way; NULL or "" for none. */
	const char *preamble;
};

/*
 * Serve conf on a new socket in a fresh 0700 directory (under $TMPDIR or
 * /tmp), exported as MODSIGN_AGENT.  With cmd (argv, NULL-terminated):
 * run it, serve until it ends, return its exit status (128 + signal when
 * killed; 127 when it cannot be run); SIGINT, SIGTERM and SIGHUP are
 * passed on to it and end the serving at once.  Without cmd (detached):
 * serve until a stop request or one of those signals, return 0.  Before
 * serving, when ready_fd >= 0, the socket's path and a newline are
 * written to it and it is closed.  The socket and its directory are
 * removed whatever ends the serving, and the file systems written to
 * are flushed (syncfs) before the return.  -errno when the socket
 * cannot be made.
 */
int ms_agent_serve(const struct ms_agent_conf *conf, char *const *cmd,
		   int ready_fd);

/*
 * --agent-start: fork.  The child returns 0 with *ready_fd to pass to
 * ms_agent_serve, after starting a new session.  The parent waits for the
 * child's socket path (printed as shell export lines on stdout, then
 * returns 1 and *code 0), or for the child's end (returns 1, *code its
 * exit status: the child said why on stderr).  -errno if fork fails.
 */
int ms_agent_detach(int *ready_fd, int *code);

#endif
