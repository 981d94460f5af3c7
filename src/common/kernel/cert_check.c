// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "kernel/cert_check.h"
#include "kernel/keyring.h"
#include "kernel/verify.h"
#include "kernel/x509.h"

int cert_check_chain(const char *cert_path, const struct rules_rules *kr,
		  const uint8_t *buf, size_t len, struct sig_describe *d,
		  char *desc, size_t size)
{
	struct keyring cs = { 0 };
	struct verify_ctx kv = { .kr = kr, .trusted = &cs };
	struct verify_result r;
	int err;

	err = keyring_add_file(&cs, cert_path, kr, NULL);
	if (!err && !cs.n)
		err = -ENOKEY;
	if (err) {
		keyring_free(&cs);
		return err;
	}
	x509k_describe(cs.certs[0], desc, size);
	verify_module(&kv, buf, len, VERIFY_USAGE_MODULE, &r);
	d->cert_judged = 1;
	d->cert_description = desc;
	for (int i = 0; i < SIG_DESCRIBE_MAX_SIGNERS; i++)
		d->cert_trusted[i] = 0;
	/* a signer is vouched for when CERT's key took its signature */
	for (size_t i = 0; r.err == 0 && r.msg && i < r.msg->n_sinfos &&
	     i < SIG_DESCRIBE_MAX_SIGNERS; i++)
		d->cert_trusted[i] = r.msg->sinfos[i].trusted_by != NULL;
	verify_result_free(&r);
	keyring_free(&cs);
	return 0;
}
