// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/infile.h"
#include "kernel/kernel_config.h"
#include "module/compress.h"

/* A .config is some hundred KiB; the cap only stops a wrong file. */
#define KC_FILE_MAX (64u << 20)

/*
 * The config's bytes from a file or a pipe (/proc/config.gz, a
 * `<(zcat ...)`), decompressed when gzip, xz or zstd (kernel/configs.c
 * serves /proc/config.gz gzip'd; distributions ship config.xz or .zst
 * beside it at times).  -EISDIR, -EFBIG, -EBADMSG (*why) for a corrupt
 * stream, -errno.
 */
static int read_config(const char *path, uint8_t **out, size_t *out_len,
		       const char **why)
{
	size_t len, used;
	uint8_t *buf;
	enum compress_fmt c;
	int ret;

	*out = NULL;
	ret = infile_read_stream(path, KC_FILE_MAX, &buf, &len);
	if (ret)
		return ret;
	c = compress_detect(buf, len);
	if (c == COMPRESS_NONE) {
		*out = buf;
		*out_len = len;
		return 0;
	}
	ret = compress_decode(c, buf, len, KC_FILE_MAX, out, out_len, &used,
			    why);
	free(buf);
	return ret;
}

/*
 * Which options give the crypto API an algorithm: the generic drivers
 * and the x86/arm64 accelerated ones, which register the same cra_name.
 * SM3 was CRYPTO_SM3 before v5.19 renamed it CRYPTO_SM3_GENERIC.
 */
static const struct {
	const char *opt;
	enum rules_crypto bit;
} providers[] = {
	{ "CRYPTO_MD5", RULES_C_MD5 },
	{ "CRYPTO_SHA1", RULES_C_SHA1 },
	{ "CRYPTO_SHA1_SSSE3", RULES_C_SHA1 },
	{ "CRYPTO_SHA1_ARM64_CE", RULES_C_SHA1 },
	{ "CRYPTO_SHA256", RULES_C_SHA256 },
	{ "CRYPTO_SHA256_SSSE3", RULES_C_SHA256 },
	{ "CRYPTO_SHA2_ARM64_CE", RULES_C_SHA256 },
	{ "CRYPTO_SHA256_ARM64", RULES_C_SHA256 },
	{ "CRYPTO_SHA512", RULES_C_SHA512 },
	{ "CRYPTO_SHA512_SSSE3", RULES_C_SHA512 },
	{ "CRYPTO_SHA512_ARM64", RULES_C_SHA512 },
	{ "CRYPTO_SHA512_ARM64_CE", RULES_C_SHA512 },
	{ "CRYPTO_SHA3", RULES_C_SHA3 },
	{ "CRYPTO_SHA3_ARM64", RULES_C_SHA3 },
	{ "CRYPTO_SM3", RULES_C_SM3 },
	{ "CRYPTO_SM3_GENERIC", RULES_C_SM3 },
	{ "CRYPTO_STREEBOG", RULES_C_STREEBOG },
	{ "CRYPTO_RSA", RULES_C_RSA },
	{ "CRYPTO_ECDSA", RULES_C_ECDSA },
	{ "CRYPTO_MLDSA", RULES_C_MLDSA },
};

/* the option named in messages, one per bit */
static const char *const bit_option[RULES_C_N] = {
	[RULES_C_MD5] = "CONFIG_CRYPTO_MD5",
	[RULES_C_SHA1] = "CONFIG_CRYPTO_SHA1",
	[RULES_C_SHA256] = "CONFIG_CRYPTO_SHA256",
	[RULES_C_SHA512] = "CONFIG_CRYPTO_SHA512",
	[RULES_C_SHA3] = "CONFIG_CRYPTO_SHA3",
	[RULES_C_SM3] = "CONFIG_CRYPTO_SM3_GENERIC",
	[RULES_C_STREEBOG] = "CONFIG_CRYPTO_STREEBOG",
	[RULES_C_RSA] = "CONFIG_CRYPTO_RSA",
	[RULES_C_ECDSA] = "CONFIG_CRYPTO_ECDSA",
	[RULES_C_MLDSA] = "CONFIG_CRYPTO_MLDSA",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *kc_crypto_option(enum rules_crypto b)
{
	return b >= 0 && b < RULES_C_N ? bit_option[b] : "(none)";
}

/* A quoted Kconfig string value, unescaped, into a malloc'd string; NULL
 * for "" (the kernel's "not set" for file names). */
static int unquote(const char *v, char **out)
{
	size_t n = strlen(v), i, j;
	char *s;

	*out = NULL;
	if (n < 2 || v[0] != '"' || v[n - 1] != '"')
		return -EINVAL;
	if (n == 2)
		return 0;
	s = malloc(n);
	if (!s)
		return -ENOMEM;
	for (i = 1, j = 0; i < n - 1; i++) {
		if (v[i] == '\\' && i + 1 < n - 1)
			i++;
		s[j++] = v[i];
	}
	s[j] = '\0';
	*out = s;
	return 0;
}

static int resolve(const char *cfg, const char *tree, const char *name,
		   char **out)
{
	char *dup, *dir;
	int ret;

	*out = NULL;
	if (!name)
		return 0;
	if (name[0] == '/') {
		*out = strdup(name);
		return *out ? 0 : -ENOMEM;
	}
	dup = strdup(cfg);
	if (!dup)
		return -ENOMEM;
	dir = tree ? (char *)tree : dirname(dup);
	ret = asprintf(out, "%s/%s", dir, name) < 0 ? -ENOMEM : 0;
	if (ret)
		*out = NULL;
	free(dup);
	return ret;
}

/* The line whose rules the .config's version gets (rules.c's table);
 * without a version line, the newest. */
static void pick_line(struct kernel_config *kc)
{
	/* a release older than the oldest line is refused by the callers
	 * (kc->too_old); its rules here are the oldest line's */
	int ret = kc->major ? rules_resolve_mm(kc->major, kc->minor, &kc->rules,
					    &kc->line_note) : -EINVAL;

	kc->too_old = ret == -ERANGE;
	if (ret)
		kc->rules = *rules_get(kc->too_old ? 0 : RULES_DEFAULT);
}

int kernel_config_settle_line(struct kernel_config *kc, const struct rules_rules *kr)
{
	unsigned crypto = kc->rules.crypto;
	bool waiver = kc->rules.mldsa_authattr_waiver;

	if (kc->version[0])
		return -EEXIST;
	kc->rules = *kr;
	kc->rules.crypto = crypto;
	kc->rules.from_config = true;
	/* the waiver exists on the 7.3 line only (see kernel_config_load) */
	kc->rules.mldsa_authattr_waiver = waiver && kr->line == RULES_7_3;
	kc->line_note = NULL;
	return 0;
}

/* "# CONFIG_X is not set": what a .config says of an option off, where a
 * fragment says nothing.  Only MODULES and MODULE_SIG matter here. */
static void not_set(const char *s, bool *no_modules, bool *no_sig)
{
	if (strcmp(s, "# CONFIG_MODULES is not set") == 0)
		*no_modules = true;
	else if (strcmp(s, "# CONFIG_MODULE_SIG is not set") == 0)
		*no_sig = true;
}

static void header(struct kernel_config *kc, const char *s)
{
	const char *p = strstr(s, " Kernel Configuration");
	const char *v;
	int maj, min;

	/* "# Linux/x86 6.1.192 Kernel Configuration" */
	if (strncmp(s, "# Linux/", 8) != 0 || !p)
		return;
	v = strchr(s + 8, ' ');
	if (!v || v > p)
		return;
	v++;
	if ((size_t)(p - v) >= sizeof(kc->version) ||
	    sscanf(v, "%d.%d", &maj, &min) != 2)
		return;
	memcpy(kc->version, v, (size_t)(p - v));
	kc->version[p - v] = '\0';
	kc->major = maj;
	kc->minor = min;
}

static const char *const lockdown_names[] = {
	[KERNEL_CONFIG_LOCK_NONE] = "none",
	[KERNEL_CONFIG_LOCK_INTEGRITY] = "integrity",
	[KERNEL_CONFIG_LOCK_CONFIDENTIALITY] = "confidentiality",
};

const char *kernel_config_lockdown_name(enum kernel_config_lockdown l)
{
	return lockdown_names[l];
}

int kernel_config_lockdown_by_name(const char *name)
{
	for (size_t i = 0; i < N(lockdown_names); i++)
		if (strcmp(name, lockdown_names[i]) == 0)
			return (int)i;
	return -1;
}

/* One "CONFIG_X=value" line. */
static const struct {
	const char *opt;
	unsigned bit;
} keyring_opts[] = {
	{ "SECONDARY_TRUSTED_KEYRING", KERNEL_CONFIG_SECONDARY },
	{ "SECONDARY_TRUSTED_KEYRING_SIGNED_BY_BUILTIN",
	  KERNEL_CONFIG_SECONDARY_BY_BUILTIN },
	{ "INTEGRITY_MACHINE_KEYRING", KERNEL_CONFIG_MACHINE },
	{ "INTEGRITY_CA_MACHINE_KEYRING", KERNEL_CONFIG_CA_MACHINE },
	{ "INTEGRITY_CA_MACHINE_KEYRING_MAX", KERNEL_CONFIG_CA_MACHINE_MAX },
	{ "INTEGRITY_PLATFORM_KEYRING", KERNEL_CONFIG_PLATFORM },
	{ "LOAD_UEFI_KEYS", KERNEL_CONFIG_LOAD_UEFI },
	{ "INTEGRITY_TRUSTED_KEYRING", KERNEL_CONFIG_INTEGRITY_TRUSTED },
};

static int assign(struct kernel_config *kc, const char *name, const char *val,
		  char **bl, char **rev, bool *revlist, bool *waiver)
{
	bool y = strcmp(val, "y") == 0, m = strcmp(val, "m") == 0;
	size_t i;
	char *s;
	int ret;

	for (i = 0; i < N(providers); i++) {
		if (strcmp(name, providers[i].opt) != 0 || !(y || m))
			continue;
		if (y) {
			kc->rules.crypto |= 1u << providers[i].bit;
			kc->modular &= ~(1u << providers[i].bit);
		} else if (!(kc->rules.crypto & (1u << providers[i].bit))) {
			kc->rules.crypto |= 1u << providers[i].bit;
			kc->modular |= 1u << providers[i].bit;
		}
	}
	for (i = 0; i < N(keyring_opts); i++)
		if (y && strcmp(name, keyring_opts[i].opt) == 0)
			kc->keyrings |= keyring_opts[i].bit;
	if (strcmp(name, "MODULE_SIG") == 0)
		kc->module_sig = y;
	else if (strcmp(name, "MODULE_SIG_FORCE") == 0)
		kc->sig_force = y;
	else if (strcmp(name, "SECURITY_LOCKDOWN_LSM") == 0)
		kc->lockdown_lsm = y;
	else if (strcmp(name, "LOCK_DOWN_IN_EFI_SECURE_BOOT") == 0 ||
		 strcmp(name, "LOCK_DOWN_IN_SECURE_BOOT") == 0) {
		/* Ubuntu's "UBUNTU: SAUCE: (lockdown) efi: Lock down the
		 * kernel if booted in secure boot mode" names it without EFI */
		if (y && !kc->lockdown_in_sb)
			kc->lockdown_in_sb_opt = name[13] == 'E' ?
				"CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT" :
				"CONFIG_LOCK_DOWN_IN_SECURE_BOOT";
		kc->lockdown_in_sb |= y;
	} else if (strcmp(name, "IMA") == 0)
		kc->ima = y;
	else if (strcmp(name, "IMA_ARCH_POLICY") == 0)
		kc->ima_arch_policy = y;
	else if (strcmp(name, "IMA_SECURE_AND_OR_TRUSTED_BOOT") == 0)
		kc->ima_secure_boot = y;
	else if (strcmp(name, "HAVE_ARCH_GET_SECUREBOOT") == 0)
		kc->arch_get_secureboot = y;
	else if (strcmp(name, "LOCK_DOWN_KERNEL_FORCE_INTEGRITY") == 0 && y)
		kc->lockdown_force = KERNEL_CONFIG_LOCK_INTEGRITY;
	else if (strcmp(name, "LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY") == 0 &&
		 y)
		kc->lockdown_force = KERNEL_CONFIG_LOCK_CONFIDENTIALITY;
	else if (strcmp(name, "MODULE_SIG_KEY_TYPE_RSA") == 0 && y)
		kc->key_type = "rsa";
	else if (strcmp(name, "MODULE_SIG_KEY_TYPE_ECDSA") == 0 && y)
		kc->key_type = "ecdsa";
	else if (strcmp(name, "MODULE_SIG_KEY_TYPE_MLDSA_44") == 0 && y)
		kc->key_type = "mldsa44";
	else if (strcmp(name, "MODULE_SIG_KEY_TYPE_MLDSA_65") == 0 && y)
		kc->key_type = "mldsa65";
	else if (strcmp(name, "MODULE_SIG_KEY_TYPE_MLDSA_87") == 0 && y)
		kc->key_type = "mldsa87";
	else if (strcmp(name,
			"PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA") == 0)
		*waiver = y;
	else if (strcmp(name, "SYSTEM_REVOCATION_LIST") == 0)
		*revlist = y;
	else if (strcmp(name, "MODULE_SIG_HASH") == 0 ||
		 strcmp(name, "SYSTEM_BLACKLIST_HASH_LIST") == 0 ||
		 strcmp(name, "SYSTEM_REVOCATION_KEYS") == 0) {
		ret = unquote(val, &s);
		if (ret)
			return ret;
		if (name[0] == 'M') {
			snprintf(kc->sig_hash, sizeof(kc->sig_hash), "%s",
				 s ? s : "");
			free(s);
		} else if (name[7] == 'B') {
			free(*bl);
			*bl = s;
		} else {
			free(*rev);
			*rev = s;
		}
	}
	return 0;
}

int kernel_config_load(const char *path, const char *tree, struct kernel_config *kc,
	    int *line)
{
	char *text, *p, *end, *bl = NULL, *rev = NULL;
	bool revlist = false, any = false, waiver = false;
	bool no_modules = false, no_sig = false;
	uint8_t *buf;
	size_t len;
	int ret;

	memset(kc, 0, sizeof(*kc));
	*line = 0;
	ret = read_config(path, &buf, &len, &kc->why);
	if (ret)
		return ret;
	text = realloc(buf, len + 1);
	if (!text) {
		free(buf);
		return -ENOMEM;
	}
	text[len] = '\0';
	for (p = text; *p; p = end) {
		char *eq;

		end = strchr(p, '\n');
		if (end) {
			/* scripts/kconfig/confdata.c, conf_read_simple():
			 * a "\r\n" line end is a line end */
			if (end > p && end[-1] == '\r')
				end[-1] = '\0';
			*end++ = '\0';
		} else {
			end = p + strlen(p);
		}
		(*line)++;
		if (p[0] == '#') {
			if (!kc->version[0])
				header(kc, p);
			not_set(p, &no_modules, &no_sig);
			continue;
		}
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		eq = strchr(p, '=');
		if (strncmp(p, "CONFIG_", 7) != 0 || !eq) {
			ret = -EINVAL;
			goto out;
		}
		*eq = '\0';
		any = true;
		ret = assign(kc, p + 7, eq + 1, &bl, &rev, &revlist,
			     &waiver);
		if (ret)
			goto out;
	}
	if (!any) {
		ret = -ENODATA;
		goto out;
	}
	{
		/* the bits gathered above go to the line picked now */
		unsigned crypto = kc->rules.crypto;

		pick_line(kc);
		kc->rules.crypto = crypto;
		kc->rules.from_config = true;
		/* the option exists only on lines with ML-DSA (Kconfig:
		 * depends on CRYPTO_MLDSA) */
		kc->rules.mldsa_authattr_waiver =
			waiver && rules_pkey_available(&kc->rules, "mldsa44") &&
			kc->rules.version >= RULES_V(7, 0);
	}
	kc->modules = no_modules ? KERNEL_CONFIG_MODS_NONE :
		      kc->module_sig ? KERNEL_CONFIG_MODS_CHECKED :
		      no_sig ? KERNEL_CONFIG_MODS_UNCHECKED : KERNEL_CONFIG_MODS_ASSUMED;
	kc->blacklist = bl;
	bl = NULL;
	kc->revocation_list = revlist;
	if (revlist) {
		kc->revocation = rev;
		rev = NULL;
	}
	ret = resolve(path, tree, kc->blacklist, &kc->blacklist_path);
	if (!ret)
		ret = resolve(path, tree, kc->revocation, &kc->revocation_path);
	if (!ret)
		*line = 0;
out:
	free(bl);
	free(rev);
	free(text);
	if (ret)
		kernel_config_free(kc);
	return ret;
}

int kernel_config_load_failure(int err, int line, const struct kernel_config *kc, char *why,
		    size_t n)
{
	switch (err) {
	case -EINVAL:
		snprintf(why, n, "line %d: not a kernel .config line "
			 "(CONFIG_X=value or a # comment)", line);
		return EXITCODE_USAGE;
	case -ENODATA:
		snprintf(why, n, "no CONFIG_ option in it (give a kernel "
			 ".config)");
		return EXITCODE_USAGE;
	case -EBADMSG:
		snprintf(why, n, "cannot decompress the kernel config: %s",
			 kc->why ? kc->why : "corrupt");
		return EXITCODE_IO;
	default:
		snprintf(why, n, "cannot read the kernel config: %s (check "
			 "--kernel-config)", infile_strerror(err));
		return EXITCODE_IO;
	}
}

void kernel_config_free(struct kernel_config *kc)
{
	free(kc->blacklist);
	free(kc->blacklist_path);
	free(kc->revocation);
	free(kc->revocation_path);
	kc->blacklist = kc->blacklist_path = NULL;
	kc->revocation = kc->revocation_path = NULL;
}

static bool has(const struct kernel_config *kc, const char *name)
{
	enum rules_crypto b = rules_crypto_of(name);

	return b != RULES_C_NONE && (kc->rules.crypto & (1u << b));
}

int kernel_config_digest_warnings(const struct kernel_config *kc, const char *hash,
		       char warn[KERNEL_CONFIG_MAX_WARN][200])
{
	int n = 0;

	if (kc->sig_hash[0] && strcmp(hash, kc->sig_hash) != 0)
		snprintf(warn[n++], 200, "differs from CONFIG_MODULE_SIG_HASH "
			 "\"%s\", the digest the kernel signs its own modules "
			 "with", kc->sig_hash);
	if (!has(kc, hash))
		snprintf(warn[n++], 200, "this kernel has no %s (%s is not "
			 "set): it would load the module unsigned (-ENOPKG)",
			 hash, kc_crypto_option(rules_crypto_of(hash)));
	return n;
}

static const char *key_type_option(const char *kt)
{
	if (strcmp(kt, "rsa") == 0)
		return "RSA";
	if (strcmp(kt, "ecdsa") == 0)
		return "ECDSA";
	return strcmp(kt, "mldsa44") == 0 ? "MLDSA_44" :
	       strcmp(kt, "mldsa65") == 0 ? "MLDSA_65" : "MLDSA_87";
}

int kernel_config_key_warnings(const struct kernel_config *kc, EVP_PKEY *key,
		    char warn[KERNEL_CONFIG_MAX_WARN][200])
{
	const char *kt = NULL;
	int n = 0;

	if (EVP_PKEY_is_a(key, "RSA"))
		kt = "rsa";
	else if (EVP_PKEY_is_a(key, "EC"))
		kt = "ecdsa";
	else if (EVP_PKEY_is_a(key, "ML-DSA-44"))
		kt = "mldsa44";
	else if (EVP_PKEY_is_a(key, "ML-DSA-65"))
		kt = "mldsa65";
	else if (EVP_PKEY_is_a(key, "ML-DSA-87"))
		kt = "mldsa87";
	if (!kt)
		return 0;
	if (kc->key_type && strcmp(kt, kc->key_type) != 0)
		snprintf(warn[n++], 200, "an %s key, but the kernel expects "
			 "%s (CONFIG_MODULE_SIG_KEY_TYPE_%s)", kt, kc->key_type,
			 key_type_option(kc->key_type));
	if (!has(kc, kt))
		snprintf(warn[n++], 200, "this kernel has no %s (%s is not "
			 "set): it cannot load the certificate", kt,
			 kc_crypto_option(rules_crypto_of(kt)));
	return n;
}
