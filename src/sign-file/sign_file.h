/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's wing as its main (src/sign-file.c) sees it: the command
 * and its runs (sign_cmd.h), the printer of their outcomes
 * (sign_result.h), and the --kernel release every tool takes
 * (report/kernel_arg.h).
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_FILE_H
#define MODSIGN_SIGN_FILE_SIGN_FILE_H

#include "report/kernel_arg.h"
#include "sign-file/sign_cmd.h"
#include "sign-file/sign_result.h"

#endif
