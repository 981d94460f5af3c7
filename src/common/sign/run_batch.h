/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file --batch: "<hash> <key> <x509> <module>..." (or "<hash>
 * <module>..." with --signer), plus -r and --files-from, signed with one
 * key load (sign/batch_sign.h).
 */
#ifndef MODSIGN_SIGN_RUN_BATCH_H
#define MODSIGN_SIGN_RUN_BATCH_H

#include "sign/sign_cmd.h"

/*
 * Run c, a batch command line the tool has validated.  view shows each
 * file's outcome (the tool's printer), report turns a failed step into
 * its diagnostic and exit code (the tool's table), and tally gets the
 * files' count once they were reached (tally->code is left alone when a
 * key, certificate or list fails first).  Returns the most severe exit
 * code of the run.
 */
int ms_run_batch(struct ms_sign_cmd *c, const struct ms_sign_view *view,
		 int (*report)(const struct ms_fail *f, int err),
		 struct ms_sign_tally *tally);

#endif
