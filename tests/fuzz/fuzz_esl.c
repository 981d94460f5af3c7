// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: EFI_SIGNATURE_LIST walking (efi_parser.c's size
 * checks) and the trust sources behind it: every entry handed out lies
 * inside the buffer, and certificates and hashes land in their stores
 * without leaks.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/keyring.h"
#include "trust/efi_siglist.h"

struct ctx {
	const uint8_t *buf;
	size_t len;
	struct keyring cs;
	struct blacklist bl;
};

static int entry(void *p, const struct efi_siglist_entry *e)
{
	struct ctx *c = p;

	assert(e->data >= c->buf && e->data + e->len <= c->buf + c->len);
	assert(e->list >= 1 && e->index >= 1);
	if (e->type == EFI_SIGLIST_X509)
		return keyring_add_der(&c->cs, "fuzz", (int)e->index, e->data,
				  e->len, rules_get(RULES_6_12), &c->bl);
	if (e->type == EFI_SIGLIST_SHA256 && e->len == 32)
		return blacklist_add(&c->bl, false, e->data, 32);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx c = { data, size, { 0 }, { 0 } };
	size_t bad = 0;
	int ret;

	ret = efi_siglist_walk(data, size, entry, &c, &bad);
	assert(ret == 0 || ret == -EBADMSG || ret == -ENOMEM);
	if (ret == -EBADMSG)
		assert(bad < size || size == 0);
	keyring_free(&c.cs);
	blacklist_free(&c.bl);
	return 0;
}
