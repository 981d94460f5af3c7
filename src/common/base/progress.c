// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "base/progress.h"

#define BAR_WIDTH 30

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void progress_init(struct progress *p, size_t total, const char *what)
{
	p->on = total > 1 && isatty(STDERR_FILENO);
	p->total = total;
	p->done = 0;
	p->last_ms = 0;
	p->what = what;
}

static void draw(struct progress *p)
{
	size_t fill = p->total ? p->done * BAR_WIDTH / p->total : BAR_WIDTH;
	char bar[BAR_WIDTH + 1];

	for (size_t i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	fprintf(stderr, "\r[%s] %zu/%zu %s", bar, p->done, p->total,
		p->what);
	fflush(stderr);
}

void progress_step(struct progress *p)
{
	long long t;

	p->done++;
	if (!p->on)
		return;
	t = now_ms();
	if (t - p->last_ms < 100 && p->done < p->total)
		return;
	p->last_ms = t;
	draw(p);
}

void progress_clear(struct progress *p)
{
	if (p->on && p->last_ms)
		fputs("\r\033[K", stderr);
}

void progress_end(struct progress *p)
{
	progress_clear(p);
	fflush(stderr);
	p->on = 0;
}
