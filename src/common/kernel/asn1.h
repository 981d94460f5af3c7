/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A grammar-driven BER decoder that behaves as the kernel's
 * lib/asn1_decoder.c, asn1_ber_decoder(), does on every input: the same
 * tag matching (a constructed grammar element also takes a primitive
 * tag, a primitive one never takes a constructed tag), the same length
 * forms (at most two length octets, indefinite lengths only on
 * constructed tags), the same ten-deep stack of open constructed
 * elements, OPTIONAL and CHOICE by skipping, SET OF / SEQUENCE OF by
 * looping, and actions called in document order as elements match, so
 * an action's error wins over a structural error further on.
 *
 * A grammar is a set of routines, each an array of struct asn1_op
 * written from the ASN.1 module the kernel compiles with
 * scripts/asn1_compiler.c (one op per step that compiler emits), in the
 * one vocabulary below (M, M_ACT, M_F, ACT, END_SEQ, ...) that every
 * table in kernel/ uses.  This is the only BER reader of the kernel
 * model.
 */
#ifndef MODSIGN_KERNEL_ASN1_H
#define MODSIGN_KERNEL_ASN1_H

#include <stddef.h>
#include <stdint.h>

/* Tag bytes (ASN1_TAG_) as they appear on the wire (class | constructed |
 * number); op kinds are ASN1_OP_, match flags ASN1_FLAG_. */
#define ASN1_TAG_CONS 0x20
#define ASN1_TAG_BOOL 0x01
#define ASN1_TAG_INT 0x02
#define ASN1_TAG_BITSTR 0x03
#define ASN1_TAG_OCTSTR 0x04
#define ASN1_TAG_NULL 0x05
#define ASN1_TAG_OID 0x06
#define ASN1_TAG_IA5 0x16
#define ASN1_TAG_UTCTIME 0x17
#define ASN1_TAG_GENTIME 0x18
#define ASN1_TAG_SEQ 0x30
#define ASN1_TAG_SET 0x31
#define ASN1_TAG_CTX(n) (0x80 | (n))
#define ASN1_TAG_CTXC(n) (0xa0 | (n))

/* An action: the element's header length, its tag (0 at the end of a
 * constructed element) and contents.  A negative return stops the
 * decoder and is its result. */
typedef int (*asn1_act)(void *ctx, size_t hdrlen, uint8_t tag,
			const uint8_t *val, size_t len);

enum asn1_kind {
	ASN1_OP_MATCH,	/* match the tag (or any tag with ASN1_FLAG_ANY) */
	ASN1_OP_COND_FAIL,	/* fail unless the preceding CHOICE matched */
	ASN1_OP_COMPLETE,	/* the end of the top-level routine */
	ASN1_OP_ACT,		/* call act on the element last matched or closed */
	ASN1_OP_MAYBE_ACT,	/* the same, only if the last op matched */
	ASN1_OP_RETURN,	/* back from a routine entered by ASN1_FLAG_JUMP */
	ASN1_OP_END_SEQ,	/* close a constructed element */
	ASN1_OP_END_SET,	/* close one that must have matched */
	ASN1_OP_END_OF,	/* close a SET OF / SEQUENCE OF, or loop to .loop */
};

/* flags of ASN1_OP_MATCH */
#define ASN1_FLAG_SKIP 0x01	/* OPTIONAL: no match (or no data) skips it */
#define ASN1_FLAG_COND 0x02	/* a later CHOICE alternative: skipped once one
			 * alternative matched */
#define ASN1_FLAG_ANY 0x04	/* any tag */
#define ASN1_FLAG_JUMP 0x08	/* then run .jump as a routine */

struct asn1_op {
	uint8_t kind;
	uint8_t flags;
	uint8_t tag;	/* class | constructed | number, as on the wire */
	short loop;	/* ASN1_OP_END_OF: index in this routine to loop to */
	asn1_act act;	/* ASN1_OP_MATCH (when set), ASN1_OP_ACT,
			 * ASN1_OP_MAYBE_ACT, ASN1_OP_END_* */
	const struct asn1_op *jump;
};

/* The grammar vocabulary: one op each, named after the compiler's ops. */
#define M(t) { .kind = ASN1_OP_MATCH, .tag = (t) }
#define M_ACT(t, a) { .kind = ASN1_OP_MATCH, .tag = (t), .act = (a) }
#define M_F(f, t, a, j) { .kind = ASN1_OP_MATCH, .flags = (f), .tag = (t), \
			  .act = (a), .jump = (j) }
#define ACT(a) { .kind = ASN1_OP_ACT, .act = (a) }
#define MAYBE_ACT(a) { .kind = ASN1_OP_MAYBE_ACT, .act = (a) }
#define END_SEQ { .kind = ASN1_OP_END_SEQ }
#define END_SEQ_ACT(a) { .kind = ASN1_OP_END_SEQ, .act = (a) }
#define END_OF(l) { .kind = ASN1_OP_END_OF, .loop = (l) }
#define OP(k) { .kind = (k) }

/*
 * Run the grammar whose top routine is top over data.  0 when it
 * completes, an action's negative errno, -EMSGSIZE over 65535 bytes, or
 * -EBADMSG wherever the kernel's decoder says "Unexpected tag", "Data
 * overrun error", "Cons length error" and the like; *why then says which.
 */
int asn1_decode(const struct asn1_op *top, void *ctx, const uint8_t *data,
		size_t datalen, const char **why);

/*
 * The dotted form of an OID as the kernel's look_up_OID() tells OIDs
 * apart, by their encoded bytes: an encoding that is not minimal (a
 * 0x80 padding octet), not terminated, or empty names no OID it knows,
 * and gets "" here, which equals none.
 */
void asn1_oid_name(const uint8_t *p, size_t len, char *buf, size_t size);

#endif
