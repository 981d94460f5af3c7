/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extract-sig's wing as its main (src/extract-sig.c) sees it: the run
 * that describes each file (describe_run.h), the sink that judges and
 * prints what it found (describe_print.h), and the --kernel release
 * every tool takes (report/kernel_arg.h).
 */
#ifndef MODSIGN_EXTRACT_SIG_EXTRACT_SIG_H
#define MODSIGN_EXTRACT_SIG_EXTRACT_SIG_H

#include "extract-sig/describe_print.h"
#include "extract-sig/describe_run.h"
#include "report/kernel_arg.h"

#endif
