// SPDX-License-Identifier: GPL-2.0-or-later
#include <openssl/err.h>

#include "base/log.h"

/* Drain OpenSSL's error queue: printed indented under -v, dropped
 * otherwise, so that one failure's detail never trails a later line. */
static void openssl_detail(FILE *out, int verbose)
{
	unsigned long e;
	char buf[256];

	while ((e = ERR_get_error()) != 0) {
		if (!verbose)
			continue;
		ERR_error_string_n(e, buf, sizeof(buf));
		fprintf(out, "    openssl: %s\n", buf);
	}
}

void log_init(const char *argv0)
{
	log_init_plain(argv0);
	log_detail(openssl_detail);
}
