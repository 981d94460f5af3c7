// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>

#include "kernel/ber.h"

static void ber_it_init(struct ber_it *it, const uint8_t *p, size_t len,
			int depth)
{
	it->p = p;
	it->left = len;
	it->depth = depth;
}

static int read_tlv(const uint8_t *p, size_t left, int depth,
		    struct ber_tlv *t);

/*
 * lib/asn1_decoder.c, asn1_ber_decoder(): an indefinite length runs to the
 * matching end-of-contents octets;
 * like asn1_find_indefinite_length(), walk the nested elements to find them.
 */
static int find_eoc(const uint8_t *p, size_t left, int depth, size_t *len)
{
	size_t off = 0;
	struct ber_tlv t;
	int ret;

	if (depth > BER_MAX_DEPTH)
		return -EBADMSG;
	for (;;) {
		if (left - off < 2)
			return -EBADMSG;
		if (p[off] == 0 && p[off + 1] == 0) {
			*len = off;
			return 0;
		}
		ret = read_tlv(p + off, left - off, depth, &t);
		if (ret)
			return ret;
		off += t.total;
	}
}

static int read_tlv(const uint8_t *p, size_t left, int depth,
		    struct ber_tlv *t)
{
	size_t hdr = 2, len;
	uint8_t lb;
	int ret;

	if (left < 2)
		return -EBADMSG;	/* "data overrun" */
	t->start = p;
	t->tag = p[0];
	t->cons = p[0] & BER_CONS;
	/* lib/asn1_decoder.c, asn1_ber_decoder(): long-form tag numbers are
	 * not supported */
	if ((p[0] & 0x1f) == 0x1f)
		return -EBADMSG;
	lb = p[1];
	t->indef = false;
	if (lb == 0x80) {
		/* lib/asn1_decoder.c, asn1_ber_decoder(): indefinite length
		 * only for constructed encodings */
		if (!t->cons)
			return -EBADMSG;
		t->indef = true;
		ret = find_eoc(p + 2, left - 2, depth + 1, &len);
		if (ret)
			return ret;
		t->hdr_len = 2;
		t->val = p + 2;
		t->len = len;
		t->total = 2 + len + 2;
		return 0;
	}
	if (lb & 0x80) {
		size_t n = lb & 0x7f, i;

		/* lib/asn1_decoder.c, asn1_ber_decoder(): "Unsupported
		 * length" beyond two length octets */
		if (n > 2)
			return -EBADMSG;
		if (left < 2 + n)
			return -EBADMSG;
		len = 0;
		for (i = 0; i < n; i++)
			len = len << 8 | p[2 + i];
		hdr += n;
	} else {
		len = lb;
	}
	if (len > left - hdr)
		return -EBADMSG;	/* "data overrun" */
	t->hdr_len = hdr;
	t->val = p + hdr;
	t->len = len;
	t->total = hdr + len;
	return 0;
}

int ber_next(struct ber_it *it, struct ber_tlv *t)
{
	int ret;

	if (it->left == 0)
		return 1;
	ret = read_tlv(it->p, it->left, it->depth, t);
	if (ret)
		return ret;
	it->p += t->total;
	it->left -= t->total;
	return 0;
}

int ber_it_enter(const struct ber_it *parent, const struct ber_tlv *t,
		 struct ber_it *child)
{
	int depth = parent ? parent->depth + 1 : 1;

	/* lib/asn1_decoder.c, asn1_ber_decoder(): nesting is limited by the
	 * decoder's cons stack */
	if (depth > BER_MAX_DEPTH || !t->cons)
		return -EBADMSG;
	ber_it_init(child, t->val, t->len, depth);
	return 0;
}

int ber_expect(struct ber_it *it, uint8_t tag, struct ber_tlv *t)
{
	int ret = ber_next(it, t);

	if (ret)
		return -EBADMSG;
	if (!ber_tag_is(t, tag))
		return -EBADMSG;
	return 0;
}

int ber_top(const uint8_t *buf, size_t len, struct ber_tlv *t)
{
	if (len > BER_MAX_INPUT)
		return -EMSGSIZE;
	return read_tlv(buf, len, 0, t);
}

/* Dotted form of an OID's contents into buf; -EBADMSG when malformed. */
static int ber_oid_str(const uint8_t *p, size_t len, char *buf, size_t size)
{
	size_t i, n = 0;
	uint64_t v = 0;
	int first = 1, w;

	if (len == 0 || (p[len - 1] & 0x80))
		return -EBADMSG;
	for (i = 0; i < len; i++) {
		if (v >> 56)
			return -EBADMSG;
		v = v << 7 | (p[i] & 0x7f);
		if (p[i] & 0x80)
			continue;
		if (first) {
			unsigned a = v < 40 ? 0 : v < 80 ? 1 : 2;

			w = snprintf(buf + n, size - n, "%u.%llu", a,
				     (unsigned long long)(v - 40 * a));
			first = 0;
		} else {
			w = snprintf(buf + n, size - n, ".%llu",
				     (unsigned long long)v);
		}
		if (w < 0 || (size_t)w >= size - n)
			return -EBADMSG;
		n += w;
		v = 0;
	}
	return 0;
}

void ber_oid_name(const uint8_t *p, size_t len, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] == 0x80 && (i == 0 || !(p[i - 1] & 0x80)))
			break;
	if (i < len || ber_oid_str(p, len, buf, size))
		buf[0] = '\0';
}
