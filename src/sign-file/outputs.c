// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sign-file/outputs.h"

static int clobber(struct ms_signer_failure *fail, const char *out, const char *path,
		   const char *role)
{
	fail->stage = MS_SIGNER_STAGE_CLOBBER;
	snprintf(fail->path, sizeof(fail->path), "%s", out);
	samefile_clobber_text(fail->text, sizeof(fail->text), out, path, role);
	fail->reason = fail->text;
	return -EEXIST;
}

int ms_sign_outputs_check(const struct ms_signer_req *r, int digest,
			  const struct samefile_inputs *inputs,
			  struct ms_signer_failure *fail)
{
	static const char *const ext[] = { ".p7s", ".digest", ".tbs" };
	struct samefile_inputs all = *inputs;
	const char *path, *role;
	char out[4096];
	int first, last;

	memset(fail, 0, sizeof(*fail));
	/* In place the module is an output, replaced on purpose. */
	if (!r->dest && !r->p7s_only && !digest &&
	    samefile_inputs_check_output(inputs, r->module, &path, &role))
		return clobber(fail, r->module, path, role);
	samefile_inputs_add(&all, r->module, "the module");
	if (r->dest && !r->p7s_only && !digest &&
	    samefile_inputs_check_output(&all, r->dest, &path, &role))
		return clobber(fail, r->dest, path, role);
	/* the files written beside the module, by name */
	first = digest ? 1 : 0;
	last = digest ? 2 : (r->save_p7s || r->p7s_only) ? 0 : -1;
	for (int i = first; i <= last; i++) {
		snprintf(out, sizeof(out), "%s%s", r->module, ext[i]);
		if (samefile_inputs_check_output(&all, out, &path, &role))
			return clobber(fail, out, path, role);
	}
	return 0;
}
