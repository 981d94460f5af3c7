/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify-file --machine: the parts of one machine (trust/machine.h) made
 * into what a run judges with.  Each part no explicit option replaces
 * becomes a trust source or a setting; each part not there becomes a
 * note (one line, for stderr and the JSON "differences" array), never an
 * error: a machine without UEFI, or with its config elsewhere, is still
 * judged, and says what it was judged without.
 */
#ifndef MODSIGN_TRUST_MACHINE_PARTS_H
#define MODSIGN_TRUST_MACHINE_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "trust/keyring_load.h"
#include "trust/keyring_model.h"
#include "trust/machine.h"

/* What the command line already settled, and where sources go. */
struct machine_parts_request {
	struct keyring_load_source *srcs;	/* the command line's sources; room for
				 * MACHINE_PARTS_MAX_SOURCES more */
	size_t *nsrc;
	const char **kcpath;	/* --kernel-config, or set to the machine's */
	bool kline;		/* --kernel given: no config is read */
	bool *enforce;		/* --enforce, or set by sig_enforce=Y */
	int lockdown;		/* --lockdown, -1 when not given */
};

#define MACHINE_PARTS_MAX_SOURCES 5

/* Lines saying what was missing, malloc'd. */
struct machine_parts_notes {
	char **v;
	size_t n;
};

/*
 * Settle every part of m into rq.  0, or -ENOMEM.  notes gets a line
 * for each part not found (the caller shows them); machine_parts_notes_free.
 */
int machine_parts_settle(const struct machine *m, struct machine_parts_request *rq,
			 struct machine_parts_notes *notes);
void machine_parts_notes_free(struct machine_parts_notes *notes);

/*
 * The keyring model of the judged kernel: its vendor from the first
 * image among rq's sources (its version line) unless given, kc's
 * options (NULL: none read), keyring_model_decide(), then mp_keyrings(); an
 * unknown vendor is a note.  0 or -ENOMEM.
 */
int machine_parts_model(const struct machine *m, const struct kernel_config *kc,
			int given, struct machine_parts_request *rq, struct keyring_model *km,
			struct machine_parts_notes *notes);

/*
 * The kernel running there (m->running): judge by the keys it really
 * holds.  Its /proc/keys lists them; on this machine keyctl says which
 * keyring holds each.  A key the files predicted that the kernel does
 * not hold is taken out; one it filed elsewhere (a MOK key in .platform)
 * is moved; one it holds that no file gave (keyctl padd at run time) is
 * noted: its certificate is not here, so its modules stay UNKNOWN-KEY.
 * Each difference is a note.  0, or -ENOMEM.
 */
int machine_parts_running(const struct machine *m, struct keyring *trusted,
			  struct keyring *platform, struct machine_parts_notes *notes);

#endif
