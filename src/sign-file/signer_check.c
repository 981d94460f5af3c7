// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signature judged before anything is written, by the kernel model
 * verify-file judges with: a CMS made elsewhere (-s, --attach) and an
 * ML-DSA one made here; and the signature made, described for batch --json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/infile.h"
#include "kernel/cert_check.h"
#include "kernel/rules.h"
#include "module/sig_describe.h"
#include "module/trailer.h"
#include "sign-file/kernel_check.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

/*
 * A CMS made elsewhere (-s, --attach) goes through the kernel model
 * verify-file judges with, for the kernel of r->kernel, with the given
 * certificate as the only trusted key: what that kernel would refuse is
 * refused here, with its errno and its reason, before anything is
 * written.
 */
int ms_signer_check_attach(const struct ms_signer *s,
			   const struct ms_signer_req *r, struct ms_signer_failure *fail,
			   const uint8_t *sig, size_t sig_len,
			   const uint8_t *data, size_t len)
{
	const struct rules_rules *kr = r->kernel ? r->kernel
					      : rules_get(RULES_DEFAULT);
	struct ms_kernel_check_verdict v;
	int err;

	err = ms_kernel_check_cms(kr, s->certs, 1, data, len, sig, sig_len,
				  &v);
	if (!err)
		return 0;
	if (err != v.err)	/* -ENOMEM: no verdict */
		return ms_signer_fail(fail, MS_SIGNER_STAGE_RAWSIG, s->raw_path, NULL, err);
	if (v.cert_refused)
		snprintf(fail->text, sizeof(fail->text), "the %s kernel would "
			 "not load the certificate as a key: -%s: %s",
			 rules_label(kr), exitcode_errno_name(err), v.why);
	else if (err == -ENOKEY)
		snprintf(fail->text, sizeof(fail->text), "no signer of the "
			 "CMS is the given certificate (-ENOKEY from the %s "
			 "kernel trusting only it)", rules_label(kr));
	else if (s->raw_is_value && err == -EKEYREJECTED)
		/* the CMS around it is ours: the value is what is wrong */
		snprintf(fail->text, sizeof(fail->text), "the signature "
			 "value does not verify over this file with the "
			 "certificate (-%s from the %s kernel: %s)",
			 exitcode_errno_name(err), rules_label(kr), v.why);
	else
		snprintf(fail->text, sizeof(fail->text), "the %s kernel "
			 "would refuse this signature: -%s: %s%s", rules_label(kr),
			 exitcode_errno_name(err), v.why ? v.why : "rejected",
			 s->raw_is_value ? "" : " (openssl cms -sign makes "
			 "one it accepts with -binary -noattr -nosmimecap "
			 "-nocerts)");
	return ms_signer_fail(fail, MS_SIGNER_STAGE_KERNEL, s->raw_path, fail->text, err);
}

/*
 * Whether a kernel takes an ML-DSA signature depends on more than its
 * key type and digest (signed attributes, the SHA-512 rule that comes
 * with them, the waiver, mixed signers), so the signature made is judged
 * as a whole by the kernel model, with the signers' certificates as the
 * trusted keys, before it is written.  Without a .config the waiver
 * (CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA) cannot be known:
 * kbuild calls sign-file with none, for a kernel that may have it, so it
 * is assumed (the tool warns, ms_kernel_check_mldsa_note).
 */
int ms_signer_check_mldsa(const struct ms_signer *s,
			  const struct ms_signer_req *r, struct ms_signer_failure *fail,
			  const uint8_t *sig, size_t sig_len,
			  const uint8_t *data, size_t len)
{
	const struct rules_rules *kr = r->kernel ? r->kernel
					      : rules_get(RULES_DEFAULT);
	struct rules_rules assumed = *kr;
	struct ms_kernel_check_verdict v;
	int err, mldsa = 0;

	for (int i = 0; i < s->n; i++)
		mldsa |= ms_key_is_mldsa(s->keys[i]);
	if (!mldsa)
		return 0;
	if (!kr->from_config)
		assumed.mldsa_authattr_waiver = true;
	err = ms_kernel_check_cms(&assumed, s->certs, s->n, data, len, sig,
				  sig_len, &v);
	if (!err)
		return 0;
	if (err != v.err)	/* -ENOMEM: no verdict */
		return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGN, r->module, NULL, err);
	snprintf(fail->text, sizeof(fail->text), "the %s kernel would %s: "
		 "-%s: %s%s", rules_label(kr), v.cert_refused ? "not load the "
		 "signer's certificate as a key" : "refuse this ML-DSA "
		 "signature", exitcode_errno_name(err), v.why ? v.why : "rejected",
		 kr->from_config && !kr->mldsa_authattr_waiver &&
		 err == -EKEYREJECTED ? " (ML-DSA signatures made with "
		 "OpenSSL before 4.0 carry signed attributes, which need "
		 "CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y)" : "");
	return ms_signer_fail(fail, MS_SIGNER_STAGE_KERNEL, r->module, fail->text, err);
}

/*
 * The signature just made, described as extract-sig describes one: the
 * signed module (body, CMS, descriptor, magic) described with the first
 * certificate for the key, and judged with it alone as extract-sig -c
 * judges (kernel/cert_check.h).  NULL when it cannot be.
 */
struct ms_signer_made_sig *ms_signer_check_describe(const struct ms_signer *s,
					     const struct ms_signer_req *r,
					     const char *cert_from,
					     const uint8_t *body, size_t body_len,
					     const uint8_t *sig, size_t sig_len)
{
	size_t len = body_len + sig_len + TRAILER_OVERHEAD;
	uint8_t *buf = malloc(len);
	struct ms_signer_made_sig *m = calloc(1, sizeof(*m));

	if (!buf || !m || infile_map_read(buf, body, body_len))
		goto fail;
	memcpy(buf + body_len, sig, sig_len);
	trailer_encode((uint32_t)sig_len, buf + body_len + sig_len);
	if (sig_describe_fill(&m->d, buf, len, s->certs[0], cert_from))
		goto fail;
	if (r->cert_path)
		cert_check_chain(r->cert_path, r->kernel ? r->kernel :
			      rules_get(RULES_DEFAULT), buf, len, &m->d,
			      m->key_description, sizeof(m->key_description));
	free(buf);
	return m;
fail:
	if (m)
		sig_describe_free(&m->d);
	free(m);
	free(buf);
	return NULL;
}
