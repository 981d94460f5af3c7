// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --digest-only: what a remote signer must sign (<module>.digest and
 * <module>.tbs), from the body as signing would read it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "base/outfile.h"
#include "module/module_file.h"
#include "sign-file/cms.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

static int write_aside(const char *module, const char *ext,
		       const uint8_t *buf, size_t len, struct outfile *o,
		       char **path, struct ms_signer_failure *fail)
{
	int err;

	if (asprintf(path, "%s.%s", module, ext) < 0) {
		*path = NULL;
		return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, module, NULL, -ENOMEM);
	}
	err = outfile_begin(*path, outfile_mode(*path), o);
	if (!err)
		err = outfile_write(o, buf, len);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, *path, NULL, err);
	return 0;
}

int ms_signer_digest_file(const struct ms_signer *s, const struct ms_signer_req *r,
			  uint8_t *digest, unsigned int *digest_len, int *skipped,
			  struct ms_signer_failure *fail)
{
	struct outfile dout = { .fd = -1 }, tout = { .fd = -1 };
	char *dpath = NULL, *tpath = NULL;
	uint8_t *tbs = NULL;
	size_t body_len, tbs_len;
	struct module_file in;
	const char *why;
	int err;

	memset(fail, 0, sizeof(*fail));
	*skipped = 0;
	/*
	 * The digest of what the kernel checks, exactly as signing reads
	 * it: for a .ko.xz/.gz/.zst the decompressed module, so that the
	 * signature made remotely over it is the one --attach then puts
	 * inside the compression (digesting the compressed bytes gave a
	 * signature no kernel and no --attach could ever accept).
	 */
	err = module_file_open(r->module, &in, &why);
	if (err)
		return ms_signer_fail(fail, why ? MS_SIGNER_STAGE_DECOMPRESS :
						  MS_SIGNER_STAGE_INPUT,
				      r->module, why, err);
	err = ms_signer_policy_check(s, r, &in, &body_len, skipped, fail);
	if (err || *skipped)
		goto done;
	err = ms_cms_digest_info(s->md, in.data, body_len, digest, digest_len,
				 &tbs, &tbs_len);
	if (infile_check(&in.file)) {
		err = ms_signer_fail(fail, MS_SIGNER_STAGE_INPUT, r->module, NULL,
				     INFILE_ECHANGED);
		goto done;
	}
	if (err) {
		ms_signer_fail(fail, MS_SIGNER_STAGE_SIGN, r->module, "cannot digest", err);
		goto done;
	}
	err = write_aside(r->module, "digest", digest, *digest_len, &dout,
			  &dpath, fail);
	if (!err)
		err = write_aside(r->module, "tbs", tbs, tbs_len, &tout, &tpath,
				  fail);
	if (!err) {
		err = outfile_commit(&dout);
		if (err)
			ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, dpath, NULL, err);
	}
	if (!err) {
		err = outfile_commit(&tout);
		if (err)
			ms_signer_fail(fail, MS_SIGNER_STAGE_OUTPUT, tpath, NULL, err);
	}
done:
	outfile_abort(&dout);
	outfile_abort(&tout);
	free(dpath);
	free(tpath);
	free(tbs);
	module_file_close(&in);
	return err;
}
