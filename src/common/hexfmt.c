// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "hexfmt.h"

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
