// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <openssl/crypto.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/json_name.h"
#include "base/log.h"
#include "base/quote.h"
#include "kernel/kernel_config.h"
#include "kernel/sig_check.h"
#include "kernel/x509.h"
#include "module/trailer.h"
#include "report/signer_facts.h"
#include "report/summary.h"
#include "report/verdict.h"

static const char no_modules_why[] = "CONFIG_MODULES is not set: the "
	"kernel loads no module (finit_module() is not built)";

static const char *modules_name(enum kernel_config_modules m)
{
	switch (m) {
	case KERNEL_CONFIG_MODS_UNCHECKED: return "not-checked";
	case KERNEL_CONFIG_MODS_NONE: return "no-modules";
	default: return "checked";
	}
}

static const char *lockdown_name(enum machine_lockdown l)
{
	switch (l) {
	case MACHINE_LD_NONE: return "none";
	case MACHINE_LD_IF_SB: return "if-secure-boot";
	case MACHINE_LD_INTEGRITY: return "integrity";
	case MACHINE_LD_CONFIDENTIALITY: return "confidentiality";
	default: return NULL;
	}
}

/*
 * "loads_unsigned": whether the kernel would still load a module whose
 * signature failed softly (tainting itself, "module verification
 * failed: signature and/or required key missing - tainting kernel").
 * Never for other usages: their callers refuse every failure.  Unknown
 * (JSON null) when it hangs on a Secure Boot state not known.
 */
static json_object *loads_unsigned(const struct rp_verdict_context *c,
				   enum verify_usage usage, int err)
{
	if (!sig_check_loads_unsigned(&c->sig, usage, err))
		return json_object_new_boolean(0);
	if (c->lockdown == MACHINE_LD_IF_SB)
		return NULL;
	return json_object_new_boolean(1);
}

/* After a soft verdict the kernel does not enforce: what happens next. */
static const char *soft_words(const struct rp_verdict_context *c, enum verify_usage usage)
{
	switch (usage) {
	case VERIFY_USAGE_MODULE:
		if (c->lockdown == MACHINE_LD_IF_SB)
			return "the kernel would load it unsigned, tainted, "
			       "unless booted with Secure Boot: its "
			       "CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT then "
			       "refuses it; ask with --machine";
		if (c->lockdown == MACHINE_LD_UNKNOWN)
			return "the kernel would load it unsigned, tainted, "
			       "unless enforcing or locked down; ask with "
			       "--machine";
		return "the kernel would load it unsigned, tainted";
	case VERIFY_USAGE_KEXEC:
		/* kernel/kexec_file.c: kimage_validate_signature() */
		return "kexec_file_load() goes on without it unless "
		       "KEXEC_SIG_FORCE or lockdown";
	case VERIFY_USAGE_FIRMWARE:
		return "refused by the loader that asked for the signature: "
		       "only modules load unsigned";
	default:
		/* net/wireless/reg.c: valid_regdb() fails with
		 * regdb_has_valid_signature(); fs-verity, dm-verity and
		 * IPE refuse theirs likewise */
		return "refused by its caller: only modules load unsigned; "
		       "cfg80211 does not load a regulatory.db that fails";
	}
}

/* The keyring that vouched for the first trusted signer, when the
 * machine's model filed it; NULL otherwise. */
static const char *trusted_keyring(const struct verify_result *r)
{
	for (size_t i = 0; r->msg && i < r->msg->n_sinfos; i++)
		if (r->msg->sinfos[i].trusted_by)
			return r->msg->sinfos[i].trusted_by->keyring;
	return NULL;
}

static json_object *jstr_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* --machine: what was read, and what was missing */
static json_object *json_machine(const struct rp_verdict_context *c)
{
	const struct machine *m = c->machine;
	json_object *o = json_object_new_object(), *miss;

	json_object_object_add(o, "release", json_object_new_string(m->release));
	json_object_object_add(o, "vmlinuz", m->has_vmlinuz ?
			       json_object_new_string(m->vmlinuz) : NULL);
	json_object_object_add(o, "vmlinuz_from", m->has_vmlinuz ?
			       json_object_new_string(m->vmlinuz_from) : NULL);
	json_object_object_add(o, "config", m->has_config ?
			       json_object_new_string(m->config) : NULL);
	json_object_object_add(o, "config_from", m->has_config ?
			       json_object_new_string(m->config_from) : NULL);
	json_object_object_add(o, "secure_boot",
			       json_object_new_string(machine_secure_boot_name(m->sb)));
	json_object_object_add(o, "lockdown_file", m->lockdown < 0 ? NULL :
			       json_object_new_string(kernel_config_lockdown_name(
				       (enum kernel_config_lockdown)m->lockdown)));
	json_object_object_add(o, "sig_enforce", m->sig_enforce < 0 ? NULL :
			       json_object_new_boolean(m->sig_enforce));
	if (c->km) {
		json_object_object_add(o, "kernel_vendor", json_object_new_string(
				       vendors_name(c->km->vendor)));
		json_object_object_add(o, "kernel_vendor_why",
				       json_object_new_string(c->km->vendor_why));
		json_object_object_add(o, "platform_for_modules",
			json_object_new_boolean(c->km->platform_for_modules));
		json_object_object_add(o, "mok_keyring",
			c->km->mok == KEYRING_MODEL_MOK_NOT_LOADED ? NULL :
			json_object_new_string(c->km->mok == KEYRING_MODEL_MOK_PLATFORM ?
					       ".platform" : ".machine"));
		json_object_object_add(o, "mok_why", c->km->mok_why ?
				       json_object_new_string(c->km->mok_why) :
				       NULL);
		json_object_object_add(o, "mok_secure_boot_query",
				       json_object_new_string(c->km->mok_asks_why));
		json_object_object_add(o, "config_assumed",
			c->km->assumed_config ? json_object_new_string(
				c->km->row->shipped_from) : NULL);
		json_object_object_add(o, "ima_enforce",
			json_object_new_boolean(c->km->ima_enforce));
		json_object_object_add(o, "enforce_why",
				       jstr_or_null(c->km->enforce_why));
		json_object_object_add(o, "revocation_certificates",
			json_object_new_boolean(c->km->revocation_certs));
		json_object_object_add(o, "revocation_why",
				       jstr_or_null(c->km->revocation_why));
	}
	/* "missing" is the old name of the same list, kept one release
	 * for the scripts that read it */
	miss = json_object_new_array();
	for (size_t i = 0; i < c->n_differences; i++)
		json_object_array_add(miss, json_object_new_string(
					      c->differences[i]));
	json_object_object_add(o, "differences", miss);
	json_object_object_add(o, "missing", json_object_get(miss));
	return o;
}

static const char *verdict_word(int err)
{
	switch (err) {
	case 0: return "OK";
	case -ENODATA: return "UNSIGNED";
	case -ENOKEY: return "UNKNOWN-KEY";
	case -ENOPKG: return "UNSUPPORTED";
	case -EKEYREJECTED: return "REJECTED";
	case -EPERM: return "REJECTED";
	/* load_module()'s ELF checks: the kernel refuses it */
	case -ENOEXEC: return "REJECTED";
	case -EXITCODE_ENOALG: return "CANNOT-CHECK";
	default: return "MALFORMED";
	}
}

/* What this build lacks, for a verdict it cannot reach (-EXITCODE_ENOALG). */
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

void rp_verdict_count(struct rp_verdict_tally *s, int err)
{
	switch (err) {
	case 0: s->ok++; break;
	case -ENODATA: s->unsigned_++; break;
	case -ENOKEY: s->nokey++; break;
	case -ENOPKG: s->nopkg++; break;
	case -EKEYREJECTED: s->rejected++; break;
	case -EXITCODE_ENOALG: s->nocheck++; break;
	default: s->malformed++; break;
	}
}

/*
 * "ml_dsa": the parameter set of an ML-DSA signer, null for any other
 * (extract-sig adds what the target line needs for it; here the verdict
 * says that).
 */
static json_object *with_mldsa(json_object *o, const struct pkcs7_sinfo *si)
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

/* One signer's facts, for the JSON and the text alike. */
static void signer_facts(const struct pkcs7_sinfo *si, struct rp_signer_facts *fp)
{
	const struct x509k_cert *k = si->trusted_by;
	const struct x509k_cert *c = k ? k : si->signer;
	struct rp_signer_facts f = {
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
		format_name(f.issuer, sizeof(f.issuer), si->issuer,
			       si->issuer_len);
		f.has_signer = format_signer(f.signer, sizeof(f.signer),
						si->issuer,
						si->issuer_len) == 0;
		f.has_modinfo_signer = f.has_signer;
		memcpy(f.modinfo_signer, f.signer, sizeof(f.modinfo_signer));
		f.has_serial = true;
		format_serial(f.serial, sizeof(f.serial), si->serial,
				 si->serial_len);
	}
	if (si->skid) {
		f.has_skid = true;
		format_hex_to(f.skid, sizeof(f.skid), si->skid, si->skid_len);
	}
	if (c) {
		f.has_key = c->pub.pkey != NULL;
		if (c->pub.pkey)
			format_pkey(c->pub.pkey, f.key_type,
					 sizeof(f.key_type));
		x509k_describe(c, f.key_description,
			       sizeof(f.key_description));
		f.has_subject = true;
		format_name(f.subject, sizeof(f.subject), c->subject,
			       c->subject_len);
		f.has_cert_issuer = true;
		format_name(f.cert_issuer, sizeof(f.cert_issuer),
			       c->issuer, c->issuer_len);
		/* identified by skid: kmod names the certificate's */
		if (!f.has_signer)
			f.has_signer = format_signer(f.signer,
							sizeof(f.signer),
							c->subject,
							c->subject_len) == 0;
	}
	*fp = f;
}

/* The common names (else the last attribute's value) of k's subject
 * and issuer; the kernel's key name when the subject has none. */
static void cert_names(const struct x509k_cert *k, char *cn, size_t cn_size,
		       char *icn, size_t icn_size)
{
	if (format_signer(cn, cn_size, k->subject, k->subject_len))
		snprintf(cn, cn_size, "%s", k->name);
	if (format_signer(icn, icn_size, k->issuer, k->issuer_len))
		snprintf(icn, icn_size, "%s", "");
}

static json_object *signer_json(const struct pkcs7_sinfo *si)
{
	struct rp_signer_facts f;

	signer_facts(si, &f);
	return with_mldsa(rp_signer_facts_json(&f), si);
}

void rp_verdict_json(FILE *out, const struct rp_verdict_context *c, const char *file,
		     enum verify_usage usage, const struct verify_result *given)
{
	rp_verdict_json_with(out, c, file, usage, given, NULL, NULL);
}

void rp_verdict_json_with(FILE *out, const struct rp_verdict_context *c,
			  const char *file, enum verify_usage usage,
			  const struct verify_result *given,
			  void (*add)(void *ctx, json_object *o), void *ctx)
{
	struct sig_check_answer a;
	bool nomod;
	const struct verify_result *r;
	int shown;
	json_object *j = json_object_new_object(), *sg = json_object_new_array();
	char lacks[160];
	size_t i;
	int sig;

	sig_check_judge(&c->sig, usage, given, &a);
	nomod = a.no_modules;
	r = a.r;
	shown = a.shown;
	json_name_add(j, "file", file);
	json_object_object_add(j, "verdict", json_object_new_string(nomod ?
			       "REJECTED" : verdict_word(shown)));
	/* a verdict this build cannot reach has no kernel errno */
	json_object_object_add(j, "errno", shown && (nomod ||
			       shown != -EXITCODE_ENOALG) ?
			       json_object_new_string(exitcode_errno_name(shown)) : NULL);
	json_object_object_add(j, "underlying_errno",
			       r->err && r->err != -EXITCODE_ENOALG ?
			       json_object_new_string(exitcode_errno_name(r->err)) : NULL);
	/* the signature check's own verdict, before load_module()'s ELF
	 * checks: what the kernel's mod_verify_sig() says */
	sig = r->elf_refused ? r->sig_err : r->err;
	json_object_object_add(j, "signature_errno", sig && sig != -EXITCODE_ENOALG ?
			       json_object_new_string(exitcode_errno_name(sig)) : NULL);
	cannot_check(lacks, sizeof(lacks));
	json_object_object_add(j, "reason", nomod ?
			       json_object_new_string(no_modules_why) :
			       r->err == -EXITCODE_ENOALG ?
			       json_object_new_string(lacks) :
			       jstr_or_null(r->reason));
	if (r->err == -EXITCODE_ENOALG)
		json_object_object_add(j, "depends_on", jstr_or_null(r->reason));
	json_object_object_add(j, "signed_twice",
			       json_object_new_boolean(r->signed_twice));
	json_object_object_add(j, "loads_unsigned",
			       loads_unsigned(c, usage, r->err));
	json_object_object_add(j, "kernel",
			       json_object_new_string(c->rules->name));
	json_object_object_add(j, "kernel_exact",
			       json_object_new_boolean(c->rules->exact));
	if (c->rules->asked[0])
		json_object_object_add(j, "kernel_asked",
				       json_object_new_string(c->rules->asked));
	json_object_object_add(j, "usage", json_object_new_string(verify_usage_name(usage)));
	json_object_object_add(j, "enforce", json_object_new_boolean(c->sig.enforce));
	json_object_object_add(j, "lockdown",
			       jstr_or_null(lockdown_name(c->lockdown)));
	json_object_object_add(j, "lockdown_by", jstr_or_null(c->locked_by));
	json_object_object_add(j, "config", jstr_or_null(c->config));
	json_object_object_add(j, "config_from", jstr_or_null(c->config_from));
	json_object_object_add(j, "crypto_assumed",
			       json_object_new_boolean(!c->config));
	json_object_object_add(j, "module_sig", json_object_new_string(
			       modules_name(c->modules)));
	if (c->machine)
		json_object_object_add(j, "machine", json_machine(c));
	json_object_object_add(j, "keyring", jstr_or_null(trusted_keyring(r)));
	for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
		json_object_array_add(sg, signer_json(&r->msg->sinfos[i]));
	json_object_object_add(j, "signers", sg);
	if (add)
		add(ctx, j);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(j, RP_SIGNER_FACTS_JSON_FLAGS));
	json_object_put(j);
}

static void print_text(FILE *out, const struct rp_verdict_context *c,
		       const char *file, enum verify_usage usage,
		       const struct verify_result *given)
{
	struct sig_check_answer a;
	const struct verify_result *r;
	int shown;
	const struct pkcs7_sinfo *si = NULL;
	char key[64], id[160], cn[256], icn[256];
	size_t i;

	sig_check_judge(&c->sig, usage, given, &a);
	r = a.r;
	shown = a.shown;
	if (a.no_modules) {
		fprintf(out, "%s: REJECTED -ENOSYS: %s\n", file,
			no_modules_why);
		return;
	}
	if (r->signed_twice)
		log_warn(file, "signed twice: %s", TRAILER_SIGNED_TWICE_WHY);
	if (shown == 0) {
		for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
			if (r->msg->sinfos[i].trusted_by) {
				si = &r->msg->sinfos[i];
				break;
			}
		if (!si) {
			/* accepted without a signer: a kernel that checks
			 * none says why */
			fprintf(out, "%s: OK%s%s%s\n", file, r->reason ? " (" :
				"", r->reason ? r->reason : "",
				r->reason ? ")" : "");
			return;
		}
		key[0] = '\0';
		if (si->trusted_by->pub.pkey)
			format_pkey(si->trusted_by->pub.pkey, key,
					 sizeof(key));
		if (si->trusted_by->skid.data)
			format_hex_to(id, sizeof(id), si->trusted_by->skid.data,
				  si->trusted_by->skid.len);
		else
			format_serial(id, sizeof(id),
					 si->trusted_by->serial,
					 si->trusted_by->serial_len);
		/* the certificate that vouched and who issued it, by
		 * their common names (the JSON has the whole names) */
		cert_names(si->trusted_by, cn, sizeof(cn), icn, sizeof(icn));
		fprintf(out, "%s: OK (%s, %s, certificate \"%s\", issuer \"%s\", key %s, cert %s%s%s%s%s)\n",
			file, si->hash->name, key, cn, icn, id,
			si->trusted_by->path,
			si->trusted_by->keyring ? ", in " : "",
			si->trusted_by->keyring ? si->trusted_by->keyring : "",
			si->trusted_by->filed_why ? ": " : "",
			si->trusted_by->filed_why ? si->trusted_by->filed_why :
			"");
		return;
	}
	if (shown == -EXITCODE_ENOALG) {
		cannot_check(id, sizeof(id));
		fprintf(out, "%s: CANNOT-CHECK: %s; the verdict depends on %s\n",
			file, id, r->reason ? r->reason : "an ML-DSA signature");
		return;
	}
	if (shown == -EKEYREJECTED && sig_check_soft(r->err)) {
		fprintf(out, "%s: REJECTED -EKEYREJECTED: %s (-%s: %s)\n", file,
			enforce_words(r->err), exitcode_errno_name(r->err),
			r->reason ? r->reason : "");
		return;
	}
	if (shown == -EPERM) {
		/* security/lockdown/lockdown.c: lockdown_is_locked_down()
		 * logs this, with the loading process's name, and
		 * finit_module() fails with EPERM */
		fprintf(out, "%s: REJECTED -EPERM: Lockdown: modprobe: "
			"unsigned module loading is restricted; see man "
			"kernel_lockdown.7 (-%s: %s; locked down by %s)\n",
			file, exitcode_errno_name(r->err),
			r->reason ? r->reason : "", c->locked_by ?
			c->locked_by : "lockdown");
		return;
	}
	fprintf(out, "%s: %s -%s: %s", file, verdict_word(shown),
		exitcode_errno_name(shown), r->reason ? r->reason : "no reason");
	if (sig_check_soft(shown))
		fprintf(out, " (%s)", soft_words(c, usage));
	fputc('\n', out);
}

/* The verdict line, with the name quoted as ls quotes it. */
void rp_verdict_text(FILE *out, const struct rp_verdict_context *c, const char *file,
		     enum verify_usage usage, const struct verify_result *given)
{
	char *quoted = quote_name(file);

	print_text(out, c, quoted ? quoted : file, usage, given);
	free(quoted);
}

void rp_verdict_summary_add(struct rp_verdict_tally *to, const struct rp_verdict_tally *from)
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

/* The run's outcomes in the order of its summary line; the one not
 * checkable by this build only when there are (the line scripts read
 * stays as it was). */
static void summary_counts(const struct rp_verdict_tally *s, struct rp_summary_count *c)
{
	const struct rp_summary_count all[] = {
		{ "ok", "ok", s->ok, false },
		{ "unsigned", "unsigned", s->unsigned_, false },
		{ "unknown key", "unknown_key", s->nokey, false },
		{ "unsupported", "unsupported", s->nopkg, false },
		{ "bad signature", "rejected", s->rejected, false },
		{ "malformed", "malformed", s->malformed, false },
		{ "unreadable", "unreadable", s->errors, false },
		{ "not checkable by this build (ML-DSA)", "not_checkable",
		  s->nocheck, true },
	};

	memcpy(c, all, sizeof(all));
}

#define SUMMARY_COUNTS 8

void rp_verdict_summary(FILE *out, size_t files, const struct rp_verdict_tally *s)
{
	struct rp_summary_count c[SUMMARY_COUNTS];

	summary_counts(s, c);
	rp_summary_print(out, files, c, SUMMARY_COUNTS, 0, false);
}

void rp_verdict_error_json(FILE *out, const char *file, int err,
			   const char *reason)
{
	json_object *j = json_object_new_object();

	json_name_add(j, "file", file);
	json_object_object_add(j, "verdict", json_object_new_string("ERROR"));
	json_object_object_add(j, "errno",
			       json_object_new_string(exitcode_errno_name(err)));
	/* it may name the file, or another */
	json_name_add(j, "reason", reason);
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, RP_SIGNER_FACTS_JSON_FLAGS));
	json_object_put(j);
}

void rp_verdict_summary_json(FILE *out, size_t files,
			     const struct rp_verdict_tally *s, int exit_code)
{
	struct rp_summary_count c[SUMMARY_COUNTS];

	summary_counts(s, c);
	rp_summary_print(out, files, c, SUMMARY_COUNTS, exit_code, true);
}
