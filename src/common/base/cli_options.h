/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options sign-file, verify-file and extract-sig share, parsed in one
 * place so that each is spelled, checked and explained alike in every
 * tool: -j, -0, -r, --files-from, -q, -v, --kernel, --kernel-config,
 * --json, --help and --version.  A tool names the shared options it takes
 * and adds its own; one getopt_long loop reads them all.
 */
#ifndef MODSIGN_BASE_CLI_OPTIONS_H
#define MODSIGN_BASE_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/*
 * Option codes, one convention in every tool: a short option is its
 * letter; a long-only option is a value from CLI_OPTIONS_CODE_LONG on, the shared
 * ones first, then each tool's own from CLI_OPTIONS_CODE_OWN.  A long-only option
 * never borrows a letter, so no letter means two things.
 */
enum cli_options_code {
	CLI_OPTIONS_CODE_LONG = 0x100,
	CLI_OPTIONS_CODE_FILES_FROM = CLI_OPTIONS_CODE_LONG,
	CLI_OPTIONS_CODE_KERNEL,
	CLI_OPTIONS_CODE_KERNEL_CONFIG,
	CLI_OPTIONS_CODE_JSON,
	CLI_OPTIONS_CODE_OWN,		/* a tool's own long-only options start here */
};

/* The shared options, one bit each. */
enum cli_options_flag {
	CLI_OPTIONS_JOBS = 1u << 0,		/* -j, --jobs N */
	CLI_OPTIONS_NULL = 1u << 1,		/* -0, --null */
	CLI_OPTIONS_RECURSIVE = 1u << 2,	/* -r, --recursive DIR */
	CLI_OPTIONS_FILES_FROM = 1u << 3,	/* --files-from LIST */
	CLI_OPTIONS_QUIET = 1u << 4,		/* -q, --quiet */
	CLI_OPTIONS_VERBOSE = 1u << 5,	/* -v, --verbose */
	CLI_OPTIONS_KERNEL = 1u << 6,	/* --kernel VERSION */
	CLI_OPTIONS_KERNEL_CONFIG = 1u << 7,	/* --kernel-config FILE */
	CLI_OPTIONS_JSON = 1u << 8,		/* --json */
	CLI_OPTIONS_HELP = 1u << 9,		/* -h, --help */
	CLI_OPTIONS_VERSION = 1u << 10,	/* -V, --version */
	CLI_OPTIONS_ALL = (1u << 11) - 1,
};

/* What the shared options said. */
struct cli_options {
	int jobs;		/* -j N; 0 when not given */
	int nul, quiet, json;
	int verbose;		/* how many -v; the tool decides when it counts */
	const char *walk;	/* -r DIR */
	const char *from;	/* --files-from LIST */
	const char *kernel;	/* --kernel as given */
	const char *kconfig;	/* --kernel-config FILE */
};

/*
 * The answers: go on; stop successfully (--help or --version printed);
 * a usage error, said on stderr (getopt's message or the option's own
 * line), for the tool to follow with its hint.  A tool's take() may give
 * other non-zero answers of its own: they are handed back unchanged.
 */
enum { CLI_OPTIONS_GO = 0, CLI_OPTIONS_STOP = 1, CLI_OPTIONS_USAGE = -1 };

struct cli_options_tool {
	const char *name;	/* --version's tool name */
	unsigned takes;		/* the shared options it takes (CLI_OPTIONS_*) */
	unsigned letters;	/* of those, the ones it takes by letter too */
	unsigned tell;		/* the shared ones take() hears of, once stored */
	const char *short_opts;	/* its own letters, as for getopt */
	const struct option *long_opts;	/* its own, ending with { 0 } */
	/* One option of its own, or a shared one in tell (optarg set as
	 * getopt sets it): CLI_OPTIONS_GO, or the answer to stop with. */
	int (*take)(void *ctx, int code);
	void (*help)(void *ctx);	/* --help */
	int (*mldsa)(void);	/* --version: whether it does ML-DSA */
	void *ctx;
};

/*
 * Parse argv's options into c and through t's take(); optind is left at
 * the first operand.  An answer above.
 */
int cli_options_parse(int argc, char **argv, const struct cli_options_tool *t,
		 struct cli_options *c);

/*
 * The --help lines of the shared options in which (CLI_OPTIONS_*), in one
 * wording for every tool; what each means in a tool is in its man page.
 */
void cli_options_help(FILE *f, unsigned which);

#endif
