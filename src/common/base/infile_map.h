/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * infile.c's mappings, as infile_map.c keeps them: the table of the
 * read-only mappings this process holds and the SIGBUS handler that
 * finds a faulting address in it.  Only the infile*.c files include
 * this; the readers (infile_map_read, infile_check) are in infile.h.
 */
#ifndef MODSIGN_BASE_INFILE_MAP_H
#define MODSIGN_BASE_INFILE_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Install the SIGBUS handler (once per process): before the first
 * mapping is made, so that no fault on it ever meets the default action. */
void infile_map_arm(void);
/* Enter a new mapping of fd in the table: 1 + its slot, or 0 when the
 * table is full (then read the file into memory instead). */
unsigned int infile_map_claim(const uint8_t *p, size_t len, int fd);
/* Take a slot out of the table, before its mapping goes. */
void infile_map_release(unsigned int slot);

#endif
