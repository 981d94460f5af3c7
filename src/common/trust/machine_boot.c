// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "trust/machine.h"
#include "trust/machine_boot.h"

static void rel_add(struct machine_releases *rs, const char *name)
{
	for (int i = 0; i < rs->n && i < MACHINE_MAX_RELEASES; i++)
		if (strcmp(rs->name[i], name) == 0)
			return;
	if (strlen(name) >= sizeof(rs->name[0]))
		return;
	if (rs->n < MACHINE_MAX_RELEASES)
		snprintf(rs->name[rs->n], sizeof(rs->name[0]), "%s", name);
	rs->n++;
}

static bool exists_under(const struct machine *m, const char *a,
			 const char *b, const char *c)
{
	char *p = machine_under(m, "%s%s%s", a, b, c);
	bool yes = p && machine_exists(p);

	free(p);
	return yes;
}

static bool has_image(const struct machine *m, const char *dir,
		      const char *rel)
{
	char *p = machine_under(m, "%s/%s/vmlinuz", dir, rel);
	bool yes = p && machine_exists(p);

	free(p);
	return yes;
}

/* Arch's /usr/lib/modules/RELEASE/pkgbase: the name mkinitcpio gives
 * the image in /boot ("linux", "linux-lts"); "" when none. */
void machine_pkgbase(const struct machine *m, const char *rel, char *out,
		size_t size)
{
	char *p = machine_under(m, "/usr/lib/modules/%s/pkgbase", rel);

	out[0] = 0;
	if (p && machine_first_line(p, out, size))
		out[0] = 0;
	free(p);
	if (strchr(out, '/'))
		out[0] = 0;
}

/* The release whose pkgbase is name (an Arch /boot/vmlinuz-<pkgbase>);
 * one with its image beside it first.  "" when none. */
static void release_of_pkgbase(const struct machine *m, const char *name,
			       char *out, size_t size)
{
	char *dir = machine_under(m, "%s", "/usr/lib/modules"), base[128];
	struct dirent *e;
	DIR *d = dir ? opendir(dir) : NULL;

	out[0] = 0;
	free(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		machine_pkgbase(m, e->d_name, base, sizeof(base));
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
static void bls_releases(const struct machine *m, struct machine_releases *rs);

void machine_find_releases(const struct machine *m, struct machine_releases *rs)
{
	static const char *const dirs[] = { "/usr/lib/modules",
					    "/lib/modules" };
	char rel[128];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *dir = machine_under(m, "%s", dirs[i]);

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
		char *boot = machine_under(m, "%s", "/boot");

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
static void boot_machine_id(const struct machine *m, char *out, size_t size)
{
	char *p = machine_under(m, "%s", "/etc/machine-id");

	out[0] = 0;
	if (!p || machine_first_line(p, out, size) || !is_machine_id(out))
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
static void bls_entries(const struct machine *m,
			void (*each)(const struct machine *m, void *ctx,
				     const char *linux_path,
				     const char *version),
			void *ctx)
{
	char *dir = machine_under(m, "%s", "/boot/loader/entries");
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
		p = machine_under(m, "/boot/loader/entries/%s", e->d_name);
		if (!p || infile_read_all(p, 64u << 10, &buf, &len)) {
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

static void add_entry_release(const struct machine *m, void *ctx,
			      const char *linux_path, const char *version)
{
	char rel[128];
	char *p = machine_under(m, "/boot%s", linux_path);

	if (p && machine_exists(p)) {
		if (version[0])
			rel_add(ctx, version);
		else if (bls_release(linux_path, rel, sizeof(rel)))
			rel_add(ctx, rel);
	}
	free(p);
}

static void bls_releases(const struct machine *m, struct machine_releases *rs)
{
	char mid[64], *dir;
	struct dirent *e;
	DIR *d;

	boot_machine_id(m, mid, sizeof(mid));
	dir = mid[0] ? machine_under(m, "/boot/%s", mid) : NULL;
	d = dir ? opendir(dir) : NULL;
	free(dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    (dir = machine_under(m, "/boot/%s/%s/linux", mid, e->d_name))) {
			if (machine_exists(dir))
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

static void find_entry(const struct machine *m, void *ctx,
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
	p = machine_under(m, "/boot%s", linux_path);
	if (p && machine_exists(p))
		f->path = p;
	else
		free(p);
}

/* The BLS image of m->release when no other layout has one: *path and
 * *from set when found (*path freed first).  -ENOMEM only. */
int machine_bls_image(const struct machine *m, char **path, const char **from)
{
	struct bls_find f = { NULL };
	char mid[64];

	boot_machine_id(m, mid, sizeof(mid));
	if (mid[0]) {
		char *p = machine_under(m, "/boot/%s/%s/linux", mid, m->release);

		if (!p)
			return -ENOMEM;
		if (machine_exists(p)) {
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
