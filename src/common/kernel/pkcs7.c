// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "kernel/asn1.h"
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

/*
 * The parse is crypto/asymmetric_keys/pkcs7_parser.c's: the grammar of
 * crypto/asymmetric_keys/pkcs7.asn1 run by the kernel's decoder (asn1.c),
 * with the actions below called as their elements match, in the order
 * of the message.  Like struct pkcs7_parse_context, the context keeps
 * the last OID and the raw issuer, serial and SKID of the sid across
 * SignerInfos: a SignerInfo whose version asks for the form of sid it
 * does not have gets its key id from an earlier one's (or an empty one).
 */
struct ctx {
	struct pkcs7_msg *m;
	const struct rules_rules *kr;
	const struct blacklist *bl;
	const char **why;
	const uint8_t *der;
	size_t der_len;
	char last_oid[64];	/* "" for an OID the kernel would not know */
	struct pkcs7_sinfo cur;	/* the SignerInfo being decoded */
	unsigned aa_seen;
	bool expect_skid, certs_listed;
	const uint8_t *raw_issuer, *raw_serial, *raw_skid;
	size_t raw_issuer_len, raw_serial_len, raw_skid_len;
};

static int fail(struct ctx *c, int err, const char *why)
{
	*c->why = why;
	return err;
}

static bool oid_is(const uint8_t *p, size_t len, const char *dotted)
{
	char o[64];

	asn1_oid_name(p, len, o, sizeof(o));
	return strcmp(o, dotted) == 0;
}

/* pkcs7_note_OID() */
static int act_oid(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		   size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	asn1_oid_name(v, len, c->last_oid, sizeof(c->last_oid));
	return 0;
}

/* pkcs7_check_content_type() */
static int act_content_type(void *ctx, size_t hdr, uint8_t tag,
			    const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag, (void)v, (void)len;
	if (strcmp(c->last_oid, OID_SIGNED_DATA) != 0)
		return fail(c, -EINVAL, "only pkcs7_signedData is supported");
	return 0;
}

/* pkcs7_note_signeddata_version() */
static int act_sd_version(void *ctx, size_t hdr, uint8_t tag,
			  const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	if (len != 1 || (v[0] != 1 && v[0] != 3))
		return fail(c, -EINVAL, "unsupported SignedData version");
	c->m->version = v[0];
	return 0;
}

/* pkcs7_note_signerinfo_version() */
static int act_si_version(void *ctx, size_t hdr, uint8_t tag,
			  const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	if (len != 1 || (v[0] != 1 && v[0] != 3))
		return fail(c, -EINVAL, "unsupported SignerInfo version");
	c->cur.version = v[0];
	if ((v[0] == 1) != (c->m->version == 1))
		return fail(c, -EBADMSG, "SignedData-SignerInfo version mismatch");
	c->expect_skid = v[0] == 3;
	return 0;
}

/*
 * pkcs7_extract_cert(): an element of certificates (or, as the grammar
 * has it, of a CRL) must carry exactly the SEQUENCE tag, and any that
 * fails to parse fails the message.  The certificate is handed over
 * with its header, and with two octets more when its length is
 * indefinite (the kernel's allowance for an EOC it already counted);
 * trailing octets do not matter to the X.509 decoder.
 */
static int act_cert(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct ctx *c = ctx;
	struct x509k_cert *x, **nc;
	const uint8_t *start = v - hdr;
	size_t n = len + hdr, left = c->der + c->der_len - start;
	int ret;

	if (tag != ASN1_TAG_SEQ)
		return fail(c, -EBADMSG, "embedded certificate is not a SEQUENCE");
	if (start[1] == 0x80)
		n += 2;
	if (n > left)
		n = left;
	ret = x509k_parse(start, n, c->kr, c->bl, &x, c->why);
	if (ret)
		return ret;
	/* the kernel checks it here and fails the whole message when it
	 * is bad: what follows depends on it */
	if (x->selfsig_unchecked) {
		x509k_free(x);
		return fail(c, -EXITCODE_ENOALG, "the ML-DSA self-signature of an "
			    "embedded certificate");
	}
	/* certificates met after pkcs7_note_certificate_list() (those of
	 * crls) are freed with the parse context: parsed, then dropped */
	if (c->certs_listed) {
		x509k_free(x);
		return 0;
	}
	nc = realloc(c->m->certs, (c->m->n_certs + 1) * sizeof(*nc));
	if (!nc) {
		x509k_free(x);
		return -ENOMEM;
	}
	c->m->certs = nc;
	x->index = c->m->n_certs + 1;
	nc[c->m->n_certs++] = x;
	return 0;
}

/* pkcs7_note_certificate_list() */
static int act_cert_list(void *ctx, size_t hdr, uint8_t tag,
			 const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag, (void)v, (void)len;
	c->certs_listed = true;
	return 0;
}

/* pkcs7_note_content() */
static int act_content(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		       size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag, (void)v, (void)len;
	if (strcmp(c->last_oid, OID_DATA) == 0)
		c->m->data_type = PKCS7_DATA_PLAIN;
	else if (strcmp(c->last_oid, OID_MS_INDIRECT) == 0)
		c->m->data_type = PKCS7_DATA_MS_INDIRECT;
	else
		return fail(c, -EINVAL, "unsupported data type");
	return 0;
}

/* pkcs7_note_data() */
static int act_data(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	c->m->data = v;
	c->m->data_len = len;
	return 0;
}

/* pkcs7_sig_note_authenticated_attr(), once per value of each attribute,
 * the attribute's type being the last OID noted */
static int act_authattr(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
			size_t len)
{
	enum { CT = 1, ST = 2, MD = 4, SC = 8, OPUS = 16, STMT = 32 };
	struct ctx *c = ctx;
	struct pkcs7_sinfo *si = &c->cur;
	bool authenticode = c->m->data_type == PKCS7_DATA_MS_INDIRECT;
	const char *type = c->last_oid;
	unsigned *seen = &c->aa_seen;

	(void)hdr;
	if (strcmp(type, OID_CONTENT_TYPE) == 0) {
		if (*seen & CT)
			return fail(c, -EKEYREJECTED, "repeated contentType authattr");
		*seen |= CT;
		/* the value's contents are looked up whatever its tag */
		if (!oid_is(v, len, authenticode ? OID_MS_INDIRECT : OID_DATA))
			return fail(c, -EBADMSG, "contentType authattr does not match the content");
		return 0;
	}
	if (strcmp(type, OID_SIGNING_TIME) == 0) {
		if (*seen & ST)
			return fail(c, -EKEYREJECTED, "repeated signingTime authattr");
		*seen |= ST;
		si->has_signing_time = true;
		if (x509k_decode_time(tag, v, len, &si->signing_time))
			return fail(c, -EBADMSG, "invalid signingTime authattr");
		return 0;
	}
	if (strcmp(type, OID_MESSAGE_DIGEST) == 0) {
		if (*seen & MD)
			return fail(c, -EKEYREJECTED, "repeated messageDigest authattr");
		*seen |= MD;
		if (tag != ASN1_TAG_OCTSTR)
			return fail(c, -EBADMSG, "messageDigest authattr is not an OCTET STRING");
		si->msgdigest = v;
		si->msgdigest_len = len;
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

/* pkcs7_sig_note_set_of_authattrs(): run only for the [0] SET form; the
 * attributes are digested later with their [0] tag replaced by SET
 * (pkcs7_verify.c, pkcs7_digest()) */
static int act_authattrs(void *ctx, size_t hdr, uint8_t tag,
			 const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)tag;
	if (!(c->aa_seen & 1) || !(c->aa_seen & 4))
		return fail(c, -EBADMSG, "missing required authattr (contentType, messageDigest)");
	if (c->m->data_type != PKCS7_DATA_MS_INDIRECT && (c->aa_seen & 16))
		return fail(c, -EBADMSG, "msSpOpusInfo on non-Authenticode data");
	c->cur.authattrs = v - (hdr - 1);
	c->cur.authattrs_len = len + (hdr - 1);
	return 0;
}

/* pkcs7_sig_note_digest_algo() */
static int act_digest_algo(void *ctx, size_t hdr, uint8_t tag,
			   const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;
	const struct rules_hash *h;

	(void)hdr, (void)tag, (void)v, (void)len;
	c->cur.hash = rules_pkcs7_hash(c->kr, c->last_oid);
	if (!c->cur.hash) {
		h = rules_hash_by_oid(c->last_oid);
		return fail(c, -ENOPKG, h && h->unparsed ? h->unparsed :
			    "unsupported digest algorithm");
	}
	c->cur.sig.hash = c->cur.hash;
	return 0;
}

/* pkcs7_sig_note_pkey_algo() */
static int act_pkey_algo(void *ctx, size_t hdr, uint8_t tag,
			 const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;
	struct pkcs7_sinfo *si = &c->cur;

	(void)hdr, (void)tag, (void)v, (void)len;
	si->algo = rules_sinfo_algo(c->kr, c->last_oid);
	if (!si->algo)
		return fail(c, -ENOPKG, rules_sinfo_algo_absent(c->last_oid));
	si->sig.pkey_algo = si->algo->pkey_algo;
	si->sig.encoding = si->algo->encoding;
	si->sig.takes_data = si->algo->takes_data;
	return 0;
}

/* pkcs7_sig_note_signature() */
static int act_signature(void *ctx, size_t hdr, uint8_t tag,
			 const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	c->cur.sig.s = v;
	c->cur.sig.slen = len;
	return 0;
}

/* pkcs7_sig_note_issuer(), pkcs7_sig_note_serial(), pkcs7_sig_note_skid() */
static int act_issuer(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		      size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	c->raw_issuer = v;
	c->raw_issuer_len = len;
	return 0;
}

static int act_serial(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		      size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	c->raw_serial = v;
	c->raw_serial_len = len;
	return 0;
}

static int act_skid(void *ctx, size_t hdr, uint8_t tag, const uint8_t *v,
		    size_t len)
{
	struct ctx *c = ctx;

	(void)hdr, (void)tag;
	c->raw_skid = v;
	c->raw_skid_len = len;
	return 0;
}

/* pkcs7_note_signed_info(): the key id comes from whatever raw sid parts
 * the context holds, as the version says */
static int act_signed_info(void *ctx, size_t hdr, uint8_t tag,
			   const uint8_t *v, size_t len)
{
	struct ctx *c = ctx;
	struct pkcs7_msg *m = c->m;
	struct pkcs7_sinfo *si = &c->cur, *ns;
	int ret;

	(void)hdr, (void)tag, (void)v, (void)len;
	if (m->data_type == PKCS7_DATA_MS_INDIRECT && !si->authattrs)
		return fail(c, -EBADMSG, "Authenticode requires AuthAttrs");
	if (!c->expect_skid) {
		si->issuer = c->raw_issuer;
		si->issuer_len = c->raw_issuer_len;
		si->serial = c->raw_serial;
		si->serial_len = c->raw_serial_len;
		ret = x509k_kid_make(&si->auth_id, si->serial, si->serial_len,
			       si->issuer, si->issuer_len);
	} else {
		si->skid = c->raw_skid;
		si->skid_len = c->raw_skid_len;
		ret = x509k_kid_make(&si->auth_id, si->skid, si->skid_len, NULL, 0);
	}
	if (ret)
		return ret;
	ns = realloc(m->sinfos, (m->n_sinfos + 1) * sizeof(*ns));
	if (!ns) {
		x509k_kid_free(&si->auth_id);
		return -ENOMEM;
	}
	m->sinfos = ns;
	si->index = m->n_sinfos + 1;
	ns[m->n_sinfos++] = *si;
	memset(si, 0, sizeof(*si));
	c->aa_seen = 0;
	return 0;
}

/*
 * crypto/asymmetric_keys/pkcs7.asn1, one routine per jump target of the
 * compiled grammar.  Index comments are the loop targets of ASN1_OP_END_OF.
 */

/* AlgorithmIdentifier-shaped: algorithm OID ({ pkcs7_note_OID }),
 * parameters ANY OPTIONAL */
static const struct asn1_op r_alg[] = {
	M_ACT(ASN1_TAG_OID, act_oid),
	M_F(ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, NULL, NULL),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* SET OF / SEQUENCE OF DigestAlgorithmIdentifier */
static const struct asn1_op r_alg_of[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_alg),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* ContentInfo's content: [0] EXPLICIT Data, Data ::= ANY */
static const struct asn1_op r_data[] = {
	M_F(ASN1_FLAG_ANY, 0, act_data, NULL),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* [0] IMPLICIT SET OF CHOICE { Certificate (ANY), [0] IMPLICIT ...
 * (ANY too) } */
static const struct asn1_op r_cert_set[] = {
	/* 0 */ M_F(ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, act_cert, NULL),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, act_cert, NULL),
	OP(ASN1_OP_COND_FAIL),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* SEQUENCE OF Certificate (ANY): [2] certificates, and the contents of
 * each CertificateList */
static const struct asn1_op r_cert_seq[] = {
	/* 0 */ M_F(ASN1_FLAG_ANY, 0, act_cert, NULL),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* SET OF / SEQUENCE OF CertificateList (itself SEQUENCE OF Certificate) */
static const struct asn1_op r_crls[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_cert_seq),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* AuthenticatedAttribute ::= SEQUENCE { type OID ({ pkcs7_note_OID }),
 * values SET OF ANY ({ pkcs7_sig_note_authenticated_attr }) } */
static const struct asn1_op r_aa[] = {
	M_ACT(ASN1_TAG_OID, act_oid),
	M(ASN1_TAG_SET),
	/* 2 */ M_F(ASN1_FLAG_ANY, 0, act_authattr, NULL),
	END_OF(2),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op r_aa_set[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_aa),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* [2] EXPLICIT SEQUENCE OF AuthenticatedAttribute */
static const struct asn1_op r_aa_seq[] = {
	M(ASN1_TAG_SEQ),
	/* 1 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_aa),
	END_OF(1),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* UnauthenticatedAttribute ::= SEQUENCE { type OID, values SET OF ANY } */
static const struct asn1_op r_ua[] = {
	M(ASN1_TAG_OID),
	M(ASN1_TAG_SET),
	/* 2 */ M_F(ASN1_FLAG_ANY, 0, NULL, NULL),
	END_OF(2),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op r_ua_of[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_ua),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER },
 * Name ::= SEQUENCE OF SET OF SEQUENCE { OID, ANY } */
static const struct asn1_op r_issuer_serial[] = {
	M(ASN1_TAG_SEQ),
	/* 1 */ M(ASN1_TAG_SET),
	/* 2 */ M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, act_oid),
	M_F(ASN1_FLAG_ANY, 0, NULL, NULL),
	END_SEQ,
	END_OF(2),
	END_OF(1),
	ACT(act_issuer),
	M(ASN1_TAG_INT),
	ACT(act_serial),
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* SignerInfo ({ pkcs7_note_signed_info }) */
static const struct asn1_op r_sinfo[] = {
	M_ACT(ASN1_TAG_INT, act_si_version),
	/* sid: CHOICE { IssuerAndSerialNumber, [0] IMPLICIT OCTET STRING } */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_SEQ, NULL, r_issuer_serial),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_SKIP, ASN1_TAG_CTX(0), act_skid, NULL),
	OP(ASN1_OP_COND_FAIL),
	M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_alg),
	ACT(act_digest_algo),
	/* authenticatedAttributes CHOICE { [0] IMPLICIT SET OF,
	 * [2] EXPLICIT SEQUENCE OF } OPTIONAL */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, r_aa_set),
	MAYBE_ACT(act_authattrs),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(2), NULL, r_aa_seq),
	/* digestEncryptionAlgorithm */
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, act_oid),
	M_F(ASN1_FLAG_ANY | ASN1_FLAG_SKIP, 0, NULL, NULL),
	END_SEQ,
	ACT(act_pkey_algo),
	M_ACT(ASN1_TAG_OCTSTR, act_signature),
	/* unauthenticatedAttributes CHOICE { [1] IMPLICIT SET OF,
	 * [3] IMPLICIT SEQUENCE OF } OPTIONAL */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(1), NULL, r_ua_of),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(3), NULL, r_ua_of),
	END_SEQ_ACT(act_signed_info),
	OP(ASN1_OP_RETURN),
};

static const struct asn1_op r_sinfo_of[] = {
	/* 0 */ M_F(ASN1_FLAG_JUMP, ASN1_TAG_SEQ, NULL, r_sinfo),
	END_OF(0),
	OP(ASN1_OP_RETURN),
};

/* [0] EXPLICIT SignedData */
static const struct asn1_op r_signed_data[] = {
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_INT, act_sd_version),
	/* digestAlgorithms: CHOICE { SET OF, SEQUENCE OF } */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_SET, NULL, r_alg_of),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_SEQ, NULL, r_alg_of),
	OP(ASN1_OP_COND_FAIL),
	/* contentInfo ContentInfo ({ pkcs7_note_content }) */
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, act_oid),
	ACT(act_oid),
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, r_data),
	END_SEQ,
	ACT(act_content),
	/* certificates CHOICE { [0] IMPLICIT SET OF, [2] IMPLICIT
	 * SEQUENCE OF } OPTIONAL ({ pkcs7_note_certificate_list }) */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, r_cert_set),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(2), NULL, r_cert_seq),
	ACT(act_cert_list),
	/* crls CHOICE { [1] IMPLICIT SET OF, [3] IMPLICIT SEQUENCE OF }
	 * OPTIONAL */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(1), NULL, r_crls),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(3), NULL, r_crls),
	/* signerInfos CHOICE { SET OF, SEQUENCE OF }: its first
	 * alternative skips at the end of the data like an OPTIONAL one */
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_SET, NULL, r_sinfo_of),
	M_F(ASN1_FLAG_COND | ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_SEQ, NULL, r_sinfo_of),
	OP(ASN1_OP_COND_FAIL),
	END_SEQ,
	END_SEQ,
	OP(ASN1_OP_RETURN),
};

/* PKCS7ContentInfo ::= SEQUENCE { contentType OID
 * ({ pkcs7_check_content_type }), content [0] EXPLICIT SignedData
 * OPTIONAL } */
static const struct asn1_op r_pkcs7[] = {
	M(ASN1_TAG_SEQ),
	M_ACT(ASN1_TAG_OID, act_oid),
	ACT(act_content_type),
	M_F(ASN1_FLAG_JUMP | ASN1_FLAG_SKIP, ASN1_TAG_CTXC(0), NULL, r_signed_data),
	END_SEQ,
	OP(ASN1_OP_COMPLETE),
};

static int parse(struct ctx *c, const uint8_t *der, size_t len)
{
	struct pkcs7_sinfo *si0;
	const char *why;
	size_t i;
	int ret;

	c->der = der;
	c->der_len = len;
	ret = asn1_decode(r_pkcs7, c, der, len, &why);
	if (ret == -EMSGSIZE)
		return fail(c, ret, "signature larger than 64 KiB");
	if (ret) {
		if (!*c->why)
			*c->why = why;
		return ret;
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
		struct pkcs7_sinfo *si = &c->m->sinfos[i];

		if (!si->authattrs != !si0->authattrs)
			return fail(c, -EINVAL, "inconsistently supplied authAttrs");
		if (!si->authattrs && si->sig.takes_data)
			si->sig.hash_none = true;
	}
	return 0;
}

int pkcs7_parse(const uint8_t *der, size_t len, const struct rules_rules *kr,
	     const struct blacklist *bl, struct pkcs7_msg **out,
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
	x509k_kid_free(&c.cur.auth_id);
	if (ret) {
		if (!*why)
			*why = "malformed PKCS#7 message";
		pkcs7_free(c.m);
		return ret;
	}
	*out = c.m;
	return 0;
}

void pkcs7_free(struct pkcs7_msg *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n_certs; i++)
		x509k_free(m->certs[i]);
	for (i = 0; i < m->n_sinfos; i++) {
		x509k_kid_free(&m->sinfos[i].auth_id);
		free(m->sinfos[i].signed_attrs);
	}
	free(m->certs);
	free(m->sinfos);
	free(m);
}
