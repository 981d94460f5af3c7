/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files one run reads, so that no file it writes is one of them: a
 * signed module written over the private key, a bare CMS over the module
 * it came from.  Files are compared as the kernel names them, by device
 * and inode after following symbolic links, so "./x" and "x", a hard
 * link and a symlink to an input are all that input.
 */
#ifndef MODSIGN_BASE_SAMEFILE_H
#define MODSIGN_BASE_SAMEFILE_H

#include <stddef.h>
#include <sys/types.h>

#define SAMEFILE_INPUTS_MAX 32

struct samefile_inputs {
	int n;
	struct {
		dev_t dev;
		ino_t ino;
		const char *path;	/* as given (not copied) */
		const char *role;	/* "the key", "the module", ... */
	} in[SAMEFILE_INPUTS_MAX];
};

/*
 * Remember path as an input.  NULL, "-" (standard input), a name that
 * is no file (yet, or a pkcs11: URI) is nothing a write can destroy and
 * is left out; so are inputs past SAMEFILE_INPUTS_MAX (-ENOSPC).
 */
int samefile_inputs_add(struct samefile_inputs *s, const char *path,
		  const char *role);

/*
 * 0 when writing output destroys no input; else -EEXIST with *path and
 * *role naming the input it is.  An output that does not exist yet
 * cannot be an input.
 */
int samefile_inputs_check_output(const struct samefile_inputs *s, const char *output,
			   const char **path, const char **role);

/* 1 when a and b name the same existing file, else 0. */
int samefile_same(const char *a, const char *b);

/* The words every tool says of output being path, the input role. */
void samefile_clobber_text(char *buf, size_t size, const char *output,
		     const char *path, const char *role);

/*
 * The n outputs (NULL ones skipped) against s and against each other:
 * 0, or -EEXIST with *bad the output and buf saying what it is.
 */
int samefile_outputs_check(const struct samefile_inputs *s, const char *const *outs,
		     int n, const char **bad, char *buf, size_t size);

#endif
