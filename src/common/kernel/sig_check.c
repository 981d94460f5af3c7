// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "base/exitcode.h"
#include "kernel/sig_check.h"

bool sig_check_soft(int err)
{
	return err == -ENODATA || err == -ENOKEY || err == -ENOPKG;
}

int sig_check_errno(const struct sig_check_policy *p, enum verify_usage usage,
		 int err)
{
	if (usage != VERIFY_USAGE_MODULE || !sig_check_soft(err))
		return err;
	if (p->enforce)
		return -EKEYREJECTED;
	return p->locked ? -EPERM : err;
}

const struct verify_result *sig_check_decided(const struct sig_check_policy *p,
				       enum verify_usage usage,
				       const struct verify_result *r,
				       struct verify_result *tmp)
{
	/* load_module(): module_sig_check() runs before
	 * elf_validity_check() */
	if (!r->elf_refused || !sig_check_soft(r->sig_err) ||
	    sig_check_errno(p, usage, r->sig_err) == r->sig_err)
		return r;
	*tmp = *r;
	tmp->err = r->sig_err;
	tmp->reason = r->sig_reason;
	tmp->elf_refused = 0;
	return tmp;
}

bool sig_check_loads_unsigned(const struct sig_check_policy *p,
			   enum verify_usage usage, int err)
{
	return usage == VERIFY_USAGE_MODULE && sig_check_soft(err) && !p->enforce &&
	       !p->locked;
}

void sig_check_judge(const struct sig_check_policy *p, enum verify_usage usage,
		   const struct verify_result *r, struct sig_check_answer *a)
{
	*a = (struct sig_check_answer){ 0 };
	if (usage == VERIFY_USAGE_MODULE && p->no_modules) {
		/* not a verify_result errno: there -ENOSYS is EXITCODE_ENOALG */
		a->no_modules = true;
		a->r = &a->none;
		a->shown = -ENOSYS;
		a->exit_code = EXITCODE_REJECTED;
		return;
	}
	a->r = sig_check_decided(p, usage, r, &a->tmp);
	a->shown = sig_check_errno(p, usage, a->r->err);
	a->exit_code = a->shown == -EPERM ? EXITCODE_REJECTED :
		       exitcode_for_errno(a->shown);
}
