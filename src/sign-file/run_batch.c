// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "base/outfile.h"
#include "base/treewalk.h"
#include "base/workpool.h"
#include "sign-file/batch_sign.h"
#include "sign-file/outputs.h"
#include "sign-file/pin.h"
#include "sign-file/sign_cmd.h"
#include "sign-file/sign_kconfig.h"
#include "sign-file/sign_report.h"
#include "sign-file/sign_warn.h"

/* The modules named on the line, --files-from and -r (base/treewalk.h):
 * exit code or 0. */
static int batch_list(const struct ms_cmd *c, struct batch_run_list *list)
{
	const struct treewalk_inputs in = {
		.names = c->pos.rest, .n = c->pos.nrest,
		.from = c->batch.from, .nul = c->batch.nul,
		.walk = c->batch.walk,
	};

	return treewalk_collect(&in, list);
}

/* Every output of the list checked against the run's inputs before
 * anything is loaded: 0, or the exit code of the first clash. */
static int check_outputs(struct ms_cmd *c, const struct batch_run_list *list)
{
	struct samefile_inputs in = { 0 };
	struct ms_signer_failure fail;

	ms_cmd_inputs(c, c->pos.key, c->pos.cert, &in);
	for (size_t i = 0; i < list->n; i++) {
		c->req.module = list->v[i];
		if (ms_sign_outputs_check(&c->req, 0, &in, &fail))
			return ms_sign_report(&fail, -EEXIST);
	}
	return 0;
}

/* One key load, one PIN read, one token login for the whole run; the
 * warnings a run of one file gives, once. */
static int load_signer(struct ms_cmd *c, struct ms_signer *signer,
		       const char *hash, const struct kernel_config *kc)
{
	const char *names[MS_SIGNER_MAX] = { 0 };
	struct ms_signer_failure fail;
	int err;

	err = ms_signer_init(signer, hash, c->keyid, &fail);
	if (!err)
		err = ms_cmd_add_signers(c, signer, !c->nextra, names, &fail);
	if (err)
		return ms_sign_report(&fail, err);
	ms_sign_warn_algorithms(signer, hash, c->req.kernel,
				c->kcpath ? kc : NULL, c->kcpath, names);
	if (c->kcpath)
		ms_sign_warn_kconfig(kc, c->kcpath, signer, hash);
	c->req.cert_path = c->nextra ? c->extra_certs[0] : c->pos.cert;
	ms_sign_warn_mldsa(signer, c->req.kernel, names);
	return 0;
}

int ms_run_batch(struct ms_cmd *c, const struct ms_outcome_view *view,
		 struct ms_outcome_tally *tally)
{
	const char *hash = c->pos.hash;
	struct batch_run_list list = { 0 };
	struct kernel_config kc = { 0 };
	struct ms_signer signer;
	int code, listed;

	memset(&signer, 0, sizeof(signer));
	/* skipped subdirectories: sign what was found, fail the run */
	code = listed = batch_list(c, &list);
	if (!list.n)
		goto out;
	code = check_outputs(c, &list);
	if (code)
		goto out;
	log_set_verbose(c->verbose);
	openssl_init(c->verbose);
	outfile_cleanup_on_signals();
	/* --kernel-config as for one file: its line, its warnings, and
	 * "-" as the hash (it was ignored here). */
	if (c->kcpath) {
		code = ms_sign_kconfig_load(c->kcpath, &kc, c->req.kernel,
					    &hash);
		if (code)
			goto out;
		c->req.kernel = &kc.rules;
	}
	code = load_signer(c, &signer, hash, &kc);
	if (code)
		goto out;
	code = exitcode_worst(listed, ms_batch_sign_run(&signer, &c->req, &list,
			     c->batch.jobs ? c->batch.jobs :
			     workpool_default_workers(), view, tally));
out:
	ms_signer_free(&signer);
	ms_pin_clear();
	batch_run_list_free(&list);
	kernel_config_free(&kc);
	return code;
}
