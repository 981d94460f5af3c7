// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/workpool.h"

struct workpool {
	size_t n;
	atomic_size_t next;		/* the shared queue: next index */
	const struct workpool_ops *ops;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* what the emitter waits for */
	unsigned char *finished;	/* per job, under lock */
	size_t emit;			/* next job to hand over, under lock */
	size_t contig;			/* first unfinished job, under lock */
	size_t want;			/* wake the emitter when contig >= want */
	int waiting;			/* the emitter sleeps on cond */
	int running;			/* workers not yet exited */
};

/* Results the emitter is woken for at once (fewer at the end of the
 * queue), and the longest a finished result waits for its turn to be
 * shown when files are slow (a token signing a few a second). */
#define WAKE_WINDOW 32
#define WAKE_AFTER_NS (50 * 1000 * 1000L)

void workpool_finish_many(struct workpool *p, const size_t *idx, size_t n)
{
	pthread_mutex_lock(&p->lock);
	for (size_t k = 0; k < n; k++)
		p->finished[idx[k]] = 1;
	while (p->contig < p->n && p->finished[p->contig])
		p->contig++;
	/* Wake the emitter once a window of results is ready in order, not
	 * per job: a wake-up per file costs two context switches (and an
	 * IPI) per file, on the CPUs the workers need. */
	if (p->waiting && p->contig >= p->want)
		pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

void workpool_finish(struct workpool *p, size_t i)
{
	workpool_finish_many(p, &i, 1);
}

static void *worker(void *arg)
{
	struct workpool *p = arg;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		if (p->ops->job(p, p->ctx, i) == 0)
			workpool_finish(p, i);
	if (p->ops->drain)
		p->ops->drain(p, p->ctx);
	pthread_mutex_lock(&p->lock);
	p->running--;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int workpool_run(size_t n, int nworkers, const struct workpool_ops *ops,
		void *ctx)
{
	struct workpool p = { .n = n, .ops = ops, .ctx = ctx };
	pthread_condattr_t ca;
	struct timespec until;
	pthread_t *tids = NULL;
	int started = 0, err = 0;

	atomic_init(&p.next, 0);
	p.finished = calloc(n ? n : 1, 1);
	if (!p.finished)
		return -ENOMEM;
	pthread_mutex_init(&p.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p.cond, &ca);
	pthread_condattr_destroy(&ca);
	if (nworkers < 1)
		nworkers = 1;
	if ((size_t)nworkers > n)
		nworkers = n ? (int)n : 1;

	if (nworkers == 1) {
		/* No thread at all: the same order, nothing to race, and each
		 * result is out as soon as it is known. */
		p.running = 1;
		for (size_t i = 0; i < n; i++) {
			if (ops->job(&p, ctx, i) == 0)
				p.finished[i] = 1;
			while (p.emit < n && p.finished[p.emit])
				ops->done(ctx, p.emit++);
		}
		if (ops->drain)
			ops->drain(&p, ctx);
		p.running = 0;
	} else {
		tids = calloc((size_t)nworkers, sizeof(*tids));
		if (!tids) {
			err = -ENOMEM;
			goto out;
		}
		/* Inputs read rather than mapped while workers run. */
		infile_set_threaded(1);
		pthread_mutex_lock(&p.lock);
		for (; started < nworkers; started++) {
			int e = pthread_create(&tids[started], NULL, worker,
					       &p);

			if (e) {
				/* Fewer workers still drain the queue. */
				if (!started)
					err = -e;
				break;
			}
			p.running++;
		}
		pthread_mutex_unlock(&p.lock);
		if (!started)
			goto out;
	}

	/* Hand results over in input order as soon as each is ready. */
	pthread_mutex_lock(&p.lock);
	while (p.emit < n) {
		if (p.finished[p.emit]) {
			size_t i = p.emit++;

			pthread_mutex_unlock(&p.lock);
			ops->done(ctx, i);
			pthread_mutex_lock(&p.lock);
			continue;
		}
		if (!p.running)
			break;	/* every worker gone: nothing more comes */
		/* Sleep until WAKE_WINDOW results (or all that are left) can
		 * be handed over at once, or WAKE_AFTER_NS has passed; a slow
		 * job at p.emit still holds back those after it, as input
		 * order requires. */
		p.want = p.emit + WAKE_WINDOW < n ? p.emit + WAKE_WINDOW : n;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += WAKE_AFTER_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		p.waiting = 1;
		pthread_cond_timedwait(&p.cond, &p.lock, &until);
		p.waiting = 0;
	}
	pthread_mutex_unlock(&p.lock);
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
out:
	infile_set_threaded(0);
	free(tids);
	free(p.finished);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return err;
}

int workpool_default_workers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
