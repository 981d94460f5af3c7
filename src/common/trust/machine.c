// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/infile.h"
#include "kernel/kernel_config.h"
#include "trust/efi_siglist.h"
#include "trust/keyring_model.h"
#include "trust/machine.h"
#include "trust/rootpath.h"

#define EFI_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SHIM_LOCK "605dab50-e046-4300-abb6-3dd810dd8b23"
/* include/linux/efi.h: EFI_VARIABLE_NON_VOLATILE */
#define EFI_VARIABLE_NON_VOLATILE 0x1u

/* path as the machine names it, on the host: inside m->root (NULL on
 * -ENOMEM, the only failure that must stop the probe) */
static char *under(const struct mc_machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *under(const struct mc_machine *m, const char *fmt, ...)
{
	va_list ap;
	char *rel, *out = NULL;
	int n, ret;

	va_start(ap, fmt);
	n = vasprintf(&rel, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	ret = rootpath_resolve(m->root, rel, &out);
	if (ret && ret != -ENOMEM) {
		/* a loop or a name too long: a path that cannot open,
		 * kept as the machine names it, under the root */
		if (asprintf(&out, "%s%s", m->root ? m->root : "", rel) < 0)
			out = NULL;
	}
	free(rel);
	return out;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* An efivarfs file: 4 bytes of attributes, then the value; its first
 * byte in *val.  -errno when absent or unreadable, -EBADMSG when empty. */
static int efivar_byte(const struct mc_machine *m, const char *name,
		       uint32_t *attr, uint8_t *val)
{
	char *path = under(m, ESL_EFIVARS "/%s", name);
	uint8_t *buf = NULL;
	size_t len;
	int ret;

	if (!path)
		return -ENOMEM;
	ret = ms_read_all(path, 4096, &buf, &len);
	free(path);
	if (ret)
		return ret;
	if (len < 5) {
		free(buf);
		return -EBADMSG;
	}
	*attr = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 |
		(uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
	*val = buf[4];
	free(buf);
	return 0;
}

/*
 * The Secure Boot state the kernel's EFI stub decides
 * (include/linux/efi.h: efi_get_secureboot_mode(), then
 * drivers/firmware/efi/libstub/secureboot.c: efi_get_secureboot()):
 * SecureBoot absent or 0, or SetupMode 1, is off; a volatile
 * MokSBStateRT of 1 (mokutil --disable-validation) turns it off too.
 */
static enum mc_secure_boot secure_boot(const struct mc_machine *m)
{
	uint32_t attr;
	uint8_t v;
	int ret;

	if (!m->has_efivars)
		return MC_SB_NO_UEFI;
	ret = efivar_byte(m, "SecureBoot-" EFI_GLOBAL, &attr, &v);
	if (ret == -ENOENT)
		return MC_SB_OFF;
	if (ret)
		return MC_SB_UNKNOWN;
	if (v == 0)
		return MC_SB_OFF;
	if (efivar_byte(m, "SetupMode-" EFI_GLOBAL, &attr, &v) == 0 &&
	    v == 1)
		return MC_SB_OFF;
	if (efivar_byte(m, "MokSBStateRT-" SHIM_LOCK, &attr, &v) == 0 &&
	    !(attr & EFI_VARIABLE_NON_VOLATILE) && v == 1)
		return MC_SB_SHIM_OFF;
	return MC_SB_ON;
}

/* A small sysfs file's first line; -errno. */
static int first_line(const char *path, char *out, size_t size)
{
	uint8_t *buf;
	size_t len;
	int ret = ms_read_all(path, 4096, &buf, &len);

	if (ret)
		return ret;
	if (len >= size)
		len = size - 1;
	memcpy(out, buf, len);
	out[len] = 0;
	out[strcspn(out, "\n")] = 0;
	free(buf);
	return 0;
}

/* security/lockdown/lockdown.c: lockdown_read() marks the level in
 * force with brackets: "none [integrity] confidentiality". */
static int lockdown_level(const char *path)
{
	char s[128], *open, *close;

	if (first_line(path, s, sizeof(s)))
		return -1;
	open = strchr(s, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return -1;
	*close = 0;
	return kc_lockdown_by_name(open + 1);
}

/* module.sig_enforce: a bool parameter, "Y" or "N" */
static int sig_enforce(const char *path)
{
	char s[16];

	if (first_line(path, s, sizeof(s)))
		return -1;
	return s[0] == 'Y' || s[0] == 'y' || s[0] == '1';
}

/* Kernels found under a root, by release. */
#define MC_MAX_RELEASES 16
struct releases {
	char name[MC_MAX_RELEASES][128];
	int n;			/* may pass MC_MAX_RELEASES: counted only */
};

static void rel_add(struct releases *rs, const char *name)
{
	for (int i = 0; i < rs->n && i < MC_MAX_RELEASES; i++)
		if (strcmp(rs->name[i], name) == 0)
			return;
	if (strlen(name) >= sizeof(rs->name[0]))
		return;
	if (rs->n < MC_MAX_RELEASES)
		snprintf(rs->name[rs->n], sizeof(rs->name[0]), "%s", name);
	rs->n++;
}

static bool exists_under(const struct mc_machine *m, const char *a,
			 const char *b, const char *c)
{
	char *p = under(m, "%s%s%s", a, b, c);
	bool yes = p && exists(p);

	free(p);
	return yes;
}

static bool has_image(const struct mc_machine *m, const char *dir,
		      const char *rel)
{
	char *p = under(m, "%s/%s/vmlinuz", dir, rel);
	bool yes = p && exists(p);

	free(p);
	return yes;
}

/* Arch's /usr/lib/modules/RELEASE/pkgbase: the name mkinitcpio gives
 * the image in /boot ("linux", "linux-lts"); "" when none. */
static void pkgbase(const struct mc_machine *m, const char *rel, char *out,
		    size_t size)
{
	char *p = under(m, "/usr/lib/modules/%s/pkgbase", rel);

	out[0] = 0;
	if (p && first_line(p, out, size))
		out[0] = 0;
	free(p);
	if (strchr(out, '/'))
		out[0] = 0;
}

/* The release whose pkgbase is name (an Arch /boot/vmlinuz-<pkgbase>);
 * one with its image beside it first.  "" when none. */
static void release_of_pkgbase(const struct mc_machine *m, const char *name,
			       char *out, size_t size)
{
	char *dir = under(m, "%s", "/usr/lib/modules"), base[128];
	struct dirent *e;
	DIR *d = dir ? opendir(dir) : NULL;

	out[0] = 0;
	free(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		pkgbase(m, e->d_name, base, sizeof(base));
		if (!base[0] || strcmp(base, name) != 0)
			continue;
		if (strlen(e->d_name) < size &&
		    (!out[0] || exists_under(m, "/usr/lib/modules/",
					     e->d_name, "/vmlinuz")))
			memcpy(out, e->d_name, strlen(e->d_name) + 1);
	}
	closedir(d);
}

/*
 * The kernels installed under the root: a /usr/lib/modules/R/vmlinuz
 * (Debian 13's 7.x packages, Fedora, Arch) or /lib/modules/R/vmlinuz, and
 * each /boot/vmlinuz-X, X the release (Debian, Ubuntu, Fedora) or Arch's
 * pkgbase of one.
 */
static void bls_releases(const struct mc_machine *m, struct releases *rs);

static void find_releases(const struct mc_machine *m, struct releases *rs)
{
	static const char *const dirs[] = { "/usr/lib/modules",
					    "/lib/modules" };
	char rel[128];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *dir = under(m, "%s", dirs[i]);

		d = dir ? opendir(dir) : NULL;
		free(dir);
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' &&
			    has_image(m, dirs[i], e->d_name))
				rel_add(rs, e->d_name);
		closedir(d);
	}
	{
		char *boot = under(m, "%s", "/boot");

		d = boot ? opendir(boot) : NULL;
		free(boot);
	}
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "vmlinuz-", 8) != 0 || !e->d_name[8])
			continue;
		release_of_pkgbase(m, e->d_name + 8, rel, sizeof(rel));
		rel_add(rs, rel[0] ? rel : e->d_name + 8);
	}
	closedir(d);
	bls_releases(m, rs);
}

/*
 * The Boot Loader Specification's layout, as systemd's kernel-install
 * lays it out with layout=bls (Fedora with systemd-boot, /boot being
 * the ESP or XBOOTLDR): the image is /boot/MACHINE-ID/RELEASE/linux,
 * MACHINE-ID from /etc/machine-id, and an entry
 * /boot/loader/entries/NAME.conf names it ("linux /MACHINE-ID/RELEASE/linux",
 * relative to the partition that holds the entries).
 */
static bool is_machine_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == 32 && !s[n];
}

/* /etc/machine-id there, or "" */
static void machine_id(const struct mc_machine *m, char *out, size_t size)
{
	char *p = under(m, "%s", "/etc/machine-id");

	out[0] = 0;
	if (!p || first_line(p, out, size) || !is_machine_id(out))
		out[0] = 0;
	free(p);
}

/* The release a BLS image path names: the directory of ".../R/linux". */
static bool bls_release(const char *linux_path, char *rel, size_t size)
{
	const char *end = strrchr(linux_path, '/'), *b;

	if (!end || strcmp(end, "/linux") != 0)
		return false;
	for (b = end; b > linux_path && b[-1] != '/'; b--)
		;
	if (b == end || (size_t)(end - b) >= size)
		return false;
	memcpy(rel, b, (size_t)(end - b));
	rel[end - b] = 0;
	return true;
}

/* Each /boot/loader/entries/NAME.conf: its "linux" path (when absolute and
 * without "..") and "version", to each(). */
static void bls_entries(const struct mc_machine *m,
			void (*each)(const struct mc_machine *m, void *ctx,
				     const char *linux_path,
				     const char *version),
			void *ctx)
{
	char *dir = under(m, "%s", "/boot/loader/entries");
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *p, *line, *save, lx[256] = "", ver[128] = "";
		uint8_t *buf;
		size_t len;

		if (e->d_name[0] == '.' || n < 6 ||
		    strcmp(e->d_name + n - 5, ".conf") != 0)
			continue;
		p = under(m, "/boot/loader/entries/%s", e->d_name);
		if (!p || ms_read_all(p, 64u << 10, &buf, &len)) {
			free(p);
			continue;
		}
		free(p);
		p = realloc(buf, len + 1);
		if (!p) {
			free(buf);
			continue;
		}
		p[len] = 0;
		for (line = strtok_r(p, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (sscanf(line, " linux %255s", lx) == 1 ||
			    sscanf(line, " version %127s", ver) == 1)
				continue;
		}
		free(p);
		if (lx[0] == '/' && !strstr(lx, "/../"))
			each(m, ctx, lx, ver);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void add_entry_release(const struct mc_machine *m, void *ctx,
			      const char *linux_path, const char *version)
{
	char rel[128];
	char *p = under(m, "/boot%s", linux_path);

	if (p && exists(p)) {
		if (version[0])
			rel_add(ctx, version);
		else if (bls_release(linux_path, rel, sizeof(rel)))
			rel_add(ctx, rel);
	}
	free(p);
}

static void bls_releases(const struct mc_machine *m, struct releases *rs)
{
	char mid[64], *dir;
	struct dirent *e;
	DIR *d;

	machine_id(m, mid, sizeof(mid));
	dir = mid[0] ? under(m, "/boot/%s", mid) : NULL;
	d = dir ? opendir(dir) : NULL;
	free(dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    (dir = under(m, "/boot/%s/%s/linux", mid, e->d_name))) {
			if (exists(dir))
				rel_add(rs, e->d_name);
			free(dir);
		}
	if (d)
		closedir(d);
	bls_entries(m, add_entry_release, rs);
}

/* The entry naming the image of m->release: its path under /boot. */
struct bls_find {
	char *path;
};

static void find_entry(const struct mc_machine *m, void *ctx,
		       const char *linux_path, const char *version)
{
	struct bls_find *f = ctx;
	char rel[128];
	char *p;

	if (f->path)
		return;
	if (version[0] ? strcmp(version, m->release) != 0 :
	    !bls_release(linux_path, rel, sizeof(rel)) ||
	    strcmp(rel, m->release) != 0)
		return;
	p = under(m, "/boot%s", linux_path);
	if (p && exists(p))
		f->path = p;
	else
		free(p);
}

/* The BLS image of m->release when no other layout has one: *path and
 * *from set when found (*path freed first).  -ENOMEM only. */
static int bls_image(const struct mc_machine *m, char **path,
		     const char **from)
{
	struct bls_find f = { NULL };
	char mid[64];

	machine_id(m, mid, sizeof(mid));
	if (mid[0]) {
		char *p = under(m, "/boot/%s/%s/linux", mid, m->release);

		if (!p)
			return -ENOMEM;
		if (exists(p)) {
			free(*path);
			*path = p;
			*from = "/boot/MACHINE-ID/RELEASE/linux (BLS, "
				"MACHINE-ID from /etc/machine-id)";
			return 0;
		}
		free(p);
	}
	bls_entries(m, find_entry, &f);
	if (f.path) {
		free(*path);
		*path = f.path;
		*from = "the linux line of a /boot/loader/entries/*.conf "
			"(BLS)";
	}
	return 0;
}

/* The first of the places a part may be in that holds it: *path and
 * *from (its layout, static) set; otherwise *path is the first place,
 * for messages, and *from NULL.  -ENOMEM only. */
struct place {
	const char *pre, *post;	/* around the release (or pkgbase) */
	const char *layout;
	bool pkgbase;		/* fmt takes the pkgbase, not the release */
	bool running;		/* only for the kernel running there */
};

static int first_place(const struct mc_machine *m, const struct place *pl,
		       size_t n, const char *base, bool running, char **path,
		       const char **from)
{
	*path = NULL;
	*from = NULL;
	for (size_t i = 0; i < n; i++) {
		char *p;

		if ((pl[i].pkgbase && !base[0]) || (pl[i].running && !running))
			continue;
		p = under(m, "%s%s%s", pl[i].pre,
			  pl[i].running ? "" : pl[i].pkgbase ? base :
			  m->release, pl[i].post);
		if (!p)
			return -ENOMEM;
		if (exists(p)) {
			free(*path);
			*path = p;
			*from = pl[i].layout;
			return 0;
		}
		if (*path)
			free(p);
		else
			*path = p;
	}
	return 0;
}

static const struct place images[] = {
	{ "/boot/vmlinuz-", "", "/boot/vmlinuz-RELEASE", false, false },
	{ "/boot/vmlinuz-", "", "/boot/vmlinuz-PKGBASE (Arch: "
	  "/usr/lib/modules/RELEASE/pkgbase)", true, false },
	{ "/usr/lib/modules/", "/vmlinuz", "/usr/lib/modules/RELEASE/vmlinuz",
	  false, false },
	{ "/lib/modules/", "/vmlinuz", "/lib/modules/RELEASE/vmlinuz", false,
	  false },
};

static const struct place configs[] = {
	{ "/boot/config-", "", "/boot/config-RELEASE", false, false },
	{ "/usr/lib/modules/", "/config", "/usr/lib/modules/RELEASE/config",
	  false, false },
	{ "/lib/modules/", "/config", "/lib/modules/RELEASE/config", false,
	  false },
	{ "/usr/lib/modules/", "/build/.config", "the headers' "
	  "/usr/lib/modules/RELEASE/build/.config", false, false },
	{ "/lib/modules/", "/build/.config", "the headers' "
	  "/lib/modules/RELEASE/build/.config", false, false },
	{ "/proc/config.gz", "", "the running kernel's /proc/config.gz",
	  false, true },
};

const char *mc_image_places(void)
{
	return "/boot/vmlinuz-RELEASE, /boot/vmlinuz-PKGBASE, "
	       "/usr/lib/modules/RELEASE/vmlinuz, /lib/modules/RELEASE/vmlinuz, "
	       "/boot/MACHINE-ID/RELEASE/linux, /boot/loader/entries/*.conf";
}

const char *mc_config_places(void)
{
	return "/boot/config-RELEASE, /usr/lib/modules/RELEASE/config, "
	       "/lib/modules/RELEASE/config, .../RELEASE/build/.config, "
	       "/proc/config.gz when running";
}

/* Whether release is the kernel running on the machine: uname -r here,
 * the root's /proc/sys/kernel/osrelease under another root. */
static bool running(const struct mc_machine *m)
{
	char *p, s[128];
	struct utsname u;
	bool yes;

	if (!m->root)
		return uname(&u) == 0 && strcmp(u.release, m->release) == 0;
	p = under(m, "%s", "/proc/sys/kernel/osrelease");
	yes = p && first_line(p, s, sizeof(s)) == 0 &&
	      strcmp(s, m->release) == 0;
	free(p);
	return yes;
}

int mc_probe(const char *root, const char *release, struct mc_machine *m,
	     int *several)
{
	struct releases rs = { .n = 0 };
	struct utsname u;
	char base[128];
	char *pending;

	memset(m, 0, sizeof(*m));
	m->lockdown = m->sig_enforce = -1;
	*several = 0;
	if (!rootpath_is_host(root) && !(m->root = strdup(root)))
		return -ENOMEM;
	if (release) {
		if (strlen(release) >= sizeof(m->release) ||
		    strchr(release, '/'))
			return -ENAMETOOLONG;
		snprintf(m->release, sizeof(m->release), "%s", release);
	} else if (!m->root) {
		if (uname(&u) != 0)
			return -errno;
		snprintf(m->release, sizeof(m->release), "%s", u.release);
	} else {
		find_releases(m, &rs);
		*several = rs.n;
		if (rs.n != 1)
			return rs.n ? -ENOTUNIQ : -ENOENT;
		snprintf(m->release, sizeof(m->release), "%s", rs.name[0]);
	}
	m->running = running(m);
	pkgbase(m, m->release, base, sizeof(base));
	snprintf(m->pkgbase, sizeof(m->pkgbase), "%s", base);
	if (first_place(m, images, sizeof(images) / sizeof(images[0]), base,
			m->running, &m->vmlinuz, &m->vmlinuz_from) ||
	    (!m->vmlinuz_from && bls_image(m, &m->vmlinuz, &m->vmlinuz_from)) ||
	    first_place(m, configs, sizeof(configs) / sizeof(configs[0]), base,
			m->running, &m->config, &m->config_from) ||
	    !(m->efivars = under(m, "%s", ESL_EFIVARS)) ||
	    !(m->lockdown_path = under(m, "%s",
				       "/sys/kernel/security/lockdown")) ||
	    !(m->enforce_path = under(m, "%s",
			"/sys/module/module/parameters/sig_enforce")) ||
	    !(m->mok = under(m, "%s", ESL_EFIVARS "/" ESL_VAR_MOK)) ||
	    !(m->db = under(m, "%s", ESL_EFIVARS "/" ESL_VAR_DB)) ||
	    !(m->dbx = under(m, "%s", ESL_EFIVARS "/" ESL_VAR_DBX)) ||
	    !(m->mokx = under(m, "%s", ESL_EFIVARS "/" ESL_VAR_MOKX)) ||
	    !(m->ignore_db = under(m, "%s",
				   ESL_EFIVARS "/" ESL_VAR_IGNORE_DB)) ||
	    !(m->mokvars = under(m, "%s", ESL_MOKVARS)) ||
	    !(m->proc_keys = under(m, "%s", "/proc/keys")) ||
	    !(m->mok_table = under(m, "%s", ESL_MOKVARS "/MokListRT")) ||
	    !(m->mok_trusted = under(m, "%s",
				     ESL_MOKVARS "/MokListTrustedRT")))
		return -ENOMEM;
	m->has_vmlinuz = m->vmlinuz_from != NULL;
	m->has_config = m->config_from != NULL;
	m->has_efivars = exists(m->efivars);
	m->has_mok = exists(m->mok);
	m->has_db = exists(m->db);
	m->has_dbx = exists(m->dbx);
	m->has_mokx = exists(m->mokx);
	m->has_ignore_db = exists(m->ignore_db);
	m->has_mokvars = exists(m->mokvars);
	m->has_mok_table = exists(m->mok_table);
	m->has_mok_trusted = exists(m->mok_trusted);
	m->sb = secure_boot(m);
	m->lockdown = lockdown_level(m->lockdown_path);
	m->sig_enforce = sig_enforce(m->enforce_path);
	/* mokutil --import writes MokNew; shim's MokManager enrols it at
	 * the next boot, when the user confirms (MokListRT only then) */
	pending = under(m, "%s", ESL_EFIVARS "/MokNew-" SHIM_LOCK);
	if (!pending)
		return -ENOMEM;
	m->mok_pending = exists(pending);
	free(pending);
	return 0;
}

void mc_free(struct mc_machine *m)
{
	free(m->root);
	free(m->vmlinuz);
	free(m->config);
	free(m->efivars);
	free(m->lockdown_path);
	free(m->enforce_path);
	free(m->mok);
	free(m->db);
	free(m->dbx);
	free(m->mokx);
	free(m->ignore_db);
	free(m->mokvars);
	free(m->proc_keys);
	free(m->mok_table);
	free(m->mok_trusted);
	memset(m, 0, sizeof(*m));
}

const char *mc_secure_boot_name(enum mc_secure_boot sb)
{
	switch (sb) {
	case MC_SB_NO_UEFI: return "no-uefi";
	case MC_SB_OFF: return "off";
	case MC_SB_SHIM_OFF: return "shim-validation-off";
	case MC_SB_ON: return "on";
	default: return "unknown";
	}
}

static enum mc_lockdown mc_level(int level)
{
	return level == KC_LOCK_CONFIDENTIALITY ? MC_LD_CONFIDENTIALITY :
	       level == KC_LOCK_INTEGRITY ? MC_LD_INTEGRITY : MC_LD_NONE;
}

/*
 * kernel/module/signing.c: module_sig_check() ends in
 * security_locked_down(LOCKDOWN_MODULE_SIGNATURE); the level is what
 * lockdown_lsm_init() starts with (LOCK_DOWN_KERNEL_FORCE_*), raised by
 * drivers/firmware/efi/secureboot.c: efi_set_secure_boot() to integrity
 * under Secure Boot with LOCK_DOWN_IN_EFI_SECURE_BOOT, or by lockdown=
 * and writes to the lockdown file (seen only on the running kernel).
 */
enum mc_lockdown mc_lockdown(int given, const struct kconfig *kc,
			     const struct mc_machine *m,
			     const struct km_model *km, const char **by)
{
	int level = KC_LOCK_NONE;
	bool in_sb = km ? km->sb_lockdown != KC_LOCK_NONE :
		     kc ? kc->lockdown_in_sb : true;

	*by = NULL;
	if (given >= 0) {
		*by = "--lockdown";
		return mc_level(given);
	}
	if (kc && !kc->lockdown_lsm)
		return MC_LD_NONE;
	if (kc && kc->lockdown_force) {
		level = kc->lockdown_force;
		*by = level == KC_LOCK_INTEGRITY ?
			"CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY" :
			"CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY";
	}
	if (m && m->lockdown > level) {
		level = m->lockdown;
		*by = m->lockdown_path;
	}
	/* drivers/firmware/efi/secureboot.c and the vendors' patches:
	 * LOCKDOWN_INTEGRITY_MAX, SUSE's LOCKDOWN_CONFIDENTIALITY_MAX */
	if (m && m->sb == MC_SB_ON && in_sb &&
	    (km ? (int)km->sb_lockdown : KC_LOCK_INTEGRITY) > level) {
		level = km ? (int)km->sb_lockdown : KC_LOCK_INTEGRITY;
		*by = km ? km->sb_lockdown_by :
		      kc ? "EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT)"
			 : "EFI Secure Boot (assumed: no kernel config)";
	}
	if (level)
		return mc_level(level);
	if ((!m || m->sb == MC_SB_UNKNOWN) && (kc ? kc->lockdown_in_sb : !!m))
		return MC_LD_IF_SB;
	return kc || m ? MC_LD_NONE : MC_LD_UNKNOWN;
}
