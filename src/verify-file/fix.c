// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/infile.h"
#include "base/quote.h"
#include "trust/efi_siglist.h"
#include "trust/keyring_model.h"
#include "trust/rootpath.h"
#include "verify-file/fix.h"

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

/* One file of certificates a signer may be found in. */
struct local {
	const char *label;	/* static words */
	char *key;		/* its private key as the machine names it,
				 * when there; else NULL */
	bool given;		/* -c: its path is shown as given */
	struct keyring ring;
};

struct ms_fix_ctx {
	const struct keyrings_setup *t;
	const struct keyrings *k;
	struct verify_ctx kv;
	const struct machine *m;
	const struct keyring_model *km;
	size_t rootlen;		/* of m->root, trailing slashes left out */
	bool sb_on;		/* as keyring_model_decide() takes it */
	/* the models with Secure Boot on, and with MokListTrustedRT */
	struct keyring_model km_sb, km_trust;
	/* -c files, then places[], then the rest of places[]' directories */
	struct local *loc;
	size_t nloc, first_place;
	/* the machine's own lists, loaded by its kernel or not */
	struct keyring mok, moknew, db;
};

/* -------- reading -------- */

static int add_local(struct ms_fix_ctx *c, struct local l)
{
	struct local *v = realloc(c->loc, (c->nloc + 1) * sizeof(*v));

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
		struct local l = { .label = "the certificate given with -c" };

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
	for (size_t i = 0; i < NPLACES; i++) {
		struct local l = { .label = places[i].label };
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
		struct local l = { .label = "a certificate" };
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
	     (err = read_list(c, m->has_db ? m->db : NULL, false, &c->db))))
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
	free(c);
}

/* -------- what the model says of one certificate -------- */

static bool same_cert(const struct x509k_cert *a, const struct x509k_cert *b)
{
	return a->der_len == b->der_len &&
	       memcmp(a->der, b->der, a->der_len) == 0;
}

static bool in_ring(const struct keyring *r, const struct x509k_cert *x)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (same_cert(r->certs[i], x))
			return true;
	return false;
}

/* The kernel's key a module signed by x is checked against now: in a
 * trusted keyring, or .platform where modules retry it. */
static bool vouches_now(const struct ms_fix_ctx *c, const struct x509k_cert *x)
{
	return in_ring(&c->k->trusted, x) ||
	       (c->kv.platform && in_ring(&c->k->platform, x));
}

/* pkcs7_validate_trust()'s find_asymmetric_key() by the signer's id */
static bool names_signer(const struct pkcs7_sinfo *si, const struct x509k_cert *x)
{
	return x509k_kid_same(&si->auth_id, &x->id) ||
	       x509k_kid_same(&si->auth_id, &x->skid);
}

enum place { PL_NONE, PL_TRUSTED, PL_PLATFORM, PL_PLATFORM_UNUSED };

/*
 * Where km's kernel files x as a MokListRT entry (keyring_handler.c
 * get_handler_for_mok(), restrict_link_by_ca() for the CA keyring
 * options, as trust_sources.c's esl_machine_ca()), and whether modules
 * are checked against it.
 */
static enum place mok_place(const struct keyring_model *km,
			    const struct x509k_cert *x)
{
	bool ca;

	switch (km->mok) {
	case KEYRING_MODEL_MOK_NOT_LOADED:
		return PL_NONE;
	case KEYRING_MODEL_MOK_MACHINE:
		return PL_TRUSTED;
	case KEYRING_MODEL_MOK_MACHINE_CA:
	case KEYRING_MODEL_MOK_MACHINE_CA_MAX:
		ca = x->ca && x->keycertsign &&
		     !(km->mok == KEYRING_MODEL_MOK_MACHINE_CA_MAX && x->digsig);
		if (ca)
			return PL_TRUSTED;
		break;
	case KEYRING_MODEL_MOK_PLATFORM:
		break;
	}
	return km->platform_for_modules ? PL_PLATFORM : PL_PLATFORM_UNUSED;
}

/* The module's signature judged again with x filed where pl says: 0
 * when x then vouches for it, else the kernel's error. */
static int judged_with(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		       struct x509k_cert *x, enum place pl)
{
	struct x509k_cert *one[1] = { x };
	struct keyring ring = { .certs = one, .n = 1 }, none = { 0 };
	struct verify_ctx kv = c->kv;
	struct verify_result res;
	int err;

	kv.trusted = pl == PL_PLATFORM ? &none : &ring;
	kv.platform = pl == PL_PLATFORM ? &ring : NULL;
	verify_module(&kv, j->file.data, j->file.len, j->usage, &res);
	err = res.err;
	verify_result_free(&res);
	return err;
}

static bool works(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		  struct x509k_cert *x, enum place pl)
{
	return (pl == PL_TRUSTED || pl == PL_PLATFORM) &&
	       judged_with(c, j, x, pl) == 0;
}

/* Secure Boot on, and the kernel still loads no MOK key: never, here
 * (CONFIG_LOAD_UEFI_KEYS unset, or load_uefi_certs() asking IMA) */
static bool never_mok(const struct keyring_model *km, bool sb_on, bool efi)
{
	return efi && sb_on && !km->mokx;
}

/* The signature verifies, but not over this module's bytes. */
static bool mismatch(const char *why)
{
	static const char *const words[] = {
		"messageDigest does not match the data",
		"RSA signature over other data (digest mismatch)",
		"ECDSA signature does not verify",
		"ML-DSA signature does not verify",
	};

	for (size_t i = 0; why && i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(why, words[i]) == 0)
			return true;
	return false;
}

/* -------- words -------- */

/* p as the judged machine names it: under --sysroot without the root */
static const char *shown(const struct ms_fix_ctx *c, const char *p)
{
	size_t n = c->rootlen;

	if (n && strncmp(p, c->m->root, n) == 0 && p[n] == '/')
		return p + n;
	return p;
}

/* p quoted for a shell when it needs it, into buf */
static const char *shq(const char *p, char *buf, size_t size)
{
	char *q = quote_name(p);
	size_t o = 0;

	/* control bytes: ls's $'\n' form, which a shell reads back */
	if (q) {
		snprintf(buf, size, "%s", q);
		free(q);
		return buf;
	}
	if (strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_./+-:@%,=") == strlen(p))
		return p;
	buf[o++] = '\'';
	for (; *p && o + 5 < size; p++) {
		if (*p == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

static void set(struct ms_fix *f, const char *kind)
{
	f->kind = kind;
}

static void why(struct ms_fix *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void why(struct ms_fix *f, const char *fmt, ...)
{
	size_t n = strlen(f->why);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->why + n, sizeof(f->why) - n, fmt, ap);
	va_end(ap);
}

static void command(struct ms_fix *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void command(struct ms_fix *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->command, sizeof(f->command), fmt, ap);
	va_end(ap);
}

/* The certificate's common name, else the kernel's key name. */
static void cn_of(const struct x509k_cert *x, char *buf, size_t size)
{
	if (format_signer(buf, size, x->subject, x->subject_len))
		snprintf(buf, size, "%s", x->name);
}

/* A certificate as the words name it: "dkms's key /var/lib/dkms/mok.pub
 * (\"CN\")", or where the machine holds it. */
static void name_cert(const struct ms_fix_ctx *c, const struct local *l,
		      const struct x509k_cert *x, char *buf, size_t size)
{
	char cn[256], q[512];
	const char *p = shq(l && l->given ? x->path : shown(c, x->path), q,
			    sizeof(q));

	cn_of(x, cn, sizeof(cn));
	if (l)
		snprintf(buf, size, "%s %s (\"%s\")", l->label, p, cn);
	else
		snprintf(buf, size, "\"%s\" (%s)", cn, p);
}

/* sign-file with a hash the kernel has (sha256 unless it lacks it) */
static const char *hash_for(const struct rules_rules *kr)
{
	static const char *const pref[] = { "sha256", "sha512", "sha384" };

	for (size_t i = 0; i < sizeof(pref) / sizeof(pref[0]); i++)
		if (rules_hash_available(kr, rules_hash_by_name(pref[i])))
			return pref[i];
	return NULL;
}

static void sign_command(const struct ms_fix_ctx *c, struct ms_fix *f,
			 const char *hash, const struct local *l,
			 const struct x509k_cert *x, const char *file)
{
	char a[512], b[512], d[512];

	command(f, "sign-file %s %s %s %s", hash, shq(l->key, a, sizeof(a)),
		shq(shown(c, x->path), b, sizeof(b)),
		shq(shown(c, file), d, sizeof(d)));
}

/* -------- the kinds -------- */

/* A local key pair this kernel would take a module signed with: trusted
 * now, or (*enrol) once its certificate is enrolled; not skip. */
static const struct local *pair(const struct ms_fix_ctx *c,
				const struct x509k_cert *skip,
				struct x509k_cert **cert, bool *enrol)
{
	const struct local *later = NULL;
	struct x509k_cert *lx = NULL;

	for (size_t i = 0; i < c->nloc; i++) {
		const struct local *l = &c->loc[i];
		struct x509k_cert *x = l->ring.n ? l->ring.certs[0] : NULL;
		enum place pl;

		if (!l->key || !x || (skip && same_cert(x, skip)) ||
		    in_ring(&c->k->revoked, x))
			continue;
		if (vouches_now(c, x)) {
			*cert = x;
			*enrol = false;
			return l;
		}
		pl = mok_place(c->km, x);
		if (!later && c->sb_on && (pl == PL_TRUSTED || pl == PL_PLATFORM)) {
			later = l;
			lx = x;
		}
	}
	*cert = lx;
	*enrol = true;
	return later;
}

static void fix_sign(const struct ms_fix_ctx *c, const char *file,
		     struct ms_fix *f)
{
	const char *hash = hash_for(c->t->kr);
	struct x509k_cert *x;
	bool enrol;
	const struct local *l = pair(c, NULL, &x, &enrol);
	char a[512];

	set(f, "sign");
	if (!l || !hash) {
		why(f, "the module is not signed: sign it with a key in a "
		    "keyring this kernel checks modules against "
		    "(--list-keys names them)");
		return;
	}
	if (enrol)
		why(f, "the module is not signed: sign it with %s, then enrol "
		    "its certificate (mokutil --import %s), reboot and "
		    "confirm the enrolment in MokManager", l->label,
		    shq(shown(c, x->path), a, sizeof(a)));
	else
		why(f, "the module is not signed: sign it with %s, which "
		    "this kernel trusts", l->label);
	sign_command(c, f, hash, l, x, file);
}

/* The local file x was read from, or NULL. */
static const struct local *local_of(const struct ms_fix_ctx *c,
				    const struct x509k_cert *x)
{
	for (size_t i = 0; i < c->nloc; i++)
		for (size_t n = 0; n < c->loc[i].ring.n; n++)
			if (c->loc[i].ring.certs[n] == x)
				return &c->loc[i];
	return NULL;
}

static void fix_resign(const struct ms_fix_ctx *c, const char *file,
		       struct x509k_cert *x, struct ms_fix *f)
{
	const struct local *l = x ? local_of(c, x) : NULL;
	const char *hash = hash_for(c->t->kr);

	set(f, "changed-after-signing");
	why(f, "the signature does not match the module: it was changed "
	    "after signing (stripped, or compressed without sign-file); "
	    "re-sign it as the last step, after strip and before "
	    "compression");
	if (l && l->key && hash && l->ring.certs[0] == x)
		sign_command(c, f, hash, l, x, file);
}

/* The first signer one of the candidates names; *found its certificate */
static const struct pkcs7_sinfo *find_signer(const struct ms_fix_ctx *c,
					  const struct verify_result *r,
					  struct x509k_cert **found)
{
	const struct keyring *lists[] = { &c->mok, &c->moknew, &c->db,
					  &c->k->platform };

	*found = NULL;
	for (size_t s = 0; r->msg && s < r->msg->n_sinfos; s++) {
		const struct pkcs7_sinfo *si = &r->msg->sinfos[s];

		for (size_t i = 0; i < c->nloc; i++)
			for (size_t n = 0; n < c->loc[i].ring.n; n++)
				if (names_signer(si, c->loc[i].ring.certs[n])) {
					*found = c->loc[i].ring.certs[n];
					return si;
				}
		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
			for (size_t n = 0; n < lists[i]->n; n++)
				if (names_signer(si, lists[i]->certs[n])) {
					*found = lists[i]->certs[n];
					return si;
				}
	}
	return NULL;
}

static void fix_never_mok(const struct keyring_model *km, struct ms_fix *f)
{
	set(f, "no-mok-kernel");
	why(f, "this kernel never loads MOK keys (%s): no enrolment helps; "
	    "sign the module with a key built into the kernel, or boot a "
	    "kernel that loads MOK (built with IMA_ARCH_POLICY, or "
	    "kernel.org's 7.1, 6.12.110 and later)", km->mok_why);
}

/* What happens to the module now: its taint or refusal, in words */
static const char *now(const struct sig_check_answer *a)
{
	return a->shown == a->r->err ? "loads tainted (E)" : "is refused";
}

/* An enrolled MOK key the kernel leaves out. */
static bool fix_enrolled(const struct ms_fix_ctx *c,
			 const struct judge_file_judgement *j,
			 const struct sig_check_answer *a,
			 struct x509k_cert *x, struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	bool efi = c->m->has_efivars;
	char name[600];

	name_cert(c, NULL, x, name, sizeof(name));
	if (km->mok != KEYRING_MODEL_MOK_NOT_LOADED) {
		if (mok_place(km, x) != PL_PLATFORM_UNUSED ||
		    !works(c, j, x, mok_place(&c->km_trust, x)))
			return false;
		set(f, "trust-mok");
		why(f, "signed by the enrolled MOK key %s, but this "
		    "kernel files MOK keys in .platform, which it never "
		    "consults for modules, unless shim publishes "
		    "MokListTrustedRT: trust MOK keys for the kernel, then "
		    "reboot and confirm in MokManager", name);
		command(f, "mokutil --trust-mok");
		return true;
	}
	if (efi && !c->sb_on) {
		if (works(c, j, x, mok_place(&c->km_sb, x))) {
			set(f, "secure-boot-off");
			why(f, "signed by the enrolled MOK key %s, but %s, "
			    "so the kernel loads no MOK key: as it is the "
			    "module %s; to have it verified, ", name,
			    c->m->sb == MACHINE_SB_SHIM_OFF ?
			    "shim's validation is off (MokSBState)" :
			    "Secure Boot is off", now(a));
			if (c->m->sb == MACHINE_SB_SHIM_OFF) {
				why(f, "turn shim's validation on again, then "
				    "reboot and confirm in MokManager");
				command(f, "mokutil --enable-validation");
			} else {
				why(f, "turn Secure Boot on in the firmware "
				    "setup");
			}
			return true;
		}
		if (never_mok(&c->km_sb, true, efi)) {
			fix_never_mok(&c->km_sb, f);
			return true;
		}
		return false;
	}
	if (never_mok(km, c->sb_on, efi)) {
		fix_never_mok(km, f);
		return true;
	}
	return false;
}

/* A UEFI db key: db never vouches for modules on this kernel. */
static bool fix_db(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		   struct x509k_cert *x, const struct local *l,
		   struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	char name[600], q[512];
	bool enrol = c->sb_on && works(c, j, x, mok_place(km, x));

	if (km->db && c->kv.platform)
		return false;
	name_cert(c, NULL, x, name, sizeof(name));
	set(f, "db-key");
	why(f, "signed by the UEFI db key %s, and db keys "
	    "never vouch for modules on this kernel (%s): ", name,
	    !km->db ? km->db_why : "it has no platform keyring retry: "
	    "modules are checked against .builtin_trusted_keys and "
	    ".secondary_trusted_keys only");
	if (!enrol) {
		why(f, "sign the module with a key in a keyring this kernel "
		    "checks modules against (--list-keys names them)");
		return true;
	}
	if (!l) {
		why(f, "enrol that certificate, as db holds it, as a MOK "
		    "key (mokutil --import), or sign the module with an "
		    "enrolled MOK key");
		return true;
	}
	why(f, "enrol it as a MOK key, then reboot and confirm the "
	    "enrolment in MokManager (or sign the module with an enrolled "
	    "MOK key)");
	command(f, "mokutil --import %s",
		shq(l->given ? x->path : shown(c, x->path), q, sizeof(q)));
	return true;
}

/* Another local key, enrolled and vouching now, or NULL. */
static const struct local *enrolled_other(const struct ms_fix_ctx *c,
					  const struct x509k_cert *x,
					  struct x509k_cert **lx)
{
	for (size_t i = 0; i < NPLACES; i++) {
		const struct local *l = &c->loc[c->first_place + i];
		struct x509k_cert *y = l->ring.n ? l->ring.certs[0] : NULL;

		if (y && !same_cert(x, y) && in_ring(&c->mok, y) &&
		    vouches_now(c, y)) {
			*lx = y;
			return l;
		}
	}
	return NULL;
}

/* A local certificate, not enrolled. */
static bool fix_local(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
		      struct x509k_cert *x, const struct local *l,
		      struct ms_fix *f)
{
	const struct keyring_model *km = c->km;
	bool efi = c->m->has_efivars, pending = in_ring(&c->moknew, x);
	const struct local *other;
	struct x509k_cert *y;
	enum place pl = mok_place(km, x);
	char name[600], oname[600], q[512];
	const char *file = l->given ? x->path : shown(c, x->path);
	const char *also = NULL;

	name_cert(c, l, x, name, sizeof(name));
	if (!(c->sb_on && works(c, j, x, pl))) {
		if (efi && !c->sb_on && works(c, j, x, mok_place(&c->km_sb, x)))
			also = "; Secure Boot is off, so the kernel loads no "
			       "MOK key until it is turned on (till then the "
			       "module loads tainted)";
		else if (efi && !c->sb_on && never_mok(&c->km_sb, true, efi))
			return fix_never_mok(&c->km_sb, f), true;
		else if (never_mok(km, c->sb_on, efi))
			return fix_never_mok(km, f), true;
		else if (c->sb_on && pl == PL_PLATFORM_UNUSED &&
			 works(c, j, x, mok_place(&c->km_trust, x)))
			also = "; this kernel files MOK keys in .platform, "
			       "which it never consults for modules, unless "
			       "shim publishes MokListTrustedRT: run mokutil "
			       "--trust-mok too";
		else
			return false;
	}
	if (pending) {
		set(f, "enrolment-pending");
		why(f, "signed by %s, which waits in MokNew: reboot "
		    "and confirm the enrolment in MokManager (with the "
		    "password mokutil --import asked for)%s", name,
		    also ? also : "");
		return true;
	}
	other = enrolled_other(c, x, &y);
	if (other) {
		name_cert(c, other, y, oname, sizeof(oname));
		set(f, "other-local-key");
		why(f, "signed by %s, but the enrolled key is "
		    "%s: enrol the signer's certificate too (or re-sign with "
		    "the enrolled key), then reboot and confirm the "
		    "enrolment in MokManager", name, oname);
	} else {
		set(f, "enrol-mok");
		why(f, "signed by %s, which is not enrolled: enrol it, "
		    "then reboot and confirm the enrolment in MokManager%s",
		    name, also ? also : "");
	}
	command(f, "mokutil --import %s", shq(file, q, sizeof(q)));
	return true;
}

static void fix_unknown_key(const struct ms_fix_ctx *c,
			    const struct judge_file_judgement *j,
			    const struct sig_check_answer *a,
			    const char *file, struct ms_fix *f)
{
	struct x509k_cert *x;
	const struct local *l;
	int err;

	if (!find_signer(c, &j->r, &x))
		return;
	/* the right key, and still no: the module changed after */
	err = judged_with(c, j, x, PL_TRUSTED);
	if (err == -EKEYREJECTED) {
		struct verify_ctx kv = c->kv;
		struct x509k_cert *one[1] = { x };
		struct keyring ring = { .certs = one, .n = 1 };
		struct verify_result res;
		bool changed;

		kv.trusted = &ring;
		kv.platform = NULL;
		verify_module(&kv, j->file.data, j->file.len, j->usage, &res);
		changed = mismatch(res.reason);
		verify_result_free(&res);
		if (changed)
			fix_resign(c, file, x, f);
		return;
	}
	if (err)
		return;
	l = local_of(c, x);
	if (in_ring(&c->mok, x)) {
		fix_enrolled(c, j, a, x, f);
		return;
	}
	if (in_ring(&c->db, x) || in_ring(&c->k->platform, x)) {
		fix_db(c, j, x, l, f);
		return;
	}
	if (l)
		fix_local(c, j, x, l, f);
}

static void fix_revoked(const struct ms_fix_ctx *c, const struct judge_file_judgement *j,
			const char *file, struct ms_fix *f)
{
	const struct local *l;
	struct x509k_cert *x = NULL, *y;
	const char *hash = hash_for(c->t->kr);
	char q[512];
	bool enrol;

	for (size_t s = 0; j->r.msg && s < j->r.msg->n_sinfos && !x; s++)
		for (size_t i = 0; i < c->k->revoked.n && !x; i++)
			if (names_signer(&j->r.msg->sinfos[s],
					 c->k->revoked.certs[i]))
				x = c->k->revoked.certs[i];
	set(f, "revoked");
	if (x)
		why(f, "the signer's key is revoked (its certificate is in "
		    "%s): sign the module with another key",
		    shq(shown(c, x->path), q, sizeof(q)));
	else
		why(f, "the signer's key is revoked (%s): sign the module "
		    "with another key", j->r.reason);
	l = pair(c, x, &y, &enrol);
	if (l && !enrol && hash) {
		why(f, ", such as %s, which this kernel trusts", l->label);
		sign_command(c, f, hash, l, y, file);
	}
}

static void fix_algorithm(const struct ms_fix_ctx *c,
			  const struct judge_file_judgement *j, const char *file,
			  struct ms_fix *f)
{
	const struct rules_rules *kr = c->t->kr;
	const char *hash = hash_for(kr);

	for (size_t s = 0; j->r.msg && s < j->r.msg->n_sinfos; s++) {
		const struct pkcs7_sinfo *si = &j->r.msg->sinfos[s];
		struct x509k_cert *x;
		const struct local *l = NULL;

		if (!si->unsupported_crypto)
			continue;
		/* a key type the kernel lacks never gets here: its
		 * certificate is left out when parsed, and the module is
		 * -ENOKEY with no certificate to name */
		if (!si->hash || rules_hash_available(kr, si->hash) || !hash)
			return;
		set(f, "unsupported-algorithm");
		why(f, "this kernel lacks the hash %s (%s): re-sign the "
		    "module with %s", si->hash->name,
		    j->r.reason ? j->r.reason : "unsupported crypto", hash);
		if (find_signer(c, &j->r, &x) == si)
			l = local_of(c, x);
		if (l && l->key && l->ring.certs[0] == x)
			sign_command(c, f, hash, l, x, file);
		return;
	}
}

bool ms_fix_find(const struct ms_fix_ctx *c, const char *file,
		 const struct judge_file_judgement *j,
		 const struct sig_check_answer *a, struct ms_fix *f)
{
	const struct verify_result *r = a->r;

	memset(f, 0, sizeof(*f));
	/* the clean OK, no module at all, a verdict this build cannot
	 * reach, an ELF the kernel refuses: nothing to say */
	if (!c || a->shown == 0 || a->no_modules || j->usage != VERIFY_USAGE_MODULE ||
	    j->r.elf_refused || r->elf_refused || r->err == -EXITCODE_ENOALG)
		return false;
	switch (r->err) {
	case -ENODATA:
		if (r->reason && strcmp(r->reason,
					MODULE_FILE_SIGNED_AFTER_MSG) == 0) {
			set(f, "changed-after-signing");
			why(f, "it was signed after compression: the kernel "
			    "decompresses it first and finds no signature; "
			    "sign the module before compressing it (sign-file "
			    "signs inside the compression)");
		} else {
			fix_sign(c, file, f);
		}
		break;
	case -ENOKEY:
		fix_unknown_key(c, j, a, file, f);
		break;
	case -ENOPKG:
		fix_algorithm(c, j, file, f);
		break;
	case -EKEYREJECTED:
		if (r->reason && (strcmp(r->reason, "signing key is on the "
					 "revocation list") == 0 ||
				  strcmp(r->reason, "signer certificate is "
					 "blacklisted") == 0))
			fix_revoked(c, j, file, f);
		else if (mismatch(r->reason)) {
			struct x509k_cert *x;

			find_signer(c, r, &x);
			fix_resign(c, file, x, f);
		}
		break;
	default:
		break;
	}
	return f->kind != NULL;
}

void ms_fix_text(FILE *out, const struct ms_fix *f)
{
	if (!f->kind)
		return;
	fprintf(out, "  fix (%s): %s%s%s\n", f->kind, f->why,
		f->command[0] ? ": " : "", f->command);
}

void ms_fix_json(json_object *o, const struct ms_fix *f)
{
	json_object *x = NULL;

	if (f->kind) {
		x = json_object_new_object();
		json_object_object_add(x, "kind",
				       json_object_new_string(f->kind));
		json_object_object_add(x, "command", f->command[0] ?
				       json_object_new_string(f->command) :
				       NULL);
		json_object_object_add(x, "why", json_object_new_string(f->why));
	}
	json_object_object_add(o, "fix", x);
}
