// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * base/exitcode.*: the one exit-status table and which status wins when
 * one run judges several files.  The numbers and the order are the
 * documented ones (README, every man page's exit-status table and WHICH
 * EXIT STATUS WINS), written here as literals: scripts depend on them, so
 * a renumbering must fail here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/exitcode.h"

/* Most severe first: usage, I/O, key, uncheckable, rejected, malformed,
 * already signed, no key, unsupported crypto, unsigned, OK. */
static const int documented_order[] = { 2, 7, 9, 10, 1, 6, 8, 4, 5, 3, 0 };
#define N_CODES 11

/* The kernel's errno for each verdict, and the status documented for it. */
static void errno_to_status(void **state)
{
	(void)state;
	assert_int_equal(exitcode_for_errno(0), 0);
	assert_int_equal(exitcode_for_errno(-EKEYREJECTED), 1);
	assert_int_equal(exitcode_for_errno(-ENODATA), 3);
	assert_int_equal(exitcode_for_errno(-ENOKEY), 4);
	assert_int_equal(exitcode_for_errno(-ENOPKG), 5);
	assert_int_equal(exitcode_for_errno(-EBADMSG), 6);
	assert_int_equal(exitcode_for_errno(-EINVAL), 6);
	assert_int_equal(exitcode_for_errno(-EMSGSIZE), 6);
	assert_int_equal(exitcode_for_errno(-ENOEXEC), 6);
	/* an algorithm this build's OpenSSL lacks: no kernel verdict */
	assert_int_equal(exitcode_for_errno(-ENOSYS), 10);
	/* anything that is no verdict is a system error, never success */
	assert_int_equal(exitcode_for_errno(-EIO), 7);
	assert_int_equal(exitcode_for_errno(-ENOMEM), 7);
	assert_int_equal(exitcode_for_errno(-ENOENT), 7);
	assert_int_equal(exitcode_for_errno(-ENOSPC), 7);
	assert_int_equal(exitcode_for_errno(-99999), 7);
	assert_int_equal(exitcode_for_errno(1), 7);
}

/* Every pair, both ways round: the one earlier in the order wins. */
static void most_severe_wins(void **state)
{
	(void)state;
	for (int i = 0; i < N_CODES; i++) {
		for (int j = 0; j < N_CODES; j++) {
			int a = documented_order[i], b = documented_order[j];
			int want = i <= j ? a : b;

			assert_int_equal(exitcode_worst(a, b), want);
			assert_int_equal(exitcode_worst(b, a), want);
		}
	}
}

/* The cases that matter to a caller, said plainly. */
static void verdict_priorities(void **state)
{
	(void)state;
	/* one rejected module among accepted ones fails the run */
	assert_int_equal(exitcode_worst(exitcode_worst(0, 1), 0), 1);
	/* a broken run outranks every verdict */
	assert_int_equal(exitcode_worst(1, 7), 7);
	assert_int_equal(exitcode_worst(6, 2), 2);
	/* a hard rejection outranks malformed input and unsigned files */
	assert_int_equal(exitcode_worst(6, 1), 1);
	assert_int_equal(exitcode_worst(3, 1), 1);
	/* unsigned is the softest failure: anything else wins over it */
	for (int c = 1; c <= 10; c++)
		if (c != 3)
			assert_int_equal(exitcode_worst(3, c), c);
	/* a code outside the table (a caller's bug) never hides behind
	 * success */
	assert_int_equal(exitcode_worst(0, 42), 42);
	assert_int_equal(exitcode_worst(42, 0), 42);
	/* folding a whole run gives the same answer in any order */
	{
		static const int run[] = { 0, 3, 5, 0, 6, 4, 3 };
		int fwd = 0, back = 0;

		for (size_t i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
			fwd = exitcode_worst(fwd, run[i]);
			back = exitcode_worst(back, run[sizeof(run) /
						       sizeof(run[0]) - 1 - i]);
		}
		assert_int_equal(fwd, 6);
		assert_int_equal(back, 6);
	}
}

/* The table as --help ends: 11 numbered lines and the order's line. */
static void help_prints_the_table_and_order(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	(void)state;
	assert_non_null(f);
	exitcode_help(f);
	assert_int_equal(fclose(f), 0);
	for (int c = 0; c < N_CODES; c++) {
		char line[16];

		snprintf(line, sizeof(line), "\n  %-3d", c);
		assert_non_null(strstr(text, line));
	}
	assert_null(strstr(text, "\n  11 "));
	assert_non_null(strstr(text, "the most severe code wins, in this order:\n"
			       "  2, 7, 9, 10, 1, 6, 8, 4, 5, 3, 0.\n"));
	free(text);
}

static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(exitcode_errno_name(0), "0");
	assert_string_equal(exitcode_errno_name(-EKEYREJECTED), "EKEYREJECTED");
	assert_string_equal(exitcode_errno_name(-ENODATA), "ENODATA");
	assert_string_equal(exitcode_errno_name(-ENOKEY), "ENOKEY");
	assert_string_equal(exitcode_errno_name(-ENOPKG), "ENOPKG");
	assert_string_equal(exitcode_errno_name(-EBADMSG), "EBADMSG");
	assert_string_equal(exitcode_errno_name(-EPERM), "EPERM");
	/* the kernel says EOPNOTSUPP; on Linux ENOTSUP is the same number */
	assert_string_equal(exitcode_errno_name(-EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(exitcode_errno_name(-4242), "E4242");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(errno_to_status),
		cmocka_unit_test(most_severe_wins),
		cmocka_unit_test(verdict_priorities),
		cmocka_unit_test(help_prints_the_table_and_order),
		cmocka_unit_test(errno_names),
	};

	return cmocka_run_group_tests_name("base/exitcode", tests, NULL, NULL);
}
