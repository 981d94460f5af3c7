// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json_name.h"

/* Length of the valid UTF-8 sequence at s, or 0 if there is none. */
static size_t seq_len(const unsigned char *s)
{
	unsigned int c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* 1 when s is valid UTF-8 (RFC 3629: no overlong forms, surrogates or
 * code points above U+10FFFF). */
static int ms_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		n = seq_len(p);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

void json_name_add(json_object *o, const char *key, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	char *fixed, *hex, *bkey;
	size_t n, len, out = 0;

	if (!name) {
		json_object_object_add(o, key, NULL);
		return;
	}
	if (ms_utf8_valid(name)) {
		json_object_object_add(o, key, json_object_new_string(name));
		return;
	}
	len = strlen(name);
	/* each bad byte becomes the 3 bytes of U+FFFD */
	fixed = malloc(3 * len + 1);
	hex = format_hex(p, len);
	bkey = malloc(strlen(key) + sizeof("_bytes"));
	if (!fixed || !hex || !bkey) {
		/* no name rather than text that is not JSON */
		json_object_object_add(o, key, NULL);
		goto out;
	}
	while (*p) {
		n = seq_len(p);
		if (n) {
			memcpy(fixed + out, p, n);
			out += n;
			p += n;
		} else {
			memcpy(fixed + out, "\xef\xbf\xbd", 3);
			out += 3;
			p++;
		}
	}
	fixed[out] = '\0';
	sprintf(bkey, "%s_bytes", key);
	json_object_object_add(o, key, json_object_new_string(fixed));
	json_object_object_add(o, bkey, json_object_new_string(hex));
out:
	free(fixed);
	free(hex);
	free(bkey);
}
