/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's command line as its runs take it: filled by the tool's
 * option parser, checked here, read here to load the signers it names
 * and to list the files it reads, and the three runs it dispatches to.
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_CMD_H
#define MODSIGN_SIGN_FILE_SIGN_CMD_H

#include "base/samefile.h"
#include "kernel/rules.h"
#include "sign-file/front.h"
#include "sign-file/outcome.h"
#include "sign-file/sign_words.h"
#include "sign-file/signer.h"

struct ms_cmd_batch_opts {
	int on, nul, jobs, json;
	const char *from, *walk;
};

struct ms_cmd {
	enum ms_sign_words_verb verb;
	struct ms_signer_req req;
	int keyid, quiet, verbose, kmod;
	int agent;		/* the tool's code for --agent* (0: none) */
	int ncmd;		/* words after "--": --agent's command */
	const char *kcpath, *rawsig, *pin_file;
	struct rules_rules rules_buf;		/* --kernel's */
	struct ms_key_opts kopts;
	struct ms_cmd_batch_opts batch;
	/* --signer KEY CERT, in order */
	int nextra;
	const char *extra_keys[MS_SIGNER_MAX], *extra_certs[MS_SIGNER_MAX];
	/* the positional words as the option parser left them */
	char **words;
	int nwords;
	/* and decoded (sign-file/sign_words.h) by the check of the run's
	 * command line: ms_cmd_check_one, ms_cmd_check_batch, or
	 * ms_run_agent */
	struct ms_sign_words pos;
};

/*
 * Add the signers of a signing run to s: <key> <x509> (c->pos) when
 * with_words, then each --signer.  names[] gets each key's name for
 * the messages.  0 or -errno with *fail.
 */
int ms_cmd_add_signers(const struct ms_cmd *c, struct ms_signer *s,
		       int with_words, const char **names,
		       struct ms_signer_failure *fail);

/*
 * Load what the verb signs with, hash its digest (c->pos.hash, or the
 * one --kernel-config names) and cert the signer's certificate.  0 or
 * -errno with *fail.
 */
int ms_cmd_load(const struct ms_cmd *c, struct ms_signer *s,
		const char *hash, const char *cert, const char **names,
		struct ms_signer_failure *fail);

/*
 * The files this run reads besides the modules, which no output may be
 * (sign-file/outputs.h).  key and cert are NULL when only --signer names keys.
 */
void ms_cmd_inputs(const struct ms_cmd *c, const char *key,
		   const char *cert, struct samefile_inputs *in);

/*
 * kmodsign's -D (req->trailer_only): with -d, or without a <dest> other
 * than <module>, say so on stderr and return -EINVAL; else 0.
 */
int ms_cmd_kmodsign_check(const struct ms_signer_req *req);

/*
 * The command line checked before a run: 0, CLI_OPTIONS_USAGE (base/
 * cli_options.h) after a line saying why when the usage helps, or
 * EXITCODE_USAGE after one that says it all.  Both decode the positional
 * words into c->pos first.
 */
int ms_cmd_check_one(struct ms_cmd *c);
int ms_cmd_check_batch(struct ms_cmd *c);

/* --pin-file (from_file) or --pin-fd arg: 0, or EXITCODE_USAGE after
 * saying why (sign-file/pin.h). */
int ms_cmd_pin_source(int from_file, const char *arg);

/*
 * The three runs.  Each turns a failed step into its diagnostic and exit
 * code by sign-file/sign_report.h's table, and returns an exit code.
 */
/*
 * sign-file on one file, by the kernel tool's positional command line:
 * handed to a signing agent when one serves this run (MODSIGN_AGENT),
 * else the signer loaded, the warnings given and the file signed,
 * attached to or digested.
 */
/* What a run that worked leaves the tool to say. */
struct ms_cmd_one_done {
	int skipped;		/* --skip-signed left the module alone */
	int by_agent;		/* an agent did it and said what it had to */
	char *hash;		/* --digest-only: the digest's name */
	char *digest_hex;	/* and its value (owned: free() it) */
};

/*
 * Run c, a one-file command line ms_cmd_check_one has passed.  Returns
 * 0 with *done, or the exit code.
 */
int ms_run_one(struct ms_cmd *c, struct ms_cmd_one_done *done);

/*
 * sign-file --batch: "<hash> <key> <x509> <module>..." (or "<hash>
 * <module>..." with --signer), plus -r and --files-from, signed with one
 * key load (sign-file/batch_sign.h).
 */
/*
 * Run c, a batch command line ms_cmd_check_batch has passed.  view shows each
 * file's outcome (the tool's printer); a failed step gets its diagnostic
 * and exit code from sign-file/sign_report.h's table; tally gets the files'
 * count once they were reached (tally->code is left alone when a key,
 * certificate or list fails first).  Returns the most severe exit code
 * of the run.
 */
int ms_run_batch(struct ms_cmd *c, const struct ms_outcome_view *view,
		 struct ms_outcome_tally *tally);

/*
 * sign-file --agent HASH KEY X509 -- COMMAND..., --agent-start HASH KEY
 * X509, --agent-stop: one key load serving every plain run below it
 * (sign-file/agent_server.h).
 */
/*
 * Load c's one signer and serve it: with detached (--agent-start) in a
 * child of its own, else for the command after "--" (c->pos.rest, once
 * decoded here).
 * A failed load gets its diagnostic and exit code from
 * sign-file/sign_report.h's table.  Returns the exit code: the command's with
 * --agent.
 */
int ms_run_agent(struct ms_cmd *c, int detached);

/* --agent-stop: end the agent MODSIGN_AGENT names; 0 or an exit code
 * after one line on stderr. */
int ms_run_agent_stop(void);

/*
 * What a one-file run that worked says: --digest-only's line "<hash>
 * <hex digest>  <module>" (sha256sum's, with the algorithm in front) on
 * stdout, "already signed" unless -q, what was done with -v.  Frees
 * done's strings.
 */
void ms_cmd_say_done(const struct ms_cmd *c, struct ms_cmd_one_done *done);

/* The end of any run: the PIN forgotten, and the providers (and their
 * PKCS#11 modules) torn down before exit() where a token was opened. */
void ms_cmd_done(void);

#endif
