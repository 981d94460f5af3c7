// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include <openssl/x509.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/log.h"
#include "kernel/kernel_config.h"
#include "kernel/public_key.h"
#include "kernel/rules.h"
#include "sign-file/kernel_check.h"
#include "sign-file/pkcs11/load.h"
#include "sign-file/sign_warn.h"

/*
 * What the kernel would say of a signer's key: of its certificate's
 * SubjectPublicKeyInfo, as read (the key matches it, sign-file/signer.h, and
 * it is what the kernel will hold), so that no OSSL_ENCODER is needed:
 * its first use constructs every encoder of the provider, a large share
 * of a single run's work (bench/NOTES, "No OSSL_ENCODER").
 */
static int check_key(const struct rules_rules *kr, X509 *cert, EVP_PKEY *key,
		     const char **why)
{
	unsigned char *der = NULL;
	int len = cert ? i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &der)
		       : -1;
	int err;

	if (len <= 0)
		return pk_check_pkey(kr, key, why);
	err = pk_check_spki(kr, der, (size_t)len, why);
	OPENSSL_free(der);
	return err;
}

/* Warnings before anything is signed: the key types and digest the
 * kernel (the line of --kernel, or the kernel of --kernel-config) would
 * reject, from the table verify-file judges with, in its words.  kcfg
 * names the .config the line was taken from, NULL for --kernel. */
void ms_sign_warn_algorithms(const struct ms_signer *s, const char *hash,
			     const struct rules_rules *kr,
			     const struct kernel_config *kcfg, const char *kcpath,
			     const char *const *names)
{
	const char *why, *advice;
	char who[256];
	int err;

	if (kr && kcfg)
		/* said by what was given: the .config, not a --kernel the
		 * user never typed */
		snprintf(who, sizeof(who), "the kernel of %s (%s)",
			 kcpath, kcfg->version[0] ? kcfg->version : kr->name);
	else
		snprintf(who, sizeof(who), kr ? "kernel %s" :
			 "every kernel line", kr ? rules_label(kr) : "");
	err = rules_digest_check(kr, s->md, &why, &advice);
	if (advice)
		log_warn(hash, "%s", advice);
	if (err)
		log_warn(hash, "%s rejects it (-%s): %s", who,
			exitcode_errno_name(err), why);
	for (int k = 0; k < s->n || (k == 0 && s->certs[0]); k++) {
		EVP_PKEY *key = k < s->n ? s->keys[k]
					 : X509_get0_pubkey(s->certs[0]);
		char desc[64];

		if (!key)
			continue;
		format_pkey(key, desc, sizeof(desc));
		err = check_key(kr, s->certs[k < s->n ? k : 0], key, &why);
		if (err)
			log_warn(names[k], "%s key: %s rejects it (-%s): %s",
				desc, who, exitcode_errno_name(err), why);
		if (k < s->n)
			log_info("signer %d: %s key from %s (%s)", k + 1, desc,
				names[k], ms_p11_load_via(s->toks[k]));
	}
}

void ms_sign_warn_mldsa(const struct ms_signer *s, const struct rules_rules *kr,
			const char *const *names)
{
	for (int k = 0; k < s->n; k++) {
		const char *w = ms_kernel_check_mldsa_note(kr, s->keys[k]);

		if (w)
			log_warn(names[k], "%s", w);
	}
}

void ms_sign_warn_kconfig(const struct kernel_config *kc, const char *path,
			  const struct ms_signer *s, const char *hash)
{
	char w[KERNEL_CONFIG_MAX_WARN][200];
	int n, i, k;

	n = kernel_config_digest_warnings(kc, hash, w);
	for (i = 0; i < n; i++)
		log_warn(path, "%s: %s", hash, w[i]);
	for (k = 0; k < s->n || (k == 0 && s->certs[0]); k++) {
		EVP_PKEY *key = k < s->n ? s->keys[k]
					 : X509_get0_pubkey(s->certs[0]);

		n = key ? kernel_config_key_warnings(kc, key, w) : 0;
		for (i = 0; i < n; i++)
			log_warn(path, "signing key: %s", w[i]);
	}
}
