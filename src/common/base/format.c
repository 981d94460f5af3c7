// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "base/format.h"

char *format_hex(const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(len * 2 + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[len * 2] = '\0';
	return s;
}

void format_hex_to(char *buf, size_t size, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (!size)
		return;
	for (i = 0; i < len && 2 * i + 2 < size; i++) {
		buf[2 * i] = digits[p[i] >> 4];
		buf[2 * i + 1] = digits[p[i] & 15];
	}
	buf[2 * i] = '\0';
}

void format_serial(char *buf, size_t size, const uint8_t *p, size_t len)
{
	while (len > 1 && p[0] == 0) {
		p++;
		len--;
	}
	format_hex_to(buf, size, p, len);
}

/* Append n bytes of text to buf (length *at), control bytes as \xHH. */
static void put_text(char *buf, size_t size, size_t *at, const void *text,
		     size_t n)
{
	const unsigned char *t = text;

	for (size_t i = 0; i < n; i++) {
		char esc[5];
		size_t k = 1;

		if (t[i] < 0x20 || t[i] == 0x7f)
			k = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", t[i]);
		else
			esc[0] = (char)t[i];
		if (*at + k >= size)
			break;
		memcpy(buf + *at, esc, k);
		*at += k;
	}
	buf[*at] = '\0';
}

/* An attribute's value: BMPString and the like as UTF-8; failing that,
 * the bytes. */
static void put_value(char *buf, size_t size, size_t *at,
		      const ASN1_STRING *v)
{
	unsigned char *utf8 = NULL;
	int ulen = ASN1_STRING_to_UTF8(&utf8, v);

	if (ulen >= 0) {
		put_text(buf, size, at, utf8, (size_t)ulen);
		OPENSSL_free(utf8);
	} else {
		ERR_clear_error();
		put_text(buf, size, at, ASN1_STRING_get0_data(v),
			 (size_t)ASN1_STRING_length(v));
	}
}

/* The Name's SEQUENCE rebuilt around its content, for d2i_X509_NAME. */
static X509_NAME *name_from_content(const uint8_t *p, size_t len)
{
	uint8_t hdr[6];
	size_t h = 0;
	unsigned char *der;
	const unsigned char *q;
	X509_NAME *n = NULL;

	if (len > 0xffffff)
		return NULL;
	hdr[h++] = 0x30;
	if (len < 0x80) {
		hdr[h++] = (uint8_t)len;
	} else {
		int bytes = len > 0xffff ? 3 : len > 0xff ? 2 : 1;

		hdr[h++] = (uint8_t)(0x80 | bytes);
		for (int b = bytes - 1; b >= 0; b--)
			hdr[h++] = (uint8_t)(len >> (8 * b));
	}
	der = malloc(h + len);
	if (!der)
		return NULL;
	memcpy(der, hdr, h);
	memcpy(der + h, p, len);
	q = der;
	n = d2i_X509_NAME(NULL, &q, (long)(h + len));
	if (n && q != der + h + len) {
		X509_NAME_free(n);
		n = NULL;
	}
	free(der);
	return n;
}

void format_name(char *buf, size_t size, const uint8_t *p, size_t len)
{
	X509_NAME *n;
	size_t at = 0;

	if (!size)
		return;
	buf[0] = '\0';
	n = name_from_content(p, len);
	if (!n) {
		ERR_clear_error();
		if (size > 1) {
			buf[at++] = '#';
			format_hex_to(buf + at, size - at, p, len);
		}
		return;
	}
	for (int i = 0; i < X509_NAME_entry_count(n); i++) {
		X509_NAME_ENTRY *e = X509_NAME_get_entry(n, i);
		const ASN1_OBJECT *obj = X509_NAME_ENTRY_get_object(e);
		const ASN1_STRING *v = X509_NAME_ENTRY_get_data(e);
		int nid = OBJ_obj2nid(obj);
		char key[80];

		if (nid != NID_undef)
			snprintf(key, sizeof(key), "%s", OBJ_nid2sn(nid));
		else
			OBJ_obj2txt(key, sizeof(key), obj, 1);
		if (i)
			put_text(buf, size, &at, ", ", 2);
		put_text(buf, size, &at, key, strlen(key));
		put_text(buf, size, &at, "=", 1);
		put_value(buf, size, &at, v);
	}
	X509_NAME_free(n);
}

int format_signer(char *buf, size_t size, const uint8_t *p, size_t len)
{
	X509_NAME *n = name_from_content(p, len);
	X509_NAME_ENTRY *e = NULL;
	size_t at = 0;
	int count;

	if (size)
		buf[0] = '\0';
	if (!n) {
		ERR_clear_error();
		return -EINVAL;
	}
	/* kmod's loop stops at the CN, or ends on the last entry */
	count = X509_NAME_entry_count(n);
	for (int i = 0; i < count; i++) {
		e = X509_NAME_get_entry(n, i);
		if (OBJ_obj2nid(X509_NAME_ENTRY_get_object(e)) ==
		    NID_commonName)
			break;
	}
	if (!e) {
		X509_NAME_free(n);
		return -EINVAL;
	}
	put_value(buf, size, &at, X509_NAME_ENTRY_get_data(e));
	X509_NAME_free(n);
	return 0;
}

void format_hex_kmod(FILE *f, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		fprintf(f, "%02X", p[i]);
		if (i + 1 == len)
			break;
		fputs((i + 1) % 20 == 0 ? ":\n\t\t" : ":", f);
	}
}

void format_pkey(EVP_PKEY *pkey, char *buf, size_t len)
{
	char group[64];
	size_t glen = 0;

	/* An embedded certificate's key may not decode at all (found by
	 * fuzz_describe): describe it, don't dereference it. */
	if (!pkey) {
		snprintf(buf, len, "undecodable key");
		ERR_clear_error();
		return;
	}
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

/*
 * A path as one line of diagnostics: control bytes (a newline in a file
 * name) become \ooo, so one entry is one line and cannot fake another.
 * Other bytes, non-UTF-8 ones included, are kept for grep.  Malloc'd.
 */
char *format_one_line(const char *path)
{
	size_t n = strlen(path), o = 0;
	char *s = malloc(4 * n + 1);

	if (!s)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			o += (size_t)sprintf(s + o, "\\%03o", *p);
		else
			s[o++] = (char)*p;
	}
	s[o] = 0;
	return s;
}
