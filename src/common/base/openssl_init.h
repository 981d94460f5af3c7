/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libcrypto set up for short runs.  Start-up is most of signing one
 * module, and two of libcrypto's start-up defaults cost a measurable
 * part of it while serving nothing a run without -v needs.  Call once,
 * before any other OpenSSL use.
 */
#ifndef MODSIGN_BASE_OPENSSL_INIT_H
#define MODSIGN_BASE_OPENSSL_INIT_H

void openssl_init(int verbose);
/*
 * Tear libcrypto down now, with its providers: for a tool's main, after
 * the last OpenSSL use and before it returns (openssl_init.c says why).
 * Only when openssl_init_need_teardown() was called (a PKCS#11 token was
 * opened, whose provider or engine must end before the module's own
 * destructors run); else exit() is the teardown, and nothing registered
 * with OPENSSL_atexit() runs.
 */
void openssl_init_done(void);
void openssl_init_need_teardown(void);

/*
 * --version, in one shape for every tool: "TOOL (modsign) VERSION", then
 * "OpenSSL RUNTIME (built with HEADERS); ML-DSA: yes" (or "no (needs
 * OpenSSL 3.5 or later)"), mldsa saying whether this tool can do its ML-DSA
 * job in this build.  Scripts and the tests key ML-DSA expectations on it.
 */
void openssl_init_print_version(const char *tool, int mldsa);

#endif
