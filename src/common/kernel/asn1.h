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
 * scripts/asn1_compiler.c (one op per step that compiler emits).
 */
#ifndef MODSIGN_KERNEL_ASN1_H
#define MODSIGN_KERNEL_ASN1_H

#include <stddef.h>
#include <stdint.h>

/* An action: the element's header length, its tag (0 at the end of a
 * constructed element) and contents.  A negative return stops the
 * decoder and is its result. */
typedef int (*asn1_act)(void *ctx, size_t hdrlen, uint8_t tag,
			const uint8_t *val, size_t len);

enum asn1_kind {
	A_MATCH,	/* match the tag (or any tag with AF_ANY) */
	A_COND_FAIL,	/* fail unless the preceding CHOICE matched */
	A_COMPLETE,	/* the end of the top-level routine */
	A_ACT,		/* call act on the element last matched or closed */
	A_MAYBE_ACT,	/* the same, only if the last op matched */
	A_RETURN,	/* back from a routine entered by AF_JUMP */
	A_END_SEQ,	/* close a constructed element */
	A_END_SET,	/* close one that must have matched */
	A_END_OF,	/* close a SET OF / SEQUENCE OF, or loop to .loop */
};

/* flags of A_MATCH */
#define AF_SKIP 0x01	/* OPTIONAL: no match (or no data) skips it */
#define AF_COND 0x02	/* a later CHOICE alternative: skipped once one
			 * alternative matched */
#define AF_ANY 0x04	/* any tag */
#define AF_JUMP 0x08	/* then run .jump as a routine */

struct asn1_op {
	uint8_t kind;
	uint8_t flags;
	uint8_t tag;	/* class | constructed | number, as on the wire */
	short loop;	/* A_END_OF: index in this routine to loop to */
	asn1_act act;	/* A_MATCH (when set), A_ACT, A_MAYBE_ACT, A_END_* */
	const struct asn1_op *jump;
};

/*
 * Run the grammar whose top routine is top over data.  0 when it
 * completes, an action's negative errno, -EMSGSIZE over 65535 bytes, or
 * -EBADMSG wherever the kernel's decoder says "Unexpected tag", "Data
 * overrun error", "Cons length error" and the like; *why then says which.
 */
int asn1_decode(const struct asn1_op *top, void *ctx, const uint8_t *data,
		size_t datalen, const char **why);

#endif
