// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a module's fix is found from (fix_parts.h): the certificates
 * given with -c, the usual places of distributions' module signing keys
 * and their directories, the machine's MokListRT, MokNew and db; and the
 * run's fix context built around them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/infile.h"
#include "trust/efi_siglist.h"
#include "trust/rootpath.h"
#include "verify-file/fix_parts.h"

/*
 * Where a distribution's tools leave the key they sign modules with,
 * certificate and private key, as the machine names them (read under
 * --sysroot): dkms (dkms_autoinstaller and dkms.conf's mok_signing_key,
 * mok_certificate defaults), Ubuntu's shim-signed
 * (update-secureboot-policy --new-key), akmods (kmodgenca) and sbctl
 * (sbctl create-keys).  Each directory is also searched for another
 * certificate whose key signed the module.
 */
static const struct {
	const char *cert, *key, *dir, *label;
} places[] = {
	{ "/var/lib/dkms/mok.pub", "/var/lib/dkms/mok.key", "/var/lib/dkms",
	  "dkms's key" },
	{ "/var/lib/shim-signed/mok/MOK.der",
	  "/var/lib/shim-signed/mok/MOK.priv", "/var/lib/shim-signed/mok",
	  "Ubuntu's shim-signed MOK key" },
	{ "/etc/pki/akmods/certs/public_key.der",
	  "/etc/pki/akmods/private/private_key.priv", "/etc/pki/akmods/certs",
	  "akmods' key" },
	{ "/var/lib/sbctl/keys/db/db.pem", "/var/lib/sbctl/keys/db/db.key",
	  "/var/lib/sbctl/keys/db", "sbctl's db key" },
};
#define NPLACES (sizeof(places) / sizeof(places[0]))

/* -------- reading -------- */

static int add_local(struct ms_fix_ctx *c, struct ms_fix_local l)
{
	struct ms_fix_local *v = realloc(c->loc, (c->nloc + 1) * sizeof(*v));

	if (!v) {
		keyring_free(&l.ring);
		free(l.key);
		return -ENOMEM;
	}
	c->loc = v;
	v[c->nloc++] = l;
	return 0;
}

/* path under the machine's root, resolved inside it; NULL when absent */
static int under_root(const struct ms_fix_ctx *c, const char *path, char **out)
{
	int err;

	*out = NULL;
	if (!c->m->root)
		return (*out = strdup(path)) ? 0 : -ENOMEM;
	err = rootpath_resolve(c->m->root, path, out);
	return err == -ENOMEM ? err : 0;
}

/* A private key is only named, never opened: that it is there is
 * enough (the command runs as root, who can read it). */
static bool exists(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A name that holds a private key by the usual tools' naming: not
 * opened when a directory is searched for certificates. */
static bool private_name(const char *name)
{
	static const char *const ends[] = { ".key", ".priv" };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);

		if (n >= e && strcmp(name + n - e, ends[i]) == 0)
			return true;
	}
	return false;
}

/* Every other certificate file of dir, in name order (dot files,
 * links and private keys left out); a file that holds none adds
 * nothing. */
static int read_dir(const struct ms_fix_ctx *c, const char *dir,
		    struct keyring *ring)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), err = 0;

	for (int i = 0; i < n; i++) {
		char *p;
		struct stat st;

		if (!err && names[i]->d_name[0] != '.' &&
		    !private_name(names[i]->d_name)) {
			if (asprintf(&p, "%s/%s", dir, names[i]->d_name) < 0) {
				err = -ENOMEM;
			} else {
				/* a link is not followed: under --sysroot it
				 * would leave the root */
				if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
				    keyring_add_file(ring, p, c->t->kr,
						     &c->k->bl) == -ENOMEM)
					err = -ENOMEM;
				free(p);
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return err;
}

static int read_places(struct ms_fix_ctx *c)
{
	const struct rules_rules *kr = c->t->kr;
	int err;

	for (size_t i = 0; i < c->t->nsrc; i++) {
		struct ms_fix_local l = { .label = "the certificate given with -c" };

		if (c->t->srcs[i].kind != KEYRING_LOAD_CERT)
			continue;
		l.given = true;
		if (keyring_add_file(&l.ring, c->t->srcs[i].path, kr,
				     &c->k->bl) == -ENOMEM) {
			keyring_free(&l.ring);
			return -ENOMEM;
		}
		if ((err = add_local(c, l)))
			return err;
	}
	c->first_place = c->nloc;
	c->nplaces = NPLACES;
	for (size_t i = 0; i < NPLACES; i++) {
		struct ms_fix_local l = { .label = places[i].label };
		char *cert = NULL, *key = NULL;

		if ((err = under_root(c, places[i].cert, &cert)) ||
		    (err = under_root(c, places[i].key, &key))) {
			free(cert);
			return err;
		}
		if (cert && keyring_add_file(&l.ring, cert, kr,
					     &c->k->bl) == -ENOMEM)
			err = -ENOMEM;
		free(cert);
		if (exists(key))
			l.key = strdup(places[i].key);
		free(key);
		if (err || (err = add_local(c, l)))
			return err;
	}
	for (size_t i = 0; i < NPLACES; i++) {
		struct ms_fix_local l = { .label = "a certificate" };
		char *dir;

		if ((err = under_root(c, places[i].dir, &dir)))
			return err;
		if (dir)
			err = read_dir(c, dir, &l.ring);
		free(dir);
		if (err || (err = add_local(c, l)))
			return err;
	}
	return 0;
}

struct list_ctx {
	struct keyring *ring;
	const char *path;
	const struct ms_fix_ctx *c;
};

static int list_entry(void *p, const struct efi_siglist_entry *e)
{
	struct list_ctx *l = p;

	if (e->type != EFI_SIGLIST_X509)
		return 0;
	return keyring_add_der(l->ring, l->path, (int)e->index, e->data,
			       e->len, l->c->t->kr, &l->c->k->bl) == -ENOMEM ?
	       -ENOMEM : 0;
}

/* An EFI signature list (raw: a MOK variable table file) into ring;
 * one that cannot be read adds nothing. */
static int read_list(struct ms_fix_ctx *c, const char *path, bool raw,
		     struct keyring *ring)
{
	struct list_ctx l = { ring, path, c };
	uint8_t *buf = NULL;
	size_t len = 0, bad;
	int err;

	if (!path)
		return 0;
	err = raw ? infile_read_stream(path, 16u << 20, &buf, &len) :
		    efi_siglist_read_efivar(path, &buf, &len);
	if (err) {
		free(buf);
		return err == -ENOMEM ? err : 0;
	}
	err = efi_siglist_walk(buf, len, list_entry, &l, &bad);
	free(buf);
	return err == -ENOMEM ? err : 0;
}

int ms_fix_prepare(const struct keyrings_setup *t, const struct keyrings *k,
		   const struct verify_ctx *kv, struct ms_fix_ctx **out)
{
	const struct machine *m = t->m;
	struct ms_fix_ctx *c;
	struct machine m2;
	const struct kernel_config *kc = t->kcpath ? &k->kc : NULL;
	const char *version;
	char *moknew = NULL;
	int err;

	*out = NULL;
	if (!m)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*out = c;
	c->t = t;
	c->k = k;
	c->kv = *kv;
	c->m = m;
	c->km = &t->km;
	if (m->root) {
		c->rootlen = strlen(m->root);
		while (c->rootlen > 1 && m->root[c->rootlen - 1] == '/')
			c->rootlen--;
	}
	c->sb_on = m->has_efivars &&
		   (m->sb == MACHINE_SB_ON || m->sb == MACHINE_SB_UNKNOWN);
	/* the same question keyring_model_decide() was asked, with one
	 * part of the machine changed (machine_parts_model()'s version) */
	version = kc && kc->version[0] ? kc->version : m->release;
	m2 = *m;
	m2.sb = MACHINE_SB_ON;
	keyring_model_decide(kc, &m2, t->km.vendor, NULL, version, &c->km_sb);
	m2 = *m;
	m2.has_mokvars = m2.has_mok_trusted = true;
	keyring_model_decide(kc, &m2, t->km.vendor, NULL, version,
			     &c->km_trust);
	if ((err = read_places(c)))
		return err;
	if (m->has_efivars &&
	    ((err = read_list(c, m->has_mok_table ? m->mok_table :
			      m->has_mok ? m->mok : NULL, m->has_mok_table,
			      &c->mok)) ||
	     (err = read_list(c, m->has_db ? m->db : NULL, false, &c->db)) ||
	     (err = read_list(c, m->has_mokx ? m->mokx : NULL, false,
			      &c->mokx))))
		return err;
	if (m->mok_pending) {
		if (asprintf(&moknew, "%s/MokNew-605dab50-e046-4300-abb6-"
			     "3dd810dd8b23", m->efivars) < 0)
			return -ENOMEM;
		err = read_list(c, moknew, false, &c->moknew);
		free(moknew);
	}
	return err;
}

void ms_fix_free(struct ms_fix_ctx *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nloc; i++) {
		keyring_free(&c->loc[i].ring);
		free(c->loc[i].key);
	}
	free(c->loc);
	keyring_free(&c->mok);
	keyring_free(&c->moknew);
	keyring_free(&c->db);
	keyring_free(&c->mokx);
	free(c);
}
