// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/samefile.h"

int samefile_inputs_add(struct samefile_inputs *s, const char *path, const char *role)
{
	struct stat st;

	if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0)
		return 0;
	if (s->n >= SAMEFILE_INPUTS_MAX)
		return -ENOSPC;
	s->in[s->n].dev = st.st_dev;
	s->in[s->n].ino = st.st_ino;
	s->in[s->n].path = path;
	s->in[s->n].role = role;
	s->n++;
	return 0;
}

int samefile_inputs_check_output(const struct samefile_inputs *s, const char *output,
			   const char **path, const char **role)
{
	struct stat st;

	/* stat follows links, as the write does (outfile.h: outfile_begin
	 * replaces the file a symlink points to). */
	if (!output || stat(output, &st) != 0)
		return 0;
	for (int i = 0; i < s->n; i++)
		if (s->in[i].dev == st.st_dev && s->in[i].ino == st.st_ino) {
			*path = s->in[i].path;
			*role = s->in[i].role;
			return -EEXIST;
		}
	return 0;
}

void samefile_clobber_text(char *buf, size_t size, const char *output,
		     const char *path, const char *role)
{
	if (strcmp(output, path) == 0)
		snprintf(buf, size, "is %s, an input of this run: not "
			 "overwritten, nothing written (name another output)",
			 role);
	else
		snprintf(buf, size, "is the same file as %s %s, an input of "
			 "this run: not overwritten, nothing written (name "
			 "another output)", role, path);
}

int samefile_outputs_check(const struct samefile_inputs *s, const char *const *outs,
		     int n, const char **bad, char *buf, size_t size)
{
	const char *path, *role;

	for (int i = 0; i < n; i++) {
		if (!outs[i])
			continue;
		for (int k = 0; k < i; k++)
			if (outs[k] && (!strcmp(outs[k], outs[i]) ||
					samefile_same(outs[k], outs[i]))) {
				*bad = outs[i];
				snprintf(buf, size, "named for two outputs: "
					 "nothing written (name two files)");
				return -EEXIST;
			}
		if (samefile_inputs_check_output(s, outs[i], &path, &role)) {
			*bad = outs[i];
			samefile_clobber_text(buf, size, outs[i], path, role);
			return -EEXIST;
		}
	}
	return 0;
}

int samefile_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
