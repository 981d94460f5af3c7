/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics: one line on stderr, "prog: file: what went wrong (what to do)".
 * OpenSSL's error queue is shown only as indented detail under -v.
 */
#ifndef MODSIGN_BASE_LOG_H
#define MODSIGN_BASE_LOG_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The program's name for every line, from argv[0].  log_init also
 * prints OpenSSL's error queue under each log_error (indented, with -v;
 * drained without), in log_openssl.c so that log_init_plain, for a
 * program that links no OpenSSL, pulls none in.  log_detail: what
 * log_error prints below its line (NULL: nothing).
 */
void log_init(const char *argv0);
void log_init_plain(const char *argv0);
void log_detail(void (*fn)(FILE *out, int verbose));
const char *log_prog(void);
void log_set_verbose(int level);
int log_verbose(void);

/* "prog: subject: message" on stderr; subject may be NULL. */
void log_error(const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "prog: warning: subject: message" on stderr. */
void log_warn(const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Printed only with -v. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* After the one line saying what is wrong with a command line: where
 * the usage is, rather than the whole usage block. */
void log_usage_hint(void);
/* The first log_error of the run outside any capture, and its subject
 * (NULL when none): what --json reports when a run fails as a whole.
 * Kept until the process ends. */
const char *log_first_error(const char **subject);

/*
 * Send this thread's diagnostics to f instead of stderr (NULL: back to
 * stderr).  Batch workers collect each file's messages this way, and the
 * tool prints them in input order.
 */
void log_capture(FILE *f);

#endif
