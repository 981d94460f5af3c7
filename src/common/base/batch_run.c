// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/batch_run.h"
#include "base/exitcode.h"
#include "base/log.h"
#include "base/workpool.h"

int batch_run_list_add(struct batch_run_list *l, const char *name)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strdup(name);
	if (!l->v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

int batch_run_list_read(struct batch_run_list *l, const char *path, int nul)
{
	int std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0;

	if (!f)
		return -errno;
	while ((n = getdelim(&line, &cap, nul ? '\0' : '\n', f)) > 0) {
		if (line[n - 1] == (nul ? '\0' : '\n'))
			line[--n] = '\0';
		/* a NUL in a line: a find -print0 list read without -0,
		 * which would cut each line at its first name */
		if (!nul && memchr(line, '\0', (size_t)n)) {
			err = -EILSEQ;
			break;
		}
		if (n == 0)
			continue;
		err = batch_run_list_add(l, line);
		if (err)
			break;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	if (!std)
		fclose(f);
	return err;
}

void batch_run_list_free(struct batch_run_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int batch_run_jobs_parse(const char *arg, int *jobs)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > BATCH_RUN_JOBS_MAX)
		return -EINVAL;
	*jobs = (int)n;
	return 0;
}

int batch_run_result_begin(struct batch_run_capture *c, struct batch_run_result *r)
{
	memset(r, 0, sizeof(*r));
	c->r = r;
	c->out = open_memstream(&r->out, &r->out_len);
	c->err = c->out ? open_memstream(&r->err, &r->err_len) : NULL;
	if (!c->err) {
		if (c->out)
			fclose(c->out);
		free(r->out);
		r->out = NULL;
		c->out = NULL;
		return -ENOMEM;
	}
	log_capture(c->err);
	return 0;
}

void batch_run_result_end(struct batch_run_capture *c)
{
	log_capture(NULL);
	fclose(c->out);
	fclose(c->err);
	c->out = c->err = NULL;
}

void batch_run_result_emit(struct batch_run_result *r, struct progress *pg)
{
	if (r->err_len || r->out_len)
		progress_clear(pg);
	if (r->err_len) {
		fwrite(r->err, 1, r->err_len, stderr);
		fflush(stderr);
	}
	if (r->out_len) {
		fwrite(r->out, 1, r->out_len, stdout);
		/* A terminal shows the line before the bar returns; a pipe
		 * is flushed by stdio in big blocks. */
		if (pg->on)
			fflush(stdout);
	}
	progress_step(pg);
}

void batch_run_result_free(struct batch_run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

struct each_run {
	int (*fn)(void *ctx, size_t i, FILE *out);
	void (*done)(void *ctx, size_t i, int code);
	void *ctx;
	struct batch_run_result *res;
	struct progress pg;
	int code;
};

static int each_job(struct workpool *pool, void *ctx, size_t i)
{
	struct each_run *run = ctx;
	struct batch_run_result *r = &run->res[i];
	struct batch_run_capture c;

	(void)pool;
	if (batch_run_result_begin(&c, r)) {
		r->code = EXITCODE_IO;
		return 0;
	}
	r->code = run->fn(run->ctx, i, c.out);
	batch_run_result_end(&c);
	return 0;
}

static void each_done(void *ctx, size_t i)
{
	struct each_run *run = ctx;
	struct batch_run_result *r = &run->res[i];

	batch_run_result_emit(r, &run->pg);
	run->code = exitcode_worst(run->code, r->code);
	if (run->done)
		run->done(run->ctx, i, r->code);
	batch_run_result_free(r);
}

int batch_run_each(const struct batch_run_list *list, int jobs, const char *what,
		  int (*fn)(void *ctx, size_t i, FILE *out),
		  void (*done)(void *ctx, size_t i, int code), void *ctx)
{
	static const struct workpool_ops ops = { each_job, each_done, NULL };
	struct each_run run = { .fn = fn, .done = done, .ctx = ctx };
	int err;

	run.res = calloc(list->n ? list->n : 1, sizeof(*run.res));
	if (!run.res)
		return EXITCODE_IO;
	progress_init(&run.pg, list->n, what);
	err = workpool_run(list->n, jobs, &ops, &run);
	progress_end(&run.pg);
	if (err) {
		log_error(NULL, "cannot start workers: %s", strerror(-err));
		run.code = exitcode_worst(run.code, EXITCODE_IO);
	}
	fflush(stdout);
	free(run.res);
	return run.code;
}
