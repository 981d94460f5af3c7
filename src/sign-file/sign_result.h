/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's batch output: a line a file ("FILE: signed", "FILE: already
 * signed, left unchanged", "FILE: FAILED (exit N)") or, with --json, one
 * object a file ("verdict" SIGNED with the "signers" of the signature
 * made, in the schema extract-sig and verify-file use; SKIPPED; or
 * verify-file's ERROR object with "errno", "reason" and "exit"), then the
 * run's summary.
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_RESULT_H
#define MODSIGN_SIGN_FILE_SIGN_RESULT_H

#include <stdbool.h>
#include <stdio.h>

#include "sign-file/outcome.h"

void ms_sign_result_outcome(FILE *out, const struct ms_outcome *o,
			    bool json);
/* The batch's view (sign-file/outcome.h) that prints each file so. */
struct ms_outcome_view ms_sign_result_view(bool json, bool quiet);
/* "summary: N files: N signed, N already signed, N failed", or
 * {"summary":{"files":N,"signed":N,"already_signed":N,"failed":N,
 * "exit":N}}; nothing when quiet, unless json. */
void ms_sign_result_summary(FILE *out, const struct ms_outcome_tally *t,
			    bool json, bool quiet);

#endif
