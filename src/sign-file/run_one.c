// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "base/outfile.h"
#include "sign-file/agent_client.h"
#include "sign-file/agent_wire.h"
#include "sign-file/outputs.h"
#include "sign-file/pin.h"
#include "sign-file/sign_cmd.h"
#include "sign-file/sign_kconfig.h"
#include "sign-file/sign_report.h"
#include "sign-file/sign_warn.h"

/* A run under a signing agent, with the options the agent may take
 * (-p, -q, --replace...) or none, hands its module over before loading
 * a key: 1 with *code when the agent did it.  The front end hands the
 * option-free line over before this program runs (sign-file/front.h); it
 * comes here when there is no front end (STATIC_LIBCRYPTO=1) or the
 * tool proper is run by its own path. */
static int try_agent(const struct ms_cmd *c, int *code)
{
	const char *sock = getenv(MS_AGENT_ENV);
	const struct ms_signer_req *r = &c->req;
	struct ms_agent_job j = {
		.provider = c->kopts.provider, .p11module = c->kopts.p11_module,
	};

	if (!sock || c->verb != MS_SIGN_WORDS_SIGN || c->nextra || c->kmod ||
	    c->verbose || c->req.kernel || c->kcpath || !c->pos.key)
		return 0;
	ms_front_job_words(&j, &c->pos);
	j.flags = (c->keyid ? MS_AGENT_F_KEYID : 0) |
		  (r->save_p7s ? MS_AGENT_F_SAVE_P7S : 0) |
		  (r->p7s_only ? MS_AGENT_F_P7S_ONLY : 0) |
		  (r->firmware ? MS_AGENT_F_FIRMWARE : 0) |
		  (c->quiet ? MS_AGENT_F_QUIET : 0) |
		  (r->signed_policy == MS_SIGNER_SIGNED_REPLACE ? MS_AGENT_F_REPLACE :
		   r->signed_policy == MS_SIGNER_SIGNED_SKIP ? MS_AGENT_F_SKIP : 0);
	return ms_agent_delegate(sock, &j, code);
}

/*
 * Where the module and <dest> are, checked against kmodsign's -D and
 * every output against the run's inputs before anything is loaded: 0 or
 * an exit code.
 */
static int set_targets(struct ms_cmd *c, const char *cert)
{
	struct ms_signer_req *req = &c->req;
	struct samefile_inputs in = { 0 };
	struct ms_signer_failure fail;

	req->module = c->pos.module;
	req->overlap = 1;
	/* <dest> that is <module> by any name: in place */
	if (c->pos.dest && (req->trailer_only ||
	    !samefile_same(c->pos.module, c->pos.dest)) &&
	    strcmp(c->pos.module, c->pos.dest) != 0)
		req->dest = c->pos.dest;
	if (ms_cmd_kmodsign_check(req))
		return EXITCODE_USAGE;
	ms_cmd_inputs(c, c->pos.raw ? c->pos.raw : c->pos.key,
		      c->verb == MS_SIGN_WORDS_DIGEST ? NULL : cert, &in);
	if (ms_sign_outputs_check(req, c->verb == MS_SIGN_WORDS_DIGEST, &in, &fail))
		return ms_sign_report(&fail, -EEXIST);
	return 0;
}

/* --digest-only: write <module>.digest and .tbs, and keep the digest's
 * name and value in hex for the tool's line. */
static int write_digest(const struct ms_signer *s, const char *hash,
		  const struct ms_signer_req *req, struct ms_cmd_one_done *done,
		  struct ms_signer_failure *fail)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int err;

	err = ms_signer_digest_file(s, req, md, &dlen, &done->skipped, fail);
	if (err || done->skipped)
		return err;
	done->hash = strdup(hash);
	done->digest_hex = format_hex(md, dlen);
	if (!done->hash || !done->digest_hex) {
		free(done->hash);
		free(done->digest_hex);
		done->hash = done->digest_hex = NULL;
		fail->stage = MS_SIGNER_STAGE_OUTPUT;
		snprintf(fail->path, sizeof(fail->path), "%s", req->module);
		return -ENOMEM;
	}
	return 0;
}

/* What the kernel the result is for would say about the key and the
 * hash: said before anything is signed. */
static void warn(const struct ms_cmd *c, const struct ms_signer *s,
		 const char *hash, const struct kernel_config *kc,
		 const char *const *names)
{
	ms_sign_warn_algorithms(s, hash, c->req.kernel, c->kcpath ? kc : NULL,
				c->kcpath, names);
	ms_sign_warn_mldsa(s, c->req.kernel, names);
	if (c->kcpath)
		ms_sign_warn_kconfig(kc, c->kcpath, s, hash);
}

int ms_run_one(struct ms_cmd *c, struct ms_cmd_one_done *done)
{
	const char *names[MS_SIGNER_MAX] = { 0 };
	struct kernel_config kc = { 0 };
	struct ms_signer signer;
	struct ms_signer_failure fail;
	const char *hash, *cert;
	int err, code;

	memset(done, 0, sizeof(*done));
	memset(&signer, 0, sizeof(signer));
	if (try_agent(c, &code)) {
		done->by_agent = 1;
		return code;
	}
	log_set_verbose(c->verbose);
	openssl_init(c->verbose);
	outfile_cleanup_on_signals();

	hash = c->pos.hash;
	if (c->kcpath) {
		code = ms_sign_kconfig_load(c->kcpath, &kc, c->req.kernel,
					    &hash);
		if (code)
			return code;
		c->req.kernel = &kc.rules;
	}
	cert = c->pos.cert;
	code = set_targets(c, cert);
	if (code) {
		kernel_config_free(&kc);
		return code;
	}

	err = ms_cmd_load(c, &signer, hash, cert, names, &fail);
	if (!err && c->verb != MS_SIGN_WORDS_RAW)
		warn(c, &signer, hash, &kc, names);
	if (!err)
		err = c->verb == MS_SIGN_WORDS_DIGEST
			? write_digest(&signer, hash, &c->req, done, &fail)
			: ms_signer_sign_file(&signer, &c->req, &done->skipped, &fail);
	ms_signer_free(&signer);
	ms_pin_clear();
	kernel_config_free(&kc);
	return err ? ms_sign_report(&fail, err) : EXITCODE_OK;
}
