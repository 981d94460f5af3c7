/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts of one signer as every tool's JSON gives them: one schema,
 * filled from the CMS (extract-sig, sign-file --json: extract-sig/describe_print.c)
 * and from the kernel model (verify-file: report/verdict.c), so the same
 * signer reads the same in all three.
 *
 *   index                1-based position among the SignerInfos
 *   signer_id            "issuer-and-serial" or "skid"
 *   issuer, serial, skid base/format's spellings, or null
 *   modinfo_signer       kmod modinfo's "signer": the SignerInfo
 *                        issuer's CN (else the value of its last
 *                        attribute); null for a signer identified by
 *                        subjectKeyIdentifier, which modinfo does not show
 *   signer               the old key, kept one release (man pages say
 *                        so): modinfo_signer, else for a skid signer
 *                        the certificate's CN
 *   hash, signature_algorithm, signature_size, signed_attributes
 *   key_type             "RSA-2048", "ECDSA-P384", "ML-DSA-65", or null
 *                        when no certificate for the signer is known
 *   key_description      the key as the kernel names it in its log
 *                        ("<name>: <skid or serial>"), or null
 *   subject              the signer certificate's subject, or null
 *   certificate_subject  the same: the certificate that vouched (for
 *                        verify-file the trusted one), or null
 *   certificate_issuer   who issued that certificate (its issuer), or
 *                        null
 *   certificate          where that certificate came from: a file,
 *                        "embedded", or null
 *   trusted              verify-file: whether a trusted key vouched for
 *                        this signer; extract-sig -c CERT: whether CERT
 *                        alone does (as verify-file -c CERT judges);
 *                        extract-sig without -c: null (not judged)
 *   ml_dsa               added by each tool after these: for an ML-DSA
 *                        signer an object with its parameter_set (and
 *                        in extract-sig what the kernel line needs for
 *                        it), else null
 */
#ifndef MODSIGN_REPORT_SIGNER_FACTS_H
#define MODSIGN_REPORT_SIGNER_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

struct rp_signer_facts {
	int index;
	bool by_skid;
	char issuer[512], serial[80], skid[160], signer[256];
	bool has_issuer, has_serial, has_skid, has_signer;
	char modinfo_signer[256], cert_issuer[512];
	bool has_modinfo_signer, has_cert_issuer;
	const char *hash, *signature_algorithm;
	size_t signature_size;
	bool signed_attributes;
	char key_type[64], key_description[320], subject[512];
	bool has_key, has_subject;
	const char *certificate;
	int trusted;		/* -1 not judged, 0 no, 1 yes */
};

json_object *rp_signer_facts_json(const struct rp_signer_facts *f);

/*
 * json_object_to_json_string_ext's flags for every tool: one line, "/"
 * not escaped, UTF-8 as it is.
 */
#define RP_SIGNER_FACTS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

#endif
