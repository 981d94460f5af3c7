/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify-file's wing as its main (src/verify-file.c) sees it: the run
 * that judges each file (verify_run.h), what it says of the trust sources
 * it read (load_report.h), and the --kernel release and --usage every
 * tool takes (report/kernel_arg.h).
 */
#ifndef MODSIGN_VERIFY_FILE_VERIFY_FILE_H
#define MODSIGN_VERIFY_FILE_VERIFY_FILE_H

#include "report/kernel_arg.h"
#include "verify-file/load_report.h"
#include "verify-file/verify_run.h"

#endif
