// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>

#include <json-c/json.h>

#include "report/signer_facts.h"
#include "report/summary.h"

void rp_summary_print(FILE *out, size_t files, const struct rp_summary_count *c,
		      size_t nc, int exit_code, bool json)
{
	json_object *j, *n;
	size_t i;

	if (!json) {
		fprintf(out, "summary: %zu files:", files);
		for (i = 0; i < nc; i++)
			if (!c[i].if_any || c[i].n)
				fprintf(out, "%s %zu %s", i ? "," : "",
					c[i].n, c[i].words);
		fputc('\n', out);
		return;
	}
	j = json_object_new_object();
	n = json_object_new_object();
	json_object_object_add(n, "files", json_object_new_int64((int64_t)files));
	for (i = 0; i < nc; i++)
		if (!c[i].if_any || c[i].n)
			json_object_object_add(n, c[i].key,
					       json_object_new_int64(
						       (int64_t)c[i].n));
	json_object_object_add(n, "exit", json_object_new_int(exit_code));
	json_object_object_add(j, "summary", n);
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, RP_SIGNER_FACTS_JSON_FLAGS));
	json_object_put(j);
}
