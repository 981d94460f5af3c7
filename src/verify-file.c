// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify-file: decide offline whether a kernel would accept a signed
 * module (or a detached signature), and say why, with the kernel's errno.
 *
 * This file holds the command line and the words: which keyrings to fill
 * (trust/keyring_load), which kernel's rules to judge by (kernel/rules,
 * kernel/kernel_config), each file judged (kernel/judge_file) and its
 * verdict printed (report/verdict).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "base/batch_run.h"
#include "base/cli_options.h"
#include "base/exitcode.h"
#include "base/format.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/treewalk.h"
#include "base/workpool.h"
#include "kernel/judge_file.h"
#include "kernel/kernel_config.h"
#include "kernel/public_key.h"
#include "kernel/rules.h"
#include "report/kernel_arg.h"
#include "report/verdict.h"
#include "trust/keyring_load.h"
#include "trust/machine.h"
#include "trust/keyring_model.h"
#include "trust/machine_parts.h"
#include "trust/trust_sources.h"

/* Its own options; the shared ones are base/cli_options.h's. */
enum {
	OPT_VMLINUX = MS_OPT_OWN, OPT_ESL, OPT_DBX, OPT_EFI_DB, OPT_EFI_DBX,
	OPT_MOK, OPT_KTREE, OPT_LIST_KEYS, OPT_MACHINE, OPT_SYSROOT,
	OPT_LOCKDOWN, OPT_VENDOR, OPT_SECONDARY, OPT_SIG, OPT_DETACHED,
	OPT_USAGE, OPT_BLACKLIST, OPT_REVOKED, OPT_ENFORCE,
};

static const char short_opts[] = "k:c:";
static const struct option long_opts[] = {
	{ "keys", required_argument, NULL, 'k' },
	{ "cert", required_argument, NULL, 'c' },
	{ "sig", required_argument, NULL, OPT_SIG },
	{ "detached", no_argument, NULL, OPT_DETACHED },
	{ "usage", required_argument, NULL, OPT_USAGE },
	{ "blacklist", required_argument, NULL, OPT_BLACKLIST },
	{ "revoked", required_argument, NULL, OPT_REVOKED },
	{ "enforce", no_argument, NULL, OPT_ENFORCE },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "esl", required_argument, NULL, OPT_ESL },
	{ "dbx", required_argument, NULL, OPT_DBX },
	{ "efi-db", no_argument, NULL, OPT_EFI_DB },
	{ "efi-dbx", no_argument, NULL, OPT_EFI_DBX },
	{ "mok", no_argument, NULL, OPT_MOK },
	{ "kernel-tree", required_argument, NULL, OPT_KTREE },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "machine", optional_argument, NULL, OPT_MACHINE },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "lockdown", required_argument, NULL, OPT_LOCKDOWN },
	{ "kernel-vendor", required_argument, NULL, OPT_VENDOR },
	{ "secondary", required_argument, NULL, OPT_SECONDARY },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %1$s --machine[=RELEASE] [--sysroot DIR] [options] "
		"FILE...\n"
		"   or: %1$s -k DIR [-k DIR | -c CERT]... [options] FILE...\n"
		"   or: %1$s -k DIR [-c CERT]... [options] -r DIR\n"
		"   or: %1$s -k DIR [-c CERT]... [options] --files-from LIST "
		"[-0]\n"
		"   or: %1$s --vmlinux VMLINUZ [--kernel-config .config] FILE...\n"
		"   or: %1$s [trust sources] --list-keys\n",
		ms_prog());
}

/* --help: one line an option; man/verify-file.h2m says the rest. */
static void help(void)
{
	usage(stdout);
	printf(
"Decide, as the kernel would, whether it accepts a signed module, and why.\n"
"\n"
"Options:\n"
"      --machine[=RELEASE]  judge for this machine's kernel (default: uname -r)\n"
"      --sysroot DIR     with --machine: a mounted image of another machine\n"
"      --kernel-vendor VENDOR  debian or mainline: whose patches it carries\n"
"      --secondary CERT  add CERT to .secondary_trusted_keys as keyctl padd\n"
"  -k, --keys DIR        trust every certificate in DIR (PEM or DER)\n"
"  -c, --cert FILE       trust the certificates in FILE (PEM bundle or DER)\n"
"      --sig FILE.p7s    detached signature of the single FILE\n"
"      --detached        use FILE.p7s beside each FILE\n"
"      --usage USAGE     module, firmware, unspecified, kexec or bpf\n"
"      --blacklist FILE  CONFIG_SYSTEM_BLACKLIST_HASH_LIST file\n"
"      --revoked CERT    revocation certificate (CONFIG_SYSTEM_REVOCATION_KEYS)\n"
"      --enforce         as module.sig_enforce=1: soft failures are refused\n"
"      --lockdown MODE   none, integrity or confidentiality\n"
"      --kernel-tree DIR  where the .config's files are (default: its directory)\n"
"      --list-keys       print every trusted key as the kernel logs it, and exit\n"
"\n"
"Trust sources (where a kernel finds its keys; combine freely):\n"
"      --vmlinux FILE    the certificates built into a kernel image\n"
"      --esl FILE        the X.509 entries of an EFI_SIGNATURE_LIST file\n"
"      --mok             MokListRT from efivarfs (the machine keyring)\n"
"      --efi-db          UEFI db from efivarfs (the platform keyring)\n"
"      --dbx FILE        a dbx-style list: hashes and revoked certificates\n"
"      --efi-dbx         the same from UEFI dbx in efivarfs\n"
"\n"
"Options of every tool:\n");
	ms_cli_help(stdout, MS_CLI_ALL);
	ms_exit_help(stdout);
}

/* The command line, parsed. */
struct opts {
	const struct kr_rules *kr;
	struct kr_rules kr_buf, img_buf;	/* --kernel's, an image's */
	const char *kline;	/* --kernel as given */
	int usage;		/* -1: the default of the form */
	const char *sig, *walk, *from, *blpath, *kcpath, *ktree;
	bool detached, enforce, json, quiet, list_keys, nul;
	int jobs;
	/* --machine: the parts read, what was missing; --lockdown */
	bool machine;
	const char *release, *sysroot;
	struct mc_machine m;
	struct mp_notes notes;
	int vendor;		/* --kernel-vendor, enum km_vendor */
	struct km_model km;	/* --machine: the keyring model */
	int lockdown;		/* enum kc_lockdown, -1 when not given */
	struct tl_source *srcs;	/* one spare for the .config's revocation
				 * certificates */
	size_t nsrc;
	char **files;
	int nfiles;
};

/* What a run judges with. */
struct keyrings {
	struct keyring trusted, revoked, platform;
	struct blacklist bl;
	struct kconfig kc;
};

static void say_skipped(const struct keyring_skipped *s)
{
	char *shown = ms_one_line(s->path);
	const char *p = shown ? shown : s->path;

	if (s->index)
		ms_info("%s: certificate %d left out: -%s: %s", p, s->index,
			ms_errno_name(s->err), s->why ? s->why : "unparsable");
	else
		ms_info("%s: skipped: %s", p,
			s->why ? s->why : ms_io_strerror(s->err));
	free(shown);
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
static void say_dir(const struct tl_report *r)
{
	char f[64] = "", c[64] = "";

	if (r->empty_files || r->left_out) {
		if (r->empty_files)
			snprintf(f, sizeof(f), "%zu %s nothing", r->empty_files,
				 plural(r->empty_files, "entry loaded",
					"entries loaded"));
		if (r->left_out)
			snprintf(c, sizeof(c), "%zu %s left out", r->left_out,
				 plural(r->left_out, "certificate",
					"certificates"));
		ms_warn(r->path, "%s%s%s; %s", f,
			r->empty_files && r->left_out ? ", " : "", c,
			ms_verbose() ? "each is named above" :
			"run with -v to name each and say why");
	}
	ms_info("%s: %zu %s loaded, %zu %s of one already loaded (not an "
		"error)", r->path, r->loaded, plural(r->loaded, "certificate",
		"certificates"), r->repeats, plural(r->repeats, "repeat",
		"repeats"));
}

static void say_image(const char *path, const struct ts_note *n)
{
	if (!n->n_runs) {
		ms_warn(path, "no built-in certificate list found (%s)",
			vm_how_name(n->how));
		return;
	}
	ms_info("%s: %s payload; certificate list by %s at 0x%zx, %zu "
		"bytes, %d certificates; %d revocation certificates, %u "
		"blacklist hashes", path, ms_comp_name(n->comp),
		vm_how_name(n->how), n->list_off, n->list_len, n->listed,
		n->revocation, n->hashes);
	if (n->framing_error)
		ms_warn(path, "Problem parsing in-kernel X.509 certificate list "
			"(offset %zu of the list): the kernel loads no "
			"certificate after it", n->stop_off);
}

/* What each trust source gave (trust/keyring_load's reports); ctx is
 * the rules judged by. */
static void say_loaded(void *ctx, const struct tl_report *r)
{
	const struct ts_note *n = r->note;
	const struct kr_rules *kr = ctx;

	switch (r->event) {
	case TL_SKIPPED:
		if (ms_verbose())
			say_skipped(r->skipped);
		break;
	case TL_DIR_DONE:
		say_dir(r);
		break;
	case TL_IMAGE_DONE:
		say_image(r->path, n);
		break;
	case TL_EFIVAR_ABSENT:
		ms_warn(r->path, "absent: no %s here (not booted with UEFI, or "
			"efivarfs not mounted); nothing loaded from it",
			r->src->kind == TL_MOK ? "MOK list" :
			r->src->kind == TL_EFI_DBX ? "UEFI dbx" : "UEFI db");
		break;
	case TL_LIST_DONE:
		ms_info("%s: %u X.509, %u tbs: and %u bin: hashes, %u entries "
			"ignored", r->path, n->x509, n->tbs_hashes,
			n->bin_hashes, n->other);
		if (n->bin_hashes && kr->module_bin_blacklist)
			ms_info("%s: bin: hashes: kernel %s (Debian's) "
				"rejects a module whose whole-file SHA-256 is "
				"one", r->path, kr_label(kr));
		else if (n->bin_hashes)
			ms_info("%s: bin: hashes are for IMA and kexec; module "
				"verification on kernel %s never consults "
				"them", r->path, kr_label(kr));
		break;
	}
}

/*
 * A trust source that could not be loaded: its line, and exit code 9
 * (key, certificate or trust source unusable), as sign-file and
 * extract-sig give for a certificate they cannot use.
 */
static int load_failed(const struct tl_failure *f, int err)
{
	const char *path = f->path, *why = f->note.why;

	switch (f->src->kind) {
	case TL_VMLINUX:
		if (err == -EINVAL || err == -EBADMSG)
			ms_error(path, "%s (give a vmlinuz/bzImage, a compressed "
				 "Image or an ELF vmlinux to --vmlinux)", why);
		else
			ms_error(path, "cannot read the kernel image: %s%s%s",
				 ms_io_strerror(err), why ? ": " : "",
				 why ? why : "");
		break;
	case TL_ESL:
	case TL_DBX:
	case TL_EFI_DB:
	case TL_EFI_DBX:
	case TL_MOK:
	case TL_MOKX:
		if (err == -EBADMSG)
			ms_error(path, "%s (at byte %zu)", why,
				 f->note.bad_off);
		else
			ms_error(path, "cannot read the signature list: %s",
				 ms_io_strerror(err));
		break;
	case TL_DIR:
	case TL_CERT:
	case TL_REVOKED:
	case TL_SECONDARY:
		if (err == -EINVAL && why)
			ms_error(path, "%s", why);
		else if (err == -ENODATA && f->src->kind != TL_DIR)
			ms_error(path, "no certificate in the file (give a PEM "
				 "or DER X.509 certificate)");
		else
			ms_error(path, "cannot read %s: %s (check %s)",
				 f->src->kind == TL_DIR ?
				 "the certificate directory" :
				 "the certificate", ms_io_strerror(err),
				 f->src->kind == TL_DIR ? "-k" :
				 f->src->kind == TL_CERT ? "-c" :
				 f->src->kind == TL_SECONDARY ? "--secondary" :
				 "--revoked");
		break;
	}
	return MS_EXIT_KEY;
}

static int load_blacklist(const char *path, struct blacklist *bl)
{
	int line, err = tl_load_blacklist(path, bl, &line);

	if (err == -EINVAL) {
		ms_error(path, "line %d: not a \"tbs:<hex>\" or \"bin:<hex>\" "
			 "entry (lower-case hex, even length, at most 128 "
			 "digits)", line);
		return MS_EXIT_USAGE;
	}
	if (err) {
		ms_error(path, "cannot read the blacklist: %s (check "
			 "--blacklist)", ms_io_strerror(err));
		return MS_EXIT_KEY;
	}
	return 0;
}
/* -r: the module files below a directory */
/* The names modules are installed under (kbuild's modules_install). */
/*
 * --kernel-config: the line, enforcement, blacklist and revocation keys
 * of that kernel.  Returns an exit code, 0 when loaded.
 */
static int load_kconfig(struct opts *o, struct keyrings *k)
{
	struct kconfig *kc = &k->kc;
	const char *path = o->kcpath;
	int ret, line;

	ret = kc_load(path, o->ktree, kc, &line);
	if (ret) {
		char why[256];

		ret = kc_load_failure(ret, line, kc, why, sizeof(why));
		ms_error(path, "%s", why);
		return ret;
	}
	/* --kernel settles what the file does not say */
	if (o->kline)
		kc_settle_line(kc, o->kr);
	if (kc->too_old || (o->kline && o->kr->version != kc->rules.version)) {
		ms_error(path, kc->too_old ? "kernel %s is older than %s, the "
			 "oldest kernel this tool models: not judged" : "kernel "
			 "%s is not --kernel %s", kc->version, kc->too_old ?
			 kr_oldest : o->kline);
		return MS_EXIT_USAGE;
	}
	if (!kc->version[0] && !o->kline)
		ms_warn(path, "no \"# Linux/<arch> <version> Kernel "
			"Configuration\" line: using the %s rules",
			kc->rules.name);
	else if (kc->line_note && !o->kline)
		ms_warn(path, "kernel %s: %s", kc->version, kc->line_note);
	if (kc->rules.mldsa_authattr_waiver)
		ms_info("%s: CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA: "
			"ML-DSA module signatures may carry signed attributes",
			path);
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
		ret = load_blacklist(kc->blacklist_path, &k->bl);
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
		o->srcs[o->nsrc++] = (struct tl_source){ .kind = TL_REVOKED, .path =
							 kc->revocation_path };
	}
	return 0;
}

/*
 * --vmlinux without --kernel or --kernel-config: the rules are those of
 * the image's own version (the first image's; another image of a
 * different line is a usage error).  With them, an image of another
 * line is only said.  Returns an exit code, 0 when settled.
 */
static int vmlinux_line(struct opts *o)
{
	const struct kr_rules *first = NULL;
	struct kr_rules cand, *kr = &cand;
	const char *note, *from = NULL;
	bool chosen = o->kline || o->kcpath;
	char rel[128];
	int ret;

	for (size_t i = 0; i < o->nsrc; i++) {
		const char *path = o->srcs[i].path;

		if (o->srcs[i].kind != TL_VMLINUX)
			continue;
		ret = ts_vmlinux_version(path, rel, sizeof(rel));
		if (ret == -ENOENT) {
			ms_warn(path, "no kernel version in the image: using "
				"the %s rules (give --kernel)", o->kr->name);
			continue;
		}
		ret = ret ? ret : kr_resolve(rel, kr, &note);
		if (ret == -ERANGE && !chosen)
			return rp_kernel_release(path, rel, kr) ? MS_EXIT_USAGE : 0;
		if (ret)
			continue;	/* loading it says why, later */
		if (chosen) {
			if (kr->version != o->kr->version)
				ms_warn(path, "kernel %s has the %s rules; "
					"judging by the %s rules as asked",
					rel, kr_label(kr), kr_label(o->kr));
			continue;
		}
		if (first && kr->version != first->version) {
			ms_error(path, "kernel %s is not %s's %s (give "
				 "--kernel)", rel, from, kr_label(first));
			return MS_EXIT_USAGE;
		}
		if (!first) {
			o->img_buf = *kr;
			first = o->kr = &o->img_buf;
			from = path;
			ms_info("%s: kernel %s, %s rules", from, rel, kr->name);
			if (note)
				ms_warn(from, "kernel %s: %s", rel, note);
		}
	}
	return 0;
}

/*
 * --machine: where this kernel files the machine's UEFI keys, by its
 * config and vendor (trust/keyring_model.h); what was assumed is said.
 * An exit code, 0 when settled.
 */
static int machine_keyrings(struct opts *o, struct keyrings *k)
{
	size_t had = o->notes.n;
	struct mp_request rq = { o->srcs, &o->nsrc, &o->kcpath, o->kline,
				 &o->enforce, o->lockdown };

	if (mp_model(&o->m, o->kcpath ? &k->kc : NULL, o->vendor, &rq,
		     &o->km, &o->notes)) {
		ms_error(NULL, "out of memory");
		return MS_EXIT_IO;
	}
	for (size_t i = had; i < o->notes.n; i++)
		ms_warn(NULL, "%s", o->notes.v[i]);
	ms_info("kernel vendor %s (%s): .platform %s for modules; MokListRT "
		"%s%s%s", km_vendor_name(o->km.vendor), o->km.vendor_why,
		o->km.platform_for_modules ? "consulted" : "not consulted",
		o->km.mok == KM_MOK_NOT_LOADED ? "not loaded" :
		o->km.mok == KM_MOK_PLATFORM ? "in .platform" : "in .machine",
		o->km.mok_why ? ": " : "", o->km.mok_why ? o->km.mok_why : "");
	return 0;
}

/* A --secondary certificate the kernel would not add: keyctl padd's
 * failure, with the restriction's reason. */
static void say_refused(void *ctx, const struct tl_refusal *r)
{
	(void)ctx;
	if (!r->index)
		ms_warn(r->path, "not added: %s", r->why);
	else
		ms_warn(r->path, "certificate %d not added to "
			".secondary_trusted_keys: -%s: %s", r->index,
			ms_errno_name(r->err), r->why);
}

/* --secondary, after every other key is loaded.  An exit code. */
static int load_secondary(struct opts *o, struct keyrings *k,
			  const struct ts_stores *st)
{
	unsigned opts = o->kcpath ? k->kc.keyrings : KC_SECONDARY;
	struct tl_failure fail;
	int err = tl_add_secondaries(o->srcs, o->nsrc, st,
				     opts & KC_SECONDARY,
				     opts & KC_SECONDARY_BY_BUILTIN,
				     say_refused, NULL, &fail);

	return err ? load_failed(&fail, err) : 0;
}

/* Fill the keyrings from every source given; an exit code, 0 when done. */
static int load_keyrings(struct opts *o, struct keyrings *k,
			 struct ts_stores *st)
{
	struct tl_failure fail;
	size_t had;
	int err;

	if (o->kcpath && (err = load_kconfig(o, k)))
		return err;
	if ((err = vmlinux_line(o)))
		return err;
	if (o->machine && (err = machine_keyrings(o, k)))
		return err;
	if (o->blpath && (err = load_blacklist(o->blpath, &k->bl)))
		return err;
	*st = (struct ts_stores){ o->kr, &k->trusted, &k->revoked,
				  &k->platform, &k->bl };
	err = tl_load(o->srcs, o->nsrc, st, say_loaded, (void *)o->kr,
		      &fail);
	if (err)
		return load_failed(&fail, err);
	if ((err = load_secondary(o, k, st)) || !o->machine)
		return err;
	had = o->notes.n;
	if (mp_running(&o->m, &k->trusted, &k->platform, &o->notes)) {
		ms_error(NULL, "out of memory");
		return MS_EXIT_IO;
	}
	for (size_t i = had; i < o->notes.n; i++)
		ms_warn(NULL, "%s", o->notes.v[i]);
	return 0;
}

static void keyrings_free(struct keyrings *k)
{
	keyring_free(&k->trusted);
	keyring_free(&k->revoked);
	keyring_free(&k->platform);
	bl_free(&k->bl);
	kc_free(&k->kc);
}

static void list_keys(const struct keyrings *k)
{
	size_t i;

	for (i = 0; i < k->trusted.n; i++)
		ts_print_key(stdout, k->trusted.certs[i], "trusted");
	for (i = 0; i < k->platform.n; i++)
		ts_print_key(stdout, k->platform.certs[i], ".platform");
	for (i = 0; i < k->revoked.n; i++)
		ts_print_key(stdout, k->revoked.certs[i], "revocation");
	printf("%zu trusted, %zu platform, %zu revocation keys; %zu blacklist "
	       "hashes\n", k->trusted.n, k->platform.n, k->revoked.n, k->bl.n);
}

/* What every file of a run is judged with. */
struct judge {
	const struct opts *o;
	struct kv_ctx kv;
	struct rp_context rc;
};

/* Judge one file and print its verdict; returns its exit code. */
static int check_file(const struct judge *jd, const char *file,
		      struct rp_summary *sum, FILE *out)
{
	const struct opts *o = jd->o;
	struct kv_judgement j;
	char *p7s = NULL;
	const char *sigpath = o->sig;
	int err, code;

	if (o->detached) {
		if (asprintf(&p7s, "%s.p7s", file) < 0) {
			ms_error(file, "out of memory");
			sum->errors++;
			return MS_EXIT_IO;
		}
		sigpath = p7s;
	}
	err = kv_judge_file(&jd->kv, file, sigpath, o->usage, &j);
	if (!err && j.r.err == -ENOMEM)
		err = -ENOMEM;
	if (err) {
		char why[512];

		if (j.sig_unreadable)
			snprintf(why, sizeof(why), "cannot read the detached "
				 "signature %s: %s (give it with --sig)",
				 sigpath, ms_io_strerror(err));
		else if (j.why)
			snprintf(why, sizeof(why), "cannot decompress: %s",
				 j.why);
		else if (err == -ENOENT || err == -ENOTDIR)
			snprintf(why, sizeof(why), "cannot read: %s (check "
				 "the path)", ms_io_strerror(err));
		else
			/* a file that shrank or failed while read has a
			 * right path: the reason says what happened */
			snprintf(why, sizeof(why), "cannot read: %s",
				 ms_io_strerror(err));
		ms_error(file, "%s", why);
		if (o->json)
			rp_print_error_json(out, file, err, why);
		code = j.why ? ms_exit_for_errno(err) : MS_EXIT_IO;
		sum->errors++;
	} else {
		code = rp_exit_code(&jd->rc, j.usage, &j.r);
		rp_count(sum, j.r.err);
		if (o->json)
			rp_print_json(out, &jd->rc, file, j.usage, &j.r);
		else if (!o->quiet)
			rp_print_text(out, &jd->rc, file, j.usage, &j.r);
	}
	kv_judgement_free(&j);
	free(p7s);
	return code;
}

/* Several files (or -r): the shared worker pool, certificates loaded
 * once, verdicts printed in input order. */
struct each {
	const struct judge *jd;
	const struct ms_list *files;
	struct rp_summary *sums;	/* one per file, added up in order */
	struct rp_summary total;
};

static int each_check(void *ctx, size_t i, FILE *out)
{
	struct each *e = ctx;

	return check_file(e->jd, e->files->v[i], &e->sums[i], out);
}

static void each_add(void *ctx, size_t i, int code)
{
	struct each *e = ctx;

	(void)code;
	rp_summary_add(&e->total, &e->sums[i]);
}

static int check_all(const struct judge *jd, const struct ms_list *files,
		     int jobs, struct rp_summary *sum)
{
	struct each e = { .jd = jd, .files = files };
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

/* The files to judge: the FILE arguments, --files-from LIST's, or -r
 * DIR's modules (base/treewalk.h). */
static int collect_files(const struct opts *o, struct ms_list *files)
{
	const struct ms_tree_inputs in = {
		.names = o->files, .n = o->nfiles,
		.from = o->from, .nul = o->nul, .walk = o->walk,
	};

	return ms_tree_inputs_collect(&in, files);
}

static void add_source(struct opts *o, enum tl_kind kind, const char *path)
{
	o->srcs[o->nsrc++] = (struct tl_source){ .kind = kind, .path = path };
}

/*
 * --machine: each part of this machine (or of the one under --sysroot)
 * that no explicit option replaces becomes a source or a setting; each
 * part not there is said.  An exit code, 0 when settled.
 */
static int machine_parts(struct opts *o)
{
	struct mc_machine *m = &o->m;
	const char *root = o->sysroot ? o->sysroot : "/";
	int several, err = mc_probe(o->sysroot, o->release, m, &several);

	if (err == -ENOENT) {
		struct stat st;

		if (stat(root, &st) || !S_ISDIR(st.st_mode))
			ms_error(root, "no such directory (check --sysroot)");
		else
			ms_error(root, "no kernel installed under it (looked "
				 "for %s; give --machine=RELEASE and "
				 "--vmlinux)", mc_image_places());
		return MS_EXIT_IO;
	}
	if (err == -ENOTUNIQ) {
		ms_error(root, "%d kernels installed (give --machine=RELEASE)",
			 several);
		return MS_EXIT_USAGE;
	}
	if (err == -ENAMETOOLONG) {
		ms_error(NULL, "not a kernel release '%s' (give --machine="
			 "RELEASE as uname -r prints it)", o->release);
		return MS_EXIT_USAGE;
	}
	if (err) {
		ms_error(NULL, "--machine: %s", ms_io_strerror(err));
		return MS_EXIT_IO;
	}
	struct mp_request rq = { o->srcs, &o->nsrc, &o->kcpath, o->kline,
				  &o->enforce, o->lockdown };

	if (mp_settle(m, &rq, &o->notes)) {
		ms_error(NULL, "out of memory");
		return MS_EXIT_IO;
	}
	for (size_t i = 0; i < o->notes.n; i++)
		ms_warn(NULL, "%s", o->notes.v[i]);
	if (m->mok_pending)
		ms_warn(m->efivars, "a MOK enrolment is pending (MokNew): the "
			"key waits for confirmation in MokManager at the next "
			"boot, and is not trusted until then");
	if (m->has_vmlinuz)
		ms_info("%s: kernel image, as %s", m->vmlinuz, m->vmlinuz_from);
	if (m->has_config)
		ms_info("%s: kernel config, as %s", m->config, m->config_from);
	ms_info("%s: kernel %s, Secure Boot %s, lockdown %s, sig_enforce %s",
		root, m->release, mc_secure_boot_name(m->sb),
		m->lockdown < 0 ? "unknown" :
		kc_lockdown_name((enum kc_lockdown)m->lockdown),
		m->sig_enforce < 0 ? "unknown" : m->sig_enforce ? "Y" : "N");
	return 0;
}

/* One of its own options, or --kernel, into o: MS_CLI_GO, or
 * MS_CLI_USAGE after saying why. */
static int take_option(void *ctx, int c)
{
	struct opts *o = ctx;

	switch (c) {
	case 'k': add_source(o, TL_DIR, optarg); break;
	case 'c': add_source(o, TL_CERT, optarg); break;
	case OPT_REVOKED: add_source(o, TL_REVOKED, optarg); break;
	case OPT_VMLINUX: add_source(o, TL_VMLINUX, optarg); break;
	case OPT_ESL: add_source(o, TL_ESL, optarg); break;
	case OPT_SECONDARY: add_source(o, TL_SECONDARY, optarg); break;
	case OPT_DBX: add_source(o, TL_DBX, optarg); break;
	case OPT_EFI_DB: add_source(o, TL_EFI_DB, NULL); break;
	case OPT_EFI_DBX: add_source(o, TL_EFI_DBX, NULL); break;
	case OPT_MOK: add_source(o, TL_MOK, NULL); break;
	case OPT_KTREE: o->ktree = optarg; break;
	case OPT_LIST_KEYS: o->list_keys = true; break;
	case OPT_MACHINE:
		if (o->machine) {
			ms_error(NULL, "--machine given twice (judge for one "
				 "kernel per run)");
			return MS_CLI_USAGE;
		}
		o->machine = true;
		o->release = optarg;
		break;
	case OPT_SYSROOT: o->sysroot = optarg; break;
	case OPT_VENDOR:
		o->vendor = km_vendor_by_name(optarg);
		if (o->vendor < 0) {
			ms_error(NULL, "unknown kernel vendor '%s' (use debian "
				 "or mainline)", optarg);
			return MS_CLI_USAGE;
		}
		break;
	case OPT_LOCKDOWN:
		o->lockdown = kc_lockdown_by_name(optarg);
		if (o->lockdown < 0) {
			ms_error(NULL, "unknown lockdown '%s' (use none, "
				 "integrity or confidentiality)", optarg);
			return MS_CLI_USAGE;
		}
		break;
	case OPT_SIG: o->sig = optarg; break;
	case OPT_DETACHED: o->detached = true; break;
	case OPT_BLACKLIST: o->blpath = optarg; break;
	case OPT_ENFORCE: o->enforce = true; break;
	case OPT_USAGE:
		o->usage = kv_usage_by_name(optarg);
		if (o->usage < 0) {
			ms_error(NULL, "unknown usage '%s' (use module, "
				 "firmware, unspecified, kexec or bpf)",
				 optarg);
			return MS_CLI_USAGE;
		}
		break;
	case MS_OPT_KERNEL:
		if (rp_kernel_release("--kernel", optarg, &o->kr_buf))
			return MS_CLI_USAGE;
		o->kr = &o->kr_buf;
		o->kline = optarg;
		break;
	default:
		return MS_CLI_USAGE;
	}
	return MS_CLI_GO;
}

static void help_cb(void *ctx)
{
	(void)ctx;
	help();
}

/* --version: whether this build checks ML-DSA signatures */
static int mldsa_checkable(void)
{
	return pk_mldsa_checkable();
}

/* Its options: its own, and the shared ones (base/cli_options.h) into o. */
static int parse_options(int argc, char **argv, struct opts *o)
{
	const struct ms_cli_tool t = {
		.name = "verify-file", .takes = MS_CLI_ALL,
		.letters = MS_CLI_ALL, .tell = MS_CLI_KERNEL,
		.short_opts = short_opts, .long_opts = long_opts,
		.take = take_option, .help = help_cb,
		.mldsa = mldsa_checkable, .ctx = o,
	};
	struct ms_cli c = { 0 };
	int ret = ms_cli_parse(argc, argv, &t, &c);

	o->walk = c.walk;
	o->from = c.from;
	o->nul = c.nul;
	o->jobs = c.jobs;
	o->quiet = c.quiet;
	o->json = c.json;
	o->kcpath = c.kconfig;
	ms_set_verbose(ms_verbose() + c.verbose);
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return ret;
}

/* One mode per run: conflicting choices are errors, not "last wins".
 * 0 when the command line holds together. */
static int validate(const struct opts *o)
{
	bool trusts = false;

	for (size_t i = 0; i < o->nsrc; i++)
		trusts |= tl_kind_trusts(o->srcs[i].kind);
	if (o->sysroot && !o->machine)
		ms_error(NULL, "--sysroot goes with --machine");
	else if (!trusts && o->machine && !o->m.has_efivars)
		ms_error(NULL, "--machine found no kernel image and no UEFI "
			 "variables to trust (give -k DIR, -c CERT or "
			 "--vmlinux)");
	else if (!trusts)
		ms_error(NULL, "no trusted certificates (give -k DIR, -c CERT, "
			 "--vmlinux, --esl, --mok or --efi-db)");
	else if (o->ktree && !o->kcpath)
		ms_error(NULL, "--kernel-tree goes with --kernel-config");
	else if (o->list_keys && (o->walk || o->nfiles || o->json || o->sig ||
				  o->from))
		ms_error(NULL, "--list-keys takes no FILE, -r, --files-from, "
			 "--sig or --json");
	else if (o->sig && o->detached)
		ms_error(NULL, "--sig and --detached exclude each other");
	else if (o->sig && (o->walk || o->from || o->nfiles != 1))
		ms_error(NULL, "--sig needs exactly one FILE");
	else if (o->quiet && o->json)
		ms_error(NULL, "-q and --json exclude each other");
	else if (o->walk && o->nfiles)
		ms_error(NULL, "give either -r DIR or FILEs, not both");
	else if (o->nul && !o->from)
		ms_error(NULL, "-0 goes with --files-from");
	else if (!o->walk && !o->from && !o->nfiles && !o->list_keys)
		ms_error(NULL, "no FILE to verify");
	else
		return 0;
	return -1;
}

/* Whether .platform vouches for modules: the machine's kernel's
 * vendor, --kernel-vendor, else the distributions' behaviour. */
static bool platform_counts(const struct opts *o)
{
	if (o->machine)
		return o->km.platform_for_modules;
	return o->vendor != KM_VENDOR_MAINLINE;
}

/* Judge every file with the keyrings filled; the run's exit code. */
static int judge_files(const struct opts *o, struct keyrings *k)
{
	struct judge jd = {
		.o = o,
		.kv = { o->kr, &k->trusted, &k->revoked, &k->bl,
			platform_counts(o) ? &k->platform : NULL },
		.rc = { o->kr, o->enforce, MC_LD_UNKNOWN, NULL,
			o->machine ? &o->m : NULL, o->notes.v, o->notes.n,
			o->machine ? &o->km : NULL },
	};
	struct ms_list files = { 0 };
	struct rp_summary sum = { 0 };
	int code;

	jd.rc.lockdown = mc_lockdown(o->lockdown, o->kcpath ? &k->kc : NULL,
				     o->machine ? &o->m : NULL,
				     &jd.rc.locked_by);

	if (k->trusted.n == 0 && k->platform.n == 0)
		ms_warn(NULL, "no usable trusted certificate: every signature "
			"will be -ENOKEY (see -v)");
	code = collect_files(o, &files);
	if (!files.n) {
		ms_list_free(&files);
		return code;
	}
	code = ms_exit_worst(code, check_all(&jd, &files, o->jobs ? o->jobs :
		files.n > 1 ? ms_pool_default_workers() : 1, &sum));
	if ((o->walk || o->from) && o->json)
		rp_print_summary_json(stdout, files.n, &sum, code);
	else if ((o->walk || o->from) && !o->quiet)
		rp_print_summary(stdout, files.n, &sum);
	ms_list_free(&files);
	return code;
}

int main(int argc, char **argv)
{
	struct opts o = { .kr = kr_get(KR_DEFAULT), .usage = -1,
			  .lockdown = -1 };
	struct keyrings k = { 0 };
	struct ts_stores st;
	int code;

	ms_log_init(argv[0]);
	/* the arguments, the .config's revocation certificates and
	 * --machine's image, MOK list, db and dbx */
	o.srcs = calloc((size_t)argc + 1 + MP_MAX_SOURCES, sizeof(*o.srcs));
	if (!o.srcs)
		return MS_EXIT_IO;
	code = parse_options(argc, argv, &o);
	if (code) {
		code = code == MS_CLI_STOP ? MS_EXIT_OK : -1;
		goto done;
	}
	if (o.machine && (code = machine_parts(&o)))
		goto done;
	if (validate(&o)) {
		code = -1;
		goto done;
	}
	code = load_keyrings(&o, &k, &st);
	if (!code && o.list_keys)
		list_keys(&k);
	else if (!code)
		code = judge_files(&o, &k);
	keyrings_free(&k);
done:
	if (code < 0) {
		ms_usage_hint();
		code = MS_EXIT_USAGE;
	}
	free(o.srcs);
	mp_notes_free(&o.notes);
	mc_free(&o.m);
	return code;
}
