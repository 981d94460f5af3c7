// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/exitcode.h"
#include "base/json_name.h"
#include "base/log.h"
#include "base/signer_facts.h"
#include "base/workpool.h"
#include "sign/batch_sign.h"
#include "sign/cms.h"

/* ---- batch signing ---- */

struct pend {
	size_t i;
	struct ms_signed job;
};

struct group {
	struct pend *v;
	size_t n;
};

struct sign_run {
	const struct ms_signer *s;
	const struct ms_sign_req *req;
	const struct ms_list *list;
	int quiet, json;
	int (*report)(const struct ms_fail *f, int err);
	struct ms_result *res;
	pthread_mutex_t glock;	/* cur */
	struct group cur;	/* prepared, waiting for the next flush */
	struct ms_progress pg;
	size_t signed_, skipped, failed;	/* emitter thread only */
	int code;
};

enum { DONE_SIGNED, DONE_SKIPPED, DONE_FAILED };

/*
 * --json: one object per file.  A failure is verify-file's ERROR object
 * (report/verdict.c: rp_print_error_json) with the exit code added: its
 * reason is the diagnostic just printed, without the program's name.
 */
static void print_json(FILE *out, const char *name, int err, int skipped,
		       int code, json_object *signers, FILE *errs,
		       const struct ms_result *r)
{
	json_object *j = json_object_new_object();
	const char *verdict = err ? "ERROR" : skipped ? "SKIPPED" : "SIGNED";

	ms_json_add_name(j, "file", name);
	json_object_object_add(j, "verdict", json_object_new_string(verdict));
	if (err) {
		char *reason = NULL, *p;
		size_t skip = strlen(ms_prog()) + 2, nl = strlen(name);

		/* "prog: file: reason": the file is the object's "file" */
		fflush(errs);
		if (r->err_len > skip + nl + 2 &&
		    memcmp(r->err + skip, name, nl) == 0 &&
		    memcmp(r->err + skip + nl, ": ", 2) == 0)
			skip += nl + 2;
		if (r->err_len > skip)
			reason = strndup(r->err + skip, r->err_len - skip);
		if (reason && (p = strchr(reason, '\n')))
			*p = 0;
		json_object_object_add(j, "errno",
				       json_object_new_string(
					       ms_errno_name(err)));
		/* it may name other files (the key, a <dest>) */
		ms_json_add_name(j, "reason", reason);
		json_object_object_add(j, "exit", json_object_new_int(code));
		free(reason);
	} else {
		json_object_object_add(j, "signers", signers ?
				       json_object_get(signers) : NULL);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, MS_JSON_FLAGS));
	json_object_put(j);
}

/* A file's line and diagnostic, written from whichever thread knows.
 * signers: with --json, the facts of the signature made (borrowed). */
static void finish(struct sign_run *run, size_t i, int err, int skipped,
		   const struct ms_fail *fail, json_object *signers)
{
	struct ms_result *r = &run->res[i];
	const char *name = run->list->v[i];
	struct ms_capture c;

	/* -q and nothing went wrong: nothing to say, no streams to open
	 * (two per file otherwise). */
	if (!err && run->quiet && !run->json) {
		memset(r, 0, sizeof(*r));
		r->tag = skipped ? DONE_SKIPPED : DONE_SIGNED;
		return;
	}
	if (ms_result_begin(&c, r)) {
		r->code = MS_EXIT_IO;
		r->tag = DONE_FAILED;
		return;
	}
	if (err) {
		r->code = run->report(fail, err);
		r->tag = DONE_FAILED;
	} else {
		r->tag = skipped ? DONE_SKIPPED : DONE_SIGNED;
	}
	if (run->json)
		print_json(c.out, name, err, skipped, r->code, signers, c.err,
			   r);
	else if (err) {
		fprintf(c.out, "%s: FAILED (exit %d)\n", name, r->code);
	} else if (skipped) {
		r->tag = DONE_SKIPPED;
		if (!run->quiet)
			fprintf(c.out, "%s: already signed, left unchanged\n",
				name);
	} else {
		r->tag = DONE_SIGNED;
		if (!run->quiet)
			fprintf(c.out, "%s: signed\n", name);
	}
	ms_result_end(&c);
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
	struct ms_fail fail;
};

/* syncfs() once per file system of the group; MS_SYNC_FILE when any
 * fails, so that each file is then flushed (and judged) on its own. */
static unsigned int sync_group(struct group *g)
{
	dev_t devs[MS_GROUP_MAX];
	size_t ndev = 0, d;

	for (size_t k = 0; k < g->n; k++) {
		struct ms_signed *j = &g->v[k].job;
		int fd = j->out.fd >= 0 ? j->out.fd : j->p7s.fd;
		struct stat st;

		/* A module replaced in place is written beside the file it
		 * resolves to, on the file system its descriptor is on; a
		 * .p7s sits beside the name given, which may be elsewhere. */
		if (j->out.fd >= 0)
			st.st_dev = j->in.file.st.st_dev;
		else if (fstat(fd, &st) < 0)
			return MS_SYNC_FILE;
		for (d = 0; d < ndev && devs[d] != st.st_dev; d++)
			;
		if (d < ndev)
			continue;
		if (ndev < MS_GROUP_MAX)
			devs[ndev++] = st.st_dev;
		if (syncfs(fd) < 0)
			return MS_SYNC_FILE;
	}
	return 0;
}

/*
 * Make a group durable and put it in place: one syncfs() per file system
 * for all the data (instead of an fsync and a journal commit per file),
 * then the renames, then one fsync per directory for the renames.
 */
static void commit_group(struct sign_run *run, struct ms_pool *pool,
			 struct group *g)
{
	struct cstate *cs = calloc(g->n ? g->n : 1, sizeof(*cs));
	size_t idx[MS_GROUP_MAX];
	unsigned int sync;
	size_t k, e;

	if (!cs) {
		/* No room to group: each file flushes on its own. */
		for (k = 0; k < g->n; k++) {
			struct ms_fail fail;
			int err = ms_sign_commit(&g->v[k].job, MS_SYNC_FILE |
						 MS_SYNC_DIR, &fail);

			finish(run, g->v[k].i, err, 0, &fail,
			       g->v[k].job.signers);
			ms_sign_release(&g->v[k].job);
			ms_pool_finish(pool, g->v[k].i);
		}
		goto out;
	}
	sync = sync_group(g);
	for (k = 0; k < g->n; k++) {
		struct ms_signed *j = &g->v[k].job;
		const char *t = j->out.tmp ? j->out.target : j->p7s.target;

		/* Copied first: the commit frees the target's name. */
		cs[k].dir = t ? strdup(t) : NULL;
		cs[k].err = ms_sign_commit(j, sync, &cs[k].fail);
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
		err = ms_fsync_dir_of(cs[k].dir);
		for (e = k; err && e < g->n; e++) {
			if (!cs[e].dir || !same_dir(cs[e].dir, cs[k].dir))
				continue;
			cs[e].err = err;
			cs[e].fail.stage = MS_STAGE_OUTPUT;
			snprintf(cs[e].fail.path, sizeof(cs[e].fail.path),
				 "%s", cs[e].dir);
		}
	}
	for (k = 0; k < g->n; k++) {
		finish(run, g->v[k].i, cs[k].err, 0, &cs[k].fail,
		       g->v[k].job.signers);
		ms_sign_release(&g->v[k].job);
		free(cs[k].dir);
		/* Handed over together: one wake-up of the emitter per group
		 * (a group never holds more than MS_GROUP_MAX). */
		idx[e = k % MS_GROUP_MAX] = g->v[k].i;
		if (e == MS_GROUP_MAX - 1 || k == g->n - 1)
			ms_pool_finish_many(pool, idx, e + 1);
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
static void flush_group(struct sign_run *run, struct ms_pool *pool)
{
	struct group g;

	pthread_mutex_lock(&run->glock);
	g = take_group(run);
	pthread_mutex_unlock(&run->glock);
	if (g.n)
		commit_group(run, pool, &g);
}

static int sign_job(struct ms_pool *pool, void *ctx, size_t i)
{
	struct sign_run *run = ctx;
	struct ms_sign_req r = *run->req;
	struct group full = { NULL, 0 };
	struct ms_signed job;
	struct ms_fail fail;
	int skipped, err;

	r.module = run->list->v[i];
	r.dest = NULL;
	/* A module locked by someone may be one of ours waiting in the
	 * group (the same file twice in the list, under any name): that
	 * lock is let go only by the commit, so commit before waiting. */
	r.nowait = 1;
	err = ms_sign_prepare(run->s, &r, &job, &skipped, &fail);
	if (err == -EWOULDBLOCK && fail.stage == MS_STAGE_INPUT) {
		flush_group(run, pool);
		r.nowait = 0;
		err = ms_sign_prepare(run->s, &r, &job, &skipped, &fail);
	}
	if (err || skipped) {
		finish(run, i, err, skipped, &fail, NULL);
		return 0;
	}
	pthread_mutex_lock(&run->glock);
	if (run->cur.n % MS_GROUP_MAX == 0) {
		struct pend *v = realloc(run->cur.v, (run->cur.n +
					 MS_GROUP_MAX) * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&run->glock);
			/* No room to wait: this one flushes alone. */
			err = ms_sign_commit(&job, MS_SYNC_FILE | MS_SYNC_DIR,
					     &fail);
			finish(run, i, err, 0, &fail, job.signers);
			ms_sign_release(&job);
			return 0;
		}
		run->cur.v = v;
	}
	run->cur.v[run->cur.n].i = i;
	run->cur.v[run->cur.n++].job = job;
	if (run->cur.n >= MS_GROUP_MAX)
		full = take_group(run);
	pthread_mutex_unlock(&run->glock);
	if (full.n)
		commit_group(run, pool, &full);
	return 1;
}

static void sign_drain(struct ms_pool *pool, void *ctx)
{
	flush_group(ctx, pool);
}

static void sign_done(void *ctx, size_t i)
{
	struct sign_run *run = ctx;
	struct ms_result *r = &run->res[i];

	if (r->tag == DONE_SIGNED)
		run->signed_++;
	else if (r->tag == DONE_SKIPPED)
		run->skipped++;
	else
		run->failed++;
	run->code = ms_exit_worst(run->code, r->code);
	ms_result_emit(r, &run->pg);
	ms_result_free(r);
}

/* --json's last line: {"summary":{"files":N,"signed":N,...}} */
static void print_summary_json(size_t files, const struct sign_run *run)
{
	json_object *j = json_object_new_object(), *n = json_object_new_object();

	json_object_object_add(n, "files", json_object_new_int64((int64_t)files));
	json_object_object_add(n, "signed",
			       json_object_new_int64((int64_t)run->signed_));
	json_object_object_add(n, "already_signed",
			       json_object_new_int64((int64_t)run->skipped));
	json_object_object_add(n, "failed",
			       json_object_new_int64((int64_t)run->failed));
	json_object_object_add(n, "exit", json_object_new_int(run->code));
	json_object_object_add(j, "summary", n);
	printf("%s\n", json_object_to_json_string_ext(j, MS_JSON_FLAGS));
	json_object_put(j);
}

int ms_batch_sign(const struct ms_signer *s, const struct ms_sign_req *req,
		  const struct ms_list *list, int jobs, int quiet, int json,
		  int (*report)(const struct ms_fail *f, int err))
{
	static const struct ms_pool_ops ops = { sign_job, sign_done,
						sign_drain };
	struct sign_run run = {
		.s = s, .req = req, .list = list, .quiet = quiet,
		.json = json, .report = report, .code = MS_EXIT_OK,
	};
	pthread_mutex_t serial = PTHREAD_MUTEX_INITIALIZER;
	struct ms_cms_template *tmpl = NULL;
	struct ms_signer local = *s;
	int err;

	/*
	 * A key on a PKCS#11 token signs one file at a time.  libp11's
	 * engine already serialises the operations on one slot (a session
	 * does one operation at a time, PKCS#11 v2.40 §5.6), and its key
	 * loading raced its signing in versions before 0.4.12's session
	 * pool; the token, not the CPU, is the limit there anyway.  Only the
	 * signing is serialised: each module is hashed before the lock.
	 */
	for (int k = 0; k < s->n; k++)
		if (s->toks[k])
			local.serial = &serial;
	/* One SignedData encoding for all files where the signatures have
	 * a fixed length (RSA); otherwise each is built whole. */
	if (!s->raw_sig && s->n)
		ms_cms_template_new(local.certs, local.keys, local.n, local.md,
				    local.use_keyid, &tmpl);
	local.tmpl = tmpl;
	run.s = &local;
	run.res = calloc(list->n ? list->n : 1, sizeof(*run.res));
	if (!run.res) {
		ms_cms_template_free(tmpl);
		return MS_EXIT_IO;
	}
	pthread_mutex_init(&run.glock, NULL);
	ms_progress_init(&run.pg, list->n, "signed");
	err = ms_pool_run(list->n, jobs, &ops, &run);
	ms_progress_end(&run.pg);
	if (err) {
		ms_error(NULL, "cannot start workers: %s", strerror(-err));
		run.code = ms_exit_worst(run.code, MS_EXIT_IO);
	}
	if (json)
		print_summary_json(list->n, &run);
	else if (!quiet)
		printf("summary: %zu files: %zu signed, %zu already signed, "
		       "%zu failed\n", list->n, run.signed_, run.skipped,
		       run.failed);
	fflush(stdout);
	pthread_mutex_destroy(&run.glock);
	free(run.res);
	ms_cms_template_free(tmpl);
	return run.code;
}
