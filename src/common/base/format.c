// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "base/format.h"

char *ms_hex(const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(len * 2 + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[len * 2] = '\0';
	return s;
}

void ms_hex_kmod(FILE *f, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		fprintf(f, "%02X", p[i]);
		if (i + 1 == len)
			break;
		fputs((i + 1) % 20 == 0 ? ":\n\t\t" : ":", f);
	}
}

void ms_pkey_describe(EVP_PKEY *pkey, char *buf, size_t len)
{
	char group[64];
	size_t glen = 0;

	/* An embedded certificate's key may not decode at all (found by
	 * fuzz_describe): describe it, don't dereference it. */
	if (!pkey) {
		snprintf(buf, len, "undecodable key");
		ERR_clear_error();
		return;
	}
	if (EVP_PKEY_is_a(pkey, "RSA")) {
		snprintf(buf, len, "RSA-%d", EVP_PKEY_get_bits(pkey));
	} else if (EVP_PKEY_is_a(pkey, "EC")) {
		if (EVP_PKEY_get_utf8_string_param(pkey,
				OSSL_PKEY_PARAM_GROUP_NAME, group,
				sizeof(group), &glen) != 1)
			strcpy(group, "unknown");
		/* prime256v1 and secp384r1 are the NIST P-256/P-384 curves */
		if (!strcmp(group, "prime256v1"))
			strcpy(group, "P256");
		else if (!strcmp(group, "secp384r1"))
			strcpy(group, "P384");
		else if (!strcmp(group, "secp521r1"))
			strcpy(group, "P521");
		else if (!strcmp(group, "prime192v1"))
			strcpy(group, "P192");
		snprintf(buf, len, "ECDSA-%s", group);
	} else {
		snprintf(buf, len, "%s", EVP_PKEY_get0_type_name(pkey) ?
					   EVP_PKEY_get0_type_name(pkey) : "unknown");
	}
	ERR_clear_error();
}
