// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include <openssl/evp.h>

#include "base/exitcode.h"
#include "base/format.h"
#include "base/infile.h"
#include "base/log.h"
#include "module/compress.h"
#include "report/kernel_arg.h"
#include "trust/kernel_image.h"
#include "trust/trust_sources.h"
#include "verify-file/load_report.h"

static void say_skipped(const struct keyring_skipped *s)
{
	char *shown = format_one_line(s->path);
	const char *p = shown ? shown : s->path;

	if (s->index)
		log_info("%s: certificate %d left out: -%s: %s", p, s->index,
			exitcode_errno_name(s->err), s->why ? s->why : "unparsable");
	else
		log_info("%s: skipped: %s", p,
			s->why ? s->why : infile_strerror(s->err));
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
static void say_dir(const struct keyring_load_report *r)
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
		log_warn(r->path, "%s%s%s; %s", f,
			r->empty_files && r->left_out ? ", " : "", c,
			log_verbose() ? "each is named above" :
			"run with -v to name each and say why");
	}
	log_info("%s: %zu %s loaded, %zu %s of one already loaded (not an "
		"error)", r->path, r->loaded, plural(r->loaded, "certificate",
		"certificates"), r->repeats, plural(r->repeats, "repeat",
		"repeats"));
}

static void say_image(const char *path, const struct trust_sources_note *n)
{
	if (!n->n_runs) {
		log_warn(path, "no built-in certificate list found (%s)",
			kernel_image_how_name(n->how));
		return;
	}
	log_info("%s: %s payload; certificate list by %s at 0x%zx, %zu "
		"bytes, %d certificates; %d revocation certificates, %u "
		"blacklist hashes", path, compress_name(n->comp),
		kernel_image_how_name(n->how), n->list_off, n->list_len, n->listed,
		n->revocation, n->hashes);
	if (n->framing_error)
		log_warn(path, "Problem parsing in-kernel X.509 certificate list "
			"(offset %zu of the list): the kernel loads no "
			"certificate after it", n->stop_off);
}

static void say_list(const struct keyring_load_report *r, const struct rules_rules *kr)
{
	const struct trust_sources_note *n = r->note;

	log_info("%s: %u X.509, %u tbs: and %u bin: hashes, %u entries "
		"ignored", r->path, n->x509, n->tbs_hashes, n->bin_hashes,
		n->other);
	if (n->bin_hashes && kr->module_bin_blacklist)
		log_info("%s: bin: hashes: kernel %s (Debian's) rejects a "
			"module whose whole-file SHA-256 is one", r->path,
			rules_label(kr));
	else if (n->bin_hashes)
		log_info("%s: bin: hashes are for IMA and kexec; module "
			"verification on kernel %s never consults them",
			r->path, rules_label(kr));
}

/* What each trust source gave (trust/keyring_load's reports); ctx is
 * the rules judged by. */
static void say_loaded(void *ctx, const struct keyring_load_report *r)
{
	switch (r->event) {
	case KEYRING_LOAD_SKIPPED:
		if (log_verbose())
			say_skipped(r->skipped);
		break;
	case KEYRING_LOAD_DIR_DONE:
		say_dir(r);
		break;
	case KEYRING_LOAD_IMAGE_DONE:
		say_image(r->path, r->note);
		break;
	case KEYRING_LOAD_EFIVAR_ABSENT:
		log_warn(r->path, "absent: no %s here (not booted with UEFI, or "
			"efivarfs not mounted); nothing loaded from it",
			r->src->kind == KEYRING_LOAD_MOK ? "MOK list" :
			r->src->kind == KEYRING_LOAD_EFI_DBX ? "UEFI dbx" : "UEFI db");
		break;
	case KEYRING_LOAD_LIST_DONE:
		say_list(r, ctx);
		break;
	}
}

/* A --secondary certificate the kernel would not add: keyctl padd's
 * failure, with the restriction's reason. */
static void say_refused(void *ctx, const struct keyring_load_refusal *r)
{
	(void)ctx;
	if (!r->index)
		log_warn(r->path, "not added: %s", r->why);
	else
		log_warn(r->path, "certificate %d not added to "
			".secondary_trusted_keys: -%s: %s", r->index,
			exitcode_errno_name(r->err), r->why);
}

/* A .config read: what it leaves assumed, and (-v) what it says. */
static void say_config(const struct keyrings_setup *s, const struct kernel_config *kc)
{
	const char *path = s->kcpath;

	if (!kc->version[0] && !s->kline)
		log_warn(path, "no \"# Linux/<arch> <version> Kernel "
			"Configuration\" line: using the %s rules",
			kc->rules.name);
	else if (kc->line_note && !s->kline)
		log_warn(path, "kernel %s: %s", kc->version, kc->line_note);
	if (kc->rules.mldsa_authattr_waiver)
		log_info("%s: CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA: "
			"ML-DSA module signatures may carry signed attributes",
			path);
	if (kc->modules == KERNEL_CONFIG_MODS_NONE)
		log_warn(path, "CONFIG_MODULES is not set: this kernel loads no "
			"module (every one REJECTED -ENOSYS)");
	else if (kc->modules == KERNEL_CONFIG_MODS_UNCHECKED)
		log_warn(path, "CONFIG_MODULE_SIG is not set: this kernel loads "
			"modules without checking any signature (every ELF "
			"module OK)");
	else if (kc->modules == KERNEL_CONFIG_MODS_ASSUMED)
		log_warn(path, "no CONFIG_MODULE_SIG line (a whole .config says "
			"\"# CONFIG_MODULE_SIG is not set\" when it is off): "
			"signatures taken as checked");
	log_info("%s: kernel %s, %s rules%s", path, kc->version,
		kc->rules.name, kc->sig_force ? ", MODULE_SIG_FORCE" : "");
}

static void say_image_line(const struct keyrings_image_note *n)
{
	switch (n->event) {
	case KEYRINGS_IMG_NO_VERSION:
		log_warn(n->path, "no kernel version in the image: using the %s "
			"rules (give --kernel)", n->kr->name);
		break;
	case KEYRINGS_IMG_OTHER_LINE:
		log_warn(n->path, "kernel %s has the %s rules; judging by the %s "
			"rules as asked", n->rel, rules_label(n->kr),
			rules_label(n->asked));
		break;
	case KEYRINGS_IMG_RULES:
		log_info("%s: kernel %s, %s rules", n->path, n->rel,
			n->kr->name);
		if (n->note)
			log_warn(n->path, "kernel %s: %s", n->rel, n->note);
		break;
	}
}

static void say_notes(const struct machine_parts_notes *notes, size_t from)
{
	for (size_t i = from; i < notes->n; i++)
		log_warn(NULL, "%s", notes->v[i]);
}

static void say_model(const struct keyring_model *km)
{
	log_info("kernel vendor %s (%s): .platform %s for modules; MokListRT "
		"%s%s%s", vendors_name(km->vendor), km->vendor_why,
		km->platform_for_modules ? "consulted" : "not consulted",
		km->mok == KEYRING_MODEL_MOK_NOT_LOADED ? "not loaded" :
		km->mok == KEYRING_MODEL_MOK_PLATFORM ? "in .platform" : "in .machine",
		km->mok_why ? ": " : "", km->mok_why ? km->mok_why : "");
	log_info("before MOK, %s", km->mok_asks_why);
	if (km->ima_enforce)
		log_info("module signatures enforced: %s", km->enforce_why);
}

static void say_beside(const char *image, const char *config,
		       const char *layout, const char *looked,
		       const char *other)
{
	if (config)
		log_warn(image, "judged with the kernel config beside it, %s "
			"(%s; give --kernel-config to choose another)", config,
			layout);
	else if (other)
		log_warn(image, "%s is the config of kernel %s, not of this "
			"image's: not used; crypto availability assumed (give "
			"--kernel-config)", looked, other);
	else if (looked)
		log_warn(image, "no kernel config beside it (no %s): crypto "
			"availability assumed, every algorithm of the rules' "
			"line taken as built (give --kernel-config)", looked);
	else
		log_warn(image, "no kernel config looked for (the name is "
			"neither vmlinuz-RELEASE nor .../RELEASE/vmlinuz): "
			"crypto availability assumed, every algorithm of the "
			"rules' line taken as built (give --kernel-config)");
}

static void say_in_image(const struct kernel_config *kc, const char *image)
{
	if (kc->blacklist)
		log_info("CONFIG_SYSTEM_BLACKLIST_HASH_LIST %s: compiled into "
			"the kernel: its hashes are taken from %s", kc->blacklist,
			image);
	if (kc->revocation)
		log_info("CONFIG_SYSTEM_REVOCATION_KEYS %s: compiled into the "
			"kernel: its certificates are taken from %s",
			kc->revocation, image);
}

const struct keyrings_words ms_load_report_words = {
	.loaded = say_loaded,
	.refused = say_refused,
	.config = say_config,
	.image = say_image_line,
	.notes = say_notes,
	.model = say_model,
	.beside = say_beside,
	.in_image = say_in_image,
};

/*
 * A trust source that could not be loaded.  The tool exits 9 (key,
 * certificate or trust source unusable), as sign-file and extract-sig
 * do for a certificate they cannot use.
 */
static void say_source_failure(const struct keyring_load_failure *f, int err)
{
	const char *path = f->path, *why = f->note.why;

	switch (f->src->kind) {
	case KEYRING_LOAD_VMLINUX:
		if (err == -EINVAL || err == -EBADMSG)
			log_error(path, "%s (give a vmlinuz/bzImage, a compressed "
				 "Image or an ELF vmlinux to --vmlinux)", why);
		else
			log_error(path, "cannot read the kernel image: %s%s%s",
				 infile_strerror(err), why ? ": " : "",
				 why ? why : "");
		break;
	case KEYRING_LOAD_ESL:
	case KEYRING_LOAD_DBX:
	case KEYRING_LOAD_EFI_DB:
	case KEYRING_LOAD_EFI_DBX:
	case KEYRING_LOAD_MOK:
	case KEYRING_LOAD_MOKX:
		if (err == -EBADMSG)
			log_error(path, "%s (at byte %zu)", why,
				 f->note.bad_off);
		else
			log_error(path, "cannot read the signature list: %s",
				 infile_strerror(err));
		break;
	case KEYRING_LOAD_DIR:
	case KEYRING_LOAD_CERT:
	case KEYRING_LOAD_REVOKED:
	case KEYRING_LOAD_SECONDARY:
		if (err == -EINVAL && why)
			log_error(path, "%s", why);
		else if (err == -ENODATA && f->src->kind != KEYRING_LOAD_DIR)
			log_error(path, "no certificate in the file (give a PEM "
				 "or DER X.509 certificate)");
		else
			log_error(path, "cannot read %s: %s (check %s)",
				 f->src->kind == KEYRING_LOAD_DIR ?
				 "the certificate directory" :
				 "the certificate", infile_strerror(err),
				 f->src->kind == KEYRING_LOAD_DIR ? "-k" :
				 f->src->kind == KEYRING_LOAD_CERT ? "-c" :
				 f->src->kind == KEYRING_LOAD_SECONDARY ? "--secondary" :
				 "--revoked");
		break;
	}
}

/* A --kernel-config that kernel_config_load() could not read, or whose kernel is
 * not the one judged, or that names a file not there. */
static void say_config_failure(const struct keyrings_failure *f)
{
	const struct kernel_config *kc = f->kc;

	if (f->step == KEYRINGS_KCONFIG_FILE && f->revocation)
		log_error(f->path, "CONFIG_SYSTEM_REVOCATION_KEYS names %s: %s "
			 "not found (give --kernel-tree DIR)", kc->revocation,
			 kc->revocation_path);
	else if (f->step == KEYRINGS_KCONFIG_FILE)
		log_error(f->path, "CONFIG_SYSTEM_BLACKLIST_HASH_LIST names %s: "
			 "%s not found (give --kernel-tree DIR)",
			 kc->blacklist, kc->blacklist_path);
	else if (f->step == KEYRINGS_KCONFIG_RULES)
		log_error(f->path, kc->too_old ? "kernel %s is older than %s, "
			 "the oldest kernel this tool models: not judged" :
			 "kernel %s is not --kernel %s", kc->version,
			 kc->too_old ? rules_oldest : f->kline);
	else {
		char why[256];

		kernel_config_load_failure(f->err, f->line, kc, why, sizeof(why));
		log_error(f->path, "%s", why);
	}
}

/* --machine found no kernel to judge, or could not look. */
static void say_machine_failure(const struct keyrings_failure *f)
{
	if (f->err == -ENOENT && f->no_root)
		log_error(f->root, "no such directory (check --sysroot)");
	else if (f->err == -ENOENT)
		log_error(f->root, "no kernel installed under it (looked for "
			 "%s; give --machine=RELEASE and --vmlinux)",
			 machine_image_places());
	else if (f->err == -ENOTUNIQ)
		log_error(f->root, "%d kernels installed (give "
			 "--machine=RELEASE)", f->several);
	else if (f->err == -ENAMETOOLONG)
		log_error(NULL, "not a kernel release '%s' (give --machine="
			 "RELEASE as uname -r prints it)", f->release);
	else
		log_error(NULL, "--machine: %s", infile_strerror(f->err));
}

void ms_load_report_say_failure(const struct keyrings_failure *f)
{
	struct rules_rules kr;

	switch (f->step) {
	case KEYRINGS_NOMEM:
		log_error(NULL, "out of memory");
		break;
	case KEYRINGS_MACHINE:
		say_machine_failure(f);
		break;
	case KEYRINGS_KCONFIG:
	case KEYRINGS_KCONFIG_RULES:
	case KEYRINGS_KCONFIG_FILE:
		say_config_failure(f);
		break;
	case KEYRINGS_BLACKLIST:
		if (f->err == -EINVAL)
			log_error(f->path, "line %d: not a \"tbs:<hex>\" or "
				 "\"bin:<hex>\" entry (lower-case hex, even "
				 "length, at most 128 digits)", f->line);
		else
			log_error(f->path, "cannot read the blacklist: %s "
				 "(check --blacklist)", infile_strerror(f->err));
		break;
	case KEYRINGS_IMAGE_TOO_OLD:
		/* the words every tool gives a release older than the
		 * oldest line */
		rp_kernel_arg_release(f->path, f->rel, &kr);
		break;
	case KEYRINGS_IMAGE_LINES:
		log_error(f->path, "kernel %s is not %s's %s (give --kernel)",
			 f->rel, f->from, rules_label(f->first));
		break;
	case KEYRINGS_SOURCE:
		say_source_failure(&f->source, f->err);
		break;
	}
}

void ms_load_report_say_machine(const char *root, const struct machine *m,
				const struct machine_parts_notes *notes)
{
	say_notes(notes, 0);
	if (m->mok_pending)
		log_warn(m->efivars, "a MOK enrolment is pending (MokNew): the "
			"key waits for confirmation in MokManager at the next "
			"boot, and is not trusted until then");
	if (m->has_vmlinuz)
		log_info("%s: kernel image, as %s", m->vmlinuz, m->vmlinuz_from);
	if (m->has_config)
		log_info("%s: kernel config, as %s", m->config, m->config_from);
	log_info("%s: kernel %s, Secure Boot %s, lockdown %s, sig_enforce %s",
		root ? root : "/", m->release, machine_secure_boot_name(m->sb),
		m->lockdown < 0 ? "unknown" :
		kernel_config_lockdown_name((enum kernel_config_lockdown)m->lockdown),
		m->sig_enforce < 0 ? "unknown" : m->sig_enforce ? "Y" : "N");
}

static void colon_hex(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%02X", i ? ":" : "", p[i]);
}

/*
 * One key as the kernel logs it ("Loaded X.509 cert '<description>'"),
 * then its subject, serial, SKID, key type and SHA-256 fingerprint.
 */
static void print_key(FILE *f, const struct x509k_cert *c,
		      const char *keyring)
{
	unsigned char fp[EVP_MAX_MD_SIZE];
	unsigned int fplen = 0;
	char buf[512];

	x509k_describe(c, buf, sizeof(buf));
	fprintf(f, "Loaded X.509 cert '%s'\n", buf);
	format_name(buf, sizeof(buf), c->subject, c->subject_len);
	fprintf(f, "    subject: %s\n", buf);
	format_serial(buf, sizeof(buf), c->serial, c->serial_len);
	fprintf(f, "    serial:  %s\n", buf);
	if (c->skid.data)
		format_hex_to(buf, sizeof(buf), c->skid.data, c->skid.len);
	else
		snprintf(buf, sizeof(buf), "(none)");
	fprintf(f, "    skid:    %s\n", buf);
	if (c->pub.pkey)
		format_pkey(c->pub.pkey, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%s", c->pub.algo);
	fprintf(f, "    key:     %s\n", buf);
	fprintf(f, "    sha256:  ");
	if (EVP_Digest(c->der, c->der_len, fp, &fplen, EVP_sha256(), NULL))
		colon_hex(f, fp, fplen);
	fprintf(f, "\n    keyring: %s\n    from:    %s\n",
		c->keyring ? c->keyring : keyring, c->path ? c->path : "");
	if (c->filed_why)
		fprintf(f, "    why:     %s\n", c->filed_why);
}

void ms_load_report_list_keys(FILE *out, const struct keyrings *k)
{
	size_t i;

	for (i = 0; i < k->trusted.n; i++)
		print_key(out, k->trusted.certs[i], "trusted");
	for (i = 0; i < k->platform.n; i++)
		print_key(out, k->platform.certs[i], ".platform");
	for (i = 0; i < k->revoked.n; i++)
		print_key(out, k->revoked.certs[i], "revocation");
	fprintf(out, "%zu trusted, %zu platform, %zu revocation keys; %zu "
		"blacklist hashes\n", k->trusted.n, k->platform.n,
		k->revoked.n, k->bl.n);
}
