// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "base/log.h"
#include "kernel/public_key.h"
#include "kernel/verify.h"
#include "report/kernel_arg.h"

static int said(const char *what, const char *name, int ret,
		const struct rules_rules *kr, const char *note)
{
	if (ret == -EINVAL) {
		log_error(strcmp(what, "--kernel") ? what : NULL,
			 "not a kernel version '%s' (use MAJOR.MINOR: the "
			 "lines are %s)", name, rules_line_names());
		return -1;
	}
	if (ret == -ERANGE) {
		/* before 5.10 mod_check_sig(), the PKCS#7 and X.509 parsers
		 * and the keyrings differ in ways no kernel of the stage
		 * confirms: a guessed OK would be worse than none */
		log_error(strcmp(what, "--kernel") ? what : NULL,
			 "kernel %s is older than %s, the oldest kernel this "
			 "tool models: not judged (give --kernel %s or newer "
			 "to judge by those rules)", name, rules_oldest,
			 rules_oldest);
		return -1;
	}
	if (!kr->exact)
		log_warn(strcmp(what, "--kernel") ? what : NULL, "%s %s: %s",
			strcmp(what, "--kernel") ? "kernel" : "--kernel",
			name, note ? note : "not confirmed by a real kernel");
	return 0;
}

int rp_kernel_arg_release(const char *what, const char *name,
			  struct rules_rules *out)
{
	const char *note;
	int ret = rules_resolve(name, out, &note);

	return said(what, name, ret, out, note);
}

int rp_kernel_arg_usage(const char *name, int *usage)
{
	*usage = verify_usage_by_name(name);
	if (*usage >= 0)
		return 0;
	log_error(NULL, "unknown usage '%s' (use module, firmware, "
		 "unspecified, kexec or bpf)", name);
	return -1;
}

int rp_kernel_arg_mldsa_checkable(void)
{
	return pk_mldsa_checkable();
}
