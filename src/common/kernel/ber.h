/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small BER TLV reader with the leniency and the limits of the kernel's
 * lib/asn1_decoder.c, asn1_ber_decoder().  It only splits bytes into
 * elements; what they mean is up to its caller, public_key.c (the key
 * formats).  x509.c and pkcs7.c take only the tag bytes and
 * ber_oid_name() from here: their grammars run on asn1.c's decoder.
 */
#ifndef MODSIGN_KERNEL_BER_H
#define MODSIGN_KERNEL_BER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lib/asn1_decoder.c: asn1_ber_decoder() refuses inputs over 64 KiB
 * with -EMSGSIZE */
#define BER_MAX_INPUT 65535
/* lib/asn1_decoder.c, asn1_ber_decoder(): the decoder's cons stack holds 10
 * levels */
#define BER_MAX_DEPTH 10

/* Tag bytes as they appear on the wire (class | constructed | number). */
#define BER_CONS 0x20
#define BER_INT 0x02
#define BER_BITSTR 0x03
#define BER_OCTSTR 0x04
#define BER_NULL 0x05
#define BER_OID 0x06
#define BER_UTCTIME 0x17
#define BER_GENTIME 0x18
#define BER_SEQ 0x30
#define BER_SET 0x31
#define BER_BOOL 0x01
#define BER_CTX(n) (0x80 | (n))
#define BER_CTXC(n) (0xa0 | (n))

struct ber_tlv {
	const uint8_t *start;	/* first byte of the header */
	const uint8_t *val;	/* contents (for indefinite: up to the EOC) */
	size_t hdr_len;
	size_t len;		/* contents length, EOC excluded */
	size_t total;		/* whole element, EOC included */
	uint8_t tag;		/* the first byte */
	bool cons;
	bool indef;
};

/* A cursor over a run of elements (the contents of a constructed one). */
struct ber_it {
	const uint8_t *p;
	size_t left;
	int depth;		/* nesting of the contents being walked */
};

/* The iterator over the contents of a constructed element; -EBADMSG when
 * that would nest deeper than the decoder allows. */
int ber_it_enter(const struct ber_it *parent, const struct ber_tlv *t,
		 struct ber_it *child);
/* 0 and *t filled, 1 at the end of the run, -EBADMSG when malformed. */
int ber_next(struct ber_it *it, struct ber_tlv *t);
/* ber_next() that also insists on the tag: the constructed bit is ignored,
 * as the kernel's decoder matches tags without it.  -EBADMSG on mismatch
 * or end. */
int ber_expect(struct ber_it *it, uint8_t tag, struct ber_tlv *t);
static inline bool ber_tag_is(const struct ber_tlv *t, uint8_t tag)
{
	return (t->tag & ~BER_CONS) == (tag & ~BER_CONS);
}

/* The outermost element of an input: -EMSGSIZE over 64 KiB, trailing
 * bytes ignored (lib/asn1_decoder.c, asn1_ber_decoder(): ASN1_OP_COMPLETE
 * checks only its stacks). */
int ber_top(const uint8_t *buf, size_t len, struct ber_tlv *t);

/*
 * The dotted form of an OID as the kernel's look_up_OID() tells OIDs
 * apart, by their encoded bytes: an encoding that is not minimal (a
 * 0x80 padding octet), not terminated, or empty names no OID it knows,
 * and gets "" here, which equals none.
 */
void ber_oid_name(const uint8_t *p, size_t len, char *buf, size_t size);

#endif
