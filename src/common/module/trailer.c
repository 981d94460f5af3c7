// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "module/trailer.h"

/*
 * A signed module (include/linux/module_signature.h).  Only the last trailer
 * counts:
 * an earlier one is part of the signed body.
 *
 *   0                                                              len
 *   +----------------------+-----------------+----------+------------+
 *   | module body          | PKCS#7 DER      | desc(12) | magic (28) |
 *   | (body_len bytes)     | (sig_len bytes) |          |            |
 *   +----------------------+-----------------+----------+------------+
 *
 *   desc = algo | hash | id_type | signer_len | key_id_len | pad[3] |
 *          sig_len (big-endian u32)
 *
 * The legacy (pre-4.3) format put "signer name" and "key id" regions of
 * signer_len and key_id_len bytes in front of the signature; only kmod and
 * extract-module-sig.pl still understand it.
 */

int trailer_has_magic(const uint8_t *buf, size_t len)
{
	return len > TRAILER_MAGIC_LEN &&
	       memcmp(buf + len - TRAILER_MAGIC_LEN, TRAILER_MAGIC, TRAILER_MAGIC_LEN) == 0;
}

static void decode_desc(const uint8_t *p, struct trailer_desc *d)
{
	d->algo = p[0];
	d->hash = p[1];
	d->id_type = p[2];
	d->signer_len = p[3];
	d->key_id_len = p[4];
	memcpy(d->pad, p + 5, 3);
	d->sig_len = (uint32_t)p[8] << 24 | (uint32_t)p[9] << 16 |
		     (uint32_t)p[10] << 8 | p[11];
}

int trailer_check(const uint8_t *buf, size_t len, struct trailer *t,
		     const char **reason)
{
	struct trailer_desc *d = &t->desc;

	memset(t, 0, sizeof(*t));
	/* module_sig_check(): the magic must be the very last bytes, and the
	 * file strictly longer than it; otherwise "unsigned module". */
	if (!trailer_has_magic(buf, len)) {
		*reason = "unsigned module (no signature magic at the end)";
		return -ENODATA;
	}
	len -= TRAILER_MAGIC_LEN;

	/* mod_verify_sig(): room for the descriptor. */
	if (len <= TRAILER_DESC_LEN) {
		*reason = "signature descriptor truncated";
		return -EBADMSG;
	}
	decode_desc(buf + len - TRAILER_DESC_LEN, d);

	/* mod_check_sig(), in its order: length first, so an oversized
	 * sig_len wins over a wrong id_type. */
	if (d->sig_len >= len - TRAILER_DESC_LEN) {
		*reason = "signature length exceeds the module";
		return -EBADMSG;
	}
	if (d->id_type != TRAILER_ID_PKCS7) {
		*reason = "module: not signed with expected PKCS#7 message";
		return -ENOPKG;
	}
	if (d->algo || d->hash || d->signer_len || d->key_id_len ||
	    d->pad[0] || d->pad[1] || d->pad[2]) {
		*reason = "PKCS#7 signature info has unexpected non-zero params";
		return -EBADMSG;
	}
	t->sig_len = d->sig_len;
	t->body_len = len - TRAILER_DESC_LEN - d->sig_len;
	t->sig_off = t->body_len;
	*reason = NULL;
	return 0;
}

int trailer_split(const uint8_t *buf, size_t len, struct trailer *t,
		     const char **reason)
{
	struct trailer_desc *d = &t->desc;
	size_t p, need;

	memset(t, 0, sizeof(*t));
	if (!trailer_has_magic(buf, len)) {
		*reason = "not signed (no signature magic at the end)";
		return -ENODATA;
	}
	if (len < TRAILER_OVERHEAD) {
		*reason = "signature descriptor truncated";
		return -EBADMSG;
	}
	p = len - TRAILER_OVERHEAD;
	decode_desc(buf + p, d);
	need = (size_t)d->signer_len + d->key_id_len + d->sig_len;
	if (d->sig_len == 0) {
		*reason = "signature length is 0: the trailer holds no "
			  "signature";
		return -EBADMSG;
	}
	if (need > p) {
		*reason = "signature length exceeds the file";
		return -EBADMSG;
	}
	t->sig_len = d->sig_len;
	t->sig_off = p - d->sig_len;
	t->key_id_off = t->sig_off - d->key_id_len;
	t->signer_off = t->key_id_off - d->signer_len;
	t->body_len = t->signer_off;
	*reason = NULL;
	return 0;
}

void trailer_encode(uint32_t sig_len, uint8_t out[TRAILER_OVERHEAD])
{
	memset(out, 0, TRAILER_DESC_LEN);
	out[2] = TRAILER_ID_PKCS7;
	out[8] = (uint8_t)(sig_len >> 24);
	out[9] = (uint8_t)(sig_len >> 16);
	out[10] = (uint8_t)(sig_len >> 8);
	out[11] = (uint8_t)sig_len;
	memcpy(out + TRAILER_DESC_LEN, TRAILER_MAGIC, TRAILER_MAGIC_LEN);
}
