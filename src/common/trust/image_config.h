/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel config a distribution installs beside a kernel image:
 * /boot/config-R beside /boot/vmlinuz-R (Debian, Ubuntu, Fedora), and
 * config beside vmlinuz in /usr/lib/modules/R/ (Debian 13's 7.x,
 * Fedora, Arch).  verify-file --vmlinux judges by it as --machine does,
 * so that a kernel built without an algorithm refuses what it would.
 */
#ifndef MODSIGN_TRUST_IMAGE_CONFIG_H
#define MODSIGN_TRUST_IMAGE_CONFIG_H

#include <stddef.h>

struct image_config_found {
	char *config;		/* malloc'd: the config used, or NULL */
	const char *layout;	/* static: the layout it was found by */
	/* no config used: the first place looked (malloc'd, NULL when the
	 * image's name fits no layout), and when one is there but is for
	 * another release than the image's, that release */
	char *looked;
	char other[128];
};

/*
 * The config beside image, whose release (its version banner) is
 * release, or NULL when not known: the R of its name (vmlinuz-R,
 * vmlinux-R; or the directory of a vmlinuz) must be release.  0 with
 * *out filled (out->config NULL when none fits), or -ENOMEM.
 * image_config_free in every case.
 */
int image_config_beside(const char *image, const char *release, struct image_config_found *out);
void image_config_free(struct image_config_found *f);

#endif
