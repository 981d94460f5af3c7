/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building module signatures: CMS SignedData exactly as the kernel's
 * sign-file makes it (kernel-rules.md §2.3), and checking a CMS made
 * elsewhere before it is appended.
 */
#ifndef MODSIGN_CMS_H
#define MODSIGN_CMS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/* The digest named on the command line: any name OpenSSL knows, as the
 * kernel's sign-file (EVP_get_digestbyname).  NULL when unknown. */
const EVP_MD *ms_digest_by_name(const char *name);

/*
 * Sign data: detached SignedData, no certificates, no signed attributes,
 * signer identified by issuer+serial (or by SKID when use_keyid).  The
 * DER goes to a malloc'd *der.  -ENOPKG when OpenSSL has no CMS signature
 * algorithm for this key type and digest; -EINVAL when it refuses for
 * another reason (for example -k with a certificate without SKID).
 */
int ms_cms_sign(X509 *cert, EVP_PKEY *key, const EVP_MD *md, int use_keyid,
		const uint8_t *data, size_t len, uint8_t **der,
		size_t *der_len);

/*
 * Check a CMS made elsewhere (sign-file -s) before it is appended:
 *  -EBADMSG  not DER CMS at all;
 *  -EINVAL   not a detached SignedData with at least one signer;
 *  -ENOKEY   no SignerInfo names cert (issuer+serial or SKID);
 *  -EKEYREJECTED  the signer's signature does not cover data.
 * *reason gets a static explanation.
 */
int ms_cms_check_attachable(const uint8_t *der, size_t der_len, X509 *cert,
			    const uint8_t *data, size_t len,
			    const char **reason);

#endif
