// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>

#include "base/log.h"

static const char *prog = "modsign";
static int verbose;
/* Per thread: a batch worker's messages go to its file's buffer. */
static _Thread_local FILE *capture;

static FILE *errf(void)
{
	return capture ? capture : stderr;
}

void ms_log_capture(FILE *f)
{
	capture = f;
}

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
		    va_list ap) __attribute__((format(printf, 3, 0)));

static void vreport(const char *tag, const char *subject, const char *fmt,
		    va_list ap)
{
	fprintf(errf(), "%s: %s", prog, tag);
	if (subject)
		fprintf(errf(), "%s: ", subject);
	vfprintf(errf(), fmt, ap);
	fputc('\n', errf());
}

static void ms_openssl_detail(void);

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
	fprintf(errf(), "%s: ", prog);
	vfprintf(errf(), fmt, ap);
	fputc('\n', errf());
	va_end(ap);
}

/* Drain OpenSSL's error queue: printed indented under -v, dropped otherwise. */
static void ms_openssl_detail(void)
{
	unsigned long e;
	char buf[256];

	while ((e = ERR_get_error()) != 0) {
		if (!verbose)
			continue;
		ERR_error_string_n(e, buf, sizeof(buf));
		fprintf(errf(), "    openssl: %s\n", buf);
	}
}

void ms_usage_hint(void)
{
	fprintf(stderr, "Try '%s --help' for the usage.\n", ms_prog());
}
