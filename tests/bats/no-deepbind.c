// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test support, preloaded only into an ASan build's runs that go through
 * pkcs11-provider (sign-file-pkcs11.bats): Debian's pkcs11-provider
 * dlopen()s its PKCS#11 module with RTLD_DEEPBIND, and the sanitizer
 * runtime kills any process that asks for that flag (google/sanitizers
 * issue 611).  pkcs11-provider's own ASan builds drop the flag the same
 * way; nothing else about the load changes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int flags)
{
	static void *(*next)(const char *, int);

	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "dlopen");
	return next(file, flags & ~RTLD_DEEPBIND);
}
