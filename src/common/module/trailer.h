/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The appended-signature trailer of a kernel module
 * (include/linux/module_signature.h).
 */
#ifndef MODSIGN_MODULE_TRAILER_H
#define MODSIGN_MODULE_TRAILER_H

#include <stddef.h>
#include <stdint.h>

#define TRAILER_MAGIC "~Module signature appended~\n"
#define TRAILER_MAGIC_LEN 28
#define TRAILER_DESC_LEN 12
#define TRAILER_OVERHEAD (TRAILER_DESC_LEN + TRAILER_MAGIC_LEN)

/* include/linux/module_signature.h: enum pkey_id_type */
enum trailer_id_type {
	TRAILER_ID_PGP = 0,
	TRAILER_ID_X509 = 1,
	TRAILER_ID_PKCS7 = 2,
};

/* struct module_signature, field by field (no padding, sig_len big-endian). */
struct trailer_desc {
	uint8_t algo;
	uint8_t hash;
	uint8_t id_type;
	uint8_t signer_len;
	uint8_t key_id_len;
	uint8_t pad[3];
	uint32_t sig_len;	/* host order once decoded */
};

/* One appended signature, located in a buffer. */
struct trailer {
	struct trailer_desc desc;
	size_t body_len;	/* bytes covered by the signature */
	size_t sig_off;		/* offset of the signature blob */
	size_t sig_len;
	/* Legacy (id_type != PKCS#7) signer name and key id regions. */
	size_t signer_off, key_id_off;
};

/* True when buf ends with the magic (and is longer than it). */
int trailer_has_magic(const uint8_t *buf, size_t len);
/* What every tool says of a body that ends with the magic: signed twice */
#define TRAILER_SIGNED_TWICE_WHY "the body still ends with an older signature, " \
	"which the kernel reads as part of the module (sign the unsigned " \
	"module, or use sign-file --replace)"

/*
 * The kernel's decision on a buffer, step for step (kernel/module/signing.c,
 * module_sig_check()):
 * 0 and *t filled, or -ENODATA, -EBADMSG, -ENOPKG exactly as the kernel
 * returns them.  *reason gets the kernel's message (static string).
 */
int trailer_check(const uint8_t *buf, size_t len, struct trailer *t,
		     const char **reason);

/*
 * Split a signed file as kmod and extract-module-sig.pl do
 * (scripts/extract-module-sig.pl, kmod's libkmod-signature.c):
 * lenient about the fields the kernel requires to be zero, and aware of
 * the legacy signer-name and key-id regions.  -ENODATA when there is no
 * magic, -EBADMSG when the descriptor does not fit the file.
 */
int trailer_split(const uint8_t *buf, size_t len, struct trailer *t,
		     const char **reason);

/* Encode the 12-byte descriptor and magic for a PKCS#7 blob of sig_len. */
void trailer_encode(uint32_t sig_len, uint8_t out[TRAILER_OVERHEAD]);

#endif
