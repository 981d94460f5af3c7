/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client side of the signing agent (sign-file --agent): a plain
 * "sign-file <hash> <key> <x509> <module> [<dest>]" run hands its module
 * to the agent named by MODSIGN_AGENT before it loads OpenSSL or a key.
 */
#ifndef MODSIGN_SIGN_FILE_AGENT_CLIENT_H
#define MODSIGN_SIGN_FILE_AGENT_CLIENT_H

/* What one run asks for (the strings of the command line). */
struct ms_agent_job {
	const char *hash, *key, *cert, *module;
	const char *dest;	/* NULL: in place */
	const char *provider, *p11module;	/* NULL when not given */
	unsigned int flags;	/* MS_AGENT_F_* (sign-file/agent_wire.h) */
};

/*
 * Hand job to the agent listening on sock.  1: the agent answered (its
 * messages are on stderr now, *code is the exit code), or it ended after
 * replacing the module in place (*code 0, as the signing run it was would
 * have said nothing).  0: sign the module here, as if there were no
 * agent: none at sock, a stale socket, an agent that declined (another
 * key, certificate, hash or option) or one that ended before anything was
 * replaced.  Never an error of its own: whatever the agent could not do,
 * the run does itself and reports in its own words.
 */
int ms_agent_delegate(const char *sock, const struct ms_agent_job *job,
		      int *code);

/* Ask the agent at sock to end: 0, or -errno (-ECONNREFUSED and -ENOENT
 * for no agent there). */
int ms_agent_stop(const char *sock);

#endif
