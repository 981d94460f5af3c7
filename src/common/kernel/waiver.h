/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ML-DSA signed-attributes waiver, for describing a signature
 * (extract-sig): what a kernel line makes of each ML-DSA signer's signed
 * attributes on a module.
 */
#ifndef MODSIGN_KERNEL_WAIVER_H
#define MODSIGN_KERNEL_WAIVER_H

#include "kernel/rules.h"
#include "module/sig_describe.h"

/*
 * Set d->kernel to kr's name and each ML-DSA signer's waiver, as
 * pkcs7_check_authattrs() and pkcs7_verify() decide it for
 * VERIFYING_MODULE_SIGNATURE (v7.0): signed attributes are rejected on
 * modules unless the kernel is built with
 * CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA and the first
 * SignerInfo has none or is ML-DSA.
 */
void waiver_describe(const struct rules_rules *kr, struct sig_describe *d);

#endif
