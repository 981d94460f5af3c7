// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A module's fix (fix.h): what the model says of the signer's
 * certificate, then the kind that fits, each checked by judging the
 * module again as the kernel would after the fix.  Where it is found
 * from is fix_places.c, its words fix_words.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "verify-file/fix_parts.h"

/* -------- what the model says of one certificate -------- */

static bool same_cert(const struct x509k_cert *a, const struct x509k_cert *b)
{
	return a->der_len == b->der_len &&
	       memcmp(a->der, b->der, a->der_len) == 0;
}

static bool in_ring(const struct keyring *r, const struct x509k_cert *x)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (same_cert(r->certs[i], x))
			return true;
	return false;
}

/* The kernel's key a module signed by x is checked against now: in a
 * trusted keyring, or .platform where modules retry it. */
static bool vouches_now(const struct ms_fix_ctx *c, const struct x509k_cert *x)
{
	return in_ring(&c->k->trusted, x) ||
	       (c->kv.platform && in_ring(&c->k->platform, x));
}

/* pkcs7_validate_trust()'s find_asymmetric_key() by the signer's id */
static bool names_signer(const struct pkcs7_sinfo *si, const struct x509k_cert *x)
{
	return x509k_kid_same(&si->auth_id, &x->id) ||
	       x509k_kid_same(&si->auth_id, &x->skid);
}

enum place { PL_NONE, PL_TRUSTED, PL_PLATFORM, PL_PLATFORM_UNUSED };

/*
 * Where km's kernel files x as a MokListRT entry (keyring_handler.c
 * get_handler_for_mok(), restrict_link_by_ca() for the CA keyring
 * options, as trust_sources.c's esl_machine_ca()), and whether modules
 * are checked against it.
 */
static enum place mok_place(const struct keyring_model *km,
			    const struct x509k_cert *x)
{
	bool ca;

	switch (km->mok) {
	case KEYRING_MODEL_MOK_NOT_LOADED:
		return PL_NONE;
	case KEYRING_MODEL_MOK_MACHINE:
		return PL_TRUSTED;
	case KEYRING_MODEL_MOK_MACHINE_CA:
	case KEYRING_MODEL_MOK_MACHINE_CA_MAX:
		ca = x->ca && x->keycertsign &&
		     !(km->mok == KEYRING_MODEL_MOK_MACHINE_CA_MAX && x->digsig);
		if (ca)
			return PL_TRUSTED;
		break;
	case KEYRING_MODEL_MOK_PLATFORM:
		break;
	}
	return km->platform_for_modules ? PL_PLATFORM : PL_PLATFORM_UNUSED;
}

/* The module's signature judged again with x filed where pl says: 0
 * when x then vouches for it, else the kernel's error. */
static int judged_with(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		       struct x509k_cert *x, enum place pl)
{
	struct x509k_cert *one[1] = { x };
	struct keyring ring = { .certs = one, .n = 1 }, none = { 0 };
	struct verify_ctx kv = c->kv;
	struct verify_result res;
	int err;

	kv.trusted = pl == PL_PLATFORM ? &none : &ring;
	kv.platform = pl == PL_PLATFORM ? &ring : NULL;
	verify_module(&kv, j->file.data, j->file.len, j->usage, &res);
	err = res.err;
	verify_result_free(&res);
	return err;
}

static bool works(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		  struct x509k_cert *x, enum place pl)
{
	return (pl == PL_TRUSTED || pl == PL_PLATFORM) &&
	       judged_with(c, j, x, pl) == 0;
}

/* Revoked once Secure Boot is on: the kernel then loads MokListXRT too
 * (load_uefi.c: load_uefi_certs(), get_handler_for_dbx()), and a signer
 * it lists as an X.509 certificate is refused, not verified, where the
 * kernel has revocation certificates: without
 * CONFIG_SYSTEM_REVOCATION_LIST, certs/blacklist.c
 * add_key_to_revocation_list() is a stub and the entry revokes nothing
 * (Debian's and Fedora's configs). */
static bool revoked_with_sb(const struct ms_fix_ctx *c, const struct x509k_cert *x)
{
	return c->km_sb.mokx && c->km_sb.revocation_certs && in_ring(&c->mokx, x);
}

/* Secure Boot on, and the kernel still loads no MOK key: never, here
 * (CONFIG_LOAD_UEFI_KEYS unset, or load_uefi_certs() asking IMA) */
static bool never_mok(const struct keyring_model *km, bool sb_on, bool efi)
{
	return efi && sb_on && !km->mokx;
}

/* The signature verifies, but not over this module's bytes. */
static bool mismatch(const char *why)
{
	static const char *const words[] = {
		"messageDigest does not match the data",
		"RSA signature over other data (digest mismatch)",
		"ECDSA signature does not verify",
		"ML-DSA signature does not verify",
	};

	for (size_t i = 0; why && i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(why, words[i]) == 0)
			return true;
	return false;
}

/* -------- the kinds -------- */

/* A local key pair this kernel would take a module signed with: trusted
 * now, or (*enrol) once its certificate is enrolled; not skip. */
const struct ms_fix_local *ms_fix_pair(const struct ms_fix_ctx *c,
				       const struct x509k_cert *skip,
				       struct x509k_cert **cert, bool *enrol)
{
	const struct ms_fix_local *later = NULL;
	struct x509k_cert *lx = NULL;

	for (size_t i = 0; i < c->nloc; i++) {
		const struct ms_fix_local *l = &c->loc[i];
		struct x509k_cert *x = l->ring.n ? l->ring.certs[0] : NULL;
		enum place pl;

		if (!l->key || !x || (skip && same_cert(x, skip)) ||
		    in_ring(&c->k->revoked, x))
			continue;
		if (vouches_now(c, x)) {
			*cert = x;
			*enrol = false;
			return l;
		}
		pl = mok_place(c->km, x);
		if (!later && c->sb_on && (pl == PL_TRUSTED || pl == PL_PLATFORM)) {
			later = l;
			lx = x;
		}
	}
	*cert = lx;
	*enrol = true;
	return later;
}

static void fix_sign(const struct ms_fix_ctx *c, const char *file,
		     struct ms_fix *f)
{
	const char *hash = ms_fix_hash_for(c->t->kr);
	struct x509k_cert *x;
	bool enrol;
	const struct ms_fix_local *l = ms_fix_pair(c, NULL, &x, &enrol);

	ms_fix_set(f, "sign");
	if (!l || !hash) {
		ms_fix_why(f, "the module is not signed: sign it with a key in a "
		    "keyring this kernel checks modules against "
		    "(--list-keys names them)");
		return;
	}
	ms_fix_why(f, "the module is not signed: sign it with %s", l->label);
	ms_fix_why_pair(c, f, x, enrol);
	ms_fix_sign_command(c, f, hash, l, x, file);
}

/* The local file x was read from, or NULL. */
const struct ms_fix_local *ms_fix_local_of(const struct ms_fix_ctx *c,
					   const struct x509k_cert *x)
{
	for (size_t i = 0; i < c->nloc; i++)
		for (size_t n = 0; n < c->loc[i].ring.n; n++)
			if (c->loc[i].ring.certs[n] == x)
				return &c->loc[i];
	return NULL;
}

static void fix_resign(const struct ms_fix_ctx *c, const char *file,
		       struct x509k_cert *x, struct ms_fix *f)
{
	const struct ms_fix_local *l = x ? ms_fix_local_of(c, x) : NULL;
	const char *hash = ms_fix_hash_for(c->t->kr);

	ms_fix_set(f, "changed-after-signing");
	ms_fix_why(f, "the signature does not match the module: it was changed "
	    "after signing (stripped, or compressed without sign-file); "
	    "re-sign it as the last step, after strip and before "
	    "compression");
	if (l && l->key && hash && l->ring.certs[0] == x)
		ms_fix_sign_command(c, f, hash, l, x, file);
}

/* The first signer one of the candidates names; *found its certificate */
const struct pkcs7_sinfo *ms_fix_find_signer(const struct ms_fix_ctx *c,
					     const struct verify_result *r,
					     struct x509k_cert **found)
{
	const struct keyring *lists[] = { &c->mok, &c->moknew, &c->db,
					  &c->k->platform };

	*found = NULL;
	for (size_t s = 0; r->msg && s < r->msg->n_sinfos; s++) {
		const struct pkcs7_sinfo *si = &r->msg->sinfos[s];

		for (size_t i = 0; i < c->nloc; i++)
			for (size_t n = 0; n < c->loc[i].ring.n; n++)
				if (names_signer(si, c->loc[i].ring.certs[n])) {
					*found = c->loc[i].ring.certs[n];
					return si;
				}
		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
			for (size_t n = 0; n < lists[i]->n; n++)
				if (names_signer(si, lists[i]->certs[n])) {
					*found = lists[i]->certs[n];
					return si;
				}
	}
	return NULL;
}

static void fix_never_mok(const struct keyring_model *km, struct ms_fix *f)
{
	ms_fix_set(f, "no-mok-kernel");
	ms_fix_why(f, "this kernel never loads MOK keys (%s): no enrolment helps; "
	    "sign the module with a key built into the kernel, or boot a "
	    "kernel that loads MOK (built with IMA_ARCH_POLICY, or "
	    "kernel.org's 7.1, 6.12.110 and later)", km->mok_why);
}

/* What happens to the module now: its taint or refusal, in words */
static const char *now(const struct sig_check_answer *a)
{
	return a->shown == a->r->err ? "loads tainted (E)" : "is refused";
}

/* An enrolled MOK key the kernel leaves out. */
static bool fix_enrolled(const struct ms_fix_ctx *c,
			 const struct judge_file_judgement *j,
			 const struct sig_check_answer *a,
			 struct x509k_cert *x, struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	bool efi = c->m->has_efivars;
	char name[600];

	ms_fix_name_cert(c, NULL, x, name, sizeof(name));
	if (km->mok != KEYRING_MODEL_MOK_NOT_LOADED) {
		if (mok_place(km, x) != PL_PLATFORM_UNUSED ||
		    !works(c, j, x, mok_place(&c->km_trust, x)))
			return false;
		ms_fix_set(f, "trust-mok");
		ms_fix_why(f, "signed by the enrolled MOK key %s, but this "
		    "kernel files MOK keys in .platform, which it never "
		    "consults for modules, unless shim publishes "
		    "MokListTrustedRT: trust MOK keys for the kernel, then "
		    "reboot and confirm in MokManager", name);
		ms_fix_command(f, "mokutil --trust-mok");
		return true;
	}
	if (efi && !c->sb_on) {
		if (revoked_with_sb(c, x))
			return false;
		if (works(c, j, x, mok_place(&c->km_sb, x))) {
			ms_fix_set(f, "secure-boot-off");
			ms_fix_why(f, "signed by the enrolled MOK key %s, but %s, "
			    "so the kernel loads no MOK key: as it is the "
			    "module %s; to have it verified, ", name,
			    c->m->sb == MACHINE_SB_SHIM_OFF ?
			    "shim's validation is off (MokSBState)" :
			    "Secure Boot is off", now(a));
			if (c->m->sb == MACHINE_SB_SHIM_OFF) {
				ms_fix_why(f, "turn shim's validation on again, then "
				    "reboot and confirm in MokManager");
				ms_fix_command(f, "mokutil --enable-validation");
			} else {
				ms_fix_why(f, "turn Secure Boot on in the firmware "
				    "setup");
			}
			return true;
		}
		if (never_mok(&c->km_sb, true, efi)) {
			fix_never_mok(&c->km_sb, f);
			return true;
		}
		return false;
	}
	if (never_mok(km, c->sb_on, efi)) {
		fix_never_mok(km, f);
		return true;
	}
	return false;
}

/* A UEFI db key: db never vouches for modules on this kernel. */
static bool fix_db(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		   struct x509k_cert *x, const struct ms_fix_local *l,
		   struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	char name[600], q[512];
	bool enrol = c->sb_on && works(c, j, x, mok_place(km, x));

	if (km->db && c->kv.platform)
		return false;
	ms_fix_name_cert(c, NULL, x, name, sizeof(name));
	ms_fix_set(f, "db-key");
	ms_fix_why(f, "signed by the UEFI db key %s, and db keys "
	    "never vouch for modules on this kernel (%s): ", name,
	    !km->db ? km->db_why : "it has no platform keyring retry: "
	    "modules are checked against .builtin_trusted_keys and "
	    ".secondary_trusted_keys only");
	if (!enrol) {
		ms_fix_why(f, "sign the module with a key in a keyring this kernel "
		    "checks modules against (--list-keys names them)");
		return true;
	}
	if (!l) {
		ms_fix_why(f, "enrol that certificate, as db holds it, as a MOK "
		    "key (mokutil --import), or sign the module with an "
		    "enrolled MOK key");
		return true;
	}
	ms_fix_why(f, "enrol it as a MOK key, then reboot and confirm the "
	    "enrolment in MokManager (or sign the module with an enrolled "
	    "MOK key)");
	ms_fix_command(f, "mokutil --import %s",
		ms_fix_shq(l->given ? x->path : ms_fix_shown(c, x->path), q, sizeof(q)));
	return true;
}

/* Another local key, enrolled and vouching now, or NULL. */
static const struct ms_fix_local *enrolled_other(const struct ms_fix_ctx *c,
					  const struct x509k_cert *x,
					  struct x509k_cert **lx)
{
	for (size_t i = 0; i < c->nplaces; i++) {
		const struct ms_fix_local *l = &c->loc[c->first_place + i];
		struct x509k_cert *y = l->ring.n ? l->ring.certs[0] : NULL;

		if (y && !same_cert(x, y) && in_ring(&c->mok, y) &&
		    vouches_now(c, y)) {
			*lx = y;
			return l;
		}
	}
	return NULL;
}

/* A local certificate, not enrolled. */
static bool fix_local(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		      struct x509k_cert *x, const struct ms_fix_local *l,
		      struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	bool efi = c->m->has_efivars, pending = in_ring(&c->moknew, x);
	const struct ms_fix_local *other;
	struct x509k_cert *y;
	enum place pl = mok_place(km, x);
	char name[600], oname[600], q[512];
	const char *file = l->given ? x->path : ms_fix_shown(c, x->path);
	const char *also = NULL;

	ms_fix_name_cert(c, l, x, name, sizeof(name));
	if (!(c->sb_on && works(c, j, x, pl))) {
		if (efi && !c->sb_on && !revoked_with_sb(c, x) &&
		    works(c, j, x, mok_place(&c->km_sb, x)))
			also = "; Secure Boot is off, so the kernel loads no "
			       "MOK key until it is turned on (till then the "
			       "module loads tainted)";
		else if (efi && !c->sb_on && never_mok(&c->km_sb, true, efi))
			return fix_never_mok(&c->km_sb, f), true;
		else if (never_mok(km, c->sb_on, efi))
			return fix_never_mok(km, f), true;
		else if (c->sb_on && pl == PL_PLATFORM_UNUSED &&
			 works(c, j, x, mok_place(&c->km_trust, x)))
			also = "; this kernel files MOK keys in .platform, "
			       "which it never consults for modules, unless "
			       "shim publishes MokListTrustedRT: run mokutil "
			       "--trust-mok too";
		else
			return false;
	}
	if (pending) {
		ms_fix_set(f, "enrolment-pending");
		ms_fix_why(f, "signed by %s, which waits in MokNew: reboot "
		    "and confirm the enrolment in MokManager (with the "
		    "password mokutil --import asked for)%s", name,
		    also ? also : "");
		return true;
	}
	other = enrolled_other(c, x, &y);
	if (other) {
		ms_fix_name_cert(c, other, y, oname, sizeof(oname));
		ms_fix_set(f, "other-local-key");
		ms_fix_why(f, "signed by %s, but the enrolled key is "
		    "%s: enrol the signer's certificate too (or re-sign with "
		    "the enrolled key), then reboot and confirm the "
		    "enrolment in MokManager", name, oname);
	} else {
		ms_fix_set(f, "enrol-mok");
		ms_fix_why(f, "signed by %s, which is not enrolled: enrol it, "
		    "then reboot and confirm the enrolment in MokManager%s",
		    name, also ? also : "");
	}
	ms_fix_command(f, "mokutil --import %s", ms_fix_shq(file, q, sizeof(q)));
	return true;
}

static void fix_unknown_key(const struct ms_fix_ctx *c,
			    const struct judge_file_judgement *j,
			    const struct sig_check_answer *a,
			    const char *file, struct ms_fix *f)
{
	struct x509k_cert *x;
	const struct ms_fix_local *l;
	int err;

	if (!ms_fix_find_signer(c, &j->r, &x))
		return;
	/* the right key, and still no: the module changed after */
	err = judged_with(c, j, x, PL_TRUSTED);
	if (err == -EKEYREJECTED) {
		struct verify_ctx kv = c->kv;
		struct x509k_cert *one[1] = { x };
		struct keyring ring = { .certs = one, .n = 1 };
		struct verify_result res;
		bool changed;

		kv.trusted = &ring;
		kv.platform = NULL;
		verify_module(&kv, j->file.data, j->file.len, j->usage, &res);
		changed = mismatch(res.reason);
		verify_result_free(&res);
		if (changed)
			fix_resign(c, file, x, f);
		return;
	}
	if (err)
		return;
	l = ms_fix_local_of(c, x);
	if (in_ring(&c->mok, x)) {
		fix_enrolled(c, j, a, x, f);
		return;
	}
	if (in_ring(&c->db, x) || in_ring(&c->k->platform, x)) {
		fix_db(c, j, x, l, f);
		return;
	}
	if (l)
		fix_local(c, j, x, l, f);
}

static void fix_revoked(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
			const char *file, struct ms_fix *f)
{
	const struct ms_fix_local *l;
	struct x509k_cert *x = NULL, *y;
	const char *hash = ms_fix_hash_for(c->t->kr);
	char q[512];
	bool enrol;

	for (size_t s = 0; j->r.msg && s < j->r.msg->n_sinfos && !x; s++)
		for (size_t i = 0; i < c->k->revoked.n && !x; i++)
			if (names_signer(&j->r.msg->sinfos[s],
					 c->k->revoked.certs[i]))
				x = c->k->revoked.certs[i];
	ms_fix_set(f, "revoked");
	if (x)
		ms_fix_why(f, "the signer's key is revoked (its certificate is in "
		    "%s): sign the module with another key",
		    ms_fix_shq(ms_fix_shown(c, x->path), q, sizeof(q)));
	else
		ms_fix_why(f, "the signer's key is revoked (%s): sign the module "
		    "with another key", j->r.reason);
	l = ms_fix_pair(c, x, &y, &enrol);
	if (l && !enrol && hash) {
		ms_fix_why(f, ", such as %s, which this kernel trusts", l->label);
		ms_fix_sign_command(c, f, hash, l, y, file);
	}
}

bool ms_fix_find(const struct ms_fix_ctx *c, const char *file,
		 const struct judge_file_judgement *j,
		 const struct sig_check_answer *a, struct ms_fix *f)
{
	const struct verify_result *r = a->r;

	memset(f, 0, sizeof(*f));
	/* the clean OK, no module at all, a verdict this build cannot
	 * reach, an ELF the kernel refuses: nothing to say */
	if (!c || a->shown == 0 || a->no_modules || j->usage != VERIFY_USAGE_MODULE ||
	    j->r.elf_refused || r->elf_refused || r->err == -EXITCODE_ENOALG)
		return false;
	switch (r->err) {
	case -ENODATA:
		if (r->reason && strcmp(r->reason,
					MODULE_FILE_SIGNED_AFTER_MSG) == 0) {
			ms_fix_set(f, "changed-after-signing");
			ms_fix_why(f, "it was signed after compression: the kernel "
			    "decompresses it first and finds no signature; "
			    "sign the module before compressing it (sign-file "
			    "signs inside the compression)");
		} else {
			fix_sign(c, file, f);
		}
		break;
	case -ENOKEY:
		if (!ms_fix_key_type(c, j, file, f))
			fix_unknown_key(c, j, a, file, f);
		break;
	case -ENOPKG:
		ms_fix_algorithm(c, j, file, f);
		break;
	case -EKEYREJECTED:
		if (r->reason && (strcmp(r->reason, "signing key is on the "
					 "revocation list") == 0 ||
				  strcmp(r->reason, "signer certificate is "
					 "blacklisted") == 0))
			fix_revoked(c, j, file, f);
		else if (mismatch(r->reason)) {
			struct x509k_cert *x;

			ms_fix_find_signer(c, r, &x);
			fix_resign(c, file, x, f);
		}
		break;
	default:
		break;
	}
	return f->kind != NULL;
}
