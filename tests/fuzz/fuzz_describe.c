// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: extract-sig's describe path — trailer split, CMS
 * description, its text and JSON and the modinfo emulation — on hostile
 * files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "extract-sig/modinfo.h"
#include "module/sig_describe.h"
#include "report/sigdesc.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sig_describe d;
	json_object *o;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (sig_describe_fill(&d, data, size, NULL, NULL) == 0) {
		rp_sigdesc_print(sink, &d, "fuzz");
		o = rp_sigdesc_json(&d, "fuzz");
		fputs(json_object_to_json_string(o), sink);
		json_object_put(o);
	}
	sig_describe_free(&d);
	modinfo_print(sink, data, size, NULL);
	return 0;
}
