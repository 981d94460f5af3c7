// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/log.h"
#include "base/workpool.h"
#include "sign-file/batch_sign.h"
#include "sign-file/sign_many.h"
#include "sign-file/sign_report.h"

struct pend {
	size_t i;
	struct ms_signer_signed job;
};

struct group {
	struct pend *v;
	size_t n;
};

struct sign_run {
	const struct ms_signer *s;
	const struct ms_signer_req *req;
	const struct batch_run_list *list;
	const struct ms_outcome_view *view;
	struct batch_run_result *res;
	pthread_mutex_t glock;	/* cur */
	struct group cur;	/* prepared, waiting for the next flush */
	struct progress pg;
	size_t signed_, skipped, failed;	/* emitter thread only */
	int code;
};

enum { DONE_SIGNED, DONE_SKIPPED, DONE_FAILED };

/*
 * The diagnostic just captured for a failed file, without "prog: file: "
 * (the outcome names the file) and past its first line; malloc'd, or
 * NULL when there was none.
 */
static char *captured_reason(FILE *errs, const struct batch_run_result *r,
			     const char *name)
{
	size_t skip = strlen(log_prog()) + 2, nl = strlen(name);
	char *reason = NULL, *p;

	fflush(errs);
	if (r->err_len > skip + nl + 2 &&
	    memcmp(r->err + skip, name, nl) == 0 &&
	    memcmp(r->err + skip + nl, ": ", 2) == 0)
		skip += nl + 2;
	if (r->err_len > skip)
		reason = strndup(r->err + skip, r->err_len - skip);
	if (reason && (p = strchr(reason, '\n')))
		*p = 0;
	return reason;
}

/* A file's line and diagnostic, written from whichever thread knows.
 * made: with describe, the signature made (borrowed). */
static void finish(struct sign_run *run, size_t i, int err, int skipped,
		   const struct ms_signer_failure *fail, const struct ms_signer_made_sig *made)
{
	struct batch_run_result *r = &run->res[i];
	const char *name = run->list->v[i];
	struct ms_outcome o = {
		.file = name,
		.verdict = err ? MS_OUTCOME_FAILED : skipped ? MS_OUTCOME_SKIPPED :
			   MS_OUTCOME_SIGNED,
		.err = err,
		.made = made && !err && !skipped ? &made->d : NULL,
	};
	struct batch_run_capture c;
	char *reason = NULL;

	/* Nothing to say when all went well: no streams to open (two per
	 * file otherwise). */
	if (!err && run->view->quiet) {
		memset(r, 0, sizeof(*r));
		r->tag = skipped ? DONE_SKIPPED : DONE_SIGNED;
		return;
	}
	if (batch_run_result_begin(&c, r)) {
		r->code = EXITCODE_IO;
		r->tag = DONE_FAILED;
		return;
	}
	if (err) {
		r->code = ms_sign_report(fail, err);
		r->tag = DONE_FAILED;
		o.code = r->code;
		o.reason = reason = captured_reason(c.err, r, name);
	} else {
		r->tag = skipped ? DONE_SKIPPED : DONE_SIGNED;
	}
	run->view->file(c.out, &o);
	free(reason);
	batch_run_result_end(&c);
}

static int same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;

	return la == lb && strncmp(a, b, la) == 0;
}

/* One member of a group being committed. */
struct cstate {
	char *dir;		/* target path, for the directory fsync */
	int err;
	struct ms_signer_failure fail;
};

/* syncfs() once per file system of the group; OUTFILE_SYNC_FILE when any
 * fails, so that each file is then flushed (and judged) on its own. */
static unsigned int sync_group(struct group *g)
{
	dev_t devs[MS_BATCH_SIGN_GROUP_MAX];
	size_t ndev = 0, d;

	for (size_t k = 0; k < g->n; k++) {
		struct ms_signer_signed *j = &g->v[k].job;
		int fd = j->out.fd >= 0 ? j->out.fd : j->p7s.fd;
		struct stat st;

		/* A module replaced in place is written beside the file it
		 * resolves to, on the file system its descriptor is on; a
		 * .p7s sits beside the name given, which may be elsewhere. */
		if (j->out.fd >= 0)
			st.st_dev = j->in.file.st.st_dev;
		else if (fstat(fd, &st) < 0)
			return OUTFILE_SYNC_FILE;
		for (d = 0; d < ndev && devs[d] != st.st_dev; d++)
			;
		if (d < ndev)
			continue;
		if (ndev < MS_BATCH_SIGN_GROUP_MAX)
			devs[ndev++] = st.st_dev;
		if (syncfs(fd) < 0)
			return OUTFILE_SYNC_FILE;
	}
	return 0;
}

/*
 * Make a group durable and put it in place: one syncfs() per file system
 * for all the data (instead of an fsync and a journal commit per file),
 * then the renames, then one fsync per directory for the renames.
 */
static void commit_group(struct sign_run *run, struct workpool *pool,
			 struct group *g)
{
	struct cstate *cs = calloc(g->n ? g->n : 1, sizeof(*cs));
	size_t idx[MS_BATCH_SIGN_GROUP_MAX];
	unsigned int sync;
	size_t k, e;

	if (!cs) {
		/* No room to group: each file flushes on its own. */
		for (k = 0; k < g->n; k++) {
			struct ms_signer_failure fail;
			int err = ms_signer_commit(&g->v[k].job, OUTFILE_SYNC_FILE |
						   OUTFILE_SYNC_DIR, &fail);

			finish(run, g->v[k].i, err, 0, &fail,
			       g->v[k].job.made);
			ms_signer_release(&g->v[k].job);
			workpool_finish(pool, g->v[k].i);
		}
		goto out;
	}
	sync = sync_group(g);
	for (k = 0; k < g->n; k++) {
		struct ms_signer_signed *j = &g->v[k].job;
		const char *t = j->out.tmp ? j->out.target : j->p7s.target;

		/* Copied first: the commit frees the target's name. */
		cs[k].dir = t ? strdup(t) : NULL;
		cs[k].err = ms_signer_commit(j, sync, &cs[k].fail);
		if (cs[k].err) {
			free(cs[k].dir);
			cs[k].dir = NULL;
		}
	}
	/* One fsync per directory makes the renames in it durable.  A
	 * directory that cannot be flushed fails its files, as it does a
	 * single-file run (the renames are done, but not durable). */
	for (k = 0; k < g->n; k++) {
		int err;

		if (!cs[k].dir)
			continue;
		for (e = 0; e < k && !(cs[e].dir &&
				       same_dir(cs[e].dir, cs[k].dir)); e++)
			;
		if (e < k)
			continue;
		err = outfile_fsync_dir_of(cs[k].dir);
		for (e = k; err && e < g->n; e++) {
			if (!cs[e].dir || !same_dir(cs[e].dir, cs[k].dir))
				continue;
			cs[e].err = err;
			cs[e].fail.stage = MS_SIGNER_STAGE_OUTPUT;
			snprintf(cs[e].fail.path, sizeof(cs[e].fail.path),
				 "%s", cs[e].dir);
		}
	}
	for (k = 0; k < g->n; k++) {
		finish(run, g->v[k].i, cs[k].err, 0, &cs[k].fail,
		       g->v[k].job.made);
		ms_signer_release(&g->v[k].job);
		free(cs[k].dir);
		/* Handed over together: one wake-up of the emitter per group
		 * (a group never holds more than MS_BATCH_SIGN_GROUP_MAX). */
		idx[e = k % MS_BATCH_SIGN_GROUP_MAX] = g->v[k].i;
		if (e == MS_BATCH_SIGN_GROUP_MAX - 1 || k == g->n - 1)
			workpool_finish_many(pool, idx, e + 1);
	}
	free(cs);
out:
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

/* Take the current group (under glock) so that it can be committed. */
static struct group take_group(struct sign_run *run)
{
	struct group g = run->cur;

	run->cur.v = NULL;
	run->cur.n = 0;
	return g;
}

/* Commit whatever waits in the group now (under glock to take it). */
static void flush_group(struct sign_run *run, struct workpool *pool)
{
	struct group g;

	pthread_mutex_lock(&run->glock);
	g = take_group(run);
	pthread_mutex_unlock(&run->glock);
	if (g.n)
		commit_group(run, pool, &g);
}

static int sign_job(struct workpool *pool, void *ctx, size_t i)
{
	struct sign_run *run = ctx;
	struct ms_signer_req r = *run->req;
	struct group full = { NULL, 0 };
	struct ms_signer_signed job;
	struct ms_signer_failure fail;
	int skipped, err;

	r.module = run->list->v[i];
	r.dest = NULL;
	/* A module locked by someone may be one of ours waiting in the
	 * group (the same file twice in the list, under any name): that
	 * lock is let go only by the commit, so commit before waiting. */
	r.nowait = 1;
	err = ms_signer_prepare(run->s, &r, &job, &skipped, &fail);
	if (err == -EWOULDBLOCK && fail.stage == MS_SIGNER_STAGE_INPUT) {
		flush_group(run, pool);
		r.nowait = 0;
		err = ms_signer_prepare(run->s, &r, &job, &skipped, &fail);
	}
	if (err || skipped) {
		finish(run, i, err, skipped, &fail, NULL);
		return 0;
	}
	pthread_mutex_lock(&run->glock);
	if (run->cur.n % MS_BATCH_SIGN_GROUP_MAX == 0) {
		struct pend *v = realloc(run->cur.v, (run->cur.n +
					 MS_BATCH_SIGN_GROUP_MAX) * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&run->glock);
			/* No room to wait: this one flushes alone. */
			err = ms_signer_commit(&job, OUTFILE_SYNC_FILE | OUTFILE_SYNC_DIR,
					       &fail);
			finish(run, i, err, 0, &fail, job.made);
			ms_signer_release(&job);
			return 0;
		}
		run->cur.v = v;
	}
	run->cur.v[run->cur.n].i = i;
	run->cur.v[run->cur.n++].job = job;
	if (run->cur.n >= MS_BATCH_SIGN_GROUP_MAX)
		full = take_group(run);
	pthread_mutex_unlock(&run->glock);
	if (full.n)
		commit_group(run, pool, &full);
	return 1;
}

static void sign_drain(struct workpool *pool, void *ctx)
{
	flush_group(ctx, pool);
}

static void sign_done(void *ctx, size_t i)
{
	struct sign_run *run = ctx;
	struct batch_run_result *r = &run->res[i];

	if (r->tag == DONE_SIGNED)
		run->signed_++;
	/* refused as already signed (8): found signed, as a skip is */
	else if (r->tag == DONE_SKIPPED || r->code == EXITCODE_SIGNED)
		run->skipped++;
	else
		run->failed++;
	run->code = exitcode_worst(run->code, r->code);
	batch_run_result_emit(r, &run->pg);
	batch_run_result_free(r);
}

int ms_batch_sign_run(const struct ms_signer *s, const struct ms_signer_req *req,
		      const struct batch_run_list *list, int jobs,
		      const struct ms_outcome_view *view,
		      struct ms_outcome_tally *tally)
{
	static const struct workpool_ops ops = { sign_job, sign_done,
						sign_drain };
	struct sign_run run = {
		.s = s, .req = req, .list = list, .view = view,
		.code = EXITCODE_OK,
	};
	struct ms_signer local = *s;
	struct ms_sign_many many;
	int err;

	/* A token key signs one file at a time; RSA's SignedData is
	 * encoded once (sign_many.h). */
	ms_sign_many_start(&many, &local);
	run.s = &local;
	run.res = calloc(list->n ? list->n : 1, sizeof(*run.res));
	if (!run.res) {
		ms_sign_many_end(&many);
		return EXITCODE_IO;
	}
	pthread_mutex_init(&run.glock, NULL);
	progress_init(&run.pg, list->n, "signed");
	err = workpool_run(list->n, jobs, &ops, &run);
	progress_end(&run.pg);
	if (err) {
		log_error(NULL, "cannot start workers: %s", strerror(-err));
		run.code = exitcode_worst(run.code, EXITCODE_IO);
	}
	*tally = (struct ms_outcome_tally){
		.files = list->n, .signed_ = run.signed_,
		.skipped = run.skipped, .failed = run.failed, .code = run.code,
	};
	pthread_mutex_destroy(&run.glock);
	free(run.res);
	ms_sign_many_end(&many);
	return run.code;
}
