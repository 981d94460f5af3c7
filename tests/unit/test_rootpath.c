// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trust/rootpath.*: a path of another machine mounted at a root (verify-file
 * --sysroot) resolves inside that root, as openat2(2) RESOLVE_IN_ROOT
 * resolves it: ".." stops at the root, an absolute link target starts
 * again at the root, and more than 40 links (fs/namei.c, MAXSYMLINKS) is
 * -ELOOP.  Each case builds a small tree in a fresh directory and names
 * the host path it must come to; escapes aim at a file outside the root
 * that the answer must never name.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "trust/rootpath.h"

/* top/ holds root/ (the machine) and outside/secret (the host's). */
struct tree {
	char top[200];
	char root[256];
};

static void path_of(char *out, const struct tree *t, const char *rel)
{
	snprintf(out, PATH_MAX, "%s/%s", t->root, rel);
}

static void mkdir_in(const struct tree *t, const char *rel)
{
	char p[PATH_MAX];

	path_of(p, t, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void link_in(const struct tree *t, const char *rel, const char *target)
{
	char p[PATH_MAX];

	path_of(p, t, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void file_in(const struct tree *t, const char *rel)
{
	char p[PATH_MAX];
	FILE *f;

	path_of(p, t, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	const char *tmp = getenv("TMPDIR");
	char p[PATH_MAX];
	FILE *f;

	if (!t)
		return -1;
	if ((size_t)snprintf(t->top, sizeof(t->top), "%s/rootpath.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") >= sizeof(t->top) ||
	    !mkdtemp(t->top))
		return -1;
	snprintf(t->root, sizeof(t->root), "%s/root", t->top);
	snprintf(p, sizeof(p), "%s/outside", t->top);
	if (mkdir(t->root, 0755) || mkdir(p, 0755))
		return -1;
	snprintf(p, sizeof(p), "%s/outside/secret", t->top);
	f = fopen(p, "w");
	if (!f || fclose(f))
		return -1;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[sizeof(t->top) + 16];
	int ret;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	ret = system(cmd);
	free(t);
	return ret == 0 ? 0 : -1;
}

/* rootpath_resolve(root, path) must give root + want. */
static void expect(const struct tree *t, const char *path, const char *want)
{
	char full[PATH_MAX];
	char *out = NULL;

	snprintf(full, sizeof(full), "%s%s", t->root, want);
	assert_int_equal(rootpath_resolve(t->root, path, &out), 0);
	assert_non_null(out);
	assert_string_equal(out, full);
	free(out);
}

static void expect_err(const struct tree *t, const char *path, int err)
{
	char *out = (char *)"untouched";

	assert_int_equal(rootpath_resolve(t->root, path, &out), err);
	assert_null(out);
}

static void plain_paths(void **state)
{
	struct tree *t = *state;

	mkdir_in(t, "lib");
	mkdir_in(t, "lib/modules");
	file_in(t, "lib/modules/m.ko");
	expect(t, "/lib/modules/m.ko", "/lib/modules/m.ko");
	expect(t, "//lib/./modules//m.ko", "/lib/modules/m.ko");
	expect(t, "/lib/modules/../modules/m.ko", "/lib/modules/m.ko");
	/* the root itself */
	expect(t, "/", "/.");
	/* a missing component: the rest as written, for open() to fail on */
	expect(t, "/lib/none/x/../y", "/lib/none/x/../y");
}

/* A root given with trailing slashes is the same root. */
static void root_with_trailing_slashes(void **state)
{
	struct tree *t = *state;
	char root[PATH_MAX + 4], want[PATH_MAX];
	char *out = NULL;

	mkdir_in(t, "etc");
	snprintf(root, sizeof(root), "%s///", t->root);
	snprintf(want, sizeof(want), "%s/etc", t->root);
	assert_int_equal(rootpath_resolve(root, "/etc", &out), 0);
	assert_string_equal(out, want);
	free(out);
}

/* ".." never climbs above the root, however many. */
static void dotdot_stops_at_the_root(void **state)
{
	struct tree *t = *state;

	mkdir_in(t, "etc");
	expect(t, "/../outside/secret", "/outside/secret");
	expect(t, "/../../../../../../outside/secret", "/outside/secret");
	expect(t, "/etc/../../../outside/secret", "/outside/secret");
	expect(t, "..", "/.");
}

/* A link to an absolute target is taken from the root, not the host. */
static void absolute_link_stays_inside(void **state)
{
	struct tree *t = *state;
	char host[PATH_MAX], want[PATH_MAX + 8];

	/* the target exists on the host too, and must not be reached */
	snprintf(host, sizeof(host), "%s/outside", t->top);
	snprintf(want, sizeof(want), "%s/secret", host);
	link_in(t, "escape", host);
	expect(t, "/escape/secret", want);
	/* Debian's build link, within the machine */
	mkdir_in(t, "usr");
	mkdir_in(t, "usr/src");
	mkdir_in(t, "usr/src/headers");
	mkdir_in(t, "lib");
	link_in(t, "lib/build", "/usr/src/headers");
	expect(t, "/lib/build/Makefile", "/usr/src/headers/Makefile");
}

/* A relative link climbing out with ".." stops at the root too. */
static void relative_link_stays_inside(void **state)
{
	struct tree *t = *state;

	mkdir_in(t, "a");
	mkdir_in(t, "a/b");
	link_in(t, "a/b/up", "../../../../../outside");
	expect(t, "/a/b/up/secret", "/outside/secret");
	/* ".." after a link goes up from where the link led (the kernel's
	 * physical walk), not back to where the link was */
	mkdir_in(t, "c");
	mkdir_in(t, "c/d");
	link_in(t, "a/tod", "/c/d");
	expect(t, "/a/tod/../x", "/c/x");
}

/* Links to links: 40 are followed, the 41st is -ELOOP, as in the kernel. */
static void link_chain_limit(void **state)
{
	struct tree *t = *state;
	char name[32], target[32];

	file_in(t, "end");
	/* l1 -> l2 -> ... -> l40 -> end: 40 links */
	for (int i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), "l%d", i);
		if (i == 40)
			snprintf(target, sizeof(target), "end");
		else
			snprintf(target, sizeof(target), "l%d", i + 1);
		link_in(t, name, target);
	}
	expect(t, "/l1", "/end");
	/* one more in front: 41 */
	link_in(t, "l0", "l1");
	expect_err(t, "/l0", -ELOOP);
}

/* Loops end in -ELOOP, never in a hang or a stack overflow. */
static void symlink_loops(void **state)
{
	struct tree *t = *state;

	link_in(t, "self", "self");
	expect_err(t, "/self", -ELOOP);
	link_in(t, "ping", "/pong");
	link_in(t, "pong", "ping");
	expect_err(t, "/ping/x", -ELOOP);
	/* a directory link back to its parent, through ".." */
	mkdir_in(t, "d");
	link_in(t, "d/back", "../d/back");
	expect_err(t, "/d/back", -ELOOP);
	/* a loop through a link to the root itself is a loop too */
	link_in(t, "top", "/top/top");
	expect_err(t, "/top", -ELOOP);
}

/* A name longer than PATH_MAX is refused, not cut. */
static void too_long(void **state)
{
	struct tree *t = *state;
	size_t n = PATH_MAX + 100;
	char *path = malloc(n + 1);

	for (size_t i = 0; i < n; i += 2)
		path[i] = '/', path[i + 1] = 'x';
	path[n] = '\0';
	expect_err(t, path, -ENAMETOOLONG);
	free(path);
}

/* The host's root: the path as given. */
static void host_root(void **state)
{
	char *out = NULL;

	(void)state;
	assert_true(rootpath_is_host(NULL));
	assert_true(rootpath_is_host(""));
	assert_true(rootpath_is_host("/"));
	assert_false(rootpath_is_host("/mnt"));
	assert_int_equal(rootpath_resolve("/", "/a/../b", &out), 0);
	assert_string_equal(out, "/a/../b");
	free(out);
	assert_int_equal(rootpath_resolve(NULL, "rel", &out), 0);
	assert_string_equal(out, "rel");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(plain_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(root_with_trailing_slashes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(dotdot_stops_at_the_root, setup,
						teardown),
		cmocka_unit_test_setup_teardown(absolute_link_stays_inside, setup,
						teardown),
		cmocka_unit_test_setup_teardown(relative_link_stays_inside, setup,
						teardown),
		cmocka_unit_test_setup_teardown(link_chain_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(symlink_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(too_long, setup, teardown),
		cmocka_unit_test(host_root),
	};

	return cmocka_run_group_tests_name("trust/rootpath", tests, NULL, NULL);
}
