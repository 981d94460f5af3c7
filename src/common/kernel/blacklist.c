// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/blacklist.h"

static int hexval(char c)
{
	/* certs/blacklist.c: only lower-case hex digits are valid */
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int add_entry(struct blacklist *bl, const char *s, size_t n)
{
	struct blacklist_entry e = { 0 }, *ne;
	size_t i;

	if (n > 4 && memcmp(s, "tbs:", 4) == 0)
		e.tbs = true;
	else if (!(n > 4 && memcmp(s, "bin:", 4) == 0))
		return -EINVAL;
	s += 4;
	n -= 4;
	/* certs/system_keyring.c, certs/blacklist.c: at most 128 digits, else
	 * -ENOPKG; an even count */
	if (n > 128)
		return -ENOPKG;
	if (n % 2)
		return -EINVAL;
	for (i = 0; i < n; i += 2) {
		int hi = hexval(s[i]), lo = hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		e.hash[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	e.len = n / 2;
	ne = realloc(bl->e, (bl->n + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	bl->e = ne;
	bl->e[bl->n++] = e;
	return 0;
}

int blacklist_load(struct blacklist *bl, const char *text, size_t len, int *line)
{
	size_t i = 0;
	int ret;

	*line = 1;
	while (i < len) {
		char c = text[i];

		if (c == '\n') {
			(*line)++;
			i++;
		} else if (c == ',' || c == ' ' || c == '\t' || c == '\r') {
			i++;
		} else if (c == '"') {
			size_t j = i + 1;

			while (j < len && text[j] != '"' && text[j] != '\n')
				j++;
			if (j >= len || text[j] != '"')
				return -EINVAL;
			ret = add_entry(bl, text + i + 1, j - i - 1);
			if (ret)
				return ret;
			i = j + 1;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

int blacklist_add(struct blacklist *bl, bool tbs, const uint8_t *h, size_t len)
{
	struct blacklist_entry *ne;

	if (len == 0 || len > sizeof(ne->hash))
		return -EINVAL;
	ne = realloc(bl->e, (bl->n + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	bl->e = ne;
	memset(&ne[bl->n], 0, sizeof(*ne));
	ne[bl->n].tbs = tbs;
	memcpy(ne[bl->n].hash, h, len);
	ne[bl->n].len = len;
	bl->n++;
	return 0;
}

static bool has(const struct blacklist *bl, bool tbs, const uint8_t *h,
		size_t len)
{
	size_t i;

	if (!bl)
		return false;
	for (i = 0; i < bl->n; i++)
		if (bl->e[i].tbs == tbs && bl->e[i].len == len &&
		    memcmp(bl->e[i].hash, h, len) == 0)
			return true;
	return false;
}

bool blacklist_has_tbs(const struct blacklist *bl, const uint8_t *h, size_t len)
{
	return has(bl, true, h, len);
}

bool blacklist_has_bin(const struct blacklist *bl, const uint8_t *h, size_t len)
{
	return has(bl, false, h, len);
}

void blacklist_free(struct blacklist *bl)
{
	free(bl->e);
	bl->e = NULL;
	bl->n = 0;
}
