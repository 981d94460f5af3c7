// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel/kernel_config.*: what a kernel .config decides.  The inputs are
 * written as scripts/kconfig writes a .config (conf_write(): the
 * "# Linux/<arch> <release> Kernel Configuration" header, CONFIG_X=y|m,
 * "# CONFIG_X is not set", strings quoted with \" and \\ escaped); the
 * expectations are what the kernel built from it does.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel/kernel_config.h"

static char dir[256];

static int setup_dir(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/kconfig.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") >= sizeof(dir))
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[sizeof(dir) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* dir/name holding len bytes of text; its path in path. */
static void write_file(const char *name, const void *text, size_t len,
		       char path[PATH_MAX])
{
	FILE *f;

	snprintf(path, PATH_MAX, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* kernel_config_load of text as dir/name: its answer, *line as kernel_config_load leaves it. */
static int load(const char *name, const char *text, struct kernel_config *kc,
		int *line)
{
	char path[PATH_MAX];

	write_file(name, text, strlen(text), path);
	return kernel_config_load(path, NULL, kc, line);
}

#define BIT(b) (1u << (b))

static void header_gives_the_release_and_its_line(void **state)
{
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c1", "#\n"
			      "# Automatically generated file; DO NOT EDIT.\n"
			      "# Linux/x86 6.1.192 Kernel Configuration\n"
			      "#\n"
			      "CONFIG_MODULE_SIG=y\n", &kc, &line), 0);
	assert_int_equal(line, 0);
	assert_string_equal(kc.version, "6.1.192");
	assert_int_equal(kc.major, 6);
	assert_int_equal(kc.minor, 1);
	assert_int_equal(kc.rules.line, RULES_6_1);
	assert_false(kc.too_old);
	assert_true(kc.rules.from_config);
	kernel_config_free(&kc);

	assert_int_equal(load("c2", "# Linux/arm64 6.12.48+deb13-arm64 Kernel "
			      "Configuration\nCONFIG_MODULE_SIG=y\n", &kc, &line), 0);
	assert_string_equal(kc.version, "6.12.48+deb13-arm64");
	assert_int_equal(kc.rules.line, RULES_6_12);
	kernel_config_free(&kc);

	/* older than the oldest line modsign knows (5.10): refused later */
	assert_int_equal(load("c3", "# Linux/x86 4.19.0 Kernel Configuration\n"
			      "CONFIG_MODULE_SIG=y\n", &kc, &line), 0);
	assert_true(kc.too_old);
	kernel_config_free(&kc);

	/* no header: no version, the newest line's rules */
	assert_int_equal(load("c4", "CONFIG_MODULE_SIG=y\n", &kc, &line), 0);
	assert_string_equal(kc.version, "");
	assert_int_equal(kc.rules.line, RULES_7_3);
	kernel_config_free(&kc);

	/* a header whose release does not fit is no header, not a cut one */
	assert_int_equal(load("c5", "# Linux/x86 6.1.00000000000000000000000000000000000001 "
			      "Kernel Configuration\nCONFIG_MODULE_SIG=y\n", &kc, &line), 0);
	assert_string_equal(kc.version, "");
	kernel_config_free(&kc);
}

static void signing_options(void **state)
{
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c", "# Linux/x86 6.1.0 Kernel Configuration\n"
			      "CONFIG_MODULES=y\n"
			      "CONFIG_MODULE_SIG=y\n"
			      "# CONFIG_MODULE_SIG_FORCE is not set\n"
			      "CONFIG_MODULE_SIG_HASH=\"sha512\"\n"
			      "CONFIG_MODULE_SIG_KEY_TYPE_ECDSA=y\n"
			      "CONFIG_SECURITY_LOCKDOWN_LSM=y\n"
			      "CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT=y\n"
			      "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY=y\n"
			      "CONFIG_SECONDARY_TRUSTED_KEYRING=y\n"
			      "CONFIG_INTEGRITY_PLATFORM_KEYRING=y\n"
			      "CONFIG_LOAD_UEFI_KEYS=m\n", &kc, &line), 0);
	assert_true(kc.module_sig);
	assert_false(kc.sig_force);
	assert_string_equal(kc.sig_hash, "sha512");
	assert_string_equal(kc.key_type, "ecdsa");
	assert_true(kc.lockdown_lsm);
	assert_true(kc.lockdown_in_sb);
	assert_int_equal(kc.lockdown_force, KERNEL_CONFIG_LOCK_INTEGRITY);
	/* keyrings exist only when built in: =m is not y */
	assert_int_equal(kc.keyrings, KERNEL_CONFIG_SECONDARY | KERNEL_CONFIG_PLATFORM);
	kernel_config_free(&kc);

	assert_int_equal(load("c", "CONFIG_MODULE_SIG_FORCE=y\n"
			      "CONFIG_MODULE_SIG=n\n", &kc, &line), 0);
	assert_true(kc.sig_force);
	assert_false(kc.module_sig);
	assert_int_equal(kc.lockdown_force, KERNEL_CONFIG_LOCK_NONE);
	kernel_config_free(&kc);
}

/* Crypto as a module counts as present (the crypto API loads it on a
 * miss) and is marked modular; built in wins over modular. */
static void crypto_builtin_and_modular(void **state)
{
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c", "CONFIG_CRYPTO_SHA256=y\n"
			      "CONFIG_CRYPTO_SHA512=m\n"
			      "CONFIG_CRYPTO_RSA=m\n"
			      "CONFIG_CRYPTO_RSA=y\n"
			      "CONFIG_CRYPTO_SHA3=n\n"
			      "# CONFIG_CRYPTO_ECDSA is not set\n"
			      "CONFIG_CRYPTO_SHA1_SSSE3=m\n", &kc, &line), 0);
	assert_int_equal(kc.rules.crypto, BIT(RULES_C_SHA256) | BIT(RULES_C_SHA512) |
			 BIT(RULES_C_RSA) | BIT(RULES_C_SHA1));
	assert_int_equal(kc.modular, BIT(RULES_C_SHA512) | BIT(RULES_C_SHA1));
	kernel_config_free(&kc);
}

/* Blacklist and revocation files: unquoted, unescaped, resolved against
 * the directory of the .config (or the tree given); the revocation keys
 * only count with SYSTEM_REVOCATION_LIST=y. */
static void blacklist_and_revocation_files(void **state)
{
	char path[PATH_MAX], want[PATH_MAX + 32];
	struct kernel_config kc;
	int line;
	const char *text =
		"CONFIG_SYSTEM_BLACKLIST_HASH_LIST=\"certs/bl \\\"x\\\" \\\\.hash\"\n"
		"CONFIG_SYSTEM_REVOCATION_KEYS=\"/etc/revoked.pem\"\n";

	(void)state;
	write_file("c", text, strlen(text), path);
	assert_int_equal(kernel_config_load(path, NULL, &kc, &line), 0);
	assert_string_equal(kc.blacklist, "certs/bl \"x\" \\.hash");
	snprintf(want, sizeof(want), "%s/certs/bl \"x\" \\.hash", dir);
	assert_string_equal(kc.blacklist_path, want);
	assert_null(kc.revocation);
	assert_null(kc.revocation_path);
	kernel_config_free(&kc);

	assert_int_equal(kernel_config_load(path, "/usr/src/linux", &kc, &line), 0);
	assert_string_equal(kc.blacklist_path, "/usr/src/linux/certs/bl \"x\" \\.hash");
	kernel_config_free(&kc);

	assert_int_equal(load("c2", "CONFIG_SYSTEM_REVOCATION_LIST=y\n"
			      "CONFIG_SYSTEM_REVOCATION_KEYS=\"/etc/revoked.pem\"\n"
			      "CONFIG_SYSTEM_BLACKLIST_HASH_LIST=\"\"\n", &kc, &line), 0);
	assert_string_equal(kc.revocation_path, "/etc/revoked.pem");
	/* "" is the kernel's "not set" */
	assert_null(kc.blacklist);
	assert_null(kc.blacklist_path);
	kernel_config_free(&kc);
}

/* What is no .config: the line at fault, or no CONFIG_ at all. */
static void not_a_config(void **state)
{
	char why[200];
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c", "# Linux/x86 6.1.0 Kernel Configuration\n"
			      "CONFIG_MODULE_SIG=y\n"
			      "\n"
			      "MODULE_SIG_FORCE=y\n", &kc, &line), -EINVAL);
	assert_int_equal(line, 4);
	assert_int_equal(kernel_config_load_failure(-EINVAL, line, &kc, why, sizeof(why)), 2);
	assert_string_equal(why, "line 4: not a kernel .config line "
			    "(CONFIG_X=value or a # comment)");

	/* a string option must be quoted, as conf_write() writes it */
	assert_int_equal(load("c", "CONFIG_MODULE_SIG=y\n"
			      "CONFIG_MODULE_SIG_HASH=sha256\n", &kc, &line), -EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(load("c", "CONFIG_MODULE_SIG_HASH=\"\n", &kc, &line), -EINVAL);
	assert_int_equal(line, 1);

	/* comments and blank lines only */
	assert_int_equal(load("c", "# nothing\n\n   \n# here\n", &kc, &line), -ENODATA);
	assert_int_equal(kernel_config_load_failure(-ENODATA, line, &kc, why, sizeof(why)), 2);
	assert_int_equal(load("c", "", &kc, &line), -ENODATA);
	/* CONFIG_ without '=' */
	assert_int_equal(load("c", "CONFIG_MODULE_SIG\n", &kc, &line), -EINVAL);

	/* a file that is not there: an I/O error, exit status 7 */
	{
		char absent[PATH_MAX];

		snprintf(absent, sizeof(absent), "%s/absent", dir);
		assert_int_equal(kernel_config_load(absent, NULL, &kc, &line), -ENOENT);
	}
	assert_int_equal(kernel_config_load_failure(-ENOENT, line, &kc, why, sizeof(why)), 7);
}

/* A gzip stream that is no gzip data: -EBADMSG with a reason, status 7. */
static void corrupt_compressed_config(void **state)
{
	static const uint8_t junk[] = { 0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3,
					0xde, 0xad, 0xbe, 0xef, 0x00, 0x11 };
	char path[PATH_MAX], why[200];
	struct kernel_config kc;
	int line;

	(void)state;
	write_file("config.gz", junk, sizeof(junk), path);
	assert_int_equal(kernel_config_load(path, NULL, &kc, &line), -EBADMSG);
	assert_non_null(kc.why);
	assert_int_equal(kernel_config_load_failure(-EBADMSG, line, &kc, why, sizeof(why)), 7);
	assert_non_null(strstr(why, "cannot decompress the kernel config: "));
}

/* A NUL byte in the text ends what is read, and loses nothing before. */
static void nul_byte_in_text(void **state)
{
	static const char text[] = "CONFIG_MODULE_SIG=y\n\0CONFIG_MODULE_SIG_FORCE=y\n";
	char path[PATH_MAX];
	struct kernel_config kc;
	int line;

	(void)state;
	write_file("c", text, sizeof(text) - 1, path);
	assert_int_equal(kernel_config_load(path, NULL, &kc, &line), 0);
	assert_true(kc.module_sig);
	kernel_config_free(&kc);
}

/* scripts/kconfig/confdata.c, conf_read_simple(): a line may end in
 * "\r\n" (a .config that went through a DOS editor or a mail); the
 * kernel built from it has every option set as written. */
static void crlf_line_ends(void **state)
{
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c", "# Linux/x86 6.1.0 Kernel Configuration\r\n"
			      "CONFIG_MODULE_SIG=y\r\n"
			      "CONFIG_MODULE_SIG_FORCE=y\r\n"
			      "CONFIG_MODULE_SIG_HASH=\"sha512\"\r\n"
			      "CONFIG_CRYPTO_SHA512=y\r\n", &kc, &line), 0);
	assert_string_equal(kc.version, "6.1.0");
	assert_true(kc.module_sig);
	assert_true(kc.sig_force);
	assert_string_equal(kc.sig_hash, "sha512");
	assert_int_equal(kc.rules.crypto, BIT(RULES_C_SHA512));
	kernel_config_free(&kc);
}

static void lockdown_names(void **state)
{
	(void)state;
	assert_string_equal(kernel_config_lockdown_name(KERNEL_CONFIG_LOCK_NONE), "none");
	assert_string_equal(kernel_config_lockdown_name(KERNEL_CONFIG_LOCK_INTEGRITY), "integrity");
	assert_string_equal(kernel_config_lockdown_name(KERNEL_CONFIG_LOCK_CONFIDENTIALITY), "confidentiality");
	assert_int_equal(kernel_config_lockdown_by_name("integrity"), KERNEL_CONFIG_LOCK_INTEGRITY);
	assert_int_equal(kernel_config_lockdown_by_name("confidentiality"), KERNEL_CONFIG_LOCK_CONFIDENTIALITY);
	/* /sys/kernel/security/lockdown brackets the level in force */
	assert_int_equal(kernel_config_lockdown_by_name("[integrity]"), -1);
	assert_int_equal(kernel_config_lockdown_by_name(""), -1);
}

/* sign-file's warnings against the .config's hash and crypto. */
static void digest_warnings(void **state)
{
	char warn[KERNEL_CONFIG_MAX_WARN][200];
	struct kernel_config kc;
	int line;

	(void)state;
	assert_int_equal(load("c", "CONFIG_MODULE_SIG_HASH=\"sha512\"\n"
			      "CONFIG_CRYPTO_SHA512=y\n", &kc, &line), 0);
	assert_int_equal(kernel_config_digest_warnings(&kc, "sha512", warn), 0);
	/* sha256 differs from the kernel's hash, and the kernel lacks it */
	assert_int_equal(kernel_config_digest_warnings(&kc, "sha256", warn), 2);
	assert_non_null(strstr(warn[0], "CONFIG_MODULE_SIG_HASH \"sha512\""));
	assert_non_null(strstr(warn[1], "CONFIG_CRYPTO_SHA256 is not set"));
	kernel_config_free(&kc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_gives_the_release_and_its_line),
		cmocka_unit_test(signing_options),
		cmocka_unit_test(crypto_builtin_and_modular),
		cmocka_unit_test(blacklist_and_revocation_files),
		cmocka_unit_test(not_a_config),
		cmocka_unit_test(corrupt_compressed_config),
		cmocka_unit_test(nul_byte_in_text),
		cmocka_unit_test(crlf_line_ends),
		cmocka_unit_test(lockdown_names),
		cmocka_unit_test(digest_warnings),
	};

	return cmocka_run_group_tests_name("kernel/kernel_config", tests, setup_dir,
					   teardown_dir);
}
