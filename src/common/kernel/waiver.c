// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/waiver.h"

void waiver_describe(const struct kr_rules *kr, struct ms_sigdesc *d)
{
	int n = d->n_signers < MS_MAX_SIGNERS ? d->n_signers : MS_MAX_SIGNERS;
	/* pkcs7_check_authattrs(): the first signer decides */
	int waivable = n > 0 && (!d->s[0].signed_attrs || d->s[0].mldsa);

	d->kernel = kr_label(kr);
	for (int i = 0; i < n; i++) {
		struct ms_signer_desc *s = &d->s[i];

		if (!s->mldsa)
			continue;
		/* pkcs7_sig_note_pkey_algo(): lines before 7.0 know no
		 * ML-DSA OID */
		if (!kr_sinfo_algo(kr, s->sig_oid))
			s->waiver = MS_WAIVER_NO_MLDSA;
		else if (!s->signed_attrs)
			s->waiver = MS_WAIVER_NOT_NEEDED;
		else
			s->waiver = waivable ? MS_WAIVER_NEEDED
					     : MS_WAIVER_NOT_WAIVABLE;
	}
}
