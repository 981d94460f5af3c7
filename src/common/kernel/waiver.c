// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/waiver.h"

void waiver_describe(const struct rules_rules *kr, struct sig_describe *d)
{
	int n = d->n_signers < SIG_DESCRIBE_MAX_SIGNERS ? d->n_signers : SIG_DESCRIBE_MAX_SIGNERS;
	/* pkcs7_check_authattrs(): the first signer decides */
	int waivable = n > 0 && (!d->s[0].signed_attrs || d->s[0].mldsa);

	d->kernel = rules_label(kr);
	for (int i = 0; i < n; i++) {
		struct sig_describe_signer *s = &d->s[i];

		if (!s->mldsa)
			continue;
		/* pkcs7_sig_note_pkey_algo(): lines before 7.0 know no
		 * ML-DSA OID */
		if (!rules_sinfo_algo(kr, s->sig_oid))
			s->waiver = SIG_DESCRIBE_WAIVER_NO_MLDSA;
		else if (!s->signed_attrs)
			s->waiver = SIG_DESCRIBE_WAIVER_NOT_NEEDED;
		else
			s->waiver = waivable ? SIG_DESCRIBE_WAIVER_NEEDED
					     : SIG_DESCRIBE_WAIVER_NOT_WAIVABLE;
	}
}
