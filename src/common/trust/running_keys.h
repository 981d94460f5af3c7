/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The keys a running kernel really holds in its system keyrings, as it
 * lists them: /proc/keys (security/keys/proc.c: proc_keys_show(), one
 * key a line: id, flags, usage, expiry, permissions, uid, gid, type,
 * then "description: summary"), and each keyring's members through
 * keyctl(KEYCTL_READ), which for a keyring gives its keys' ids
 * (security/keys/keyring.c: keyring_read()).  Both show the system
 * keyrings to root only.  An asymmetric key's description is the one
 * x509_key_preparse() gives it ("CN: skid", x509k_describe()): keys are
 * matched by it, as the kernel itself names them.
 */
#ifndef MODSIGN_TRUST_RUNNING_KEYS_H
#define MODSIGN_TRUST_RUNNING_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The keyrings a module's verdict can depend on. */
enum running_keys_ring {
	RUNNING_KEYS_BUILTIN,		/* .builtin_trusted_keys */
	RUNNING_KEYS_SECONDARY,		/* .secondary_trusted_keys */
	RUNNING_KEYS_MACHINE,		/* .machine */
	RUNNING_KEYS_PLATFORM,		/* .platform */
	RUNNING_KEYS_BLACKLIST,		/* .blacklist */
	RUNNING_KEYS_N,
};

const char *running_keys_ring_name(enum running_keys_ring r);

struct running_keys_key {
	uint32_t id;
	char desc[256];		/* without the ": summary" */
	int ring;		/* enum running_keys_ring holding it, -1: not known */
};

struct running_keys_state {
	struct running_keys_key *keys;	/* the asymmetric keys listed */
	size_t n;
	uint32_t ring_id[RUNNING_KEYS_N];	/* 0: not listed */
	bool members;		/* each key's ring is known (keyctl) */
};

/*
 * Parse /proc/keys text into s.  0, -EINVAL for a line that is no
 * /proc/keys line, -ENOMEM.  running_keys_free in every case.
 */
int running_keys_parse(const char *text, size_t len, struct running_keys_state *s);

/*
 * Which of the listed keyrings holds each key, by keyctl(KEYCTL_READ)
 * of each keyring (a key linked into two keeps the first, in running_keys_ring
 * order).  Only for the kernel this process runs on.  0 (s->members
 * set), or -errno from keyctl (-EACCES without root).
 */
int running_keys_read_members(struct running_keys_state *s);

/* The key of that description, or NULL. */
const struct running_keys_key *running_keys_find(const struct running_keys_state *s,
						 const char *desc);

void running_keys_free(struct running_keys_state *s);

#endif
