/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What sign-file decides before it loads OpenSSL or a key, and running
 * the rest.  The sign-file executable is a front end that links nothing
 * but a C library (src/front/sign-file.c): kbuild, DKMS and akmods start
 * one process per module, and under a signing agent that process only
 * hands its module over, so it must not pay for mapping and relocating
 * libcrypto, nor for the dynamic loader at all: where musl is installed
 * the front end is a static musl program (Makefile), which starts without
 * glibc's start-up (its dynamic loader, and its CPU and cache probing,
 * dozens of CPUID instructions that a virtual machine traps on).
 * Everything else is the tool proper (src/sign-file.c), a program of its
 * own beside it, which the front end executes in its place when needed.
 */
#ifndef MODSIGN_SIGN_FILE_FRONT_H
#define MODSIGN_SIGN_FILE_FRONT_H

#include "sign-file/agent_client.h"
#include "sign-file/sign_words.h"

/* Invoked as kmodsign, or --kmodsign before any "--": decided before
 * getopt runs, since it changes what the short option -D means. */
int ms_front_kmodsign(int argc, char **argv);

/* The job's positional part from "<hash> <key> <x509> <module>
 * [<dest>]", decoded (sign-file/sign_words.h); a <dest> spelt as
 * <module> is in place. */
void ms_front_job_words(struct ms_agent_job *j,
			const struct ms_sign_words *w);

/*
 * kbuild's, DKMS's and akmods' command line, "sign-file <hash> <key>
 * <x509> <module> [<dest>]" with no option at all, handed to the agent
 * MODSIGN_AGENT names: 1 with *code when the agent did it.  Any option
 * (a word starting with '-') leaves the line to the tool's own option
 * parser, which may still hand it over.  When the agent does not take
 * it, MODSIGN_AGENT is unset, so the run that follows does not ask (and
 * wait for) it again.
 */
int ms_front_delegate(int argc, char **argv, int *code);

/*
 * Execute the tool proper in this process's place, with the same
 * arguments (argv[0] included, so it speaks as what was run) and
 * environment: lib/modsign/sign-file beside the directory of this
 * executable (its real path, then the path it was run by), else the one
 * in the directory it was installed to.  Returns only when it cannot:
 * EXITCODE_IO, after one line naming the file.
 */
int ms_front_run_core(char **argv);

#endif
