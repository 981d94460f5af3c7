// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/quote.h"

static const char *prog = "modsign";
static int verbose;
/* Per thread: a batch worker's messages go to its file's buffer. */
static _Thread_local FILE *capture;
/* What log_error prints below its line: OpenSSL's error queue in the
 * tools (log_openssl.c); nothing in sign-file's front end, which links
 * no OpenSSL. */
static void (*detail)(FILE *out, int verbose);

static FILE *errf(void)
{
	return capture ? capture : stderr;
}

void log_capture(FILE *f)
{
	capture = f;
}

void log_detail(void (*fn)(FILE *out, int verbose))
{
	detail = fn;
}

void log_init_plain(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	prog = slash ? slash + 1 : argv0;
}

const char *log_prog(void)
{
	return prog;
}

void log_set_verbose(int level)
{
	verbose = level;
}

int log_verbose(void)
{
	return verbose;
}

static void vreport(const char *tag, const char *subject, const char *fmt,
		    va_list ap) __attribute__((format(printf, 3, 0)));

/* The run's first error, said outside any capture (a batch file's
 * errors are that file's): what --json turns into its error object. */
static char *first_subject, *first_message;

static void remember_first(const char *subject, const char *fmt,
			   va_list ap) __attribute__((format(printf, 2, 0)));

static void remember_first(const char *subject, const char *fmt, va_list ap)
{
	if (capture || first_message)
		return;
	if (vasprintf(&first_message, fmt, ap) < 0) {
		first_message = NULL;
		return;
	}
	first_subject = subject ? strdup(subject) : NULL;
}

const char *log_first_error(const char **subject)
{
	*subject = first_subject;
	return first_message;
}

static void vreport(const char *tag, const char *subject, const char *fmt,
		    va_list ap)
{
	char *quoted = subject ? quote_name(subject) : NULL;

	fprintf(errf(), "%s: %s", prog, tag);
	if (subject)
		fprintf(errf(), "%s: ", quoted ? quoted : subject);
	free(quoted);
	vfprintf(errf(), fmt, ap);
	fputc('\n', errf());
}

void log_error(const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", subject, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	remember_first(subject, fmt, ap);
	va_end(ap);
	if (detail)
		detail(errf(), verbose);
}

void log_warn(const char *subject, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", subject, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
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

void log_usage_hint(void)
{
	fprintf(stderr, "Try '%s --help' for the usage.\n", log_prog());
}
