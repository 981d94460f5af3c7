// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/outfile.h"
#include "sign-file/sign_kconfig.h"

/*
 * --kernel-config: its line stands in for --kernel (a different explicit
 * --kernel is a usage error), and "-" as <hash> means its
 * CONFIG_MODULE_SIG_HASH.  The positional <hash> otherwise stays the
 * user's: a drop-in never second-guesses its arguments, it warns.
 */
int ms_sign_kconfig_load(const char *path, struct kernel_config *kc,
			 const struct rules_rules *asked, const char **hash)
{
	int err, line;

	err = kernel_config_load(path, NULL, kc, &line);
	if (err) {
		char why[256];

		err = kernel_config_load_failure(err, line, kc, why, sizeof(why));
		log_error(path, "%s", why);
		return err;
	}
	/* --kernel settles what the file does not say */
	if (asked)
		kernel_config_settle_line(kc, asked);
	if (kc->too_old || (asked && asked->version != kc->rules.version)) {
		log_error(path, kc->too_old ? "kernel %s is older than %s, the "
			 "oldest kernel this tool models" : "kernel %s is not "
			 "--kernel %s", kc->version, kc->too_old ? rules_oldest :
			 rules_label(asked));
		kernel_config_free(kc);
		return EXITCODE_USAGE;
	}
	if (strcmp(*hash, "-") == 0) {
		if (!kc->sig_hash[0]) {
			log_error(path, "no CONFIG_MODULE_SIG_HASH to take for "
				 "\"-\" (give the hash)");
			kernel_config_free(kc);
			return EXITCODE_USAGE;
		}
		*hash = kc->sig_hash;
	}
	return 0;
}
