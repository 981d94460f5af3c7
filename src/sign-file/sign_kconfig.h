/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file --kernel-config: the .config of the kernel the signature is
 * for, read once before any key is loaded.
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_KCONFIG_H
#define MODSIGN_SIGN_FILE_SIGN_KCONFIG_H

#include "kernel/kernel_config.h"

/*
 * Read path into kc.  asked is --kernel's line or NULL; *hash is <hash>,
 * replaced by CONFIG_MODULE_SIG_HASH when it is "-".  Returns 0, or an
 * exit code (base/exitcode.h) after one line on stderr naming path (kc
 * is then freed).
 */
int ms_sign_kconfig_load(const char *path, struct kernel_config *kc,
			 const struct rules_rules *asked, const char **hash);

#endif
