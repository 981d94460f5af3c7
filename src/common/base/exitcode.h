/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one exit-code table shared by sign-file, verify-file and extract-sig.
 * Every man page prints it; scripts depend on it: never renumber.
 */
#ifndef MODSIGN_BASE_EXITCODE_H
#define MODSIGN_BASE_EXITCODE_H

#include <errno.h>
#include <stdio.h>

enum exitcode {
	EXITCODE_OK = 0,		/* success; signature accepted */
	EXITCODE_REJECTED = 1,	/* EKEYREJECTED: bad signature, wrong key;
				 * verify-file: EPERM, refused by lockdown */
	EXITCODE_USAGE = 2,	/* usage error (as the kernel's sign-file) */
	EXITCODE_UNSIGNED = 3,	/* ENODATA: not signed */
	EXITCODE_NOKEY = 4,	/* ENOKEY: no trusted key for the signer */
	EXITCODE_NOPKG = 5,	/* ENOPKG: unsupported crypto */
	EXITCODE_MALFORMED = 6,	/* EBADMSG, EINVAL, EMSGSIZE, ENOEXEC */
	EXITCODE_IO = 7,		/* I/O or system error */
	EXITCODE_SIGNED = 8,	/* refused: input already signed */
	EXITCODE_KEY = 9,	/* key, certificate or trust source unusable */
	EXITCODE_UNCHECKABLE = 10, /* this build's OpenSSL lacks the algorithm */
};

/*
 * The negative errno src/common returns for EXITCODE_UNCHECKABLE: a
 * verdict this build cannot reach because its OpenSSL cannot do the
 * arithmetic (ML-DSA before OpenSSL 3.5).  No kernel verdict is ENOSYS,
 * so it never passes for one.
 */
#define EXITCODE_ENOALG ENOSYS

/*
 * Exit code for a verdict errno (negative, as returned by src/common).
 * Anything that is not a signature verdict counts as an I/O or system error.
 */
int exitcode_for_errno(int err);

/* Severity order used when several files are judged in one run. */
int exitcode_worst(int a, int b);

/* The table and the severity order, as every tool's --help ends. */
void exitcode_help(FILE *f);

/*
 * --json, a run that fails as a whole (a usage error, a trust source
 * that cannot be read, a file list that names nothing): one object on
 * out, shaped as the summary is, from the run's first error
 * (base/log.h): {"error":{"file":F,"errno":"E...","reason":R,"exit":N}},
 * "file" only when the error names one.  err: the negative errno, or 0
 * for the exit status's usual one.
 */
void exitcode_json(FILE *out, int code, int err);

/* "EKEYREJECTED" for -EKEYREJECTED; "0" for 0; "E<n>" when unknown. */
const char *exitcode_errno_name(int err);

#endif
