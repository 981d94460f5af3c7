// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "base/infile.h"
#include "trust/machine_parts.h"
#include "trust/running_keys.h"

static int vnote(struct machine_parts_notes *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static int vnote(struct machine_parts_notes *n, const char *fmt, va_list ap)
{
	char *line, **v;
	int len;

	len = vasprintf(&line, fmt, ap);
	if (len < 0)
		return -ENOMEM;
	v = realloc(n->v, (n->n + 1) * sizeof(*v));
	if (!v) {
		free(line);
		return -ENOMEM;
	}
	n->v = v;
	v[n->n++] = line;
	return 0;
}

/* One more note; 0 or -ENOMEM. */
static int add_note(struct machine_parts_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_note(struct machine_parts_notes *n, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vnote(n, fmt, ap);
	va_end(ap);
	return ret;
}

#define note add_note

static bool has_source(const struct machine_parts_request *rq, enum keyring_load_kind kind)
{
	for (size_t i = 0; i < *rq->nsrc; i++)
		if (rq->srcs[i].kind == kind)
			return true;
	return false;
}

/*
 * An efivarfs source of the machine: --mok, --efi-db and --efi-dbx
 * given too read the machine's file; one that is not there is noted
 * once.
 */
static int efivar_part(struct machine_parts_request *rq, struct machine_parts_notes *n,
		       const struct keyring_load_source *want, bool there,
		       const char *absent)
{
	bool given = false;

	for (size_t i = 0; i < *rq->nsrc; i++)
		if (rq->srcs[i].kind == want->kind) {
			rq->srcs[i].path = want->path;
			rq->srcs[i].raw = want->raw;
			given = true;
		}
	if (!there)
		return given ? 0 : note(n, "no %s: %s", want->path, absent);
	if (!given)
		rq->srcs[(*rq->nsrc)++] = *want;
	return 0;
}

static const char *const mok_keyring[] = {
	[KEYRING_MODEL_MOK_NOT_LOADED] = NULL,
	[KEYRING_MODEL_MOK_MACHINE] = ".machine",
	[KEYRING_MODEL_MOK_MACHINE_CA] = ".machine",
	[KEYRING_MODEL_MOK_MACHINE_CA_MAX] = ".machine",
	[KEYRING_MODEL_MOK_PLATFORM] = ".platform",
};

static const enum keyring_load_file mok_file[] = {
	[KEYRING_MODEL_MOK_NOT_LOADED] = KEYRING_LOAD_FILE_AS_KIND,
	[KEYRING_MODEL_MOK_MACHINE] = KEYRING_LOAD_FILE_AS_KIND,
	[KEYRING_MODEL_MOK_MACHINE_CA] = KEYRING_LOAD_FILE_MACHINE_CA,
	[KEYRING_MODEL_MOK_MACHINE_CA_MAX] = KEYRING_LOAD_FILE_MACHINE_CA_MAX,
	[KEYRING_MODEL_MOK_PLATFORM] = KEYRING_LOAD_FILE_PLATFORM,
};

/*
 * The machine's UEFI sources as the kernel's keyring model km files
 * them (trust/keyring_model.h): MokListRT (from the MOK variable table
 * when there) into .machine or .platform or not at all, db unless
 * ignored, dbx, MokListXRT.  A source given on the command line too
 * (--mok, --efi-db, --efi-dbx) reads the machine's file.  0 or -ENOMEM.
 */
static int fill_keyrings(const struct machine *m, const struct keyring_model *km,
		       struct machine_parts_request *rq, struct machine_parts_notes *n)
{
	/* load_moklist_certs(): the MOK variable table first, then the
	 * variable */
	struct keyring_load_source mok = {
		KEYRING_LOAD_MOK, m->has_mok_table ? m->mok_table : m->mok,
		mok_file[km->mok], m->has_mok_table, mok_keyring[km->mok],
		km->mok_why,
	};
	struct keyring_load_source db = { KEYRING_LOAD_EFI_DB, m->db,
					   KEYRING_LOAD_FILE_AS_KIND, false,
					   ".platform", "UEFI db" };
	/* certs/blacklist.c: without SYSTEM_REVOCATION_LIST their X.509
	 * entries revoke nothing */
	enum keyring_load_file rev = km->revocation_certs ? KEYRING_LOAD_FILE_AS_KIND :
						  KEYRING_LOAD_FILE_HASHES_ONLY;
	struct keyring_load_source dbx = { KEYRING_LOAD_EFI_DBX, m->dbx, rev, false, NULL, NULL };
	struct keyring_load_source mokx = { KEYRING_LOAD_MOKX, m->mokx, rev, false, NULL, NULL };
	int err;

	if (!m->has_efivars)
		return 0;
	if (km->mok != KEYRING_MODEL_MOK_NOT_LOADED)
		err = efivar_part(rq, n, &mok, m->has_mok_table || m->has_mok,
				  "no MOK key enrolled");
	else
		err = m->has_mok_table || m->has_mok ?
			note(n, "%s: not loaded: %s", mok.path, km->mok_why) :
			0;
	if (!err && km->db)
		err = efivar_part(rq, n, &db, m->has_db, "no UEFI db");
	else if (!err && m->has_db)
		err = note(n, "%s: not loaded: %s", m->db, km->db_why);
	if (!err && km->dbx)
		err = efivar_part(rq, n, &dbx, m->has_dbx, "no UEFI dbx");
	if (!err && km->mokx && m->has_mokx)
		err = efivar_part(rq, n, &mokx, true, NULL);
	return err;
}

int machine_parts_settle(const struct machine *m, struct machine_parts_request *rq,
			 struct machine_parts_notes *n)
{
	int err;

	if (!has_source(rq, KEYRING_LOAD_VMLINUX)) {
		if (m->has_vmlinuz)
			rq->srcs[(*rq->nsrc)++] = (struct keyring_load_source){
				.kind = KEYRING_LOAD_VMLINUX, .path = m->vmlinuz,
				.keyring = ".builtin_trusted_keys" };
		else if ((err = note(n, "no kernel image of %s in %s (%s): no "
				     "built-in keys (give --vmlinux)",
				     m->release, m->root ? m->root : "/",
				     machine_image_places())))
			return err;
	}
	if (!*rq->kcpath && !rq->kline) {
		if (m->has_config)
			*rq->kcpath = m->config;
		else if ((err = note(n, "no kernel config of %s in %s (%s): "
				     "crypto assumed built, lockdown assumed "
				     "under Secure Boot (give "
				     "--kernel-config)", m->release,
				     m->root ? m->root : "/",
				     machine_config_places())))
			return err;
	}
	if (m->has_efivars) {
		if (m->sb == MACHINE_SB_UNKNOWN && (err = note(n, "%s: SecureBoot "
		    "unreadable: Secure Boot state unknown, taken as on",
		    m->efivars)))
			return err;
	} else if ((err = note(n, "no %s: not booted with UEFI: no Secure "
			       "Boot, MOK list or db", m->efivars))) {
		return err;
	}
	if (rq->lockdown < 0 && m->lockdown < 0 &&
	    (err = note(n, "no %s: lockdown from the kernel config and "
			"Secure Boot only", m->lockdown_path)))
		return err;
	if (!*rq->enforce && m->sig_enforce < 0 &&
	    (err = note(n, "no %s: module.sig_enforce taken as off",
			m->enforce_path)))
		return err;
	if (m->sig_enforce == 1)
		*rq->enforce = true;
	return 0;
}

void machine_parts_notes_free(struct machine_parts_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* The options a config would have said, in words, for the note. */
static void shipped_words(const struct vendors_options *o, char *buf, size_t n)
{
	snprintf(buf, n, "IMA_ARCH_POLICY %s, lockdown under Secure Boot %s, "
		 "SYSTEM_REVOCATION_LIST %s, INTEGRITY_CA_MACHINE_KEYRING %s",
		 o->ima_arch_policy ? "y" : "n", o->lockdown_in_sb ? "y" : "n",
		 o->revocation_list ? "y" : "n",
		 o->keyrings & KERNEL_CONFIG_CA_MACHINE_MAX ? "y (_MAX y)" :
		 o->keyrings & KERNEL_CONFIG_CA_MACHINE ? "y" : "n");
}

int machine_parts_model(const struct machine *m, const struct kernel_config *kc,
			int given, struct machine_parts_request *rq, struct keyring_model *km,
			struct machine_parts_notes *n)
{
	char banner[512], *b = NULL, words[256];
	const char *version = kc && kc->version[0] ? kc->version : m->release;
	int err, major = 0, minor = 0;

	for (size_t i = 0; i < *rq->nsrc && !b; i++)
		if (rq->srcs[i].kind == KEYRING_LOAD_VMLINUX &&
		    trust_sources_vmlinux_banner(rq->srcs[i].path, banner,
						 sizeof(banner)) == 0)
			b = banner;
	if (sscanf(version, "%d.%d", &major, &minor) != 2)
		major = minor = 0;
	keyring_model_decide(kc, m, (enum vendors_id)given, b, version, km);
	err = fill_keyrings(m, km, rq, n);
	if (!err && km->vendor == VENDORS_UNKNOWN)
		err = note(n, "kernel vendor unknown: %s", km->vendor_why);
	if (!err && km->assumed_config) {
		shipped_words(&km->opts, words, sizeof(words));
		err = note(n, "no kernel config: %s's shipped options taken "
			   "(%s; from %s)", km->row->title, words,
			   km->row->shipped_from);
	}
	if (!err && km->trust_assumed)
		err = note(n, "Debian kernel %d.%d: whether its trust_moklist() "
			   "is always true (6.1, 6.12) or kernel.org's (7.3) is "
			   "not known: kernel.org's assumed", major, minor);
	if (!err && !km->revocation_certs && (m->has_dbx || m->has_mokx))
		err = note(n, "%s", km->revocation_why);
	return err;
}

static bool trusted_ring(int ring)
{
	return ring == RUNNING_KEYS_BUILTIN || ring == RUNNING_KEYS_SECONDARY ||
	       ring == RUNNING_KEYS_MACHINE;
}

/* One store's keys against the kernel's: *i advances unless the key
 * at it moved out. */
static int reconcile(struct keyring *cs, bool is_trusted,
		     struct keyring *other, const struct running_keys_state *rk,
		     bool *seen, struct machine_parts_notes *n)
{
	char desc[256];
	int err = 0;

	for (size_t i = 0; i < cs->n && !err;) {
		struct x509k_cert *c = cs->certs[i];
		const struct running_keys_key *k;

		x509k_describe(c, desc, sizeof(desc));
		k = running_keys_find(rk, desc);
		if (k)
			seen[k - rk->keys] = true;
		/* keys given on the command line (-k, -c, --esl,
		 * --secondary) are the user's to judge with, not the
		 * machine's prediction */
		if (!c->keyring ||
		    strcmp(c->keyring, ".secondary_trusted_keys") == 0) {
			i++;
			continue;
		}
		if (!k) {
			err = note(n, "running kernel: '%s' (%s) predicted in "
				   "%s is not among its keys: left out", desc,
				   c->path, c->keyring ? c->keyring :
				   is_trusted ? "a trusted keyring" :
				   ".platform");
			if (!err)
				err = keyring_move(cs, i, NULL);
			continue;
		}
		if (rk->members && k->ring >= 0 && k->ring != RUNNING_KEYS_BLACKLIST &&
		    trusted_ring(k->ring) != is_trusted) {
			err = note(n, "running kernel: '%s' (%s) is in %s, "
				   "not %s as the files predict", desc,
				   c->path, running_keys_ring_name(k->ring),
				   c->keyring ? c->keyring : is_trusted ?
				   "a trusted keyring" : ".platform");
			c->keyring = running_keys_ring_name(k->ring);
			c->filed_why = "where the running kernel holds it";
			if (!err)
				err = keyring_move(cs, i, other);
			continue;
		}
		if (rk->members && k->ring >= 0 && k->ring != RUNNING_KEYS_BLACKLIST) {
			c->keyring = running_keys_ring_name(k->ring);
		}
		i++;
	}
	return err;
}

int machine_parts_running(const struct machine *m, struct keyring *trusted,
			  struct keyring *platform, struct machine_parts_notes *n)
{
	struct running_keys_state rk;
	uint8_t *buf;
	size_t len;
	bool *seen = NULL, any = false;
	int err;

	if (!m->running)
		return 0;
	err = infile_read_stream(m->proc_keys, 16u << 20, &buf, &len);
	if (err)
		return err == -ENOMEM ? err :
		       note(n, "no %s: the running kernel's keys not read",
			    m->proc_keys);
	err = running_keys_parse((const char *)buf, len, &rk);
	free(buf);
	if (err == -EINVAL)
		err = note(n, "%s: not a /proc/keys listing: the running "
			   "kernel's keys not read", m->proc_keys);
	for (int r = 0; r < RUNNING_KEYS_N; r++)
		any |= rk.ring_id[r] != 0;
	if (err || !any) {
		if (!err)
			err = note(n, "%s lists no system keyring (run as "
				   "root): the running kernel's keys not read",
				   m->proc_keys);
		running_keys_free(&rk);
		return err;
	}
	if (!m->root && (err = running_keys_read_members(&rk)) &&
	    (err = note(n, "keyctl: cannot read the system keyrings (%s): "
			"which keyring holds each key not read",
			strerror(-err)))) {
		running_keys_free(&rk);
		return err;
	}
	seen = calloc(rk.n ? rk.n : 1, sizeof(*seen));
	if (!seen) {
		running_keys_free(&rk);
		return -ENOMEM;
	}
	err = reconcile(trusted, true, platform, &rk, seen, n);
	if (!err)
		err = reconcile(platform, false, trusted, &rk, seen, n);
	for (size_t i = 0; !err && i < rk.n; i++)
		if (!seen[i] && rk.keys[i].ring != RUNNING_KEYS_BLACKLIST)
			err = note(n, "running kernel: '%s' is in %s, but in no "
				   "file read (added at run time?): a module it "
				   "signed is judged UNKNOWN-KEY here",
				   rk.keys[i].desc, rk.keys[i].ring >= 0 ?
				   running_keys_ring_name(rk.keys[i].ring) :
				   "its keyrings");
	free(seen);
	running_keys_free(&rk);
	return err;
}
