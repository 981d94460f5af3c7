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
 * letter; a long-only option is a value from MS_OPT_LONG on, the shared
 * ones first, then each tool's own from MS_OPT_OWN.  A long-only option
 * never borrows a letter, so no letter means two things.
 */
enum ms_opt_code {
	MS_OPT_LONG = 0x100,
	MS_OPT_FILES_FROM = MS_OPT_LONG,
	MS_OPT_KERNEL,
	MS_OPT_KERNEL_CONFIG,
	MS_OPT_JSON,
	MS_OPT_OWN,		/* a tool's own long-only options start here */
};

/* The shared options, one bit each. */
enum ms_cli_opt {
	MS_CLI_JOBS = 1u << 0,		/* -j, --jobs N */
	MS_CLI_NULL = 1u << 1,		/* -0, --null */
	MS_CLI_RECURSIVE = 1u << 2,	/* -r, --recursive DIR */
	MS_CLI_FILES_FROM = 1u << 3,	/* --files-from LIST */
	MS_CLI_QUIET = 1u << 4,		/* -q, --quiet */
	MS_CLI_VERBOSE = 1u << 5,	/* -v, --verbose */
	MS_CLI_KERNEL = 1u << 6,	/* --kernel VERSION */
	MS_CLI_KERNEL_CONFIG = 1u << 7,	/* --kernel-config FILE */
	MS_CLI_JSON = 1u << 8,		/* --json */
	MS_CLI_HELP = 1u << 9,		/* -h, --help */
	MS_CLI_VERSION = 1u << 10,	/* -V, --version */
	MS_CLI_ALL = (1u << 11) - 1,
};

/* What the shared options said. */
struct ms_cli {
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
enum { MS_CLI_GO = 0, MS_CLI_STOP = 1, MS_CLI_USAGE = -1 };

struct ms_cli_tool {
	const char *name;	/* --version's tool name */
	unsigned takes;		/* the shared options it takes (MS_CLI_*) */
	unsigned letters;	/* of those, the ones it takes by letter too */
	unsigned tell;		/* the shared ones take() hears of, once stored */
	const char *short_opts;	/* its own letters, as for getopt */
	const struct option *long_opts;	/* its own, ending with { 0 } */
	/* One option of its own, or a shared one in tell (optarg set as
	 * getopt sets it): MS_CLI_GO, or the answer to stop with. */
	int (*take)(void *ctx, int code);
	void (*help)(void *ctx);	/* --help */
	int (*mldsa)(void);	/* --version: whether it does ML-DSA */
	void *ctx;
};

/*
 * Parse argv's options into c and through t's take(); optind is left at
 * the first operand.  An answer above.
 */
int cli_options_parse(int argc, char **argv, const struct ms_cli_tool *t,
		 struct ms_cli *c);

/*
 * The --help lines of the shared options in which (MS_CLI_*), in one
 * wording for every tool; what each means in a tool is in its man page.
 */
void cli_options_help(FILE *f, unsigned which);

#endif
