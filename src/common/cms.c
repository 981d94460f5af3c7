// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/x509.h>

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

/*
 * The flag sets below are the kernel's sign-file's, call by call: the
 * output is byte-identical only if OpenSSL is driven the same way.
 * NOATTR leaves signedAttrs out: the kernel rejects module signatures
 * that have them (pkcs7_verify, "has authattrs").
 */
#define SIGN_FLAGS (CMS_NOCERTS | CMS_PARTIAL | CMS_BINARY | CMS_DETACHED | \
		    CMS_STREAM)
#define SIGNER_FLAGS (CMS_NOCERTS | CMS_BINARY | CMS_NOSMIMECAP | CMS_NOATTR)

int ms_cms_sign(X509 *const *certs, EVP_PKEY *const *keys, int n,
		const EVP_MD *md, int use_keyid, const uint8_t *data,
		size_t len, uint8_t **der, size_t *der_len,
		int *failed_signer)
{
	const unsigned int signer_flags = SIGNER_FLAGS |
					  (use_keyid ? CMS_USE_KEYID : 0);
	CMS_ContentInfo *cms = NULL;
	BIO *in = NULL, *out = NULL;
	int err = -EINVAL;

	*der = NULL;
	*der_len = 0;
	*failed_signer = -1;
	/* A zero-length mem BIO is fine: the digest of nothing. */
	in = BIO_new_mem_buf(len ? (const void *)data : "", (int)len);
	out = BIO_new(BIO_s_mem());
	if (!in || !out || len > INT32_MAX) {
		err = len > INT32_MAX ? -EFBIG : -ENOMEM;
		goto out;
	}
	cms = CMS_sign(NULL, NULL, NULL, NULL, SIGN_FLAGS);
	if (!cms)
		goto out;
	for (int i = 0; i < n; i++) {
		if (!CMS_add1_signer(cms, certs[i], keys[i], md,
				     signer_flags)) {
			*failed_signer = i;
			goto out;
		}
	}
	/* Each SignerInfo is signed here: a token that refuses fails it. */
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

int ms_digest_info(const EVP_MD *md, const uint8_t *data, size_t len,
		   uint8_t *digest, unsigned int *digest_len, uint8_t **tbs,
		   size_t *tbs_len)
{
	X509_ALGOR *alg;
	ASN1_OCTET_STRING *os;
	unsigned char *p = NULL;
	X509_SIG *di;
	int n, err = -ENOMEM;

	*tbs = NULL;
	if (EVP_Digest(len ? (const void *)data : "", len, digest, digest_len,
		       md, NULL) != 1)
		return -EINVAL;
	di = X509_SIG_new();
	if (!di)
		return -ENOMEM;
	X509_SIG_getm(di, &alg, &os);
	/* NULL parameters, as OpenSSL's RSA PKCS#1 v1.5 encoder writes. */
	if (!X509_ALGOR_set0(alg, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL,
			     NULL) ||
	    !ASN1_OCTET_STRING_set(os, digest, (int)*digest_len))
		goto out;
	n = i2d_X509_SIG(di, &p);
	if (n <= 0)
		goto out;
	*tbs = malloc((size_t)n);
	if (!*tbs)
		goto out;
	memcpy(*tbs, p, (size_t)n);
	*tbs_len = (size_t)n;
	err = 0;
out:
	OPENSSL_free(p);
	X509_SIG_free(di);
	return err;
}

int ms_is_cms(const uint8_t *buf, size_t len)
{
	const unsigned char *p = buf;
	CMS_ContentInfo *cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);

	if (!cms) {
		ERR_clear_error();
		return 0;
	}
	CMS_ContentInfo_free(cms);
	return 1;
}

int ms_cms_from_value(X509 *cert, const EVP_MD *md, int use_keyid,
		      const uint8_t *sig, size_t sig_len, uint8_t **der,
		      size_t *der_len)
{
	const unsigned int signer_flags = SIGNER_FLAGS |
					  (use_keyid ? CMS_USE_KEYID : 0);
	CMS_ContentInfo *cms;
	CMS_SignerInfo *si;
	ASN1_OCTET_STRING *os;
	unsigned char *p = NULL;
	int n, err = -EINVAL;

	*der = NULL;
	*der_len = 0;
	cms = CMS_sign(NULL, NULL, NULL, NULL, SIGN_FLAGS);
	if (!cms)
		return -ENOMEM;
	/*
	 * The same SignerInfo as ms_cms_sign, built around the public key:
	 * CMS_add1_signer only checks that key and certificate match, and
	 * with NOATTR nothing is signed before CMS_final, which is not
	 * called.  The value goes where CMS_final would put it.
	 */
	si = CMS_add1_signer(cms, cert, X509_get0_pubkey(cert), md,
			     signer_flags);
	if (!si)
		goto out;
	os = CMS_SignerInfo_get0_signature(si);
	if (!os || !ASN1_OCTET_STRING_set(os, sig, (int)sig_len))
		goto out;
	n = i2d_CMS_ContentInfo(cms, &p);
	if (n <= 0)
		goto out;
	*der = malloc((size_t)n);
	if (!*der) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(*der, p, (size_t)n);
	*der_len = (size_t)n;
	err = 0;
out:
	OPENSSL_free(p);
	CMS_ContentInfo_free(cms);
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
