// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include <json-c/json.h>

#include "base/exitcode.h"
#include "base/json_name.h"
#include "base/quote.h"
#include "report/sigdesc.h"
#include "report/signer_facts.h"
#include "report/summary.h"
#include "sign-file/sign_result.h"

static void print_json(FILE *out, const struct ms_outcome *o)
{
	static const char *const verdict[] = {
		[MS_OUTCOME_SIGNED] = "SIGNED", [MS_OUTCOME_SKIPPED] = "SKIPPED",
		[MS_OUTCOME_FAILED] = "ERROR",
	};
	json_object *j = json_object_new_object();

	json_name_add(j, "file", o->file);
	json_object_object_add(j, "verdict",
			       json_object_new_string(verdict[o->verdict]));
	if (o->verdict == MS_OUTCOME_FAILED) {
		json_object_object_add(j, "errno", json_object_new_string(
					       exitcode_errno_name(o->err)));
		/* it may name other files (the key, a <dest>) */
		json_name_add(j, "reason", o->reason);
		json_object_object_add(j, "exit", json_object_new_int(o->code));
	} else {
		json_object_object_add(j, "signers", o->made &&
				       o->made->cms_ok ?
				       rp_sigdesc_signers_json(o->made) : NULL);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, RP_SIGNER_FACTS_JSON_FLAGS));
	json_object_put(j);
}

static void print_text(FILE *out, const struct ms_outcome *o,
		       const char *file)
{
	if (o->verdict == MS_OUTCOME_FAILED && o->code == EXITCODE_SIGNED)
		/* counted as already signed, not as failed */
		fprintf(out, "%s: already signed, refused (exit %d)\n", file,
			o->code);
	else if (o->verdict == MS_OUTCOME_FAILED)
		fprintf(out, "%s: FAILED (exit %d)\n", file, o->code);
	else if (o->verdict == MS_OUTCOME_SKIPPED)
		fprintf(out, "%s: already signed, left unchanged\n", file);
	else
		fprintf(out, "%s: signed\n", file);
}

void ms_sign_result_outcome(FILE *out, const struct ms_outcome *o,
			    bool json)
{
	char *quoted;

	if (json) {
		print_json(out, o);
		return;
	}
	/* the name quoted as ls quotes it */
	quoted = quote_name(o->file);
	print_text(out, o, quoted ? quoted : o->file);
	free(quoted);
}

static void outcome_text(FILE *out, const struct ms_outcome *o)
{
	ms_sign_result_outcome(out, o, false);
}

static void outcome_json(FILE *out, const struct ms_outcome *o)
{
	ms_sign_result_outcome(out, o, true);
}

struct ms_outcome_view ms_sign_result_view(bool json, bool quiet)
{
	struct ms_outcome_view v = {
		/* JSON has an object for every file, quiet or not */
		.quiet = quiet && !json,
		.file = json ? outcome_json : outcome_text,
	};

	return v;
}

void ms_sign_result_summary(FILE *out, const struct ms_outcome_tally *t,
			    bool json, bool quiet)
{
	const struct rp_summary_count c[] = {
		{ "signed", "signed", t->signed_, false },
		{ "already signed", "already_signed", t->skipped, false },
		{ "failed", "failed", t->failed, false },
	};

	if (json || !quiet)
		rp_summary_print(out, t->files, c, 3, t->code, json);
	fflush(out);
}
