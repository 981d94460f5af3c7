// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>

#include "base/exitcode.h"

int ms_exit_for_errno(int err)
{
	switch (err) {
	case 0:
		return MS_EXIT_OK;
	case -EKEYREJECTED:
		return MS_EXIT_REJECTED;
	case -ENODATA:
		return MS_EXIT_UNSIGNED;
	case -ENOKEY:
		return MS_EXIT_NOKEY;
	case -ENOPKG:
		return MS_EXIT_NOPKG;
	case -EBADMSG:
	case -EINVAL:
	case -EMSGSIZE:
		return MS_EXIT_MALFORMED;
	default:
		return MS_EXIT_IO;
	}
}

/*
 * A broken run (usage, I/O, key) outranks any verdict; among verdicts a
 * hard rejection outranks malformed input, which outranks the soft
 * outcomes the kernel would still load when not enforcing.
 */
static int severity(int code)
{
	static const int rank[] = {
		[MS_EXIT_OK] = 0,	 [MS_EXIT_UNSIGNED] = 1,
		[MS_EXIT_NOPKG] = 2,	 [MS_EXIT_NOKEY] = 3,
		[MS_EXIT_SIGNED] = 4,	 [MS_EXIT_MALFORMED] = 5,
		[MS_EXIT_REJECTED] = 6,	 [MS_EXIT_KEY] = 7,
		[MS_EXIT_IO] = 8,	 [MS_EXIT_USAGE] = 9,
	};

	if (code < 0 || code > MS_EXIT_KEY)
		return 10;
	return rank[code];
}

int ms_exit_worst(int a, int b)
{
	return severity(b) > severity(a) ? b : a;
}

const char *ms_errno_name(int err)
{
	static _Thread_local char unknown[16];

	switch (-err) {
	case 0: return "0";
	case EKEYREJECTED: return "EKEYREJECTED";
	case ENODATA: return "ENODATA";
	case ENOKEY: return "ENOKEY";
	case ENOPKG: return "ENOPKG";
	case EBADMSG: return "EBADMSG";
	case EINVAL: return "EINVAL";
	case EMSGSIZE: return "EMSGSIZE";
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EIO: return "EIO";
	case ENOEXEC: return "ENOEXEC";
	case EEXIST: return "EEXIST";
	case ENOSPC: return "ENOSPC";
	case EISDIR: return "EISDIR";
	case EFBIG: return "EFBIG";
	case EOVERFLOW: return "EOVERFLOW";
	case ENOTSUP: return "EOPNOTSUPP";
	}
	snprintf(unknown, sizeof(unknown), "E%d", -err);
	return unknown;
}
