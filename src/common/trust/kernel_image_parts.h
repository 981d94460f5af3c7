/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kernel_image.c (the certificate lists) and kernel_image_banner.c
 * (the "Linux version" banner) share.  Only those two include this.
 */
#ifndef MODSIGN_TRUST_KERNEL_IMAGE_PARTS_H
#define MODSIGN_TRUST_KERNEL_IMAGE_PARTS_H

#include <stddef.h>
#include <stdint.h>

/* The x86 boot header's fields are little-endian. */
static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The release in the first "Linux version RELEASE" banner in p itself
 * (init/version.c's linux_banner); -ENOENT when none. */
int kernel_image_banner_release(const uint8_t *p, size_t len, char *out, size_t size);

#endif
