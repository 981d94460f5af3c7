// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/x509.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "kernel/ber.h"
#include "kernel/x509.h"

#define OID_CN "2.5.4.3"
#define OID_O "2.5.4.10"
#define OID_EMAIL "1.2.840.113549.1.9.1"
#define OID_SKID "2.5.29.14"
#define OID_KEYUSAGE "2.5.29.15"
#define OID_BASICCONS "2.5.29.19"
#define OID_AKID "2.5.29.35"

bool kid_same(const struct kid *a, const struct kid *b)
{
	return a->data && b->data && a->len == b->len &&
	       memcmp(a->data, b->data, a->len) == 0;
}

int kid_make(struct kid *k, const uint8_t *a, size_t alen,
	     const uint8_t *b, size_t blen)
{
	k->data = malloc(alen + blen + 1);
	if (!k->data)
		return -ENOMEM;
	if (alen)
		memcpy(k->data, a, alen);
	if (blen)
		memcpy(k->data + alen, b, blen);
	k->len = alen + blen;
	return 0;
}

void kid_free(struct kid *k)
{
	free(k->data);
	k->data = NULL;
	k->len = 0;
}

/* days since 1970-01-01 of a civil date (proleptic Gregorian) */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int x509k_decode_time(uint8_t tag, const uint8_t *v, size_t len, int64_t *t)
{
	static const unsigned char mlen[] = { 31, 28, 31, 30, 31, 30,
					      31, 31, 30, 31, 30, 31 };
	unsigned year, mon, day, hour, min, sec, ml, f[7];
	size_t i, nf;

	/* x509_cert_parser.c, x509_decode_time(): UTCTime exactly
	 * YYMMDDHHMMSSZ, GeneralizedTime exactly
	 * YYYYMMDDHHMMSSZ and never for 1950..2049 */
	if (tag == BER_UTCTIME && len == 13)
		nf = 6;
	else if (tag == BER_GENTIME && len == 15)
		nf = 7;
	else
		return -EBADMSG;
	for (i = 0; i < nf; i++) {
		unsigned a = v[2 * i] - '0', b = v[2 * i + 1] - '0';

		if (a > 9 || b > 9)
			return -EBADMSG;
		f[i] = a * 10 + b;
	}
	if (v[2 * nf] != 'Z')
		return -EBADMSG;
	if (nf == 6) {
		year = f[0] >= 50 ? 1900 + f[0] : 2000 + f[0];
		i = 1;
	} else {
		year = f[0] * 100 + f[1];
		if (year >= 1950 && year <= 2049)
			return -EBADMSG;
		i = 2;
	}
	mon = f[i];
	day = f[i + 1];
	hour = f[i + 2];
	min = f[i + 3];
	sec = f[i + 4];
	if (year < 1970 || mon < 1 || mon > 12)
		return -EBADMSG;
	ml = mlen[mon - 1];
	if (mon == 2 && year % 4 == 0)
		ml = (year % 100 == 0 && year % 400 != 0) ? 28 : 29;
	if (day < 1 || day > ml || hour > 24 || min > 59 || sec > 60)
		return -EBADMSG;
	*t = days_from_civil(year, mon, day) * 86400 + hour * 3600 +
	     min * 60 + sec;
	return 0;
}

static int oid_of(const struct ber_tlv *t, char *buf, size_t size)
{
	if (!ber_tag_is(t, BER_OID))
		return -EBADMSG;
	return ber_oid_str(t->val, t->len, buf, size);
}

struct name_parts {
	const uint8_t *cn, *o, *email;
	size_t cn_len, o_len, email_len;
};

/* Walk a Name: SEQUENCE OF SET OF { OID, value }, keeping the last CN, O
 * and emailAddress (x509_extract_name_segment). */
static int walk_name(const struct ber_it *parent, const struct ber_tlv *n,
		     struct name_parts *np)
{
	struct ber_it rdns, set, atv;
	struct ber_tlv rdn, a, oid, val;
	char o[64];
	int ret;

	if ((ret = ber_it_enter(parent, n, &rdns)))
		return ret;
	while ((ret = ber_next(&rdns, &rdn)) == 0) {
		if (!ber_tag_is(&rdn, BER_SET) ||
		    (ret = ber_it_enter(&rdns, &rdn, &set)))
			return -EBADMSG;
		while ((ret = ber_next(&set, &a)) == 0) {
			if (!ber_tag_is(&a, BER_SEQ) ||
			    ber_it_enter(&set, &a, &atv) ||
			    ber_expect(&atv, BER_OID, &oid) ||
			    ber_next(&atv, &val))
				return -EBADMSG;
			if (oid_of(&oid, o, sizeof(o)))
				return -EBADMSG;
			if (!np)
				continue;
			if (strcmp(o, OID_CN) == 0) {
				np->cn = val.val;
				np->cn_len = val.len;
			} else if (strcmp(o, OID_O) == 0) {
				np->o = val.val;
				np->o_len = val.len;
			} else if (strcmp(o, OID_EMAIL) == 0) {
				np->email = val.val;
				np->email_len = val.len;
			}
		}
		if (ret < 0)
			return ret;
	}
	return ret < 0 ? ret : 0;
}

static void put_name(char *buf, size_t size, const uint8_t *p, size_t n)
{
	size_t l = strlen(buf), i;

	for (i = 0; i < n && l + 1 < size; i++)
		buf[l++] = (p[i] >= 0x20 && p[i] != 0x7f) ? (char)p[i] : '?';
	buf[l] = '\0';
}

/* x509_fabricate_name() (crypto/asymmetric_keys/x509_cert_parser.c) */
static void fabricate_name(const struct name_parts *np, char *buf,
			   size_t size)
{
	buf[0] = '\0';
	if (np->cn && np->o) {
		if ((np->o_len <= np->cn_len &&
		     memcmp(np->cn, np->o, np->o_len) == 0) ||
		    (np->o_len >= 7 && np->cn_len >= 7 &&
		     memcmp(np->cn, np->o, 7) == 0)) {
			put_name(buf, size, np->cn, np->cn_len);
			return;
		}
		put_name(buf, size, np->o, np->o_len);
		put_name(buf, size, (const uint8_t *)": ", 2);
		put_name(buf, size, np->cn, np->cn_len);
	} else if (np->cn) {
		put_name(buf, size, np->cn, np->cn_len);
	} else if (np->o) {
		put_name(buf, size, np->o, np->o_len);
	} else if (np->email) {
		put_name(buf, size, np->email, np->email_len);
	}
}

void x509k_describe(const struct x509k_cert *c, char *buf, size_t size)
{
	char hex[129];

	if (c->skid.data)
		ms_hex_to(hex, sizeof(hex), c->skid.data, c->skid.len);
	else
		ms_hex_to(hex, sizeof(hex), c->serial, c->serial_len);
	snprintf(buf, size, "%s: %s", c->name, hex);
}

/* x509_process_extension() (crypto/asymmetric_keys/x509_cert_parser.c) */
static int note_extension(struct x509k_cert *c, const struct kr_rules *kr,
			  const char *oid, const uint8_t *v, size_t vlen,
			  const uint8_t **akid, size_t *akid_len,
			  const char **why)
{
	if (strcmp(oid, OID_SKID) == 0) {
		/* crypto/asymmetric_keys/x509_cert_parser.c: exactly one
		 * SKID, an OCTET STRING filling the value */
		if (c->skid.data || vlen < 3 || v[0] != BER_OCTSTR ||
		    v[1] != vlen - 2) {
			*why = "malformed subjectKeyIdentifier";
			return -EBADMSG;
		}
		return kid_make(&c->skid, v + 2, vlen - 2, NULL, 0);
	}
	if (strcmp(oid, OID_KEYUSAGE) == 0 && kr->x509_constraints) {
		/* crypto/asymmetric_keys/x509_cert_parser.c, as Debian's 6.12
		 * has it: a BIT STRING of at least 4
		 * bytes, unused bits < 8; keyCertSign read from a 1-byte
		 * string with at most 2 unused bits, or from a 2-byte one */
		if (vlen < 4 || v[0] != BER_BITSTR || v[2] >= 8) {
			*why = "malformed keyUsage";
			return -EBADMSG;
		}
		c->digsig = v[3] & 0x80;
		c->keycertsign = (v[1] == 2 && v[2] <= 2 && (v[3] & 0x04)) ||
				 (vlen > 4 && v[1] == 3 && (v[3] & 0x04));
		return 0;
	}
	if (strcmp(oid, OID_AKID) == 0) {
		*akid = v;
		*akid_len = vlen;
		return 0;
	}
	if (strcmp(oid, OID_BASICCONS) == 0 && kr->x509_constraints) {
		/*
		 * crypto/asymmetric_keys/x509_cert_parser.c: a SEQUENCE
		 * filling the value, either empty (cA FALSE
		 * by omission, as DER wants) or starting with BOOLEAN TRUE
		 * (one byte, 0xff).  Anything else, an explicit FALSE
		 * included, fails the parse: Debian's 6.12 has this strict
		 * form (the real-kernel stage showed it, conformance c63).
		 */
		if (vlen < 2 || v[0] != BER_SEQ || v[1] != vlen - 2) {
			*why = "malformed basicConstraints";
			return -EBADMSG;
		}
		if (v[1] == 0)
			return 0;
		if (vlen < 5 || v[2] != BER_BOOL || v[3] != 1 || v[4] != 0xff) {
			*why = "basicConstraints neither empty nor cA TRUE";
			return -EBADMSG;
		}
		c->ca = true;
		return 0;
	}
	return 0;
}

/* The AuthorityKeyIdentifier (x509_akid.asn1): keyIdentifier [0],
 * authorityCertIssuer [1] GeneralNames with directoryName [4] Name,
 * authorityCertSerialNumber [2]. */
static int parse_akid(struct x509k_cert *c, const uint8_t *v, size_t len)
{
	struct ber_tlv top, e, gn, nm;
	struct ber_it it, gns, dn;
	const uint8_t *name = NULL;
	size_t name_len = 0;
	int ret;

	if (ber_top(v, len, &top) || !ber_tag_is(&top, BER_SEQ) ||
	    ber_it_enter(NULL, &top, &it))
		return -EBADMSG;
	while ((ret = ber_next(&it, &e)) == 0) {
		if (ber_tag_is(&e, BER_CTX(0))) {
			if (!c->akid_keyid.data &&
			    (ret = kid_make(&c->akid_keyid, e.val, e.len,
					    NULL, 0)))
				return ret;
		} else if (ber_tag_is(&e, BER_CTX(1))) {
			if (ber_it_enter(&it, &e, &gns))
				return -EBADMSG;
			while ((ret = ber_next(&gns, &gn)) == 0) {
				if (gn.tag != BER_CTXC(4))
					continue;
				/* (not verified) the kernel's span: we take
				 * the Name's contents, so that it can equal
				 * a certificate's id */
				if (ber_it_enter(&gns, &gn, &dn) ||
				    ber_expect(&dn, BER_SEQ, &nm))
					return -EBADMSG;
				name = nm.val;
				name_len = nm.len;
			}
			if (ret < 0)
				return ret;
		} else if (ber_tag_is(&e, BER_CTX(2))) {
			if (name && !c->akid_id.data &&
			    (ret = kid_make(&c->akid_id, e.val, e.len, name,
					    name_len)))
				return ret;
		} else {
			return -EBADMSG;
		}
	}
	return ret < 0 ? ret : 0;
}

/*
 * x509_get_sig_params() (x509_public_key.c).  Until v7.0 the certificate
 * is looked up in the blacklist by the digest of its own signature hash,
 * and not at all when that hash is missing (the signature is then only
 * marked unsupported); since v7.0 always by SHA-256(TBS), first.  An
 * ML-DSA signature covers the TBS itself (hash "none").
 */
static int sig_params(struct x509k_cert *c, const struct kr_rules *kr,
		      const struct blacklist *bl, const struct ber_tlv *tbs)
{
	const struct kr_hash *h;
	uint8_t d[64];
	size_t dlen;
	int ret;

	if (kr->tbs_blacklist_sha256) {
		ret = pk_digest(kr_hash_by_name("sha256"), tbs->start,
				tbs->total, d, &dlen);
		if (ret)
			return ret;
		if (bl_has_tbs(bl, d, dlen))
			c->blacklisted = true;
	}
	if (c->sig.takes_data) {
		c->sig.hash_none = true;
		c->sig.m = tbs->start;
		c->sig.mlen = tbs->total;
		return 0;
	}
	h = c->sig.hash;
	if (!kr_hash_available(kr, h)) {
		c->unsupported_sig = true;
		return 0;
	}
	ret = pk_digest(h, tbs->start, tbs->total, c->sig.digest,
			&c->sig.dlen);
	if (ret)
		return ret;
	if (!kr->tbs_blacklist_sha256 &&
	    bl_has_tbs(bl, c->sig.digest, c->sig.dlen))
		c->blacklisted = true;
	return 0;
}

/* x509_check_for_self_signed() */
static int check_self_signed(struct x509k_cert *c, const struct kr_rules *kr,
			     const char **why)
{
	const char *w = NULL;
	int ret;

	if (c->subject_len != c->issuer_len ||
	    memcmp(c->subject, c->issuer, c->issuer_len) != 0)
		return 0;
	if (c->akid_id.data || c->akid_keyid.data) {
		bool a = kid_same(&c->skid, &c->akid_keyid);
		bool b = kid_same(&c->id, &c->akid_id);

		if (!a && !b)
			return 0;
		if (a != b && c->akid_id.data && c->akid_keyid.data) {
			*why = "self-signed certificate's AKID half matches";
			return -EKEYREJECTED;
		}
	}
	if (c->unsupported_sig)
		return 0;
	ret = pk_verify(kr, &c->pub, &c->sig, &w);
	if (ret == -ENOPKG) {
		c->unsupported_sig = true;
		return 0;
	}
	if (ret == -MS_ENOALG) {
		/* the kernel would know; the verdicts that depend on it
		 * will say this build does not */
		c->selfsig_unchecked = true;
		c->self_signed = true;
		return 0;
	}
	if (ret) {
		/* a key the kernel refuses fails its own self-signature
		 * check: say why, rather than "bad self-signature" */
		*why = ret == -EKEYREJECTED || !w ? "bad self-signature" : w;
		return ret;
	}
	c->self_signed = true;
	return 0;
}

static int parse_cert(struct x509k_cert *c, const struct kr_rules *kr,
		      const struct blacklist *bl, const char **why)
{
	struct ber_tlv top, tbs, e, alg, oid, sig, t1, t2;
	struct ber_it it, ti, ai, vi, xi, ext, ei;
	const struct kr_x509_algo *sa;
	struct name_parts np = { 0 };
	const uint8_t *akid = NULL;
	size_t akid_len = 0;
	char tbs_oid[64], o[64];
	int ret;

	*why = "malformed certificate";
	ret = ber_top(c->der, c->der_len, &top);
	if (ret) {
		if (ret == -EMSGSIZE)
			*why = "certificate larger than 64 KiB";
		return ret;
	}
	if (!ber_tag_is(&top, BER_SEQ) || ber_it_enter(NULL, &top, &it) ||
	    ber_expect(&it, BER_SEQ, &tbs) || ber_it_enter(&it, &tbs, &ti))
		return -EBADMSG;

	if (ber_next(&ti, &e))
		return -EBADMSG;
	if (e.tag == BER_CTXC(0) && ber_next(&ti, &e))	/* version */
		return -EBADMSG;
	if (!ber_tag_is(&e, BER_INT))
		return -EBADMSG;
	c->serial = e.val;
	c->serial_len = e.len;

	/* x509_note_sig_algo(): unknown algorithm is -ENOPKG */
	if (ber_expect(&ti, BER_SEQ, &alg) || ber_it_enter(&ti, &alg, &ai) ||
	    ber_expect(&ai, BER_OID, &oid) ||
	    oid_of(&oid, tbs_oid, sizeof(tbs_oid)))
		return -EBADMSG;
	sa = kr_x509_algo(kr, tbs_oid);
	if (!sa) {
		*why = kr_x509_algo_absent(tbs_oid);
		return -ENOPKG;
	}

	if (ber_expect(&ti, BER_SEQ, &e) || walk_name(&ti, &e, NULL))
		return -EBADMSG;
	c->issuer = e.val;
	c->issuer_len = e.len;

	if (ber_expect(&ti, BER_SEQ, &e) || ber_it_enter(&ti, &e, &vi) ||
	    ber_next(&vi, &t1) || ber_next(&vi, &t2))
		return -EBADMSG;
	if (x509k_decode_time(t1.tag, t1.val, t1.len, &c->valid_from) ||
	    x509k_decode_time(t2.tag, t2.val, t2.len, &c->valid_to)) {
		*why = "unsupported or invalid validity time";
		return -EBADMSG;
	}

	if (ber_expect(&ti, BER_SEQ, &e) || walk_name(&ti, &e, &np))
		return -EBADMSG;
	c->subject = e.val;
	c->subject_len = e.len;

	if (ber_expect(&ti, BER_SEQ, &e))
		return -EBADMSG;
	if ((ret = pk_parse_spki(kr, &ti, &e, &c->pub, why)))
		return ret;

	while ((ret = ber_next(&ti, &e)) == 0) {
		if (e.tag == BER_CTX(1) || e.tag == BER_CTX(2))
			continue;
		if (e.tag != BER_CTXC(3) || ber_it_enter(&ti, &e, &xi) ||
		    ber_expect(&xi, BER_SEQ, &e) ||
		    ber_it_enter(&xi, &e, &ext))
			return -EBADMSG;
		while ((ret = ber_next(&ext, &e)) == 0) {
			struct ber_tlv eo, ev;

			if (!ber_tag_is(&e, BER_SEQ) ||
			    ber_it_enter(&ext, &e, &ei) ||
			    ber_expect(&ei, BER_OID, &eo) ||
			    oid_of(&eo, o, sizeof(o)) || ber_next(&ei, &ev))
				return -EBADMSG;
			if (ev.tag == BER_BOOL && ber_next(&ei, &ev))
				return -EBADMSG;
			if (!ber_tag_is(&ev, BER_OCTSTR))
				return -EBADMSG;
			ret = note_extension(c, kr, o, ev.val, ev.len, &akid,
					     &akid_len, why);
			if (ret)
				return ret;
		}
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		return ret;

	/* x509_note_signature(): outer algorithm must be the TBS one */
	if (ber_expect(&it, BER_SEQ, &alg) || ber_it_enter(&it, &alg, &ai) ||
	    ber_expect(&ai, BER_OID, &oid) || oid_of(&oid, o, sizeof(o)) ||
	    ber_expect(&it, BER_BITSTR, &sig))
		return -EBADMSG;
	if (strcmp(o, tbs_oid) != 0) {
		*why = "signatureAlgorithm differs from tbsCertificate.signature";
		return -EINVAL;
	}
	if (sig.len < 1 || sig.val[0] != 0) {
		*why = "signature BIT STRING has unused bits";
		return -EBADMSG;
	}
	c->sig.s = sig.val + 1;
	c->sig.slen = sig.len - 1;
	c->sig.pkey_algo = sa->pkey_algo;
	c->sig.encoding = sa->encoding;
	c->sig.takes_data = sa->takes_data;
	c->sig.hash = kr_hash_by_name(sa->hash);

	if (akid && parse_akid(c, akid, akid_len)) {
		*why = "malformed authorityKeyIdentifier";
		return -EBADMSG;
	}
	if ((ret = kid_make(&c->id, c->serial, c->serial_len, c->issuer,
			    c->issuer_len)))
		return ret;
	fabricate_name(&np, c->name, sizeof(c->name));

	ret = sig_params(c, kr, bl, &tbs);
	if (ret)
		return ret;
	return check_self_signed(c, kr, why);
}

int x509k_parse(const uint8_t *der, size_t len, const struct kr_rules *kr,
		const struct blacklist *bl, struct x509k_cert **out,
		const char **why)
{
	struct x509k_cert *c = calloc(1, sizeof(*c));
	int ret;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->der = malloc(len ? len : 1);
	if (!c->der) {
		free(c);
		return -ENOMEM;
	}
	memcpy(c->der, der, len);
	c->der_len = len;
	ret = parse_cert(c, kr, bl, why);
	if (ret) {
		x509k_free(c);
		return ret;
	}
	*why = NULL;
	*out = c;
	return 0;
}

void x509k_free(struct x509k_cert *c)
{
	if (!c)
		return;
	kid_free(&c->id);
	kid_free(&c->skid);
	kid_free(&c->akid_id);
	kid_free(&c->akid_keyid);
	EVP_PKEY_free(c->pub.pkey);
	free(c->path);
	free(c->der);
	free(c);
}
