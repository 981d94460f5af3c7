// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify-file: decide offline whether a kernel would accept a signed
 * module (or a detached signature), and say why, with the kernel's errno.
 *
 * This file holds the command line and the exit codes: the keyrings are
 * filled by trust/keyrings, what that says is report/load_report's, and
 * each file is judged and its verdict printed by report/verify_run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "base/openssl_init.h"
#include "kernel/public_key.h"
#include "kernel/verify.h"
#include "report/kernel_arg.h"
#include "report/load_report.h"
#include "report/verify_run.h"

/* long-only options: trust sources, kernel .config */
enum {
	OPT_VMLINUX = 0x200, OPT_ESL, OPT_DBX, OPT_EFI_DB, OPT_EFI_DBX,
	OPT_MOK, OPT_KCONFIG, OPT_KTREE, OPT_LIST_KEYS, OPT_FILES_FROM,
	OPT_MACHINE, OPT_SYSROOT, OPT_LOCKDOWN, OPT_VENDOR, OPT_SECONDARY,
};

static const char short_opts[] = "k:c:r:qvhVj:0";
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
	{ "machine", optional_argument, NULL, OPT_MACHINE },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "lockdown", required_argument, NULL, OPT_LOCKDOWN },
	{ "kernel-vendor", required_argument, NULL, OPT_VENDOR },
	{ "secondary", required_argument, NULL, OPT_SECONDARY },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "null", no_argument, NULL, '0' },
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

static void help(void)
{
	usage(stdout);
	printf(
"Decide, as the kernel would, whether a signed module (or a detached\n"
"signature) is accepted by a kernel trusting the given certificates, and\n"
"say why not with the errno the kernel returns.\n"
"\n"
"Options:\n"
"      --machine[=RELEASE]  would this machine's kernel RELEASE (default:\n"
"                        the running one, uname -r) load FILE?  Judges by\n"
"                        its image and config where the distribution\n"
"                        installs them (/boot, /usr/lib/modules/RELEASE,\n"
"                        the headers' .config, /proc/config.gz), the MOK\n"
"                        list, UEFI db and dbx, each key filed in the\n"
"                        keyring that kernel files it in, the Secure Boot\n"
"                        and lockdown state, module.sig_enforce and, for\n"
"                        the running kernel, the keys it holds; --vmlinux,\n"
"                        --kernel-config, --kernel, --enforce and\n"
"                        --lockdown replace their part; a part missing is\n"
"                        said on stderr and in the JSON\n"
"      --sysroot DIR     with --machine: judge a mounted image of another\n"
"                        machine (a chroot, a disk image): every path is\n"
"                        resolved inside DIR, links included; RELEASE\n"
"                        defaults to its only kernel\n"
"      --kernel-vendor VENDOR  debian or mainline: whose patches the\n"
"                        kernel carries (debian: .platform vouches for\n"
"                        modules); default: the image's version line,\n"
"                        else mainline, said\n"
"      --secondary CERT  add CERT's certificates to .secondary_trusted_keys\n"
"                        as keyctl padd would: only those a trusted key\n"
"                        signed; a refusal is said with the kernel's errno\n"
"  -k, --keys DIR        trust every certificate in DIR (PEM or DER)\n"
"  -c, --cert FILE       trust the certificates in FILE (PEM bundle or DER)\n"
"  -r, --recursive DIR   check every module (*.ko, *.ko.gz, *.ko.xz,\n"
"                        *.ko.zst) under DIR and print a summary\n"
"      --files-from LIST  read more file names from LIST (- is standard\n"
"                        input), one a line, and print a summary\n"
"  -0, --null            names in LIST end with NUL, not newline\n"
"      --sig FILE.p7s    detached signature of the single FILE\n"
"      --detached        use FILE.p7s beside each FILE\n"
"      --usage USAGE     module, firmware, unspecified, kexec or bpf\n"
"                        (default: module for appended, unspecified for\n"
"                        detached)\n"
"      --kernel VERSION  judge by the rules of that kernel (MAJOR.MINOR,\n"
"                        5.10 on): the lines are 5.10, 6.1, 6.12 and 7.3\n"
"                        (the default); another version gets its own rules\n"
"                        from the kernel's history, said to be inexact\n"
"      --blacklist FILE  CONFIG_SYSTEM_BLACKLIST_HASH_LIST file\n"
"      --revoked CERT    revocation certificate (CONFIG_SYSTEM_REVOCATION_KEYS)\n"
"      --enforce         as module.sig_enforce=1: unsigned, unknown-key and\n"
"                        unsupported-crypto modules are rejected\n"
"      --lockdown MODE   the kernel's lockdown: none, integrity or\n"
"                        confidentiality; locked down, it refuses those\n"
"                        modules too (EPERM, \"Lockdown: ... unsigned module\n"
"                        loading is restricted\")\n"
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
"                        hashes (modules: Debian's 6.1 and 6.12 only),\n"
"                        X509_SHA256 tbs: hashes, X.509 entries\n"
"                        revocation certificates\n"
"      --efi-dbx         the same from UEFI dbx in efivarfs\n"
"      --kernel-config FILE  rules from a kernel .config (plain, gzip, xz,\n"
"                        zstd, or a pipe): its version picks\n"
"                        the line as --kernel does, its crypto decides\n"
"                        what is -ENOPKG (ML-DSA: CRYPTO_MLDSA), the\n"
"                        ML-DSA authattrs waiver, MODULE_SIG_FORCE\n"
"                        enforces, LOCK_DOWN_* say the lockdown, and the\n"
"                        blacklist and revocation files it names are\n"
"                        loaded\n"
"      --kernel-tree DIR\n"
"                        where those files are (default: the .config's\n"
"                        directory)\n"
"      --list-keys       print every trusted key as the kernel logs it\n"
"                        (subject, serial, SKID, key, SHA-256) and exit\n"
"      --json            one JSON object per file instead of text\n"
"  -j, --jobs N          workers for several files or -r (default: the\n"
"                        online CPUs); results stay in input order\n"
"  -q, --quiet           print no verdicts; only the exit code tells\n"
"  -v, --verbose         say which certificates were left out and why\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version, the OpenSSL and whether it\n"
"                        checks ML-DSA, and exit\n"
"\n"
"Without --kernel or --kernel-config, --vmlinux takes the rules from the\n"
"image's own version.  An -r DIR or --files-from LIST that yields no\n"
"file is an error (exit 2).  A verdict that depends on an ML-DSA signature,\n"
"which this build's OpenSSL cannot check before 3.5, is CANNOT-CHECK.\n");
	ms_exit_help(stdout);
}

/* The command line, parsed. */
struct opts {
	const struct kr_rules *kr;
	struct kr_rules kr_buf;	/* --kernel's */
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
	int lockdown;		/* enum kc_lockdown, -1 when not given */
	struct tl_source *srcs;	/* one spare for the .config's revocation
				 * certificates */
	size_t nsrc;
	char **files;
	int nfiles;
};

static void add_source(struct opts *o, enum tl_kind kind, const char *path)
{
	o->srcs[o->nsrc++] = (struct tl_source){ .kind = kind, .path = path };
}

/*
 * The exit code of a step of filling the keyrings that failed
 * (trust/keyrings.h): a file that is not what its option wants (a
 * .config, a blacklist entry, a release) is a usage error, a trust
 * source or blacklist that cannot be used 9, anything else that cannot
 * be read 7.
 */
static int load_exit(const struct tk_failure *f)
{
	switch (f->step) {
	case TK_MACHINE:
		return f->err == -ENOTUNIQ || f->err == -ENAMETOOLONG ?
		       MS_EXIT_USAGE : MS_EXIT_IO;
	case TK_KCONFIG:
		return f->err == -EINVAL || f->err == -ENODATA ?
		       MS_EXIT_USAGE : MS_EXIT_IO;
	case TK_KCONFIG_RULES:
	case TK_IMAGE_TOO_OLD:
	case TK_IMAGE_LINES:
		return MS_EXIT_USAGE;
	case TK_BLACKLIST:
		return f->err == -EINVAL ? MS_EXIT_USAGE : MS_EXIT_KEY;
	case TK_SOURCE:
		return MS_EXIT_KEY;
	case TK_NOMEM:
	case TK_KCONFIG_FILE:
		break;
	}
	return MS_EXIT_IO;
}

/*
 * --machine: each part of this machine (or of the one under --sysroot)
 * that no explicit option replaces becomes a source or a setting; each
 * part not there is said.  An exit code, 0 when settled.
 */
static int machine_parts(struct opts *o)
{
	struct mp_request rq = { o->srcs, &o->nsrc, &o->kcpath, o->kline,
				 &o->enforce, o->lockdown };
	struct tk_failure f;

	if (tk_machine(o->sysroot, o->release, &rq, &o->m, &o->notes, &f)) {
		rl_say_failure(&f);
		return load_exit(&f);
	}
	rl_say_machine(o->sysroot, &o->m, &o->notes);
	return 0;
}

/* take_option's answer for --help and --version: stop, successfully. */
#define STOP_OK 1

/* One option into o: 0 to go on, STOP_OK, or -1 for a usage error. */
static int take_option(struct opts *o, int c)
{

	switch (c) {
	case 'k': add_source(o, TL_DIR, optarg); break;
	case 'c': add_source(o, TL_CERT, optarg); break;
	case 'R': add_source(o, TL_REVOKED, optarg); break;
	case OPT_VMLINUX: add_source(o, TL_VMLINUX, optarg); break;
	case OPT_ESL: add_source(o, TL_ESL, optarg); break;
	case OPT_SECONDARY: add_source(o, TL_SECONDARY, optarg); break;
	case OPT_DBX: add_source(o, TL_DBX, optarg); break;
	case OPT_EFI_DB: add_source(o, TL_EFI_DB, NULL); break;
	case OPT_EFI_DBX: add_source(o, TL_EFI_DBX, NULL); break;
	case OPT_MOK: add_source(o, TL_MOK, NULL); break;
	case OPT_KCONFIG: o->kcpath = optarg; break;
	case OPT_KTREE: o->ktree = optarg; break;
	case OPT_LIST_KEYS: o->list_keys = true; break;
	case OPT_FILES_FROM: o->from = optarg; break;
	case '0': o->nul = true; break;
	case OPT_MACHINE:
		if (o->machine) {
			ms_error(NULL, "--machine given twice (judge for one "
				 "kernel per run)");
			return -1;
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
			return -1;
		}
		break;
	case OPT_LOCKDOWN:
		o->lockdown = kc_lockdown_by_name(optarg);
		if (o->lockdown < 0) {
			ms_error(NULL, "unknown lockdown '%s' (use none, "
				 "integrity or confidentiality)", optarg);
			return -1;
		}
		break;
	case 'S': o->sig = optarg; break;
	case 'D': o->detached = true; break;
	case 'B': o->blpath = optarg; break;
	case 'E': o->enforce = true; break;
	case 'J': o->json = true; break;
	case 'q': o->quiet = true; break;
	case 'v': ms_set_verbose(ms_verbose() + 1); break;
	case 'r':
		if (o->walk) {
			ms_error(NULL, "-r given twice (walk one tree per run)");
			return -1;
		}
		o->walk = optarg;
		break;
	case 'U':
		o->usage = kv_usage_by_name(optarg);
		if (o->usage < 0) {
			ms_error(NULL, "unknown usage '%s' (use module, "
				 "firmware, unspecified, kexec or bpf)",
				 optarg);
			return -1;
		}
		break;
	case 'K':
		if (rp_kernel_release("--kernel", optarg, &o->kr_buf))
			return -1;
		o->kr = &o->kr_buf;
		o->kline = optarg;
		break;
	case 'j':
		if (ms_jobs_parse(optarg, &o->jobs)) {
			ms_error(NULL, "-j needs a number of workers from 1 to "
				 "%d", MS_JOBS_MAX);
			return -1;
		}
		break;
	case 'h':
		help();
		return STOP_OK;
	case 'V':
		/* ML-DSA: whether its signatures are checked */
		ms_print_version("verify-file", pk_mldsa_checkable());
		return STOP_OK;
	case '?':
	default:
		return -1;
	}
	return 0;
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

/* Fill the keyrings, then list them or judge every file; an exit code. */
static int run(struct opts *o, struct tk_keyrings *k)
{
	struct tk_setup t = {
		.kr = o->kr, .kline = o->kline, .kcpath = o->kcpath,
		.ktree = o->ktree, .blpath = o->blpath, .enforce = o->enforce,
		.lockdown = o->lockdown, .vendor = o->vendor,
		.srcs = o->srcs, .nsrc = o->nsrc,
		.m = o->machine ? &o->m : NULL, .notes = &o->notes,
	};
	const struct vr_run r = {
		.t = &t, .k = k, .sig = o->sig, .detached = o->detached,
		.usage = o->usage, .json = o->json, .quiet = o->quiet,
		.summary = o->walk || o->from, .jobs = o->jobs,
	};
	struct tk_failure f;

	if (tk_load(&t, k, &rl_words, &f)) {
		rl_say_failure(&f);
		return load_exit(&f);
	}
	if (o->list_keys) {
		rl_list_keys(stdout, k);
		return MS_EXIT_OK;
	}
	return vr_judge_files(&r, &(const struct ms_inputs){
		.names = o->files, .n = o->nfiles,
		.from = o->from, .nul = o->nul, .walk = o->walk,
	});
}

int main(int argc, char **argv)
{
	struct opts o = { .kr = kr_get(KR_DEFAULT), .usage = -1,
			  .lockdown = -1 };
	struct tk_keyrings k = { 0 };
	int c, code;

	ms_log_init(argv[0]);
	/* the arguments, the .config's revocation certificates and
	 * --machine's image, MOK list, db and dbx */
	o.srcs = calloc((size_t)argc + 1 + MP_MAX_SOURCES, sizeof(*o.srcs));
	if (!o.srcs)
		return MS_EXIT_IO;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		if ((code = take_option(&o, c))) {
			code = code == STOP_OK ? MS_EXIT_OK : -1;
			goto done;
		}
	o.files = argv + optind;
	o.nfiles = argc - optind;
	if (o.machine && (code = machine_parts(&o)))
		goto done;
	if (validate(&o)) {
		code = -1;
		goto done;
	}
	code = run(&o, &k);
	tk_free(&k);
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
