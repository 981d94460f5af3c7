/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signing agent's server (agent_server.c) and its sessions, one
 * client each (agent_session.c), shared by these two files alone.
 */
#ifndef MODSIGN_SIGN_FILE_AGENT_SESSION_H
#define MODSIGN_SIGN_FILE_AGENT_SESSION_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sign-file/agent_server.h"
#include "sign-file/agent_wire.h"
#include "sign-file/signer.h"

/* File systems written to, flushed once when the serving ends. */
#define MS_AGENT_SESSION_MAX_FS 32

struct ms_agent_session {
	const struct ms_agent_conf *conf;
	struct ms_signer signer;	/* conf's, with the batch's lock and
					 * template */
	struct ms_agent_fid key_id;	/* conf->key, a file */
	uint8_t *cert;			/* conf->cert's bytes, a file */
	size_t cert_len;
	int lfd;
	char dir[PATH_MAX], sock[PATH_MAX];
	pthread_mutex_t lock;		/* fs[], stop_fd */
	dev_t fs_dev[MS_AGENT_SESSION_MAX_FS];
	int fs_fd[MS_AGENT_SESSION_MAX_FS], nfs;
	unsigned int fs_sync[MS_AGENT_SESSION_MAX_FS][2];	/* ms_dur_commit_flags() for a
						 * new file, a replacing one */
	int fs_full;			/* more file systems than fs[]: those
					 * were flushed per file */
	int stop_fd;			/* the stop request's connection */
	volatile int stopping;		/* the serving is ending */
};

/* One worker thread: accept clients on sv->lfd and serve them, one at a
 * time, until the socket is shut down; arg is the server. */
void *ms_agent_session_worker(void *arg);
/* Send a client the answer st (code and text with MS_AGENT_DONE). */
int ms_agent_session_answer(int fd, enum ms_agent_status st, int code,
			    const char *text, size_t len);

#endif
