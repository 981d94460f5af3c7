// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trust/running_keys.h"

/* include/uapi/linux/keyctl.h */
#define RK_KEYCTL_READ 11

static const char *const ring_names[RUNNING_KEYS_N] = {
	[RUNNING_KEYS_BUILTIN] = ".builtin_trusted_keys",
	[RUNNING_KEYS_SECONDARY] = ".secondary_trusted_keys",
	[RUNNING_KEYS_MACHINE] = ".machine",
	[RUNNING_KEYS_PLATFORM] = ".platform",
	[RUNNING_KEYS_BLACKLIST] = ".blacklist",
};

const char *running_keys_ring_name(enum running_keys_ring r)
{
	return ring_names[r];
}

/* "desc: summary" -> desc; a keyring's summary is its count or
 * "empty", an asymmetric key's "X509.rsa 1a2b3c4d [...]" */
static void cut_summary(char *s)
{
	char *p = strrchr(s, ':');

	if (p && p[1] == ' ')
		*p = 0;
}

static int one_line(struct running_keys_state *s, char *line)
{
	unsigned id;
	char type[16];
	int at = 0, i;
	struct running_keys_key *v;

	/* proc_keys_show(): "%08x %c%c%c%c%c%c%c %5d %4s %08x %5d %5d
	 * %-9.9s %s..." -- the type is cut to 9 characters */
	if (sscanf(line, "%x %*s %*d %*s %*x %*d %*d %15s %n", &id, type,
		   &at) != 2 || !at)
		return -EINVAL;
	cut_summary(line + at);
	if (strcmp(type, "keyring") == 0) {
		for (i = 0; i < RUNNING_KEYS_N; i++)
			if (strcmp(line + at, ring_names[i]) == 0)
				s->ring_id[i] = id;
		return 0;
	}
	if (strcmp(type, "asymmetri") != 0)
		return 0;
	v = realloc(s->keys, (s->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->keys = v;
	v[s->n].id = id;
	v[s->n].ring = -1;
	snprintf(v[s->n].desc, sizeof(v[s->n].desc), "%s", line + at);
	s->n++;
	return 0;
}

int running_keys_parse(const char *text, size_t len, struct running_keys_state *s)
{
	char *copy = malloc(len + 1), *p, *end;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = 0;
	for (p = copy; *p && !ret; p = end) {
		end = strchr(p, '\n');
		if (end)
			*end++ = 0;
		else
			end = p + strlen(p);
		if (*p)
			ret = one_line(s, p);
	}
	free(copy);
	return ret;
}

static struct running_keys_key *by_id(struct running_keys_state *s, uint32_t id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->keys[i].id == id)
			return &s->keys[i];
	return NULL;
}

int running_keys_read_members(struct running_keys_state *s)
{
	for (int r = 0; r < RUNNING_KEYS_N; r++) {
		int32_t ids[4096];
		long n;

		if (!s->ring_id[r])
			continue;
		n = syscall(SYS_keyctl, RK_KEYCTL_READ,
			    (long)(int32_t)s->ring_id[r], ids, sizeof(ids));
		if (n < 0)
			return -errno;
		if ((size_t)n > sizeof(ids))
			n = sizeof(ids);
		for (long i = 0; i < n / (long)sizeof(ids[0]); i++) {
			struct running_keys_key *k = by_id(s, (uint32_t)ids[i]);

			if (k && k->ring < 0)
				k->ring = r;
		}
	}
	s->members = true;
	return 0;
}

const struct running_keys_key *running_keys_find(const struct running_keys_state *s,
						 const char *desc)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->keys[i].desc, desc) == 0)
			return &s->keys[i];
	return NULL;
}

void running_keys_free(struct running_keys_state *s)
{
	free(s->keys);
	memset(s, 0, sizeof(*s));
}
