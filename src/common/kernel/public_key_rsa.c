// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

#include "kernel/asn1.h"
#include "kernel/public_key_parts.h"

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
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_INT, rsa_get_n),
	M_ACT(ASN1_TAG_INT, rsa_get_e),
	END_SEQ,
	OP(ASN1_OP_COMPLETE),
};

/* An unsigned big-endian magnitude as a DER INTEGER at out; its size. */
static size_t der_uint(uint8_t *out, const uint8_t *v, size_t len)
{
	size_t h, pad;

	while (len > 1 && v[0] == 0)
		v++, len--;
	pad = v[0] & 0x80 ? 1 : 0;
	h = pk_der_hdr(out, ASN1_TAG_INT, len + pad);
	if (pad)
		out[h] = 0;
	memcpy(out + h + pad, v, len);
	return h + pad + len;
}

/* The RSA key the kernel would set from the key bits: its errors kept in
 * k->rsa_err for public_key_verify_signature() to return */
void pk_rsa_pkey(struct pk_key *k, const uint8_t *oid, size_t oid_len)
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
	n = 1 + pk_der_hdr(bits + 1, ASN1_TAG_SEQ, ints_len);
	memcpy(bits + n, ints, ints_len);
	n += ints_len;
	k->pkey = pk_spki_pkey(oid, oid_len, NULL, 0, bits, n);
	free(ints);
}


/* The DER DigestInfo prefix for a hash: SEQ { SEQ { OID, NULL }, OCTET STRING
 * } */
static size_t rsa_digest_info(const struct rules_hash *h, size_t dlen, uint8_t *out)
{
	size_t n;
	const uint8_t *oid = rules_hash_oid_der(h, &n);

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

int pk_rsa_pkcs1_verify(EVP_PKEY *key, size_t ksize, bool strict,
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
	il = rsa_digest_info(sig->hash, sig->dlen, info);
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
