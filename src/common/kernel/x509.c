// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/x509.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "kernel/asn1.h"
#include "kernel/x509.h"

#define OID_CN "2.5.4.3"
#define OID_O "2.5.4.10"
#define OID_EMAIL "1.2.840.113549.1.9.1"
#define OID_SKID "2.5.29.14"
#define OID_KEYUSAGE "2.5.29.15"
#define OID_BASICCONS "2.5.29.19"
#define OID_AKID "2.5.29.35"

bool x509k_kid_same(const struct x509k_kid *a, const struct x509k_kid *b)
{
	return a->data && b->data && a->len == b->len &&
	       memcmp(a->data, b->data, a->len) == 0;
}

int x509k_kid_make(struct x509k_kid *k, const uint8_t *a, size_t alen,
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

void x509k_kid_free(struct x509k_kid *k)
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
	if (tag == ASN1_TAG_UTCTIME && len == 13)
		nf = 6;
	else if (tag == ASN1_TAG_GENTIME && len == 15)
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

/* the name parts x509_extract_name_segment() keeps: an empty value is
 * as good as none (x509_fabricate_name() tests their sizes) */
struct name_parts {
	const uint8_t *cn, *o, *email;
	size_t cn_len, o_len, email_len;
};

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
	if (np->cn_len && np->o_len) {
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
	} else if (np->cn_len) {
		put_name(buf, size, np->cn, np->cn_len);
	} else if (np->o_len) {
		put_name(buf, size, np->o, np->o_len);
	} else if (np->email_len) {
		put_name(buf, size, np->email, np->email_len);
	}
}

void x509k_describe(const struct x509k_cert *c, char *buf, size_t size)
{
	char hex[129];

	if (c->skid.data)
		format_hex_to(hex, sizeof(hex), c->skid.data, c->skid.len);
	else
		format_hex_to(hex, sizeof(hex), c->serial, c->serial_len);
	snprintf(buf, size, "%s: %s", c->name, hex);
}

/* x509_process_extension() (crypto/asymmetric_keys/x509_cert_parser.c) */
static int note_extension(struct x509k_cert *c, const struct rules_rules *kr,
			  const char *oid, const uint8_t *v, size_t vlen,
			  const uint8_t **akid, size_t *akid_len,
			  const char **why)
{
	if (strcmp(oid, OID_SKID) == 0) {
		/* crypto/asymmetric_keys/x509_cert_parser.c: exactly one
		 * SKID, an OCTET STRING filling the value */
		if (c->skid.data || vlen < 3 || v[0] != ASN1_TAG_OCTSTR ||
		    v[1] != vlen - 2) {
			*why = "malformed subjectKeyIdentifier";
			return -EBADMSG;
		}
		return x509k_kid_make(&c->skid, v + 2, vlen - 2, NULL, 0);
	}
	if (strcmp(oid, OID_KEYUSAGE) == 0 && kr->x509_constraints) {
		/* crypto/asymmetric_keys/x509_cert_parser.c, as Debian's 6.12
		 * has it: a BIT STRING of at least 4
		 * bytes, unused bits < 8; keyCertSign read from a 1-byte
		 * string with at most 2 unused bits, or from a 2-byte one */
		if (vlen < 4 || v[0] != ASN1_TAG_BITSTR || v[2] >= 8) {
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
		if (vlen < 2 || v[0] != ASN1_TAG_SEQ || v[1] != vlen - 2) {
			*why = "malformed basicConstraints";
			return -EBADMSG;
		}
		if (v[1] == 0)
			return 0;
		if (vlen < 5 || v[2] != ASN1_TAG_BOOL || v[3] != 1 || v[4] != 0xff) {
			*why = "basicConstraints neither empty nor cA TRUE";
			return -EBADMSG;
		}
		c->ca = true;
		return 0;
	}
	return 0;
}

/*
 * x509_get_sig_params() (x509_public_key.c).  Until v7.0 the certificate
 * is looked up in the blacklist by the digest of its own signature hash,
 * and not at all when that hash is missing (the signature is then only
 * marked unsupported); since v7.0 always by SHA-256(TBS), first.  An
 * ML-DSA signature covers the TBS itself (hash "none").
 */
static int sig_params(struct x509k_cert *c, const struct rules_rules *kr,
		      const struct blacklist *bl, const uint8_t *tbs,
		      size_t tbs_len)
{
	const struct rules_hash *h;
	uint8_t d[64];
	size_t dlen;
	int ret;

	if (kr->tbs_blacklist_sha256) {
		ret = pk_digest(rules_hash_by_name("sha256"), tbs, tbs_len, d,
				&dlen);
		if (ret)
			return ret;
		if (blacklist_has_tbs(bl, d, dlen))
			c->blacklisted = true;
	}
	if (c->sig.takes_data) {
		c->sig.hash_none = true;
		c->sig.m = tbs;
		c->sig.mlen = tbs_len;
		return 0;
	}
	h = c->sig.hash;
	if (!rules_hash_available(kr, h)) {
		c->unsupported_sig = true;
		return 0;
	}
	ret = pk_digest(h, tbs, tbs_len, c->sig.digest,
			&c->sig.dlen);
	if (ret)
		return ret;
	if (!kr->tbs_blacklist_sha256 &&
	    blacklist_has_tbs(bl, c->sig.digest, c->sig.dlen))
		c->blacklisted = true;
	return 0;
}

/* x509_check_for_self_signed() */
static int check_self_signed(struct x509k_cert *c, const struct rules_rules *kr,
			     const char **why)
{
	const char *w = NULL;
	int ret;

	if (c->subject_len != c->issuer_len ||
	    memcmp(c->subject, c->issuer, c->issuer_len) != 0)
		return 0;
	if (c->akid_id.data || c->akid_keyid.data) {
		bool a = x509k_kid_same(&c->skid, &c->akid_keyid);
		bool b = x509k_kid_same(&c->id, &c->akid_id);

		if (!a && !b)
			return 0;
		if (a != b && c->akid_id.data && c->akid_keyid.data) {
			*why = "self-signed certificate's AKID half matches";
			return -EKEYREJECTED;
		}
	}
	/* before v5.18 the key's and the signature's algorithms are
	 * compared here, before an unsupported signature is let through */
	if (kr->old_pkey_algo_checks && c->pub.algo && c->sig.pkey_algo &&
	    !pk_algo_matches(c->pub.algo, c->sig.pkey_algo)) {
		*why = "self-signed certificate's key and signature "
		       "algorithms differ";
		return -EKEYREJECTED;
	}
	if (c->unsupported_sig)
		return 0;
	ret = pk_verify(kr, &c->pub, &c->sig, &w);
	if (ret == -ENOPKG) {
		c->unsupported_sig = true;
		return 0;
	}
	if (ret == -EXITCODE_ENOALG) {
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

/*
 * x509_cert_parse(): the grammar of crypto/asymmetric_keys/x509.asn1 run
 * by the kernel's decoder (asn1.c) with x509_cert_parser.c's actions,
 * then x509_akid.asn1 over the authorityKeyIdentifier's value.
 */
struct xctx {
	struct x509k_cert *c;
	const struct rules_rules *kr;
	const char **why;
	char last_oid[64];	/* "" for one the kernel does not know */
	const uint8_t *last_oid_raw;
	size_t last_oid_len;
	char sig_algo[64];
	const uint8_t *params;	/* the SubjectPublicKeyInfo's, with header */
	size_t params_len;
	bool have_key;
	struct name_parts np;
	const uint8_t *akid, *akid_issuer, *tbs;
	size_t akid_len, akid_issuer_len, tbs_len;
};

static int xfail(struct xctx *x, int err, const char *why)
{
	*x->why = why;
	return err;
}

/* x509_note_OID() */
static int x_oid(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		 size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	asn1_oid_name(v, len, x->last_oid, sizeof(x->last_oid));
	x->last_oid_raw = v;
	x->last_oid_len = len;
	return 0;
}

/* x509_note_params(): only the parameters of the AlgorithmIdentifier
 * between the subject and the key are kept */
static int x_params(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct xctx *x = ctx;

	(void)tag;
	if (!x->c->subject || x->have_key)
		return 0;
	x->params = v - hdr;
	x->params_len = len + hdr;
	return 0;
}

/* x509_note_serial() */
static int x_serial(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	x->c->serial = v;
	x->c->serial_len = len;
	return 0;
}

/* x509_note_sig_algo(): an algorithm the line does not know is -ENOPKG */
static int x_sig_algo(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		      size_t len)
{
	struct xctx *x = ctx;
	const struct rules_x509_algo *sa = rules_x509_algo(x->kr, x->last_oid);

	(void)hdr, (void)tag, (void)v, (void)len;
	if (!sa)
		return xfail(x, -ENOPKG, rules_x509_algo_absent(x->last_oid));
	x->c->sig.pkey_algo = sa->pkey_algo;
	x->c->sig.encoding = sa->encoding;
	x->c->sig.takes_data = sa->takes_data;
	x->c->sig.hash = rules_hash_by_name(sa->hash);
	memcpy(x->sig_algo, x->last_oid, sizeof(x->sig_algo));
	return 0;
}

/* x509_extract_name_segment(): the last CN, O and emailAddress */
static int x_name_segment(void *ctx, size_t hdr, uint8_t tag,
			  const uint8_t *v, size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	if (strcmp(x->last_oid, OID_CN) == 0) {
		x->np.cn = v;
		x->np.cn_len = len;
	} else if (strcmp(x->last_oid, OID_O) == 0) {
		x->np.o = v;
		x->np.o_len = len;
	} else if (strcmp(x->last_oid, OID_EMAIL) == 0) {
		x->np.email = v;
		x->np.email_len = len;
	}
	return 0;
}

/* x509_note_issuer() and x509_note_subject(): each fabricates a name
 * from the segments seen since the last, and forgets them */
static int x_issuer(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	x->c->issuer = v;
	x->c->issuer_len = len;
	memset(&x->np, 0, sizeof(x->np));
	return 0;
}

static int x_subject(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		     size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	x->c->subject = v;
	x->c->subject_len = len;
	fabricate_name(&x->np, x->c->name, sizeof(x->c->name));
	memset(&x->np, 0, sizeof(x->np));
	return 0;
}

/* x509_note_not_before(), x509_note_not_after() */
static int x_time(struct xctx *x, uint8_t tag, const uint8_t *v, size_t len,
		  int64_t *t)
{
	if (x509k_decode_time(tag, v, len, t))
		return xfail(x, -EBADMSG, "unsupported or invalid validity time");
	return 0;
}

static int x_not_before(void *ctx, size_t hdr, uint8_t tag,
			const uint8_t *v, size_t len)
{
	struct xctx *x = ctx;

	(void)hdr;
	return x_time(x, tag, v, len, &x->c->valid_from);
}

static int x_not_after(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct xctx *x = ctx;

	(void)hdr;
	return x_time(x, tag, v, len, &x->c->valid_to);
}

/* x509_extract_key_data() */
static int x_key(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		 size_t len)
{
	struct xctx *x = ctx;
	int ret;

	(void)hdr, (void)tag;
	ret = pk_key_make(x->kr, x->last_oid_raw, x->last_oid_len, x->params,
			  x->params_len, v, len, &x->c->pub, x->why);
	if (ret)
		return ret;
	x->have_key = true;
	return 0;
}

/* x509_process_extension() */
static int x_extension(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	return note_extension(x->c, x->kr, x->last_oid, v, len, &x->akid,
			      &x->akid_len, x->why);
}

/* x509_note_tbs_certificate() */
static int x_tbs(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		 size_t len)
{
	struct xctx *x = ctx;

	(void)tag;
	x->tbs = v - hdr;
	x->tbs_len = len + hdr;
	return 0;
}

/* x509_note_signature(): the outer algorithm must be the one the TBS
 * named, and the BIT STRING must have no unused bits */
static int x_signature(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	if (strcmp(x->last_oid, x->sig_algo) != 0)
		return xfail(x, -EINVAL, "signatureAlgorithm differs from "
			     "tbsCertificate.signature");
	x->c->sig.s = v;
	x->c->sig.slen = len;
	/* only these have the BIT STRING's unused-bits octet discarded */
	if (strcmp(x->c->sig.pkey_algo, "rsa") != 0 &&
	    strcmp(x->c->sig.pkey_algo, "ecdsa") != 0 &&
	    strcmp(x->c->sig.pkey_algo, "ecrdsa") != 0 &&
	    strncmp(x->c->sig.pkey_algo, "mldsa", 5) != 0)
		return 0;
	if (len < 1 || v[0] != 0)
		return xfail(x, -EBADMSG, "signature BIT STRING has unused bits");
	x->c->sig.s = v + 1;
	x->c->sig.slen = len - 1;
	return 0;
}

/* x509_akid_note_kid(), x509_akid_note_name(), x509_akid_note_serial():
 * the first keyIdentifier, and the serial with the directoryName seen
 * before it */
static int x_akid_kid(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		      size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	if (x->c->akid_keyid.data)
		return 0;
	return x509k_kid_make(&x->c->akid_keyid, v, len, NULL, 0);
}

static int x_akid_name(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	x->akid_issuer = v;
	x->akid_issuer_len = len;
	return 0;
}

static int x_akid_serial(void *ctx, size_t hdr, uint8_t tag,
			 const uint8_t *v, size_t len)
{
	struct xctx *x = ctx;

	(void)hdr, (void)tag;
	if (!x->akid_issuer || x->c->akid_id.data)
		return 0;
	return x509k_kid_make(&x->c->akid_id, v, len, x->akid_issuer,
			x->akid_issuer_len);
}


/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID ({ x509_note_OID }),
 * parameters ANY OPTIONAL ({ x509_note_params }) } */
static const struct asn1_op x_r_alg[] = {
	M_ACT(ASN1_TAG_OID, x_oid),
	M_F(ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, x_params, NULL),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* Name ::= SEQUENCE OF RelativeDistinguishedName, each a SET OF
 * SEQUENCE { OID ({ x509_note_OID }), ANY
 * ({ x509_extract_name_segment }) } */
static const struct asn1_op x_r_name[] = {
	/* 0 */ M(ASN1_TAG_SET),
	/* 1 */ M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, x_oid),
	M_F(ASN1_FLAG_ANY, 0, x_name_segment, NULL),
	END_SEQ,
	END_OF(1),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* version [0] EXPLICIT INTEGER */
static const struct asn1_op x_r_version[] = {
	M(ASN1_TAG_INT),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* extensions [3] EXPLICIT SEQUENCE OF SEQUENCE { extnid OID, critical
 * BOOLEAN OPTIONAL, extnValue OCTET STRING ({ x509_process_extension }) } */
static const struct asn1_op x_r_extensions[] = {
	M(ASN1_TAG_SEQ),
	/* 1 */ M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, x_oid),
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_BOOL, NULL, NULL),
	M_ACT(ASN1_TAG_OCTSTR, x_extension),
	END_SEQ,
	END_OF(1),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op x_r_cert[] = {
	M(ASN1_TAG_SEQ),
	/* TBSCertificate */
	M(ASN1_TAG_SEQ),
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, x_r_version),
	M(ASN1_TAG_INT),
	ACT(x_serial),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, x_r_alg),
	ACT(x_sig_algo),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, x_r_name),
	ACT(x_issuer),
	/* Validity: two CHOICEs of UTCTime and GeneralizedTime */
	M(ASN1_TAG_SEQ),
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_UTCTIME, NULL, NULL),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_SKIP, ASN1_TAG_GENTIME, NULL, NULL),
	OP(ASN1_OP_COND_FAIL),
	ACT(x_not_before),
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_UTCTIME, NULL, NULL),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_SKIP, ASN1_TAG_GENTIME, NULL, NULL),
	OP(ASN1_OP_COND_FAIL),
	ACT(x_not_after),
	END_SEQ,
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, x_r_name),
	ACT(x_subject),
	/* SubjectPublicKeyInfo */
	M(ASN1_TAG_SEQ),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, x_r_alg),
	M_ACT(ASN1_TAG_BITSTR, x_key),
	END_SEQ,
	/* issuerUniqueID [1] IMPLICIT, subjectUniqueID [2] IMPLICIT */
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_CTX(1), NULL, NULL),
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_CTX(2), NULL, NULL),
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(3), NULL, x_r_extensions),
	END_SEQ,
	ACT(x_tbs),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, x_r_alg),
	M_ACT(ASN1_TAG_BITSTR, x_signature),
	END_SEQ,
	OP(ASN1_OP_COMPLETE),
};

/* x509_akid.asn1: the GeneralName alternatives, each as the kernel's
 * compiled grammar has it, a constructed context tag around its type */
static const struct asn1_op x_r_gn_any[] = {
	M_F(ASN1_FLAG_ANY, 0, NULL, NULL),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op x_r_gn_ia5[] = {
	M(ASN1_TAG_IA5),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op x_r_gn_octets[] = {
	M(ASN1_TAG_OCTSTR),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op x_r_gn_oid[] = {
	M(ASN1_TAG_OID),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* directoryName [4]: Name ({ x509_akid_note_name }) */
static const struct asn1_op x_r_gn_dirname[] = {
	M(ASN1_TAG_SEQ),
	/* 1 */ M(ASN1_TAG_SET),
	/* 2 */ M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, x_oid),
	M_F(ASN1_FLAG_ANY, 0, x_name_segment, NULL),
	END_SEQ,
	END_OF(2),
	END_OF(1),
	ACT(x_akid_name),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

#define GN(n, r) M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(n), NULL, r)

/* GeneralNames ::= SEQUENCE OF GeneralName (a CHOICE) */
static const struct asn1_op x_r_general_names[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, x_r_gn_any),
	GN(1, x_r_gn_ia5),
	GN(2, x_r_gn_ia5),
	GN(3, x_r_gn_any),
	GN(4, x_r_gn_dirname),
	GN(5, x_r_gn_any),
	GN(6, x_r_gn_ia5),
	GN(7, x_r_gn_octets),
	GN(8, x_r_gn_oid),
	OP(ASN1_OP_COND_FAIL),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* The 6.12 and 7.3 grammar (kr->akid_implicit_names): otherName [0]
 * IMPLICIT SEQUENCE { type-id OID, value [0] ANY } */
static const struct asn1_op x_r_gn_other_name[] = {
	M(ASN1_TAG_OID),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_CTXC(0), NULL, x_r_gn_any),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* ediPartyName [5] IMPLICIT SEQUENCE { nameAssigner [0] ANY OPTIONAL,
 * partyName [1] ANY } */
static const struct asn1_op x_r_gn_edi_party[] = {
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, x_r_gn_any),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_CTXC(1), NULL, x_r_gn_any),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* the string, octet and OID alternatives IMPLICIT: a primitive tag, its
 * contents not looked into */
#define GN_PRIM(n) M_F(ASN1_FLAG_COND | ASN1_FLAG_SKIP, ASN1_TAG_CTX(n), NULL, NULL)

static const struct asn1_op x_r_general_names_implicit[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, x_r_gn_other_name),
	GN_PRIM(1),
	GN_PRIM(2),
	GN(3, x_r_gn_any),
	GN(4, x_r_gn_dirname),
	GN(5, x_r_gn_edi_party),
	GN_PRIM(6),
	GN_PRIM(7),
	GN_PRIM(8),
	OP(ASN1_OP_COND_FAIL),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT
 * OPTIONAL, authorityCertIssuer [1] GeneralNames OPTIONAL,
 * authorityCertSerialNumber [2] IMPLICIT OPTIONAL }: one shape, with
 * 6.1's GeneralName or the later one */
#define AKID_GRAMMAR(general_names) {					\
	M(ASN1_TAG_SEQ),							\
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_CTX(0), x_akid_kid, NULL),			\
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(1), NULL, general_names),	\
	M_F(ASN1_FLAG_SKIP, ASN1_TAG_CTX(2), x_akid_serial, NULL),			\
	END_SEQ,							\
	OP(ASN1_OP_COMPLETE),							\
}
static const struct asn1_op x_r_akid[] = AKID_GRAMMAR(x_r_general_names);
static const struct asn1_op x_r_akid_implicit[] =
	AKID_GRAMMAR(x_r_general_names_implicit);

static int parse_cert(struct x509k_cert *c, const struct rules_rules *kr,
		      const struct blacklist *bl, const char **why)
{
	struct xctx x = { .c = c, .kr = kr, .why = why };
	const char *w;
	int ret;

	*why = NULL;
	ret = asn1_decode(x_r_cert, &x, c->der, c->der_len, &w);
	if (ret == -EMSGSIZE) {
		*why = "certificate larger than 64 KiB";
		return ret;
	}
	if (ret) {
		if (!*why)
			*why = w ? w : "malformed certificate";
		return ret;
	}
	if (x.akid) {
		ret = asn1_decode(kr->akid_implicit_names ?
				  x_r_akid_implicit : x_r_akid, &x, x.akid,
				  x.akid_len, &w);
		if (ret) {
			if (!*why)
				*why = "malformed authorityKeyIdentifier";
			return ret;
		}
	}
	if ((ret = x509k_kid_make(&c->id, c->serial, c->serial_len, c->issuer,
			    c->issuer_len)))
		return ret;
	ret = sig_params(c, kr, bl, x.tbs, x.tbs_len);
	if (ret)
		return ret;
	return check_self_signed(c, kr, why);
}

int x509k_parse(const uint8_t *der, size_t len, const struct rules_rules *kr,
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
	x509k_kid_free(&c->id);
	x509k_kid_free(&c->skid);
	x509k_kid_free(&c->akid_id);
	x509k_kid_free(&c->akid_keyid);
	EVP_PKEY_free(c->pub.pkey);
	free(c->path);
	free(c->der);
	free(c);
}
