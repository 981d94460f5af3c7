/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One shared queue, N workers, results in input order.
 *
 * Jobs are the indexes 0..n-1 of the caller's array.  Each worker takes
 * the next index from one shared counter, so a slow file never leaves
 * the other CPUs idle behind a fixed chunk.  The calling thread does not
 * work: it waits and hands each finished job to the done callback in
 * index order, so output comes out in input order however the jobs race.
 */
#ifndef MODSIGN_BASE_WORKPOOL_H
#define MODSIGN_BASE_WORKPOOL_H

#include <stddef.h>

struct workpool;

/*
 * Run job i on a worker.  Return 0 when job i is finished, or 1 when
 * it will be finished later by workpool_finish (group commit).
 */
typedef int (*workpool_job_fn)(struct workpool *p, void *ctx, size_t i);
/* Called in the calling thread, in index order, once per job. */
typedef void (*workpool_done_fn)(void *ctx, size_t i);
/* Called by each worker after the queue ran dry, before it exits. */
typedef void (*workpool_drain_fn)(struct workpool *p, void *ctx);

struct workpool_ops {
	workpool_job_fn job;
	workpool_done_fn done;
	workpool_drain_fn drain;	/* may be NULL */
};

/*
 * Run jobs 0..n-1 on nworkers threads (1: in the calling thread, in
 * order, without any thread).  Returns 0, or -errno when no worker
 * could be started; jobs already finished are still handed to done.
 */
int workpool_run(size_t n, int nworkers, const struct workpool_ops *ops,
		void *ctx);
/* Mark a job deferred by its job function as finished. */
void workpool_finish(struct workpool *p, size_t i);
/* The same for n jobs at once (a committed group): one lock, and at most
 * one wake-up of the calling thread. */
void workpool_finish_many(struct workpool *p, const size_t *idx, size_t n);

/* The online CPUs, at least 1: the default worker count. */
int workpool_default_workers(void);

#endif
