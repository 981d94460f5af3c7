// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/x509.h>

#include "base/digest.h"
#include "sign-file/cms.h"
#include "sign-file/keys.h"

/*
 * The flag sets below are the kernel's sign-file's, call by call: the
 * output is byte-identical only if OpenSSL is driven the same way.
 * NOATTR leaves signedAttrs out: the kernel rejects module signatures
 * that have them (pkcs7_verify, "has authattrs").
 */
#define SIGN_FLAGS (CMS_NOCERTS | CMS_PARTIAL | CMS_BINARY | CMS_DETACHED | \
		    CMS_STREAM)
#define SIGNER_FLAGS (CMS_NOCERTS | CMS_BINARY | CMS_NOSMIMECAP | CMS_NOATTR)

/*
 * 7.3's sign-file (main) clears NOATTR for an ML-DSA key while OpenSSL is
 * older than 4.0, which cannot make an ML-DSA SignerInfo without signed
 * attributes; its flags also carry CMS_NO_SIGNING_TIME where OpenSSL has
 * it (3.5), so the attributes are contentType and messageDigest only.
 */
#ifdef CMS_NO_SIGNING_TIME
#define ATTR_FLAGS ((SIGNER_FLAGS & ~CMS_NOATTR) | CMS_NO_SIGNING_TIME)
#else
#define ATTR_FLAGS (SIGNER_FLAGS & ~CMS_NOATTR)
#endif

int ms_cms_signed_attrs(EVP_PKEY *key)
{
#if OPENSSL_VERSION_NUMBER < 0x40000000L
	return ms_key_is_mldsa(key);
#else
	(void)key;
	return 0;
#endif
}

/*
 * Sign a digest as CMS_final does for a SignerInfo without signed
 * attributes (cms_SignerInfo_content_sign -> EVP_SignFinal_ex): a
 * context on the key, the signature digest set, EVP_PKEY_sign over the
 * digest.  RSA's default padding is PKCS#1 v1.5, as there.  *sig is
 * OPENSSL_malloc'd.
 */
static int sign_digest(EVP_PKEY *key, const EVP_MD *md,
		       const uint8_t *digest, unsigned int digest_len,
		       unsigned char **sig, size_t *sig_len)
{
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	int ok;

	*sig = NULL;
	ok = pctx && EVP_PKEY_sign_init(pctx) > 0 &&
	     EVP_PKEY_CTX_set_signature_md(pctx, md) > 0 &&
	     EVP_PKEY_sign(pctx, NULL, sig_len, digest, digest_len) > 0 &&
	     (*sig = OPENSSL_malloc(*sig_len)) != NULL &&
	     EVP_PKEY_sign(pctx, *sig, sig_len, digest, digest_len) > 0 &&
	     *sig_len <= INT_MAX;
	if (!ok) {
		OPENSSL_free(*sig);
		*sig = NULL;
	}
	EVP_PKEY_CTX_free(pctx);
	return ok ? 0 : -EINVAL;
}

/* What goes into SignerInfo i's signature field. */
typedef int (*fill_fn)(void *ctx, int i, CMS_SignerInfo *si);

struct real_sig {
	EVP_PKEY *const *keys;
	const EVP_MD *md;
	const uint8_t *digest;
	unsigned int digest_len;
};

/*
 * A SignerInfo with signed attributes, signed as CMS_final's
 * cms_SignerInfo_content_sign does it, with the content's digest made
 * here: messageDigest and contentType (id-data, the SignedData's
 * eContentType) added, then CMS_SignerInfo_sign signs their DER SET OF.
 * The attributes are a DER SET OF, sorted when encoded: the order they
 * are added in does not show.
 */
static int sign_attrs(CMS_SignerInfo *si, const uint8_t *digest,
		      unsigned int digest_len)
{
	if (CMS_signed_add1_attr_by_NID(si, NID_pkcs9_messageDigest,
					V_ASN1_OCTET_STRING, digest,
					(int)digest_len) <= 0 ||
	    CMS_signed_add1_attr_by_NID(si, NID_pkcs9_contentType,
					V_ASN1_OBJECT,
					OBJ_nid2obj(NID_pkcs7_data), -1) <= 0 ||
	    CMS_SignerInfo_sign(si) <= 0)
		return -EINVAL;
	return 0;
}

static int fill_signature(void *ctx, int i, CMS_SignerInfo *si)
{
	struct real_sig *r = ctx;
	unsigned char *sig;
	size_t len;
	int err;

	if (CMS_signed_get_attr_count(si) >= 0)
		return sign_attrs(si, r->digest, r->digest_len);
	err = sign_digest(r->keys[i], r->md, r->digest, r->digest_len, &sig,
			  &len);
	if (!err)
		ASN1_STRING_set0(CMS_SignerInfo_get0_signature(si), sig,
				 (int)len);
	return err;
}

/* The SignedData for n signers, each signature supplied by fill. */
static int build_cms(X509 *const *certs, EVP_PKEY *const *keys, int n,
		     const EVP_MD *md, int use_keyid, fill_fn fill, void *ctx,
		     uint8_t **der, size_t *der_len, int *failed_signer)
{
	const unsigned int keyid = use_keyid ? CMS_USE_KEYID : 0;
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_ContentInfo *cms;
	unsigned char *p = NULL;
	int len, err = -EINVAL;

	*der = NULL;
	*der_len = 0;
	*failed_signer = -1;
	cms = CMS_sign(NULL, NULL, NULL, NULL, SIGN_FLAGS);
	if (!cms)
		return -ENOMEM;
	/* Every SignerInfo first, as CMS_add1_signer would have them
	 * before CMS_final; then each is signed in turn. */
	for (int i = 0; i < n; i++) {
		unsigned int flags = (ms_cms_signed_attrs(keys[i]) ?
				      ATTR_FLAGS : SIGNER_FLAGS) | keyid;

		if (!CMS_add1_signer(cms, certs[i], keys[i], md, flags)) {
			*failed_signer = i;
			/* e.g. ECDSA with SHA-3 on OpenSSL 3.0: no such CMS
			 * signature algorithm */
			if (ERR_GET_REASON(ERR_peek_last_error()) ==
			    CMS_R_UNSUPPORTED_SIGNATURE_ALGORITHM)
				err = -ENOPKG;
			goto out;
		}
	}
	/* Each SignerInfo is signed here: a token that refuses fails it.
	 * The stack holds them in the order they were added. */
	sis = CMS_get0_SignerInfos(cms);
	for (int i = 0; i < n; i++) {
		CMS_SignerInfo *si = sk_CMS_SignerInfo_num(sis) == n ?
				     sk_CMS_SignerInfo_value(sis, i) : NULL;

		if (!si || fill(ctx, i, si)) {
			*failed_signer = i;
			goto out;
		}
	}
	len = i2d_CMS_ContentInfo(cms, &p);
	if (len <= 0)
		goto out;
	*der = malloc((size_t)len);
	if (!*der) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(*der, p, (size_t)len);
	*der_len = (size_t)len;
	err = 0;
out:
	OPENSSL_free(p);
	CMS_ContentInfo_free(cms);
	return err;
}

int ms_cms_sign_digest(X509 *const *certs, EVP_PKEY *const *keys, int n,
		       const EVP_MD *md, int use_keyid, const uint8_t *digest,
		       unsigned int digest_len, uint8_t **der,
		       size_t *der_len, int *failed_signer)
{
	struct real_sig r = { keys, md, digest, digest_len };

	return build_cms(certs, keys, n, md, use_keyid, fill_signature, &r,
			 der, der_len, failed_signer);
}

/*
 * Batch mode signs thousands of modules with one signer set, and their
 * SignedData differ only in the signature values, whose length is fixed
 * for RSA (the modulus size; PKCS#1 v1.5 keeps leading zeros).  So the
 * structure is built and encoded once, with a placeholder per value,
 * and each module gets a copy with its values written over them: DER
 * whose every length is unchanged, byte for byte what build_cms makes.
 */
#define TEMPLATE_MAX 8

struct ms_cms_template {
	X509 *const *certs;
	EVP_PKEY *const *keys;
	int n, use_keyid;
	const EVP_MD *md;
	uint8_t *der;
	size_t der_len;
	size_t off[TEMPLATE_MAX], sig_len[TEMPLATE_MAX];
};

static void placeholder(int i, uint8_t *p, size_t len)
{
	/* Not a value any field around it can take, and distinct per
	 * signer; found exactly once or there is no template. */
	uint32_t x = 0x9e3779b9u * (uint32_t)(i + 1);

	for (size_t k = 0; k < len; k++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[k] = (uint8_t)(x >> 24);
	}
}

static int fill_placeholder(void *ctx, int i, CMS_SignerInfo *si)
{
	struct ms_cms_template *t = ctx;
	uint8_t *p = OPENSSL_malloc(t->sig_len[i]);

	if (!p)
		return -ENOMEM;
	placeholder(i, p, t->sig_len[i]);
	ASN1_STRING_set0(CMS_SignerInfo_get0_signature(si), p,
			 (int)t->sig_len[i]);
	return 0;
}

int ms_cms_template_new(X509 *const *certs, EVP_PKEY *const *keys, int n,
			const EVP_MD *md, int use_keyid,
			struct ms_cms_template **tp)
{
	struct ms_cms_template *t;
	uint8_t pat[1024];
	int bad, err = -ENOTSUP;

	*tp = NULL;
	if (n < 1 || n > TEMPLATE_MAX)
		return -ENOTSUP;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	*t = (struct ms_cms_template){ .certs = certs, .keys = keys, .n = n,
				       .use_keyid = use_keyid, .md = md };
	for (int i = 0; i < n; i++) {
		int size = EVP_PKEY_get_size(keys[i]);

		/* RSA only: an ECDSA value's DER length varies. */
		if (EVP_PKEY_get_base_id(keys[i]) != EVP_PKEY_RSA ||
		    size <= 0 || (size_t)size > sizeof(pat))
			goto fail;
		t->sig_len[i] = (size_t)size;
	}
	err = build_cms(certs, keys, n, md, use_keyid, fill_placeholder, t,
			&t->der, &t->der_len, &bad);
	if (err)
		goto fail;
	err = -ENOTSUP;
	for (int i = 0; i < n; i++) {
		const uint8_t *at, *again;

		placeholder(i, pat, t->sig_len[i]);
		at = memmem(t->der, t->der_len, pat, t->sig_len[i]);
		if (!at)
			goto fail;
		again = memmem(at + 1, t->der_len - (size_t)(at + 1 - t->der),
			       pat, t->sig_len[i]);
		if (again)
			goto fail;
		t->off[i] = (size_t)(at - t->der);
	}
	*tp = t;
	return 0;
fail:
	ms_cms_template_free(t);
	ERR_clear_error();
	return err;
}

void ms_cms_template_free(struct ms_cms_template *t)
{
	if (!t)
		return;
	free(t->der);
	free(t);
}

int ms_cms_sign_template(const struct ms_cms_template *t,
			 const uint8_t *digest, unsigned int digest_len,
			 uint8_t **der, size_t *der_len, int *failed_signer)
{
	unsigned char *sig;
	size_t len;
	uint8_t *out;
	int err;

	*der = NULL;
	*der_len = 0;
	*failed_signer = -1;
	out = malloc(t->der_len);
	if (!out)
		return -ENOMEM;
	memcpy(out, t->der, t->der_len);
	for (int i = 0; i < t->n; i++) {
		err = sign_digest(t->keys[i], t->md, digest, digest_len, &sig,
				  &len);
		if (err) {
			*failed_signer = i;
			free(out);
			return err;
		}
		if (len != t->sig_len[i]) {
			/* Not the fixed length after all: build it whole. */
			OPENSSL_free(sig);
			free(out);
			return ms_cms_sign_digest(t->certs, t->keys, t->n,
						  t->md, t->use_keyid, digest,
						  digest_len, der, der_len,
						  failed_signer);
		}
		memcpy(out + t->off[i], sig, len);
		OPENSSL_free(sig);
	}
	*der = out;
	*der_len = t->der_len;
	return 0;
}

int ms_cms_template_with_value(const struct ms_cms_template *t,
			       const uint8_t *sig, size_t sig_len,
			       uint8_t **der, size_t *der_len)
{
	*der = NULL;
	*der_len = 0;
	if (t->n != 1 || sig_len != t->sig_len[0])
		return -EINVAL;
	*der = malloc(t->der_len);
	if (!*der)
		return -ENOMEM;
	memcpy(*der, t->der, t->der_len);
	memcpy(*der + t->off[0], sig, sig_len);
	*der_len = t->der_len;
	return 0;
}

int ms_cms_digest_info_of(const EVP_MD *md, const uint8_t *digest,
			  unsigned int digest_len, uint8_t **tbs, size_t *tbs_len)
{
	X509_ALGOR *alg;
	ASN1_OCTET_STRING *os;
	unsigned char *p = NULL;
	X509_SIG *di;
	int n, err = -ENOMEM;

	*tbs = NULL;
	di = X509_SIG_new();
	if (!di)
		return -ENOMEM;
	X509_SIG_getm(di, &alg, &os);
	/* NULL parameters, as OpenSSL's RSA PKCS#1 v1.5 encoder writes. */
	if (!X509_ALGOR_set0(alg, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL,
			     NULL) ||
	    !ASN1_OCTET_STRING_set(os, digest, (int)digest_len))
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

int ms_cms_digest_info(const EVP_MD *md, const uint8_t *data, size_t len,
		       uint8_t *digest, unsigned int *digest_len, uint8_t **tbs,
		       size_t *tbs_len)
{
	*tbs = NULL;
	if (digest_bytes(md, data, len, digest, digest_len))
		return -EINVAL;
	return ms_cms_digest_info_of(md, digest, *digest_len, tbs, tbs_len);
}

int ms_cms_is(const uint8_t *buf, size_t len)
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
	 * The same SignerInfo as ms_cms_sign_digest, built around the public
	 * key:
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
