// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* One control byte inside $'...': the C escape, else three octal digits,
 * as coreutils writes it. */
static void put_escape(FILE *f, unsigned char c)
{
	static const char named[] = "\a\b\t\n\v\f\r";
	static const char letter[] = "abtnvfr";
	const char *p = c ? strchr(named, c) : NULL;

	if (p)
		fprintf(f, "\\%c", letter[p - named]);
	else
		fprintf(f, "\\%03o", c);
}

char *quote_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	while (*p && !is_control(*p))
		p++;
	if (!*p)
		return NULL;
	f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	/* runs of printable bytes in '...' (a ' as '\''), runs of control
	 * bytes in $'...' */
	for (p = (const unsigned char *)name; *p;) {
		bool ctl = is_control(*p);

		fputs(ctl ? "$'" : "'", f);
		for (; *p && is_control(*p) == ctl; p++) {
			if (ctl)
				put_escape(f, *p);
			else if (*p == '\'')
				fputs("'\\''", f);
			else
				fputc(*p, f);
		}
		fputc('\'', f);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
