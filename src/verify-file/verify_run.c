// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/workpool.h"
#include "kernel/judge_file.h"
#include "report/verdict.h"
#include "verify-file/fix.h"
#include "verify-file/verify_run.h"

/* What every file of a run is judged with. */
struct judge {
	const struct ms_verify_run *r;
	struct verify_ctx kv;
	struct rp_verdict_context rc;
	struct ms_fix_ctx *fix;	/* --machine: what fixes are found from */
};

/* verify-file's own key of a --machine verdict: its fix, or null */
static void add_fix(void *ctx, json_object *o)
{
	ms_fix_json(o, ctx);
}

/* Judge one file and print its verdict; returns its exit code. */
static int check_file(const struct judge *jd, const char *file,
		      struct rp_verdict_tally *sum, FILE *out)
{
	const struct ms_verify_run *o = jd->r;
	struct judge_file_judgement j;
	char *p7s = NULL;
	const char *sigpath = o->sig;
	int err, code;

	if (o->detached) {
		if (asprintf(&p7s, "%s.p7s", file) < 0) {
			log_error(file, "out of memory");
			sum->errors++;
			return EXITCODE_IO;
		}
		sigpath = p7s;
	}
	err = judge_file_run(&jd->kv, file, sigpath, o->usage, &j);
	if (!err && j.r.err == -ENOMEM)
		err = -ENOMEM;
	if (err) {
		char why[512];

		if (j.sig_unreadable)
			snprintf(why, sizeof(why), "cannot read the detached "
				 "signature %s: %s (give it with --sig)",
				 sigpath, infile_strerror(err));
		else if (j.why)
			snprintf(why, sizeof(why), "cannot decompress: %s",
				 j.why);
		else if (err == -ENOENT || err == -ENOTDIR)
			snprintf(why, sizeof(why), "cannot read: %s (check "
				 "the path)", infile_strerror(err));
		else
			/* a file that shrank or failed while read has a
			 * right path: the reason says what happened */
			snprintf(why, sizeof(why), "cannot read: %s",
				 infile_strerror(err));
		log_error(file, "%s", why);
		if (o->json)
			rp_verdict_error_json(out, file, err, why);
		code = j.why ? exitcode_for_errno(err) : EXITCODE_IO;
		sum->errors++;
	} else {
		struct sig_check_answer a;
		struct ms_fix fix;

		sig_check_judge(&jd->rc.sig, j.usage, &j.r, &a);
		code = a.exit_code;
		/* no module loads on a kernel without CONFIG_MODULES */
		rp_verdict_count(sum, a.no_modules ? -EKEYREJECTED : j.r.err);
		if (o->json || !o->quiet)
			ms_fix_find(jd->fix, file, &j, &a, &fix);
		else
			fix.kind = NULL;
		if (o->json)
			rp_verdict_json_with(out, &jd->rc, file, j.usage, &j.r,
					     jd->fix ? add_fix : NULL, &fix);
		else if (!o->quiet)
			rp_verdict_text(out, &jd->rc, file, j.usage, &j.r);
		if (!o->json && !o->quiet)
			ms_fix_text(out, &fix);
	}
	judge_file_free(&j);
	free(p7s);
	return code;
}

/* Several files (or -r): the shared worker pool, certificates loaded
 * once, verdicts printed in input order. */
struct each {
	const struct judge *jd;
	const struct batch_run_list *files;
	struct rp_verdict_tally *sums;	/* one per file, added up in order */
	struct rp_verdict_tally total;
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
	rp_verdict_summary_add(&e->total, &e->sums[i]);
}

static int check_all(const struct judge *jd, const struct batch_run_list *files,
		     int jobs, struct rp_verdict_tally *sum)
{
	struct each e = { .jd = jd, .files = files };
	int code;

	e.sums = calloc(files->n ? files->n : 1, sizeof(*e.sums));
	if (!e.sums) {
		log_error(NULL, "out of memory");
		return EXITCODE_IO;
	}
	code = batch_run_each(files, jobs, "verified", each_check, each_add,
			     &e);
	*sum = e.total;
	free(e.sums);
	return code;
}

int ms_verify_run(const struct ms_verify_run *r, const struct treewalk_inputs *in)
{
	const struct keyrings_setup *t = r->t;
	const struct keyrings *k = r->k;
	struct judge jd = {
		.r = r,
		.kv = { .kr = t->kr, .trusted = &k->trusted,
			.revoked = &k->revoked, .bl = &k->bl,
			.platform = keyrings_platform_counts(t) ? &k->platform : NULL },
		.rc = { .rules = t->kr, .sig.enforce = t->enforce,
			.lockdown = MACHINE_LD_UNKNOWN, .machine = t->m,
			.differences = t->notes->v, .n_differences = t->notes->n,
			.km = t->m ? &t->km : NULL },
	};
	struct batch_run_list files = { 0 };
	struct rp_verdict_tally sum = { 0 };
	int code;

	if (t->kcpath) {
		jd.rc.config = t->kcpath;
		jd.rc.config_from = t->kc_from;
		jd.rc.modules = k->kc.modules;
		jd.kv.sig_unchecked = k->kc.modules == KERNEL_CONFIG_MODS_UNCHECKED;
	}
	jd.rc.lockdown = machine_lockdown(t->lockdown, t->kcpath ? &k->kc : NULL,
				     t->m, t->m ? &t->km : NULL,
				     &jd.rc.locked_by);
	/* security_locked_down(LOCKDOWN_MODULE_SIGNATURE) holds from the
	 * integrity level up */
	jd.rc.sig.locked = jd.rc.lockdown >= MACHINE_LD_INTEGRITY;
	jd.rc.sig.no_modules = jd.rc.modules == KERNEL_CONFIG_MODS_NONE;

	if (ms_fix_prepare(t, k, &jd.kv, &jd.fix)) {
		ms_fix_free(jd.fix);
		log_error(NULL, "out of memory");
		return EXITCODE_IO;
	}
	if (k->trusted.n == 0 && k->platform.n == 0)
		log_warn(NULL, "no usable trusted certificate: every signature "
			"will be -ENOKEY (see -v)");
	code = treewalk_collect(in, &files);
	if (!files.n) {
		if (r->json && code)
			exitcode_json(stdout, code, 0);
		batch_run_list_free(&files);
		ms_fix_free(jd.fix);
		return code;
	}
	code = exitcode_worst(code, check_all(&jd, &files, r->jobs ? r->jobs :
		files.n > 1 ? workpool_default_workers() : 1, &sum));
	if (r->summary && r->json)
		rp_verdict_summary_json(stdout, files.n, &sum, code);
	else if (r->summary && !r->quiet)
		rp_verdict_summary(stdout, files.n, &sum);
	batch_run_list_free(&files);
	ms_fix_free(jd.fix);
	return code;
}
