// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * base/cli_options.*: the options the three tools share, read by one
 * getopt_long loop with a tool's own.  A made-up tool takes some of the
 * shared options (some by letter too) and two of its own; each case is a
 * command line and what the tool must be told.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/cli_options.h"

enum { OPT_FROB = CLI_OPTIONS_CODE_OWN, OPT_STOP_HERE };

/* What the tool heard. */
struct heard {
	int codes[16];
	const char *args[16];
	int n;
	int helped;
	int answer;	/* what take() answers to OPT_STOP_HERE */
};

static int take(void *ctx, int code)
{
	struct heard *h = ctx;

	if (h->n < 16) {
		h->codes[h->n] = code;
		h->args[h->n++] = optarg;
	}
	return code == OPT_STOP_HERE ? h->answer : CLI_OPTIONS_GO;
}

static void help(void *ctx)
{
	((struct heard *)ctx)->helped++;
}

static int no_mldsa(void)
{
	return 0;
}

static const struct option own_long[] = {
	{ "frob", required_argument, NULL, OPT_FROB },
	{ "stop-here", no_argument, NULL, OPT_STOP_HERE },
	{ "xylo", no_argument, NULL, 'x' },
	{ 0 },
};

/* A tool taking -j, -r, -q, -v, -0 and -h by letter and by name, --json
 * and --files-from by name only (--kernel not at all), and -x, --frob
 * and --stop-here of its own; it hears of -q too. */
static struct cli_options_tool tool(struct heard *h)
{
	return (struct cli_options_tool){
		.name = "unit-tool",
		.takes = CLI_OPTIONS_JOBS | CLI_OPTIONS_RECURSIVE | CLI_OPTIONS_QUIET |
			 CLI_OPTIONS_VERBOSE | CLI_OPTIONS_JSON | CLI_OPTIONS_FILES_FROM |
			 CLI_OPTIONS_NULL | CLI_OPTIONS_HELP,
		.letters = CLI_OPTIONS_JOBS | CLI_OPTIONS_RECURSIVE | CLI_OPTIONS_QUIET |
			   CLI_OPTIONS_VERBOSE | CLI_OPTIONS_NULL | CLI_OPTIONS_HELP,
		.tell = CLI_OPTIONS_QUIET,
		.short_opts = "x",
		.long_opts = own_long,
		.take = take,
		.help = help,
		.mldsa = no_mldsa,
		.ctx = h,
	};
}

/* Parse the NULL-ended words as argv (argv[0] first). */
static int parse(const struct cli_options_tool *t, struct cli_options *c, char **words)
{
	int argc = 0;

	while (words[argc])
		argc++;
	memset(c, 0, sizeof(*c));
	optind = 0;	/* glibc: start afresh */
	opterr = 0;	/* the usage messages are not under test here */
	return cli_options_parse(argc, words, t, c);
}

static void shared_options_fill_the_struct(void **state)
{
	char *argv[] = { "t", "-j", "4", "-v", "--verbose", "--json", "-0",
			 "--files-from", "list", "-r", "dir", "a.ko", "b.ko", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
	assert_int_equal(c.jobs, 4);
	assert_int_equal(c.verbose, 2);
	assert_int_equal(c.json, 1);
	assert_int_equal(c.nul, 1);
	assert_int_equal(c.quiet, 0);
	assert_string_equal(c.from, "list");
	assert_string_equal(c.walk, "dir");
	assert_null(c.kernel);
	/* the first operand */
	assert_int_equal(optind, 11);
	assert_string_equal(argv[optind], "a.ko");
	/* nothing of the tool's own */
	assert_int_equal(h.n, 0);
}

/* The tool's own options reach take(), with their argument; a shared
 * option in tell reaches it once stored. */
static void own_options_reach_the_tool(void **state)
{
	char *argv[] = { "t", "-x", "--frob=7", "-q", "--xylo", "m.ko", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
	assert_int_equal(h.n, 4);
	assert_int_equal(h.codes[0], 'x');
	assert_int_equal(h.codes[1], OPT_FROB);
	assert_string_equal(h.args[1], "7");
	assert_int_equal(h.codes[2], 'q');
	assert_int_equal(h.codes[3], 'x');
	assert_int_equal(c.quiet, 1);
	assert_string_equal(argv[optind], "m.ko");
}

/* A tool's own answer stops the parse and comes back unchanged. */
static void own_answer_is_handed_back(void **state)
{
	char *argv[] = { "t", "--stop-here", "-v", NULL };
	struct heard h = { .answer = 42 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), 42);
	/* nothing after it was read */
	assert_int_equal(c.verbose, 0);
}

/* -j takes 1 to 256 workers, nothing else. */
static void jobs_bounds(void **state)
{
	static const char *const bad[] = { "0", "-1", "257", "abc", "4x", "",
					   "99999999999999999999", "0x10" };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "t", "-j", (char *)bad[i], NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
	}
	{
		char *argv[] = { "t", "--jobs", "256", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
		assert_int_equal(c.jobs, 256);
	}
	{
		char *argv[] = { "t", "-j1", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
		assert_int_equal(c.jobs, 1);
	}
}

/* One tree per run: -r twice is a usage error, not "last one wins". */
static void recursive_twice(void **state)
{
	char *argv[] = { "t", "-r", "a", "--recursive", "b", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
}

/* A shared option the tool does not take is unknown to it; a letter it
 * takes only by name is unknown as a letter. */
static void options_not_taken(void **state)
{
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	{
		char *argv[] = { "t", "--kernel", "6.1", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
	}
	t.letters &= ~CLI_OPTIONS_JOBS;
	{
		char *argv[] = { "t", "-j", "2", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
	}
	{
		char *argv[] = { "t", "--jobs", "2", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
		assert_int_equal(c.jobs, 2);
	}
	{
		char *argv[] = { "t", "-Z", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
	}
	{
		/* a missing argument */
		char *argv[] = { "t", "--frob", NULL };

		assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
	}
}

/* "--" ends the options: what follows is an operand, even "-v". */
static void double_dash_ends_options(void **state)
{
	char *argv[] = { "t", "-q", "--", "-v", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_GO);
	assert_int_equal(c.verbose, 0);
	assert_string_equal(argv[optind], "-v");
}

/* --help: the tool's help, then stop successfully. */
static void help_stops(void **state)
{
	char *argv[] = { "t", "-v", "--help", "-j", "0", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_STOP);
	assert_int_equal(h.helped, 1);
}

/* More options than the parser has room for: a usage error, no overflow. */
static void too_many_letters(void **state)
{
	char letters[80];
	char *argv[] = { "t", NULL };
	struct heard h = { .n = 0 };
	struct cli_options_tool t = tool(&h);
	struct cli_options c;

	(void)state;
	memset(letters, 'a', sizeof(letters) - 1);
	letters[sizeof(letters) - 1] = '\0';
	t.short_opts = letters;
	assert_int_equal(parse(&t, &c, argv), CLI_OPTIONS_USAGE);
}

/* The help lines of the options asked for, one a line, in the table's
 * order, each starting with its spelling. */
static void help_lines(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	char *second;

	(void)state;
	assert_non_null(f);
	cli_options_help(f, CLI_OPTIONS_HELP | CLI_OPTIONS_QUIET);
	assert_int_equal(fclose(f), 0);
	assert_true(strncmp(text, "  -q, --quiet ", 14) == 0);
	second = strchr(text, '\n');
	assert_non_null(second);
	assert_true(strncmp(second + 1, "  -h, --help ", 13) == 0);
	assert_non_null(strchr(second + 1, '\n'));
	assert_string_equal(strchr(second + 1, '\n'), "\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_options_fill_the_struct),
		cmocka_unit_test(own_options_reach_the_tool),
		cmocka_unit_test(own_answer_is_handed_back),
		cmocka_unit_test(jobs_bounds),
		cmocka_unit_test(recursive_twice),
		cmocka_unit_test(options_not_taken),
		cmocka_unit_test(double_dash_ends_options),
		cmocka_unit_test(help_stops),
		cmocka_unit_test(too_many_letters),
		cmocka_unit_test(help_lines),
	};

	return cmocka_run_group_tests_name("base/cli_options", tests, NULL, NULL);
}
