// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>

#include "kernel/asn1.h"
#include "kernel/public_key.h"
#include "kernel/public_key_parts.h"

/*
 * crypto/ecdsasignature.asn1 as the kernel decodes it (asn1_ber_decoder(),
 * so BER: long-form lengths, a primitive SEQUENCE tag, trailing octets
 * after it all pass), with ecdsa_get_signature_rs() (crypto/ecdsa.c; v6.13
 * on crypto/ecdsa-x962.c) for r and s: each must fit the key's size in
 * 64-bit digits, one leading zero octet allowed beyond it, else -EINVAL.
 */
struct ecdsa_rs {
	size_t digits_len;	/* ndigits * 8 */
	const uint8_t *v[2];
	size_t len[2];
	int n;
};

static int ecdsa_rs(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct ecdsa_rs *rs = ctx;

	(void)hdr, (void)tag;
	if (len == 0 || len > rs->digits_len + 1)
		return -EINVAL;
	if (len > rs->digits_len) {
		if (v[0] != 0)
			return -EINVAL;
		v++;
		len--;
	}
	rs->v[rs->n] = v;
	rs->len[rs->n++] = len;
	return 0;
}

static const struct asn1_op ecdsa_sig_grammar[] = {
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_INT, ecdsa_rs),
	M_ACT(ASN1_TAG_INT, ecdsa_rs),
	END_SEQ,
	OP(ASN1_OP_COMPLETE),
};

int pk_ecdsa_verify(EVP_PKEY *key, const struct pk_sig *sig,
		    const char **why)
{
	struct ecdsa_rs rs = { 0 };
	EVP_PKEY_CTX *ctx = NULL;
	ECDSA_SIG *es = NULL;
	BIGNUM *r = NULL, *s = NULL, *order = NULL;
	unsigned char *der = NULL;
	const char *w;
	int ret, der_len;

	rs.digits_len = (EVP_PKEY_get_bits(key) + 63) / 64 * 8;
	ret = asn1_decode(ecdsa_sig_grammar, &rs, sig->s, sig->slen, &w);
	if (ret) {
		*why = ret == -EINVAL ? "ECDSA signature's r or s does not "
			"fit the key (ecdsa_get_signature_rs)" :
			"undecodable ECDSA signature";
		return ret;
	}
	ret = -ENOMEM;
	r = BN_bin2bn(rs.v[0], (int)rs.len[0], NULL);
	s = BN_bin2bn(rs.v[1], (int)rs.len[1], NULL);
	order = BN_new();
	if (!r || !s || !order ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_ORDER, &order))
		goto out;
	/* _ecdsa_verify(): 0 < r < n and 0 < s < n, else -EBADMSG */
	if (BN_is_zero(r) || BN_cmp(r, order) >= 0 || BN_is_zero(s) ||
	    BN_cmp(s, order) >= 0) {
		*why = "ECDSA signature's r or s is out of range";
		ret = -EBADMSG;
		goto out;
	}
	es = ECDSA_SIG_new();
	if (!es || !ECDSA_SIG_set0(es, r, s))
		goto out;
	r = s = NULL;
	der_len = i2d_ECDSA_SIG(es, &der);
	if (der_len <= 0)
		goto out;
	ctx = EVP_PKEY_CTX_new(key, NULL);
	if (!ctx)
		goto out;
	ret = -EKEYREJECTED;
	*why = "ECDSA signature does not verify";
	if (EVP_PKEY_verify_init(ctx) > 0 &&
	    EVP_PKEY_verify(ctx, der, der_len, sig->digest, sig->dlen) == 1)
		ret = 0;
out:
	EVP_PKEY_CTX_free(ctx);
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	BN_free(r);
	BN_free(s);
	BN_free(order);
	ERR_clear_error();
	return ret;
}
