/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Describing one signed file, or many, for extract-sig: open it as the
 * kernel reads it, split off the appended signature (or read the
 * detached one), write the parts asked for, and hand each description to
 * the caller's sink to be judged and shown.  What is printed, and how,
 * is the sink's (extract-sig/describe_print.h); what this module prints itself is
 * the diagnostics on stderr and the raw parts (--body-stdout,
 * --sig-stdout, --descriptor, --modinfo) that scripts consume as bytes.
 */
#ifndef MODSIGN_EXTRACT_SIG_DESCRIBE_RUN_H
#define MODSIGN_EXTRACT_SIG_DESCRIBE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/x509.h>

#include "module/sig_describe.h"

/* What goes to stdout instead of a description, if anything. */
enum ms_describe_part {
	MS_DESCRIBE_PART_NONE,		/* the description (or nothing, with -q) */
	MS_DESCRIBE_PART_BODY,		/* the body without its signature */
	MS_DESCRIBE_PART_SIG,		/* the raw signature blob */
	MS_DESCRIBE_PART_DESCRIPTOR,	/* extract-module-sig.pl -d's six numbers */
	MS_DESCRIBE_PART_MODINFO,	/* kmod modinfo's signature lines */
};

struct ms_describe_opts {
	enum ms_describe_part part;
	int quiet;		/* no description, no part: the exit code */
	const char *field;	/* MS_DESCRIBE_PART_MODINFO: one field, or NULL */
	const char *body_out, *sig_out;	/* files to write, or NULL */
	const char *sig;	/* the detached signature of the one file */
	int detached;		/* FILE.p7s beside each FILE */
	X509 *cert;		/* -c: the certificate read, or NULL */
	const char *cert_path;	/* its file */
};

/*
 * Where descriptions and failures go.  show gets each description once
 * the module's own warnings are said: mod and len are the signed module
 * as the kernel reads it (NULL for a detached signature), for a judge
 * that needs the signed bytes; it may fill d's kernel-dependent fields
 * before printing.  failed gets each file that could not be described,
 * after its diagnostic went to stderr: err is its errno, why the words.
 * between, when set, goes between the outputs of two files.
 */
struct ms_describe_sink {
	void (*show)(void *ctx, FILE *out, const char *file,
		     struct sig_describe *d, const uint8_t *mod, size_t len);
	void (*failed)(void *ctx, FILE *out, const char *file, int err,
		       const char *why);
	const char *between;
	void *ctx;
};

/* One file, start to end: its exit code (base/exitcode.h). */
int ms_describe_file(const struct ms_describe_opts *o,
		     const struct ms_describe_sink *sink, const char *file,
		     FILE *out);

/* Files described in a run, by their exit code. */
struct ms_describe_tally {
	size_t files;
	unsigned signed_, unsigned_, malformed, errors;
};

/*
 * Many files (names, then those of LIST from, or the modules under walk)
 * on jobs workers, each file's output in input order on stdout; *t
 * counts them.  Returns the most severe exit code.
 */
int ms_describe_all(const struct ms_describe_opts *o,
		    const struct ms_describe_sink *sink, char **names,
		    int n, const char *from, int nul, const char *walk,
		    int jobs, struct ms_describe_tally *t);

/*
 * Before the first file: --body-out and --sig-out never replace a file
 * this run reads (base/samefile.h), nor each other (-EEXIST after one
 * line on stderr; file is the module, or NULL); an interrupted run
 * leaves no part behind (base/outfile.h); and -c's certificate is read
 * into o->cert (-ENOKEY after one line naming it and why).  0 when the
 * files can be described; ms_describe_end frees what this took.
 */
int ms_describe_begin(struct ms_describe_opts *o, const char *file);
void ms_describe_end(struct ms_describe_opts *o);

#endif
