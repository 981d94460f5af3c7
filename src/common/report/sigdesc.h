/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A signature description (module/sig_describe.h) as the tools print it:
 * extract-sig's text and JSON object, and the "signers" array sign-file
 * --json gives for a signature it made.  The signers go through
 * report/signer_facts.h, as verify-file's do, so the same signer reads
 * the same in every tool.
 */
#ifndef MODSIGN_REPORT_SIGDESC_H
#define MODSIGN_REPORT_SIGDESC_H

#include <stdio.h>

#include <json-c/json.h>

#include "module/sig_describe.h"

/* Human-readable description on out. */
void rp_sigdesc_print(FILE *out, const struct sig_describe *d,
		      const char *file);
/* The same as one JSON object. */
json_object *rp_sigdesc_json(const struct sig_describe *d, const char *file);
/* Its "signers" array alone. */
json_object *rp_sigdesc_signers_json(const struct sig_describe *d);

#endif
