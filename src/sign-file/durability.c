// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <linux/magic.h>

#include "base/outfile.h"
#include "sign-file/durability.h"

int ms_dur_orders_replace(int fd)
{
	struct statfs sf;
	struct stat st;
	char *line = NULL, want[32];
	size_t cap = 0;
	int ordered = 0;
	FILE *f;

	if (fstatfs(fd, &sf) < 0 || sf.f_type != EXT4_SUPER_MAGIC ||
	    fstat(fd, &st) < 0)
		return 0;
	/* mountinfo: "ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTS ... -
	 * FSTYPE SOURCE SUPER-OPTS"; ext4 names data= and noauto_da_alloc
	 * there only when they are not the defaults. */
	snprintf(want, sizeof(want), " %u:%u ", major(st.st_dev),
		 minor(st.st_dev));
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ext4 ");
		const char *opts;

		if (!sep || !strstr(line, want) || strstr(line, want) > sep)
			continue;
		opts = strchr(sep + 8, ' ');
		ordered = opts && !strstr(opts, "noauto_da_alloc") &&
			  !strstr(opts, "data=writeback");
		break;
	}
	free(line);
	fclose(f);
	return ordered;
}

int ms_dur_volatile(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 &&
	       (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC);
}

unsigned int ms_dur_commit_flags(int out_fd, int replaces)
{
	if (out_fd >= 0 && ms_dur_volatile(out_fd))
		return 0;
	/* Against a power loss: the new file's data before its rename,
	 * where the file system does not order the two itself. */
	if (out_fd >= 0 && replaces && ms_dur_orders_replace(out_fd))
		return 0;
	return OUTFILE_SYNC_FILE;
}
