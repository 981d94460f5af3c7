// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "trust/machine_parts.h"

static int note(struct mp_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int note(struct mp_notes *n, const char *fmt, ...)
{
	va_list ap;
	char *line, **v;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
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

static void add_source(struct mp_request *rq, enum tl_kind kind,
		       const char *path)
{
	rq->srcs[(*rq->nsrc)++] = (struct tl_source){ kind, path };
}

static bool has_source(const struct mp_request *rq, enum tl_kind kind)
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
static int efivar_part(struct mp_request *rq, struct mp_notes *n,
		       enum tl_kind kind, const char *path, bool there,
		       const char *absent)
{
	bool given = false;

	for (size_t i = 0; i < *rq->nsrc; i++)
		if (rq->srcs[i].kind == kind) {
			rq->srcs[i].path = path;
			given = true;
		}
	if (!there)
		return given ? 0 : note(n, "no %s: %s", path, absent);
	if (!given)
		add_source(rq, kind, path);
	return 0;
}

int mp_settle(const struct mc_machine *m, struct mp_request *rq,
	      struct mp_notes *n)
{
	int err;

	if (!has_source(rq, TL_VMLINUX)) {
		if (m->has_vmlinuz)
			add_source(rq, TL_VMLINUX, m->vmlinuz);
		else if ((err = note(n, "no kernel image of %s in %s (%s): no "
				     "built-in keys (give --vmlinux)",
				     m->release, m->root ? m->root : "/",
				     mc_image_places())))
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
				     mc_config_places())))
			return err;
	}
	if (m->has_efivars) {
		if ((err = efivar_part(rq, n, TL_MOK, m->mok, m->has_mok,
				       "no MOK key enrolled")) ||
		    (err = efivar_part(rq, n, TL_EFI_DB, m->db, m->has_db,
				       "no UEFI db")) ||
		    (err = efivar_part(rq, n, TL_EFI_DBX, m->dbx, m->has_dbx,
				       "no UEFI dbx")))
			return err;
		if (m->sb == MC_SB_UNKNOWN && (err = note(n, "%s: SecureBoot "
		    "unreadable: Secure Boot state unknown", m->efivars)))
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

void mp_notes_free(struct mp_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}
