/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's words for a failed step: one line on stderr (base/log.h)
 * and the exit code of the shared table, the same whether the file was
 * signed by a run of its own, a batch worker or the signing agent.
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_REPORT_H
#define MODSIGN_SIGN_FILE_SIGN_REPORT_H

#include "sign-file/signer.h"

/* Say what failed (f, with err its -errno) and return the exit code. */
int ms_sign_report(const struct ms_signer_failure *f, int err);

#endif
