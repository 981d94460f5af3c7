/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's command line as the runs (sign/run_one.h, sign/run_batch.h,
 * sign/run_agent.h) take it: filled by the tool's option parser, read
 * here to load the signers it names and to list the files it reads.
 */
#ifndef MODSIGN_SIGN_SIGN_CMD_H
#define MODSIGN_SIGN_SIGN_CMD_H

#include "base/samefile.h"
#include "kernel/rules.h"
#include "sign/signer.h"

/* What the positional words mean (the kernel tool's layouts). */
enum ms_verb {
	MS_VERB_SIGN,		/* <hash> <key> <x509> <module> [<dest>] */
	MS_VERB_RAW,		/* -s <raw-cms> <hash> <x509> <module> ... */
	MS_VERB_ATTACH,		/* --attach SIG <hash> <x509> <module> ... */
	MS_VERB_DIGEST,		/* --digest-only <hash> <module> */
};

struct ms_sign_batch_opts {
	int on, nul, jobs, json;
	const char *from, *walk;
};

struct ms_sign_cmd {
	enum ms_verb verb;
	struct ms_sign_req req;
	int keyid, quiet, verbose, kmod;
	int agent;		/* the tool's code for --agent* (0: none) */
	int ncmd;		/* words after "--": --agent's command */
	const char *kcpath, *rawsig, *pin_file;
	struct kr_rules kr_buf;		/* --kernel's */
	struct ms_key_opts kopts;
	struct ms_sign_batch_opts batch;
	/* --signer KEY CERT, in order */
	int nextra;
	const char *extra_keys[MS_MAX_SIGNERS], *extra_certs[MS_MAX_SIGNERS];
	/* the positional words */
	char **words;
	int nwords;
};

/*
 * Add the signers of a signing run to s: <key> <x509> (words 1 and 2)
 * when with_words, then each --signer.  names[] gets each key's name for
 * the messages.  0 or -errno with *fail.
 */
int ms_cmd_add_signers(const struct ms_sign_cmd *c, struct ms_signer *s,
		       int with_words, const char **names,
		       struct ms_fail *fail);

/*
 * Load what the verb signs with, hash its digest and cert the signer's
 * certificate; npos is the number of positional words before <dest>.
 * 0 or -errno with *fail.
 */
int ms_cmd_load(const struct ms_sign_cmd *c, int npos, struct ms_signer *s,
		const char *hash, const char *cert, const char **names,
		struct ms_fail *fail);

/*
 * The files this run reads besides the modules, which no output may be
 * (sign/outputs.h).  key and cert are NULL when only --signer names keys.
 */
void ms_cmd_inputs(const struct ms_sign_cmd *c, const char *key,
		   const char *cert, struct ms_input_set *in);

/*
 * kmodsign's -D (req->trailer_only): with -d, or without a <dest> other
 * than <module>, say so on stderr and return -EINVAL; else 0.
 */
int ms_cmd_kmodsign_check(const struct ms_sign_req *req);

#endif
