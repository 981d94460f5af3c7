// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/samefile.h"

int ms_inputs_add(struct ms_input_set *s, const char *path, const char *role)
{
	struct stat st;

	if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0)
		return 0;
	if (s->n >= MS_INPUTS_MAX)
		return -ENOSPC;
	s->in[s->n].dev = st.st_dev;
	s->in[s->n].ino = st.st_ino;
	s->in[s->n].path = path;
	s->in[s->n].role = role;
	s->n++;
	return 0;
}

int ms_inputs_check_output(const struct ms_input_set *s, const char *output,
			   const char **path, const char **role)
{
	struct stat st;

	/* stat follows links, as the write does (fileio.h: ms_out_begin
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

int ms_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
