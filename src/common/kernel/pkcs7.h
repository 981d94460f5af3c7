/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PKCS#7 / CMS SignedData as the kernel's pkcs7_parser.c reads it
 * (crypto/asymmetric_keys/pkcs7_parser.c): versions, SignerInfo pairing, data
 * types,
 * authenticated attributes, algorithm tables and embedded certificates.
 */
#ifndef MODSIGN_KERNEL_PKCS7_H
#define MODSIGN_KERNEL_PKCS7_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/blacklist.h"
#include "kernel/public_key.h"
#include "kernel/rules.h"
#include "kernel/x509.h"

enum pkcs7_data_type {
	PKCS7_DATA_PLAIN,		/* id-data */
	PKCS7_DATA_MS_INDIRECT,		/* SpcIndirectDataContent (Authenticode) */
};

struct pkcs7_sinfo {
	unsigned index;
	int version;
	struct x509k_kid auth_id;		/* auth_ids[0]
					 * (crypto/asymmetric_keys/pkcs7.asn1) */
	const uint8_t *issuer, *serial, *skid;	/* raw sid parts */
	size_t issuer_len, serial_len, skid_len;
	const struct rules_hash *hash;
	const struct rules_sinfo_algo *algo;
	struct pk_sig sig;
	const uint8_t *authattrs;	/* [0] set from its second byte */
	size_t authattrs_len;
	uint8_t *signed_attrs;		/* ML-DSA: 0x31 || authattrs, the
					 * message its signature covers */
	const uint8_t *msgdigest;
	size_t msgdigest_len;
	bool has_signing_time;
	int64_t signing_time;

	/* verification state */
	struct x509k_cert *signer;
	bool unsupported_crypto, blacklisted;
	struct x509k_cert *trusted_by;	/* keyring cert that vouched */
};

struct pkcs7_msg {
	int version;
	enum pkcs7_data_type data_type;
	const uint8_t *data;	/* embedded content, or NULL */
	size_t data_len;
	struct x509k_cert **certs;
	size_t n_certs;
	struct pkcs7_sinfo *sinfos;
	size_t n_sinfos;
	bool have_authattrs;
	/* pkcs7_check_authattrs() (v7.0): the first signer has no authattrs
	 * or is ML-DSA, so CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA
	 * lets a module signature keep them */
	bool authattrs_rej_waivable;
};

/*
 * pkcs7_parse_message(): 0 and *out, or the kernel's error with *why.
 * The message points into der, which must outlive it.
 */
int pkcs7_parse(const uint8_t *der, size_t len, const struct rules_rules *kr,
	     const struct blacklist *bl, struct pkcs7_msg **out,
	     const char **why);
void pkcs7_free(struct pkcs7_msg *m);

#endif
