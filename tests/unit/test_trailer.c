// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * module/trailer.*: the appended-signature trailer, read as the kernel
 * reads it (kernel/module/signing.c, module_sig_check() and
 * mod_verify_sig(); kernel/module_signature.c, mod_check_sig()) and as
 * kmod splits it (libkmod-signature.c), and written as scripts/sign-file.c
 * writes it.  The expected bytes are spelled out here from
 * include/linux/module_signature.h, never taken from the code under test:
 *
 *   struct module_signature {	12 bytes, no padding
 *	u8 algo, hash, id_type, signer_len, key_id_len, __pad[3];
 *	__be32 sig_len;
 *   };
 *   MODULE_SIG_STRING "~Module signature appended~\n" (28 bytes)
 *   enum pkey_id_type { PKEY_ID_PGP, PKEY_ID_X509, PKEY_ID_PKCS7 }
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "module/trailer.h"

static const char magic[] = "~Module signature appended~\n";
#define MAGIC_LEN 28
#define DESC_LEN 12

/* body, then sig_len bytes of "signature", then desc and magic: a
 * malloc'd buffer of exactly *len bytes, so that ASan sees any read
 * past either end. */
static uint8_t *signed_file(size_t body, size_t sig, const uint8_t desc[DESC_LEN],
			    size_t *len)
{
	uint8_t *b;

	*len = body + sig + DESC_LEN + MAGIC_LEN;
	b = malloc(*len);
	assert_non_null(b);
	memset(b, 'B', body);
	memset(b + body, 'S', sig);
	memcpy(b + body + sig, desc, DESC_LEN);
	memcpy(b + body + sig + DESC_LEN, magic, MAGIC_LEN);
	return b;
}

/* A PKCS#7 descriptor, as the kernel wants it, for sig_len. */
static void pkcs7_desc(uint32_t sig_len, uint8_t d[DESC_LEN])
{
	memset(d, 0, DESC_LEN);
	d[2] = 2;		/* PKEY_ID_PKCS7 */
	d[8] = (uint8_t)(sig_len >> 24);
	d[9] = (uint8_t)(sig_len >> 16);
	d[10] = (uint8_t)(sig_len >> 8);
	d[11] = (uint8_t)sig_len;
}

static void magic_is_the_kernels(void **state)
{
	(void)state;
	assert_int_equal(sizeof(magic) - 1, MAGIC_LEN);
	assert_int_equal(TRAILER_MAGIC_LEN, MAGIC_LEN);
	assert_memory_equal(TRAILER_MAGIC, magic, MAGIC_LEN);
	assert_int_equal(TRAILER_DESC_LEN, DESC_LEN);
	assert_int_equal(TRAILER_OVERHEAD, 40);
}

/* sign-file.c: the descriptor is all zero but id_type and a big-endian
 * sig_len, then the magic. */
static void encode_writes_the_kernel_layout(void **state)
{
	static const uint8_t want[40] = {
		0, 0, 2, 0, 0, 0, 0, 0, 0x01, 0x02, 0x03, 0x04,
		'~', 'M', 'o', 'd', 'u', 'l', 'e', ' ', 's', 'i', 'g', 'n',
		'a', 't', 'u', 'r', 'e', ' ', 'a', 'p', 'p', 'e', 'n', 'd',
		'e', 'd', '~', '\n',
	};
	uint8_t out[TRAILER_OVERHEAD];

	(void)state;
	memset(out, 0xaa, sizeof(out));
	trailer_encode(0x01020304, out);
	assert_memory_equal(out, want, sizeof(want));
	trailer_encode(0xffffffffu, out);
	assert_int_equal(out[8], 0xff);
	assert_int_equal(out[11], 0xff);
	assert_int_equal(out[7], 0);
}

/* What encode writes, check reads back: body and signature where they
 * were put. */
static void encode_then_check_round_trip(void **state)
{
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why = "unset";
	size_t len;
	uint8_t enc[TRAILER_OVERHEAD];

	(void)state;
	trailer_encode(700, enc);
	memcpy(d, enc, DESC_LEN);
	b = signed_file(1000, 700, d, &len);
	assert_int_equal(len, 1740);
	assert_int_equal(trailer_check(b, len, &t, &why), 0);
	assert_null(why);
	assert_int_equal(t.body_len, 1000);
	assert_int_equal(t.sig_off, 1000);
	assert_int_equal(t.sig_len, 700);
	assert_int_equal(t.desc.id_type, 2);
	assert_int_equal(t.desc.sig_len, 700);
	free(b);
}

/* module_sig_check(): the file must be strictly longer than the magic
 * and end with it; anything else is an unsigned module, -ENODATA. */
static void no_magic_is_unsigned(void **state)
{
	uint8_t buf[64];
	struct trailer t;
	const char *why;

	(void)state;
	assert_int_equal(trailer_check(NULL, 0, &t, &why), -ENODATA);
	/* the magic alone: not longer than it */
	memcpy(buf, magic, MAGIC_LEN);
	assert_int_equal(trailer_check(buf, MAGIC_LEN, &t, &why), -ENODATA);
	assert_false(trailer_has_magic(buf, MAGIC_LEN));
	/* the magic, then one byte more: not at the very end */
	buf[MAGIC_LEN] = '\n';
	memmove(buf + 1, buf, MAGIC_LEN);
	buf[0] = 'x';
	assert_true(trailer_has_magic(buf, MAGIC_LEN + 1));
	buf[MAGIC_LEN + 1] = '\n';
	assert_int_equal(trailer_check(buf, MAGIC_LEN + 2, &t, &why), -ENODATA);
	/* the magic less its newline */
	memcpy(buf, "x~Module signature appended~", 29);
	assert_int_equal(trailer_check(buf, 29, &t, &why), -ENODATA);
	assert_int_equal(trailer_split(buf, 29, &t, &why), -ENODATA);
}

/* mod_verify_sig(): after the magic, at most 12 bytes left is -EBADMSG. */
static void descriptor_truncated(void **state)
{
	uint8_t buf[MAGIC_LEN + DESC_LEN];
	struct trailer t;
	const char *why;

	(void)state;
	for (size_t n = 1; n <= DESC_LEN; n++) {
		memset(buf, 0, n);
		memcpy(buf + n, magic, MAGIC_LEN);
		assert_int_equal(trailer_check(buf, n + MAGIC_LEN, &t, &why),
				 -EBADMSG);
	}
}

/* mod_check_sig(): sig_len >= modlen - 12 is -EBADMSG, one byte less
 * leaves a body of one byte. */
static void sig_len_bound_is_the_kernels(void **state)
{
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	/* 1 body byte + 50 signature bytes: modlen (without magic) is 63 */
	pkcs7_desc(51, d);
	b = signed_file(1, 50, d, &len);
	assert_int_equal(trailer_check(b, len, &t, &why), -EBADMSG);
	pkcs7_desc(50, d);
	memcpy(b + 51, d, DESC_LEN);
	assert_int_equal(trailer_check(b, len, &t, &why), 0);
	assert_int_equal(t.body_len, 1);
	free(b);

	/* sig_len 0 passes the trailer checks (the PKCS#7 parser refuses
	 * the empty message later); the body is then everything before */
	pkcs7_desc(0, d);
	b = signed_file(1, 0, d, &len);
	assert_int_equal(trailer_check(b, len, &t, &why), 0);
	assert_int_equal(t.body_len, 1);
	assert_int_equal(t.sig_len, 0);
	free(b);
}

/* A hostile sig_len near 2^32 must neither wrap nor read outside. */
static void huge_sig_len(void **state)
{
	static const uint32_t lens[] = { 0xffffffffu, 0x80000000u, 0xffffffd8u,
					 0x7fffffffu, 1u << 24 };
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		pkcs7_desc(lens[i], d);
		b = signed_file(100, 20, d, &len);
		assert_int_equal(trailer_check(b, len, &t, &why), -EBADMSG);
		assert_int_equal(trailer_split(b, len, &t, &why), -EBADMSG);
		free(b);
	}
}

/* mod_check_sig()'s order: the length first, then id_type (-ENOPKG),
 * then the fields that must be zero (-EBADMSG). */
static void check_order_is_the_kernels(void **state)
{
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	/* X.509 (1) and PGP (0) ids with a sound length: -ENOPKG */
	for (uint8_t id = 0; id < 2; id++) {
		pkcs7_desc(20, d);
		d[2] = id;
		b = signed_file(10, 20, d, &len);
		assert_int_equal(trailer_check(b, len, &t, &why), -ENOPKG);
		free(b);
	}
	/* a wrong id_type and an oversized length: the length wins */
	pkcs7_desc(1000, d);
	d[2] = 1;
	b = signed_file(10, 20, d, &len);
	assert_int_equal(trailer_check(b, len, &t, &why), -EBADMSG);
	free(b);
	/* a wrong id_type and a non-zero algo: -ENOPKG comes first */
	pkcs7_desc(20, d);
	d[2] = 1;
	d[0] = 1;
	b = signed_file(10, 20, d, &len);
	assert_int_equal(trailer_check(b, len, &t, &why), -ENOPKG);
	free(b);
}

/* algo, hash, signer_len, key_id_len and __pad[0..2] must all be zero. */
static void nonzero_params_are_refused(void **state)
{
	static const size_t fields[] = { 0, 1, 3, 4, 5, 6, 7 };
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		pkcs7_desc(20, d);
		d[fields[i]] = 0x01;
		b = signed_file(10, 20, d, &len);
		assert_int_equal(trailer_check(b, len, &t, &why), -EBADMSG);
		assert_string_equal(why, "PKCS#7 signature info has unexpected "
				    "non-zero params");
		/* kmod reads it all the same */
		assert_int_equal(trailer_split(b, len, &t, &why), 0);
		free(b);
	}
}

/* Every truncation of a signed file loses the magic: none may pass, and
 * none may read outside the buffer. */
static void every_truncation_is_refused(void **state)
{
	uint8_t d[DESC_LEN], *b, *cut;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	pkcs7_desc(30, d);
	b = signed_file(20, 30, d, &len);
	for (size_t n = 0; n < len; n++) {
		cut = malloc(n ? n : 1);
		assert_non_null(cut);
		memcpy(cut, b, n);
		assert_int_not_equal(trailer_check(cut, n, &t, &why), 0);
		assert_int_not_equal(trailer_split(cut, n, &t, &why), 0);
		free(cut);
	}
	free(b);
}

/* Signed twice: only the last trailer counts, the first is body. */
static void only_the_last_trailer_counts(void **state)
{
	uint8_t d[DESC_LEN], *first, *twice;
	struct trailer t;
	const char *why;
	size_t len1, len2;

	(void)state;
	pkcs7_desc(10, d);
	first = signed_file(5, 10, d, &len1);
	pkcs7_desc(7, d);
	len2 = len1 + 7 + DESC_LEN + MAGIC_LEN;
	twice = malloc(len2);
	assert_non_null(twice);
	memcpy(twice, first, len1);
	memset(twice + len1, 'T', 7);
	memcpy(twice + len1 + 7, d, DESC_LEN);
	memcpy(twice + len1 + 7 + DESC_LEN, magic, MAGIC_LEN);
	assert_int_equal(trailer_check(twice, len2, &t, &why), 0);
	assert_int_equal(t.body_len, len1);
	assert_int_equal(t.sig_len, 7);
	assert_true(trailer_has_magic(twice, t.body_len));
	free(first);
	free(twice);
}

/* kmod's split: the legacy layout puts signer name and key id before
 * the signature, and it takes what the kernel refuses. */
static void split_reads_the_legacy_layout(void **state)
{
	uint8_t d[DESC_LEN], *b;
	struct trailer t;
	const char *why;
	size_t len;

	(void)state;
	pkcs7_desc(20, d);
	d[2] = 1;	/* PKEY_ID_X509 */
	d[0] = 1;	/* an algo */
	d[3] = 6;	/* signer_len */
	d[4] = 4;	/* key_id_len */
	/* body 30, then signer 6, key id 4, signature 20 */
	b = signed_file(40, 20, d, &len);
	assert_int_equal(trailer_split(b, len, &t, &why), 0);
	assert_int_equal(t.body_len, 30);
	assert_int_equal(t.signer_off, 30);
	assert_int_equal(t.key_id_off, 36);
	assert_int_equal(t.sig_off, 40);
	assert_int_equal(t.sig_len, 20);
	/* the three regions claim one byte more than there is */
	d[3] = 41 - 4;
	memcpy(b + 60, d, DESC_LEN);
	assert_int_equal(trailer_split(b, len, &t, &why), -EBADMSG);
	/* exactly all of it: an empty body */
	d[3] = 40 - 4;
	memcpy(b + 60, d, DESC_LEN);
	assert_int_equal(trailer_split(b, len, &t, &why), 0);
	assert_int_equal(t.body_len, 0);
	free(b);

	/* kmod: sig_len 0 is no signature */
	pkcs7_desc(0, d);
	b = signed_file(10, 0, d, &len);
	assert_int_equal(trailer_split(b, len, &t, &why), -EBADMSG);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(magic_is_the_kernels),
		cmocka_unit_test(encode_writes_the_kernel_layout),
		cmocka_unit_test(encode_then_check_round_trip),
		cmocka_unit_test(no_magic_is_unsigned),
		cmocka_unit_test(descriptor_truncated),
		cmocka_unit_test(sig_len_bound_is_the_kernels),
		cmocka_unit_test(huge_sig_len),
		cmocka_unit_test(check_order_is_the_kernels),
		cmocka_unit_test(nonzero_params_are_refused),
		cmocka_unit_test(every_truncation_is_refused),
		cmocka_unit_test(only_the_last_trailer_counts),
		cmocka_unit_test(split_reads_the_legacy_layout),
	};

	return cmocka_run_group_tests_name("module/trailer", tests, NULL, NULL);
}
