// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/cms.h>
#include <openssl/err.h>

#include "cms.h"

const EVP_MD *ms_digest_by_name(const char *name)
{
	return EVP_get_digestbyname(name);
}

/* Copy a memory BIO's contents out into a malloc'd buffer. */
static int bio_to_buf(BIO *b, uint8_t **out, size_t *out_len)
{
	char *p;
	long n = BIO_get_mem_data(b, &p);

	if (n <= 0)
		return -EINVAL;
	*out = malloc((size_t)n);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, p, (size_t)n);
	*out_len = (size_t)n;
	return 0;
}

int ms_cms_sign(X509 *cert, EVP_PKEY *key, const EVP_MD *md, int use_keyid,
		const uint8_t *data, size_t len, uint8_t **der,
		size_t *der_len)
{
	/*
	 * The flag sets below are the kernel's sign-file's, call by call:
	 * the output is byte-identical only if OpenSSL is driven the same
	 * way.  NOATTR leaves signedAttrs out: the kernel rejects module
	 * signatures that have them (pkcs7_verify, "has authattrs").
	 */
	const unsigned int sign_flags = CMS_NOCERTS | CMS_PARTIAL | CMS_BINARY |
					CMS_DETACHED | CMS_STREAM;
	const unsigned int signer_flags = CMS_NOCERTS | CMS_BINARY |
					  CMS_NOSMIMECAP | CMS_NOATTR |
					  (use_keyid ? CMS_USE_KEYID : 0);
	CMS_ContentInfo *cms = NULL;
	BIO *in = NULL, *out = NULL;
	int err = -EINVAL;

	*der = NULL;
	*der_len = 0;
	/* A zero-length mem BIO is fine: the digest of nothing. */
	in = BIO_new_mem_buf(len ? (const void *)data : "", (int)len);
	out = BIO_new(BIO_s_mem());
	if (!in || !out || len > INT32_MAX) {
		err = len > INT32_MAX ? -EFBIG : -ENOMEM;
		goto out;
	}
	cms = CMS_sign(NULL, NULL, NULL, NULL, sign_flags);
	if (!cms)
		goto out;
	if (!CMS_add1_signer(cms, cert, key, md, signer_flags))
		goto out;
	if (CMS_final(cms, in, NULL, CMS_NOCERTS | CMS_BINARY) != 1)
		goto out;
	if (i2d_CMS_bio_stream(out, cms, NULL, 0) != 1)
		goto out;
	err = bio_to_buf(out, der, der_len);
out:
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	BIO_free(out);
	return err;
}

int ms_cms_check_attachable(const uint8_t *der, size_t der_len, X509 *cert,
			    const uint8_t *data, size_t len,
			    const char **reason)
{
	const unsigned char *p = der;
	STACK_OF(CMS_SignerInfo) *sis;
	STACK_OF(X509) *certs = NULL;
	CMS_ContentInfo *cms;
	ASN1_OCTET_STRING **content;
	BIO *dcont = NULL;
	int found = 0, err;

	cms = d2i_CMS_ContentInfo(NULL, &p, (long)der_len);
	if (!cms) {
		*reason = "not a DER-encoded CMS/PKCS#7 message";
		return -EBADMSG;
	}
	err = -EINVAL;
	if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
		*reason = "not a CMS SignedData message";
		goto out;
	}
	content = CMS_get0_content(cms);
	if (content && *content) {
		*reason = "the CMS embeds its content; the kernel needs a "
			  "detached signature";
		goto out;
	}
	sis = CMS_get0_SignerInfos(cms);
	if (!sis || sk_CMS_SignerInfo_num(sis) == 0) {
		*reason = "the CMS has no signer";
		goto out;
	}
	for (int i = 0; i < sk_CMS_SignerInfo_num(sis); i++)
		if (CMS_SignerInfo_cert_cmp(sk_CMS_SignerInfo_value(sis, i),
					    cert) == 0)
			found = 1;
	if (!found) {
		*reason = "no signer of the CMS is the given certificate";
		err = -ENOKEY;
		goto out;
	}
	/* Check the signature really covers this file: the kernel tool
	 * appends any bytes, and a wrong blob is only found at load time. */
	certs = sk_X509_new_null();
	dcont = BIO_new_mem_buf(len ? (const void *)data : "", (int)len);
	if (!certs || !dcont || !sk_X509_push(certs, cert)) {
		err = -ENOMEM;
		goto out;
	}
	if (CMS_verify(cms, certs, NULL, dcont, NULL,
		       CMS_BINARY | CMS_NOINTERN | CMS_NO_SIGNER_CERT_VERIFY) != 1) {
		*reason = "the signature does not verify over this file";
		err = -EKEYREJECTED;
		goto out;
	}
	*reason = NULL;
	err = 0;
out:
	sk_X509_free(certs);
	BIO_free(dcont);
	CMS_ContentInfo_free(cms);
	return err;
}
