// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared options: one table (spelling, argument, code, help line),
 * merged with a tool's own options into one getopt_long call.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/batch_run.h"
#include "base/cli_options.h"
#include "base/log.h"
#include "base/openssl_init.h"

static const struct shared {
	unsigned bit;
	struct option opt;	/* .val: the letter, or an CLI_OPTIONS_CODE_* code */
	const char *help;	/* its --help line */
} shared[] = {
	{ CLI_OPTIONS_RECURSIVE, { "recursive", required_argument, NULL, 'r' },
	  "  -r, --recursive DIR   every *.ko, *.ko.gz, *.ko.xz and *.ko.zst "
	  "under DIR" },
	{ CLI_OPTIONS_FILES_FROM, { "files-from", required_argument, NULL,
			       CLI_OPTIONS_CODE_FILES_FROM },
	  "      --files-from LIST  read more file names from LIST (- is "
	  "standard input)" },
	{ CLI_OPTIONS_NULL, { "null", no_argument, NULL, '0' },
	  "  -0, --null            names in LIST end with NUL, not newline" },
	{ CLI_OPTIONS_JOBS, { "jobs", required_argument, NULL, 'j' },
	  "  -j, --jobs N          workers for many files (default: the "
	  "online CPUs)" },
	{ CLI_OPTIONS_KERNEL, { "kernel", required_argument, NULL, CLI_OPTIONS_CODE_KERNEL },
	  "      --kernel VERSION  by the rules of that kernel release (5.10 "
	  "on)" },
	{ CLI_OPTIONS_KERNEL_CONFIG, { "kernel-config", required_argument, NULL,
				  CLI_OPTIONS_CODE_KERNEL_CONFIG },
	  "      --kernel-config FILE  by the kernel built from this .config" },
	{ CLI_OPTIONS_JSON, { "json", no_argument, NULL, CLI_OPTIONS_CODE_JSON },
	  "      --json            one JSON object per file (and a summary), "
	  "not text" },
	{ CLI_OPTIONS_QUIET, { "quiet", no_argument, NULL, 'q' },
	  "  -q, --quiet           print no verdicts; failures still go to "
	  "stderr" },
	{ CLI_OPTIONS_VERBOSE, { "verbose", no_argument, NULL, 'v' },
	  "  -v, --verbose         say more: what was done, OpenSSL's error "
	  "details" },
	{ CLI_OPTIONS_HELP, { "help", no_argument, NULL, 'h' },
	  "  -h, --help            show this help and exit" },
	{ CLI_OPTIONS_VERSION, { "version", no_argument, NULL, 'V' },
	  "  -V, --version         show the version, OpenSSL and ML-DSA "
	  "support, and exit" },
};

#define N_SHARED (sizeof(shared) / sizeof(shared[0]))

void cli_options_help(FILE *f, unsigned which)
{
	for (size_t i = 0; i < N_SHARED; i++)
		if (which & shared[i].bit)
			fprintf(f, "%s\n", shared[i].help);
}

/* Room for a tool's options and the shared ones: more is a tool's bug. */
#define MAX_LONG 64
#define MAX_SHORT 64

/* The tool's options and the shared ones it takes, as getopt_long wants
 * them: 0, or -E2BIG when they do not fit. */
static int merge(const struct cli_options_tool *t, char so[MAX_SHORT],
		 struct option lo[MAX_LONG])
{
	size_t ns = strlen(t->short_opts), nl = 0;

	if (ns >= MAX_SHORT - 2 * N_SHARED)
		return -E2BIG;
	memcpy(so, t->short_opts, ns);
	for (size_t i = 0; t->long_opts && t->long_opts[i].name; i++) {
		if (nl >= MAX_LONG - N_SHARED - 1)
			return -E2BIG;
		lo[nl++] = t->long_opts[i];
	}
	for (size_t i = 0; i < N_SHARED; i++) {
		const struct option *o = &shared[i].opt;

		if (!(t->takes & shared[i].bit))
			continue;
		lo[nl++] = *o;
		if (o->val < CLI_OPTIONS_CODE_LONG && (t->letters & shared[i].bit)) {
			so[ns++] = (char)o->val;
			if (o->has_arg == required_argument)
				so[ns++] = ':';
		}
	}
	so[ns] = '\0';
	lo[nl] = (struct option){ 0 };
	return 0;
}

/* A shared option into c: an answer. */
static int take_shared(const struct cli_options_tool *t, struct cli_options *c,
		       int code)
{
	switch (code) {
	case 'j':
		if (batch_run_jobs_parse(optarg, &c->jobs)) {
			log_error(NULL, "-j needs a number of workers from 1 to "
				 "%d", BATCH_RUN_JOBS_MAX);
			return CLI_OPTIONS_USAGE;
		}
		return CLI_OPTIONS_GO;
	case 'r':
		if (c->walk) {
			log_error(NULL, "-r given twice (walk one tree per run)");
			return CLI_OPTIONS_USAGE;
		}
		c->walk = optarg;
		return CLI_OPTIONS_GO;
	case '0': c->nul = 1; return CLI_OPTIONS_GO;
	case 'q': c->quiet = 1; return CLI_OPTIONS_GO;
	case 'v': c->verbose++; return CLI_OPTIONS_GO;
	case CLI_OPTIONS_CODE_FILES_FROM: c->from = optarg; return CLI_OPTIONS_GO;
	case CLI_OPTIONS_CODE_KERNEL: c->kernel = optarg; return CLI_OPTIONS_GO;
	case CLI_OPTIONS_CODE_KERNEL_CONFIG: c->kconfig = optarg; return CLI_OPTIONS_GO;
	case CLI_OPTIONS_CODE_JSON: c->json = 1; return CLI_OPTIONS_GO;
	case 'h':
		t->help(t->ctx);
		return CLI_OPTIONS_STOP;
	case 'V':
		openssl_init_print_version(t->name, t->mldsa());
		return CLI_OPTIONS_STOP;
	default:
		return CLI_OPTIONS_USAGE;
	}
}

/* The shared option of code, or NULL for one of the tool's own. */
static const struct shared *find_shared(const struct cli_options_tool *t,
					int code)
{
	for (size_t i = 0; i < N_SHARED; i++)
		if (shared[i].opt.val == code && (t->takes & shared[i].bit))
			return &shared[i];
	return NULL;
}

int cli_options_parse(int argc, char **argv, const struct cli_options_tool *t,
		 struct cli_options *c)
{
	const struct shared *s;
	struct option lo[MAX_LONG];
	char so[MAX_SHORT];
	int code, ret = CLI_OPTIONS_GO;

	if (merge(t, so, lo)) {
		log_error(NULL, "%s: more options than base/cli_options.c has "
			 "room for", t->name);
		return CLI_OPTIONS_USAGE;
	}
	while (ret == CLI_OPTIONS_GO &&
	       (code = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (code == '?') {
			/* getopt has said what is wrong */
			ret = CLI_OPTIONS_USAGE;
		} else if ((s = find_shared(t, code))) {
			ret = take_shared(t, c, code);
			if (ret == CLI_OPTIONS_GO && (t->tell & s->bit))
				ret = t->take(t->ctx, code);
		} else {
			ret = t->take(t->ctx, code);
		}
	}
	return ret;
}
