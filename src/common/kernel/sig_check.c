// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "base/exitcode.h"
#include "kernel/sig_check.h"

bool kv_sig_soft(int err)
{
	return err == -ENODATA || err == -ENOKEY || err == -ENOPKG;
}

int kv_sig_errno(const struct kv_sig_policy *p, enum kv_usage usage,
		 int err)
{
	if (usage != KV_USAGE_MODULE || !kv_sig_soft(err))
		return err;
	if (p->enforce)
		return -EKEYREJECTED;
	return p->locked ? -EPERM : err;
}

const struct kv_result *kv_sig_decided(const struct kv_sig_policy *p,
				       enum kv_usage usage,
				       const struct kv_result *r,
				       struct kv_result *tmp)
{
	/* load_module(): module_sig_check() runs before
	 * elf_validity_check() */
	if (!r->elf_refused || !kv_sig_soft(r->sig_err) ||
	    kv_sig_errno(p, usage, r->sig_err) == r->sig_err)
		return r;
	*tmp = *r;
	tmp->err = r->sig_err;
	tmp->reason = r->sig_reason;
	tmp->elf_refused = 0;
	return tmp;
}

int kv_sig_exit_code(const struct kv_sig_policy *p, enum kv_usage usage,
		     const struct kv_result *r)
{
	struct kv_result tmp;
	int shown = kv_sig_errno(p, usage,
				 kv_sig_decided(p, usage, r, &tmp)->err);

	return shown == -EPERM ? MS_EXIT_REJECTED : exitcode_for_errno(shown);
}
