// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trust/image_config.h"
#include "trust/keyrings.h"
#include "trust/rootpath.h"
#include "trust/trust_sources.h"

static int failed(struct keyrings_failure *f, enum keyrings_step step, int err,
		  const char *path)
{
	f->step = step;
	f->err = err;
	f->path = path;
	return err;
}

int keyrings_machine(const char *sysroot, const char *release,
		     struct machine_parts_request *rq, struct machine *m,
		     struct machine_parts_notes *notes, struct keyrings_failure *f)
{
	const char *root = sysroot ? sysroot : "/";
	int several = 0, err = machine_probe(sysroot, release, m, &several);

	memset(f, 0, sizeof(*f));
	f->root = root;
	f->release = release;
	f->several = several;
	if (err == -ENOENT) {
		struct stat st;

		f->no_root = stat(root, &st) || !S_ISDIR(st.st_mode);
	}
	if (err)
		return failed(f, KEYRINGS_MACHINE, err, root);
	if (machine_parts_settle(m, rq, notes))
		return failed(f, KEYRINGS_NOMEM, -ENOMEM, NULL);
	return 0;
}

/* The request machine_parts.c fills, over s. */
static struct machine_parts_request request(struct keyrings_setup *s)
{
	return (struct machine_parts_request){ s->srcs, &s->nsrc, &s->kcpath, s->kline,
				    &s->enforce, s->lockdown };
}

static int read_blacklist(const char *path, struct blacklist *bl,
		     struct keyrings_failure *f)
{
	int err = keyring_load_blacklist(path, bl, &f->line);

	return err ? failed(f, KEYRINGS_BLACKLIST, err, path) : 0;
}

/* The first kernel image among the sources, or NULL. */
static const char *first_image(const struct keyrings_setup *s)
{
	for (size_t i = 0; i < s->nsrc; i++)
		if (s->srcs[i].kind == KEYRING_LOAD_VMLINUX)
			return s->srcs[i].path;
	return NULL;
}

/*
 * A file the .config names, for --machine under a root: the name as the
 * machine reads it (an absolute one, or relative to the config's own
 * directory there), resolved inside the root (trust/rootpath.h), never on
 * the host.  *out malloc'd; -ENOMEM or rootpath_resolve()'s error.
 */
static int in_root(const struct machine *m, const char *name, char **out)
{
	size_t rlen = strlen(m->root);
	const char *cfg = m->config, *slash;
	char *rel;
	int err;

	*out = NULL;
	if (name[0] == '/')
		return rootpath_resolve(m->root, name, out);
	/* m->config is the root, then the resolved path inside it */
	if (strncmp(cfg, m->root, rlen) == 0)
		cfg += rlen;
	slash = strrchr(cfg, '/');
	if (asprintf(&rel, "%s%.*s/%s", cfg[0] == '/' ? "" : "/",
		     slash ? (int)(slash - cfg) : 0, cfg, name) < 0)
		return -ENOMEM;
	err = rootpath_resolve(m->root, rel, out);
	free(rel);
	return err;
}

/*
 * The blacklist and revocation files a .config names.  The kernel built
 * them in (certs/blacklist_hashes.c, certs/revocation_certificates.S):
 * with an image among the sources they are taken from it (trust_sources:
 * trust_sources_add_vmlinux()), not from files.  Under --machine --sysroot they are
 * read inside the root; else where the .config's tree has them.
 */
static int config_files(struct keyrings_setup *s, struct keyrings *k,
			const struct keyrings_words *w, struct keyrings_failure *f)
{
	struct kernel_config *kc = &k->kc;
	const char *image = first_image(s);
	const char *blp = kc->blacklist_path, *revp = kc->revocation_path;
	int err;

	if (!blp && !revp)
		return 0;
	if (image) {
		w->in_image(kc, image);
		return 0;
	}
	if (s->m && s->m->root && s->kcpath == s->m->config && !s->ktree) {
		if ((blp && (err = in_root(s->m, kc->blacklist, &k->bl_path))) ||
		    (revp && (err = in_root(s->m, kc->revocation,
					     &k->rev_path))))
			return failed(f, err == -ENOMEM ? KEYRINGS_NOMEM :
				      KEYRINGS_KCONFIG_FILE, err, s->kcpath);
		blp = blp ? k->bl_path : NULL;
		revp = revp ? k->rev_path : NULL;
		/* the words name the file read */
		if (blp) {
			free(kc->blacklist_path);
			kc->blacklist_path = strdup(blp);
		}
		if (revp) {
			free(kc->revocation_path);
			kc->revocation_path = strdup(revp);
		}
		if ((blp && !kc->blacklist_path) ||
		    (revp && !kc->revocation_path))
			return failed(f, KEYRINGS_NOMEM, -ENOMEM, NULL);
	}
	if (blp) {
		if (access(blp, F_OK) != 0)
			return failed(f, KEYRINGS_KCONFIG_FILE, -ENOENT, s->kcpath);
		if ((err = read_blacklist(blp, &k->bl, f)))
			return err;
	}
	if (revp) {
		if (access(revp, F_OK) != 0) {
			f->revocation = true;
			return failed(f, KEYRINGS_KCONFIG_FILE, -ENOENT, s->kcpath);
		}
		s->srcs[s->nsrc++] = (struct keyring_load_source){
			.kind = KEYRING_LOAD_REVOKED, .path = revp };
	}
	return 0;
}

/*
 * --vmlinux with neither --kernel nor --kernel-config nor --machine: the
 * config the distribution installed beside the image (trust/
 * image_config.h), whose release must be the image's.  Said either way:
 * without one, crypto availability is assumed.
 */
static int beside(struct keyrings_setup *s, struct keyrings *k,
		  const struct keyrings_words *w, struct keyrings_failure *f)
{
	const char *image = first_image(s);
	struct image_config_found found = { 0 };
	char rel[128];
	int err;

	if (!image || s->kcpath || s->kline || s->m)
		return 0;
	/* an image without a version, or none at all: the next steps say
	 * so, and no config is looked for */
	err = trust_sources_vmlinux_version(image, rel, sizeof(rel));
	if (err && err != -ENOMEM)
		return 0;
	if (err || image_config_beside(image, rel, &found)) {
		image_config_free(&found);
		return failed(f, KEYRINGS_NOMEM, -ENOMEM, NULL);
	}
	w->beside(image, found.config, found.layout, found.looked,
		  found.other[0] ? found.other : NULL);
	if (found.config) {
		k->beside = found.config;
		found.config = NULL;
		s->kcpath = k->beside;
		s->kc_from = found.layout;
	}
	image_config_free(&found);
	return 0;
}

/*
 * --kernel-config: the line, enforcement, blacklist and revocation keys
 * of that kernel (kernel/kernel_config.h).
 */
static int config(struct keyrings_setup *s, struct keyrings *k,
		  const struct keyrings_words *w, struct keyrings_failure *f)
{
	struct kernel_config *kc = &k->kc;
	const char *path = s->kcpath;
	int err = kernel_config_load(path, s->ktree, kc, &f->line);

	f->kc = kc;
	f->kline = s->kline;
	if (err)
		return failed(f, KEYRINGS_KCONFIG, err, path);
	/* --kernel settles what the file does not say */
	if (s->kline)
		kernel_config_settle_line(kc, s->kr);
	if (kc->too_old || (s->kline && s->kr->version != kc->rules.version))
		return failed(f, KEYRINGS_KCONFIG_RULES, -EINVAL, path);
	s->kr = &kc->rules;
	if (kc->sig_force)
		s->enforce = true;
	w->config(s, kc);
	return config_files(s, k, w, f);
}

/*
 * --vmlinux without --kernel or --kernel-config: the rules are those of
 * the image's own version (the first image's; another image of a
 * different line is refused).  With them, an image of another line is
 * only said.
 */
static int image_lines(struct keyrings_setup *s, const struct keyrings_words *w,
		       struct keyrings_failure *f)
{
	const struct rules_rules *first = NULL;
	struct rules_rules cand, *kr = &cand;
	const char *note, *from = NULL;
	bool chosen = s->kline || s->kcpath;
	char *rel = f->rel;
	int ret;

	for (size_t i = 0; i < s->nsrc; i++) {
		const char *path = s->srcs[i].path;
		struct keyrings_image_note n = { .path = path, .rel = rel,
					   .kr = kr, .asked = s->kr };

		if (s->srcs[i].kind != KEYRING_LOAD_VMLINUX)
			continue;
		ret = trust_sources_vmlinux_version(path, rel, sizeof(f->rel));
		if (ret == -ENOENT) {
			n.event = KEYRINGS_IMG_NO_VERSION;
			n.kr = s->kr;
			w->image(&n);
			continue;
		}
		ret = ret ? ret : rules_resolve(rel, kr, &note);
		if (ret == -ERANGE && !chosen)
			return failed(f, KEYRINGS_IMAGE_TOO_OLD, ret, path);
		if (ret)
			continue;	/* loading it says why, later */
		if (chosen) {
			if (kr->version != s->kr->version) {
				n.event = KEYRINGS_IMG_OTHER_LINE;
				w->image(&n);
			}
			continue;
		}
		if (first && kr->version != first->version) {
			f->from = from;
			f->first = first;
			return failed(f, KEYRINGS_IMAGE_LINES, -EINVAL, path);
		}
		if (!first) {
			s->img_rules = *kr;
			first = s->kr = &s->img_rules;
			from = path;
			n.event = KEYRINGS_IMG_RULES;
			n.note = note;
			w->image(&n);
		}
	}
	return 0;
}

/*
 * --machine: where this kernel files the machine's UEFI keys, by its
 * config and vendor (trust/keyring_model.h).
 */
static int model_machine(struct keyrings_setup *s, struct keyrings *k,
			 const struct keyrings_words *w, struct keyrings_failure *f)
{
	size_t had = s->notes->n;
	struct machine_parts_request rq = request(s);

	if (machine_parts_model(s->m, s->kcpath ? &k->kc : NULL, s->vendor, &rq,
				&s->km, s->notes))
		return failed(f, KEYRINGS_NOMEM, -ENOMEM, NULL);
	w->notes(s->notes, had);
	w->model(&s->km);
	/* IMA's architecture policy enforces from boot on */
	if (s->km.ima_enforce)
		s->enforce = true;
	return 0;
}

/*
 * certs/blacklist.c: without SYSTEM_REVOCATION_LIST an X.509 entry of
 * dbx or MokListXRT revokes nothing (its hashes still blacklist): so with
 * a .config that leaves it out, or --machine's kernel without it, the
 * dbx-style lists are read for their hashes only.
 */
static void revocation_gate(struct keyrings_setup *s, const struct keyrings *k)
{
	bool revoke = s->m ? s->km.revocation_certs :
		      !s->kcpath || k->kc.revocation_list;

	for (size_t i = 0; !revoke && i < s->nsrc; i++)
		if (s->srcs[i].kind == KEYRING_LOAD_DBX ||
		    s->srcs[i].kind == KEYRING_LOAD_EFI_DBX ||
		    s->srcs[i].kind == KEYRING_LOAD_MOKX)
			s->srcs[i].file = KEYRING_LOAD_FILE_HASHES_ONLY;
}

/* --secondary, after every other key is loaded. */
static int secondaries(struct keyrings_setup *s, struct keyrings *k,
		       const struct trust_sources_stores *st, const struct keyrings_words *w,
		       struct keyrings_failure *f)
{
	unsigned have = s->kcpath ? k->kc.keyrings : KERNEL_CONFIG_SECONDARY;
	int err = keyring_load_add_secondaries(s->srcs, s->nsrc, st,
					       have & KERNEL_CONFIG_SECONDARY,
					       have & KERNEL_CONFIG_SECONDARY_BY_BUILTIN,
					       w->refused, NULL, &f->source);

	return err ? failed(f, KEYRINGS_SOURCE, err, f->source.path) : 0;
}

int keyrings_load(struct keyrings_setup *s, struct keyrings *k,
		  const struct keyrings_words *w, struct keyrings_failure *f)
{
	struct trust_sources_stores st;
	size_t had;
	int err;

	memset(f, 0, sizeof(*f));
	if ((err = beside(s, k, w, f)))
		return err;
	if (s->kcpath && !s->kc_from)
		s->kc_from = s->m && s->kcpath == s->m->config ?
			     s->m->config_from : "--kernel-config";
	if (s->kcpath && (err = config(s, k, w, f)))
		return err;
	if ((err = image_lines(s, w, f)))
		return err;
	if (s->m && (err = model_machine(s, k, w, f)))
		return err;
	if (s->blpath && (err = read_blacklist(s->blpath, &k->bl, f)))
		return err;
	revocation_gate(s, k);
	st = (struct trust_sources_stores){ s->kr, &k->trusted, &k->revoked,
				 &k->platform, &k->bl };
	err = keyring_load(s->srcs, s->nsrc, &st, w->loaded, (void *)s->kr,
			   &f->source);
	if (err)
		return failed(f, KEYRINGS_SOURCE, err, f->source.path);
	if ((err = secondaries(s, k, &st, w, f)) || !s->m)
		return err;
	had = s->notes->n;
	if (machine_parts_running(s->m, &k->trusted, &k->platform, s->notes))
		return failed(f, KEYRINGS_NOMEM, -ENOMEM, NULL);
	w->notes(s->notes, had);
	return 0;
}

void keyrings_free(struct keyrings *k)
{
	keyring_free(&k->trusted);
	keyring_free(&k->revoked);
	keyring_free(&k->platform);
	blacklist_free(&k->bl);
	kernel_config_free(&k->kc);
	free(k->beside);
	free(k->bl_path);
	free(k->rev_path);
	k->beside = k->bl_path = k->rev_path = NULL;
}

bool keyrings_platform_counts(const struct keyrings_setup *s)
{
	if (s->m)
		return s->km.platform_for_modules;
	return s->vendor != VENDORS_MAINLINE;
}
