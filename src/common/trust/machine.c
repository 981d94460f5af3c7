// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/infile.h"
#include "trust/rootpath.h"
#include "kernel/kernel_config.h"
#include "trust/efi_siglist.h"
#include "trust/keyring_model.h"
#include "trust/machine.h"
#include "trust/machine_boot.h"

#define EFI_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SHIM_LOCK "605dab50-e046-4300-abb6-3dd810dd8b23"
/* include/linux/efi.h: EFI_VARIABLE_NON_VOLATILE */
#define EFI_VARIABLE_NON_VOLATILE 0x1u

/* path as the machine names it, on the host: inside m->root (NULL on
 * -ENOMEM, the only failure that must stop the probe) */
char *machine_under(const struct machine *m, const char *fmt, ...)
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

bool machine_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* An efivarfs file: 4 bytes of attributes, then the value; its first
 * byte in *val.  -errno when absent or unreadable, -EBADMSG when empty. */
static int efivar_byte(const struct machine *m, const char *name,
		       uint32_t *attr, uint8_t *val)
{
	char *path = machine_under(m, EFI_SIGLIST_EFIVARS "/%s", name);
	uint8_t *buf = NULL;
	size_t len;
	int ret;

	if (!path)
		return -ENOMEM;
	ret = infile_read_all(path, 4096, &buf, &len);
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
static enum machine_secure_boot secure_boot(const struct machine *m)
{
	uint32_t attr;
	uint8_t v;
	int ret;

	if (!m->has_efivars)
		return MACHINE_SB_NO_UEFI;
	ret = efivar_byte(m, "SecureBoot-" EFI_GLOBAL, &attr, &v);
	if (ret == -ENOENT)
		return MACHINE_SB_OFF;
	if (ret)
		return MACHINE_SB_UNKNOWN;
	if (v == 0)
		return MACHINE_SB_OFF;
	if (efivar_byte(m, "SetupMode-" EFI_GLOBAL, &attr, &v) == 0 &&
	    v == 1)
		return MACHINE_SB_OFF;
	if (efivar_byte(m, "MokSBStateRT-" SHIM_LOCK, &attr, &v) == 0 &&
	    !(attr & EFI_VARIABLE_NON_VOLATILE) && v == 1)
		return MACHINE_SB_SHIM_OFF;
	return MACHINE_SB_ON;
}

/* A small sysfs file's first line; -errno. */
int machine_first_line(const char *path, char *out, size_t size)
{
	uint8_t *buf;
	size_t len;
	int ret = infile_read_all(path, 4096, &buf, &len);

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

	if (machine_first_line(path, s, sizeof(s)))
		return -1;
	open = strchr(s, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return -1;
	*close = 0;
	return kernel_config_lockdown_by_name(open + 1);
}

/* module.sig_enforce: a bool parameter, "Y" or "N" */
static int sig_enforce(const char *path)
{
	char s[16];

	if (machine_first_line(path, s, sizeof(s)))
		return -1;
	return s[0] == 'Y' || s[0] == 'y' || s[0] == '1';
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

static int first_place(const struct machine *m, const struct place *pl,
		       size_t n, const char *base, bool running, char **path,
		       const char **from)
{
	*path = NULL;
	*from = NULL;
	for (size_t i = 0; i < n; i++) {
		char *p;

		if ((pl[i].pkgbase && !base[0]) || (pl[i].running && !running))
			continue;
		p = machine_under(m, "%s%s%s", pl[i].pre,
			  pl[i].running ? "" : pl[i].pkgbase ? base :
			  m->release, pl[i].post);
		if (!p)
			return -ENOMEM;
		if (machine_exists(p)) {
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

const char *machine_image_places(void)
{
	return "/boot/vmlinuz-RELEASE, /boot/vmlinuz-PKGBASE, "
	       "/usr/lib/modules/RELEASE/vmlinuz, /lib/modules/RELEASE/vmlinuz, "
	       "/boot/MACHINE-ID/RELEASE/linux, /boot/loader/entries/*.conf";
}

const char *machine_config_places(void)
{
	return "/boot/config-RELEASE, /usr/lib/modules/RELEASE/config, "
	       "/lib/modules/RELEASE/config, .../RELEASE/build/.config, "
	       "/proc/config.gz when running";
}

/* Whether release is the kernel running on the machine: uname -r here,
 * the root's /proc/sys/kernel/osrelease under another root. */
static bool running(const struct machine *m)
{
	char *p, s[128];
	struct utsname u;
	bool yes;

	if (!m->root)
		return uname(&u) == 0 && strcmp(u.release, m->release) == 0;
	p = machine_under(m, "%s", "/proc/sys/kernel/osrelease");
	yes = p && machine_first_line(p, s, sizeof(s)) == 0 &&
	      strcmp(s, m->release) == 0;
	free(p);
	return yes;
}

int machine_probe(const char *root, const char *release, struct machine *m,
	     int *several)
{
	struct machine_releases rs = { .n = 0 };
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
		machine_find_releases(m, &rs);
		*several = rs.n;
		if (rs.n != 1)
			return rs.n ? -ENOTUNIQ : -ENOENT;
		snprintf(m->release, sizeof(m->release), "%s", rs.name[0]);
	}
	m->running = running(m);
	machine_pkgbase(m, m->release, base, sizeof(base));
	snprintf(m->pkgbase, sizeof(m->pkgbase), "%s", base);
	if (first_place(m, images, sizeof(images) / sizeof(images[0]), base,
			m->running, &m->vmlinuz, &m->vmlinuz_from) ||
	    (!m->vmlinuz_from && machine_bls_image(m, &m->vmlinuz, &m->vmlinuz_from)) ||
	    first_place(m, configs, sizeof(configs) / sizeof(configs[0]), base,
			m->running, &m->config, &m->config_from) ||
	    !(m->efivars = machine_under(m, "%s", EFI_SIGLIST_EFIVARS)) ||
	    !(m->lockdown_path = machine_under(m, "%s",
				       "/sys/kernel/security/lockdown")) ||
	    !(m->enforce_path = machine_under(m, "%s",
			"/sys/module/module/parameters/sig_enforce")) ||
	    !(m->mok = machine_under(m, "%s", EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_MOK)) ||
	    !(m->db = machine_under(m, "%s", EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_DB)) ||
	    !(m->dbx = machine_under(m, "%s", EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_DBX)) ||
	    !(m->mokx = machine_under(m, "%s", EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_MOKX)) ||
	    !(m->ignore_db = machine_under(m, "%s",
				   EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_IGNORE_DB)) ||
	    !(m->mokvars = machine_under(m, "%s", EFI_SIGLIST_MOKVARS)) ||
	    !(m->proc_keys = machine_under(m, "%s", "/proc/keys")) ||
	    !(m->mok_table = machine_under(m, "%s", EFI_SIGLIST_MOKVARS "/MokListRT")) ||
	    !(m->mok_trusted = machine_under(m, "%s",
				     EFI_SIGLIST_MOKVARS "/MokListTrustedRT")))
		return -ENOMEM;
	m->has_vmlinuz = m->vmlinuz_from != NULL;
	m->has_config = m->config_from != NULL;
	m->has_efivars = machine_exists(m->efivars);
	m->has_mok = machine_exists(m->mok);
	m->has_db = machine_exists(m->db);
	m->has_dbx = machine_exists(m->dbx);
	m->has_mokx = machine_exists(m->mokx);
	m->has_ignore_db = machine_exists(m->ignore_db);
	m->has_mokvars = machine_exists(m->mokvars);
	m->has_mok_table = machine_exists(m->mok_table);
	m->has_mok_trusted = machine_exists(m->mok_trusted);
	m->sb = secure_boot(m);
	m->lockdown = lockdown_level(m->lockdown_path);
	m->sig_enforce = sig_enforce(m->enforce_path);
	/* mokutil --import writes MokNew; shim's MokManager enrols it at
	 * the next boot, when the user confirms (MokListRT only then) */
	pending = machine_under(m, "%s", EFI_SIGLIST_EFIVARS "/MokNew-" SHIM_LOCK);
	if (!pending)
		return -ENOMEM;
	m->mok_pending = machine_exists(pending);
	free(pending);
	return 0;
}

void machine_free(struct machine *m)
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

const char *machine_secure_boot_name(enum machine_secure_boot sb)
{
	switch (sb) {
	case MACHINE_SB_NO_UEFI: return "no-uefi";
	case MACHINE_SB_OFF: return "off";
	case MACHINE_SB_SHIM_OFF: return "shim-validation-off";
	case MACHINE_SB_ON: return "on";
	default: return "unknown";
	}
}

static enum machine_lockdown lockdown_of_level(int level)
{
	return level == KERNEL_CONFIG_LOCK_CONFIDENTIALITY ? MACHINE_LD_CONFIDENTIALITY :
	       level == KERNEL_CONFIG_LOCK_INTEGRITY ? MACHINE_LD_INTEGRITY : MACHINE_LD_NONE;
}

/*
 * kernel/module/signing.c: module_sig_check() ends in
 * security_locked_down(LOCKDOWN_MODULE_SIGNATURE); the level is what
 * lockdown_lsm_init() starts with (LOCK_DOWN_KERNEL_FORCE_*), raised by
 * drivers/firmware/efi/secureboot.c: efi_set_secure_boot() to integrity
 * under Secure Boot with LOCK_DOWN_IN_EFI_SECURE_BOOT, or by lockdown=
 * and writes to the lockdown file (seen only on the running kernel).
 */
enum machine_lockdown machine_lockdown(int given, const struct kernel_config *kc,
			     const struct machine *m,
			     const struct keyring_model *km, const char **by)
{
	int level = KERNEL_CONFIG_LOCK_NONE;
	bool in_sb = km ? km->sb_lockdown != KERNEL_CONFIG_LOCK_NONE :
		     kc ? kc->lockdown_in_sb : true;

	*by = NULL;
	if (given >= 0) {
		*by = "--lockdown";
		return lockdown_of_level(given);
	}
	if (kc && !kc->lockdown_lsm)
		return MACHINE_LD_NONE;
	if (kc && kc->lockdown_force) {
		level = kc->lockdown_force;
		*by = level == KERNEL_CONFIG_LOCK_INTEGRITY ?
			"CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY" :
			"CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY";
	}
	if (m && m->lockdown > level) {
		level = m->lockdown;
		*by = m->lockdown_path;
	}
	/* drivers/firmware/efi/secureboot.c and the vendors' patches:
	 * LOCKDOWN_INTEGRITY_MAX, SUSE's LOCKDOWN_CONFIDENTIALITY_MAX */
	if (m && m->sb == MACHINE_SB_ON && in_sb &&
	    (km ? (int)km->sb_lockdown : KERNEL_CONFIG_LOCK_INTEGRITY) > level) {
		level = km ? (int)km->sb_lockdown : KERNEL_CONFIG_LOCK_INTEGRITY;
		*by = km ? km->sb_lockdown_by :
		      kc ? "EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT)"
			 : "EFI Secure Boot (assumed: no kernel config)";
	}
	if (level)
		return lockdown_of_level(level);
	if ((!m || m->sb == MACHINE_SB_UNKNOWN) && (kc ? kc->lockdown_in_sb : !!m))
		return MACHINE_LD_IF_SB;
	return kc || m ? MACHINE_LD_NONE : MACHINE_LD_UNKNOWN;
}
