// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modsign_judge - ask the running kernel's own signature code about files.
 *
 * With module.sig_enforce=1, finit_module() folds "unsigned", "unsupported
 * crypto" and "unknown key" into one EKEYREJECTED.  This module repeats the
 * kernel's checks on each case file and logs the errno before that folding,
 * one line per case:
 *
 *	modsign-judge: <case> <-errno or 0> <step>
 *
 * <step> names the check that failed ("ok" when none did).  Each case's
 * messages are preceded by "modsign-judge-begin: <case>".  The list of cases is
 * <dir>/cases.tsv (columns: case file kind usage sig), the same file the
 * harness's /init walks.
 *
 * For kind "module" the steps are those of module_sig_check() and
 * mod_verify_sig() in kernel/module/signing.c (identical in 6.1 and 6.12;
 * 5.10 has the same steps in kernel/module.c and kernel/module_signing.c),
 * called with flags == 0.  mod_check_sig() and mod_verify_sig() are not
 * exported to modules, so their few lines are repeated here; everything
 * cryptographic is the kernel's exported verify_pkcs7_signature().
 * Debian's 6.1 and 6.12 end mod_verify_sig() with a SHA-256 whole-file
 * blacklist lookup (mod_is_hash_blacklisted()), which Debian's 7.3 dropped:
 * the Kbuild file defines JUDGE_MODULE_HASH_BLACKLIST when the tree's
 * signing.c has it, so the judge repeats what the tree it runs on does.
 *
 * Out of reach of this module: the "mangled" path (finit_module flags
 * IGNORE_VERMAGIC/IGNORE_MODVERSIONS turn any module into an unsigned one),
 * in-kernel decompression of .ko.xz files (module_decompress() is not
 * exported: such cases are reported as "n/a"), and everything after the
 * signature check (ELF validation, vermagic, symbol resolution).
 */
#include <crypto/hash.h>
#if __has_include(<crypto/sha2.h>)
#include <crypto/sha2.h>
#else
/* before 5.11 */
#include <crypto/sha.h>
#endif
#include <keys/system_keyring.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kernel_read_file.h>
#include <linux/module.h>
#include <linux/module_signature.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/verification.h>
#include <linux/vmalloc.h>

/*
 * 7.x renamed the marker and the PKCS#7 id type (uapi module_signature.h);
 * the values are the same.
 */
#ifdef MODULE_SIGNATURE_MARKER
#define JUDGE_SIG_MARKER MODULE_SIGNATURE_MARKER
#define JUDGE_ID_PKCS7 MODULE_SIGNATURE_TYPE_PKCS7
#else
#define JUDGE_SIG_MARKER MODULE_SIG_STRING
#define JUDGE_ID_PKCS7 PKEY_ID_PKCS7
#endif

static char *dir = "/cases";
module_param(dir, charp, 0444);
MODULE_PARM_DESC(dir, "directory holding cases.tsv and the files it names");

/* Far above any sane case; the PKCS#7 parser itself stops at 64 KiB. */
#define JUDGE_MAX_FILE (64 << 20)

static int judge_read(const char *name, void **buf, size_t *len)
{
	size_t file_size = 0;
	ssize_t n;
	char *path;

	*buf = NULL;
	path = kasprintf(GFP_KERNEL, "%s/%s", dir, name);
	if (!path)
		return -ENOMEM;
	n = kernel_read_file_from_path(path, 0, buf, JUDGE_MAX_FILE,
				       &file_size, READING_UNKNOWN);
	kfree(path);
	if (n < 0) {
		*buf = NULL;
		return n;
	}
	*len = n;
	return 0;
}

/* The checks of mod_check_sig() (kernel/module_signature.c), same order. */
static int judge_sig_info(const struct module_signature *ms, size_t file_len)
{
	if (be32_to_cpu(ms->sig_len) >= file_len - sizeof(*ms))
		return -EBADMSG;
	if (ms->id_type != JUDGE_ID_PKCS7)
		return -ENOPKG;
	if (ms->algo || ms->hash || ms->signer_len || ms->key_id_len ||
	    ms->__pad[0] || ms->__pad[1] || ms->__pad[2])
		return -EBADMSG;
	return 0;
}

#ifdef JUDGE_MODULE_HASH_BLACKLIST
/* mod_is_hash_blacklisted(): SHA-256 of the whole file against bin: hashes. */
static int judge_hash_blacklisted(const void *data, size_t len)
{
	u8 digest[SHA256_DIGEST_SIZE];
	struct crypto_shash *tfm;
	int ret;

	tfm = crypto_alloc_shash("sha256", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_shash_tfm_digest(tfm, data, len, digest);
	crypto_free_shash(tfm);
	if (ret)
		return ret;
#ifdef JUDGE_BLACKLIST_TYPE_STRING
	return is_hash_blacklisted(digest, sizeof(digest), "bin");
#else
	return is_hash_blacklisted(digest, sizeof(digest), BLACKLIST_HASH_BINARY);
#endif
}
#endif

/*
 * An appended signature, laid out as
 *
 *	[ ELF body ][ PKCS#7 DER ][ struct module_signature ][ marker ]
 *	                           12 bytes, sig_len big-endian   28 bytes
 */
static int judge_appended(const u8 *file, size_t len, const char **step)
{
	const size_t markerlen = sizeof(JUDGE_SIG_MARKER) - 1;
	struct module_signature ms;
	size_t modlen, sig_len;
	int ret;

	/* module_sig_check(): the marker must be the very last bytes */
	*step = "marker";
	if (len <= markerlen ||
	    memcmp(file + len - markerlen, JUDGE_SIG_MARKER, markerlen))
		return -ENODATA;
	modlen = len - markerlen;

	/* mod_verify_sig() */
	*step = "sig-info";
	if (modlen <= sizeof(ms))
		return -EBADMSG;
	memcpy(&ms, file + modlen - sizeof(ms), sizeof(ms));
	ret = judge_sig_info(&ms, modlen);
	if (ret)
		return ret;
	sig_len = be32_to_cpu(ms.sig_len);
	modlen -= sig_len + sizeof(ms);

	*step = "pkcs7";
	ret = verify_pkcs7_signature(file, modlen, file + modlen, sig_len,
				     VERIFY_USE_SECONDARY_KEYRING,
				     VERIFYING_MODULE_SIGNATURE, NULL, NULL);
	if (ret == -ENOKEY && IS_ENABLED(CONFIG_INTEGRITY_PLATFORM_KEYRING)) {
		*step = "pkcs7-platform";
		ret = verify_pkcs7_signature(file, modlen, file + modlen,
					     sig_len, VERIFY_USE_PLATFORM_KEYRING,
					     VERIFYING_MODULE_SIGNATURE,
					     NULL, NULL);
	}
#ifdef JUDGE_MODULE_HASH_BLACKLIST
	if (ret)
		return ret;

	*step = "hash-blacklist";
	return judge_hash_blacklisted(file, len);
#else
	return ret;
#endif
}

static bool judge_compressed(const u8 *file, size_t len)
{
	static const u8 xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const u8 gz[] = { 0x1f, 0x8b };
	static const u8 zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	return (len >= sizeof(xz) && !memcmp(file, xz, sizeof(xz))) ||
	       (len >= sizeof(gz) && !memcmp(file, gz, sizeof(gz))) ||
	       (len >= sizeof(zst) && !memcmp(file, zst, sizeof(zst)));
}

/* usage names of cases.tsv; the values come from this tree's header */
static int judge_usage(const char *name, enum key_being_used_for *usage)
{
	if (!strcmp(name, "module"))
		*usage = VERIFYING_MODULE_SIGNATURE;
	else if (!strcmp(name, "firmware"))
		*usage = VERIFYING_FIRMWARE_SIGNATURE;
	else if (!strcmp(name, "kexec"))
		*usage = VERIFYING_KEXEC_PE_SIGNATURE;
	else if (!strcmp(name, "unspecified"))
		*usage = VERIFYING_UNSPECIFIED_SIGNATURE;
	else
		return -EINVAL;
	return 0;
}

static void judge_case(char *row)
{
	char *col[5], *name, *file, *kind, *sig;
	enum key_being_used_for usage;
	void *data = NULL, *p7s = NULL;
	size_t len = 0, p7s_len = 0;
	const char *step = "row";
	int i, ret;

	for (i = 0; i < 5; i++)
		col[i] = strsep(&row, "\t");
	name = col[0];
	/* lets /init file the kernel's own messages under this case */
	pr_info("modsign-judge-begin: %s\n", name);
	file = col[1];
	kind = col[2];
	sig = col[4];
	if (!sig || row || judge_usage(col[3], &usage)) {
		ret = -EINVAL;
		goto out;
	}

	if (!strcmp(kind, "module")) {
		step = "read";
		ret = judge_read(file, &data, &len);
		if (ret)
			goto out;
		if (judge_compressed(data, len)) {
			pr_info("modsign-judge: %s n/a compressed\n", name);
			goto free;
		}
		ret = judge_appended(data, len, &step);
	} else if (!strcmp(kind, "detached")) {
		step = "read";
		ret = judge_read(file, &data, &len);
		if (ret)
			goto out;
		step = "read-sig";
		ret = judge_read(sig, &p7s, &p7s_len);
		if (ret)
			goto free;
		step = "pkcs7";
		ret = verify_pkcs7_signature(data, len, p7s, p7s_len,
					     VERIFY_USE_SECONDARY_KEYRING,
					     usage, NULL, NULL);
	} else {
		ret = -EINVAL;
	}
out:
	pr_info("modsign-judge: %s %d %s\n", name, ret, ret ? step : "ok");
free:
	vfree(p7s);
	vfree(data);
}

static int __init modsign_judge_init(void)
{
	char *text, *rest, *row;
	void *list = NULL;
	bool first = true;
	size_t len = 0;
	int ret, n = 0;

	ret = judge_read("cases.tsv", &list, &len);
	if (ret) {
		pr_err("modsign-judge: cannot read %s/cases.tsv (%d)\n", dir, ret);
		return ret;
	}
	text = kmalloc(len + 1, GFP_KERNEL);
	if (!text) {
		vfree(list);
		return -ENOMEM;
	}
	memcpy(text, list, len);
	text[len] = '\0';
	vfree(list);

	rest = text;
	while ((row = strsep(&rest, "\n"))) {
		size_t l = strlen(row);

		if (l && row[l - 1] == '\r')
			row[--l] = '\0';
		if (!l || row[0] == '#')
			continue;
		/* the header: first non-comment row, starting "case<TAB>" */
		if (first && !strncmp(row, "case\t", 5)) {
			first = false;
			continue;
		}
		first = false;
		judge_case(row);
		n++;
	}
	kfree(text);
	pr_info("modsign-judge-end: %d\n", n);
	return 0;
}

static void __exit modsign_judge_exit(void)
{
}

module_init(modsign_judge_init);
module_exit(modsign_judge_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("modsign conformance judge: the kernel's signature verdicts, errno unfolded");
