// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the certificate loader behind -k/-c — PEM bundles, DER
 * and back-to-back DER lists, each certificate through the kernel-strict
 * X.509 parser — on hostile file contents.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel/keyring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct keyring cs = { 0 };
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/modsign-fuzz-cert.%d",
			 (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	for (int line = 0; line < RULES_NLINES; line++) {
		keyring_add_file(&cs, path, rules_get(line), NULL);
		keyring_free(&cs);
		cs = (struct keyring){ 0 };
	}
	unlink(path);
	return 0;
}
