/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a signer serving many files sets up once: --batch (batch_sign.c)
 * and the agent (agent_server.c) alike.
 *   - A key on a PKCS#11 token signs one file at a time, under a lock.
 *     libp11's engine already serialises the operations on one slot (a
 *     session does one operation at a time, PKCS#11 v2.40 5.6), and its
 *     key loading raced its signing before 0.4.12's session pool; the
 *     token, not the CPU, is the limit there anyway.  Only the signing
 *     is serialised: each module is hashed before the lock.
 *   - Where the signatures have a fixed length (RSA), the SignedData is
 *     encoded once (cms.h's template).
 *   - A token's RSA key signs through PKCS#11 directly, with its next
 *     operation initialised ahead (pkcs11/direct.h).
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_MANY_H
#define MODSIGN_SIGN_FILE_SIGN_MANY_H

#include <pthread.h>

#include "sign-file/signer.h"

struct ms_sign_many {
	pthread_mutex_t serial;
	struct ms_cms_template *tmpl;
	struct ms_p11_direct *direct;
};

/* Set s (a copy of the run's signer, which must outlive m's use) up for
 * many files; nothing here fails: what cannot be set up is done per
 * file as a single run does it. */
void ms_sign_many_start(struct ms_sign_many *m, struct ms_signer *s);

/* Initialise the token's next signature now, when nobody is signing
 * (the agent, once a client has its answer). */
void ms_sign_many_arm(const struct ms_signer *s);

void ms_sign_many_end(struct ms_sign_many *m);

#endif
