// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "extract-sig/describe_print.h"
#include "kernel/cert_check.h"
#include "kernel/rules.h"
#include "kernel/waiver.h"
#include "report/sigdesc.h"
#include "report/signer_facts.h"
#include "report/summary.h"
#include "report/verdict.h"

/* extract-sig/describe_run.h's show: judge with the kernel line, then print. */
static void sink_show(void *ctx, FILE *out, const char *file,
		      struct sig_describe *d, const uint8_t *mod, size_t len)
{
	const struct ms_describe_print *r = ctx;
	const struct rules_rules *kr = r->kernel ? r->kernel : rules_get(RULES_DEFAULT);
	char desc[320];

	/* -c: CERT's key and whether it vouches, as verify-file says */
	if (r->cert_path && mod)
		cert_check_chain(r->cert_path, kr, mod, len, d, desc,
			      sizeof(desc));
	waiver_describe(kr, d);
	if (r->view == MS_DESCRIBE_PRINT_JSON) {
		json_object *o = rp_sigdesc_json(d, file);

		fprintf(out, "%s\n",
			json_object_to_json_string_ext(o, RP_SIGNER_FACTS_JSON_FLAGS));
		json_object_put(o);
	} else if (r->view == MS_DESCRIBE_PRINT_TEXT) {
		rp_sigdesc_print(out, d, file);
	}
}

/* A file not described: with JSON verify-file's ERROR object, so that
 * every input has its object. */
static void sink_failed(void *ctx, FILE *out, const char *file, int err,
			const char *why)
{
	const struct ms_describe_print *r = ctx;

	if (r->view == MS_DESCRIBE_PRINT_JSON)
		rp_verdict_error_json(out, file, err, why);
}

struct ms_describe_sink ms_describe_print_sink(const struct ms_describe_print *r)
{
	struct ms_describe_sink s = {
		.show = sink_show,
		.failed = sink_failed,
		/* descriptions of many files: a blank line between them */
		.between = r->view == MS_DESCRIBE_PRINT_TEXT ? "\n" : NULL,
		.ctx = (void *)r,
	};

	return s;
}

void ms_describe_print_summary(FILE *out, const struct ms_describe_tally *t,
			       int exit_code, bool json)
{
	const struct rp_summary_count c[] = {
		{ "signed", "signed", t->signed_, false },
		{ "unsigned", "unsigned", t->unsigned_, false },
		{ "malformed", "malformed", t->malformed, false },
		{ "unreadable", "unreadable", t->errors, false },
	};

	rp_summary_print(out, t->files, c, 4, exit_code, json);
}
