// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>


#include "kernel/asn1.h"
#include "kernel/public_key_parts.h"


int pk_key_make(const struct rules_rules *kr, const uint8_t *oid, size_t oid_len,
		const uint8_t *params, size_t params_len, const uint8_t *bits,
		size_t bits_len, struct pk_key *k, const char **why)
{
	const struct rules_key_algo *ka;
	const struct rules_curve *cv = NULL;
	char o[64], po[64];

	memset(k, 0, sizeof(*k));
	asn1_oid_name(oid, oid_len, o, sizeof(o));
	/* x509_extract_key_data(), at the BIT STRING */
	ka = rules_key_algo(o);
	if (!ka || !rules_on(kr, ka->on)) {
		*why = ka ? ka->absent : rules_why_key_algo;
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
		if (!params || params_len < 3 || params[0] != ASN1_TAG_OID ||
		    params[1] != params_len - 2) {
			*why = "unparsable EC parameters";
			return -EBADMSG;
		}
		asn1_oid_name(params + 2, params_len - 2, po, sizeof(po));
		cv = rules_curve(po);
		if (!cv || !rules_on(kr, cv->on)) {
			*why = cv ? cv->absent : rules_why_curve;
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
			k->pkey = pk_mldsa_pkey(k->algo, k->raw, k->raw_len);
	} else if (cv) {
		k->pkey = pk_spki_pkey(oid, oid_len, params, params_len, bits,
				    bits_len);
	} else if (strcmp(k->algo, "rsa") == 0) {
		pk_rsa_pkey(k, oid, oid_len);
	}
	/* GOST and SM2 keys stay raw bytes: only a signature of their own
	 * algorithm gets to them (pk_verify) */
	*why = NULL;
	return 0;
}

/*
 * The set_pub_key() step: what the kernel refuses of a key before it
 * looks at any signature.  *key_size gets the RSA key size the signature
 * must match.
 */
int pk_key_usable(const struct pk_key *k, size_t *key_size,
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
		return rules_rsa_modulus(((size_t)EVP_PKEY_get_bits(k->pkey) + 7) /
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
	*why = rules_why_key_algo;
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

int pk_verify(const struct rules_rules *kr, const struct pk_key *k,
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
	if (!rules_pkey_available(kr, k->algo)) {
		*why = "the kernel lacks this key type (see its .config)";
		return -ENOENT;
	}
	ret = pk_key_usable(k, &ksize, why);
	if (ret)
		return ret;
	if (strcmp(k->algo, "rsa") == 0)
		ret = pk_rsa_pkcs1_verify(k->pkey, ksize, kr->rsa_payload_strict,
				       sig, why);
	else if (k->mldsa_len)
		ret = pk_mldsa_verify(k, sig, why);
	else
		ret = pk_ecdsa_verify(k->pkey, sig, why);
	if (!ret)
		*why = NULL;
	return ret;
}
