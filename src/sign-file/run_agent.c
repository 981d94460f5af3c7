// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "base/workpool.h"
#include "sign-file/agent_client.h"
#include "sign-file/agent_server.h"
#include "sign-file/agent_wire.h"
#include "sign-file/pin.h"
#include "sign-file/sign_cmd.h"
#include "sign-file/sign_report.h"
#include "sign-file/sign_warn.h"

int ms_run_agent_stop(void)
{
	const char *sock = getenv(MS_AGENT_ENV);
	int err = ms_agent_stop(sock);

	if (err)
		log_error(sock ? sock : MS_AGENT_ENV, "no signing agent "
			 "answers there: %s", strerror(-err));
	return err ? EXITCODE_IO : 0;
}

/* What a run of its own prints first (the key's and the hash's
 * warnings), shown here once and kept for the clients that would: NULL
 * when it could not be captured. */
static char *agent_preamble(const struct ms_signer *signer, const char *hash,
			    const char *const *names)
{
	char *pre = NULL;
	size_t plen = 0;
	FILE *cap;

	cap = open_memstream(&pre, &plen);
	log_capture(cap);
	ms_sign_warn_algorithms(signer, hash, NULL, NULL, NULL, names);
	ms_sign_warn_mldsa(signer, NULL, names);
	log_capture(NULL);
	if (cap && !fclose(cap))
		fputs(pre, stderr);
	return pre;
}

int ms_run_agent(struct ms_cmd *c, int detached)
{
	const char *names[MS_SIGNER_MAX] = { 0 };
	struct ms_agent_conf conf = { .keyid = c->keyid,
				      .provider = c->kopts.provider,
				      .p11module = c->kopts.p11_module };
	struct ms_signer signer;
	struct ms_signer_failure fail;
	char *pre = NULL;
	int err, code = 0, ready = -1;

	ms_sign_words_decode(c->verb, 3, c->words, c->nwords, &c->pos);
	/* Forked before anything is loaded: a token session does not
	 * survive fork(). */
	if (detached && ms_agent_detach(&ready, &code))
		return code;
	openssl_init(c->verbose);
	memset(&signer, 0, sizeof(signer));
	err = ms_signer_init(&signer, c->pos.hash, c->keyid, &fail);
	if (!err)
		err = ms_cmd_add_signers(c, &signer, 1, names, &fail);
	if (err) {
		code = ms_sign_report(&fail, err);
		goto out;
	}
	pre = agent_preamble(&signer, c->pos.hash, names);
	conf.signer = &signer;
	conf.hash = c->pos.hash;
	conf.key = c->pos.key;
	conf.cert = c->pos.cert;
	conf.preamble = pre;
	conf.jobs = c->batch.jobs ? c->batch.jobs : workpool_default_workers();
	code = ms_agent_serve(&conf, c->ncmd ? c->pos.rest : NULL, ready);
	if (code < 0) {
		log_error(NULL, "cannot start the signing agent: %s",
			 strerror(-code));
		code = EXITCODE_IO;
	}
out:
	ms_signer_free(&signer);
	ms_pin_clear();
	free(pre);
	return code;
}
