// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trust/image_config.h"

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * image split at its last '/': the directory (with the slash, "" when
 * none) into dir, the name returned; rel gets the release the layout
 * names: the name's tail after "vmlinuz-", or the directory's name for
 * a plain vmlinuz.  NULL when the name fits no layout.
 */
static const char *layout_of(const char *image, char *dir, size_t dsize,
			     char *rel, size_t rsize, int *plain)
{
	const char *slash = strrchr(image, '/');
	const char *name = slash ? slash + 1 : image;
	size_t dlen = (size_t)(name - image);

	if (dlen >= dsize)
		return NULL;
	memcpy(dir, image, dlen);
	dir[dlen] = '\0';
	if ((strncmp(name, "vmlinuz-", 8) == 0 ||
	     strncmp(name, "vmlinux-", 8) == 0) && name[8] &&
	    strlen(name + 8) < rsize) {
		*plain = 0;
		snprintf(rel, rsize, "%s", name + 8);
		return name;
	}
	if (strcmp(name, "vmlinuz") == 0 || strcmp(name, "vmlinux") == 0) {
		const char *end = dlen ? image + dlen - 1 : image, *b = end;

		/* the directory's own name: .../modules/R/vmlinuz */
		while (b > image && b[-1] != '/')
			b--;
		if (end <= b || (size_t)(end - b) >= rsize)
			return NULL;
		*plain = 1;
		memcpy(rel, b, (size_t)(end - b));
		rel[end - b] = '\0';
		return name;
	}
	return NULL;
}

int image_config_beside(const char *image, const char *release, struct image_config_found *out)
{
	char dir[4096], rel[128];
	int plain, n;

	memset(out, 0, sizeof(*out));
	if (!layout_of(image, dir, sizeof(dir), rel, sizeof(rel), &plain))
		return 0;
	n = plain ? asprintf(&out->looked, "%sconfig", dir) :
		    asprintf(&out->looked, "%sconfig-%s", dir, rel);
	if (n < 0) {
		out->looked = NULL;
		return -ENOMEM;
	}
	if (!is_file(out->looked))
		return 0;
	/* a config of another kernel is no config of this one */
	if (release && strcmp(release, rel) != 0) {
		snprintf(out->other, sizeof(out->other), "%s", rel);
		return 0;
	}
	out->config = out->looked;
	out->looked = NULL;
	out->layout = plain ? "config beside vmlinuz in "
			      "/usr/lib/modules/RELEASE/" :
			      "/boot/config-RELEASE beside /boot/vmlinuz-RELEASE";
	return 0;
}

void image_config_free(struct image_config_found *f)
{
	free(f->config);
	free(f->looked);
	memset(f, 0, sizeof(*f));
}
