/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef MODSIGN_BASE_FORMAT_H
#define MODSIGN_BASE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/types.h>

/* Lower-case hex without separators into a malloc'd string. */
char *ms_hex(const uint8_t *p, size_t len);
/*
 * kmod's kmod_module_strbuf_pushhex (kernel-rules.md §7.2): upper-case
 * bytes joined by ':', and after every 20th byte with more to follow the
 * separator becomes ":\n\t\t".
 */
void ms_hex_kmod(FILE *f, const uint8_t *p, size_t len);

/* "RSA-4096", "ECDSA-P256", "ML-DSA-65"... into buf. */
void ms_pkey_describe(EVP_PKEY *pkey, char *buf, size_t len);

#endif
