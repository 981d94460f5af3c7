// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/exitcode.h"
#include "base/json_name.h"
#include "base/log.h"

int exitcode_for_errno(int err)
{
	switch (err) {
	case 0:
		return EXITCODE_OK;
	case -EKEYREJECTED:
		return EXITCODE_REJECTED;
	case -ENODATA:
		return EXITCODE_UNSIGNED;
	case -ENOKEY:
		return EXITCODE_NOKEY;
	case -ENOPKG:
		return EXITCODE_NOPKG;
	case -EBADMSG:
	case -EINVAL:
	case -EMSGSIZE:
	case -ENOEXEC:
		return EXITCODE_MALFORMED;
	case -EXITCODE_ENOALG:
		return EXITCODE_UNCHECKABLE;
	default:
		return EXITCODE_IO;
	}
}

/*
 * Most severe first.  A broken run (usage, I/O, key, a build that cannot
 * check) outranks any verdict; among verdicts a hard rejection outranks
 * malformed input, which outranks the soft outcomes the kernel would
 * still load when not enforcing.
 */
static const int by_severity[] = {
	EXITCODE_USAGE, EXITCODE_IO, EXITCODE_KEY, EXITCODE_UNCHECKABLE,
	EXITCODE_REJECTED, EXITCODE_MALFORMED, EXITCODE_SIGNED, EXITCODE_NOKEY,
	EXITCODE_NOPKG, EXITCODE_UNSIGNED, EXITCODE_OK,
};

#define N_CODES (sizeof(by_severity) / sizeof(by_severity[0]))

static const char *const meaning[N_CODES] = {
	[EXITCODE_OK] = "success; signature accepted",
	[EXITCODE_REJECTED] = "rejected (EKEYREJECTED: bad signature, wrong "
			     "key; EPERM: lockdown)",
	[EXITCODE_USAGE] = "usage error",
	[EXITCODE_UNSIGNED] = "not signed (ENODATA)",
	[EXITCODE_NOKEY] = "no trusted key for the signer (ENOKEY)",
	[EXITCODE_NOPKG] = "unsupported crypto (ENOPKG)",
	[EXITCODE_MALFORMED] = "malformed trailer, CMS or module (EBADMSG, "
			      "EINVAL, EMSGSIZE, ENOEXEC)",
	[EXITCODE_IO] = "I/O or system error (unreadable file, disk full)",
	[EXITCODE_SIGNED] = "refused: already signed",
	[EXITCODE_KEY] = "key, certificate or trust source unusable",
	[EXITCODE_UNCHECKABLE] = "this build's OpenSSL lacks the algorithm "
				"(ML-DSA needs 3.5)",
};

/* Higher is more severe: N_CODES for the most severe code, 1 for
 * success, and above them all a code not in the table (a caller's bug
 * must not pass for success). */
static int severity(int code)
{
	for (size_t i = 0; i < N_CODES; i++)
		if (by_severity[i] == code)
			return (int)(N_CODES - i);
	return (int)N_CODES + 1;
}

int exitcode_worst(int a, int b)
{
	return severity(b) > severity(a) ? b : a;
}

void exitcode_help(FILE *f)
{
	fprintf(f, "\nExit status (one table for sign-file, verify-file and "
		"extract-sig):\n");
	for (size_t i = 0; i < N_CODES; i++)
		fprintf(f, "  %-3zu %s\n", i, meaning[i]);
	fprintf(f, "With several files the most severe code wins, in this "
		"order:\n ");
	for (size_t i = 0; i < N_CODES; i++)
		fprintf(f, " %d%s", by_severity[i], i + 1 < N_CODES ? "," : ".\n");
}

const char *exitcode_errno_name(int err)
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
	case ENOSYS: return "ENOSYS";
	}
	snprintf(unknown, sizeof(unknown), "E%d", -err);
	return unknown;
}

/* The errno a failure of the whole run stands for when none is known. */
static int errno_of(int code)
{
	switch (code) {
	case EXITCODE_USAGE:
		return -EINVAL;
	case EXITCODE_KEY:
		return -ENOKEY;
	case EXITCODE_MALFORMED:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

void exitcode_json(FILE *out, int code, int err)
{
	json_object *j = json_object_new_object(), *e;
	const char *subject, *message = log_first_error(&subject);

	e = json_object_new_object();
	if (subject)
		json_name_add(e, "file", subject);
	json_object_object_add(e, "errno", json_object_new_string(
				       exitcode_errno_name(err ? err
							 : errno_of(code))));
	json_name_add(e, "reason", message ? message : "usage error");
	json_object_object_add(e, "exit", json_object_new_int(code));
	json_object_object_add(j, "error", e);
	fprintf(out, "%s\n", json_object_to_json_string_ext(j,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(out);
	json_object_put(j);
}
