// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/cms.h>
#include <openssl/err.h>

#include "base/format.h"
#include "module/sig_describe.h"

const char *sig_describe_id_type_name(unsigned id_type)
{
	/* kmod's pkey_id_type names (libkmod-signature.c) */
	static const char *const names[] = { "PGP", "X509", "PKCS#7" };

	return id_type < 3 ? names[id_type] : NULL;
}

static uint8_t *dup_bytes(const uint8_t *p, size_t len)
{
	uint8_t *d = malloc(len ? len : 1);

	if (d && len)
		memcpy(d, p, len);
	return d;
}

/* The content octets of a Name's DER: past its SEQUENCE header. */
static int name_content(const X509_NAME *name, const uint8_t **p,
			size_t *len)
{
	const unsigned char *der;
	size_t der_len, hdr;

	if (!X509_NAME_get0_der(name, &der, &der_len) || der_len < 2) {
		ERR_clear_error();
		return -EINVAL;
	}
	hdr = der[1] < 0x80 ? 2 : 2 + (der[1] & 0x7f);
	if (hdr > der_len)
		return -EINVAL;
	*p = der + hdr;
	*len = der_len - hdr;
	return 0;
}

/* A Name in base/format's one spelling, malloc'd. */
static char *name_text(const X509_NAME *name)
{
	const uint8_t *p;
	size_t len;
	char buf[1024];

	if (name_content(name, &p, &len))
		return NULL;
	format_name(buf, sizeof(buf), p, len);
	return strdup(buf);
}

/* kmod's "signer" of a Name, malloc'd; NULL when it has none. */
static char *signer_text(const X509_NAME *name)
{
	const uint8_t *p;
	size_t len;
	char buf[512];

	if (name_content(name, &p, &len) ||
	    format_signer(buf, sizeof(buf), p, len))
		return NULL;
	return strdup(buf);
}

static void fill_serial(struct sig_describe_signer *sd, const ASN1_INTEGER *sno)
{
	BIGNUM *bn = ASN1_INTEGER_to_BN(sno, NULL);
	int n;

	if (!bn)
		return;
	/* BN_bn2bin: magnitude without leading zeros, as kmod prints it */
	n = BN_num_bytes(bn);
	sd->serial = malloc(n ? (size_t)n : 1);
	if (sd->serial)
		sd->serial_len = (size_t)BN_bn2bin(bn, sd->serial);
	BN_free(bn);
}

static void describe_cert(struct sig_describe_signer *sd, X509 *x, const char *from)
{
	format_pkey(X509_get0_pubkey(x), sd->key, sizeof(sd->key));
	sd->cert_from = from;
	sd->subject = name_text(X509_get_subject_name(x));
	sd->subject_cn = signer_text(X509_get_subject_name(x));
	sd->cert_issuer = name_text(X509_get_issuer_name(x));
	sd->cert_issuer_cn = signer_text(X509_get_issuer_name(x));
}

/* FIPS 204 id-ml-dsa-44/65/87: NIST sigAlgs 17, 18, 19. */
static int mldsa_set(const char *oid)
{
	static const char prefix[] = "2.16.840.1.101.3.4.3.";
	static const int sets[] = { 44, 65, 87 };

	if (strncmp(oid, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	for (int i = 0; i < 3; i++) {
		char n[12];

		snprintf(n, sizeof(n), "%d", 17 + i);
		if (strcmp(oid + sizeof(prefix) - 1, n) == 0)
			return sets[i];
	}
	return 0;
}

/* 1 when cert is this signer's. */
static int fill_signer(struct sig_describe_signer *sd, CMS_SignerInfo *si,
			STACK_OF(X509) *embedded, X509 *cert,
			const char *cert_path)
{
	ASN1_OCTET_STRING *keyid = NULL, *sig;
	X509_NAME *issuer = NULL;
	ASN1_INTEGER *sno = NULL;
	X509_ALGOR *dig, *sigalg;

	CMS_SignerInfo_get0_signer_id(si, &keyid, &issuer, &sno);
	if (keyid) {
		sd->by_skid = 1;
		sd->skid = dup_bytes(ASN1_STRING_get0_data(keyid),
				     (size_t)ASN1_STRING_length(keyid));
		sd->skid_len = (size_t)ASN1_STRING_length(keyid);
	}
	if (issuer) {
		sd->issuer = name_text(issuer);
		sd->issuer_cn = signer_text(issuer);
	}
	if (sno)
		fill_serial(sd, sno);
	CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, &sigalg);
	OBJ_obj2txt(sd->hash, sizeof(sd->hash), dig->algorithm, 0);
	OBJ_obj2txt(sd->sig_alg, sizeof(sd->sig_alg), sigalg->algorithm, 0);
	OBJ_obj2txt(sd->sig_oid, sizeof(sd->sig_oid), sigalg->algorithm, 1);
	sd->mldsa = mldsa_set(sd->sig_oid);
	if (sd->mldsa)	/* the name, whether this OpenSSL knows it or not */
		snprintf(sd->sig_alg, sizeof(sd->sig_alg), "ML-DSA-%d",
			 sd->mldsa);
	sd->signed_attrs = CMS_signed_get_attr_count(si) > 0;
	sig = CMS_SignerInfo_get0_signature(si);
	sd->sig_len = (size_t)ASN1_STRING_length(sig);
	sd->sig = dup_bytes(ASN1_STRING_get0_data(sig), sd->sig_len);

	if (cert && CMS_SignerInfo_cert_cmp(si, cert) == 0) {
		describe_cert(sd, cert, cert_path);
		return 1;
	}
	for (int i = 0; i < sk_X509_num(embedded); i++) {
		X509 *x = sk_X509_value(embedded, i);

		if (CMS_SignerInfo_cert_cmp(si, x) == 0) {
			describe_cert(sd, x, "embedded");
			return 0;
		}
	}
	return 0;
}

/* The CMS SignedData in blob into d: 0, or -EBADMSG when it is none. */
static int fill_cms(struct sig_describe *d, const uint8_t *blob, size_t len,
		    X509 *cert, const char *cert_path)
{
	STACK_OF(CMS_SignerInfo) *sis;
	STACK_OF(X509) *embedded;
	ASN1_OCTET_STRING **content;
	const unsigned char *p = blob;
	CMS_ContentInfo *cms;

	cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);
	if (!cms || OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
		CMS_ContentInfo_free(cms);
		ERR_clear_error();
		return -EBADMSG;
	}
	d->cms_ok = 1;
	d->cert_path = cert ? cert_path : NULL;
	content = CMS_get0_content(cms);
	d->detached = !content || !*content;
	embedded = CMS_get1_certs(cms);
	d->n_certs = sk_X509_num(embedded) > 0 ? sk_X509_num(embedded) : 0;
	sis = CMS_get0_SignerInfos(cms);
	d->n_signers = sk_CMS_SignerInfo_num(sis);
	if (d->n_signers < 0)
		d->n_signers = 0;
	for (int i = 0; i < d->n_signers && i < SIG_DESCRIBE_MAX_SIGNERS; i++)
		d->cert_signs |= fill_signer(&d->s[i],
					     sk_CMS_SignerInfo_value(sis, i),
					     embedded, cert, cert_path);
	sk_X509_pop_free(embedded, X509_free);
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
	return 0;
}

int sig_describe_fill(struct sig_describe *d, const uint8_t *buf, size_t len,
		    X509 *cert, const char *cert_path)
{
	const char *why;
	int err;

	memset(d, 0, sizeof(*d));
	d->file_len = len;
	err = trailer_split(buf, len, &d->t, &why);
	if (err || d->t.desc.id_type != TRAILER_ID_PKCS7)
		return err;
	/* What the kernel's module_sig_check() leaves after stripping one
	 * trailer is the body it hashes: a second magic there is an older
	 * signature that is now part of what is signed. */
	d->signed_twice = trailer_has_magic(buf, d->t.body_len);
	return fill_cms(d, buf + d->t.sig_off, d->t.sig_len, cert, cert_path);
}

int sig_describe_fill_detached(struct sig_describe *d, const uint8_t *blob,
			     size_t len, size_t body_len, int body_tail_magic,
			     const char *sig_file, X509 *cert,
			     const char *cert_path)
{
	memset(d, 0, sizeof(*d));
	d->sig_file = sig_file;
	d->file_len = body_len;
	d->t.body_len = body_len;
	d->t.sig_len = len;
	d->t.desc.id_type = TRAILER_ID_PKCS7;
	d->signed_twice = body_tail_magic;
	return fill_cms(d, blob, len, cert, cert_path);
}

void sig_describe_free(struct sig_describe *d)
{
	for (int i = 0; i < SIG_DESCRIBE_MAX_SIGNERS; i++) {
		struct sig_describe_signer *s = &d->s[i];

		free(s->issuer);
		free(s->issuer_cn);
		free(s->serial);
		free(s->skid);
		free(s->sig);
		free(s->subject);
		free(s->subject_cn);
		free(s->cert_issuer);
		free(s->cert_issuer_cn);
	}
	memset(d, 0, sizeof(*d));
}
