// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/json_name.h"
#include "base/quote.h"
#include "report/sigdesc.h"
#include "report/signer_facts.h"

static void print_hex_line(FILE *out, const char *label, const uint8_t *p,
			   size_t len)
{
	char *h = format_hex(p, len);

	fprintf(out, "  %-16s%s\n", label, h ? h : "");
	free(h);
}

/* FIPS 204 table 2: bytes of a signature. */
static size_t mldsa_sig_size(int set)
{
	return set == 44 ? 2420 : set == 65 ? 3309 : set == 87 ? 4627 : 0;
}

/* For JSON and the short line: what the waiver means for the signer. */
static const char *word_of_waiver(enum sig_describe_waiver w)
{
	switch (w) {
	case SIG_DESCRIBE_WAIVER_NOT_NEEDED:
		return "not-needed";
	case SIG_DESCRIBE_WAIVER_NEEDED:
		return "needed";
	case SIG_DESCRIBE_WAIVER_NOT_WAIVABLE:
		return "not-waivable";
	case SIG_DESCRIBE_WAIVER_NO_MLDSA:
		return "no-ml-dsa";
	case SIG_DESCRIBE_WAIVER_UNKNOWN:
		break;
	}
	return "unknown";
}

static const char *text_of_waiver(enum sig_describe_waiver w)
{
	switch (w) {
	case SIG_DESCRIBE_WAIVER_NEEDED:
		return "present: on modules only a kernel built with "
		       "CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y "
		       "accepts them";
	case SIG_DESCRIBE_WAIVER_NOT_WAIVABLE:
		return "present: the kernel rejects them on modules even "
		       "with the ML-DSA waiver (the first signer is not "
		       "ML-DSA)";
	case SIG_DESCRIBE_WAIVER_NO_MLDSA:
		return "present (this kernel line has no ML-DSA at all)";
	case SIG_DESCRIBE_WAIVER_NOT_NEEDED:
	case SIG_DESCRIBE_WAIVER_UNKNOWN:
		break;
	}
	return "present";
}

/* Where the parts of an appended signature sit. */
static void print_appended_head(FILE *out, const struct sig_describe *d,
				const char *file)
{
	const struct trailer_desc *ds = &d->t.desc;
	const char *idn = sig_describe_id_type_name(ds->id_type);
	char *quoted = quote_name(file);

	fprintf(out, "file:             %s (%zu bytes)\n",
		quoted ? quoted : file, d->file_len);
	free(quoted);
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
static void print_detached_head(FILE *out, const struct sig_describe *d,
				const char *file)
{
	char *quoted = quote_name(file);
	const char *shown = quoted ? quoted : file;

	if (strcmp(file, d->sig_file) != 0) {
		fprintf(out, "file:             %s (%zu bytes)\n", shown,
			d->file_len);
		if (d->compression)
			fprintf(out, "compression:      %s, %zu bytes stored "
				"(the signature covers the decompressed "
				"file)\n", d->compression, d->compressed_len);
		fprintf(out, "body:             0..%zu (%zu bytes, the whole "
			"file)\n", d->t.body_len, d->t.body_len);
	} else {
		fprintf(out, "file:             %s\n", shown);
		fprintf(out, "body:             not given (name the signed "
			"file with --sig %s FILE)\n", shown);
	}
	free(quoted);
	quoted = quote_name(d->sig_file);
	fprintf(out, "signature:        detached, %s (%zu bytes, no "
		"descriptor or magic)\n", quoted ? quoted : d->sig_file,
		d->t.sig_len);
	free(quoted);
}

/* Whether the certificate given with -c is one of the signers'. */
static void print_given_cert(FILE *out, const struct sig_describe *d)
{
	if (!d->cert_path)
		return;
	fprintf(out, "given certificate: %s: %s\n", d->cert_path,
		d->cert_signs ? "a signer's" : "NOT this signature's signer "
		"(neither issuer and serial nor subjectKeyIdentifier match)");
}

/*
 * One signer's facts (report/signer_facts.h), for the text and the JSON
 * alike, so that a signer reads as verify-file and sign-file name it.
 */
static void desc_facts(const struct sig_describe *d,
		       const struct sig_describe_signer *s, int index,
		       struct rp_signer_facts *fp)
{
	struct rp_signer_facts f = {
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
	if (s->issuer_cn && !s->by_skid) {
		f.has_modinfo_signer = true;
		snprintf(f.modinfo_signer, sizeof(f.modinfo_signer), "%s",
			 s->issuer_cn);
	}
	if (s->cert_issuer) {
		f.has_cert_issuer = true;
		snprintf(f.cert_issuer, sizeof(f.cert_issuer), "%s",
			 s->cert_issuer);
	}
	/* identified by skid: kmod names the certificate's, as
	 * report/verdict.c does */
	if (s->issuer_cn || s->subject_cn) {
		f.has_signer = true;
		snprintf(f.signer, sizeof(f.signer), "%s", s->issuer_cn ?
			 s->issuer_cn : s->subject_cn);
	}
	if (s->serial) {
		f.has_serial = true;
		format_serial(f.serial, sizeof(f.serial), s->serial,
				 s->serial_len);
	}
	if (s->skid) {
		f.has_skid = true;
		format_hex_to(f.skid, sizeof(f.skid), s->skid, s->skid_len);
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
	*fp = f;
}

void rp_sigdesc_print(FILE *out, const struct sig_describe *d,
		      const char *file)
{
	if (d->sig_file)
		print_detached_head(out, d, file);
	else
		print_appended_head(out, d, file);
	if (d->signed_twice)
		fprintf(out, "signed twice:     yes: %s\n",
			TRAILER_SIGNED_TWICE_WHY);
	if (!d->cms_ok)
		return;
	fprintf(out, "content:          %s\n", d->detached ? "detached" :
	       "embedded (the kernel rejects non-detached module signatures)");
	fprintf(out, "certificates:     %d embedded\n", d->n_certs);
	fprintf(out, "signers:          %d\n", d->n_signers);
	print_given_cert(out, d);
	for (int i = 0; i < d->n_signers && i < SIG_DESCRIBE_MAX_SIGNERS; i++) {
		const struct sig_describe_signer *s = &d->s[i];
		struct rp_signer_facts f;

		desc_facts(d, s, i + 1, &f);
		fprintf(out, "signer %d:\n", i + 1);
		fprintf(out, "  %-16s%s\n", "identified by:", s->by_skid ?
		       "subjectKeyIdentifier" : "issuer and serial number");
		/* kmod's word, where modinfo shows it */
		if (f.has_modinfo_signer)
			fprintf(out, "  %-16s%s\n", "signer:",
				f.modinfo_signer);
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
		       text_of_waiver(s->waiver) :
		       "present (the kernel rejects them on modules)");
		if (s->mldsa && d->kernel) {
			char label[32];

			snprintf(label, sizeof(label), "waiver on %s:",
				 d->kernel);
			fprintf(out, "  %-16s%s\n", label,
				word_of_waiver(s->waiver));
		}
		if (s->cert_from) {
			/* the certificate that vouched, and (when the
			 * SignerInfo does not name it) its issuer */
			fprintf(out, "  %-16s%s\n", "certificate:",
				s->subject);
			if (!s->issuer && s->cert_issuer)
				fprintf(out, "  %-16s%s\n", "issuer:",
					s->cert_issuer);
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

/* One signer in the schema every tool shares. */
static json_object *signer_json(const struct sig_describe *d,
				const struct sig_describe_signer *s, int index)
{
	struct rp_signer_facts f;

	desc_facts(d, s, index, &f);
	return rp_signer_facts_json(&f);
}

/* An ML-DSA signer: its set, whether its signature has the set's size,
 * and what the kernel line makes of its signed attributes. */
static json_object *json_mldsa(const struct sig_describe *d,
			       const struct sig_describe_signer *s)
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
			       json_object_new_string(word_of_waiver(s->waiver)) :
			       NULL);
	return o;
}

json_object *rp_sigdesc_signers_json(const struct sig_describe *d)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < d->n_signers && i < SIG_DESCRIBE_MAX_SIGNERS; i++) {
		const struct sig_describe_signer *s = &d->s[i];
		json_object *j = signer_json(d, s, i + 1);

		/* what the kernel line makes of an ML-DSA signer (null for
		 * any other) */
		json_object_object_add(j, "ml_dsa", s->mldsa ?
				       json_mldsa(d, s) : NULL);
		json_object_array_add(arr, j);
	}
	return arr;
}

json_object *rp_sigdesc_json(const struct sig_describe *d, const char *file)
{
	const struct trailer_desc *ds = &d->t.desc;
	json_object *o = json_object_new_object(), *desc;

	json_name_add(o, "file", file);
	/* null for an appended signature, else the .p7s read */
	json_name_add(o, "signature_file", d->sig_file);
	json_object_object_add(o, "file_size", d->sig_file &&
			       !strcmp(file, d->sig_file) ? NULL :
			       json_object_new_int64((int64_t)d->file_len));
	json_object_object_add(o, "compression", json_str(d->compression));
	json_object_object_add(o, "compressed_size", d->compression ?
			       json_object_new_int64((int64_t)d->compressed_len)
			       : NULL);
	json_object_object_add(o, "id_type",
			       json_str(sig_describe_id_type_name(ds->id_type)));
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
	json_object_object_add(o, "signers", rp_sigdesc_signers_json(d));
	/* -c CERT: is it a signer's?  null without -c */
	if (d->cert_path) {
		json_object *c = json_object_new_object();

		json_name_add(c, "file", d->cert_path);
		json_object_object_add(c, "is_signer",
				       json_object_new_boolean(d->cert_signs));
		json_object_object_add(o, "given_certificate", c);
	} else {
		json_object_object_add(o, "given_certificate", NULL);
	}
	return o;
}
