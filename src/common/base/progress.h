/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A one-line progress bar on stderr, drawn only when stderr is a terminal
 * (logs and pipes never see it).  Used from one thread: the one printing
 * results in input order.
 */
#ifndef MODSIGN_BASE_PROGRESS_H
#define MODSIGN_BASE_PROGRESS_H

#include <stddef.h>

struct progress {
	int on;
	size_t total, done;
	long long last_ms;	/* last redraw, monotonic */
	const char *what;	/* "signed", "verified" */
};

void progress_init(struct progress *p, size_t total, const char *what);
/* One more file done; redrawn at most every 100 ms, and at the end. */
void progress_step(struct progress *p);
/* Erase the bar before other output goes to the terminal. */
void progress_clear(struct progress *p);
/* Erase it for good. */
void progress_end(struct progress *p);

#endif
