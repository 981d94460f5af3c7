// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: verify-file's whole path on a hostile module — trailer,
 * BER walk, PKCS#7 and X.509 parse, signature checks and trust — against
 * a fixed trusted set (the conformance corpus's trusted.pem) for both
 * kernel lines.  The same bytes are also fed as a detached signature.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernel/keyring.h"
#include "kernel/verify.h"

#ifndef MODSIGN_TOP
#define MODSIGN_TOP "."
#endif

static struct keyring trusted;
static int loaded;

static void load_trusted(void)
{
	const char *top = getenv("MODSIGN_TOP");
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/fixtures/conformance/trusted.pem",
		 top ? top : MODSIGN_TOP);
	if (keyring_add_file(&trusted, path, rules_get(RULES_DEFAULT), NULL) < 0)
		abort();	/* a fuzzer without its trust set fuzzes nothing */
	loaded = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verify_result r;
	struct verify_ctx kv = { .trusted = &trusted };
	static const uint8_t content[] = "modsign fuzz payload";

	if (!loaded)
		load_trusted();
	for (int line = 0; line < RULES_NLINES; line++) {
		kv.kr = rules_get(line);
		r = (struct verify_result){ 0 };
		verify_module(&kv, data, size, VERIFY_USAGE_MODULE, &r);
		verify_result_free(&r);
		r = (struct verify_result){ 0 };
		verify_pkcs7(&kv, content, sizeof(content) - 1, data, size,
				VERIFY_USAGE_FIRMWARE, &r);
		verify_result_free(&r);
	}
	return 0;
}
