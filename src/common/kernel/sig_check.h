/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel/module/signing.c: module_sig_check()'s answer.  mod_verify_sig()
 * gives a verdict (kernel/verify.h, kernel/judge_file.h); the soft ones
 * (unsigned -ENODATA, unknown key -ENOKEY, unsupported crypto -ENOPKG)
 * become -EKEYREJECTED when the kernel enforces (module.sig_enforce=1,
 * MODULE_SIG_FORCE, IMA's architecture policy under Secure Boot), else
 * -EPERM when it is locked down (security_locked_down(
 * LOCKDOWN_MODULE_SIGNATURE)), else the module loads, tainted.  Other
 * usages are as judged: their callers refuse every failure.  A kernel
 * built without CONFIG_MODULES loads no module at all.  The exit code a
 * verdict gives is chosen here too; report/ only prints the answer.
 */
#ifndef MODSIGN_KERNEL_SIG_CHECK_H
#define MODSIGN_KERNEL_SIG_CHECK_H

#include <stdbool.h>

#include "kernel/verify.h"

/* What module_sig_check() is asked under. */
struct sig_check_policy {
	bool enforce;	/* is_module_sig_enforced() */
	bool locked;	/* lockdown at integrity or confidentiality */
	/* CONFIG_MODULES is not set: kernel/sys_ni.c makes finit_module()
	 * (and init_module()) return -ENOSYS, whatever the file */
	bool no_modules;
};

/* A verdict the kernel loads unsigned when neither enforcing nor locked
 * down: -ENODATA, -ENOKEY, -ENOPKG. */
bool sig_check_soft(int err);

/* The errno the user sees for err (module_sig_check()'s). */
int sig_check_errno(const struct sig_check_policy *p, enum verify_usage usage,
		 int err);

/*
 * The verdict that decides: a module judged -ENOEXEC (no valid ELF) after
 * a soft signature outcome is, when enforcing or locked down, stopped at
 * its signature first (the result, in tmp); otherwise r.
 */
const struct verify_result *sig_check_decided(const struct sig_check_policy *p,
				       enum verify_usage usage,
				       const struct verify_result *r,
				       struct verify_result *tmp);

/* Whether the kernel would still load a module whose signature failed
 * with err, tainting itself: a soft failure, neither enforced nor locked
 * down.  Never for other usages: their callers refuse every failure. */
bool sig_check_loads_unsigned(const struct sig_check_policy *p,
			   enum verify_usage usage, int err);

/* module_sig_check()'s answer for one judged file. */
struct sig_check_answer {
	/* no module loads at all (p->no_modules, usage module): the kernel
	 * says -ENOSYS before any signature is looked at */
	bool no_modules;
	const struct verify_result *r;	/* the verdict that decides: the
					 * judged one, tmp, or none */
	int shown;			/* the errno the user sees */
	int exit_code;			/* base/exitcode.h's: a lockdown
					 * refusal or no modules is a
					 * rejection */
	struct verify_result tmp, none;	/* what r may point at: the answer
					 * is not to be copied */
};

/* Fill *a with the answer to r under p. */
void sig_check_judge(const struct sig_check_policy *p, enum verify_usage usage,
		   const struct verify_result *r, struct sig_check_answer *a);

#endif
