/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What verify-file says while it fills its keyrings (trust/keyrings.h):
 * each source's counts and what was left out, a .config's and an
 * image's rules, --machine's parts and keyring model, the certificates
 * --secondary refused, a step that failed; and the keyrings as
 * --list-keys prints them.  Diagnostics go to stderr (base/log.h).
 */
#ifndef MODSIGN_VERIFY_FILE_LOAD_REPORT_H
#define MODSIGN_VERIFY_FILE_LOAD_REPORT_H

#include <stdio.h>

#include "trust/keyrings.h"

/* The words for keyrings_load(). */
extern const struct keyrings_words ms_load_report_words;

/* The one line for a step that failed (keyrings_machine(), keyrings_load()). */
void ms_load_report_say_failure(const struct keyrings_failure *f);

/* --machine settled: what was missing, a pending MOK enrolment, and
 * (-v) which image, config and state it is judged by.  root is the
 * --sysroot, or NULL for this machine. */
void ms_load_report_say_machine(const char *root, const struct machine *m,
				const struct machine_parts_notes *notes);

/* --list-keys: every key as the kernel logs it, then the counts. */
void ms_load_report_list_keys(FILE *out, const struct keyrings *k);

#endif
