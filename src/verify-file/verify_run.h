/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A verify-file run over its files: each judged by the kernel model
 * (kernel/judge_file.h) against the keyrings filled (trust/keyrings.h),
 * on the shared worker pool, its verdict printed in input order (text,
 * JSON or nothing with -q), and for -r or --files-from the run's
 * summary.
 */
#ifndef MODSIGN_VERIFY_FILE_VERIFY_RUN_H
#define MODSIGN_VERIFY_FILE_VERIFY_RUN_H

#include <stdbool.h>

#include "base/treewalk.h"
#include "trust/keyrings.h"

/* What each file is judged with, and how its verdict is shown. */
struct ms_verify_run {
	const struct keyrings_setup *t;	/* settled by keyrings_load(); t->notes
					 * is never NULL */
	const struct keyrings *k;
	const char *sig;	/* --sig: the one file's signature */
	bool detached;		/* --detached: FILE.p7s beside each */
	int usage;		/* enum verify_usage, -1: the form's default */
	bool json, quiet;
	bool summary;		/* -r or --files-from: print a summary */
	int jobs;		/* 0: the online CPUs for several files */
};

/*
 * Judge every file in names (base/treewalk.h), print each verdict on
 * stdout, then the summary.  The run's exit code: the worst of the
 * files' and of collecting them.
 */
int ms_verify_run(const struct ms_verify_run *r, const struct treewalk_inputs *in);

#endif
