// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "kernel/x509.h"
#include "report/verdict.h"

bool rp_is_soft(int err)
{
	return err == -ENODATA || err == -ENOKEY || err == -ENOPKG;
}

int rp_shown(const struct rp_context *c, int err)
{
	return c->enforce && rp_is_soft(err) ? -EKEYREJECTED : err;
}

const char *rp_verdict_word(int err)
{
	switch (err) {
	case 0: return "OK";
	case -ENODATA: return "UNSIGNED";
	case -ENOKEY: return "UNKNOWN-KEY";
	case -ENOPKG: return "UNSUPPORTED";
	case -EKEYREJECTED: return "REJECTED";
	default: return "MALFORMED";
	}
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
	default: s->malformed++; break;
	}
}

static json_object *jstr_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *signer_json(const struct p7_sinfo *si)
{
	json_object *o = json_object_new_object();
	const struct x509k_cert *k = si->trusted_by;
	char buf[512], key[64];

	json_object_object_add(o, "index", json_object_new_int(si->index));
	if (si->issuer) {
		ms_format_name(buf, sizeof(buf), si->issuer, si->issuer_len);
		json_object_object_add(o, "issuer", json_object_new_string(buf));
		ms_format_serial(buf, sizeof(buf), si->serial, si->serial_len);
		json_object_object_add(o, "serial", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "issuer", NULL);
		json_object_object_add(o, "serial", NULL);
	}
	if (si->skid) {
		ms_hex_to(buf, sizeof(buf), si->skid, si->skid_len);
		json_object_object_add(o, "skid", json_object_new_string(buf));
	} else if (k && k->skid.data) {
		ms_hex_to(buf, sizeof(buf), k->skid.data, k->skid.len);
		json_object_object_add(o, "skid", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "skid", NULL);
	}
	json_object_object_add(o, "hash", jstr_or_null(si->hash ? si->hash->name : NULL));
	json_object_object_add(o, "signature_algorithm",
			       jstr_or_null(si->algo ? si->algo->name : NULL));
	if (k && k->pkey) {
		ms_pkey_describe(k->pkey, key, sizeof(key));
		json_object_object_add(o, "key_algorithm", json_object_new_string(key));
	} else {
		json_object_object_add(o, "key_algorithm",
				       jstr_or_null(si->algo ? si->algo->pkey_algo : NULL));
	}
	json_object_object_add(o, "signer", jstr_or_null(k ? k->name : NULL));
	if (k) {
		x509k_describe(k, buf, sizeof(buf));
		json_object_object_add(o, "key", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "key", NULL);
	}
	json_object_object_add(o, "cert", jstr_or_null(k ? k->path : NULL));
	json_object_object_add(o, "embedded_signer_cert",
			       json_object_new_boolean(si->signer != NULL));
	return o;
}

void rp_print_json(FILE *out, const struct rp_context *c, const char *file,
		   enum kv_usage usage, const struct kv_result *r)
{
	int shown = rp_shown(c, r->err);
	json_object *j = json_object_new_object(), *sg = json_object_new_array();
	size_t i;

	json_object_object_add(j, "file", json_object_new_string(file));
	json_object_object_add(j, "verdict",
			       json_object_new_string(rp_verdict_word(shown)));
	json_object_object_add(j, "errno", shown ?
			       json_object_new_string(ms_errno_name(shown)) : NULL);
	json_object_object_add(j, "underlying_errno", r->err ?
			       json_object_new_string(ms_errno_name(r->err)) : NULL);
	json_object_object_add(j, "reason", jstr_or_null(r->reason));
	json_object_object_add(j, "loads_unsigned",
			       json_object_new_boolean(!c->enforce && rp_is_soft(r->err)));
	json_object_object_add(j, "kernel", json_object_new_string(c->kernel));
	json_object_object_add(j, "usage", json_object_new_string(kv_usage_name(usage)));
	json_object_object_add(j, "enforce", json_object_new_boolean(c->enforce));
	for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
		json_object_array_add(sg, signer_json(&r->msg->sinfos[i]));
	json_object_object_add(j, "signers", sg);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
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
		if (si->trusted_by->pkey)
			ms_pkey_describe(si->trusted_by->pkey, key, sizeof(key));
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
}

void rp_print_summary(FILE *out, size_t files, const struct rp_summary *s)
{
	fprintf(out, "summary: %zu files: %u ok, %u unsigned, %u unknown key, "
		"%u unsupported, %u bad signature, %u malformed, %u "
		"unreadable\n", files, s->ok, s->unsigned_, s->nokey, s->nopkg,
		s->rejected, s->malformed, s->errors);
}
