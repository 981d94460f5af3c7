/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel release as the tools take it (--kernel, or the version read
 * out of a kernel image or .config): its rules, and the words every tool
 * uses for them.  A release that is not a line's own is judged by its
 * rules as the kernel's history has them, never confirmed by a real
 * kernel: that is said once, and JSON says "kernel_exact": false.
 * And the purpose a file is judged for, as verify-file takes it.
 */
#ifndef MODSIGN_REPORT_KERNEL_ARG_H
#define MODSIGN_REPORT_KERNEL_ARG_H

#include "kernel/rules.h"

/*
 * The rules of release name into *out.  what names where the release
 * came from in messages ("--kernel" or a file's path).  Says on stderr,
 * once, what is assumed when the release is not a line's own.  0; -1
 * after an error message: not a version, or older than the oldest line
 * (refused: nothing of the kind was checked against a real kernel).
 */
int rp_kernel_arg_release(const char *what, const char *name,
			  struct rules_rules *out);

/*
 * verify-file's --usage NAME: what the kernel checks the file for
 * (enum verify_usage, kernel/verify.h) into *usage.  0; -1 after an error
 * message naming the usages there are.
 */
int rp_kernel_arg_usage(const char *name, int *usage);

/* --version of the tools that judge: whether this build's kernel model
 * checks ML-DSA signatures (kernel/public_key.h). */
int rp_kernel_arg_mldsa_checkable(void);

#endif
