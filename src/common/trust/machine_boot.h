/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What machine.c (the probe) and machine_boot.c (which kernels a root
 * holds, and where the boot loader keeps their images) share.  Only
 * those two include this.
 */
#ifndef MODSIGN_TRUST_MACHINE_BOOT_H
#define MODSIGN_TRUST_MACHINE_BOOT_H

#include <stdbool.h>
#include <stddef.h>

#include "trust/machine.h"

/* Kernels found under a root, by release. */
#define MACHINE_MAX_RELEASES 16
struct machine_releases {
	char name[MACHINE_MAX_RELEASES][128];
	int n;			/* may pass MACHINE_MAX_RELEASES: counted only */
};

/* The kernels a root holds: /usr/lib/modules, /lib/modules, the images
 * in /boot and the BLS entries (machine_boot.c). */
void machine_find_releases(const struct machine *m, struct machine_releases *rs);
/* Arch's /usr/lib/modules/RELEASE/pkgbase, "" when none. */
void machine_pkgbase(const struct machine *m, const char *rel, char *out,
		size_t size);
/* The BLS image of m->release when no other layout has one: *path and
 * *from set when found (*path freed first).  -ENOMEM only. */
int machine_bls_image(const struct machine *m, char **path, const char **from);

/* path as the machine names it, on the host: inside m->root (NULL on
 * -ENOMEM, the only failure that must stop the probe) (machine.c) */
char *machine_under(const struct machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool machine_exists(const char *path);
/* The first line of a small file, without its newline; -errno. */
int machine_first_line(const char *path, char *out, size_t size);

#endif
