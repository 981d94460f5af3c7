/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file --agent HASH KEY X509 -- COMMAND..., --agent-start HASH KEY
 * X509, --agent-stop: one key load serving every plain run below it
 * (sign/agent_server.h).
 */
#ifndef MODSIGN_SIGN_RUN_AGENT_H
#define MODSIGN_SIGN_RUN_AGENT_H

#include "sign/sign_cmd.h"

/*
 * Load c's one signer and serve it: with detached (--agent-start) in a
 * child of its own, else for the command after "--" (c->words + 3).
 * report turns a failed load into its diagnostic and exit code.  Returns
 * the exit code: the command's with --agent.
 */
int ms_run_agent(const struct ms_sign_cmd *c, int detached,
		 int (*report)(const struct ms_fail *f, int err));

/* --agent-stop: end the agent MODSIGN_AGENT names; 0 or an exit code
 * after one line on stderr. */
int ms_run_agent_stop(void);

#endif
