/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify-file --machine: for a module this machine's kernel would refuse
 * or load tainted, the fix that works there, derived from what the model
 * already knows (the keyring model, the machine's MOK variables, db and
 * MokNew, and the signing keys a distribution leaves in its usual
 * places).  A fix is only given when the model shows it works: each
 * candidate is checked by judging the module again as the kernel would
 * after the fix (the signer's certificate enrolled, Secure Boot on,
 * MokListTrustedRT set).  No fix is better than a wrong one.
 *
 *   kind                   when
 *   sign                   never signed
 *   changed-after-signing  the signature no longer matches the module, or
 *                          the trailer follows the compressed stream
 *   unsupported-algorithm  a hash or key type the kernel lacks
 *   revoked                the signer is in dbx, MokListXRT or the
 *                          blacklist
 *   enrolment-pending      MokNew holds the signer: reboot and confirm
 *   other-local-key        signed by one local key, another is enrolled
 *   enrol-mok              the signer's certificate found, not enrolled
 *   secure-boot-off        an enrolled MOK key ignored: Secure Boot off
 *   trust-mok              MOK filed in .platform, which modules never
 *                          consult: mokutil --trust-mok
 *   db-key                 a UEFI db key, which never vouches for modules
 *                          on this kernel
 *   no-mok-kernel          this kernel never loads MOK
 */
#ifndef MODSIGN_VERIFY_FILE_FIX_H
#define MODSIGN_VERIFY_FILE_FIX_H

#include <stdio.h>

#include <json-c/json.h>

#include "kernel/judge_file.h"
#include "kernel/sig_check.h"
#include "trust/keyrings.h"

/* What a run's fixes are found from, read once before the files are
 * judged; read-only afterwards (the workers share it). */
struct ms_fix_ctx;

/* One module's fix. */
struct ms_fix {
	const char *kind;	/* NULL: no fix known */
	char command[1024];	/* "" when there is no command */
	char why[1024];
};

/*
 * The context of a --machine run: t and k as settled by keyrings_load(),
 * kv the judging context the run uses.  *out is NULL without --machine.
 * 0 or -ENOMEM; ms_fix_free in every case.
 */
int ms_fix_prepare(const struct keyrings_setup *t, const struct keyrings *k,
		   const struct verify_ctx *kv, struct ms_fix_ctx **out);
void ms_fix_free(struct ms_fix_ctx *c);

/* The fix for file judged j, with module_sig_check()'s answer a; false
 * (f->kind NULL) when the verdict is clean or no fix is known. */
bool ms_fix_find(const struct ms_fix_ctx *c, const char *file,
		 const struct judge_file_judgement *j,
		 const struct sig_check_answer *a, struct ms_fix *f);

/* "  fix (KIND): WHY: COMMAND", the line after the verdict's. */
void ms_fix_text(FILE *out, const struct ms_fix *f);
/* "fix": {"kind", "command" (null when none), "why"} into o. */
void ms_fix_json(json_object *o, const struct ms_fix *f);

#endif
