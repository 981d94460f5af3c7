/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel verdict as verify-file prints it: one line of text, or one
 * JSON object, per file; and the tally of a run.
 */
#ifndef MODSIGN_REPORT_VERDICT_H
#define MODSIGN_REPORT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel/kernel_config.h"
#include "kernel/sig_check.h"
#include "kernel/verify.h"
#include "trust/keyring_model.h"
#include "trust/machine.h"

/* How the verdict is to be read. */
struct rp_verdict_context {
	/* the rules judged by: their line ("kernel"), whether they are the
	 * line's own ("kernel_exact") and the release asked for */
	const struct rules_rules *rules;
	/* what module_sig_check() is asked under (kernel/sig_check.h):
	 * its answer is what is printed */
	struct sig_check_policy sig;
	enum machine_lockdown lockdown;	/* for words: how sig.locked is known */
	const char *locked_by;	/* what set the lockdown level, for words */
	/* --machine: what was read, and each part found missing or
	 * different from what the files predict */
	const struct machine *machine;
	char *const *differences;
	size_t n_differences;
	const struct keyring_model *km;	/* --machine's keyring model */
	/* the kernel config judged by and how it was found (NULL, NULL:
	 * none, the crypto of the rules' line assumed) */
	const char *config, *config_from;
	enum kernel_config_modules modules;	/* its MODULES and MODULE_SIG, as
					 * JSON names them */
};

void rp_verdict_text(FILE *out, const struct rp_verdict_context *c, const char *file,
		     enum verify_usage usage, const struct verify_result *r);
void rp_verdict_json(FILE *out, const struct rp_verdict_context *c, const char *file,
		     enum verify_usage usage, const struct verify_result *r);
struct json_object;
/* The same, with add(ctx, the object) called before it is printed: a
 * tool's own keys. */
void rp_verdict_json_with(FILE *out, const struct rp_verdict_context *c,
			  const char *file, enum verify_usage usage,
			  const struct verify_result *r,
			  void (*add)(void *ctx, struct json_object *o),
			  void *ctx);
/* A file that could not be judged, as JSON: "verdict":"ERROR", with the
 * errno and what went wrong. */
void rp_verdict_error_json(FILE *out, const char *file, int err,
			   const char *reason);

/* A run's verdicts, counted by their underlying errno. */
struct rp_verdict_tally {
	unsigned ok, unsigned_, nokey, nopkg, rejected, malformed, errors;
	unsigned nocheck;	/* -EXITCODE_ENOALG: this build could not judge */
};
void rp_verdict_count(struct rp_verdict_tally *s, int err);
void rp_verdict_summary_add(struct rp_verdict_tally *to, const struct rp_verdict_tally *from);
void rp_verdict_summary(FILE *out, size_t files, const struct rp_verdict_tally *s);
/* The same as one JSON object: {"summary":{"files":N,"ok":N,...,
 * "exit":N}}, the run's exit status last, as in sign-file's */
void rp_verdict_summary_json(FILE *out, size_t files,
			     const struct rp_verdict_tally *s, int exit_code);

#endif
