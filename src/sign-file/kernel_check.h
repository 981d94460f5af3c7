/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the target kernel would say about a signature sign-file is about
 * to write, asked of the same kernel model verify-file judges with
 * (kernel/verify.h), before anything is written.
 */
#ifndef MODSIGN_SIGN_FILE_KERNEL_CHECK_H
#define MODSIGN_SIGN_FILE_KERNEL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

struct rules_rules;

struct ms_kernel_check_verdict {
	int err;		/* 0 or the kernel's -errno */
	const char *why;	/* static; NULL when accepted */
	int cert_refused;	/* the kernel would not load the certificate
				 * as a key: err and why are about it */
};

/*
 * The kernel's verdict on a module whose body is data and whose appended
 * signature is the CMS cms (sign-file -s, --attach, split signing), as
 * verify_pkcs7_signature() with VERIFYING_MODULE_SIGNATURE gives it on
 * the line (or .config) kr, with certs (n of them: the signer's, or
 * each signer's) as the only trusted keys.  v->err
 * is 0 when that kernel loads the module; else its -errno with its
 * reason: -EKEYREJECTED for signed attributes or S/MIME capabilities
 * ("openssl cms -sign" without -noattr -nosmimecap), a signature that
 * does not cover data or a key its crypto refuses; -ENOKEY when no
 * SignerInfo names a certificate; -ENOPKG for crypto the line lacks;
 * -EBADMSG,
 * -EINVAL or -EMSGSIZE for what its parser refuses.  Returns v->err, or
 * -ENOMEM with no verdict.
 */
int ms_kernel_check_cms(const struct rules_rules *kr, X509 *const *certs,
			int n, const uint8_t *data, size_t len,
			const uint8_t *cms, size_t cms_len,
			struct ms_kernel_check_verdict *v);

/*
 * sign-file's warning for a signer key when the kernel's .config is not
 * known (kr NULL, or a line rather than a .config): ML-DSA signatures made
 * with OpenSSL before 4.0 carry signed attributes, which a kernel accepts
 * on modules only when built with the waiver.  NULL when there is nothing
 * to say.
 */
const char *ms_kernel_check_mldsa_note(const struct rules_rules *kr, EVP_PKEY *key);

#endif
