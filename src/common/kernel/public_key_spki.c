// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509.h>

#include "kernel/asn1.h"
#include "kernel/public_key_parts.h"

/* A DER header for a length below 64 KiB into out; its size. */
size_t pk_der_hdr(uint8_t *out, uint8_t tag, size_t len)
{
	out[0] = tag;
	if (len < 0x80) {
		out[1] = (uint8_t)len;
		return 2;
	}
	if (len < 0x100) {
		out[1] = 0x81;
		out[2] = (uint8_t)len;
		return 3;
	}
	out[1] = 0x82;
	out[2] = (uint8_t)(len >> 8);
	out[3] = (uint8_t)len;
	return 4;
}

/*
 * The key for OpenSSL, from the parts the kernel keeps (x509_cert_parse():
 * the algorithm, the parameters element, the key bits), re-encoded as a
 * DER SubjectPublicKeyInfo: whatever BER form the certificate gave them
 * in, the kernel only ever sees these parts.
 */
EVP_PKEY *pk_spki_pkey(const uint8_t *oid, size_t oid_len,
		       const uint8_t *params, size_t params_len,
		       const uint8_t *bits, size_t bits_len)
{
	static const uint8_t null_params[] = { ASN1_TAG_NULL, 0 };
	uint8_t *der, *p;
	const unsigned char *q;
	size_t alg_len, n;
	EVP_PKEY *k;

	if (!params) {
		params = null_params;
		params_len = sizeof(null_params);
	}
	if (oid_len > 0x7f)
		return NULL;
	alg_len = 2 + oid_len + params_len;
	n = 4 + alg_len + 4 + bits_len;
	der = malloc(n + 4);
	if (!der)
		return NULL;
	p = der + 4;
	p += pk_der_hdr(p, ASN1_TAG_SEQ, alg_len);
	p += pk_der_hdr(p, ASN1_TAG_OID, oid_len);
	memcpy(p, oid, oid_len);
	p += oid_len;
	memcpy(p, params, params_len);
	p += params_len;
	p += pk_der_hdr(p, ASN1_TAG_BITSTR, bits_len);
	memcpy(p, bits, bits_len);
	p += bits_len;
	n = (size_t)(p - (der + 4));
	/* the outer header, just before the contents */
	{
		uint8_t h[4];
		size_t hl = pk_der_hdr(h, ASN1_TAG_SEQ, n);

		memcpy(der + 4 - hl, h, hl);
		q = der + 4 - hl;
		k = d2i_PUBKEY(NULL, &q, (long)(n + hl));
	}
	ERR_clear_error();
	free(der);
	return k;
}



/* The parts of a SubjectPublicKeyInfo that x509_extract_key_data() takes. */
struct spki_parts {
	const uint8_t *oid, *params, *bits;
	size_t oid_len, params_len, bits_len;
};

static int spki_oid(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct spki_parts *p = ctx;

	(void)hdr, (void)tag;
	p->oid = v;
	p->oid_len = len;
	return 0;
}

static int spki_params(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct spki_parts *p = ctx;

	(void)tag;
	p->params = v - hdr;
	p->params_len = len + hdr;
	return 0;
}

static int spki_bits(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		     size_t len)
{
	struct spki_parts *p = ctx;

	(void)hdr, (void)tag;
	p->bits = v;
	p->bits_len = len;
	return 0;
}

/* crypto/asymmetric_keys/x509.asn1: SubjectPublicKeyInfo and its
 * AlgorithmIdentifier, as x509.c's certificate grammar reads them */
static const struct asn1_op spki_r_alg[] = {
	M_ACT(ASN1_TAG_OID, spki_oid),
	M_F(ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, spki_params, NULL),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op spki_grammar[] = {
	M(ASN1_TAG_SEQ),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, spki_r_alg),
	M_ACT(ASN1_TAG_BITSTR, spki_bits),
	END_SEQ,
	OP(ASN1_OP_COMPLETE),
};

/*
 * x509_extract_key_data() at a DER SubjectPublicKeyInfo: 0 and *k
 * (pointing into der, which must outlive it; free k->pkey), -ENOPKG for
 * an algorithm or curve the line does not know, -EBADMSG when malformed.
 * *why on failure.
 */
static int parse_spki(const struct rules_rules *kr, const uint8_t *der,
			 size_t len, struct pk_key *k, const char **why)
{
	struct spki_parts p = { 0 };
	const char *where;

	memset(k, 0, sizeof(*k));
	*why = "malformed SubjectPublicKeyInfo";
	if (asn1_decode(spki_grammar, &p, der, len, &where))
		return -EBADMSG;
	return pk_key_make(kr, p.oid, p.oid_len, p.params, p.params_len,
			   p.bits, p.bits_len, k, why);
}


static int check_on(const struct rules_rules *kr, const uint8_t *der,
		    size_t len, const char **why)
{
	struct pk_key k;
	size_t ksize;
	int ret;

	ret = parse_spki(kr, der, len, &k, why);
	if (ret)
		return ret;
	if (kr->ec_keys_sm2 && strcmp(k.algo, "sm2") == 0) {
		/* it loads (as "sm2"), but nothing it signs is taken */
		EVP_PKEY_free(k.pkey);
		*why = "ECDSA arrived in v5.13: 5.10 takes an EC key as an SM2 "
		       "key, and its PKCS#7 parser refuses every ECDSA "
		       "signature (pkcs7_sig_note_pkey_algo)";
		return -ENOPKG;
	}
	ret = pk_key_usable(&k, &ksize, why);
	if (!ret && !rules_pkey_available(kr, k.algo)) {
		*why = "the kernel lacks this key type (see its .config)";
		ret = -ENOENT;
	}
	EVP_PKEY_free(k.pkey);
	return ret;
}

int pk_check_spki(const struct rules_rules *kr, const uint8_t *der, size_t len,
		  const char **why)
{
	int ret = 0;

	*why = NULL;
	if (kr)
		return check_on(kr, der, len, why);
	/* no line named: only what every line refuses, in the newest
	 * line's words */
	for (int l = RULES_NLINES - 1; l >= 0; l--) {
		const char *w;
		int r = check_on(rules_get(l), der, len, &w);

		if (!r) {
			ret = 0;
			*why = NULL;
			break;
		}
		if (!ret) {
			ret = r;
			*why = w;
		}
	}
	return ret;
}

int pk_check_pkey(const struct rules_rules *kr, EVP_PKEY *key, const char **why)
{
	unsigned char *der = NULL;
	int len, ret;

	*why = NULL;
	len = i2d_PUBKEY(key, &der);
	if (len <= 0) {
		ERR_clear_error();
		*why = rules_why_key_algo;
		return -ENOPKG;
	}
	ret = pk_check_spki(kr, der, (size_t)len, why);
	OPENSSL_free(der);
	return ret;
}
