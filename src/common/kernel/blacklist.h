/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The .blacklist keyring's hash entries (certs/system_keyring.c,
 * certs/blacklist.c), read from
 * a CONFIG_SYSTEM_BLACKLIST_HASH_LIST file: quoted "tbs:<hex>" and
 * "bin:<hex>" strings separated by commas or newlines.
 */
#ifndef MODSIGN_KERNEL_BLACKLIST_H
#define MODSIGN_KERNEL_BLACKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct blacklist_entry {
	bool tbs;		/* "tbs:" (else "bin:") */
	uint8_t hash[64];
	size_t len;
};

struct blacklist {
	struct blacklist_entry *e;
	size_t n;
};

/*
 * Add the entries of a hash-list file.  -EINVAL with *line set for an
 * entry the kernel would refuse (blacklist.c: lower-case hex, an even
 * number of digits, tbs: or bin:), -ENOPKG for more than 128 digits.
 */
int blacklist_load(struct blacklist *bl, const char *text, size_t len, int *line);
/* One hash (mark_hash_blacklisted() from UEFI dbx); -EINVAL over 64
 * bytes, -ENOMEM. */
int blacklist_add(struct blacklist *bl, bool tbs, const uint8_t *h, size_t len);
/* is_hash_blacklisted(hash, BLACKLIST_HASH_X509_TBS) */
bool blacklist_has_tbs(const struct blacklist *bl, const uint8_t *h, size_t len);
/* is_hash_blacklisted(hash, BLACKLIST_HASH_BINARY) */
bool blacklist_has_bin(const struct blacklist *bl, const uint8_t *h, size_t len);
void blacklist_free(struct blacklist *bl);

#endif
