/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's last line, for every tool: the files, counted by outcome, as
 * "summary: N files: N word, N word, ..." or as one JSON object
 * {"summary":{"files":N,"key":N,...,"exit":N}}, the run's exit status
 * last.  Each tool names its own outcomes; the shape is this one.
 */
#ifndef MODSIGN_REPORT_SUMMARY_H
#define MODSIGN_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rp_summary_count {
	const char *words;	/* in the text: "N words" */
	const char *key;	/* in the JSON */
	size_t n;
	bool if_any;		/* shown only when n > 0 */
};

void rp_summary_print(FILE *out, size_t files, const struct rp_summary_count *c,
		      size_t nc, int exit_code, bool json);

#endif
