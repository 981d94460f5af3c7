// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>

#include "kernel/algcheck.h"

/*
 * What the kernel lines accept (kernel-rules.md §3.4, §4.3):
 *  - digests in pkcs7_parser.c: sha1, sha224, sha2-*; sha3-* only since
 *    v6.7 ("pkcs7: support SHA3"), so not on 6.1; sm3/streebog are parsed
 *    but need crypto the distribution kernels rarely build;
 *  - RSA: crypto/rsa.c rsa_check_key_length() takes 512, 1024, 1536,
 *    2048, 3072 and 4096 bits only, on both lines: an 8192-bit key signs
 *    fine here and is rejected by the kernel's software RSA;
 *  - ECDSA: NIST P-192/P-256/P-384; P-521 only since v6.10; sign-file's
 *    kconfig offers P-256/P-384 (MODULE_SIG_KEY_TYPE_ECDSA);
 *  - anything else (Ed25519, RSASSA-PSS keys, ...) has no SignerInfo
 *    algorithm the kernel parses.
 */
#define L61 1u
#define L612 2u
#define LALL (L61 | L612)

static const struct line {
	const char *name;
	unsigned bit;
} lines[] = { { "6.1", L61 }, { "6.12", L612 } };

static const struct digest {
	int nid;
	unsigned lines;
} digests[] = {
	{ NID_sha1, LALL },     { NID_sha224, LALL },	{ NID_sha256, LALL },
	{ NID_sha384, LALL },   { NID_sha512, LALL },	{ NID_sha3_256, L612 },
	{ NID_sha3_384, L612 }, { NID_sha3_512, L612 },
};

static const struct curve {
	const char *group;
	unsigned lines;
} curves[] = {
	{ "prime192v1", LALL },
	{ "prime256v1", LALL },
	{ "secp384r1", LALL },
	{ "secp521r1", L612 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static unsigned line_bits(const char *line)
{
	for (size_t i = 0; i < N(lines); i++)
		if (line && strcmp(lines[i].name, line) == 0)
			return lines[i].bit;
	return 0;
}

int ms_alg_line_known(const char *line)
{
	return line_bits(line) ? 0 : -1;
}

const char *ms_alg_lines(void)
{
	return "6.1, 6.12";
}

static unsigned digest_lines(const EVP_MD *md)
{
	for (size_t i = 0; i < N(digests); i++)
		if (EVP_MD_get_type(md) == digests[i].nid)
			return digests[i].lines;
	return 0;
}

/* Lines that accept the key; 0 for none. */
static unsigned key_lines(EVP_PKEY *key)
{
	char group[64];
	size_t glen;
	int bits;

	if (EVP_PKEY_is_a(key, "RSA")) {
		bits = EVP_PKEY_get_bits(key);
		return (bits == 512 || bits == 1024 || bits == 1536 ||
			bits == 2048 || bits == 3072 || bits == 4096) ? LALL : 0;
	}
	if (EVP_PKEY_is_a(key, "EC")) {
		if (EVP_PKEY_get_utf8_string_param(key,
				OSSL_PKEY_PARAM_GROUP_NAME, group,
				sizeof(group), &glen) != 1) {
			ERR_clear_error();
			return 0;
		}
		for (size_t i = 0; i < N(curves); i++)
			if (strcmp(curves[i].group, group) == 0)
				return curves[i].lines;
	}
	return 0;
}

int ms_alg_check_digest(const EVP_MD *md, const char *line,
			const char *warn[MS_ALG_MAX_WARN])
{
	unsigned want = line ? line_bits(line) : LALL;
	unsigned dl = digest_lines(md);
	int n = 0;

	if (EVP_MD_get_type(md) == NID_sha1)
		warn[n++] = "SHA-1 is broken for signatures and gone from "
			    "the kernel's hash choices; use sha256 or better";
	if (line && !(dl & want))
		warn[n++] = "the kernel line named by --kernel rejects this "
			    "digest (SHA-3 arrived in 6.7)";
	else if (!line && !dl)
		warn[n++] = "no kernel accepts this digest for modules "
			    "(use sha256, sha384, sha512 or sha3-*)";
	return n;
}

int ms_alg_check_key(EVP_PKEY *key, const char *line,
		     const char *warn[MS_ALG_MAX_WARN])
{
	unsigned want = line ? line_bits(line) : LALL;
	unsigned kl = key_lines(key);
	int n = 0;

	if (EVP_PKEY_is_a(key, "RSA") && !kl)
		warn[n++] = "the kernel's RSA takes only 2048, 3072 and "
			    "4096-bit keys (rsa_check_key_length)";
	else if (line && kl && !(kl & want))
		warn[n++] = "the kernel line named by --kernel rejects this "
			    "curve (P-521 arrived in 6.10)";
	else if (!kl)
		warn[n++] = "no kernel accepts this key type for modules "
			    "(use RSA or ECDSA P-256/P-384)";
	return n;
}
