// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "module/trailer.h"
#include "kernel/public_key.h"
#include "kernel/verify.h"

static int fail(struct verify_result *res, int err, const char *reason)
{
	res->err = err;
	res->reason = reason;
	return err;
}

/*
 * find_asymmetric_key(keyring, id_0, id_1, NULL, false) (pkcs7_trust.c,
 * pkcs7_validate_trust()): look up
 * by id_0 (else id_1) against each key's id[0] (serial ‖ issuer) or id[1]
 * (SKID); when both ids are given, the found key's SKID must equal id_1.
 * NULL with *err = -ENOKEY, -EKEYREJECTED or -EINVAL.
 */
static struct x509k_cert *find_key(const struct keyring *ring,
				   const struct x509k_kid *id0,
				   const struct x509k_kid *id1, int *err)
{
	const struct x509k_kid *lookup = id0->data ? id0 : id1;
	size_t i;

	*err = -ENOKEY;
	if (!lookup->data)
		return NULL;
	/* crypto/asymmetric_keys/asymmetric_type.c: the search string is
	 * "ex:" and the id in hex, which asymmetric_key_hex_to_key_id()
	 * refuses when empty: an empty key id (a sid of the other form than
	 * the SignerInfo version asks for) fails the search -EINVAL */
	if (lookup->len == 0) {
		*err = -EINVAL;
		return NULL;
	}
	if (!ring)
		return NULL;
	for (i = 0; i < ring->n; i++) {
		struct x509k_cert *k = ring->certs[i];

		if (!x509k_kid_same(lookup, &k->id) && !x509k_kid_same(lookup, &k->skid))
			continue;
		if (id0->data && id1->data && !x509k_kid_same(id1, &k->skid)) {
			*err = -EKEYREJECTED;
			return NULL;
		}
		*err = 0;
		return k;
	}
	return NULL;
}

/* public_key_verify_signature() with a certificate's key */
static int kpk_verify(const struct rules_rules *kr, const struct x509k_cert *key,
		      const struct pk_sig *sig, const char **why)
{
	return pk_verify(kr, &key->pub, sig, why);
}

/*
 * pkcs7_digest(): what the signature covers.  Since v7.0 an ML-DSA signer
 * without authattrs signs the content itself, checked before anything
 * else, so its digestAlgorithm is never computed; with authattrs every
 * algorithm first has the content's digest checked against
 * messageDigest, then ML-DSA signs the attributes re-tagged as a SET and
 * the others their digest.
 */
static int sinfo_digest(const struct rules_rules *kr, struct pkcs7_sinfo *si,
			const uint8_t *data, size_t len, const char **why)
{
	int ret;

	if (!si->authattrs && si->sig.takes_data) {
		si->sig.m = data;
		si->sig.mlen = len;
		return 0;
	}
	if (!rules_hash_available(kr, si->hash)) {
		*why = si->hash->unavailable;
		return -ENOPKG;
	}
	ret = pk_digest(si->hash, data, len, si->sig.digest, &si->sig.dlen);
	if (ret)
		return ret;
	if (!si->authattrs)
		return 0;
	if (!si->msgdigest) {
		*why = "authattrs without messageDigest";
		return -EKEYREJECTED;
	}
	if (si->msgdigest_len != si->sig.dlen) {
		*why = "messageDigest has the wrong length";
		return -EBADMSG;
	}
	if (memcmp(si->msgdigest, si->sig.digest, si->sig.dlen) != 0) {
		*why = "messageDigest does not match the data";
		return -EKEYREJECTED;
	}
	if (si->sig.takes_data) {
		free(si->signed_attrs);
		si->signed_attrs = malloc(si->authattrs_len + 1);
		if (!si->signed_attrs)
			return -ENOMEM;
		si->signed_attrs[0] = 0x31;
		memcpy(si->signed_attrs + 1, si->authattrs,
		       si->authattrs_len);
		si->sig.m = si->signed_attrs;
		si->sig.mlen = si->authattrs_len + 1;
		return 0;
	}
	/* the [0] IMPLICIT set is digested re-tagged as a SET */
	return pk_digest2(si->hash, 0x31, si->authattrs, si->authattrs_len,
			  si->sig.digest, &si->sig.dlen);
}

/* pkcs7_verify_sig_chain() */
static int sinfo_chain(const struct rules_rules *kr, struct pkcs7_msg *m,
			struct pkcs7_sinfo *si, const char **why)
{
	struct x509k_cert *x = si->signer, *p;
	size_t i;
	int ret;

	for (i = 0; i < m->n_certs; i++)
		m->certs[i]->seen = false;
	for (;;) {
		x->seen = true;
		if (x->blacklisted) {
			/* the sinfo and everything below are tainted */
			si->blacklisted = true;
			for (p = si->signer; p && p != x; p = p->signer)
				p->blacklisted = true;
			return 0;
		}
		if (x->self_signed) {
			/* the root of the in-message chain */
			x->signer = x;
			return 0;
		}
		/* the FIRST certificate in message order that matches: a
		 * second one with the same issuer and serial is never seen,
		 * so one with another SKID listed first is a nonmatch even
		 * when the right one follows */
		p = NULL;
		if (x->akid_id.data) {
			for (i = 0; i < m->n_certs && !p; i++)
				if (x509k_kid_same(&m->certs[i]->id, &x->akid_id))
					p = m->certs[i];
			if (p && x->akid_keyid.data &&
			    !x509k_kid_same(&x->akid_keyid, &p->skid)) {
				*why = "X.509 chain contains auth-skid nonmatch";
				return -EKEYREJECTED;
			}
		} else if (x->akid_keyid.data) {
			for (i = 0; i < m->n_certs && !p; i++)
				if (x509k_kid_same(&m->certs[i]->skid,
					     &x->akid_keyid))
					p = m->certs[i];
		}
		if (!p)
			return 0;	/* top of the in-message chain */
		if (p->seen)
			return 0;	/* "X.509 chain contains loop" */
		ret = kpk_verify(kr, p, &x->sig, why);
		if (ret == -EXITCODE_ENOALG)
			*why = "the ML-DSA signature of an embedded certificate";
		else if (ret && ret != -ENOENT)
			*why = "embedded certificate chain signature does not verify";
		if (ret)
			return ret;
		x->signer = p;
		if (x == p)
			return 0;
		x = p;
	}
}

/* pkcs7_verify_one() */
static int sinfo_verify(const struct rules_rules *kr, struct pkcs7_msg *m,
		      struct pkcs7_sinfo *si, const uint8_t *data, size_t len,
		      const char **why)
{
	size_t i;
	int ret;

	ret = sinfo_digest(kr, si, data, len, why);
	if (ret)
		return ret;
	/* pkcs7_find_key(): the first certificate with id == auth_ids[0];
	 * before v5.18 also with the SignerInfo's key algorithm (one with
	 * another is passed over: "X.509 algo and PKCS#7 sig algo don't
	 * match") */
	for (i = 0; i < m->n_certs; i++) {
		if (x509k_kid_same(&m->certs[i]->id, &si->auth_id) &&
		    (!kr->old_pkey_algo_checks || !si->sig.pkey_algo ||
		     !m->certs[i]->pub.algo ||
		     pk_algo_matches(m->certs[i]->pub.algo,
				     si->sig.pkey_algo))) {
			si->signer = m->certs[i];
			break;
		}
	}
	if (!si->signer)
		return 0;
	/* pkcs7_verify.c, pkcs7_verify(): the only place validity dates
	 * matter */
	if (si->has_signing_time &&
	    (si->signing_time < si->signer->valid_from ||
	     si->signing_time > si->signer->valid_to)) {
		*why = "message signed outside of X.509 validity window";
		return -EKEYREJECTED;
	}
	/* the error comes back raw: its reason is the key's or the
	 * signature's own */
	ret = kpk_verify(kr, si->signer, &si->sig, why);
	if (ret == -EXITCODE_ENOALG)
		*why = "the signer's ML-DSA signature, checked with the "
		       "embedded signer certificate";
	if (ret)
		return ret;
	return sinfo_chain(kr, m, si, why);
}

/* crypto/asymmetric_keys/pkcs7_verify.c, pkcs7_verify(): the usage gate,
 * then every signer */
static int message_verify(const struct rules_rules *kr, struct pkcs7_msg *m,
			enum verify_usage usage, const uint8_t *data,
			size_t len, const char **why)
{
	int actual = -ENOPKG, ret;
	const char *w = NULL;
	size_t i;

	switch (usage) {
	case VERIFY_USAGE_MODULE:
		if (m->data_type != PKCS7_DATA_PLAIN) {
			*why = "module signature has the wrong content type";
			return -EKEYREJECTED;
		}
		/* v7.0's CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA:
		 * let them be when the first signer is ML-DSA (OpenSSL
		 * before 4.0 cannot sign ML-DSA without them) */
		if (m->have_authattrs &&
		    !(kr->mldsa_authattr_waiver && m->authattrs_rej_waivable)) {
			*why = "module signature has authenticated attributes";
			return -EKEYREJECTED;
		}
		break;
	case VERIFY_USAGE_FIRMWARE:
		if (m->data_type != PKCS7_DATA_PLAIN) {
			*why = "firmware signature has the wrong content type";
			return -EKEYREJECTED;
		}
		if (!m->have_authattrs) {
			*why = "firmware signature lacks authenticated attributes";
			return -EKEYREJECTED;
		}
		break;
	case VERIFY_USAGE_KEXEC:
		if (m->data_type != PKCS7_DATA_MS_INDIRECT) {
			*why = "kexec signature is not Authenticode";
			return -EKEYREJECTED;
		}
		break;
	case VERIFY_USAGE_UNSPECIFIED:
	case VERIFY_USAGE_BPF:
		if (m->data_type != PKCS7_DATA_PLAIN) {
			*why = "signature has the wrong content type";
			return -EKEYREJECTED;
		}
		break;
	default:
		*why = "invalid usage";
		return -EINVAL;
	}

	*why = NULL;
	for (i = 0; i < m->n_sinfos; i++) {
		struct pkcs7_sinfo *si = &m->sinfos[i];

		ret = sinfo_verify(kr, m, si, data, len, &w);
		if (si->blacklisted) {
			if (actual == -ENOPKG) {
				actual = -EKEYREJECTED;
				*why = "signer certificate is blacklisted";
			}
			continue;
		}
		if (ret == -ENOPKG) {
			si->unsupported_crypto = true;
			if (actual == -ENOPKG)
				*why = w ? w : "unsupported crypto";
			continue;
		}
		if (ret) {
			*why = w;
			return ret;
		}
		actual = 0;
		*why = NULL;
	}
	return actual;
}

/* validate_trust_one() */
static int trust_one(const struct rules_rules *kr, const struct keyring *ring,
		     struct pkcs7_sinfo *si,
		     const char **why)
{
	struct x509k_cert *x, *last = NULL, *key, *p;
	const struct pk_sig *sig = &si->sig;
	static const struct x509k_kid none;
	int err, ret;

	if (si->unsupported_crypto) {
		*why = "unsupported crypto";
		return -ENOPKG;
	}
	for (x = si->signer; x; x = x->signer) {
		if (x->seen) {
			if (x->verified)
				goto verified;
			*why = "no trusted key for the signer";
			return -ENOKEY;
		}
		x->seen = true;
		key = find_key(ring, &x->id, &x->skid, &err);
		if (key)
			goto matched;
		if (x->signer == x) {
			*why = "self-signed signer certificate is not trusted";
			return -ENOKEY;
		}
		last = x;
		sig = &last->sig;
	}
	if (last && (last->akid_id.data || last->akid_keyid.data)) {
		key = find_key(ring, &last->akid_id, &last->akid_keyid, &err);
		if (key) {
			x = last;
			goto matched;
		}
		if (err != -ENOKEY) {
			*why = err == -EINVAL ? "empty key id in the chain's "
				"authorityKeyIdentifier" : "trusted key named "
				"by the chain has another SKID";
			return err;
		}
	}
	key = find_key(ring, &si->auth_id, &none, &err);
	if (key) {
		x = NULL;
		sig = &si->sig;
		goto matched;
	}
	if (err != -ENOKEY) {
		*why = "empty signer key id: the sid is not of the form the "
		       "SignerInfo version names";
		return err;
	}
	*why = "no trusted key for the signer";
	return -ENOKEY;

matched:
	if (key->selfsig_unchecked) {
		/* whether the kernel holds this key at all */
		*why = "the ML-DSA self-signature of the trusted certificate "
		       "that names the signer";
		return -EXITCODE_ENOALG;
	}
	ret = kpk_verify(kr, key, sig, why);
	if (ret == -EXITCODE_ENOALG) {
		*why = sig == &si->sig ? "the signer's ML-DSA signature, "
		       "checked with the trusted key" : "the ML-DSA signature "
		       "of an embedded certificate, checked with the trusted "
		       "key";
		return ret;
	}
	if (ret) {
		/* pkcs7_validate_trust_one(): every failure but -ENOMEM
		 * becomes -EKEYREJECTED */
		return ret == -ENOMEM ? ret : -EKEYREJECTED;
	}
	si->trusted_by = key;
verified:
	if (x) {
		x->verified = true;
		for (p = si->signer; p && p != x; p = p->signer)
			p->verified = true;
	}
	if (!si->trusted_by)
		si->trusted_by = x;
	return 0;
}

/* pkcs7_validate_trust() */
static int validate_trust(const struct rules_rules *kr,
			  const struct keyring *ring, struct pkcs7_msg *m,
			  const char **why)
{
	int cached = -ENOKEY, ret;
	const char *w = NULL;
	size_t i;

	for (i = 0; i < m->n_certs; i++)
		m->certs[i]->seen = false;
	*why = "no trusted key for any signer";
	for (i = 0; i < m->n_sinfos; i++) {
		ret = trust_one(kr, ring, &m->sinfos[i], &w);
		switch (ret) {
		case -ENOKEY:
			continue;
		case -ENOPKG:
			if (cached == -ENOKEY) {
				cached = -ENOPKG;
				*why = w;
			}
			continue;
		case 0:
			cached = 0;
			*why = NULL;
			continue;
		default:
			*why = w;
			return ret;
		}
	}
	return cached;
}

int verify_pkcs7(const struct verify_ctx *kv, const uint8_t *data,
		    size_t len, const uint8_t *sig, size_t sig_len,
		    enum verify_usage usage, struct verify_result *res)
{
	const char *why = NULL;
	struct pkcs7_msg *m;
	size_t i;
	int ret;

	res->sig_len = sig_len;
	ret = pkcs7_parse(sig, sig_len, kv->kr, kv->bl, &m, &why);
	if (ret)
		return fail(res, ret, why);
	res->msg = m;
	/* pkcs7_supply_detached_data(): -EINVAL mapped to -EBADMSG */
	if (m->data)
		return fail(res, -EBADMSG, "PKCS#7 signature with non-detached data");
	ret = message_verify(kv->kr, m, usage, data, len, &why);
	if (ret)
		return fail(res, ret, why);

	/* is_key_on_revocation_list(): a revoked key that vouches for the
	 * message rejects it; before 6.6 certs/system_keyring.c
	 * verify_pkcs7_message_sig() asked only for the platform keyring */
	if (kv->revoked && kv->revoked->n &&
	    (kv->kr->revocation_all_keyrings || kv->platform_pass)) {
		ret = validate_trust(kv->kr, kv->revoked, m, &why);
		for (i = 0; i < m->n_sinfos; i++)
			m->sinfos[i].trusted_by = NULL;
		if (ret == 0)
			return fail(res, -EKEYREJECTED, "signing key is on the revocation list");
		if (ret == -EXITCODE_ENOALG)
			return fail(res, ret, why);
	}
	ret = validate_trust(kv->kr, kv->trusted, m, &why);
	if (ret)
		return fail(res, ret, why);
	res->err = 0;
	res->reason = NULL;
	return 0;
}

int verify_module(const struct verify_ctx *kv, const uint8_t *buf,
		     size_t len, enum verify_usage usage, struct verify_result *res)
{
	struct trailer t;
	const char *why;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = trailer_check(buf, len, &t, &why);
	if (ret)
		return fail(res, ret, why);
	ret = verify_pkcs7(kv, buf, t.body_len, buf + t.sig_off,
			      t.sig_len, usage, res);
	/*
	 * Debian, Fedora and Ubuntu carry "KEYS: Make use of platform keyring
	 * for module signature verify": a module no trusted key knows is
	 * tried again against .platform (UEFI db).  Mainline has no such
	 * fallback.
	 */
	if (ret == -ENOKEY && usage == VERIFY_USAGE_MODULE && kv->platform &&
	    kv->platform->n) {
		struct verify_ctx pk = *kv;

		pk.trusted = kv->platform;
		pk.platform = NULL;
		pk.platform_pass = true;
		verify_result_free(res);
		memset(res, 0, sizeof(*res));
		ret = verify_pkcs7(&pk, buf, t.body_len, buf + t.sig_off,
				      t.sig_len, usage, res);
	}
	/*
	 * Debian's "MODSIGN: checking the blacklisted hash before loading a
	 * kernel module" (kernel/module/signing.c mod_is_hash_blacklisted):
	 * after a successful verification, SHA-256 over the whole module as
	 * loaded (decompressed, signature and marker included) must not be
	 * a bin: entry of the blacklist.  Debian 6.1 and 6.12 only.
	 */
	if (ret == 0 && usage == VERIFY_USAGE_MODULE &&
	    kv->kr->module_bin_blacklist && kv->bl && kv->bl->n) {
		uint8_t d[64];
		size_t dlen;

		ret = pk_digest(rules_hash_by_name("sha256"), buf, len, d, &dlen);
		if (!ret && blacklist_has_bin(kv->bl, d, dlen))
			ret = fail(res, -EKEYREJECTED, "the module's whole-file "
				   "SHA-256 is blacklisted (Debian's "
				   "mod_is_hash_blacklisted)");
		else if (ret)
			ret = fail(res, ret, "cannot hash the module");
	}
	return ret;
}

void verify_result_free(struct verify_result *res)
{
	pkcs7_free(res->msg);
	res->msg = NULL;
}

const char *verify_usage_name(enum verify_usage u)
{
	switch (u) {
	case VERIFY_USAGE_MODULE: return "module";
	case VERIFY_USAGE_FIRMWARE: return "firmware";
	case VERIFY_USAGE_KEXEC: return "kexec";
	case VERIFY_USAGE_UNSPECIFIED: return "unspecified";
	case VERIFY_USAGE_BPF: return "bpf";
	}
	return "?";
}

int verify_usage_by_name(const char *name)
{
	static const enum verify_usage all[] = { VERIFY_USAGE_MODULE, VERIFY_USAGE_FIRMWARE,
					     VERIFY_USAGE_KEXEC,
					     VERIFY_USAGE_UNSPECIFIED,
					     VERIFY_USAGE_BPF };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(name, verify_usage_name(all[i])) == 0)
			return all[i];
	return -1;
}

/* A key of the image's: filed in .builtin_trusted_keys, or with no
 * keyring label at all (a -k, -c or --vmlinux key). */
static bool is_builtin(const struct x509k_cert *k)
{
	return !k->keyring || strcmp(k->keyring, ".builtin_trusted_keys") == 0;
}

int verify_restrict_by_signature(const struct rules_rules *kr,
			     const struct keyring *ring,
			     const struct x509k_cert *c, bool builtin_only,
			     const char **why)
{
	struct x509k_cert *key;
	int err, ret;

	if (!c->akid_id.data && !c->akid_keyid.data) {
		*why = "no authorityKeyIdentifier: no key can vouch for it";
		return -ENOKEY;
	}
	key = find_key(ring, &c->akid_id, &c->akid_keyid, &err);
	if (!key) {
		/* any failure of find_asymmetric_key() is -ENOKEY here */
		*why = "no built-in or secondary key signed it";
		return -ENOKEY;
	}
	if (builtin_only && !is_builtin(key)) {
		*why = "signed by a key that is not built in "
		       "(SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN)";
		return -ENOKEY;
	}
	ret = kpk_verify(kr, key, &c->sig, why);
	if (ret && !*why)
		*why = "its signature does not verify with the key that "
		       "its authorityKeyIdentifier names";
	return ret;
}
