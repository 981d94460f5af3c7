// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify-file: decide offline whether a kernel would accept a signed
 * module (or a detached signature), and say why, with the kernel's errno.
 *
 * This file holds the command line and the exit codes: the keyrings are
 * filled by trust/keyrings, what that says is verify-file/load_report's, and
 * each file is judged and its verdict printed by verify-file/verify_run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/cli_options.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "verify-file/verify_file.h"

/* Its own options; the shared ones are base/cli_options.h's. */
enum {
	OPT_VMLINUX = CLI_OPTIONS_CODE_OWN, OPT_ESL, OPT_DBX, OPT_EFI_DB, OPT_EFI_DBX,
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
		log_prog());
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
"      --kernel-vendor VENDOR  debian, ubuntu, fedora, suse, arch or kernel.org\n"
"                          (mainline): whose patches and shipped options\n"
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
	cli_options_help(stdout, CLI_OPTIONS_ALL);
	exitcode_help(stdout);
}

/* The command line, parsed. */
struct opts {
	const struct rules_rules *kr;
	struct rules_rules rules_buf;	/* --kernel's */
	const char *kline;	/* --kernel as given */
	int usage;		/* -1: the default of the form */
	const char *sig, *walk, *from, *blpath, *kcpath, *ktree;
	bool detached, enforce, json, quiet, list_keys, nul;
	int jobs;
	/* --machine: the parts read, what was missing; --lockdown */
	bool machine;
	const char *release, *sysroot;
	struct machine m;
	struct machine_parts_notes notes;
	int vendor;		/* --kernel-vendor, enum vendors_id */
	int lockdown;		/* enum kernel_config_lockdown, -1 when not given */
	struct keyring_load_source *srcs;	/* one spare for the .config's revocation
				 * certificates */
	size_t nsrc;
	char **files;
	int nfiles;
	/* --json: the files were reached (they print their own objects);
	 * else the errno of a failure of the whole run, when known */
	bool judging;
	int err;
};

static void add_source(struct opts *o, enum keyring_load_kind kind, const char *path)
{
	o->srcs[o->nsrc++] = (struct keyring_load_source){ .kind = kind, .path = path };
}

/*
 * The exit code of a step of filling the keyrings that failed
 * (trust/keyrings.h): a file that is not what its option wants (a
 * .config, a blacklist entry, a release) is a usage error, a trust
 * source or blacklist that cannot be used 9, anything else that cannot
 * be read 7.
 */
static int load_exit(const struct keyrings_failure *f)
{
	switch (f->step) {
	case KEYRINGS_MACHINE:
		return f->err == -ENOTUNIQ || f->err == -ENAMETOOLONG ?
		       EXITCODE_USAGE : EXITCODE_IO;
	case KEYRINGS_KCONFIG:
		return f->err == -EINVAL || f->err == -ENODATA ?
		       EXITCODE_USAGE : EXITCODE_IO;
	case KEYRINGS_KCONFIG_RULES:
	case KEYRINGS_IMAGE_TOO_OLD:
	case KEYRINGS_IMAGE_LINES:
		return EXITCODE_USAGE;
	case KEYRINGS_BLACKLIST:
		return f->err == -EINVAL ? EXITCODE_USAGE : EXITCODE_KEY;
	case KEYRINGS_SOURCE:
		return EXITCODE_KEY;
	case KEYRINGS_NOMEM:
	case KEYRINGS_KCONFIG_FILE:
		break;
	}
	return EXITCODE_IO;
}

/*
 * --machine: each part of this machine (or of the one under --sysroot)
 * that no explicit option replaces becomes a source or a setting; each
 * part not there is said.  An exit code, 0 when settled.
 */
static int machine_parts(struct opts *o)
{
	struct machine_parts_request rq = { o->srcs, &o->nsrc, &o->kcpath, o->kline,
				 &o->enforce, o->lockdown };
	struct keyrings_failure f;

	if (keyrings_machine(o->sysroot, o->release, &rq, &o->m, &o->notes, &f)) {
		ms_load_report_say_failure(&f);
		o->err = f.err;
		return load_exit(&f);
	}
	ms_load_report_say_machine(o->sysroot, &o->m, &o->notes);
	return 0;
}

/* One of its own options, or --kernel, into o: CLI_OPTIONS_GO, or
 * CLI_OPTIONS_USAGE after saying why. */
static int take_option(void *ctx, int c)
{
	struct opts *o = ctx;

	switch (c) {
	case 'k': add_source(o, KEYRING_LOAD_DIR, optarg); break;
	case 'c': add_source(o, KEYRING_LOAD_CERT, optarg); break;
	case OPT_REVOKED: add_source(o, KEYRING_LOAD_REVOKED, optarg); break;
	case OPT_VMLINUX: add_source(o, KEYRING_LOAD_VMLINUX, optarg); break;
	case OPT_ESL: add_source(o, KEYRING_LOAD_ESL, optarg); break;
	case OPT_SECONDARY: add_source(o, KEYRING_LOAD_SECONDARY, optarg); break;
	case OPT_DBX: add_source(o, KEYRING_LOAD_DBX, optarg); break;
	case OPT_EFI_DB: add_source(o, KEYRING_LOAD_EFI_DB, NULL); break;
	case OPT_EFI_DBX: add_source(o, KEYRING_LOAD_EFI_DBX, NULL); break;
	case OPT_MOK: add_source(o, KEYRING_LOAD_MOK, NULL); break;
	case OPT_KTREE: o->ktree = optarg; break;
	case OPT_LIST_KEYS: o->list_keys = true; break;
	case OPT_MACHINE:
		if (o->machine) {
			log_error(NULL, "--machine given twice (judge for one "
				 "kernel per run)");
			return CLI_OPTIONS_USAGE;
		}
		o->machine = true;
		o->release = optarg;
		break;
	case OPT_SYSROOT: o->sysroot = optarg; break;
	case OPT_VENDOR:
		o->vendor = vendors_by_name(optarg);
		if (o->vendor < 0) {
			log_error(NULL, "unknown kernel vendor '%s' (use %s)",
				 optarg, vendors_names());
			return CLI_OPTIONS_USAGE;
		}
		break;
	case OPT_LOCKDOWN:
		o->lockdown = kernel_config_lockdown_by_name(optarg);
		if (o->lockdown < 0) {
			log_error(NULL, "unknown lockdown '%s' (use none, "
				 "integrity or confidentiality)", optarg);
			return CLI_OPTIONS_USAGE;
		}
		break;
	case OPT_SIG: o->sig = optarg; break;
	case OPT_DETACHED: o->detached = true; break;
	case OPT_BLACKLIST: o->blpath = optarg; break;
	case OPT_ENFORCE: o->enforce = true; break;
	case OPT_USAGE:
		if (rp_kernel_arg_usage(optarg, &o->usage))
			return CLI_OPTIONS_USAGE;
		break;
	case CLI_OPTIONS_CODE_KERNEL:
		if (rp_kernel_arg_release("--kernel", optarg, &o->rules_buf))
			return CLI_OPTIONS_USAGE;
		o->kr = &o->rules_buf;
		o->kline = optarg;
		break;
	default:
		return CLI_OPTIONS_USAGE;
	}
	return CLI_OPTIONS_GO;
}

static void help_cb(void *ctx)
{
	(void)ctx;
	help();
}

/* Its options: its own, and the shared ones (base/cli_options.h) into o. */
static int parse_options(int argc, char **argv, struct opts *o)
{
	const struct cli_options_tool t = {
		.name = "verify-file", .takes = CLI_OPTIONS_ALL,
		.letters = CLI_OPTIONS_ALL, .tell = CLI_OPTIONS_KERNEL,
		.short_opts = short_opts, .long_opts = long_opts,
		.take = take_option, .help = help_cb,
		.mldsa = rp_kernel_arg_mldsa_checkable, .ctx = o,
	};
	struct cli_options c = { 0 };
	int ret = cli_options_parse(argc, argv, &t, &c);

	o->walk = c.walk;
	o->from = c.from;
	o->nul = c.nul;
	o->jobs = c.jobs;
	o->quiet = c.quiet;
	o->json = c.json;
	o->kcpath = c.kconfig;
	log_set_verbose(log_verbose() + c.verbose);
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return ret;
}

/* One mode per run: conflicting choices are errors, not "last wins".
 * 0 when the command line holds together, -1 for a usage error, or the
 * exit code of a run that has nothing to trust. */
static int validate(const struct opts *o)
{
	bool trusts = false;

	for (size_t i = 0; i < o->nsrc; i++)
		trusts |= keyring_load_kind_trusts(o->srcs[i].kind);
	if (o->sysroot && !o->machine)
		log_error(NULL, "--sysroot goes with --machine");
	else if (!trusts && o->machine && !o->m.has_efivars) {
		log_error(NULL, "--machine found no kernel image and no UEFI "
			 "variables to trust (give -k DIR, -c CERT or "
			 "--vmlinux)");
		return EXITCODE_KEY;
	} else if (!trusts)
		log_error(NULL, "no trusted certificates (give --machine, -k "
			 "DIR, -c CERT, --vmlinux, --esl, --mok or "
			 "--efi-db)");
	else if (o->ktree && !o->kcpath)
		log_error(NULL, "--kernel-tree goes with --kernel-config");
	else if (o->list_keys && (o->walk || o->nfiles || o->json || o->sig ||
				  o->from))
		log_error(NULL, "--list-keys takes no FILE, -r, --files-from, "
			 "--sig or --json");
	else if (o->sig && o->detached)
		log_error(NULL, "--sig and --detached exclude each other");
	else if (o->sig && (o->walk || o->from || o->nfiles != 1))
		log_error(NULL, "--sig needs exactly one FILE");
	else if (o->quiet && o->json)
		log_error(NULL, "-q and --json exclude each other");
	else if (o->walk && o->nfiles)
		log_error(NULL, "give either -r DIR or FILEs, not both");
	else if (o->nul && !o->from)
		log_error(NULL, "-0 goes with --files-from");
	else if (!o->walk && !o->from && !o->nfiles && !o->list_keys)
		log_error(NULL, "no FILE to verify");
	else
		return 0;
	return -1;
}

/* Fill the keyrings, then list them or judge every file; an exit code. */
static int run(struct opts *o, struct keyrings *k)
{
	struct keyrings_setup t = {
		.kr = o->kr, .kline = o->kline, .kcpath = o->kcpath,
		.ktree = o->ktree, .blpath = o->blpath, .enforce = o->enforce,
		.lockdown = o->lockdown, .vendor = o->vendor,
		.srcs = o->srcs, .nsrc = o->nsrc,
		.m = o->machine ? &o->m : NULL, .notes = &o->notes,
	};
	const struct ms_verify_run r = {
		.t = &t, .k = k, .sig = o->sig, .detached = o->detached,
		.usage = o->usage, .json = o->json, .quiet = o->quiet,
		.summary = o->walk || o->from, .jobs = o->jobs,
	};
	struct keyrings_failure f;

	if (keyrings_load(&t, k, &ms_load_report_words, &f)) {
		ms_load_report_say_failure(&f);
		o->err = f.err;
		return load_exit(&f);
	}
	if (o->list_keys) {
		ms_load_report_list_keys(stdout, k);
		return EXITCODE_OK;
	}
	o->judging = true;
	return ms_verify_run(&r, &(const struct treewalk_inputs){
		.names = o->files, .n = o->nfiles,
		.from = o->from, .nul = o->nul, .walk = o->walk,
	});
}

int main(int argc, char **argv)
{
	struct opts o = { .kr = rules_get(RULES_DEFAULT), .usage = -1,
			  .lockdown = -1 };
	struct keyrings k = { 0 };
	int code;

	log_init(argv[0]);
	/* the arguments, the .config's revocation certificates and
	 * --machine's image, MOK list, db and dbx */
	o.srcs = calloc((size_t)argc + 1 + MACHINE_PARTS_MAX_SOURCES, sizeof(*o.srcs));
	if (!o.srcs)
		return EXITCODE_IO;
	code = parse_options(argc, argv, &o);
	if (code) {
		code = code == CLI_OPTIONS_STOP ? EXITCODE_OK : -1;
		goto done;
	}
	if (o.machine && (code = machine_parts(&o)))
		goto done;
	if ((code = validate(&o)))
		goto done;
	code = run(&o, &k);
	keyrings_free(&k);
done:
	if (code < 0) {
		log_usage_hint();
		code = EXITCODE_USAGE;
	}
	if (o.json && code && !o.judging)
		exitcode_json(stdout, code, o.err);
	free(o.srcs);
	machine_parts_notes_free(&o.notes);
	machine_free(&o.m);
	return code;
}
