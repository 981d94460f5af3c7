// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include "fileio.h"
#include "keys.h"

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
		return "no PEM private key found (expected a PEM file with a "
		       "PRIVATE KEY block)";
	case MS_KEY_NEED_PIN:
		return "private key is encrypted (set KBUILD_SIGN_PIN to its "
		       "passphrase)";
	case MS_KEY_BAD_PIN:
		return "cannot decrypt private key (KBUILD_SIGN_PIN is not its "
		       "passphrase)";
	case MS_KEY_NOT_A_CERT:
		return "not an X.509 certificate (expected DER or PEM)";
	case MS_KEY_MISMATCH:
		return "private key does not match the certificate";
	}
	return "key problem";
}

struct pin_state {
	const char *pin;
	int asked;
};

/* Offer KBUILD_SIGN_PIN once: a wrong PIN must not be retried (a token
 * could lock), which is also what the kernel's pem_pw_cb does. */
static int pin_cb(char *buf, int size, int rwflag, void *u)
{
	struct pin_state *st = u;
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

int ms_load_private_key(const char *path, EVP_PKEY **key,
			enum ms_key_problem *why)
{
	struct pin_state st = { .pin = getenv("KBUILD_SIGN_PIN") };
	uint8_t *buf;
	size_t len;
	BIO *b;
	int err;

	*key = NULL;
	err = ms_read_all(path, KEY_FILE_MAX, &buf, &len);
	if (err) {
		*why = MS_KEY_UNREADABLE;
		return err;
	}
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b) {
		free(buf);
		*why = MS_KEY_UNREADABLE;
		return -ENOMEM;
	}
	*key = PEM_read_bio_PrivateKey(b, NULL, pin_cb, &st);
	BIO_free(b);
	OPENSSL_cleanse(buf, len);
	free(buf);
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

X509 *ms_cert_from_buf(const uint8_t *buf, size_t len)
{
	const unsigned char *p = buf;
	X509 *x = NULL;
	BIO *b;

	if (len >= 2 && buf[0] == 0x30 && buf[1] >= 0x81 && buf[1] <= 0x84)
		return d2i_X509(NULL, &p, (long)len);
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b)
		return NULL;
	x = PEM_read_bio_X509(b, NULL, NULL, NULL);
	BIO_free(b);
	return x;
}

int ms_load_cert(const char *path, X509 **cert, enum ms_key_problem *why)
{
	uint8_t *buf;
	size_t len;
	int err;

	*cert = NULL;
	err = ms_read_all(path, KEY_FILE_MAX, &buf, &len);
	if (err) {
		*why = MS_KEY_UNREADABLE;
		return err;
	}
	*cert = ms_cert_from_buf(buf, len);
	free(buf);
	if (!*cert) {
		*why = MS_KEY_NOT_A_CERT;
		return -EINVAL;
	}
	*why = MS_KEY_OK;
	return 0;
}

int ms_key_matches_cert(EVP_PKEY *key, X509 *cert)
{
	EVP_PKEY *pub = X509_get0_pubkey(cert);

	if (pub && EVP_PKEY_eq(key, pub) == 1)
		return 0;
	ERR_clear_error();
	return -EKEYREJECTED;
}

void ms_pkey_describe(EVP_PKEY *pkey, char *buf, size_t len)
{
	char group[64];
	size_t glen = 0;

	if (EVP_PKEY_is_a(pkey, "RSA")) {
		snprintf(buf, len, "RSA-%d", EVP_PKEY_get_bits(pkey));
	} else if (EVP_PKEY_is_a(pkey, "EC")) {
		if (EVP_PKEY_get_utf8_string_param(pkey,
				OSSL_PKEY_PARAM_GROUP_NAME, group,
				sizeof(group), &glen) != 1)
			strcpy(group, "unknown");
		/* prime256v1 and secp384r1 are the NIST P-256/P-384 curves */
		if (!strcmp(group, "prime256v1"))
			strcpy(group, "P256");
		else if (!strcmp(group, "secp384r1"))
			strcpy(group, "P384");
		else if (!strcmp(group, "secp521r1"))
			strcpy(group, "P521");
		else if (!strcmp(group, "prime192v1"))
			strcpy(group, "P192");
		snprintf(buf, len, "ECDSA-%s", group);
	} else {
		snprintf(buf, len, "%s", EVP_PKEY_get0_type_name(pkey) ?
					   EVP_PKEY_get0_type_name(pkey) : "unknown");
	}
	ERR_clear_error();
}
