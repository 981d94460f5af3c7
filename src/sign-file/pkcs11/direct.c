// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <p11-kit/pkcs11.h>

#include "sign-file/cms.h"
#include "sign-file/pkcs11/direct.h"
#include "sign-file/pkcs11/load.h"
#include "sign-file/pkcs11/token.h"

struct ms_p11_direct {
	CK_FUNCTION_LIST_PTR f;
	CK_SLOT_ID slot;
	CK_OBJECT_HANDLE key;
	CK_SESSION_HANDLE s;	/* a session of our own: an armed
				 * operation occupies it (PKCS#11 v2.40
				 * 5.6: one operation a session) */
	int open, armed, broken;
	size_t sig_len;		/* the modulus's bytes */
	/* md's DigestInfo, encoded once: the digest is its last
	 * digest_len bytes (the OCTET STRING ends the SEQUENCE) */
	uint8_t *tbs;
	size_t tbs_len;
	unsigned int digest_len;
};

static CK_MECHANISM rsa_pkcs = { CKM_RSA_PKCS, NULL, 0 };

/* One attribute of the key as a number: NULL when the token does not
 * give it (sensitive, absent) or it does not fit. */
static BIGNUM *key_number(const struct ms_p11_direct *d, CK_ATTRIBUTE_TYPE t)
{
	unsigned char buf[MS_P11_DIRECT_SIG_MAX];
	CK_ATTRIBUTE a = { t, buf, sizeof(buf) };

	if (d->f->C_GetAttributeValue(d->s, d->key, &a, 1) != CKR_OK ||
	    a.ulValueLen == CK_UNAVAILABLE_INFORMATION ||
	    a.ulValueLen > sizeof(buf))
		return NULL;
	return BN_bin2bn(buf, (int)a.ulValueLen, NULL);
}

/* The certificate's RSA parameter name, as a number. */
static BIGNUM *cert_number(X509 *cert, const char *name)
{
	BIGNUM *bn = NULL;

	if (!EVP_PKEY_get_bn_param(X509_get0_pubkey(cert), name, &bn))
		return NULL;
	return bn;
}

/* The token's key is the certificate's: same modulus and exponent. */
static int same_key(const struct ms_p11_direct *d, X509 *cert)
{
	BIGNUM *tn = key_number(d, CKA_MODULUS),
	       *te = key_number(d, CKA_PUBLIC_EXPONENT),
	       *cn = cert_number(cert, OSSL_PKEY_PARAM_RSA_N),
	       *ce = cert_number(cert, OSSL_PKEY_PARAM_RSA_E);
	int same = tn && te && cn && ce && !BN_cmp(tn, cn) && !BN_cmp(te, ce);

	BN_free(tn);
	BN_free(te);
	BN_free(cn);
	BN_free(ce);
	return same;
}

/* An RSA key that signs with CKM_RSA_PKCS and needs no login for each
 * signature (CKA_ALWAYS_AUTHENTICATE: the engine would log in again
 * between C_SignInit and C_Sign). */
static int usable_key(const struct ms_p11_direct *d)
{
	CK_KEY_TYPE type = 0;
	CK_BBOOL sign = CK_FALSE, again = CK_FALSE;
	CK_ATTRIBUTE a[] = {
		{ CKA_KEY_TYPE, &type, sizeof(type) },
		{ CKA_SIGN, &sign, sizeof(sign) },
	};
	CK_ATTRIBUTE aa = { CKA_ALWAYS_AUTHENTICATE, &again, sizeof(again) };
	CK_MECHANISM_INFO mi;

	if (d->f->C_GetAttributeValue(d->s, d->key, a, 2) != CKR_OK ||
	    type != CKK_RSA || sign != CK_TRUE)
		return 0;
	/* absent on tokens before PKCS#11 2.20: none then */
	if (d->f->C_GetAttributeValue(d->s, d->key, &aa, 1) == CKR_OK &&
	    again == CK_TRUE)
		return 0;
	return d->f->C_GetMechanismInfo(d->slot, CKM_RSA_PKCS, &mi) == CKR_OK &&
	       (mi.flags & CKF_SIGN);
}

int ms_p11_direct_new(const struct ms_p11_load_token *tok, X509 *cert,
		      const EVP_MD *md, struct ms_p11_direct **out)
{
	static const uint8_t zero[EVP_MAX_MD_SIZE];
	struct ms_p11_direct *d;
	void *f;
	unsigned long slot, key;
	int size;

	*out = NULL;
	size = EVP_PKEY_get_size(X509_get0_pubkey(cert));
	if (EVP_PKEY_get_base_id(X509_get0_pubkey(cert)) != EVP_PKEY_RSA ||
	    size <= 0 || size > MS_P11_DIRECT_SIG_MAX ||
	    ms_token_private_key(ms_p11_load_session(tok), &f, &slot, &key))
		return -ENOTSUP;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	*d = (struct ms_p11_direct){ .f = f, .slot = slot, .key = key,
				     .sig_len = (size_t)size,
				     .digest_len = (unsigned int)
						   EVP_MD_get_size(md) };
	if (ms_cms_digest_info_of(md, zero, d->digest_len, &d->tbs,
				  &d->tbs_len)) {
		free(d);
		return -ENOTSUP;
	}
	/* The application is logged in already (token.c): a new session
	 * shares that state. */
	if (d->f->C_OpenSession(d->slot, CKF_SERIAL_SESSION, NULL, NULL,
				&d->s) != CKR_OK) {
		ms_p11_direct_free(d);
		return -ENOTSUP;
	}
	d->open = 1;
	if (!usable_key(d) || !same_key(d, cert)) {
		ms_p11_direct_free(d);
		return -ENOTSUP;
	}
	ms_p11_direct_arm(d);
	*out = d;
	return 0;
}

/* Closing the session ends whatever operation it had. */
static void give_up(struct ms_p11_direct *d)
{
	if (d->open)
		d->f->C_CloseSession(d->s);
	d->open = d->armed = 0;
	d->broken = 1;
}

int ms_p11_direct_sign(struct ms_p11_direct *d, const uint8_t *digest,
		       unsigned int digest_len, uint8_t *sig,
		       size_t *sig_len)
{
	CK_ULONG len = d->sig_len;
	CK_RV rv;

	if (d->broken)
		return -ENOTSUP;
	if (digest_len != d->digest_len)
		return -EINVAL;
	memcpy(d->tbs + d->tbs_len - digest_len, digest, digest_len);
	rv = d->armed ? CKR_OK
		      : d->f->C_SignInit(d->s, &rsa_pkcs, d->key);
	d->armed = 0;
	if (rv == CKR_OK)
		rv = d->f->C_Sign(d->s, d->tbs, d->tbs_len, sig, &len);
	if (rv != CKR_OK || len != d->sig_len) {
		give_up(d);
		return -EIO;
	}
	*sig_len = len;
	return 0;
}

void ms_p11_direct_arm(struct ms_p11_direct *d)
{
	if (!d || d->broken || d->armed)
		return;
	d->armed = d->f->C_SignInit(d->s, &rsa_pkcs, d->key) == CKR_OK;
}

void ms_p11_direct_free(struct ms_p11_direct *d)
{
	if (!d)
		return;
	if (d->open)
		d->f->C_CloseSession(d->s);
	free(d->tbs);
	free(d);
}
