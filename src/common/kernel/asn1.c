// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "kernel/asn1.h"

#define ASN1_MAX_INPUT 65535
/* lib/asn1_decoder.c: ten open constructed elements, ten nested routines */
#define ASN1_CONS_DEPTH 10
#define ASN1_JUMP_DEPTH 10

/*
 * An element whose grammar type is not constructed (ANY, mostly) but
 * whose encoding has an indefinite length: its extent is found as
 * lib/asn1_decoder.c, asn1_find_indefinite_length(), finds it, by
 * walking the nested headers up to the matching end-of-contents, each
 * checked only against the end of the innermost definite element
 * around it.  *len counts from start through the end-of-contents.
 */
static int indef_extent(const uint8_t *d, size_t datalen, size_t start,
			size_t *len, const char **why)
{
	size_t dp = start, l, n;
	unsigned level = 1;
	uint8_t tag, t;

	for (;;) {
		if (datalen - dp < 2) {
			*why = dp == datalen ? "missing end-of-contents" :
				"data overrun";
			return -EBADMSG;
		}
		tag = d[dp++];
		if (tag == 0) {
			if (d[dp++] != 0) {
				*why = "invalid end-of-contents";
				return -EBADMSG;
			}
			if (--level == 0) {
				*len = dp - start;
				return 0;
			}
			continue;
		}
		if ((tag & 0x1f) == 0x1f) {
			/* here, unlike at a grammar match, a long tag number
			 * is walked over */
			do {
				if (datalen - dp < 2) {
					*why = "data overrun";
					return -EBADMSG;
				}
				t = d[dp++];
			} while (t & 0x80);
		}
		l = d[dp++];
		if (l == 0x80) {
			if (!(tag & ASN1_TAG_CONS)) {
				*why = "indefinite length on a primitive";
				return -EBADMSG;
			}
			level++;
			continue;
		}
		if (l > 0x80) {
			n = l - 0x80;
			if (n > sizeof(size_t) - 1) {
				*why = "unsupported length";
				return -EBADMSG;
			}
			if (n > datalen - dp) {
				*why = "data overrun";
				return -EBADMSG;
			}
			for (l = 0; n > 0; n--)
				l = l << 8 | d[dp++];
		}
		if (l > datalen - dp) {
			*why = "data overrun";
			return -EBADMSG;
		}
		dp += l;
	}
}

struct cons_frame {
	size_t dp;		/* start of the contents */
	size_t outer;		/* the enclosing end to restore */
	uint8_t hdr;
	bool indef;
};

struct jump_frame {
	const struct asn1_op *base;
	int pc;
};

int asn1_decode(const struct asn1_op *top, void *ctx, const uint8_t *data,
		size_t datalen, const char **why)
{
	struct cons_frame cons[ASN1_CONS_DEPTH];
	struct jump_frame jumps[ASN1_JUMP_DEPTH];
	const struct asn1_op *base = top, *op;
	size_t dp = 0, tdp = 0, len = 0;
	int pc = 0, csp = 0, jsp = 0, ret;
	uint8_t tag = 0, hdr = 0;
	bool matched = false, last_matched = false, indef = false,
	     is_cons = false;

	*why = NULL;
	if (datalen > ASN1_MAX_INPUT)
		return -EMSGSIZE;
next:
	op = &base[pc];
	if (op->kind == ASN1_OP_MATCH) {
		/* a later CHOICE alternative after one matched, or an
		 * OPTIONAL element with no data left, is passed over */
		if (((op->flags & ASN1_FLAG_COND) && matched) ||
		    ((op->flags & ASN1_FLAG_SKIP) && dp == datalen)) {
			last_matched = false;
			pc++;
			goto next;
		}
		matched = last_matched = indef = is_cons = false;
		hdr = 2;
		if (datalen - dp < 2)
			goto overrun;
		tag = data[dp++];
		if ((tag & 0x1f) == 0x1f) {
			*why = "long tag number";
			return -EBADMSG;
		}
		if (!(op->flags & ASN1_FLAG_ANY)) {
			/* lib/asn1_decoder.c, asn1_ber_decoder(): the
			 * constructed bit is only ignored when the grammar
			 * asks for a constructed element; a primitive
			 * element must come with a primitive tag */
			is_cons = op->tag & ASN1_TAG_CONS;
			if ((op->tag ^ tag) & ~(op->tag & ASN1_TAG_CONS)) {
				if (op->flags & ASN1_FLAG_SKIP) {
					dp--;
					pc++;
					goto next;
				}
				*why = "unexpected tag";
				return -EBADMSG;
			}
		}
		matched = true;
		len = data[dp++];
		if (len == 0x80) {
			if (!(tag & ASN1_TAG_CONS)) {
				*why = "indefinite length on a primitive";
				return -EBADMSG;
			}
			indef = true;
			if (datalen - dp < 2)
				goto overrun;
		} else if (len > 0x80) {
			size_t n = len - 0x80;

			/* "Unsupported length" beyond two length octets */
			if (n > 2) {
				*why = "unsupported length";
				return -EBADMSG;
			}
			if (n > datalen - dp)
				goto overrun;
			hdr += n;
			for (len = 0; n > 0; n--)
				len = len << 8 | data[dp++];
			if (len > datalen - dp)
				goto overrun;
		} else if (len > datalen - dp) {
			goto overrun;
		}
		if (is_cons) {
			if (csp >= ASN1_CONS_DEPTH) {
				*why = "nested too deep";
				return -EBADMSG;
			}
			cons[csp].dp = dp;
			cons[csp].hdr = hdr;
			cons[csp].indef = indef;
			cons[csp].outer = datalen;
			if (!indef)
				datalen = dp + len;
			csp++;
		}
		tdp = dp;

		if (op->flags & ASN1_FLAG_JUMP) {
			if (jsp >= ASN1_JUMP_DEPTH) {
				*why = "grammar nested too deep";
				return -EBADMSG;
			}
			jumps[jsp].base = base;
			jumps[jsp].pc = pc + 1;
			jsp++;
			base = op->jump;
			pc = 0;
			goto next;
		}
		if (!is_cons && indef) {
			ret = indef_extent(data, datalen, dp, &len, why);
			if (ret)
				return ret;
		}
		if (op->act) {
			ret = op->act(ctx, hdr, tag, data + dp, len);
			if (ret < 0)
				return ret;
		}
		if (!is_cons)
			dp += len;
		pc++;
		goto next;
	}

	switch (op->kind) {
	case ASN1_OP_COND_FAIL:
		if (!matched) {
			*why = "unexpected tag";
			return -EBADMSG;
		}
		pc++;
		goto next;
	case ASN1_OP_COMPLETE:
		/* trailing data after the outermost element is not looked
		 * at */
		if (jsp || csp) {
			*why = "decoder stacks not empty";
			return -EBADMSG;
		}
		return 0;
	case ASN1_OP_END_SET:
		if (!matched) {
			*why = "unexpected tag";
			return -EBADMSG;
		}
		/* fall through */
	case ASN1_OP_END_SEQ:
	case ASN1_OP_END_OF: {
		size_t end = datalen;

		if (csp <= 0) {
			*why = "decoder stack underflow";
			return -EBADMSG;
		}
		csp--;
		tdp = cons[csp].dp;
		hdr = cons[csp].hdr;
		datalen = cons[csp].outer;
		if (cons[csp].indef) {
			if (datalen - dp < 2)
				goto overrun;
			if (data[dp++] != 0) {
				if (op->kind == ASN1_OP_END_OF) {
					/* another element of the SET OF */
					dp--;
					csp++;
					pc = op->loop;
					goto next;
				}
				*why = "missing end-of-contents";
				return -EBADMSG;
			}
			if (data[dp++] != 0) {
				*why = "invalid end-of-contents";
				return -EBADMSG;
			}
			len = dp - tdp - 2;
		} else {
			if (dp < end && op->kind == ASN1_OP_END_OF) {
				datalen = end;
				csp++;
				pc = op->loop;
				goto next;
			}
			/* "Cons length error": the contents must end where
			 * the element's length says */
			if (dp != end) {
				*why = "constructed element's length does not "
					"match its contents";
				return -EBADMSG;
			}
			len = end - tdp;
		}
		if (op->act) {
			ret = op->act(ctx, hdr, 0, data + tdp, len);
			if (ret < 0)
				return ret;
		}
		pc++;
		goto next;
	}
	case ASN1_OP_MAYBE_ACT:
		if (!last_matched) {
			pc++;
			goto next;
		}
		/* fall through */
	case ASN1_OP_ACT:
		ret = op->act(ctx, hdr, tag, data + tdp, len);
		if (ret < 0)
			return ret;
		pc++;
		goto next;
	case ASN1_OP_RETURN:
		if (jsp <= 0) {
			*why = "decoder jump stack underflow";
			return -EBADMSG;
		}
		jsp--;
		base = jumps[jsp].base;
		pc = jumps[jsp].pc;
		matched = last_matched = true;
		goto next;
	default:
		*why = "bad grammar op";
		return -EBADMSG;
	}
overrun:
	*why = "data overrun";
	return -EBADMSG;
}

/* Dotted form of an OID's contents into buf; -EBADMSG when malformed. */
static int oid_dotted(const uint8_t *p, size_t len, char *buf, size_t size)
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

void asn1_oid_name(const uint8_t *p, size_t len, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] == 0x80 && (i == 0 || !(p[i - 1] & 0x80)))
			break;
	if (i < len || oid_dotted(p, len, buf, size))
		buf[0] = '\0';
}
