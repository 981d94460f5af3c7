// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <json-c/json.h>
#include <openssl/crypto.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/signer_facts.h"
#include "kernel/x509.h"
#include "report/verdict.h"

static bool rp_is_soft(int err)
{
	return err == -ENODATA || err == -ENOKEY || err == -ENOPKG;
}

int rp_shown(const struct rp_context *c, int err)
{
	return c->enforce && rp_is_soft(err) ? -EKEYREJECTED : err;
}

static const char *rp_verdict_word(int err)
{
	switch (err) {
	case 0: return "OK";
	case -ENODATA: return "UNSIGNED";
	case -ENOKEY: return "UNKNOWN-KEY";
	case -ENOPKG: return "UNSUPPORTED";
	case -EKEYREJECTED: return "REJECTED";
	case -MS_ENOALG: return "CANNOT-CHECK";
	default: return "MALFORMED";
	}
}

/* What this build lacks, for a verdict it cannot reach (-MS_ENOALG). */
static void cannot_check(char *buf, size_t size)
{
	snprintf(buf, size, "this build's OpenSSL %s cannot check ML-DSA "
		 "signatures (needs 3.5)",
		 OpenSSL_version(OPENSSL_VERSION_STRING));
}

/* module_sig_check()'s words for the enforced soft outcomes */
static const char *enforce_words(int err)
{
	switch (err) {
	case -ENODATA: return "Loading of unsigned module is rejected";
	case -ENOPKG: return "Loading of module with unsupported crypto is rejected";
	default: return "Loading of module with unavailable key is rejected";
	}
}

void rp_count(struct rp_summary *s, int err)
{
	switch (err) {
	case 0: s->ok++; break;
	case -ENODATA: s->unsigned_++; break;
	case -ENOKEY: s->nokey++; break;
	case -ENOPKG: s->nopkg++; break;
	case -EKEYREJECTED: s->rejected++; break;
	case -MS_ENOALG: s->nocheck++; break;
	default: s->malformed++; break;
	}
}

static json_object *jstr_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/*
 * "ml_dsa": the parameter set of an ML-DSA signer, null for any other
 * (extract-sig adds what the target line needs for it; here the verdict
 * says that).
 */
static json_object *with_mldsa(json_object *o, const struct p7_sinfo *si)
{
	json_object *m = NULL;

	if (si->algo && strncmp(si->algo->name, "ML-DSA-", 7) == 0) {
		m = json_object_new_object();
		json_object_object_add(m, "parameter_set",
				       json_object_new_string(si->algo->name));
	}
	json_object_object_add(o, "ml_dsa", m);
	return o;
}

/* One signer in the schema every tool shares (base/signer_facts.h). */
static json_object *signer_json(const struct p7_sinfo *si)
{
	const struct x509k_cert *k = si->trusted_by;
	const struct x509k_cert *c = k ? k : si->signer;
	struct ms_signer_facts f = {
		.index = (int)si->index,
		.by_skid = si->skid != NULL,
		.hash = si->hash ? si->hash->name : NULL,
		.signature_algorithm = si->algo ? si->algo->name : NULL,
		.signature_size = si->sig.slen,
		.signed_attributes = si->authattrs != NULL,
		.certificate = k ? k->path : si->signer ? "embedded" : NULL,
		.trusted = k != NULL,
	};

	if (si->issuer) {
		f.has_issuer = true;
		ms_format_name(f.issuer, sizeof(f.issuer), si->issuer,
			       si->issuer_len);
		f.has_signer = ms_format_signer(f.signer, sizeof(f.signer),
						si->issuer,
						si->issuer_len) == 0;
		f.has_serial = true;
		ms_format_serial(f.serial, sizeof(f.serial), si->serial,
				 si->serial_len);
	}
	if (si->skid) {
		f.has_skid = true;
		ms_hex_to(f.skid, sizeof(f.skid), si->skid, si->skid_len);
	}
	if (c) {
		f.has_key = c->pub.pkey != NULL;
		if (c->pub.pkey)
			ms_pkey_describe(c->pub.pkey, f.key_type,
					 sizeof(f.key_type));
		x509k_describe(c, f.key_description,
			       sizeof(f.key_description));
		f.has_subject = true;
		ms_format_name(f.subject, sizeof(f.subject), c->subject,
			       c->subject_len);
	}
	return with_mldsa(ms_signer_facts_json(&f), si);
}

void rp_print_json(FILE *out, const struct rp_context *c, const char *file,
		   enum kv_usage usage, const struct kv_result *r)
{
	int shown = rp_shown(c, r->err);
	json_object *j = json_object_new_object(), *sg = json_object_new_array();
	char lacks[160];
	size_t i;

	json_object_object_add(j, "file", json_object_new_string(file));
	json_object_object_add(j, "verdict",
			       json_object_new_string(rp_verdict_word(shown)));
	/* a verdict this build cannot reach has no kernel errno */
	json_object_object_add(j, "errno", shown && shown != -MS_ENOALG ?
			       json_object_new_string(ms_errno_name(shown)) : NULL);
	json_object_object_add(j, "underlying_errno",
			       r->err && r->err != -MS_ENOALG ?
			       json_object_new_string(ms_errno_name(r->err)) : NULL);
	cannot_check(lacks, sizeof(lacks));
	json_object_object_add(j, "reason", r->err == -MS_ENOALG ?
			       json_object_new_string(lacks) :
			       jstr_or_null(r->reason));
	if (r->err == -MS_ENOALG)
		json_object_object_add(j, "depends_on", jstr_or_null(r->reason));
	json_object_object_add(j, "loads_unsigned",
			       json_object_new_boolean(!c->enforce && rp_is_soft(r->err)));
	json_object_object_add(j, "kernel", json_object_new_string(c->kernel));
	json_object_object_add(j, "usage", json_object_new_string(kv_usage_name(usage)));
	json_object_object_add(j, "enforce", json_object_new_boolean(c->enforce));
	for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
		json_object_array_add(sg, signer_json(&r->msg->sinfos[i]));
	json_object_object_add(j, "signers", sg);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(j, MS_JSON_FLAGS));
	json_object_put(j);
}

void rp_print_text(FILE *out, const struct rp_context *c, const char *file,
		   const struct kv_result *r)
{
	int shown = rp_shown(c, r->err);
	const struct p7_sinfo *si = NULL;
	char key[64], id[160];
	size_t i;

	if (shown == 0) {
		for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
			if (r->msg->sinfos[i].trusted_by) {
				si = &r->msg->sinfos[i];
				break;
			}
		if (!si) {
			fprintf(out, "%s: OK\n", file);
			return;
		}
		key[0] = '\0';
		if (si->trusted_by->pub.pkey)
			ms_pkey_describe(si->trusted_by->pub.pkey, key,
					 sizeof(key));
		if (si->trusted_by->skid.data)
			ms_hex_to(id, sizeof(id), si->trusted_by->skid.data,
				  si->trusted_by->skid.len);
		else
			ms_format_serial(id, sizeof(id),
					 si->trusted_by->serial,
					 si->trusted_by->serial_len);
		fprintf(out, "%s: OK (%s, %s, signer \"%s\", key %s, cert %s)\n",
			file, si->hash->name, key, si->trusted_by->name, id,
			si->trusted_by->path);
		return;
	}
	if (shown == -MS_ENOALG) {
		cannot_check(id, sizeof(id));
		fprintf(out, "%s: CANNOT-CHECK: %s; the verdict depends on %s\n",
			file, id, r->reason ? r->reason : "an ML-DSA signature");
		return;
	}
	if (c->enforce && rp_is_soft(r->err)) {
		fprintf(out, "%s: REJECTED -EKEYREJECTED: %s (-%s: %s)\n", file,
			enforce_words(r->err), ms_errno_name(r->err),
			r->reason ? r->reason : "");
		return;
	}
	fprintf(out, "%s: %s -%s: %s%s\n", file, rp_verdict_word(shown),
	       ms_errno_name(shown), r->reason ? r->reason : "no reason",
	       rp_is_soft(shown) ? " (the kernel would load it unsigned, tainted)" :
	       "");
}

void rp_summary_add(struct rp_summary *to, const struct rp_summary *from)
{
	to->ok += from->ok;
	to->unsigned_ += from->unsigned_;
	to->nokey += from->nokey;
	to->nopkg += from->nopkg;
	to->rejected += from->rejected;
	to->malformed += from->malformed;
	to->errors += from->errors;
	to->nocheck += from->nocheck;
}

void rp_print_summary(FILE *out, size_t files, const struct rp_summary *s)
{
	fprintf(out, "summary: %zu files: %u ok, %u unsigned, %u unknown key, "
		"%u unsupported, %u bad signature, %u malformed, %u "
		"unreadable", files, s->ok, s->unsigned_, s->nokey, s->nopkg,
		s->rejected, s->malformed, s->errors);
	/* only when there are: the line scripts read stays as it was */
	if (s->nocheck)
		fprintf(out, ", %u not checkable by this build (ML-DSA)",
			s->nocheck);
	fputc('\n', out);
}

void rp_print_error_json(FILE *out, const char *file, int err,
			 const char *reason)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "file", json_object_new_string(file));
	json_object_object_add(j, "verdict", json_object_new_string("ERROR"));
	json_object_object_add(j, "errno",
			       json_object_new_string(ms_errno_name(err)));
	json_object_object_add(j, "reason", jstr_or_null(reason));
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, MS_JSON_FLAGS));
	json_object_put(j);
}

void rp_print_summary_json(FILE *out, size_t files,
			   const struct rp_summary *s)
{
	json_object *j = json_object_new_object(), *n = json_object_new_object();

	json_object_object_add(n, "files", json_object_new_int64((int64_t)files));
	json_object_object_add(n, "ok", json_object_new_int((int)s->ok));
	json_object_object_add(n, "unsigned",
			       json_object_new_int((int)s->unsigned_));
	json_object_object_add(n, "unknown_key",
			       json_object_new_int((int)s->nokey));
	json_object_object_add(n, "unsupported",
			       json_object_new_int((int)s->nopkg));
	json_object_object_add(n, "rejected",
			       json_object_new_int((int)s->rejected));
	json_object_object_add(n, "malformed",
			       json_object_new_int((int)s->malformed));
	json_object_object_add(n, "unreadable",
			       json_object_new_int((int)s->errors));
	if (s->nocheck)
		json_object_object_add(n, "not_checkable",
				       json_object_new_int((int)s->nocheck));
	json_object_object_add(j, "summary", n);
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, MS_JSON_FLAGS));
	json_object_put(j);
}
