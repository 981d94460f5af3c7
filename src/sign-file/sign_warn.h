/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's warnings before anything is signed: what the kernel the
 * result is for (or every line) would reject about the key and the
 * digest, in verify-file's words.  The same for a run of its own, a
 * batch and the signing agent (which hands them to the runs it serves).
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_WARN_H
#define MODSIGN_SIGN_FILE_SIGN_WARN_H

#include "kernel/kernel_config.h"
#include "sign-file/signer.h"

/* kernel: the --kernel line or NULL; kcfg and kcpath: the
 * --kernel-config it came from, or NULL; names: each key's name. */
void ms_sign_warn_algorithms(const struct ms_signer *s, const char *hash,
			     const struct rules_rules *kr,
			     const struct kernel_config *kcfg, const char *kcpath,
			     const char *const *names);
/* ML-DSA's signed attributes need a kernel option no line implies. */
void ms_sign_warn_mldsa(const struct ms_signer *s, const struct rules_rules *kr,
			const char *const *names);
/* --kernel-config: CONFIG_MODULE_SIG_HASH and MODULE_SIG_KEY_TYPE_*. */
void ms_sign_warn_kconfig(const struct kernel_config *kc, const char *path,
			  const struct ms_signer *s, const char *hash);

#endif
