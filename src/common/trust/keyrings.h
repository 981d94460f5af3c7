/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a verify-file run judges with, filled from its trust choices:
 * a kernel .config (its rules, enforcement, blacklist and revocation
 * files), the kernel images' own versions, --machine's keyring model,
 * a blacklist file, every trust source (trust/keyring_load.h), the
 * --secondary certificates and, for the running kernel, the keys it
 * really holds.
 *
 * Nothing here prints: what each step found goes to the caller's
 * struct keyrings_words, and a step that fails returns -errno with a struct
 * keyrings_failure saying which step and why; the words and the exit codes
 * are the tool's.
 */
#ifndef MODSIGN_TRUST_KEYRINGS_H
#define MODSIGN_TRUST_KEYRINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/blacklist.h"
#include "kernel/kernel_config.h"
#include "kernel/keyring.h"
#include "kernel/rules.h"
#include "trust/keyring_load.h"
#include "trust/keyring_model.h"
#include "trust/machine.h"
#include "trust/machine_parts.h"

/* The keyrings and settings a run judges with. */
struct keyrings {
	struct keyring trusted, revoked, platform;
	struct blacklist bl;
	struct kernel_config kc;
	char *beside;		/* the config found beside --vmlinux */
	char *bl_path, *rev_path;	/* a .config's files inside the root */
};

/* A run's trust choices; keyrings_load() settles what they leave open. */
struct keyrings_setup {
	/* in: --kernel's rules or the default; out: the rules judged by
	 * (a .config's, else the first image's) */
	const struct rules_rules *kr;
	struct rules_rules img_rules;	/* storage for an image's rules */
	const char *kline;		/* --kernel as given, or NULL */
	/* --kernel-config (out: or the config beside --vmlinux),
	 * --kernel-tree */
	const char *kcpath, *ktree;
	const char *kc_from;	/* out: how kcpath was found (static) */
	const char *blpath;		/* --blacklist */
	bool enforce;			/* out: MODULE_SIG_FORCE sets it */
	int lockdown;		/* enum kernel_config_lockdown, -1 when not given */
	int vendor;		/* enum vendors_id, VENDORS_UNKNOWN when
				 * not given */
	/* the sources, with room for one more: a .config's revocation
	 * certificates */
	struct keyring_load_source *srcs;
	size_t nsrc;
	/* --machine: its parts (NULL without), the notes of what was
	 * missing (more are added), and out: the keyring model */
	const struct machine *m;
	struct machine_parts_notes *notes;
	struct keyring_model km;
};

/* The step that failed, and what the tool needs to say so. */
enum keyrings_step {
	KEYRINGS_NOMEM,		/* out of memory */
	KEYRINGS_MACHINE,		/* machine_probe(): err, root, release, several,
				 * no_root */
	KEYRINGS_KCONFIG,		/* kernel_config_load(): err, path, line, kc */
	KEYRINGS_KCONFIG_RULES,	/* the .config is too old, or not the
				 * --kernel asked for: path, kc, kline */
	KEYRINGS_KCONFIG_FILE,	/* a file the .config names is not there:
				 * path, kc, revocation */
	KEYRINGS_BLACKLIST,		/* keyring_load_blacklist(): err, path, line */
	KEYRINGS_IMAGE_TOO_OLD,	/* an image older than the oldest line:
				 * path, rel */
	KEYRINGS_IMAGE_LINES,		/* two images of different lines: path,
				 * rel, from, first */
	KEYRINGS_SOURCE,		/* a trust source: err, source */
};

struct keyrings_failure {
	enum keyrings_step step;
	int err;
	const char *path;
	int line;
	const struct kernel_config *kc;
	const char *kline;
	bool revocation;	/* KEYRINGS_KCONFIG_FILE: the revocation file */
	/* KEYRINGS_MACHINE */
	const char *root, *release;
	int several;
	bool no_root;		/* root is not a directory */
	/* KEYRINGS_IMAGE_*: the image's release; the first image and its rules */
	char rel[128];
	const char *from;
	const struct rules_rules *first;
	struct keyring_load_failure source;	/* KEYRINGS_SOURCE */
};

/* What an image's version said of the rules (keyrings_words.image). */
enum keyrings_image_event {
	KEYRINGS_IMG_NO_VERSION,	/* none in it: the rules kr are kept */
	KEYRINGS_IMG_OTHER_LINE,	/* its line (kr) is not the rules asked */
	KEYRINGS_IMG_RULES,		/* its line (kr) is the one judged by */
};

struct keyrings_image_note {
	enum keyrings_image_event event;
	const char *path, *rel;
	const struct rules_rules *kr, *asked;
	const char *note;	/* KEYRINGS_IMG_RULES: rules_resolve()'s note */
};

/* What the loading says, as it goes. */
struct keyrings_words {
	/* keyring_load()'s reports; ctx is the rules judged by */
	void (*loaded)(void *ctx, const struct keyring_load_report *r);
	/* keyring_load_add_secondaries()' refusals */
	void (*refused)(void *ctx, const struct keyring_load_refusal *r);
	/* a .config read and its rules settled into s */
	void (*config)(const struct keyrings_setup *s, const struct kernel_config *kc);
	void (*image)(const struct keyrings_image_note *n);
	/* --machine: notes from index from on are new */
	void (*notes)(const struct machine_parts_notes *notes, size_t from);
	/* --machine: the keyring model settled */
	void (*model)(const struct keyring_model *km);
	/* --vmlinux alone: the config beside image found (config, its
	 * layout) or not (config NULL; looked: the place looked, or NULL;
	 * other: the release of a config there for another kernel) */
	void (*beside)(const char *image, const char *config,
		       const char *layout, const char *looked,
		       const char *other);
	/* a .config's blacklist or revocation file not read: the image
	 * given holds what the kernel compiled in */
	void (*in_image)(const struct kernel_config *kc, const char *image);
};

/*
 * --machine: probe the machine under sysroot (NULL: this one) for
 * kernel release (NULL: the only one, or the running one) into m, then
 * settle its parts into rq (trust/machine_parts.h: machine_parts_settle()).  0, or
 * -errno with *f saying why (KEYRINGS_MACHINE, KEYRINGS_NOMEM).  machine_free(m) and
 * machine_parts_notes_free(notes) in every case.
 */
int keyrings_machine(const char *sysroot, const char *release,
		     struct machine_parts_request *rq, struct machine *m,
		     struct machine_parts_notes *notes, struct keyrings_failure *f);

/*
 * Fill k from s, in the kernel's order: the .config, the images'
 * rules, --machine's keyring model, --blacklist, the sources, the
 * --secondary certificates, the running kernel's keys.  0, or -errno
 * with *f saying which step failed.  keyrings_free(k) in every case.
 */
int keyrings_load(struct keyrings_setup *s, struct keyrings *k,
		  const struct keyrings_words *w, struct keyrings_failure *f);
void keyrings_free(struct keyrings *k);

/* Whether .platform vouches for modules: the machine's kernel's
 * vendor, --kernel-vendor, else the distributions' behaviour. */
bool keyrings_platform_counts(const struct keyrings_setup *s);

#endif
