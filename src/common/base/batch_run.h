/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Many files in one run: the input list (command line or --files-from),
 * and each file's output collected while it is worked on and printed in
 * input order.
 */
#ifndef MODSIGN_BASE_BATCH_RUN_H
#define MODSIGN_BASE_BATCH_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "base/progress.h"

/* File names, in input order. */
struct batch_run_list {
	char **v;
	size_t n, cap;
};

/* Append name (copied).  -ENOMEM. */
int batch_run_list_add(struct batch_run_list *l, const char *name);
/*
 * Append the names in path ("-": standard input), one a line, or
 * NUL-separated when nul.  Empty names are skipped; a line's "\r\n" is
 * not special (file names may hold any byte but NUL and, without -0,
 * newline).  -errno when unreadable; -EILSEQ when a line holds a NUL
 * byte without nul (a NUL-separated list: never cut at the first NUL).
 */
int batch_run_list_read(struct batch_run_list *l, const char *path, int nul);
void batch_run_list_free(struct batch_run_list *l);

/*
 * -j N: 1..BATCH_RUN_JOBS_MAX workers, or -EINVAL.  0 is not allowed: the
 * default (online CPUs) comes from workpool_default_workers().
 */
#define BATCH_RUN_JOBS_MAX 256
int batch_run_jobs_parse(const char *arg, int *jobs);

/* What one file printed, held until its turn comes. */
struct batch_run_result {
	char *out, *err;	/* stdout and stderr text, or NULL */
	size_t out_len, err_len;
	int code;		/* its exit code */
	int tag;		/* the tool's note for its summary */
};

/*
 * Collect this thread's output for r: *out gets a stream for stdout text;
 * diagnostics (log.h) are captured too.  -ENOMEM.  batch_run_result_end closes
 * the streams and keeps the text in r.
 */
struct batch_run_capture {
	FILE *out, *err;
	struct batch_run_result *r;
};
int batch_run_result_begin(struct batch_run_capture *c, struct batch_run_result *r);
void batch_run_result_end(struct batch_run_capture *c);
/* Print r (stderr part first, then stdout), around the progress bar. */
void batch_run_result_emit(struct batch_run_result *r, struct progress *pg);
void batch_run_result_free(struct batch_run_result *r);

/*
 * Run fn(ctx, i, out) for every name of list on jobs workers.  What fn
 * writes to out (stdout text) and its diagnostics (log.h) are printed in
 * input order, each file's diagnostics first; then done(ctx, i, code)
 * runs in the calling thread, in order, with fn's return value.  Returns
 * the most severe of those codes.  A progress bar labelled what is drawn
 * on stderr when it is a terminal.
 */
int batch_run_each(const struct batch_run_list *list, int jobs, const char *what,
		  int (*fn)(void *ctx, size_t i, FILE *out),
		  void (*done)(void *ctx, size_t i, int code), void *ctx);

#endif
