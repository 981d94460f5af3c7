/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch signing: every file of a list signed with one key load, on the
 * worker pool, with grouped flushing.
 */
#ifndef MODSIGN_SIGN_FILE_BATCH_SIGN_H
#define MODSIGN_SIGN_FILE_BATCH_SIGN_H

#include "base/batch_run.h"
#include "sign-file/outcome.h"
#include "sign-file/signer.h"

/*
 * Sign every file of list with one loaded signer, on jobs workers, each
 * file's output in list order, as view prints it (the tool's printer,
 * sign-file/sign_result.h).  req gives the per-file options
 * (policy, -p, -d; describe to hand the printer the signature made); its
 * module and dest are ignored.  A failure gets its diagnostic and exit
 * code from sign-file/sign_report.h's table.  *tally counts the files
 * for the summary, which is the caller's to print.  Returns the most
 * severe exit code.
 *
 * Durability: each worker writes complete temporary files without
 * flushing them; every MS_BATCH_SIGN_GROUP_MAX files (and at the end) one syncfs()
 * per file system makes them durable, then they are renamed into place
 * and each directory is fsynced once.  sign-file(1), BATCH OUTPUT and
 * DURABILITY (man/sign-file.h2m), says what a crash leaves behind at each
 * point.
 */
#define MS_BATCH_SIGN_GROUP_MAX 64
int ms_batch_sign_run(const struct ms_signer *s, const struct ms_signer_req *req,
		      const struct batch_run_list *list, int jobs,
		      const struct ms_outcome_view *view,
		      struct ms_outcome_tally *tally);

#endif
