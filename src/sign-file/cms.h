/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building module signatures: CMS SignedData exactly as the kernel's
 * sign-file makes it (scripts/sign-file.c).
 */
#ifndef MODSIGN_SIGN_FILE_CMS_H
#define MODSIGN_SIGN_FILE_CMS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/*
 * The SignerInfo for key gets signed attributes: an ML-DSA key while
 * OpenSSL is older than 4.0, as in the 7.3 kernel's sign-file.
 */
int ms_cms_signed_attrs(EVP_PKEY *key);

/*
 * Sign a digest: detached SignedData, no certificates, no signed
 * attributes (but for ms_cms_signed_attrs keys: contentType and
 * messageDigest), signers identified by issuer+serial (or by SKID when
 * use_keyid).  One SignerInfo per key/certificate pair, in order: with
 * n == 1 the bytes are the kernel tool's; with more, a kernel trusting
 * any one of the certificates accepts the module (key rollover).  The
 * digest (EVP_MAX_MD_SIZE bytes) comes from digest_bytes (base/digest.h),
 * so that a caller signing with a token under a lock hashes outside it.
 * The DER goes to a malloc'd *der.  -ENOPKG when OpenSSL has no CMS
 * signature algorithm for a key type and the digest; -EINVAL when it
 * refuses for another reason (for example -k with a certificate that
 * has no subjectKeyIdentifier); *failed_signer then says which pair.
 */
int ms_cms_sign_digest(X509 *const *certs, EVP_PKEY *const *keys, int n,
		       const EVP_MD *md, int use_keyid, const uint8_t *digest,
		       unsigned int digest_len, uint8_t **der,
		       size_t *der_len, int *failed_signer);

/*
 * The same SignedData for many digests with one signer set (batch mode):
 * the structure is encoded once with placeholders, and each signature
 * is copied into a copy of it.  -ENOTSUP when a signature's length is
 * not fixed (anything but RSA) or for more than 8 signers: use
 * ms_cms_sign_digest.  The template keeps the pointers it is given;
 * they must outlive it.
 */
struct ms_cms_template;
int ms_cms_template_new(X509 *const *certs, EVP_PKEY *const *keys, int n,
			const EVP_MD *md, int use_keyid,
			struct ms_cms_template **t);
int ms_cms_sign_template(const struct ms_cms_template *t,
			 const uint8_t *digest, unsigned int digest_len,
			 uint8_t **der, size_t *der_len, int *failed_signer);
void ms_cms_template_free(struct ms_cms_template *t);

/*
 * The template's SignedData with sig, an RSA value made elsewhere for its
 * only signer (a token signing directly: sign-file/pkcs11/direct.h), in place
 * of the placeholder: the bytes ms_cms_sign_template would give.  -EINVAL
 * when the template has more than one signer or sig is not its length.
 */
int ms_cms_template_with_value(const struct ms_cms_template *t,
			       const uint8_t *sig, size_t sig_len,
			       uint8_t **der, size_t *der_len);

/*
 * The digest of data and the DigestInfo DER that an RSA PKCS#1 v1.5
 * signer pads and signs (RFC 8017 9.2): what a remote signer needs for
 * split signing.  digest must hold EVP_MAX_MD_SIZE bytes; *tbs is
 * malloc'd.
 */
int ms_cms_digest_info(const EVP_MD *md, const uint8_t *data, size_t len,
		       uint8_t *digest, unsigned int *digest_len, uint8_t **tbs,
		       size_t *tbs_len);
/* The same DigestInfo for a digest already made. */
int ms_cms_digest_info_of(const EVP_MD *md, const uint8_t *digest,
			  unsigned int digest_len, uint8_t **tbs, size_t *tbs_len);

/* True when buf parses as DER CMS ContentInfo (a whole signature made
 * elsewhere) rather than a bare signature value. */
int ms_cms_is(const uint8_t *buf, size_t len);

/*
 * Wrap a bare signature value made elsewhere (RSA PKCS#1 v1.5 over the
 * DigestInfo, or an ECDSA-Sig-Value over the digest) in the SignedData
 * sign-file itself would make for cert and md: for RSA the result is
 * byte-identical to signing here.  The caller still has the kernel model
 * check it (sign-file/kernel_check.h), which verifies the value over the file.
 */
int ms_cms_from_value(X509 *cert, const EVP_MD *md, int use_keyid,
		      const uint8_t *sig, size_t sig_len, uint8_t **der,
		      size_t *der_len);

#endif
