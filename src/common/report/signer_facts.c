// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/json_name.h"
#include "report/signer_facts.h"

static json_object *str_if(bool have, const char *s)
{
	return have && s ? json_object_new_string(s) : NULL;
}

json_object *rp_signer_facts_json(const struct rp_signer_facts *f)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "index", json_object_new_int(f->index));
	json_object_object_add(o, "signer_id", json_object_new_string(
			       f->by_skid ? "skid" : "issuer-and-serial"));
	json_object_object_add(o, "issuer", str_if(f->has_issuer, f->issuer));
	json_object_object_add(o, "serial", str_if(f->has_serial, f->serial));
	json_object_object_add(o, "skid", str_if(f->has_skid, f->skid));
	json_object_object_add(o, "modinfo_signer",
			       str_if(f->has_modinfo_signer, f->modinfo_signer));
	/* the old key, one release more */
	json_object_object_add(o, "signer", str_if(f->has_signer, f->signer));
	json_object_object_add(o, "hash", str_if(true, f->hash));
	json_object_object_add(o, "signature_algorithm",
			       str_if(true, f->signature_algorithm));
	json_object_object_add(o, "signature_size",
			       json_object_new_int64((int64_t)f->signature_size));
	json_object_object_add(o, "signed_attributes",
			       json_object_new_boolean(f->signed_attributes));
	json_object_object_add(o, "key_type", str_if(f->has_key, f->key_type));
	json_object_object_add(o, "key_description",
			       str_if(f->key_description[0],
				      f->key_description));
	json_object_object_add(o, "subject",
			       str_if(f->has_subject, f->subject));
	json_object_object_add(o, "certificate_subject",
			       str_if(f->has_subject, f->subject));
	json_object_object_add(o, "certificate_issuer",
			       str_if(f->has_cert_issuer, f->cert_issuer));
	json_name_add(o, "certificate", f->certificate);
	json_object_object_add(o, "trusted", f->trusted < 0 ? NULL :
			       json_object_new_boolean(f->trusted));
	return o;
}
