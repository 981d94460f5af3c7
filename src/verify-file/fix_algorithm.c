// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fixes for an algorithm the judged kernel lacks (fix.h's
 * unsupported-algorithm): a hash its crypto API cannot allocate
 * (-ENOPKG), or a key type no certificate of which enters its keyrings
 * (-ENOKEY).  fix.c decides which applies.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "verify-file/fix_parts.h"

void ms_fix_algorithm(const struct ms_fix_ctx *c,
		      const struct judge_file_judgement *j, const char *file,
		      struct ms_fix *f)
{
	const struct rules_rules *kr = c->t->kr;
	const char *hash = ms_fix_hash_for(kr);

	for (size_t s = 0; j->r.msg && s < j->r.msg->n_sinfos; s++) {
		const struct pkcs7_sinfo *si = &j->r.msg->sinfos[s];
		struct x509k_cert *x;
		const struct ms_fix_local *l = NULL;

		if (!si->unsupported_crypto)
			continue;
		/* a key type the kernel lacks never gets here: its
		 * certificate is left out when parsed, and the module is
		 * -ENOKEY with no certificate to name */
		if (!si->hash || rules_hash_available(kr, si->hash) || !hash)
			return;
		ms_fix_set(f, "unsupported-algorithm");
		ms_fix_why(f, "this kernel lacks the hash %s (%s): re-sign the "
		    "module with %s", si->hash->name,
		    j->r.reason ? j->r.reason : "unsupported crypto", hash);
		if (ms_fix_find_signer(c, &j->r, &x) == si)
			l = ms_fix_local_of(c, x);
		if (l && l->key && l->ring.certs[0] == x)
			ms_fix_sign_command(c, f, hash, l, x, file);
		return;
	}
}

/*
 * A signer whose key type the kernel lacks (a .config without
 * CRYPTO_ECDSA, or without CRYPTO_MLDSA): no certificate of that type
 * enters any of its keyrings, as x509_key_preparse()'s self-signature
 * check fails to allocate the algorithm, so enrolling the signer's
 * certificate cannot help and the module stays -ENOKEY.  What helps is a
 * key of a type it has.
 */
bool ms_fix_key_type(const struct ms_fix_ctx *c,
		     const struct judge_file_judgement *j, const char *file,
		     struct ms_fix *f)
{
	const struct rules_rules *kr = c->t->kr;
	const struct pkcs7_sinfo *si;
	const struct ms_fix_local *l;
	const char *hash = ms_fix_hash_for(kr);
	struct x509k_cert *x;
	char opt[32];
	bool enrol;

	if (!j->r.msg || !j->r.msg->n_sinfos)
		return false;
	si = &j->r.msg->sinfos[0];
	if (!si->algo || !si->algo->pkey_algo ||
	    rules_pkey_available(kr, si->algo->pkey_algo))
		return false;
	/* the option names the family: CONFIG_CRYPTO_MLDSA for mldsa65 */
	snprintf(opt, sizeof(opt), "CONFIG_CRYPTO_%s", si->algo->pkey_algo);
	for (char *p = opt + strlen("CONFIG_CRYPTO_"); *p; p++) {
		if (isdigit((unsigned char)*p)) {
			*p = '\0';
			break;
		}
		*p = (char)toupper((unsigned char)*p);
	}
	ms_fix_set(f, "unsupported-algorithm");
	ms_fix_why(f, "this kernel lacks %s keys (%s is not set), and the "
	    "module is signed with one (%s): no such certificate enters its "
	    "keyrings, enrolled or not; re-sign the module with an RSA key",
	    opt + strlen("CONFIG_CRYPTO_"), opt, si->algo->name);
	l = ms_fix_pair(c, NULL, &x, &enrol);
	if (!l || !hash)
		return true;
	ms_fix_why(f, " such as %s", l->label);
	ms_fix_why_pair(c, f, x, enrol);
	ms_fix_sign_command(c, f, hash, l, x, file);
	return true;
}
