// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify-file: decide offline whether a kernel would accept a signed
 * module (or a detached signature), and say why, with the kernel's errno.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/exitcode.h"
#include "base/fileio.h"
#include "base/log.h"
#include "base/treewalk.h"
#include "base/workpool.h"
#include "module/module_file.h"
#include "kernel/blacklist.h"
#include "kernel/kernel_config.h"
#include "kernel/keyring.h"
#include "kernel/rules.h"
#include "kernel/verify.h"
#include "kernel/x509.h"
#include "trust/trust_sources.h"
#include "base/batch_run.h"
#include "base/format.h"

/* trust sources (trustsrc.h), kernel .config (kconfig.h) */
enum {
	OPT_VMLINUX = 0x200, OPT_ESL, OPT_DBX, OPT_EFI_DB, OPT_EFI_DBX,
	OPT_MOK, OPT_KCONFIG, OPT_KTREE, OPT_LIST_KEYS,
};

static const char short_opts[] = "k:c:r:qvhVj:";
static const struct option long_opts[] = {
	{ "keys", required_argument, NULL, 'k' },
	{ "cert", required_argument, NULL, 'c' },
	{ "recursive", required_argument, NULL, 'r' },
	{ "sig", required_argument, NULL, 'S' },
	{ "detached", no_argument, NULL, 'D' },
	{ "usage", required_argument, NULL, 'U' },
	{ "kernel", required_argument, NULL, 'K' },
	{ "blacklist", required_argument, NULL, 'B' },
	{ "revoked", required_argument, NULL, 'R' },
	{ "enforce", no_argument, NULL, 'E' },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "esl", required_argument, NULL, OPT_ESL },
	{ "dbx", required_argument, NULL, OPT_DBX },
	{ "efi-db", no_argument, NULL, OPT_EFI_DB },
	{ "efi-dbx", no_argument, NULL, OPT_EFI_DBX },
	{ "mok", no_argument, NULL, OPT_MOK },
	{ "kernel-config", required_argument, NULL, OPT_KCONFIG },
	{ "kernel-tree", required_argument, NULL, OPT_KTREE },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "jobs", required_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s -k DIR [-k DIR | -c CERT]... [options] FILE...\n"
		"       %1$s -k DIR [-c CERT]... [options] -r DIR\n"
		"       %1$s --vmlinux VMLINUZ [--kernel-config .config] FILE...\n"
		"       %1$s [trust sources] --list-keys\n",
		ms_prog());
}

static void help(void)
{
	usage(stdout);
	printf(
"Decide, as the kernel would, whether a signed module (or a detached\n"
"signature) is accepted by a kernel trusting the given certificates, and\n"
"say why not with the errno the kernel returns.\n"
"\n"
"Options:\n"
"  -k, --keys DIR        trust every certificate in DIR (PEM or DER)\n"
"  -c, --cert FILE       trust the certificates in FILE (PEM bundle or DER)\n"
"  -r, --recursive DIR   check every *.ko under DIR and print a summary\n"
"      --sig FILE.p7s    detached signature of the single FILE\n"
"      --detached        use FILE.p7s beside each FILE\n"
"      --usage USAGE     module, firmware, unspecified or kexec (default:\n"
"                        module for appended, unspecified for detached)\n"
"      --kernel LINE     6.1 or 6.12 (default 6.12)\n"
"      --blacklist FILE  CONFIG_SYSTEM_BLACKLIST_HASH_LIST file\n"
"      --revoked CERT    revocation certificate (CONFIG_SYSTEM_REVOCATION_KEYS)\n"
"      --enforce         as module.sig_enforce=1: unsigned, unknown-key and\n"
"                        unsupported-crypto modules are rejected\n"
"\n"
"Trust sources (where a kernel finds its keys; combine freely):\n"
"      --vmlinux FILE    the certificates built into a kernel image: a\n"
"                        vmlinuz/bzImage (gzip, xz, zstd, lz4, lzma or\n"
"                        bzip2 payload), a compressed Image or an ELF vmlinux\n"
"      --esl FILE        the X.509 entries of an EFI_SIGNATURE_LIST file\n"
"      --mok             MokListRT from efivarfs (the machine keyring)\n"
"      --efi-db          UEFI db from efivarfs: the platform keyring, tried\n"
"                        for modules after -ENOKEY as Debian, Fedora and\n"
"                        Ubuntu kernels do (mainline does not)\n"
"      --dbx FILE        a dbx-style list: SHA-256 entries become bin:\n"
"                        hashes (no effect on modules), X509_SHA256 tbs:\n"
"                        hashes, X.509 entries revocation certificates\n"
"      --efi-dbx         the same from UEFI dbx in efivarfs\n"
"      --kernel-config FILE  rules from a kernel .config: its version picks\n"
"                        --kernel, its crypto decides -ENOPKG,\n"
"                        MODULE_SIG_FORCE enforces, and the blacklist and\n"
"                        revocation files it names are loaded\n"
"      --kernel-tree DIR where those files are (default: the .config's\n"
"                        directory)\n"
"      --list-keys       print every trusted key as the kernel logs it\n"
"                        (subject, serial, SKID, key, SHA-256) and exit\n"
"      --json            one JSON object per file instead of text\n"
"  -j, --jobs N          workers for several files or -r (default: the\n"
"                        online CPUs); results stay in input order\n"
"  -q, --quiet           print no verdicts; only the exit code tells\n"
"  -v, --verbose         say which certificates were left out and why\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Exit status: 0 accepted, 1 rejected (EKEYREJECTED), 2 usage, 3 unsigned\n"
"(ENODATA), 4 unknown key (ENOKEY), 5 unsupported crypto (ENOPKG), 6\n"
"malformed (EBADMSG, EINVAL, EMSGSIZE), 7 I/O error.  With several files\n"
"the most severe wins.\n");
}

struct opts {
	const struct kr_rules *kr;
	int usage;		/* -1: default for the mode */
	const char *sig;
	bool detached, enforce, json, quiet;
	struct kv_ctx kv;
};

struct summary {
	unsigned ok, unsigned_, nokey, nopkg, rejected, malformed, errors;
};

static const char *usage_name(int u)
{
	switch (u) {
	case KV_USAGE_MODULE: return "module";
	case KV_USAGE_FIRMWARE: return "firmware";
	case KV_USAGE_KEXEC: return "kexec";
	case KV_USAGE_UNSPECIFIED: return "unspecified";
	}
	return "?";
}

static int usage_by_name(const char *s)
{
	static const int all[] = { KV_USAGE_MODULE, KV_USAGE_FIRMWARE,
				   KV_USAGE_KEXEC, KV_USAGE_UNSPECIFIED };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, usage_name(all[i])) == 0)
			return all[i];
	return -1;
}

/* §1.2 step 7: the soft outcomes, loaded unsigned unless enforcing */
static bool is_soft(int err)
{
	return err == -ENODATA || err == -ENOKEY || err == -ENOPKG;
}

static const char *verdict_word(int err)
{
	switch (err) {
	case 0: return "OK";
	case -ENODATA: return "UNSIGNED";
	case -ENOKEY: return "UNKNOWN-KEY";
	case -ENOPKG: return "UNSUPPORTED";
	case -EKEYREJECTED: return "REJECTED";
	default: return "MALFORMED";
	}
}

/* module_sig_check()'s words for the enforced soft outcomes */
static const char *enforce_words(int err)
{
	switch (err) {
	case -ENODATA: return "Loading of unsigned module is rejected";
	case -ENOPKG: return "Loading of module with unsupported crypto is rejected";
	default: return "Loading of module with unavailable key is rejected";
	}
}

static void count(struct summary *s, int err)
{
	switch (err) {
	case 0: s->ok++; break;
	case -ENODATA: s->unsigned_++; break;
	case -ENOKEY: s->nokey++; break;
	case -ENOPKG: s->nopkg++; break;
	case -EKEYREJECTED: s->rejected++; break;
	default: s->malformed++; break;
	}
}

static json_object *jstr_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *signer_json(const struct p7_sinfo *si)
{
	json_object *o = json_object_new_object();
	const struct x509k_cert *k = si->trusted_by;
	char buf[512], key[64];

	json_object_object_add(o, "index", json_object_new_int(si->index));
	if (si->issuer) {
		name_str(si->issuer, si->issuer_len, buf, sizeof(buf));
		json_object_object_add(o, "issuer", json_object_new_string(buf));
		hex_str(si->serial, si->serial_len, buf, sizeof(buf));
		json_object_object_add(o, "serial", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "issuer", NULL);
		json_object_object_add(o, "serial", NULL);
	}
	if (si->skid) {
		hex_str(si->skid, si->skid_len, buf, sizeof(buf));
		json_object_object_add(o, "skid", json_object_new_string(buf));
	} else if (k && k->skid.data) {
		hex_str(k->skid.data, k->skid.len, buf, sizeof(buf));
		json_object_object_add(o, "skid", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "skid", NULL);
	}
	json_object_object_add(o, "hash", jstr_or_null(si->hash ? si->hash->name : NULL));
	json_object_object_add(o, "signature_algorithm",
			       jstr_or_null(si->algo ? si->algo->name : NULL));
	if (k && k->pkey) {
		ms_pkey_describe(k->pkey, key, sizeof(key));
		json_object_object_add(o, "key_algorithm", json_object_new_string(key));
	} else {
		json_object_object_add(o, "key_algorithm",
				       jstr_or_null(si->algo ? si->algo->pkey_algo : NULL));
	}
	json_object_object_add(o, "signer", jstr_or_null(k ? k->name : NULL));
	if (k) {
		x509k_describe(k, buf, sizeof(buf));
		json_object_object_add(o, "key", json_object_new_string(buf));
	} else {
		json_object_object_add(o, "key", NULL);
	}
	json_object_object_add(o, "cert", jstr_or_null(k ? k->path : NULL));
	json_object_object_add(o, "embedded_signer_cert",
			       json_object_new_boolean(si->signer != NULL));
	return o;
}

static void print_json(FILE *out, const struct opts *o, const char *file,
		       int usage, const struct kv_result *r, int shown)
{
	json_object *j = json_object_new_object(), *sg = json_object_new_array();
	size_t i;

	json_object_object_add(j, "file", json_object_new_string(file));
	json_object_object_add(j, "verdict",
			       json_object_new_string(verdict_word(shown)));
	json_object_object_add(j, "errno", shown ?
			       json_object_new_string(ms_errno_name(shown)) : NULL);
	json_object_object_add(j, "underlying_errno", r->err ?
			       json_object_new_string(ms_errno_name(r->err)) : NULL);
	json_object_object_add(j, "reason", jstr_or_null(r->reason));
	json_object_object_add(j, "loads_unsigned",
			       json_object_new_boolean(!o->enforce && is_soft(r->err)));
	json_object_object_add(j, "kernel", json_object_new_string(o->kr->name));
	json_object_object_add(j, "usage", json_object_new_string(usage_name(usage)));
	json_object_object_add(j, "enforce", json_object_new_boolean(o->enforce));
	for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
		json_object_array_add(sg, signer_json(&r->msg->sinfos[i]));
	json_object_object_add(j, "signers", sg);
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
}

static void print_text(FILE *out, const struct opts *o, const char *file,
			const struct kv_result *r, int shown)
{
	const struct p7_sinfo *si = NULL;
	char key[64], id[160];
	size_t i;

	if (shown == 0) {
		for (i = 0; r->msg && i < r->msg->n_sinfos; i++)
			if (r->msg->sinfos[i].trusted_by) {
				si = &r->msg->sinfos[i];
				break;
			}
		if (!si) {
			fprintf(out, "%s: OK\n", file);
			return;
		}
		key[0] = '\0';
		if (si->trusted_by->pkey)
			ms_pkey_describe(si->trusted_by->pkey, key, sizeof(key));
		if (si->trusted_by->skid.data)
			hex_str(si->trusted_by->skid.data,
				si->trusted_by->skid.len, id, sizeof(id));
		else
			hex_str(si->trusted_by->serial,
				si->trusted_by->serial_len, id, sizeof(id));
		fprintf(out, "%s: OK (%s, %s, signer \"%s\", key %s, cert %s)\n",
			file, si->hash->name, key, si->trusted_by->name, id,
			si->trusted_by->path);
		return;
	}
	if (o->enforce && is_soft(r->err)) {
		fprintf(out, "%s: REJECTED -EKEYREJECTED: %s (-%s: %s)\n", file,
			enforce_words(r->err), ms_errno_name(r->err),
			r->reason ? r->reason : "");
		return;
	}
	fprintf(out, "%s: %s -%s: %s%s\n", file, verdict_word(shown),
	       ms_errno_name(shown), r->reason ? r->reason : "no reason",
	       is_soft(shown) ? " (the kernel would load it unsigned, tainted)" :
	       "");
}

/* Judge one file; returns its exit code. */
static int check_file(const struct opts *o, const char *file,
		      struct summary *sum, FILE *out)
{
	struct ms_file s = { .fd = -1 };
	struct ms_modfile m;
	struct kv_result r = { 0 };
	const char *sigpath = o->sig, *why;
	char *p7s = NULL;
	int usage, err, shown, code;

	if (o->detached && asprintf(&p7s, "%s.p7s", file) >= 0)
		sigpath = p7s;
	/*
	 * A module is judged as the kernel sees it: decompressed first
	 * (finit_module with MODULE_INIT_COMPRESSED_FILE).  Detached data
	 * (firmware, regulatory.db) is verified as stored.
	 */
	if (sigpath) {
		memset(&m, 0, sizeof(m));
		err = ms_file_open(file, &m.file);
		m.data = m.file.data;
		m.len = m.file.len;
		why = NULL;
	} else {
		err = ms_modfile_open(file, &m, &why);
	}
	if (err) {
		if (why)
			ms_error(file, "cannot decompress: %s", why);
		else
			ms_error(file, "cannot read: %s (check the path)",
				 ms_io_strerror(err));
		free(p7s);
		sum->errors++;
		return why ? ms_exit_for_errno(err) : MS_EXIT_IO;
	}
	if (sigpath) {
		usage = o->usage >= 0 ? o->usage : KV_USAGE_UNSPECIFIED;
		err = ms_file_open(sigpath, &s);
		if (err) {
			ms_error(sigpath, "cannot read the detached signature: "
				 "%s (give it with --sig)", ms_io_strerror(err));
			ms_modfile_close(&m);
			free(p7s);
			sum->errors++;
			return MS_EXIT_IO;
		}
		memset(&r, 0, sizeof(r));
		kv_verify_pkcs7(&o->kv, m.data, m.len, s.data, s.len,
				usage, &r);
	} else if (m.signed_after &&
		   ms_modfile_signed_after(&m, &why) == -ENODATA) {
		/* the trailer sits after the compressed stream, where the
		 * kernel's decompressor never looks */
		usage = o->usage >= 0 ? o->usage : KV_USAGE_MODULE;
		r.err = -ENODATA;
		r.reason = MS_SIGNED_AFTER_MSG;
	} else {
		usage = o->usage >= 0 ? o->usage : KV_USAGE_MODULE;
		kv_verify_module(&o->kv, m.data, m.len, usage, &r);
	}
	err = r.err;
	shown = (o->enforce && is_soft(err)) ? -EKEYREJECTED : err;
	if (ms_file_check(&m.file) || ms_file_check(&s)) {
		/* no verdict on bytes the file no longer has */
		ms_error(ms_file_check(&m.file) ? file : sigpath, "cannot "
			 "read: %s", ms_io_strerror(MS_ECHANGED));
		code = MS_EXIT_IO;
		sum->errors++;
	} else if (err == -ENOMEM) {
		ms_error(file, "out of memory");
		code = MS_EXIT_IO;
		sum->errors++;
	} else {
		code = ms_exit_for_errno(shown);
		count(sum, err);
		if (o->json)
			print_json(out, o, file, usage, &r, shown);
		else if (!o->quiet)
			print_text(out, o, file, &r, shown);
	}
	kv_result_free(&r);
	ms_file_close(&s);
	ms_modfile_close(&m);
	free(p7s);
	return code;
}

/* -r: the module files below a directory */
/* The names modules are installed under (kbuild's modules_install). */
static int is_module_name(const char *path)
{
	static const char *const ends[] = { ".ko", ".ko.xz", ".ko.zst",
					    ".ko.gz" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);

		if (n > e && strcmp(path + n - e, ends[i]) == 0)
			return 1;
	}
	return 0;
}

static int load_list(const char *path, struct blacklist *bl)
{
	uint8_t *buf;
	size_t len;
	int ret, line;

	ret = ms_read_all(path, 64u << 20, &buf, &len);
	if (ret) {
		ms_error(path, "cannot read the blacklist: %s (check --blacklist)",
			 ms_io_strerror(ret));
		return MS_EXIT_IO;
	}
	ret = bl_load(bl, (const char *)buf, len, &line);
	free(buf);
	if (ret) {
		ms_error(path, "line %d: not a \"tbs:<hex>\" or \"bin:<hex>\" "
			 "entry (lower-case hex, even length, at most 128 "
			 "digits)", line);
		return MS_EXIT_USAGE;
	}
	return 0;
}

struct src {
	char kind;		/* 'k' directory, 'c' file, 'R' revoked */
	const char *path;
};

/*
 * A path as one line of diagnostics: control bytes (a newline in a file
 * name) become \ooo, so one entry is one line and cannot fake another.
 * Other bytes, non-UTF-8 ones included, are kept for grep.  Malloc'd.
 */
static char *one_line(const char *path)
{
	size_t n = strlen(path), o = 0;
	char *s = malloc(4 * n + 1);

	if (!s)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			o += (size_t)sprintf(s + o, "\\%03o", *p);
		else
			s[o++] = (char)*p;
	}
	s[o] = 0;
	return s;
}

static void report_skipped(const struct certstore *cs, size_t from)
{
	size_t i;

	if (!ms_verbose())
		return;
	for (i = from; i < cs->n_skipped; i++) {
		const struct cs_skipped *s = &cs->skipped[i];
		char *shown = one_line(s->path);
		const char *p = shown ? shown : s->path;

		if (s->index)
			ms_info("%s: certificate %d left out: -%s: %s", p,
				s->index, ms_errno_name(s->err),
				s->why ? s->why : "unparsable");
		else
			ms_info("%s: skipped: %s", p,
				s->why ? s->why : ms_io_strerror(s->err));
		free(shown);
	}
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * What -k DIR gave, in one line: a file that holds no certificate, or
 * one the kernel would refuse, must not go unnoticed without -v (the
 * module would then fail as -ENOKEY with no hint why), yet a directory
 * of thousands must not flood stderr.  -v names each entry above.
 */
static void summarize_dir(const char *dir, const struct certstore *cs,
			  size_t skip0, size_t n0, size_t dup0)
{
	size_t files = 0, certs = 0, i;
	char f[64] = "", c[64] = "";

	for (i = skip0; i < cs->n_skipped; i++) {
		if (cs->skipped[i].index)
			certs++;
		else
			files++;
	}
	if (files || certs) {
		if (files)
			snprintf(f, sizeof(f), "%zu %s nothing", files,
				 plural(files, "entry loaded",
					"entries loaded"));
		if (certs)
			snprintf(c, sizeof(c), "%zu %s left out", certs,
				 plural(certs, "certificate", "certificates"));
		ms_warn(dir, "%s%s%s; %s", f, files && certs ? ", " : "", c,
			ms_verbose() ? "each is named above" :
			"run with -v to name each and say why");
	}
	ms_info("%s: %zu %s loaded, %zu %s of one already loaded (not an "
		"error)", dir, cs->n - n0, plural(cs->n - n0, "certificate",
		"certificates"), cs->n_dup - dup0, plural(cs->n_dup - dup0,
		"repeat", "repeats"));
}

/* --vmlinux, --esl, --dbx, --efi-db, --efi-dbx, --mok; exit code or 0 */
static int load_trust_source(const struct src *sr, const struct ts_stores *st)
{
	bool efivar = sr->kind == 'd' || sr->kind == 'X' || sr->kind == 'm';
	enum ts_esl_role role = sr->kind == 'x' || sr->kind == 'X' ?
		TS_ESL_DBX : sr->kind == 'd' ? TS_ESL_PLATFORM : TS_ESL_TRUSTED;
	const char *path = efivar ? ts_efivar(role, sr->kind == 'm') : sr->path;
	struct ts_note n;
	int ret;

	if (sr->kind == 'L') {
		ret = ts_add_vmlinux(st, path, &n);
		if (ret == -EINVAL || ret == -EBADMSG) {
			ms_error(path, "%s (give a vmlinuz/bzImage, a compressed "
				 "Image or an ELF vmlinux to --vmlinux)", n.why);
			return MS_EXIT_MALFORMED;
		}
		if (ret) {
			ms_error(path, "cannot read the kernel image: %s%s%s",
				 ms_io_strerror(ret), n.why ? ": " : "",
				 n.why ? n.why : "");
			return MS_EXIT_IO;
		}
		if (!n.n_runs) {
			ms_warn(path, "no built-in certificate list found (%s)",
				vm_how_name(n.how));
			return 0;
		}
		ms_info("%s: %s payload; certificate list by %s at 0x%zx, %zu "
			"bytes, %d certificates; %d revocation certificates, "
			"%u blacklist hashes", path, ms_comp_name(n.comp),
			vm_how_name(n.how), n.list_off, n.list_len, n.listed,
			n.revocation, n.hashes);
		if (n.framing_error)
			ms_warn(path, "Problem parsing in-kernel X.509 "
				"certificate list (offset %zu of the list): the "
				"kernel loads no certificate after it",
				n.stop_off);
		return 0;
	}
	ret = ts_add_esl(st, path, efivar, role, &n);
	if (ret == -ENOENT && efivar) {
		ms_warn(path, "absent: no %s here (not booted with UEFI, or "
			"efivarfs not mounted); nothing loaded from it",
			sr->kind == 'm' ? "MOK list" : role == TS_ESL_DBX ?
			"UEFI dbx" : "UEFI db");
		return 0;
	}
	if (ret == -EBADMSG) {
		ms_error(path, "%s (at byte %zu)", n.why, n.bad_off);
		return MS_EXIT_MALFORMED;
	}
	if (ret) {
		ms_error(path, "cannot read the signature list: %s",
			 ms_io_strerror(ret));
		return MS_EXIT_IO;
	}
	ms_info("%s: %u X.509, %u tbs: and %u bin: hashes, %u entries "
		"ignored", path, n.x509, n.tbs_hashes, n.bin_hashes, n.other);
	if (n.bin_hashes)
		ms_info("%s: bin: hashes are for IMA and kexec; module "
			"verification never consults them", path);
	return 0;
}

static bool is_trust_source(char kind)
{
	return strchr("LexXdm", kind) != NULL;
}

static int load_sources(const struct opts *o, const struct src *srcs,
			size_t n, const struct ts_stores *st)
{
	struct certstore *trusted = st->trusted, *revoked = st->revoked;
	const struct blacklist *bl = st->bl;
	size_t i, before, n0, dup0;
	int ret, pass;

	/* dbx first: its hashes must be known when certificates are parsed */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			bool dbx = srcs[i].kind == 'x' || srcs[i].kind == 'X';

			if (!is_trust_source(srcs[i].kind) || dbx != !pass)
				continue;
			size_t bt = st->trusted->n_skipped;
			size_t bp = st->platform->n_skipped;
			size_t br = st->revoked->n_skipped;

			ret = load_trust_source(&srcs[i], st);
			if (ret)
				return ret;
			report_skipped(st->trusted, bt);
			report_skipped(st->platform, bp);
			report_skipped(st->revoked, br);
		}
	for (i = 0; i < n; i++) {
		struct certstore *cs = srcs[i].kind == 'R' ? revoked : trusted;

		if (is_trust_source(srcs[i].kind))
			continue;
		before = cs->n_skipped;
		n0 = cs->n;
		dup0 = cs->n_dup;
		if (srcs[i].kind == 'k')
			ret = cs_add_dir(cs, srcs[i].path, o->kr, bl);
		else
			ret = cs_add_file(cs, srcs[i].path, o->kr, bl);
		if (ret == -ENODATA && srcs[i].kind != 'k') {
			ms_error(srcs[i].path, "no certificate in the file "
				 "(give a PEM or DER X.509 certificate)");
			return MS_EXIT_KEY;
		}
		if (ret) {
			ms_error(srcs[i].path, "cannot read %s: %s (check -%c)",
				 srcs[i].kind == 'k' ? "the certificate directory" :
				 "the certificate", ms_io_strerror(ret),
				 srcs[i].kind == 'R' ? 'R' : srcs[i].kind);
			return MS_EXIT_IO;
		}
		report_skipped(cs, before);
		if (srcs[i].kind == 'k')
			summarize_dir(srcs[i].path, cs, before, n0, dup0);
	}
	return 0;
}

/*
 * --kernel-config: the line, enforcement, blacklist and revocation keys
 * of that kernel.  Returns an exit code, 0 when loaded.
 */
static int load_kconfig(const char *path, const char *tree,
			const char *kline, struct kconfig *kc,
			struct opts *o, struct blacklist *bl,
			struct src *srcs, size_t *nsrc)
{
	int ret, line;

	ret = kc_load(path, tree, kc, &line);
	if (ret == -EINVAL) {
		ms_error(path, "line %d: not a kernel .config line "
			 "(CONFIG_X=value or a # comment)", line);
		return MS_EXIT_USAGE;
	}
	if (ret == -ENODATA) {
		ms_error(path, "no CONFIG_ option in it (give a kernel .config)");
		return MS_EXIT_USAGE;
	}
	if (ret) {
		ms_error(path, "cannot read the kernel config: %s (check "
			 "--kernel-config)", ms_io_strerror(ret));
		return MS_EXIT_IO;
	}
	if (kline && strcmp(kline, kc->rules.name) != 0) {
		ms_error(path, "kernel %s is the %s line, not --kernel %s",
			 kc->version[0] ? kc->version : "(no version)",
			 kc->rules.name, kline);
		return MS_EXIT_USAGE;
	}
	if (!kc->version[0])
		ms_warn(path, "no \"# Linux/<arch> <version> Kernel "
			"Configuration\" line: using the %s rules",
			kc->rules.name);
	else if (!kc->line_exact)
		ms_warn(path, "kernel %s: using the rules of the nearest line "
			"this tool knows, %s", kc->version, kc->rules.name);
	if (!kc->module_sig)
		ms_warn(path, "CONFIG_MODULE_SIG is not set: this kernel loads "
			"modules without checking any signature");
	o->kr = &kc->rules;
	if (kc->sig_force)
		o->enforce = true;
	ms_info("%s: kernel %s, %s rules%s", path, kc->version,
		kc->rules.name, kc->sig_force ? ", MODULE_SIG_FORCE" : "");
	if (kc->blacklist_path) {
		if (access(kc->blacklist_path, F_OK) != 0) {
			ms_error(path, "CONFIG_SYSTEM_BLACKLIST_HASH_LIST names "
				 "%s: %s not found (give --kernel-tree DIR)",
				 kc->blacklist, kc->blacklist_path);
			return MS_EXIT_IO;
		}
		ret = load_list(kc->blacklist_path, bl);
		if (ret)
			return ret;
	}
	if (kc->revocation_path) {
		if (access(kc->revocation_path, F_OK) != 0) {
			ms_error(path, "CONFIG_SYSTEM_REVOCATION_KEYS names %s: "
				 "%s not found (give --kernel-tree DIR)",
				 kc->revocation, kc->revocation_path);
			return MS_EXIT_IO;
		}
		srcs[*nsrc].kind = 'R';
		srcs[(*nsrc)++].path = kc->revocation_path;
	}
	return 0;
}

/* Several files (or -r): the shared worker pool, certificates loaded
 * once, verdicts printed in input order. */
struct each {
	const struct opts *o;
	const struct ms_list *files;
	struct summary *sums;	/* one per file, added up in order */
	struct summary total;
};

static int each_check(void *ctx, size_t i, FILE *out)
{
	struct each *e = ctx;

	return check_file(e->o, e->files->v[i], &e->sums[i], out);
}

static void each_add(void *ctx, size_t i, int code)
{
	struct each *e = ctx;
	const struct summary *s = &e->sums[i];

	(void)code;
	e->total.ok += s->ok;
	e->total.unsigned_ += s->unsigned_;
	e->total.nokey += s->nokey;
	e->total.nopkg += s->nopkg;
	e->total.rejected += s->rejected;
	e->total.malformed += s->malformed;
	e->total.errors += s->errors;
}

static int check_all(const struct opts *o, const struct ms_list *files,
		     int jobs, struct summary *sum)
{
	struct each e = { .o = o, .files = files };
	int code;

	e.sums = calloc(files->n ? files->n : 1, sizeof(*e.sums));
	if (!e.sums) {
		ms_error(NULL, "out of memory");
		return MS_EXIT_IO;
	}
	code = ms_batch_each(files, jobs, "verified", each_check, each_add,
			     &e);
	*sum = e.total;
	free(e.sums);
	return code;
}

int main(int argc, char **argv)
{
	struct opts o = { .kr = kr_get(KR_DEFAULT), .usage = -1 };
	struct certstore trusted = { 0 }, revoked = { 0 }, platform = { 0 };
	struct blacklist bl = { 0 };
	struct summary sum = { 0 };
	struct ms_list files = { 0 };
	struct ms_tree_skipped skipped = { 0 };
	struct src *srcs = NULL;
	struct kconfig kc = { 0 };
	struct ts_stores st;
	const char *walk = NULL, *blpath = NULL, *kcpath = NULL, *ktree = NULL;
	const char *kline = NULL;
	bool list_keys = false;
	size_t nsrc = 0, i;
	int c, code = MS_EXIT_OK, ret, jobs = 0;

	ms_log_init(argv[0]);
	/* one more for the .config's revocation keys */
	srcs = calloc((size_t)argc + 1, sizeof(*srcs));
	if (!srcs)
		return MS_EXIT_IO;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
		case 'c':
		case 'R':
			srcs[nsrc].kind = (char)c;
			srcs[nsrc++].path = optarg;
			break;
		case OPT_VMLINUX:
		case OPT_ESL:
		case OPT_DBX:
		case OPT_EFI_DB:
		case OPT_EFI_DBX:
		case OPT_MOK:
			srcs[nsrc].kind = c == OPT_VMLINUX ? 'L' : c == OPT_ESL ?
				'e' : c == OPT_DBX ? 'x' : c == OPT_EFI_DB ? 'd' :
				c == OPT_EFI_DBX ? 'X' : 'm';
			srcs[nsrc++].path = optarg ? optarg : "";
			break;
		case OPT_KCONFIG:
			kcpath = optarg;
			break;
		case OPT_KTREE:
			ktree = optarg;
			break;
		case OPT_LIST_KEYS:
			list_keys = true;
			break;
		case 'r':
			if (walk) {
				ms_error(NULL, "-r given twice (walk one tree per run)");
				goto usage_err;
			}
			walk = optarg;
			break;
		case 'S':
			o.sig = optarg;
			break;
		case 'D':
			o.detached = true;
			break;
		case 'U':
			o.usage = usage_by_name(optarg);
			if (o.usage < 0) {
				ms_error(NULL, "unknown usage '%s' (use module, "
					 "firmware, unspecified or kexec)", optarg);
				goto usage_err;
			}
			break;
		case 'K':
			o.kr = kr_by_name(optarg);
			kline = optarg;
			if (!o.kr) {
				ms_error(NULL, "unknown kernel line '%s' (use 6.1 "
					 "or 6.12)", optarg);
				goto usage_err;
			}
			break;
		case 'B':
			blpath = optarg;
			break;
		case 'E':
			o.enforce = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'j':
			if (ms_jobs_parse(optarg, &jobs)) {
				ms_error(NULL, "-j needs a number of workers "
					 "from 1 to %d", MS_JOBS_MAX);
				goto usage_err;
			}
			break;
		case 'v':
			ms_set_verbose(ms_verbose() + 1);
			break;
		case 'h':
			help();
			free(srcs);
			return MS_EXIT_OK;
		case 'V':
			printf("%s %s\n", ms_prog(), MODSIGN_VERSION);
			free(srcs);
			return MS_EXIT_OK;
		case '?':
			goto usage_err;
		default:
			goto usage_err;
		}
	}

	/* one mode per run: conflicting choices are errors, not "last wins" */
	{
		bool any = false;

		for (i = 0; i < nsrc; i++)
			any |= srcs[i].kind != 'R' && srcs[i].kind != 'x' &&
			       srcs[i].kind != 'X';
		if (!any) {
			ms_error(NULL, "no trusted certificates (give -k DIR, -c "
				 "CERT, --vmlinux, --esl, --mok or --efi-db)");
			goto usage_err;
		}
	}
	if (ktree && !kcpath) {
		ms_error(NULL, "--kernel-tree goes with --kernel-config");
		goto usage_err;
	}
	if (list_keys && (walk || optind < argc || o.json || o.sig)) {
		ms_error(NULL, "--list-keys takes no FILE, -r, --sig or --json");
		goto usage_err;
	}
	if (o.sig && o.detached) {
		ms_error(NULL, "--sig and --detached exclude each other");
		goto usage_err;
	}
	if (o.sig && (walk || argc - optind != 1)) {
		ms_error(NULL, "--sig needs exactly one FILE");
		goto usage_err;
	}
	if (o.quiet && o.json) {
		ms_error(NULL, "-q and --json exclude each other");
		goto usage_err;
	}
	if (walk && optind < argc) {
		ms_error(NULL, "give either -r DIR or FILEs, not both");
		goto usage_err;
	}
	if (!walk && optind >= argc && !list_keys) {
		ms_error(NULL, "no FILE to verify");
		goto usage_err;
	}

	if (kcpath) {
		ret = load_kconfig(kcpath, ktree, kline, &kc, &o, &bl,
				   srcs, &nsrc);
		if (ret) {
			code = ret;
			goto out;
		}
	}
	if (blpath && (ret = load_list(blpath, &bl))) {
		code = ret;
		goto out;
	}
	o.kv.kr = o.kr;
	o.kv.bl = &bl;
	o.kv.trusted = &trusted;
	o.kv.revoked = &revoked;
	o.kv.platform = &platform;
	st = (struct ts_stores){ o.kr, &trusted, &revoked, &platform, &bl };
	ret = load_sources(&o, srcs, nsrc, &st);
	if (ret) {
		code = ret;
		goto out;
	}
	if (list_keys) {
		for (i = 0; i < trusted.n; i++)
			ts_print_key(stdout, trusted.certs[i], "trusted");
		for (i = 0; i < platform.n; i++)
			ts_print_key(stdout, platform.certs[i], "platform");
		for (i = 0; i < revoked.n; i++)
			ts_print_key(stdout, revoked.certs[i], "revocation");
		printf("%zu trusted, %zu platform, %zu revocation keys; %zu "
		       "blacklist hashes\n", trusted.n, platform.n, revoked.n,
		       bl.n);
		goto out;
	}
	if (trusted.n == 0 && platform.n == 0)
		ms_warn(NULL, "no usable trusted certificate: every signature "
			"will be -ENOKEY (see -v)");

	if (walk) {
		ret = ms_tree_collect(walk, is_module_name, &files, &skipped);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret) {
			ms_error(walk, "cannot walk the directory: %s (check -r)",
				 strerror(-ret));
			code = MS_EXIT_IO;
			goto out;
		}
		if (skipped.n) {
			ms_warn(skipped.first, "cannot list this directory: "
				"%s; %zu director%s below %s skipped",
				strerror(-skipped.first_err), skipped.n,
				skipped.n == 1 ? "y" : "ies", walk);
			/* verdicts may be missing: as with find, that
			 * fails the run */
			code = ms_exit_worst(code, MS_EXIT_IO);
		}
	} else {
		for (i = optind; i < (size_t)argc; i++)
			if (ms_list_add(&files, argv[i]))
				goto nomem;
	}
	code = ms_exit_worst(code, check_all(&o, &files, jobs ? jobs :
					     files.n > 1 ?
					     ms_pool_default_workers() : 1,
					     &sum));
	if (walk && !o.quiet && !o.json)
		printf("summary: %zu files: %u ok, %u unsigned, %u "
		       "unknown key, %u unsupported, %u bad signature, "
		       "%u malformed, %u unreadable\n", files.n, sum.ok,
		       sum.unsigned_, sum.nokey, sum.nopkg,
		       sum.rejected, sum.malformed, sum.errors);
	goto out;
nomem:
	ms_error(NULL, "out of memory");
	code = MS_EXIT_IO;
out:
	ms_list_free(&files);
	ms_tree_skipped_free(&skipped);
	cs_free(&trusted);
	cs_free(&revoked);
	cs_free(&platform);
	bl_free(&bl);
	kc_free(&kc);
	free(srcs);
	return code;

usage_err:
	usage(stderr);
	free(srcs);
	return MS_EXIT_USAGE;
}
