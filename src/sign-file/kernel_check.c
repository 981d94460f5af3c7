// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <openssl/x509.h>

#include "kernel/keyring.h"
#include "kernel/verify.h"
#include "sign-file/cms.h"
#include "sign-file/kernel_check.h"

int ms_kernel_check_cms(const struct rules_rules *kr, X509 *const *certs,
			int n, const uint8_t *data, size_t len,
			const uint8_t *cms, size_t cms_len,
			struct ms_kernel_check_verdict *v)
{
	struct keyring ring = { 0 };
	struct verify_result res = { 0 };
	struct verify_ctx kv = { .kr = kr, .trusted = &ring };
	int err = 0;

	memset(v, 0, sizeof(*v));
	/* The keyring as x509_load_certificate_list() would fill it from
	 * these certificates: one the kernel refuses as a key is the
	 * answer itself (every signature by it would be -ENOKEY). */
	for (int i = 0; !err && i < n; i++) {
		unsigned char *der = NULL;
		int der_len = i2d_X509(certs[i], &der);

		err = der_len > 0 ? keyring_add_der(&ring, "certificate", i + 1, der,
					       (size_t)der_len, kr, NULL)
				  : -ENOMEM;
		OPENSSL_free(der);
	}
	if (err)
		goto out;
	if (ring.n_skipped) {
		v->err = ring.skipped[0].err;
		v->why = ring.skipped[0].why;
		v->cert_refused = 1;
	} else {
		v->err = verify_pkcs7(&kv, data, len, cms, cms_len,
					 VERIFY_USAGE_MODULE, &res);
		v->why = res.reason;
		verify_result_free(&res);
		if (v->err == -ENOMEM)
			err = -ENOMEM;
	}
out:
	keyring_free(&ring);
	return err ? err : v->err;
}

const char *ms_kernel_check_mldsa_note(const struct rules_rules *kr, EVP_PKEY *key)
{
	if (!ms_cms_signed_attrs(key) || (kr && kr->from_config))
		return NULL;
	/* pkcs7_verify(): VERIFYING_MODULE_SIGNATURE rejects authattrs
	 * unless CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA (v7.0) */
	return "this OpenSSL signs ML-DSA with signed attributes, which a "
	       "kernel accepts on modules only when built with "
	       "CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y (give "
	       "--kernel-config to check)";
}
