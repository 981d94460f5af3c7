// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/opensslv.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "base/digest.h"
#include "base/exitcode.h"
#include "kernel/asn1.h"
#include "kernel/public_key.h"

/* ML-DSA's arithmetic: EVP_PKEY_verify_message_init() and the ML-DSA
 * keys and signatures arrived in OpenSSL 3.5. */
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
#define PK_HAVE_MLDSA 1
#endif

int pk_digest2(const struct kr_hash *h, uint8_t first, const uint8_t *data,
	       size_t len, uint8_t *out, size_t *out_len)
{
	const EVP_MD *md = kr_md(h);
	EVP_MD_CTX *c;
	unsigned int n = 0;
	int ok;

	if (!md)
		return -ENOPKG;
	c = EVP_MD_CTX_new();
	if (!c)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(c, md, NULL) &&
	     (first == 0 || EVP_DigestUpdate(c, &first, 1)) &&
	     ms_digest_update_mapped(c, data, len);
	ok = ok && EVP_DigestFinal_ex(c, out, &n);
	EVP_MD_CTX_free(c);
	if (!ok)
		return -ENOPKG;
	*out_len = n;
	return 0;
}

int pk_digest(const struct kr_hash *h, const uint8_t *data, size_t len,
	      uint8_t *out, size_t *out_len)
{
	return pk_digest2(h, 0, data, len, out, out_len);
}

/*
 * The FIPS 204 parameter sets, as far as the shape of a signature goes:
 * c~ (lambda/4 bytes), then l polynomials z of 256 coefficients packed in
 * zbits bits each, then the hint (omega + k bytes).
 */
static const struct mldsa_set {
	const char *algo, *ossl;
	size_t sig_len;
	unsigned ctilde, l, k, zbits, omega;
	int32_t gamma1, beta;
} mldsa_sets[] = {
	{ "mldsa44", "ML-DSA-44", 2420, 32, 4, 4, 18, 80, 1 << 17, 78 },
	{ "mldsa65", "ML-DSA-65", 3309, 48, 5, 6, 20, 55, 1 << 19, 196 },
	{ "mldsa87", "ML-DSA-87", 4627, 64, 7, 8, 20, 75, 1 << 19, 120 },
};

static const struct mldsa_set *mldsa_set(const char *algo)
{
	for (size_t i = 0; i < sizeof(mldsa_sets) / sizeof(mldsa_sets[0]); i++)
		if (strcmp(mldsa_sets[i].algo, algo) == 0)
			return &mldsa_sets[i];
	return NULL;
}

#ifdef PK_HAVE_MLDSA
static EVP_SIGNATURE *mldsa_alg[3];
static pthread_once_t mldsa_once = PTHREAD_ONCE_INIT;

static void mldsa_release(void)
{
	for (size_t i = 0; i < 3; i++) {
		EVP_SIGNATURE_free(mldsa_alg[i]);
		mldsa_alg[i] = NULL;
	}
}

/* Fetched once: a provider configuration (a FIPS provider without it,
 * say) can leave ML-DSA out even of an OpenSSL 3.5 build. */
static void mldsa_fetch(void)
{
	for (size_t i = 0; i < 3; i++)
		mldsa_alg[i] = EVP_SIGNATURE_fetch(NULL, mldsa_sets[i].ossl,
						   NULL);
	ERR_clear_error();
	atexit(mldsa_release);
}

static EVP_SIGNATURE *mldsa_signature(const struct mldsa_set *set)
{
	pthread_once(&mldsa_once, mldsa_fetch);
	return mldsa_alg[set - mldsa_sets];
}
#endif

bool pk_mldsa_checkable(void)
{
#ifdef PK_HAVE_MLDSA
	for (size_t i = 0; i < 3; i++)
		if (!mldsa_signature(&mldsa_sets[i]))
			return false;
	return true;
#else
	return false;
#endif
}

/* The ML-DSA key for the raw public key bytes (length already checked). */
static EVP_PKEY *mldsa_pkey(const char *algo, const uint8_t *raw, size_t len)
{
#ifdef PK_HAVE_MLDSA
	const struct mldsa_set *set = mldsa_set(algo);
	EVP_PKEY *k;

	if (!set)
		return NULL;
	k = EVP_PKEY_new_raw_public_key_ex(NULL, set->ossl, NULL, raw, len);
	ERR_clear_error();
	return k;
#else
	(void)algo;
	(void)raw;
	(void)len;
	return NULL;
#endif
}

/* A DER header for a length below 64 KiB into out; its size. */
static size_t der_hdr(uint8_t *out, uint8_t tag, size_t len)
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
static EVP_PKEY *spki_pkey(const uint8_t *oid, size_t oid_len,
			   const uint8_t *params, size_t params_len,
			   const uint8_t *bits, size_t bits_len)
{
	static const uint8_t null_params[] = { AT_NULL, 0 };
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
	p += der_hdr(p, AT_SEQ, alg_len);
	p += der_hdr(p, AT_OID, oid_len);
	memcpy(p, oid, oid_len);
	p += oid_len;
	memcpy(p, params, params_len);
	p += params_len;
	p += der_hdr(p, AT_BITSTR, bits_len);
	memcpy(p, bits, bits_len);
	p += bits_len;
	n = (size_t)(p - (der + 4));
	/* the outer header, just before the contents */
	{
		uint8_t h[4];
		size_t hl = der_hdr(h, AT_SEQ, n);

		memcpy(der + 4 - hl, h, hl);
		q = der + 4 - hl;
		k = d2i_PUBKEY(NULL, &q, (long)(n + hl));
	}
	ERR_clear_error();
	free(der);
	return k;
}

/*
 * crypto/rsapubkey.asn1 as crypto/rsa_helper.c, rsa_parse_pub_key(),
 * decodes it (BER, by asn1_ber_decoder()): rsa_get_n() wants a modulus,
 * rsa_get_e() an exponent no longer than it, else -EINVAL.
 */
struct rsa_ne {
	const uint8_t *n, *e;
	size_t n_len, e_len;
};

static int rsa_get_n(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		     size_t len)
{
	struct rsa_ne *k = ctx;

	(void)hdr, (void)tag;
	if (len == 0)
		return -EINVAL;
	k->n = v;
	k->n_len = len;
	return 0;
}

static int rsa_get_e(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		     size_t len)
{
	struct rsa_ne *k = ctx;

	(void)hdr, (void)tag;
	if (!k->n_len || len == 0 || len > k->n_len)
		return -EINVAL;
	k->e = v;
	k->e_len = len;
	return 0;
}

static const struct asn1_op rsa_pub_grammar[] = {
	M(AT_SEQ),
	M_ACT(AT_INT, rsa_get_n),
	M_ACT(AT_INT, rsa_get_e),
	END_SEQ,
	OP(A_COMPLETE),
};

/* An unsigned big-endian magnitude as a DER INTEGER at out; its size. */
static size_t der_uint(uint8_t *out, const uint8_t *v, size_t len)
{
	size_t h, pad;

	while (len > 1 && v[0] == 0)
		v++, len--;
	pad = v[0] & 0x80 ? 1 : 0;
	h = der_hdr(out, AT_INT, len + pad);
	if (pad)
		out[h] = 0;
	memcpy(out + h + pad, v, len);
	return h + pad + len;
}

/* The RSA key the kernel would set from the key bits: its errors kept in
 * k->rsa_err for public_key_verify_signature() to return */
static void rsa_pkey(struct pk_key *k, const uint8_t *oid, size_t oid_len)
{
	struct rsa_ne ne = { 0 };
	uint8_t *ints, *bits;
	size_t ints_len, n;
	const char *w;

	k->rsa_err = asn1_decode(rsa_pub_grammar, &ne, k->raw, k->raw_len, &w);
	if (k->rsa_err)
		return;
	/* RSAPublicKey ::= SEQUENCE { n, e } in DER, as the contents of a
	 * BIT STRING (its unused-bits octet first) */
	ints = malloc(2 * (ne.n_len + ne.e_len + 16));
	if (!ints) {
		k->rsa_err = -ENOMEM;
		return;
	}
	ints_len = der_uint(ints, ne.n, ne.n_len);
	ints_len += der_uint(ints + ints_len, ne.e, ne.e_len);
	bits = ints + ints_len;
	bits[0] = 0;
	n = 1 + der_hdr(bits + 1, AT_SEQ, ints_len);
	memcpy(bits + n, ints, ints_len);
	n += ints_len;
	k->pkey = spki_pkey(oid, oid_len, NULL, 0, bits, n);
	free(ints);
}

int pk_key_make(const struct kr_rules *kr, const uint8_t *oid, size_t oid_len,
		const uint8_t *params, size_t params_len, const uint8_t *bits,
		size_t bits_len, struct pk_key *k, const char **why)
{
	const struct kr_key_algo *ka;
	const struct kr_curve *cv = NULL;
	char o[64], po[64];

	memset(k, 0, sizeof(*k));
	asn1_oid_name(oid, oid_len, o, sizeof(o));
	/* x509_extract_key_data(), at the BIT STRING */
	ka = kr_key_algo(o);
	if (!ka || !kr_on(kr, ka->on)) {
		*why = ka ? ka->absent : kr_why_key_algo;
		return -ENOPKG;
	}
	if (ka->pkey_algo) {
		k->algo = ka->pkey_algo;
		k->mldsa_len = ka->raw_len;
	} else if (kr->ec_keys_sm2) {
		/* 5.10's x509_extract_key_data(): id-ecPublicKey is "sm2",
		 * whatever (or whether) its parameters name a curve */
		k->algo = "sm2";
	} else {
		/* id-ecPublicKey: parse_OID() of the parameters element
		 * names the curve */
		if (!params || params_len < 3 || params[0] != AT_OID ||
		    params[1] != params_len - 2) {
			*why = "unparsable EC parameters";
			return -EBADMSG;
		}
		asn1_oid_name(params + 2, params_len - 2, po, sizeof(po));
		cv = kr_curve(po);
		if (!cv || !kr_on(kr, cv->on)) {
			*why = cv ? cv->absent : kr_why_curve;
			return -ENOPKG;
		}
		k->algo = cv->pkey_algo;
		k->ec_bytes = cv->bytes;
	}
	if (bits_len < 1 || bits[0] != 0) {
		*why = "public key BIT STRING has unused bits";
		return -EBADMSG;
	}
	k->raw = bits + 1;
	k->raw_len = bits_len - 1;
	if (k->mldsa_len) {
		if (k->raw_len == k->mldsa_len)
			k->pkey = mldsa_pkey(k->algo, k->raw, k->raw_len);
	} else if (cv) {
		k->pkey = spki_pkey(oid, oid_len, params, params_len, bits,
				    bits_len);
	} else if (strcmp(k->algo, "rsa") == 0) {
		rsa_pkey(k, oid, oid_len);
	}
	/* GOST and SM2 keys stay raw bytes: only a signature of their own
	 * algorithm gets to them (pk_verify) */
	*why = NULL;
	return 0;
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
	M_ACT(AT_OID, spki_oid),
	M_F(AF_ANY | AF_SKIP, 0, spki_params, NULL),
	END_SEQ,
	OP(A_RETURN),
};

static const struct asn1_op spki_grammar[] = {
	M(AT_SEQ),
	M_F(AF_JUMP, AT_SEQ, NULL, spki_r_alg),
	M_ACT(AT_BITSTR, spki_bits),
	END_SEQ,
	OP(A_COMPLETE),
};

/*
 * x509_extract_key_data() at a DER SubjectPublicKeyInfo: 0 and *k
 * (pointing into der, which must outlive it; free k->pkey), -ENOPKG for
 * an algorithm or curve the line does not know, -EBADMSG when malformed.
 * *why on failure.
 */
static int pk_parse_spki(const struct kr_rules *kr, const uint8_t *der,
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

/*
 * The set_pub_key() step: what the kernel refuses of a key before it
 * looks at any signature.  *key_size gets the RSA key size the signature
 * must match.
 */
static int key_usable(const struct pk_key *k, size_t *key_size,
		      const char **why)
{
	size_t half;

	*key_size = 0;
	if (strcmp(k->algo, "rsa") == 0) {
		/* rsa_parse_pub_key(): the RSAPublicKey must decode */
		if (k->rsa_err) {
			*why = k->rsa_err == -EINVAL ? "RSA public key with "
				"an empty modulus or an exponent longer than "
				"it (rsa_get_n, rsa_get_e)" :
				"undecodable RSA public key";
			return k->rsa_err;
		}
		if (!k->pkey) {
			*why = "undecodable RSA public key";
			return -EBADMSG;
		}
		return kr_rsa_modulus(((size_t)EVP_PKEY_get_bits(k->pkey) + 7) /
				      8, key_size, why);
	}
	if (strncmp(k->algo, "ecdsa-", 6) == 0) {
		/* crypto/ecdsa.c ecdsa_set_pub_key(): an uncompressed point
		 * (04 x y) of the curve's digits, and on the curve
		 * (ecc_is_pubkey_valid_full), else -EINVAL */
		half = k->raw_len >= 1 ? (k->raw_len - 1) / 2 : 0;
		if (k->raw_len < 1 || ((k->raw_len - 1) & 1) ||
		    k->raw[0] != 0x04 ||
		    (half + 7) / 8 != (k->ec_bytes + 7) / 8) {
			*why = "the kernel's ECDSA takes only uncompressed "
			       "points of the key's curve (ecdsa_set_pub_key)";
			return -EINVAL;
		}
		if (!k->pkey) {
			*why = "the ECDSA public key is not a point of its "
			       "curve (ecc_is_pubkey_valid_full)";
			return -EINVAL;
		}
		return 0;
	}
	if (k->mldsa_len) {
		/* crypto/mldsa.c crypto_mldsa_set_pub_key() */
		if (k->raw_len != k->mldsa_len) {
			*why = "ML-DSA public key of the wrong length for its "
			       "parameter set (crypto_mldsa_set_pub_key)";
			return -EINVAL;
		}
		return 0;
	}
	/* GOST or SM2 whose own signature got this far (its streebog or
	 * sm3 digest built): the kernel would check it, OpenSSL 3 cannot */
	*why = "GOST and SM2 signatures are not checked here";
	return -ENOPKG;
}

/* The DER DigestInfo prefix for a hash: SEQ { SEQ { OID, NULL }, OCTET STRING
 * } */
static size_t digest_info(const struct kr_hash *h, size_t dlen, uint8_t *out)
{
	size_t n;
	const uint8_t *oid = kr_hash_oid_der(h, &n);

	if (!oid || n > 20 || dlen > 64)
		return 0;
	out[0] = 0x30;
	out[1] = (uint8_t)(n + 4 + 2 + dlen);
	out[2] = 0x30;
	out[3] = (uint8_t)(n + 2);
	memcpy(out + 4, oid, n);
	out[4 + n] = 0x05;
	out[5 + n] = 0x00;
	out[6 + n] = 0x04;
	out[7 + n] = (uint8_t)dlen;
	return n + 8;
}

/*
 * pkcs1pad(rsa,<hash>) (6.x) and pkcs1(rsa,<hash>) (7.x) verification,
 * step by step, so that a signature fails with the kernel's errno:
 * -EINVAL for a length other than the key size (the modulus in whole
 * 64-bit limbs) or a value that is not below the modulus or does not
 * decrypt to a leading zero byte, -EBADMSG for broken padding or
 * DigestInfo, -EKEYREJECTED for a digest that differs.
 */
/*
 * crypto/rsa.c rsa_check_payload() (6.12 and 7.3; SP 800-56B rev 2,
 * 7.1.1): the signature value must be 1 < s < n - 1.  1 when it is, 0 when
 * not, -1 when out of memory.
 */
static int rsa_payload_ok(EVP_PKEY *key, const uint8_t *s, size_t slen)
{
	BIGNUM *n = NULL, *v = BN_bin2bn(s, (int)slen, NULL);
	int ok = -1;

	if (v && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) == 1 &&
	    BN_sub_word(n, 1) == 1)
		ok = BN_cmp(v, BN_value_one()) > 0 && BN_cmp(v, n) < 0;
	ERR_clear_error();
	BN_free(v);
	BN_free(n);
	return ok;
}

static int rsa_pkcs1_verify(EVP_PKEY *key, size_t ksize, bool strict,
			    const struct pk_sig *sig, const char **why)
{
	size_t nbytes = (size_t)EVP_PKEY_get_size(key), n, pos, il, skip;
	uint8_t m[512], in[512], info[40], *b;
	EVP_PKEY_CTX *ctx;
	int ok;

	*why = "RSA signature of the wrong length for the key";
	if (sig->slen != ksize || ksize > sizeof(m) || nbytes > ksize)
		return -EINVAL;
	if (strict) {
		ok = rsa_payload_ok(key, sig->s, sig->slen);
		if (ok < 0)
			return -ENOMEM;
		*why = "RSA signature value 0, 1 or n - 1 (rsa_check_payload)";
		if (!ok)
			return -EINVAL;
	}
	/* the value, as an integer, must fit the modulus' bytes */
	skip = ksize - nbytes;
	for (pos = 0; pos < skip; pos++)
		if (sig->s[pos])
			break;
	*why = "RSA signature value not below the modulus";
	if (pos < skip)
		return -EINVAL;
	memcpy(in, sig->s + skip, nbytes);
	n = nbytes;
	ctx = EVP_PKEY_CTX_new(key, NULL);
	if (!ctx)
		return -ENOMEM;
	ok = EVP_PKEY_verify_recover_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
	     EVP_PKEY_verify_recover(ctx, m + skip, &n, in, nbytes) > 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	if (!ok || n != nbytes)
		return -EINVAL;		/* s >= n: rsa_enc() refuses */
	memset(m, 0, skip);
	/* the value fills key_size bytes and must start with a zero byte,
	 * else -EINVAL */
	*why = "RSA signature does not decrypt to a padded block";
	if (m[0] != 0x00)
		return -EINVAL;
	b = m + 1;
	n = ksize - 1;
	*why = "RSA signature with broken PKCS#1 padding";
	if (b[0] != 0x01)
		return -EBADMSG;
	for (pos = 1; pos < n && b[pos] == 0xff; pos++)
		;
	if (pos < 9 || pos == n || b[pos] != 0x00)
		return -EBADMSG;
	pos++;
	il = digest_info(sig->hash, sig->dlen, info);
	*why = "no DigestInfo for this hash in the kernel";
	if (!il)
		return -ENOPKG;
	*why = "RSA signature over another digest algorithm";
	if (n - pos < il || memcmp(b + pos, info, il) != 0)
		return -EBADMSG;
	pos += il;
	*why = "RSA signature over other data (digest mismatch)";
	if (n - pos != sig->dlen ||
	    memcmp(b + pos, sig->digest, sig->dlen) != 0)
		return -EKEYREJECTED;
	return 0;
}

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
	M(AT_SEQ),
	M_ACT(AT_INT, ecdsa_rs),
	M_ACT(AT_INT, ecdsa_rs),
	END_SEQ,
	OP(A_COMPLETE),
};

static int ecdsa_verify(EVP_PKEY *key, const struct pk_sig *sig,
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

/* Little-endian bit unpacking of FIPS 204's BitUnpack. */
static uint32_t bits_at(const uint8_t *p, size_t bit, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		v |= (uint32_t)((p[bit / 8] >> (bit % 8)) & 1) << i;
	return v;
}

/*
 * What lib/crypto/mldsa.c mldsa_verify() refuses as -EBADMSG before any
 * arithmetic: a z coefficient with |z| >= gamma1 - beta (decode_z), and a
 * hint that is not in FIPS 204's HintBitUnpack form (decode_hint_vector:
 * per polynomial, increasing indices up to a running count that never
 * falls and stays within omega; zero padding after the last).
 */
static bool mldsa_shape_ok(const struct mldsa_set *set, const uint8_t *s)
{
	const uint8_t *z = s + set->ctilde;
	const uint8_t *h = z + (size_t)set->l * 256 * set->zbits / 8;
	size_t i, n = (size_t)set->l * 256;
	unsigned idx = 0, first;

	for (i = 0; i < n; i++) {
		int32_t c = set->gamma1 -
			    (int32_t)bits_at(z, i * set->zbits, set->zbits);

		if (c >= set->gamma1 - set->beta ||
		    c <= -(set->gamma1 - set->beta))
			return false;
	}
	for (i = 0; i < set->k; i++) {
		unsigned end = h[set->omega + i];

		if (end < idx || end > set->omega)
			return false;
		first = idx;
		for (; idx < end; idx++)
			if (idx > first && h[idx - 1] >= h[idx])
				return false;
	}
	for (; idx < set->omega; idx++)
		if (h[idx])
			return false;
	return true;
}

/* crypto/mldsa.c over lib/crypto/mldsa.c: pure ML-DSA, empty context. */
static int mldsa_verify(const struct pk_key *k, const struct pk_sig *sig,
			const char **why)
{
	const struct mldsa_set *set = mldsa_set(k->algo);
	int ret = -EKEYREJECTED;

	if (!set) {
		*why = kr_why_key_algo;
		return -ENOPKG;
	}
	if (sig->slen != set->sig_len) {
		*why = "ML-DSA signature of the wrong length for its "
		       "parameter set (mldsa_verify)";
		return -EBADMSG;
	}
	if (!mldsa_shape_ok(set, sig->s)) {
		*why = "ML-DSA signature with a z coefficient out of range "
		       "or a malformed hint (mldsa_verify)";
		return -EBADMSG;
	}
	*why = "ML-DSA signature";
	if (!pk_mldsa_checkable() || !k->pkey)
		return -MS_ENOALG;
#ifdef PK_HAVE_MLDSA
	{
		EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k->pkey,
							       NULL);

		if (!ctx)
			return -ENOMEM;
		*why = "ML-DSA signature does not verify";
		if (EVP_PKEY_verify_message_init(ctx, mldsa_signature(set),
						 NULL) == 1 &&
		    EVP_PKEY_verify(ctx, sig->s, sig->slen, sig->m,
				    sig->mlen) == 1)
			ret = 0;
		EVP_PKEY_CTX_free(ctx);
		ERR_clear_error();
	}
#endif
	return ret;
}

/*
 * software_key_determine_akcipher(): the encoding and hash each
 * algorithm takes, else -EINVAL; an algorithm it does not know is
 * -ENOPKG.
 */
static int determine_akcipher(const struct pk_key *k, const struct pk_sig *sig,
			      const char **why)
{
	*why = "signature encoding or hash the key's algorithm cannot take "
	       "(software_key_determine_akcipher)";
	if (!sig->encoding)
		return -EINVAL;
	if (strcmp(k->algo, "rsa") == 0)
		return strcmp(sig->encoding, "pkcs1") == 0 ? 0 : -EINVAL;
	if (strncmp(k->algo, "ecdsa-", 6) == 0) {
		if (strcmp(sig->encoding, "x962") != 0 || !sig->hash ||
		    !sig->hash->ecdsa_ok)
			return -EINVAL;
		return 0;
	}
	if (k->mldsa_len) {
		/* v7.0: "raw", and a hash of "none" (no signed attributes)
		 * or sha512 (signed attributes) */
		if (strcmp(sig->encoding, "raw") != 0)
			return -EINVAL;
		if (!sig->hash_none &&
		    !(sig->hash && strcmp(sig->hash->name, "sha512") == 0)) {
			*why = "ML-DSA with signed attributes takes only "
			       "sha512 as the digest algorithm "
			       "(software_key_determine_akcipher)";
			return -EINVAL;
		}
		return 0;
	}
	/* software_key_determine_akcipher(): SM2 (6.1) takes "raw" with
	 * sm3, GOST "raw" with streebog256 or streebog512 */
	if (strcmp(k->algo, "sm2") == 0 || strcmp(k->algo, "ecrdsa") == 0) {
		bool sm2 = k->algo[1] == 'm';

		if (strcmp(sig->encoding, "raw") != 0 || !sig->hash ||
		    (sm2 ? strcmp(sig->hash->name, "sm3") != 0 :
		     strncmp(sig->hash->name, "streebog", 8) != 0))
			return -EINVAL;
		return 0;
	}
	*why = kr_why_key_algo;
	return -ENOPKG;
}

bool pk_algo_matches(const char *key_algo, const char *sig_algo)
{
	return strcmp(key_algo, sig_algo) == 0 ||
	       (strncmp(key_algo, "ecdsa-", 6) == 0 &&
		strcmp(sig_algo, "ecdsa") == 0);
}

/*
 * Before v5.18, software_key_determine_akcipher() named the akcipher from
 * the encoding alone: "pkcs1" is "pkcs1pad(<key algo>,<hash>)", "raw" the
 * key's algorithm, anything else -ENOPKG; nothing compared the
 * signature's algorithm with the key's.  pkcs1pad over anything but rsa
 * finds no akcipher to wrap (no SM2 or EC-RDSA akcipher is built):
 * crypto_alloc_akcipher() fails -ENOENT.
 */
static int determine_akcipher_old(const struct pk_key *k,
				  const struct pk_sig *sig, const char **why)
{
	*why = "no such akcipher in the kernel "
	       "(software_key_determine_akcipher)";
	if (!sig->encoding)
		return -ENOPKG;
	if (strcmp(sig->encoding, "pkcs1") == 0)
		return strcmp(k->algo, "rsa") == 0 ? 0 : -ENOENT;
	/* "raw", and from v5.13 "x962", name the key's own algorithm: ECDSA
	 * takes any hash there (no list before v5.18) */
	if (strcmp(sig->encoding, "x962") == 0 &&
	    strncmp(k->algo, "ecdsa-", 6) == 0)
		return 0;
	if (strcmp(sig->encoding, "raw") == 0 ||
	    strcmp(sig->encoding, "x962") == 0)
		return strcmp(k->algo, "rsa") == 0 ||
		       strncmp(k->algo, "ecdsa-", 6) == 0 ? -ENOENT :
		       determine_akcipher(k, sig, why);
	return -ENOPKG;
}

int pk_verify(const struct kr_rules *kr, const struct pk_key *k,
	      const struct pk_sig *sig, const char **why)
{
	size_t ksize;
	int ret;

	/* the signature's algorithm must be the key's; "ecdsa" matches any
	 * "ecdsa-nist-*" key (public_key.c; both checks since v5.18,
	 * 2abc9c246e05 and 590bfb57b232, so on every line from 6.1) */
	if (kr->old_pkey_algo_checks)
		ret = determine_akcipher_old(k, sig, why);
	else if (sig->pkey_algo && !pk_algo_matches(k->algo, sig->pkey_algo)) {
		*why = "the signature's algorithm is not the key's";
		return -EKEYREJECTED;
	} else {
		ret = determine_akcipher(k, sig, why);
	}
	if (ret)
		return ret;
	/* crypto_alloc_sig() on a kernel built without the algorithm (a
	 * .config without CRYPTO_ECDSA, say) fails with -ENOENT, which no
	 * caller turns into -ENOPKG */
	if (!kr_pkey_available(kr, k->algo)) {
		*why = "the kernel lacks this key type (see its .config)";
		return -ENOENT;
	}
	ret = key_usable(k, &ksize, why);
	if (ret)
		return ret;
	if (strcmp(k->algo, "rsa") == 0)
		ret = rsa_pkcs1_verify(k->pkey, ksize, kr->rsa_payload_strict,
				       sig, why);
	else if (k->mldsa_len)
		ret = mldsa_verify(k, sig, why);
	else
		ret = ecdsa_verify(k->pkey, sig, why);
	if (!ret)
		*why = NULL;
	return ret;
}

static int check_on(const struct kr_rules *kr, const uint8_t *der,
		    size_t len, const char **why)
{
	struct pk_key k;
	size_t ksize;
	int ret;

	ret = pk_parse_spki(kr, der, len, &k, why);
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
	ret = key_usable(&k, &ksize, why);
	if (!ret && !kr_pkey_available(kr, k.algo)) {
		*why = "the kernel lacks this key type (see its .config)";
		ret = -ENOENT;
	}
	EVP_PKEY_free(k.pkey);
	return ret;
}

int pk_check_spki(const struct kr_rules *kr, const uint8_t *der, size_t len,
		  const char **why)
{
	int ret = 0;

	*why = NULL;
	if (kr)
		return check_on(kr, der, len, why);
	/* no line named: only what every line refuses, in the newest
	 * line's words */
	for (int l = KR_NLINES - 1; l >= 0; l--) {
		const char *w;
		int r = check_on(kr_get(l), der, len, &w);

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

int pk_check_pkey(const struct kr_rules *kr, EVP_PKEY *key, const char **why)
{
	unsigned char *der = NULL;
	int len, ret;

	*why = NULL;
	len = i2d_PUBKEY(key, &der);
	if (len <= 0) {
		ERR_clear_error();
		*why = kr_why_key_algo;
		return -ENOPKG;
	}
	ret = pk_check_spki(kr, der, (size_t)len, why);
	OPENSSL_free(der);
	return ret;
}
