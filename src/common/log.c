// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

#include "log.h"

static const char *prog = "modsign";
static int verbose;

void ms_log_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	prog = slash ? slash + 1 : argv0;
}

const char *ms_prog(void)
{
	return prog;
}

void ms_set_verbose(int level)
{
	verbose = level;
}

int ms_verbose(void)
{
	return verbose;
}

static void vreport(const char *tag, const char *subject, const char *fmt,
		    va_list ap)
{
	fprintf(stderr, "%s: %s", prog, tag);
	if (subject)
		fprintf(stderr, "%s: ", subject);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ms_error(const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", subject, fmt, ap);
	va_end(ap);
	ms_openssl_detail();
}

void ms_warn(const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", subject, fmt, ap);
	va_end(ap);
}

void ms_info(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void ms_openssl_detail(void)
{
	unsigned long e;
	char buf[256];

	while ((e = ERR_get_error()) != 0) {
		if (!verbose)
			continue;
		ERR_error_string_n(e, buf, sizeof(buf));
		fprintf(stderr, "    openssl: %s\n", buf);
	}
}
