/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's decision on a signature
 * (crypto/asymmetric_keys/pkcs7_verify.c, certs/system_keyring.c):
 * verify_pkcs7_signature(), pkcs7_verify() with its usage gate and
 * per-signer steps, the revocation list, pkcs7_validate_trust(), and the
 * module trailer in front of them (kernel/module/signing.c,
 * module_sig_check()).
 */
#ifndef MODSIGN_KERNEL_VERIFY_H
#define MODSIGN_KERNEL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/blacklist.h"
#include "kernel/keyring.h"
#include "kernel/pkcs7.h"
#include "kernel/rules.h"

/* include/linux/verification.h: enum key_being_used_for */
enum verify_usage {
	VERIFY_USAGE_MODULE = 0,
	VERIFY_USAGE_FIRMWARE = 1,
	VERIFY_USAGE_KEXEC = 2,
	VERIFY_USAGE_UNSPECIFIED = 5,
	/* v7.0's bpf_verify_pkcs7_signature() and signed BPF_PROG_LOAD:
	 * pkcs7_verify() treats it as UNSPECIFIED, which the kfunc passed
	 * before, so every line judges it alike */
	VERIFY_USAGE_BPF = 6,
};

/* "module", "firmware", "kexec", "unspecified", "bpf"; verify_usage_by_name
 * gives -1 for any other name. */
const char *verify_usage_name(enum verify_usage u);
int verify_usage_by_name(const char *name);

struct verify_ctx {
	const struct rules_rules *kr;
	const struct keyring *trusted;
	const struct keyring *revoked;	/* may be NULL */
	const struct blacklist *bl;		/* may be NULL */
	/* .platform (UEFI db): consulted for modules only after -ENOKEY,
	 * as distribution kernels do; may be NULL */
	const struct keyring *platform;
	/* this is the retry against .platform (VERIFY_USE_PLATFORM_KEYRING),
	 * which asks the revocation list on every line */
	bool platform_pass;
	/* a kernel without CONFIG_MODULE_SIG: module_sig_check() is not
	 * built (kernel/module/internal.h), so load_module() checks no
	 * signature and taints nothing; judge_file_run() then judges a
	 * module by its ELF alone */
	bool sig_unchecked;
};

struct verify_result {
	int err;			/* 0 or the kernel's -errno; -EXITCODE_ENOALG
					 * when this build cannot decide */
	const char *reason;		/* static; NULL when accepted */
	struct pkcs7_msg *msg;		/* parsed message, or NULL */
	size_t sig_len;
	int elf_refused;		/* err is the ELF check's -ENOEXEC
					 * (judge_file.h), and sig_err the
					 * signature's own verdict: 0 or one
					 * the kernel loads when not
					 * enforcing */
	int sig_err;
	const char *sig_reason;		/* and its reason */
	int signed_twice;		/* the body the signature covers ends
					 * with another signature (judge_file.h) */
};

/* verify_pkcs7_signature(data, len, sig, sig_len, keyring, usage) */
int verify_pkcs7(const struct verify_ctx *kv, const uint8_t *data,
		    size_t len, const uint8_t *sig, size_t sig_len,
		    enum verify_usage usage, struct verify_result *res);
/*
 * module_sig_check() without the enforce policy: trailer, then the above,
 * then (lines with module_bin_blacklist, module usage) Debian's
 * whole-file hash check.
 */
int verify_module(const struct verify_ctx *kv, const uint8_t *buf,
		     size_t len, enum verify_usage usage, struct verify_result *res);
void verify_result_free(struct verify_result *res);

/*
 * crypto/asymmetric_keys/restrict.c: restrict_link_by_signature(), as
 * keyctl padd ... %:.secondary_trusted_keys meets it
 * (restrict_link_by_builtin_and_secondary_trusted): the certificate c
 * enters only when a key of ring, found by its authorityKeyIdentifier
 * (find_asymmetric_key()), verifies its signature.  builtin_only
 * (SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN): that key must be one
 * of the image's (labelled .builtin_trusted_keys, or with no label).  0, -ENOKEY (no AKID, no such
 * key, or not built in), or the signature check's error; *why says it.
 */
int verify_restrict_by_signature(const struct rules_rules *kr,
			     const struct keyring *ring,
			     const struct x509k_cert *c, bool builtin_only,
			     const char **why);

#endif
