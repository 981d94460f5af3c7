// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/decoder.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>

#include "base/cert_file.h"
#include "base/infile.h"
#include "sign-file/keys.h"
#include "sign-file/pin.h"
#include "sign-file/pkcs11/load.h"
#include "sign-file/pkcs11/token.h"
#include "sign-file/rsa_import.h"

/* Limits well above any real key or certificate file. */
#define KEY_FILE_MAX (1u << 20)

const char *ms_key_problem_str(enum ms_key_problem p)
{
	switch (p) {
	case MS_KEY_OK:
		return "ok";
	case MS_KEY_UNREADABLE:
		return "cannot read";
	case MS_KEY_NOT_A_KEY:
		return "no private key found (expected PEM or DER: PKCS#1, "
		       "PKCS#8 or PKCS#12)";
	case MS_KEY_NEED_PIN:
		return "private key is encrypted (give its passphrase with "
		       "--pin-file, --pin-fd or KBUILD_SIGN_PIN)";
	case MS_KEY_BAD_PIN:
		return "cannot decrypt private key (wrong passphrase)";
	case MS_KEY_NOT_A_CERT:
		return cert_file_strerror(-EBADMSG);
	case MS_KEY_MISMATCH:
		return "private key does not match the certificate";
	case MS_KEY_PIN_UNREADABLE:
		return "cannot read the PIN or passphrase";
	case MS_KEY_P11_URI:
		return "malformed pkcs11: URI (RFC 7512)";
	case MS_KEY_P11_PIN_IN_URI:
		return "pin-value in a pkcs11: URI is refused: it would show "
		       "on the command line (use --pin-file or --pin-fd)";
	case MS_KEY_P11_MODULE_IN_PATH:
		return "module-path goes in the query part of a pkcs11: URI "
		       "(\"...?module-path=PATH\", RFC 7512), or use "
		       "--pkcs11-module PATH";
	case MS_KEY_P11_UNAVAILABLE:
		return "no PKCS#11 provider or engine available (install "
		       "pkcs11-provider, or libengine-pkcs11-openssl)";
	case MS_KEY_P11_PROVIDER:
		return "cannot load the OpenSSL provider named by --provider";
	case MS_KEY_P11_MODULE:
		return "cannot load the PKCS#11 module (check the URI's "
		       "module-path or --pkcs11-module)";
	case MS_KEY_P11_TOKEN:
		return "PKCS#11 token not found (no initialised token "
		       "matches the URI)";
	case MS_KEY_P11_NEED_PIN:
		return "PKCS#11 token needs a PIN (give it with --pin-file, "
		       "--pin-fd or KBUILD_SIGN_PIN)";
	case MS_KEY_P11_LOGIN:
		return "PKCS#11 login refused (wrong PIN)";
	case MS_KEY_P11_LOCKED:
		return "PKCS#11 login refused: the user PIN is locked";
	case MS_KEY_P11_KEY:
		return "PKCS#11 private key not found on the token (check "
		       "object= and id= in the URI)";
	case MS_KEY_P11_CERT:
		return "PKCS#11 certificate not found on the token (check "
		       "object= and id= in the URI)";
	case MS_KEY_P11_LOAD:
		return "the PKCS#11 provider or engine could not load the "
		       "object";
	}
	return "key problem";
}

/* Offer the passphrase once: a wrong PIN must not be retried (a token
 * could lock), which is also what the kernel's pem_pw_cb does. */
static int pin_cb(char *buf, int size, int rwflag, void *u)
{
	struct ms_key_pin_state *st = u;
	size_t n;

	(void)rwflag;
	st->asked++;
	if (!st->pin || st->asked > 1)
		return -1;
	n = strlen(st->pin);
	if (n >= (size_t)size)
		return -1;
	memcpy(buf, st->pin, n);
	return (int)n;
}

int ms_key_pin_cb(char *buf, int size, int rwflag, void *u)
{
	return pin_cb(buf, size, rwflag, u);
}

static int is_pem(const uint8_t *buf, size_t len)
{
	static const char tag[] = "-----BEGIN ";

	return len >= sizeof(tag) - 1 &&
	       memmem(buf, len, tag, sizeof(tag) - 1) != NULL;
}

/* PKCS#12: key and certificate from one file; the MAC tells a wrong
 * passphrase from a damaged file. */
static int load_p12(PKCS12 *p12, const char *pin, int need_key,
		    EVP_PKEY **key, X509 **cert, enum ms_key_problem *why)
{
	X509 *x = NULL;

	if (PKCS12_mac_present(p12)) {
		int ok = pin ? PKCS12_verify_mac(p12, pin, -1)
			     : (PKCS12_verify_mac(p12, NULL, 0) ||
				PKCS12_verify_mac(p12, "", 0));

		if (!ok) {
			*why = pin ? MS_KEY_BAD_PIN : MS_KEY_NEED_PIN;
			return -EINVAL;
		}
	}
	if (!PKCS12_parse(p12, pin, key, &x, NULL)) {
		*why = pin ? MS_KEY_BAD_PIN : MS_KEY_NEED_PIN;
		return -EINVAL;
	}
	if (!*key && need_key) {
		X509_free(x);
		*why = MS_KEY_NOT_A_KEY;
		return -EINVAL;
	}
	if (cert)
		*cert = x;
	else
		X509_free(x);
	*why = MS_KEY_OK;
	return 0;
}

/* One DER key by the one decoder its form needs. */
static EVP_PKEY *decode_der_as(const unsigned char *der, size_t len,
			       const char *structure, const char *keytype)
{
	OSSL_DECODER_CTX *dctx;
	EVP_PKEY *key = NULL;

	dctx = OSSL_DECODER_CTX_new_for_pkey(&key, "DER", structure, keytype,
					     EVP_PKEY_KEYPAIR, NULL, NULL);
	if (!dctx)
		return NULL;
	if (!OSSL_DECODER_from_data(dctx, &der, &len)) {
		EVP_PKEY_free(key);
		key = NULL;
	}
	OSSL_DECODER_CTX_free(dctx);
	return key;
}

/* An unencrypted PKCS#8 PrivateKeyInfo, its type named by its OID. */
static EVP_PKEY *decode_p8(const unsigned char *der, size_t len)
{
	const unsigned char *p = der, *inner;
	PKCS8_PRIV_KEY_INFO *p8;
	const ASN1_OBJECT *alg;
	EVP_PKEY *key = NULL;
	char oid[80];
	int ok, inner_len;

	p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
	if (!p8)
		return NULL;
	ok = PKCS8_pkey_get0(&alg, &inner, &inner_len, NULL, p8) &&
	     OBJ_obj2txt(oid, sizeof(oid), alg, 1) > 0;
	/* rsaEncryption wraps a PKCS#1 RSAPrivateKey */
	if (ok && OBJ_obj2nid(alg) == NID_rsaEncryption && inner_len > 0)
		key = ms_rsa_import_pkcs1(inner, (size_t)inner_len);
	PKCS8_PRIV_KEY_INFO_free(p8);
	if (key || !ok)
		return key;
	return decode_der_as(der, len, "PrivateKeyInfo", oid);
}

/*
 * The usual key file, an unencrypted PKCS#8, PKCS#1 or SEC1 PEM block
 * (or PKCS#8 DER), decoded by the one decoder it needs.  The general way
 * (PEM_read_bio_PrivateKey, OSSL_DECODER without a structure or type)
 * assembles a chain of every decoder for every key type, a visible part
 * of a single signing run.  NULL for anything else, or on any failure:
 * the caller then goes the general way, which also words the errors.
 */
static EVP_PKEY *load_key_fast(const uint8_t *buf, size_t len, int pem)
{
	char *name = NULL, *header = NULL;
	unsigned char *der = NULL;
	EVP_PKEY *key = NULL;
	long dlen;
	BIO *b;

	ERR_set_mark();
	if (!pem) {
		key = decode_p8(buf, len);
		goto out;
	}
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b)
		goto out;
	/* The first key block, as PEM_read_bio_PrivateKey skips others
	 * (a certificate before the key). */
	while (PEM_read_bio(b, &name, &header, &der, &dlen)) {
		/* Proc-Type: 4,ENCRYPTED in a PKCS#1 or SEC1 block */
		int plain = !header || !*header;

		if (!strcmp(name, "PRIVATE KEY"))
			key = decode_p8(der, (size_t)dlen);
		else if (plain && !strcmp(name, "RSA PRIVATE KEY") &&
			 !(key = ms_rsa_import_pkcs1(der, (size_t)dlen)))
			key = decode_der_as(der, (size_t)dlen, "type-specific",
					    "RSA");
		else if (plain && !strcmp(name, "EC PRIVATE KEY"))
			key = decode_der_as(der, (size_t)dlen, "type-specific",
					    "EC");
		else if (!strstr(name, "PRIVATE KEY"))
			goto next;
		/* A key block, decoded or not: the general way decides. */
		OPENSSL_clear_free(der, dlen);
		der = NULL;
		break;
next:
		OPENSSL_free(name);
		OPENSSL_free(header);
		OPENSSL_clear_free(der, dlen);
		name = header = NULL;
		der = NULL;
	}
	OPENSSL_free(name);
	OPENSSL_free(header);
	BIO_free(b);
out:
	ERR_pop_to_mark();
	return key;
}

static int load_key_buf(const uint8_t *buf, size_t len, const char *pin,
			EVP_PKEY **key, X509 **cert, enum ms_key_problem *why)
{
	struct ms_key_pin_state st = { .pin = pin };
	const unsigned char *p = buf;
	OSSL_DECODER_CTX *dctx;
	int pem = is_pem(buf, len);
	PKCS12 *p12;
	BIO *b;

	if (!pem && (p12 = d2i_PKCS12(NULL, &p, (long)len)) != NULL) {
		int err = load_p12(p12, pin, 1, key, cert, why);

		PKCS12_free(p12);
		return err;
	}
	ERR_clear_error();
	*key = load_key_fast(buf, len, pem);
	if (*key) {
		*why = MS_KEY_OK;
		return 0;
	}
	if (pem) {
		/* PEM_read_bio_PrivateKey skips other blocks (a certificate
		 * before the key) and knows every PEM key form. */
		b = BIO_new_mem_buf(buf, (int)len);
		if (!b) {
			*why = MS_KEY_UNREADABLE;
			return -ENOMEM;
		}
		*key = PEM_read_bio_PrivateKey(b, NULL, pin_cb, &st);
		BIO_free(b);
	} else {
		dctx = OSSL_DECODER_CTX_new_for_pkey(key, "DER", NULL, NULL,
						     EVP_PKEY_KEYPAIR, NULL,
						     NULL);
		if (!dctx) {
			*why = MS_KEY_UNREADABLE;
			return -ENOMEM;
		}
		OSSL_DECODER_CTX_set_pem_password_cb(dctx, pin_cb, &st);
		p = buf;
		if (!OSSL_DECODER_from_data(dctx, &p, &len))
			*key = NULL;
		OSSL_DECODER_CTX_free(dctx);
	}
	if (*key) {
		*why = MS_KEY_OK;
		return 0;
	}
	if (st.asked)
		*why = st.pin ? MS_KEY_BAD_PIN : MS_KEY_NEED_PIN;
	else
		*why = MS_KEY_NOT_A_KEY;
	return -EINVAL;
}

int ms_key_load_private(const char *spec, const struct ms_key_opts *o,
			struct ms_p11_load_token **tok, EVP_PKEY **key, X509 **cert,
			enum ms_key_problem *why)
{
	const char *pin;
	uint8_t *buf;
	size_t len;
	int err;

	*key = NULL;
	if (cert)
		*cert = NULL;
	err = ms_pin_get(&pin);
	if (err) {
		*why = MS_KEY_PIN_UNREADABLE;
		return err;
	}
	if (ms_token_is_uri(spec))
		return ms_p11_load_key(spec, o, pin, tok, key, why);
	err = infile_read_all(spec, KEY_FILE_MAX, &buf, &len);
	if (err) {
		*why = MS_KEY_UNREADABLE;
		return err;
	}
	err = load_key_buf(buf, len, pin, key, cert, why);
	OPENSSL_cleanse(buf, len);
	free(buf);
	return err;
}

int ms_key_load_cert(const char *path, X509 **cert, enum ms_key_problem *why)
{
	int err = cert_file_read(path, cert);

	if (err == -EBADMSG) {
		*why = MS_KEY_NOT_A_CERT;
		return -EINVAL;
	}
	*why = err ? MS_KEY_UNREADABLE : MS_KEY_OK;
	return err;
}

int ms_key_load_cert_spec(const char *spec, const struct ms_key_opts *o,
			  struct ms_p11_load_token **tok, X509 **cert,
			  enum ms_key_problem *why)
{
	const unsigned char *p;
	EVP_PKEY *key = NULL;
	const char *pin;
	PKCS12 *p12;
	uint8_t *buf;
	size_t len;
	int err;

	*cert = NULL;
	if (ms_token_is_uri(spec)) {
		err = ms_pin_get(&pin);
		if (err) {
			*why = MS_KEY_PIN_UNREADABLE;
			return err;
		}
		return ms_p11_load_cert(spec, o, pin, tok, cert, why);
	}
	err = ms_key_load_cert(spec, cert, why);
	if (err != -EINVAL)
		return err;
	/* Not X.509: perhaps the certificate inside a PKCS#12. */
	err = infile_read_all(spec, KEY_FILE_MAX, &buf, &len);
	if (err) {
		*why = MS_KEY_UNREADABLE;
		return err;
	}
	p = buf;
	p12 = d2i_PKCS12(NULL, &p, (long)len);
	OPENSSL_cleanse(buf, len);
	free(buf);
	if (!p12) {
		ERR_clear_error();
		*why = MS_KEY_NOT_A_CERT;
		return -EINVAL;
	}
	err = ms_pin_get(&pin);
	if (err) {
		PKCS12_free(p12);
		*why = MS_KEY_PIN_UNREADABLE;
		return err;
	}
	err = load_p12(p12, pin, 0, &key, cert, why);
	PKCS12_free(p12);
	EVP_PKEY_free(key);
	if (!err && !*cert) {
		*why = MS_KEY_NOT_A_CERT;
		return -EINVAL;
	}
	return err;
}

int ms_key_matches_cert(EVP_PKEY *key, X509 *cert)
{
	EVP_PKEY *pub = X509_get0_pubkey(cert);

	if (pub && EVP_PKEY_eq(key, pub) == 1)
		return 0;
	ERR_clear_error();
	return -EKEYREJECTED;
}

/* FIPS 204 id-ml-dsa-44/65/87 (NIST CSOR sigAlgs 17, 18, 19). */
static int mldsa_set_of(const ASN1_OBJECT *alg)
{
	static const char prefix[] = "2.16.840.1.101.3.4.3.";
	char oid[80];

	if (!alg || OBJ_obj2txt(oid, sizeof(oid), alg, 1) <= 0 ||
	    strncmp(oid, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	if (strcmp(oid + sizeof(prefix) - 1, "17") == 0)
		return 44;
	if (strcmp(oid + sizeof(prefix) - 1, "18") == 0)
		return 65;
	if (strcmp(oid + sizeof(prefix) - 1, "19") == 0)
		return 87;
	return 0;
}

/* An unencrypted PKCS#8 key (PEM "PRIVATE KEY" or DER): its OID. */
static int mldsa_set_of_key(const uint8_t *buf, size_t len)
{
	const unsigned char *p = buf;
	PKCS8_PRIV_KEY_INFO *p8 = NULL;
	const ASN1_OBJECT *alg = NULL;
	int set = 0;
	BIO *b;

	if (is_pem(buf, len)) {
		b = BIO_new_mem_buf(buf, (int)len);
		if (b)
			p8 = PEM_read_bio_PKCS8_PRIV_KEY_INFO(b, NULL, NULL,
							      NULL);
		BIO_free(b);
	} else {
		p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
	}
	if (p8 && PKCS8_pkey_get0(&alg, NULL, NULL, NULL, p8))
		set = mldsa_set_of(alg);
	PKCS8_PRIV_KEY_INFO_free(p8);
	return set;
}

int ms_key_mldsa_named(const char *key, const char *cert)
{
	ASN1_OBJECT *alg = NULL;
	enum ms_key_problem why;
	uint8_t *buf;
	size_t len;
	X509 *x;
	int set = 0;

	ERR_set_mark();
	if (!ms_token_is_uri(key) &&
	    infile_read_all(key, KEY_FILE_MAX, &buf, &len) == 0) {
		set = mldsa_set_of_key(buf, len);
		OPENSSL_cleanse(buf, len);
		free(buf);
	}
	/* A certificate parses whatever its key's algorithm. */
	if (!set && cert && !ms_token_is_uri(cert) &&
	    ms_key_load_cert(cert, &x, &why) == 0) {
		if (X509_PUBKEY_get0_param(&alg, NULL, NULL, NULL,
					   X509_get_X509_PUBKEY(x)))
			set = mldsa_set_of(alg);
		X509_free(x);
	}
	ERR_pop_to_mark();
	return set;
}

int ms_key_mldsa_signing(void)
{
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
	EVP_SIGNATURE *s;

	/* Built for it; the library run with must have it too (a 3.5 build
	 * run against an older libcrypto.so.3 would not). */
	ERR_set_mark();
	s = EVP_SIGNATURE_fetch(NULL, "ML-DSA-65", NULL);
	ERR_pop_to_mark();
	EVP_SIGNATURE_free(s);
	return s != NULL;
#else
	return 0;
#endif
}

int ms_key_is_mldsa(EVP_PKEY *key)
{
	return EVP_PKEY_is_a(key, "ML-DSA-44") ||
	       EVP_PKEY_is_a(key, "ML-DSA-65") ||
	       EVP_PKEY_is_a(key, "ML-DSA-87");
}
