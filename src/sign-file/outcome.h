/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a signing run returns for the tool to print (sign-file/sign_result.h):
 * one file's outcome, the printer for it, and the run's tally: the types
 * the runs (batch_sign.h, sign_cmd.h) fill and the printer reads.
 */
#ifndef MODSIGN_SIGN_FILE_OUTCOME_H
#define MODSIGN_SIGN_FILE_OUTCOME_H

#include <stddef.h>
#include <stdio.h>

#include "module/sig_describe.h"

enum ms_outcome_verdict { MS_OUTCOME_SIGNED, MS_OUTCOME_SKIPPED, MS_OUTCOME_FAILED };

/* One file of a batch. */
struct ms_outcome {
	const char *file;
	enum ms_outcome_verdict verdict;
	int err;		/* MS_OUTCOME_FAILED: the errno */
	int code;		/* MS_OUTCOME_FAILED: the exit code */
	/* MS_OUTCOME_FAILED: the diagnostic just printed, without the
	 * program's and the file's names; NULL when none was */
	const char *reason;
	/* MS_OUTCOME_SIGNED, when asked for: the signature made, described
	 * as extract-sig describes an appended one; else NULL */
	const struct sig_describe *made;
};

/*
 * How a batch shows its files: file prints one file's outcome on out;
 * with quiet, files signed or skipped print nothing and open no stream.
 */
struct ms_outcome_view {
	int quiet;
	void (*file)(FILE *out, const struct ms_outcome *o);
};

/* A batch's files, by outcome, and its exit status. */
struct ms_outcome_tally {
	size_t files, signed_, skipped, failed;
	int code;
};

#endif
