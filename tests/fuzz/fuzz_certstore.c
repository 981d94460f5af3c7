// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the certificate loader behind -k/-c — PEM bundles, DER
 * and back-to-back DER lists, each certificate through the kernel-strict
 * X.509 parser — on hostile file contents.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/keyring.h"

/*
 * The input reaches the loader as a file, as -k and -c give it: a memfd
 * opened through /proc/self/fd, so that no execution touches a disk.
 * Each input is judged by one kernel line's rules, chosen by its length:
 * mutations that grow or shrink an input visit every line, and an
 * execution costs one parse instead of one per line (the loader's
 * allocations under ASan are most of a run's time).
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	struct keyring cs = { 0 };

	if (fd < 0) {
		fd = memfd_create("modsign-fuzz-cert", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	keyring_add_file(&cs, path, rules_get((int)(size % RULES_NLINES)), NULL);
	keyring_free(&cs);
	return 0;
}
