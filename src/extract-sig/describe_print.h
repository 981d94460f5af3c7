/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extract-sig's output: each file's description judged with the kernel
 * line and printed (report/sigdesc.h), or its ERROR object, and the run's
 * summary.
 */
#ifndef MODSIGN_EXTRACT_SIG_DESCRIBE_PRINT_H
#define MODSIGN_EXTRACT_SIG_DESCRIBE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "extract-sig/describe_run.h"

struct rules_rules;

/* How extract-sig shows each file. */
enum ms_describe_print_view {
	MS_DESCRIBE_PRINT_TEXT,	/* rp_sigdesc_print, a blank line between */
	MS_DESCRIBE_PRINT_JSON,	/* one object a file, ERROR objects too */
	MS_DESCRIBE_PRINT_NONE,	/* nothing on stdout */
};

struct ms_describe_print {
	enum ms_describe_print_view view;
	/* the kernel line that judges: what it makes of an ML-DSA
	 * signer's signed attributes (kernel/waiver.h), and, with
	 * cert_path, whether that certificate alone vouches for the
	 * signature as verify-file -c judges (kernel/cert_check.h) */
	const struct rules_rules *kernel;
	const char *cert_path;
};

/* The sink for extract-sig/describe_run.h that judges and prints as r says
 * (r must outlive it). */
struct ms_describe_sink ms_describe_print_sink(const struct ms_describe_print *r);

/*
 * extract-sig's summary of many files:
 * "summary: N files: N signed, N unsigned, N malformed, N unreadable",
 * or with json {"summary":{"files":N,"signed":N,...,"exit":N}}.
 */
void ms_describe_print_summary(FILE *out, const struct ms_describe_tally *t,
			       int exit_code, bool json);

#endif
