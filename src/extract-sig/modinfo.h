/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmod modinfo's five signature fields, byte for byte (kmod's
 * libkmod/libkmod-signature.c),
 * so scripts that parse modinfo can read extract-sig instead.
 */
#ifndef MODSIGN_EXTRACT_SIG_MODINFO_H
#define MODSIGN_EXTRACT_SIG_MODINFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Print sig_id, signer, sig_key, sig_hashalgo and signature as modinfo
 * does ("key:<pad>value", value from column 17), or only the value of one
 * field (as modinfo -F).  -ENODATA when kmod would print no signature
 * fields (unsigned, a descriptor kmod rejects, or a PKCS#7 blob that
 * OpenSSL's PKCS7 type cannot read, such as a CMS v3 SKID signer);
 * -EINVAL for an unknown field name.
 */
int modinfo_print(FILE *f, const uint8_t *buf, size_t len,
		     const char *field);

#endif
