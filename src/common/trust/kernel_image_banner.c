// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "kernel/rules.h"
#include "trust/kernel_image.h"
#include "trust/kernel_image_parts.h"

/* A release string's first word, if it starts MAJOR.MINOR. */
static int take_release(const uint8_t *p, size_t avail, char *out,
			size_t size)
{
	size_t n = 0;

	while (n < avail && n + 1 < size && p[n] > ' ' && p[n] < 0x7f)
		n++;
	if (n < 3 || p[0] < '0' || p[0] > '9' || !memchr(p, '.', n))
		return -ENOENT;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* What follows "Linux version " in the banner: the release alone
 * (take_release) or the whole line (take_line). */
typedef int (*banner_take)(const uint8_t *p, size_t avail, char *out,
			   size_t size);

/* One printable line from p: up to a NUL, newline or control byte. */
static int take_line(const uint8_t *p, size_t avail, char *out, size_t size)
{
	size_t n = 0;

	while (n < avail && n + 1 < size && p[n] >= ' ' && p[n] < 0x7f)
		n++;
	if (n < 3 || p[0] < '0' || p[0] > '9')
		return -ENOENT;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

static int banner_with(const uint8_t *p, size_t len, banner_take take,
		       char *out, size_t size)
{
	static const char tag[] = "Linux version ";
	const uint8_t *q = p, *end = p + len;

	/* an empty file maps to no address: memmem() must not see NULL */
	if (!len)
		return -ENOENT;
	while ((q = memmem(q, (size_t)(end - q), tag, sizeof(tag) - 1))) {
		q += sizeof(tag) - 1;
		if (take(q, (size_t)(end - q), out, size) == 0)
			return 0;
	}
	return -ENOENT;
}

int kernel_image_banner_release(const uint8_t *p, size_t len, char *out, size_t size)
{
	return banner_with(p, len, take_release, out, size);
}

/* The banner wherever the image keeps it: the x86 header's
 * kernel_version ("RELEASE (BUILDER) UTS_VERSION", 0x200 bytes before
 * the offset at 0x20e: arch/x86/boot/version.c), the image itself, or
 * the payload of a compressed image. */
static int find_banner(const uint8_t *buf, size_t len, banner_take take,
		       char *out, size_t size)
{
	struct kernel_image img;
	const char *why;
	size_t off;
	int ret;

	if (len >= 0x250 && le16(buf + 0x1fe) == 0xaa55 &&
	    memcmp(buf + 0x202, "HdrS", 4) == 0 && le16(buf + 0x20e)) {
		off = (size_t)le16(buf + 0x20e) + 0x200;
		if (off < len && take(buf + off, len - off, out, size) == 0)
			return 0;
	}
	if (banner_with(buf, len, take, out, size) == 0)
		return 0;
	ret = kernel_image_find_certs(buf, len, rules_get(RULES_DEFAULT), &img, &why);
	if (ret == 0)
		ret = img.owned ? banner_with(img.data, img.len, take, out,
					      size) : -ENOENT;
	kernel_image_free(&img);
	return ret == -EINVAL ? -ENOENT : ret;
}

int kernel_image_version(const uint8_t *buf, size_t len, char *out, size_t size)
{
	return find_banner(buf, len, take_release, out, size);
}

int kernel_image_banner(const uint8_t *buf, size_t len, char *out, size_t size)
{
	return find_banner(buf, len, take_line, out, size);
}
