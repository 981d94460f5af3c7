/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file on one file, by the kernel tool's positional command line:
 * handed to a signing agent when one serves this run (MODSIGN_AGENT),
 * else the signer loaded, the warnings given and the file signed,
 * attached to or digested.
 */
#ifndef MODSIGN_SIGN_RUN_ONE_H
#define MODSIGN_SIGN_RUN_ONE_H

#include "sign/sign_cmd.h"

/* What a run that worked leaves the tool to say. */
struct ms_one_done {
	int skipped;		/* --skip-signed left the module alone */
	int by_agent;		/* an agent did it and said what it had to */
	char *hash;		/* --digest-only: the digest's name */
	char *digest_hex;	/* and its value (owned: free() it) */
};

/*
 * Run c, a one-file command line the tool has validated, with npos
 * positional words before the optional <dest>.  report turns a failed
 * step into its diagnostic and exit code (the tool's table).  Returns 0
 * with *done, or the exit code.
 */
int ms_run_one(struct ms_sign_cmd *c, int npos,
	       int (*report)(const struct ms_fail *f, int err),
	       struct ms_one_done *done);

#endif
