// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "kernel/ber.h"
#include "kernel/pkcs7.h"

#define OID_SIGNED_DATA "1.2.840.113549.1.7.2"
#define OID_DATA "1.2.840.113549.1.7.1"
#define OID_MS_INDIRECT "1.3.6.1.4.1.311.2.1.4"
#define OID_CONTENT_TYPE "1.2.840.113549.1.9.3"
#define OID_MESSAGE_DIGEST "1.2.840.113549.1.9.4"
#define OID_SIGNING_TIME "1.2.840.113549.1.9.5"
#define OID_SMIME_CAPS "1.2.840.113549.1.9.15"
#define OID_MS_OPUS_INFO "1.3.6.1.4.1.311.2.1.12"
#define OID_MS_STATEMENT_TYPE "1.3.6.1.4.1.311.2.1.11"

struct ctx {
	struct p7_msg *m;
	const struct kr_rules *kr;
	const struct blacklist *bl;
	const char **why;
};

static int fail(struct ctx *c, int err, const char *why)
{
	*c->why = why;
	return err;
}

static int oid_of(const struct ber_tlv *t, char *buf, size_t size)
{
	if (!ber_tag_is(t, BER_OID))
		return -EBADMSG;
	return ber_oid_str(t->val, t->len, buf, size);
}

/* AlgorithmIdentifier: the OID; parameters are never looked at
 * (pkcs7_parser.c). */
/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY
 * OPTIONAL }: the decoder's END_SEQ insists that nothing follows. */
static int alg_oid(struct ber_it *it, char *buf, size_t size)
{
	struct ber_tlv a, o, x;
	struct ber_it ai;

	if (ber_expect(it, BER_SEQ, &a) || ber_it_enter(it, &a, &ai) ||
	    ber_expect(&ai, BER_OID, &o) || oid_of(&o, buf, size))
		return -EBADMSG;
	if (ber_next(&ai, &x) == 0 && ber_next(&ai, &x) != 1)
		return -EBADMSG;
	return 0;
}

/*
 * lib/asn1_decoder.c has no notion of an empty SET OF or SEQUENCE OF: the
 * element op runs once before END_SET_OF/END_SEQ_OF can loop, finds no
 * data ("data overrun") and fails -EBADMSG.  So every "X OF" of the
 * grammar needs at least one element, and each element the checks of
 * its own type.  Real kernels confirm it (conformance c92, c95-c97).
 */
typedef int (*of_elem_fn)(struct ctx *c, struct ber_it *it,
			  const struct ber_tlv *e);

static int each_of(struct ctx *c, const struct ber_it *parent,
		   const struct ber_tlv *t, of_elem_fn fn, const char *what)
{
	struct ber_it it;
	struct ber_tlv e;
	int ret, n = 0;

	if (ber_it_enter(parent, t, &it))
		return fail(c, -EBADMSG, what);
	while ((ret = ber_next(&it, &e)) == 0) {
		n++;
		if (fn && (ret = fn(c, &it, &e)))
			return ret;
	}
	if (ret < 0 || n == 0)
		return fail(c, -EBADMSG, what);
	return 0;
}

/* DigestAlgorithmIdentifier, an element of digestAlgorithms */
static int of_alg(struct ctx *c, struct ber_it *it, const struct ber_tlv *e)
{
	struct ber_it one;
	char o[64];

	ber_it_init(&one, e->start, e->total, it->depth);
	if (alg_oid(&one, o, sizeof(o)))
		return fail(c, -EBADMSG, "malformed digestAlgorithms");
	return 0;
}

/* AttributeValueAssertion ::= SEQUENCE { OID, ANY } */
static int of_ava(struct ctx *c, struct ber_it *it, const struct ber_tlv *e)
{
	struct ber_it ai;
	struct ber_tlv t;

	if (!ber_tag_is(e, BER_SEQ) || ber_it_enter(it, e, &ai) ||
	    ber_expect(&ai, BER_OID, &t) || ber_next(&ai, &t) != 0 ||
	    ber_next(&ai, &t) != 1)
		return fail(c, -EBADMSG, "malformed issuer Name");
	return 0;
}

/* RelativeDistinguishedName ::= SET OF AttributeValueAssertion */
static int of_rdn(struct ctx *c, struct ber_it *it, const struct ber_tlv *e)
{
	if (!ber_tag_is(e, BER_SET))
		return fail(c, -EBADMSG, "malformed issuer Name");
	return each_of(c, it, e, of_ava, "malformed issuer Name");
}

/* UnauthenticatedAttribute ::= SEQUENCE { OID, values SET OF ANY } */
static int of_uattr(struct ctx *c, struct ber_it *it, const struct ber_tlv *e)
{
	struct ber_it ai;
	struct ber_tlv t, v;

	if (!ber_tag_is(e, BER_SEQ) || ber_it_enter(it, e, &ai) ||
	    ber_expect(&ai, BER_OID, &t) || ber_expect(&ai, BER_SET, &v) ||
	    ber_next(&ai, &t) != 1)
		return fail(c, -EBADMSG, "malformed unauthenticatedAttributes");
	return each_of(c, &ai, &v, NULL, "malformed unauthenticatedAttributes");
}

/*
 * pkcs7.asn1 declares "CertificateList ::= SEQUENCE OF Certificate" and
 * Certificate as ANY ({ pkcs7_extract_cert }): every element inside a
 * CRL is parsed as an X.509 certificate, and the first that fails fails
 * the message.  A real CRL therefore makes the kernel refuse the
 * signature (conformance c81); the "certificates" parsed are dropped.
 */
static int of_crl_cert(struct ctx *c, struct ber_it *it,
		       const struct ber_tlv *e)
{
	struct x509k_cert *x;
	int ret;

	(void)it;
	if (e->tag != BER_SEQ)
		return fail(c, -EBADMSG, "CRL element is not a certificate");
	ret = x509k_parse(e->start, e->total, c->kr, c->bl, &x, c->why);
	if (!ret && x->selfsig_unchecked)
		ret = fail(c, -MS_ENOALG, "the ML-DSA self-signature of a "
			   "certificate in the crls field");
	x509k_free(x);
	return ret;
}

static int of_crl(struct ctx *c, struct ber_it *it, const struct ber_tlv *e)
{
	if (!ber_tag_is(e, BER_SEQ))
		return fail(c, -EBADMSG, "malformed crls");
	return each_of(c, it, e, of_crl_cert, "malformed crls");
}

/* pkcs7_extract_cert(): any certificate that fails fails the message. */
static int note_certs(struct ctx *c, struct ber_it *parent,
		      const struct ber_tlv *set)
{
	struct ber_it it;
	struct ber_tlv e;
	struct x509k_cert *x, **nc;
	int ret;

	if (ber_it_enter(parent, set, &it))
		return -EBADMSG;
	/* [2] is SEQUENCE OF Certificate (ANY): one element needed.  [0]'s
	 * element is a CHOICE, whose alternatives all skip when no data is
	 * left, and COND_FAIL then sees the [0] tag's own match: an empty
	 * [0] passes (real kernels agree, conformance c96a/c96b). */
	if (set->tag == BER_CTXC(2) && ber_peek(&it) < 0)
		return fail(c, -EBADMSG, "empty certificates field");
	while ((ret = ber_next(&it, &e)) == 0) {
		/* crypto/asymmetric_keys/pkcs7.asn1: each element must be a
		 * SEQUENCE */
		if (e.tag != BER_SEQ)
			return fail(c, -EBADMSG, "embedded certificate is not a SEQUENCE");
		ret = x509k_parse(e.start, e.total, c->kr, c->bl, &x, c->why);
		if (ret)
			return ret;
		/* the kernel checks it here and fails the whole message
		 * when it is bad: what follows depends on it */
		if (x->selfsig_unchecked) {
			x509k_free(x);
			return fail(c, -MS_ENOALG, "the ML-DSA self-signature "
				    "of an embedded certificate");
		}
		nc = realloc(c->m->certs, (c->m->n_certs + 1) * sizeof(*nc));
		if (!nc) {
			x509k_free(x);
			return -ENOMEM;
		}
		c->m->certs = nc;
		x->index = c->m->n_certs + 1;
		nc[c->m->n_certs++] = x;
	}
	return ret < 0 ? ret : 0;
}

/* pkcs7_sig_note_authenticated_attr(), per value of each attribute */
static int note_attr(struct ctx *c, struct p7_sinfo *si, const char *type,
		     const struct ber_tlv *v, unsigned *seen)
{
	enum { CT = 1, ST = 2, MD = 4, SC = 8, OPUS = 16, STMT = 32 };
	bool authenticode = c->m->data_type == P7_MS_INDIRECT;
	char o[64];

	if (strcmp(type, OID_CONTENT_TYPE) == 0) {
		if (*seen & CT)
			return fail(c, -EKEYREJECTED, "repeated contentType authattr");
		*seen |= CT;
		if (oid_of(v, o, sizeof(o)))
			return fail(c, -EBADMSG, "contentType authattr does not match the content");
		if (!((strcmp(o, OID_DATA) == 0 && !authenticode) ||
		      (strcmp(o, OID_MS_INDIRECT) == 0 && authenticode)))
			return fail(c, -EBADMSG, "contentType authattr does not match the content");
		return 0;
	}
	if (strcmp(type, OID_SIGNING_TIME) == 0) {
		if (*seen & ST)
			return fail(c, -EKEYREJECTED, "repeated signingTime authattr");
		*seen |= ST;
		si->has_signing_time = true;
		if (x509k_decode_time(v->tag, v->val, v->len,
				      &si->signing_time))
			return fail(c, -EBADMSG, "invalid signingTime authattr");
		return 0;
	}
	if (strcmp(type, OID_MESSAGE_DIGEST) == 0) {
		if (*seen & MD)
			return fail(c, -EKEYREJECTED, "repeated messageDigest authattr");
		*seen |= MD;
		if (v->tag != BER_OCTSTR)
			return fail(c, -EBADMSG, "messageDigest authattr is not an OCTET STRING");
		si->msgdigest = v->val;
		si->msgdigest_len = v->len;
		return 0;
	}
	if (strcmp(type, OID_SMIME_CAPS) == 0) {
		if (*seen & SC)
			return fail(c, -EKEYREJECTED, "repeated sMIMECapabilities authattr");
		*seen |= SC;
		if (!authenticode)
			return fail(c, -EKEYREJECTED, "S/MIME Caps only allowed with Authenticode");
		return 0;
	}
	if (strcmp(type, OID_MS_OPUS_INFO) == 0 ||
	    strcmp(type, OID_MS_STATEMENT_TYPE) == 0) {
		unsigned bit = strcmp(type, OID_MS_OPUS_INFO) == 0 ? OPUS : STMT;

		if (*seen & bit)
			return fail(c, -EKEYREJECTED, "repeated Authenticode authattr");
		*seen |= bit;
		if (!authenticode)
			return fail(c, -EKEYREJECTED, "Authenticode authattr on non-Authenticode data");
		return 0;
	}
	return 0;
}

static int note_attrs(struct ctx *c, struct p7_sinfo *si, struct ber_it *p,
		      const struct ber_tlv *set, bool is_set)
{
	struct ber_it it, ai, vi, seqit;
	struct ber_tlv a, t, vals, v, seq;
	unsigned seen = 0;
	char type[64];
	int ret;

	if (ber_it_enter(p, set, &it))
		return -EBADMSG;
	if (!is_set) {
		/* [2] EXPLICIT SEQUENCE OF: one more level */
		if (ber_expect(&it, BER_SEQ, &seq) ||
		    ber_it_enter(&it, &seq, &seqit))
			return -EBADMSG;
		it = seqit;
	}
	/* SET OF / SEQUENCE OF AuthenticatedAttribute, each with a SET OF
	 * values: none of them may be empty (each_of() says why) */
	if (ber_peek(&it) < 0)
		return fail(c, -EBADMSG, "empty authenticatedAttributes");
	while ((ret = ber_next(&it, &a)) == 0) {
		if (!ber_tag_is(&a, BER_SEQ) || ber_it_enter(&it, &a, &ai) ||
		    ber_expect(&ai, BER_OID, &t) ||
		    oid_of(&t, type, sizeof(type)) ||
		    ber_expect(&ai, BER_SET, &vals) ||
		    ber_it_enter(&ai, &vals, &vi) || ber_peek(&vi) < 0)
			return -EBADMSG;
		while ((ret = ber_next(&vi, &v)) == 0) {
			ret = note_attr(c, si, type, &v, &seen);
			if (ret)
				return ret;
		}
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		return ret;
	if (!is_set)
		return 0;
	/* pkcs7_sig_note_set_of_authattrs() */
	if (!(seen & 1) || !(seen & 4))
		return fail(c, -EBADMSG, "missing required authattr (contentType, messageDigest)");
	if (c->m->data_type != P7_MS_INDIRECT && (seen & 16))
		return fail(c, -EBADMSG, "msSpOpusInfo on non-Authenticode data");
	/* digested later with its [0] tag replaced by SET (pkcs7_verify.c,
	 * pkcs7_verify()) */
	si->authattrs = set->start + 1;
	si->authattrs_len = set->total - 1;
	return 0;
}

static int parse_sinfo(struct ctx *c, struct ber_it *p,
		       const struct ber_tlv *s, struct p7_sinfo *si)
{
	struct ber_it it, sid;
	struct ber_tlv e, iss, ser;
	char o[64];
	bool expect_skid;
	int ret;

	if (!ber_tag_is(s, BER_SEQ) || ber_it_enter(p, s, &it) ||
	    ber_expect(&it, BER_INT, &e))
		return fail(c, -EBADMSG, "malformed SignerInfo");
	/* pkcs7_note_signerinfo_version() */
	if (e.len != 1)
		return fail(c, -EINVAL, "unsupported SignerInfo version");
	si->version = e.val[0];
	if (si->version == 1) {
		if (c->m->version != 1)
			return fail(c, -EBADMSG, "SignedData-SignerInfo version mismatch");
		expect_skid = false;
	} else if (si->version == 3) {
		if (c->m->version == 1)
			return fail(c, -EBADMSG, "SignedData-SignerInfo version mismatch");
		expect_skid = true;
	} else {
		return fail(c, -EINVAL, "unsupported SignerInfo version");
	}

	if (ber_next(&it, &e))
		return fail(c, -EBADMSG, "malformed SignerInfo");
	if (ber_tag_is(&e, BER_SEQ)) {
		if (ber_it_enter(&it, &e, &sid) ||
		    ber_expect(&sid, BER_SEQ, &iss) ||
		    ber_expect(&sid, BER_INT, &ser))
			return fail(c, -EBADMSG, "malformed issuerAndSerialNumber");
		/* Name ::= SEQUENCE OF RelativeDistinguishedName */
		ret = each_of(c, &sid, &iss, of_rdn, "malformed issuer Name");
		if (ret)
			return ret;
		si->issuer = iss.val;
		si->issuer_len = iss.len;
		si->serial = ser.val;
		si->serial_len = ser.len;
	} else if (ber_tag_is(&e, BER_CTX(0))) {
		si->skid = e.val;
		si->skid_len = e.len;
	} else {
		return fail(c, -EBADMSG, "malformed SignerIdentifier");
	}

	/* pkcs7_sig_note_digest_algo() */
	if (alg_oid(&it, o, sizeof(o)))
		return fail(c, -EBADMSG, "malformed digestAlgorithm");
	si->hash = kr_pkcs7_hash(c->kr, o);
	if (!si->hash) {
		const struct kr_hash *h = kr_hash_by_oid(o);

		return fail(c, -ENOPKG, h && h->unparsed ? h->unparsed :
			    "unsupported digest algorithm");
	}
	si->sig.hash = si->hash;

	if (ber_peek(&it) == BER_CTXC(0) || ber_peek(&it) == BER_CTXC(2)) {
		bool is_set = ber_peek(&it) == BER_CTXC(0);

		ber_next(&it, &e);
		ret = note_attrs(c, si, &it, &e, is_set);
		if (ret)
			return ret;
	}

	/* pkcs7_sig_note_pkey_algo() */
	if (alg_oid(&it, o, sizeof(o)))
		return fail(c, -EBADMSG, "malformed digestEncryptionAlgorithm");
	si->algo = kr_sinfo_algo(c->kr, o);
	if (!si->algo)
		return fail(c, -ENOPKG, kr_sinfo_algo_absent(o));
	si->sig.pkey_algo = si->algo->pkey_algo;
	si->sig.encoding = si->algo->encoding;
	si->sig.takes_data = si->algo->takes_data;

	if (ber_expect(&it, BER_OCTSTR, &e))
		return fail(c, -EBADMSG, "malformed encryptedDigest");
	si->sig.s = e.val;
	si->sig.slen = e.len;
	/* unauthenticatedAttributes [1] or [3] IMPLICIT: decoded, never
	 * used (pkcs7_parser.c) */
	if ((ret = ber_next(&it, &e)) == 0) {
		if (e.tag != BER_CTXC(1) && e.tag != BER_CTXC(3))
			return fail(c, -EBADMSG, "malformed SignerInfo");
		ret = each_of(c, &it, &e, of_uattr,
			      "malformed unauthenticatedAttributes");
		if (ret)
			return ret;
		if (ber_next(&it, &e) == 0)
			return fail(c, -EBADMSG, "malformed SignerInfo");
	} else if (ret < 0) {
		return fail(c, -EBADMSG, "malformed SignerInfo");
	}

	/* pkcs7_note_signed_info() */
	if (c->m->data_type == P7_MS_INDIRECT && !si->authattrs)
		return fail(c, -EBADMSG, "Authenticode requires AuthAttrs");
	if (!expect_skid)
		ret = kid_make(&si->auth_id, si->serial, si->serial_len,
			       si->issuer, si->issuer_len);
	else
		ret = kid_make(&si->auth_id, si->skid, si->skid_len, NULL, 0);
	return ret;
}

static int parse_signed_data(struct ctx *c, struct ber_it *p,
			     const struct ber_tlv *sd)
{
	struct ber_it it, ci, cont, sis;
	struct ber_tlv e, o, d;
	struct p7_msg *m = c->m;
	char oid[64];
	int ret;

	if (!ber_tag_is(sd, BER_SEQ) || ber_it_enter(p, sd, &it) ||
	    ber_expect(&it, BER_INT, &e))
		return fail(c, -EBADMSG, "malformed SignedData");
	/* pkcs7_note_signeddata_version() */
	if (e.len != 1 || (e.val[0] != 1 && e.val[0] != 3))
		return fail(c, -EINVAL, "unsupported SignedData version");
	m->version = e.val[0];

	/* digestAlgorithms: SET or SEQUENCE OF AlgorithmIdentifier, decoded
	 * but never cross-checked with the SignerInfos (pkcs7_parser.c) */
	if (ber_next(&it, &e) ||
	    !(ber_tag_is(&e, BER_SET) || ber_tag_is(&e, BER_SEQ)))
		return fail(c, -EBADMSG, "malformed digestAlgorithms");
	ret = each_of(c, &it, &e, of_alg, "malformed digestAlgorithms");
	if (ret)
		return ret;

	/* encapContentInfo: pkcs7_note_content() and pkcs7_note_data() */
	if (ber_expect(&it, BER_SEQ, &e) || ber_it_enter(&it, &e, &ci) ||
	    ber_expect(&ci, BER_OID, &o) || oid_of(&o, oid, sizeof(oid)))
		return fail(c, -EBADMSG, "malformed encapContentInfo");
	if (strcmp(oid, OID_DATA) == 0)
		m->data_type = P7_DATA;
	else if (strcmp(oid, OID_MS_INDIRECT) == 0)
		m->data_type = P7_MS_INDIRECT;
	else
		return fail(c, -EINVAL, "unsupported data type");
	if ((ret = ber_next(&ci, &e)) == 0) {
		if (e.tag != BER_CTXC(0) || ber_it_enter(&ci, &e, &cont) ||
		    ber_next(&cont, &d))
			return fail(c, -EBADMSG, "malformed encapContentInfo");
		m->data = d.val;
		m->data_len = d.len;
	} else if (ret < 0) {
		return fail(c, -EBADMSG, "malformed encapContentInfo");
	}

	if (ber_next(&it, &e))
		return fail(c, -EBADMSG, "SignedData has no signerInfos");
	if (e.tag == BER_CTXC(0) || e.tag == BER_CTXC(2)) {
		ret = note_certs(c, &it, &e);
		if (ret)
			return ret;
		if (ber_next(&it, &e))
			return fail(c, -EBADMSG, "SignedData has no signerInfos");
	}
	if (e.tag == BER_CTXC(1) || e.tag == BER_CTXC(3)) {
		ret = each_of(c, &it, &e, of_crl, "malformed crls");
		if (ret)
			return ret;
		if (ber_next(&it, &e))
			return fail(c, -EBADMSG, "SignedData has no signerInfos");
	}
	if (!(ber_tag_is(&e, BER_SET) || ber_tag_is(&e, BER_SEQ)) ||
	    ber_it_enter(&it, &e, &sis))
		return fail(c, -EBADMSG, "malformed signerInfos");
	if (ber_next(&it, &e) == 0)
		return fail(c, -EBADMSG, "trailing data in SignedData");
	if (ber_peek(&sis) < 0)
		return fail(c, -EBADMSG, "empty signerInfos");

	while ((ret = ber_next(&sis, &e)) == 0) {
		struct p7_sinfo *ns = realloc(m->sinfos,
					      (m->n_sinfos + 1) * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		m->sinfos = ns;
		memset(&ns[m->n_sinfos], 0, sizeof(*ns));
		ns[m->n_sinfos].index = m->n_sinfos + 1;
		m->n_sinfos++;
		ret = parse_sinfo(c, &sis, &e, &ns[m->n_sinfos - 1]);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return fail(c, -EBADMSG, "malformed signerInfos");
	return 0;
}

static int parse(struct ctx *c, const uint8_t *der, size_t len)
{
	struct ber_tlv top, e;
	struct ber_it it, ex;
	struct p7_sinfo *si0;
	char oid[64];
	size_t i;
	int ret;

	ret = ber_top(der, len, &top);
	if (ret == -EMSGSIZE)
		return fail(c, ret, "signature larger than 64 KiB");
	if (ret)
		return fail(c, ret, "not BER, or truncated");
	if (!ber_tag_is(&top, BER_SEQ) || ber_it_enter(NULL, &top, &it) ||
	    ber_expect(&it, BER_OID, &e) || oid_of(&e, oid, sizeof(oid)))
		return fail(c, -EBADMSG, "not a PKCS#7 ContentInfo");
	/* pkcs7_check_content_type() */
	if (strcmp(oid, OID_SIGNED_DATA) != 0)
		return fail(c, -EINVAL, "only pkcs7_signedData is supported");
	if ((ret = ber_next(&it, &e)) == 0) {
		if (e.tag != BER_CTXC(0) || ber_it_enter(&it, &e, &ex) ||
		    ber_next(&ex, &e))
			return fail(c, -EBADMSG, "malformed ContentInfo");
		ret = parse_signed_data(c, &ex, &e);
		if (ret)
			return ret;
	} else if (ret < 0) {
		return fail(c, -EBADMSG, "malformed ContentInfo");
	}

	/*
	 * pkcs7_check_authattrs(): all or none, and at least one signer.
	 * Since v7.0 an ML-DSA signer without authattrs signs the content
	 * itself (hash_algo "none": its digestAlgorithm only had to parse),
	 * and only an ML-DSA first signer leaves the authattrs rejection of
	 * module signatures waivable.
	 */
	if (c->m->n_sinfos == 0)
		return fail(c, -EINVAL, "no SignerInfo (inconsistently supplied authAttrs)");
	si0 = &c->m->sinfos[0];
	c->m->have_authattrs = si0->authattrs != NULL;
	c->m->authattrs_rej_waivable = !si0->authattrs ||
		strncmp(si0->algo->pkey_algo, "mldsa", 5) == 0;
	for (i = 0; i < c->m->n_sinfos; i++) {
		struct p7_sinfo *si = &c->m->sinfos[i];

		if (!si->authattrs != !si0->authattrs)
			return fail(c, -EINVAL, "inconsistently supplied authAttrs");
		if (!si->authattrs && si->sig.takes_data)
			si->sig.hash_none = true;
	}
	return 0;
}

int p7_parse(const uint8_t *der, size_t len, const struct kr_rules *kr,
	     const struct blacklist *bl, struct p7_msg **out,
	     const char **why)
{
	struct ctx c = { .kr = kr, .bl = bl, .why = why };
	int ret;

	*out = NULL;
	*why = NULL;
	c.m = calloc(1, sizeof(*c.m));
	if (!c.m)
		return -ENOMEM;
	ret = parse(&c, der, len);
	if (ret) {
		if (!*why)
			*why = "malformed PKCS#7 message";
		p7_free(c.m);
		return ret;
	}
	*out = c.m;
	return 0;
}

void p7_free(struct p7_msg *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n_certs; i++)
		x509k_free(m->certs[i]);
	for (i = 0; i < m->n_sinfos; i++) {
		kid_free(&m->sinfos[i].auth_id);
		free(m->sinfos[i].signed_attrs);
	}
	free(m->certs);
	free(m->sinfos);
	free(m);
}
