/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Before signing: would a kernel accept this key type and digest?  Users
 * otherwise learn it at insmod time as "Key was rejected by service".
 * Warnings only: sign-file signs whatever OpenSSL can, as the kernel tool.
 */
#ifndef MODSIGN_KERNEL_ALGCHECK_H
#define MODSIGN_KERNEL_ALGCHECK_H

#include <openssl/evp.h>

/* 0 when line is a kernel line this table knows ("6.1", "6.12"). */
int ms_alg_line_known(const char *line);
/* "6.1, 6.12" for usage messages. */
const char *ms_alg_lines(void);

#define MS_ALG_MAX_WARN 2

/*
 * Fill warn[] with static one-line reasons and return their count.
 * line NULL: only what every known line rejects, plus SHA-1, which is
 * always warned about.
 */
int ms_alg_check_digest(const EVP_MD *md, const char *line,
			const char *warn[MS_ALG_MAX_WARN]);
int ms_alg_check_key(EVP_PKEY *key, const char *line,
		     const char *warn[MS_ALG_MAX_WARN]);

#endif
