// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/fileio.h"
#include "kernel/kernel_config.h"
#include "trust/efi_siglist.h"
#include "trust/machine.h"

#define EFI_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SHIM_LOCK "605dab50-e046-4300-abb6-3dd810dd8b23"
/* include/linux/efi.h: EFI_VARIABLE_NON_VOLATILE */
#define EFI_VARIABLE_NON_VOLATILE 0x1u

static char *joined(const char *root, const char *path)
{
	char *s;

	if (asprintf(&s, "%s%s", root, path) < 0)
		return NULL;
	return s;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* An efivarfs file: 4 bytes of attributes, then the value; its first
 * byte in *val.  -errno when absent or unreadable, -EBADMSG when empty. */
static int efivar_byte(const char *efivars, const char *name,
		       uint32_t *attr, uint8_t *val)
{
	char *path;
	uint8_t *buf = NULL;
	size_t len;
	int ret;

	if (asprintf(&path, "%s/%s", efivars, name) < 0)
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
	ret = efivar_byte(m->efivars, "SecureBoot-" EFI_GLOBAL, &attr, &v);
	if (ret == -ENOENT)
		return MC_SB_OFF;
	if (ret)
		return MC_SB_UNKNOWN;
	if (v == 0)
		return MC_SB_OFF;
	if (efivar_byte(m->efivars, "SetupMode-" EFI_GLOBAL, &attr, &v) == 0 &&
	    v == 1)
		return MC_SB_OFF;
	if (efivar_byte(m->efivars, "MokSBStateRT-" SHIM_LOCK, &attr, &v) == 0 &&
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

/* The one /boot/vmlinuz-* under root: its release in m->release. */
static int only_image(const char *root, struct mc_machine *m, int *several)
{
	char *boot = joined(root, "/boot");
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (!boot)
		return -ENOMEM;
	d = opendir(boot);
	free(boot);
	if (!d)
		return -ENOENT;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "vmlinuz-", 8) == 0 && n++ == 0)
			snprintf(m->release, sizeof(m->release), "%s",
				 e->d_name + 8);
	closedir(d);
	*several = n;
	return n == 0 ? -ENOENT : n > 1 ? -ENOTUNIQ : 0;
}

int mc_probe(const char *root, const char *release, struct mc_machine *m,
	     int *several)
{
	struct utsname u;
	char *pending;
	int ret;

	memset(m, 0, sizeof(*m));
	m->lockdown = m->sig_enforce = -1;
	*several = 0;
	if (!root || strcmp(root, "/") == 0)
		root = "";
	if (release) {
		if (strlen(release) >= sizeof(m->release) ||
		    strchr(release, '/'))
			return -ENAMETOOLONG;
		snprintf(m->release, sizeof(m->release), "%s", release);
	} else if (!root[0]) {
		if (uname(&u) != 0)
			return -errno;
		snprintf(m->release, sizeof(m->release), "%s", u.release);
	} else if ((ret = only_image(root, m, several))) {
		return ret;
	}
	if (asprintf(&m->vmlinuz, "%s/boot/vmlinuz-%s", root, m->release) < 0 ||
	    asprintf(&m->config, "%s/boot/config-%s", root, m->release) < 0 ||
	    !(m->efivars = joined(root, ESL_EFIVARS)) ||
	    !(m->lockdown_path = joined(root, "/sys/kernel/security/lockdown")) ||
	    !(m->enforce_path =
	      joined(root, "/sys/module/module/parameters/sig_enforce")) ||
	    !(m->mok = joined(root, ESL_EFIVARS "/" ESL_VAR_MOK)) ||
	    !(m->db = joined(root, ESL_EFIVARS "/" ESL_VAR_DB)) ||
	    !(m->dbx = joined(root, ESL_EFIVARS "/" ESL_VAR_DBX)))
		return -ENOMEM;
	m->has_vmlinuz = exists(m->vmlinuz);
	m->has_config = exists(m->config);
	m->has_efivars = exists(m->efivars);
	m->has_mok = exists(m->mok);
	m->has_db = exists(m->db);
	m->has_dbx = exists(m->dbx);
	m->sb = secure_boot(m);
	m->lockdown = lockdown_level(m->lockdown_path);
	m->sig_enforce = sig_enforce(m->enforce_path);
	/* mokutil --import writes MokNew; shim's MokManager enrols it at
	 * the next boot, when the user confirms (MokListRT only then) */
	if (asprintf(&pending, "%s/MokNew-605dab50-e046-4300-abb6-"
		     "3dd810dd8b23", m->efivars) >= 0) {
		m->mok_pending = exists(pending);
		free(pending);
	}
	return 0;
}

void mc_free(struct mc_machine *m)
{
	free(m->vmlinuz);
	free(m->config);
	free(m->efivars);
	free(m->lockdown_path);
	free(m->enforce_path);
	free(m->mok);
	free(m->db);
	free(m->dbx);
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
			     const struct mc_machine *m, const char **by)
{
	int level = KC_LOCK_NONE;

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
	if (!level && m && m->sb == MC_SB_ON && (!kc || kc->lockdown_in_sb)) {
		level = KC_LOCK_INTEGRITY;
		*by = kc ? "EFI Secure Boot (CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT)"
			 : "EFI Secure Boot (assumed: no kernel config)";
	}
	if (level)
		return mc_level(level);
	if ((!m || m->sb == MC_SB_UNKNOWN) && (kc ? kc->lockdown_in_sb : !!m))
		return MC_LD_IF_SB;
	return kc || m ? MC_LD_NONE : MC_LD_UNKNOWN;
}
