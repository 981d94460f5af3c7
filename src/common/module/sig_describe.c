// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/cms.h>
#include <openssl/err.h>

#include "base/format.h"
#include "base/json_name.h"
#include "base/signer_facts.h"
#include "module/sig_describe.h"

const char *ms_id_type_name(unsigned id_type)
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
	ms_format_name(buf, sizeof(buf), p, len);
	return strdup(buf);
}

/* kmod's "signer" of a Name, malloc'd; NULL when it has none. */
static char *signer_text(const X509_NAME *name)
{
	const uint8_t *p;
	size_t len;
	char buf[512];

	if (name_content(name, &p, &len) ||
	    ms_format_signer(buf, sizeof(buf), p, len))
		return NULL;
	return strdup(buf);
}

static void fill_serial(struct ms_signer_desc *sd, const ASN1_INTEGER *sno)
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

static void describe_cert(struct ms_signer_desc *sd, X509 *x, const char *from)
{
	ms_pkey_describe(X509_get0_pubkey(x), sd->key, sizeof(sd->key));
	sd->cert_from = from;
	sd->subject = name_text(X509_get_subject_name(x));
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
static int fill_signer(struct ms_signer_desc *sd, CMS_SignerInfo *si,
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
static int fill_cms(struct ms_sigdesc *d, const uint8_t *blob, size_t len,
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
	for (int i = 0; i < d->n_signers && i < MS_MAX_SIGNERS; i++)
		d->cert_signs |= fill_signer(&d->s[i],
					     sk_CMS_SignerInfo_value(sis, i),
					     embedded, cert, cert_path);
	sk_X509_pop_free(embedded, X509_free);
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
	return 0;
}

int ms_sigdesc_fill(struct ms_sigdesc *d, const uint8_t *buf, size_t len,
		    X509 *cert, const char *cert_path)
{
	const char *why;
	int err;

	memset(d, 0, sizeof(*d));
	d->file_len = len;
	err = ms_trailer_split(buf, len, &d->t, &why);
	if (err || d->t.desc.id_type != MS_ID_PKCS7)
		return err;
	/* What the kernel's module_sig_check() leaves after stripping one
	 * trailer is the body it hashes: a second magic there is an older
	 * signature that is now part of what is signed. */
	d->signed_twice = ms_has_magic(buf, d->t.body_len);
	return fill_cms(d, buf + d->t.sig_off, d->t.sig_len, cert, cert_path);
}

int ms_sigdesc_fill_detached(struct ms_sigdesc *d, const uint8_t *blob,
			     size_t len, size_t body_len, int body_tail_magic,
			     const char *sig_file, X509 *cert,
			     const char *cert_path)
{
	memset(d, 0, sizeof(*d));
	d->sig_file = sig_file;
	d->file_len = body_len;
	d->t.body_len = body_len;
	d->t.sig_len = len;
	d->t.desc.id_type = MS_ID_PKCS7;
	d->signed_twice = body_tail_magic;
	return fill_cms(d, blob, len, cert, cert_path);
}

void ms_sigdesc_free(struct ms_sigdesc *d)
{
	for (int i = 0; i < MS_MAX_SIGNERS; i++) {
		struct ms_signer_desc *s = &d->s[i];

		free(s->issuer);
		free(s->issuer_cn);
		free(s->serial);
		free(s->skid);
		free(s->sig);
		free(s->subject);
	}
	memset(d, 0, sizeof(*d));
}

static void print_hex_line(FILE *out, const char *label, const uint8_t *p,
			   size_t len)
{
	char *h = ms_hex(p, len);

	fprintf(out, "  %-16s%s\n", label, h ? h : "");
	free(h);
}

/* FIPS 204 table 2: bytes of a signature. */
static size_t mldsa_sig_size(int set)
{
	return set == 44 ? 2420 : set == 65 ? 3309 : set == 87 ? 4627 : 0;
}

/* For JSON and the short line: what the waiver means for the signer. */
static const char *waiver_word(enum ms_waiver w)
{
	switch (w) {
	case MS_WAIVER_NOT_NEEDED:
		return "not-needed";
	case MS_WAIVER_NEEDED:
		return "needed";
	case MS_WAIVER_NOT_WAIVABLE:
		return "not-waivable";
	case MS_WAIVER_NO_MLDSA:
		return "no-ml-dsa";
	case MS_WAIVER_UNKNOWN:
		break;
	}
	return "unknown";
}

static const char *waiver_text(enum ms_waiver w)
{
	switch (w) {
	case MS_WAIVER_NEEDED:
		return "present: on modules only a kernel built with "
		       "CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y "
		       "accepts them";
	case MS_WAIVER_NOT_WAIVABLE:
		return "present: the kernel rejects them on modules even "
		       "with the ML-DSA waiver (the first signer is not "
		       "ML-DSA)";
	case MS_WAIVER_NO_MLDSA:
		return "present (this kernel line has no ML-DSA at all)";
	case MS_WAIVER_NOT_NEEDED:
	case MS_WAIVER_UNKNOWN:
		break;
	}
	return "present";
}

/* Where the parts of an appended signature sit. */
static void print_appended_head(FILE *out, const struct ms_sigdesc *d,
				const char *file)
{
	const struct ms_desc *ds = &d->t.desc;
	const char *idn = ms_id_type_name(ds->id_type);

	fprintf(out, "file:             %s (%zu bytes)\n", file, d->file_len);
	if (d->compression)
		fprintf(out, "compression:      %s, %zu bytes stored (sizes "
			"and offsets are of the decompressed module)\n",
			d->compression, d->compressed_len);
	fprintf(out, "id type:          %s (%u)\n", idn ? idn : "unknown",
	       ds->id_type);
	fprintf(out, "body:             0..%zu (%zu bytes)\n", d->t.body_len,
	       d->t.body_len);
	if (ds->signer_len || ds->key_id_len)
		fprintf(out, "legacy regions:   signer name %u bytes at %zu, "
		       "key id %u bytes at %zu\n", ds->signer_len,
		       d->t.signer_off, ds->key_id_len, d->t.key_id_off);
	fprintf(out, "signature:        %zu..%zu (%zu bytes)\n", d->t.sig_off,
	       d->t.sig_off + d->t.sig_len, d->t.sig_len);
	fprintf(out, "descriptor:       algo %u, hash %u, id_type %u, "
		"signer_len %u, key_id_len %u, sig_len %u\n", ds->algo,
		ds->hash, ds->id_type, ds->signer_len, ds->key_id_len,
		ds->sig_len);
}

/* A detached signature: no trailer, the blob is the whole .p7s. */
static void print_detached_head(FILE *out, const struct ms_sigdesc *d,
				const char *file)
{
	if (strcmp(file, d->sig_file) != 0) {
		fprintf(out, "file:             %s (%zu bytes)\n", file,
			d->file_len);
		if (d->compression)
			fprintf(out, "compression:      %s, %zu bytes stored "
				"(the signature covers the decompressed "
				"file)\n", d->compression, d->compressed_len);
		fprintf(out, "body:             0..%zu (%zu bytes, the whole "
			"file)\n", d->t.body_len, d->t.body_len);
	} else {
		fprintf(out, "file:             %s\n", file);
		fprintf(out, "body:             not given (name the signed "
			"file with --sig %s FILE)\n", file);
	}
	fprintf(out, "signature:        detached, %s (%zu bytes, no "
		"descriptor or magic)\n", d->sig_file, d->t.sig_len);
}

/* Whether the certificate given with -c is one of the signers'. */
static void print_given_cert(FILE *out, const struct ms_sigdesc *d)
{
	if (!d->cert_path)
		return;
	fprintf(out, "given certificate: %s: %s\n", d->cert_path,
		d->cert_signs ? "a signer's" : "NOT this signature's signer "
		"(neither issuer and serial nor subjectKeyIdentifier match)");
}

void ms_sigdesc_print(FILE *out, const struct ms_sigdesc *d,
		      const char *file)
{
	if (d->sig_file)
		print_detached_head(out, d, file);
	else
		print_appended_head(out, d, file);
	if (d->signed_twice)
		fprintf(out, "signed twice:     yes: %s\n",
			MS_SIGNED_TWICE_WHY);
	if (!d->cms_ok)
		return;
	fprintf(out, "content:          %s\n", d->detached ? "detached" :
	       "embedded (the kernel rejects non-detached module signatures)");
	fprintf(out, "certificates:     %d embedded\n", d->n_certs);
	fprintf(out, "signers:          %d\n", d->n_signers);
	print_given_cert(out, d);
	for (int i = 0; i < d->n_signers && i < MS_MAX_SIGNERS; i++) {
		const struct ms_signer_desc *s = &d->s[i];

		fprintf(out, "signer %d:\n", i + 1);
		fprintf(out, "  %-16s%s\n", "identified by:", s->by_skid ?
		       "subjectKeyIdentifier" : "issuer and serial number");
		if (s->issuer_cn)
			fprintf(out, "  %-16s%s\n", "signer:", s->issuer_cn);
		if (s->issuer)
			fprintf(out, "  %-16s%s\n", "issuer:", s->issuer);
		if (s->serial)
			print_hex_line(out, "serial:", s->serial,
				       s->serial_len);
		if (s->skid)
			print_hex_line(out, "skid:", s->skid, s->skid_len);
		fprintf(out, "  %-16s%s\n", "hash:", s->hash);
		fprintf(out, "  %-16s%s\n", "signature alg:", s->sig_alg);
		fprintf(out, "  %-16s%zu bytes\n", "signature:", s->sig_len);
		if (s->mldsa)
			fprintf(out, "  %-16sML-DSA-%d (FIPS 204), %s\n",
				"parameter set:",
			       s->mldsa, s->sig_len == mldsa_sig_size(s->mldsa)
			       ? "signature of the set's size" :
			       "signature NOT of the set's size");
		fprintf(out, "  %-16s%s\n", "signed attrs:", !s->signed_attrs ?
		       "none" : s->mldsa && d->kernel ?
		       waiver_text(s->waiver) :
		       "present (the kernel rejects them on modules)");
		if (s->mldsa && d->kernel) {
			char label[32];

			snprintf(label, sizeof(label), "waiver on %s:",
				 d->kernel);
			fprintf(out, "  %-16s%s\n", label,
				waiver_word(s->waiver));
		}
		if (s->cert_from) {
			fprintf(out, "  %-16s%s\n", "subject:", s->subject);
			fprintf(out, "  %-16s%s (certificate: %s)\n", "key:",
				s->key,
			       s->cert_from);
		} else {
			fprintf(out, "  %-16s%s\n", "key:",
			       "unknown (give the signer's certificate with -c)");
		}
	}
}

static json_object *json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* One signer in the schema every tool shares (base/signer_facts.h). */
static json_object *signer_json(const struct ms_sigdesc *d,
				const struct ms_signer_desc *s, int index)
{
	struct ms_signer_facts f = {
		.index = index,
		.by_skid = s->by_skid,
		.hash = s->hash,
		.signature_algorithm = s->sig_alg,
		.signature_size = s->sig_len,
		.signed_attributes = s->signed_attrs,
		.certificate = s->cert_from,
		.trusted = -1,
	};

	if (s->issuer) {
		f.has_issuer = true;
		snprintf(f.issuer, sizeof(f.issuer), "%s", s->issuer);
	}
	if (s->issuer_cn) {
		f.has_signer = true;
		snprintf(f.signer, sizeof(f.signer), "%s", s->issuer_cn);
	}
	if (s->serial) {
		f.has_serial = true;
		ms_format_serial(f.serial, sizeof(f.serial), s->serial,
				 s->serial_len);
	}
	if (s->skid) {
		f.has_skid = true;
		ms_hex_to(f.skid, sizeof(f.skid), s->skid, s->skid_len);
	}
	if (s->cert_from) {
		f.has_key = true;
		snprintf(f.key_type, sizeof(f.key_type), "%s", s->key);
	}
	if (s->subject) {
		f.has_subject = true;
		snprintf(f.subject, sizeof(f.subject), "%s", s->subject);
	}
	/* -c CERT judged as verify-file judges with it alone */
	if (d->cert_judged) {
		f.trusted = d->cert_trusted[index - 1];
		if (d->cert_description && s->cert_from == d->cert_path)
			snprintf(f.key_description, sizeof(f.key_description),
				 "%s", d->cert_description);
	}
	return ms_signer_facts_json(&f);
}

/* An ML-DSA signer: its set, whether its signature has the set's size,
 * and what the kernel line makes of its signed attributes. */
static json_object *json_mldsa(const struct ms_sigdesc *d,
			       const struct ms_signer_desc *s)
{
	json_object *o = json_object_new_object();
	char name[16];

	snprintf(name, sizeof(name), "ML-DSA-%d", s->mldsa);
	json_object_object_add(o, "parameter_set", json_object_new_string(name));
	json_object_object_add(o, "signature_size_expected",
			       json_object_new_int64(
				       (int64_t)mldsa_sig_size(s->mldsa)));
	json_object_object_add(o, "kernel", json_str(d->kernel));
	json_object_object_add(o, "waiver", d->kernel ?
			       json_object_new_string(waiver_word(s->waiver)) :
			       NULL);
	return o;
}

json_object *ms_sigdesc_json(const struct ms_sigdesc *d, const char *file)
{
	const struct ms_desc *ds = &d->t.desc;
	json_object *o = json_object_new_object(), *arr, *desc;

	ms_json_add_name(o, "file", file);
	/* null for an appended signature, else the .p7s read */
	ms_json_add_name(o, "signature_file", d->sig_file);
	json_object_object_add(o, "file_size", d->sig_file &&
			       !strcmp(file, d->sig_file) ? NULL :
			       json_object_new_int64((int64_t)d->file_len));
	json_object_object_add(o, "compression", json_str(d->compression));
	json_object_object_add(o, "compressed_size", d->compression ?
			       json_object_new_int64((int64_t)d->compressed_len)
			       : NULL);
	json_object_object_add(o, "id_type",
			       json_str(ms_id_type_name(ds->id_type)));
	json_object_object_add(o, "body_size", d->sig_file &&
			       !strcmp(file, d->sig_file) ? NULL :
			       json_object_new_int64((int64_t)d->t.body_len));
	json_object_object_add(o, "signature_offset", d->sig_file ? NULL :
			       json_object_new_int64((int64_t)d->t.sig_off));
	json_object_object_add(o, "signature_size",
			       json_object_new_int64((int64_t)d->t.sig_len));
	json_object_object_add(o, "signed_twice",
			       json_object_new_boolean(d->signed_twice));
	if (d->sig_file) {
		json_object_object_add(o, "descriptor", NULL);
	} else {
		desc = json_object_new_object();
		json_object_object_add(desc, "algo",
				       json_object_new_int(ds->algo));
		json_object_object_add(desc, "hash",
				       json_object_new_int(ds->hash));
		json_object_object_add(desc, "id_type",
				       json_object_new_int(ds->id_type));
		json_object_object_add(desc, "signer_len",
				       json_object_new_int(ds->signer_len));
		json_object_object_add(desc, "key_id_len",
				       json_object_new_int(ds->key_id_len));
		json_object_object_add(desc, "sig_len",
				       json_object_new_int64(ds->sig_len));
		json_object_object_add(o, "descriptor", desc);
	}
	if (!d->cms_ok)
		return o;
	json_object_object_add(o, "detached",
			       json_object_new_boolean(d->detached));
	json_object_object_add(o, "certificates",
			       json_object_new_int(d->n_certs));
	json_object_object_add(o, "signer_count",
			       json_object_new_int(d->n_signers));
	arr = json_object_new_array();
	for (int i = 0; i < d->n_signers && i < MS_MAX_SIGNERS; i++) {
		const struct ms_signer_desc *s = &d->s[i];
		json_object *j = signer_json(d, s, i + 1);

		/* extract-sig's own: what the kernel line makes of an
		 * ML-DSA signer (null for any other) */
		json_object_object_add(j, "ml_dsa", s->mldsa ?
				       json_mldsa(d, s) : NULL);
		json_object_array_add(arr, j);
	}
	json_object_object_add(o, "signers", arr);
	/* -c CERT: is it a signer's?  null without -c */
	if (d->cert_path) {
		json_object *c = json_object_new_object();

		ms_json_add_name(c, "file", d->cert_path);
		json_object_object_add(c, "is_signer",
				       json_object_new_boolean(d->cert_signs));
		json_object_object_add(o, "given_certificate", c);
	} else {
		json_object_object_add(o, "given_certificate", NULL);
	}
	return o;
}
