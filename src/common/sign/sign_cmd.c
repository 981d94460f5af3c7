// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "base/log.h"
#include "sign/sign_cmd.h"

int ms_cmd_add_signers(const struct ms_sign_cmd *c, struct ms_signer *s,
		       int with_words, const char **names,
		       struct ms_fail *fail)
{
	int err = 0;

	if (with_words) {
		names[s->n] = c->words[1];
		err = ms_signer_add(s, c->words[1], c->words[2], &c->kopts,
				    fail);
	}
	for (int i = 0; !err && i < c->nextra; i++) {
		names[s->n] = c->extra_keys[i];
		err = ms_signer_add(s, c->extra_keys[i], c->extra_certs[i],
				    &c->kopts, fail);
	}
	return err;
}

int ms_cmd_load(const struct ms_sign_cmd *c, int npos, struct ms_signer *s,
		const char *hash, const char *cert, const char **names,
		struct ms_fail *fail)
{
	int err;

	switch (c->verb) {
	case MS_VERB_RAW:
		/* In -s mode the key slot holds the raw CMS. */
		return ms_signer_load_raw(s, c->words[0], c->words[2], fail);
	case MS_VERB_ATTACH:
		names[0] = cert;
		return ms_signer_load_attach(s, hash, c->rawsig, cert, c->keyid,
					     &c->kopts, fail);
	case MS_VERB_DIGEST:
		return ms_signer_init(s, hash, 0, fail);
	case MS_VERB_SIGN:
	default:
		err = ms_signer_init(s, hash, c->keyid, fail);
		return err ? err : ms_cmd_add_signers(c, s, npos == 4, names,
						      fail);
	}
}

void ms_cmd_inputs(const struct ms_sign_cmd *c, const char *key,
		   const char *cert, struct ms_input_set *in)
{
	ms_inputs_add(in, key, c->verb == MS_VERB_RAW ? "the raw CMS"
						      : "the key");
	ms_inputs_add(in, cert, "the certificate");
	ms_inputs_add(in, c->rawsig, "the signature to attach");
	for (int i = 0; i < c->nextra; i++) {
		ms_inputs_add(in, c->extra_keys[i], "a --signer key");
		ms_inputs_add(in, c->extra_certs[i], "a --signer certificate");
	}
	ms_inputs_add(in, c->pin_file, "the PIN file");
	ms_inputs_add(in, c->kcpath, "the kernel config");
	ms_inputs_add(in, c->batch.from, "the --files-from list");
}

int ms_cmd_kmodsign_check(const struct ms_sign_req *req)
{
	if (!req->trailer_only)
		return 0;
	if (req->p7s_only) {
		ms_error(NULL, "-d and -D exclude each other");
		return -EINVAL;
	}
	if (!req->dest) {
		ms_error(NULL, "-D writes the signature block to <dest>: give "
			 "a <dest> other than <module>");
		return -EINVAL;
	}
	return 0;
}
