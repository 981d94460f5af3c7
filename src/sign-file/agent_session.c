// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signing agent's sessions: one client checked (uid, identity, the
 * module it opened), its module signed as its own run would sign it, and
 * the answer sent back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "base/outfile.h"
#include "sign-file/agent_session.h"
#include "sign-file/agent_wire.h"
#include "sign-file/durability.h"
#include "sign-file/sign_many.h"
#include "sign-file/sign_report.h"

static int same_opt(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/*
 * The identity check: a client is served only when it would sign with
 * exactly what the agent loaded.  The hash and the options by their
 * strings; a pkcs11: URI key or certificate by its string too (the token
 * decides what it names); a key file as the same file, unchanged since it
 * was loaded (device, inode, size, mtime: the client need not read it);
 * a certificate file by its bytes (the client reads it: it is small, and
 * a certificate rewritten in place must not be signed for by the old
 * one).
 */
static int acceptable(const struct ms_agent_session *sv, const struct ms_agent_req *rq)
{
	const struct ms_agent_conf *c = sv->conf;
	const char *key = rq->s[MS_AGENT_S_KEY];
	const char *cert = rq->s[MS_AGENT_S_CERT];

	if (rq->flags & ~MS_AGENT_F_ALL ||
	    !!(rq->flags & MS_AGENT_F_KEYID) != !!c->keyid ||
	    strcmp(rq->s[MS_AGENT_S_PROG], log_prog()) ||
	    strcmp(rq->s[MS_AGENT_S_HASH], c->hash) ||
	    !same_opt(rq->s[MS_AGENT_S_PROVIDER], c->provider) ||
	    !same_opt(rq->s[MS_AGENT_S_P11MOD], c->p11module))
		return 0;
	if (ms_agent_is_uri(c->key) ? strcmp(key, c->key) != 0
	    : ms_agent_is_uri(key) ||
	      memcmp(&rq->key, &sv->key_id, sizeof(rq->key)) != 0)
		return 0;
	if (ms_agent_is_uri(c->cert) ? strcmp(cert, c->cert) != 0
	    : rq->cert_len != sv->cert_len ||
	      memcmp(rq->cert, sv->cert, sv->cert_len) != 0)
		return 0;
	/* the warnings name the key as given: only the same spelling */
	return !c->preamble || !*c->preamble || strcmp(key, c->key) == 0;
}

int ms_agent_session_answer(int fd, enum ms_agent_status st, int code,
			    const char *text, size_t len)
{
	struct ms_agent_ans a = { .status = st, .code = (uint32_t)code,
				  .text_len = (uint32_t)len };
	uint8_t *buf;
	int err;

	memcpy(a.magic, MS_AGENT_MAGIC, 4);
	if (len > MS_AGENT_MSG_MAX - sizeof(a))
		a.text_len = (uint32_t)(len = MS_AGENT_MSG_MAX - sizeof(a));
	buf = malloc(sizeof(a) + len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &a, sizeof(a));
	if (len)
		memcpy(buf + sizeof(a), text, len);
	err = ms_agent_send(fd, buf, sizeof(a) + len, NULL, 0);
	free(buf);
	return err;
}

/*
 * A client's name, reachable from here: an absolute name as it is, a
 * relative one through the client's working directory
 * (/proc/self/fd/N/name, which the kernel resolves from that directory
 * whatever this process's own is).
 */
static int client_path(char *out, size_t size, int cwd, const char *name)
{
	int n = name[0] == '/' ? snprintf(out, size, "%s", name)
			       : snprintf(out, size, "/proc/self/fd/%d/%s",
					  cwd, name);

	return n > 0 && (size_t)n < size ? n - (int)strlen(name) : -1;
}

/* Messages name the client's files as it named them. */
static void client_names(char *path, const char *prefix, size_t plen)
{
	if (plen && strncmp(path, prefix, plen) == 0)
		memmove(path, path + plen, strlen(path + plen) + 1);
}

/*
 * The agent's durability: per file, what a single run pays
 * (sign-file/durability.h, decided once a file system), and no directory
 * flush; each file system written to is flushed once (syncfs) when the
 * serving ends, so that once the agent has exited every module it
 * signed is on disk.  replaces: the job only replaces existing files (in
 * place, no .p7s).  The flushes for ms_signer_commit.
 */
static unsigned int note_fs(struct ms_agent_session *sv, const char *target,
			    int replaces)
{
	char copy[PATH_MAX];
	struct stat st;
	unsigned int flags = OUTFILE_SYNC_FILE | OUTFILE_SYNC_DIR;
	int fd, i;

	snprintf(copy, sizeof(copy), "%s", target);
	if (stat(dirname(copy), &st) < 0)
		return flags;
	pthread_mutex_lock(&sv->lock);
	for (i = 0; i < sv->nfs; i++)
		if (sv->fs_dev[i] == st.st_dev)
			break;
	if (i == sv->nfs && sv->nfs < MS_AGENT_SESSION_MAX_FS) {
		snprintf(copy, sizeof(copy), "%s", target);
		fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			sv->fs_dev[i] = st.st_dev;
			sv->fs_fd[i] = fd;
			sv->fs_sync[i][0] = ms_dur_commit_flags(fd, 0);
			sv->fs_sync[i][1] = ms_dur_commit_flags(fd, 1);
			sv->nfs++;
		}
	}
	/* not in the list: flushed here, in full */
	if (i < sv->nfs)
		flags = sv->fs_sync[i][!!replaces];
	pthread_mutex_unlock(&sv->lock);
	return flags;
}

/*
 * The client hung up: it gave up waiting (MODSIGN_AGENT_TIMEOUT) and
 * signs the module itself, after it has seen the module's lock free
 * (sign-file/agent_client.c).  Asked under that lock, just before the rename,
 * so the module is replaced by one of the two only.
 */
static int client_gone(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
			  errno != EINTR);
}

/* Sign one client's module as its own run would: the code and the text
 * it would have printed, or -ECONNRESET when the client left first. */
static int sign_for(struct ms_agent_session *sv, const struct ms_agent_req *rq,
		    int client, int cwd, FILE *cap)
{
	const char *module = rq->s[MS_AGENT_S_MODULE];
	const char *dest = rq->s[MS_AGENT_S_DEST];
	char mpath[PATH_MAX], dpath[PATH_MAX], mpre[64] = "", dpre[64] = "";
	struct ms_signer_req r = {
		.module = mpath,
		.save_p7s = !!(rq->flags & MS_AGENT_F_SAVE_P7S),
		.p7s_only = !!(rq->flags & MS_AGENT_F_P7S_ONLY),
		.firmware = !!(rq->flags & MS_AGENT_F_FIRMWARE),
		.signed_policy = rq->flags & MS_AGENT_F_REPLACE ?
			MS_SIGNER_SIGNED_REPLACE : rq->flags & MS_AGENT_F_SKIP ?
			MS_SIGNER_SIGNED_SKIP : MS_SIGNER_SIGNED_REFUSE,
		.overlap = 1,
	};
	struct ms_signer_signed job;
	struct ms_signer_failure fail;
	int mp, dp = 0, err, skipped = 0;

	mp = client_path(mpath, sizeof(mpath), cwd, module);
	if (*dest) {
		dp = client_path(dpath, sizeof(dpath), cwd, dest);
		r.dest = dpath;
	}
	if (mp < 0 || dp < 0)
		return -ENAMETOOLONG;
	memcpy(mpre, mpath, (size_t)mp);
	if (*dest)
		memcpy(dpre, dpath, (size_t)dp);

	err = ms_signer_prepare(&sv->signer, &r, &job, &skipped, &fail);
	if (!err && !skipped && client_gone(client)) {
		ms_signer_release(&job);
		return -ECONNRESET;
	}
	if (!err && !skipped) {
		err = ms_signer_commit(&job, note_fs(sv, r.dest ? r.dest : mpath,
						   !r.dest && !r.save_p7s),
				     &fail);
		ms_signer_release(&job);
	}
	if (err) {
		client_names(fail.path, mpre, (size_t)mp);
		client_names(fail.path, dpre, (size_t)dp);
		return ms_sign_report(&fail, err);
	}
	if (skipped && !(rq->flags & MS_AGENT_F_QUIET))
		fprintf(cap, "%s: %s: already signed, left unchanged\n",
			log_prog(), module);
	return EXITCODE_OK;
}

/* The module the client opened is the one its name leads to from here
 * (else another mount namespace, or a rename: the client signs). */
static int same_module(const struct ms_agent_req *rq, int cwd, int modfd)
{
	char path[PATH_MAX];
	struct stat a, b;

	return client_path(path, sizeof(path), cwd,
			   rq->s[MS_AGENT_S_MODULE]) >= 0 &&
	       stat(path, &a) == 0 && fstat(modfd, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * The client's module, once it is answered.  A module replaced in place
 * is freed (truncated, and discarded on a file system mounted with
 * discard) when the last descriptor of the client's open goes: if that
 * were the client's, it would pay for it between the answer and its
 * exit, and the build would wait (bench/NOTES, "The agent holds the
 * module").  So the agent keeps its copy until it has answered the next
 * client, and frees it off anyone's path.
 */
static void hold_module(int *held, int modfd)
{
	if (*held >= 0)
		close(*held);
	*held = modfd;
}

/* One connection: 1 when its descriptor is kept (a stop request).
 * *held: the last module served (hold_module). */
static int serve_client(struct ms_agent_session *sv, int fd, uint8_t *buf, int *held)
{
	struct ucred cr = { .uid = (uid_t)-1 };
	socklen_t crlen = sizeof(cr);
	struct ms_agent_req rq;
	int fds[2] = { -1, -1 }, got = 0, code, keep = 0;
	char *text = NULL;
	size_t tlen = 0;
	FILE *cap;
	long n;

	/* Only this uid: anyone else would sign with our key. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0 ||
	    cr.uid != geteuid()) {
		log_error(NULL, "signing agent: refused a client of uid %u "
			 "(it serves uid %u only)", (unsigned int)cr.uid,
			 (unsigned int)geteuid());
		ms_agent_session_answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
		return 0;
	}
	n = ms_agent_recv(fd, buf, MS_AGENT_MSG_MAX, fds, 2, &got);
	if (n < 0 || ms_agent_decode(buf, (size_t)n, &rq))
		goto out;
	if (rq.kind == MS_AGENT_STOP) {
		pthread_mutex_lock(&sv->lock);
		if (sv->stop_fd < 0) {
			sv->stop_fd = fd;
			keep = 1;
		}
		pthread_mutex_unlock(&sv->lock);
		kill(getpid(), SIGTERM);
		goto out;
	}
	/* one descriptor: the client could not open its module */
	if (rq.kind != MS_AGENT_SIGN || got < 1 || !acceptable(sv, &rq) ||
	    (got == 2 && !same_module(&rq, fds[0], fds[1]))) {
		ms_agent_session_answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
		goto out;
	}
	cap = open_memstream(&text, &tlen);
	if (!cap) {
		ms_agent_session_answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
		goto out;
	}
	if (sv->conf->preamble)
		fputs(sv->conf->preamble, cap);
	log_capture(cap);
	code = sign_for(sv, &rq, fd, fds[0], cap);
	log_capture(NULL);
	fclose(cap);
	if (code < 0)
		ms_agent_session_answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
	else
		ms_agent_session_answer(fd, MS_AGENT_DONE, code, text, tlen);
	free(text);
	/* the token's next signature, while no client waits for it */
	ms_sign_many_arm(&sv->signer);
out:
	if (got == 2) {
		hold_module(held, fds[1]);
		got = 1;
	}
	for (int i = 0; i < got; i++)
		close(fds[i]);
	return keep;
}

void *ms_agent_session_worker(void *arg)
{
	struct ms_agent_session *sv = arg;
	uint8_t *buf = malloc(MS_AGENT_MSG_MAX);
	int held = -1;

	while (buf) {
		int fd = accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (!sv->stopping && (errno == EINTR ||
					  errno == ECONNABORTED ||
					  errno == EMFILE || errno == ENFILE))
				continue;
			break;
		}
		if (!serve_client(sv, fd, buf, &held))
			close(fd);
	}
	hold_module(&held, -1);
	free(buf);
	return NULL;
}
