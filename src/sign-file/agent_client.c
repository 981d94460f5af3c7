// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/log.h"
#include "sign-file/agent_client.h"
#include "sign-file/agent_wire.h"

/*
 * How long a client waits for the agent (MODSIGN_AGENT_TIMEOUT, seconds,
 * default 30): to connect, to hand the module over and for the answer.
 * An agent serving a build answers in milliseconds, or in the time its
 * queue of modules ahead takes; one that hangs must not hang the build.
 */
static struct timespec agent_timeout(void)
{
	const char *e = getenv(MS_AGENT_TIMEOUT_ENV);
	char *end;
	double t = e && *e ? strtod(e, &end) : 0;

	if (!e || !*e || *end || !(t > 0) || t > 86400)
		t = 30;
	return (struct timespec){ .tv_sec = (time_t)t,
				  .tv_nsec = (long)((t - (time_t)t) * 1e9) };
}

static int agent_connect(const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timespec ts = agent_timeout();
	struct timeval tv = { .tv_sec = ts.tv_sec,
			      .tv_usec = ts.tv_nsec / 1000 };
	int fd;

	if (!sock || !*sock || strlen(sock) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* connect() and sendmsg() wait at most SO_SNDTIMEO, recvmsg()
	 * SO_RCVTIMEO: then EAGAIN (net/unix/af_unix.c) */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* The <x509> file's bytes, for the agent to compare with its own. */
static int read_cert(const char *path, uint8_t *buf, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t off = 0;
	int fd;

	/* no regular file: the run's own loading says why, unopened */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > MS_AGENT_CERT_MAX) {
		close(fd);
		return -EINVAL;
	}
	while (off < (size_t)st.st_size &&
	       (n = read(fd, buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)n;
	close(fd);
	*len = off;
	return off == (size_t)st.st_size ? 0 : -EIO;
}

/*
 * The agent ended, or did not answer in time.  In place, the module's
 * name then holds either the file this run opened (nothing was replaced:
 * sign it here) or the agent's complete signed file (its rename is the
 * last step before the answer): then the job is done.
 */
static int replaced_meanwhile(const struct ms_agent_job *job, int modfd)
{
	struct stat was, now;

	if (job->dest || (job->flags & MS_AGENT_F_P7S_ONLY) || modfd < 0)
		return 0;
	return fstat(modfd, &was) == 0 && stat(job->module, &now) == 0 &&
	       (was.st_dev != now.st_dev || was.st_ino != now.st_ino);
}

/*
 * Before this run signs a module the agent got too: the agent checks
 * that its client is still there before it starts and again before its
 * rename, both under the module's lock (sign-file/agent_server.c).  So once
 * the connection is shut down and the lock has been free once, the agent
 * has either replaced the module or never will.  0, or -EWOULDBLOCK when
 * the lock stays taken for the whole timeout (an agent hung inside a
 * module: this run could not sign it either).
 */
static int agent_let_go(int s, int modfd)
{
	struct timespec ts = agent_timeout(), step = { 0, 10000000 };
	double left = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;

	shutdown(s, SHUT_RDWR);
	if (modfd < 0)
		return 0;
	for (;;) {
		if (flock(modfd, LOCK_EX | LOCK_NB) == 0) {
			flock(modfd, LOCK_UN);
			return 0;
		}
		if (errno != EWOULDBLOCK && errno != EINTR)
			return 0;	/* no lock here: nothing to wait for */
		if (left <= 0)
			return -EWOULDBLOCK;
		nanosleep(&step, NULL);
		left -= 0.01;
	}
}

int ms_agent_delegate(const char *sock, const struct ms_agent_job *job,
		      int *code)
{
	struct ms_agent_req rq = { .kind = MS_AGENT_SIGN,
				   .flags = job->flags };
	uint8_t *buf = NULL, *cert = NULL;
	struct ms_agent_ans ans;
	struct stat st;
	int fds[2] = { -1, -1 }, s = -1, done = 0, got;
	long n;

	/* What the agent needs: where the names are resolved from, and
	 * the module as this run sees it (when it cannot be opened, the
	 * agent's attempt says why, in the words of a run of its own). */
	fds[0] = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* Never open what is no regular file: opening a device can act on
	 * it (a tape rewinds on close); the agent refuses it unopened. */
	if (stat(job->module, &st) == 0 && S_ISREG(st.st_mode))
		fds[1] = open(job->module, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			      O_NONBLOCK);
	if (fds[0] < 0)
		goto out;
	if (!ms_agent_is_uri(job->key) && ms_agent_fid_of(job->key, &rq.key))
		goto out;
	if (!ms_agent_is_uri(job->cert)) {
		cert = malloc(MS_AGENT_CERT_MAX);
		if (!cert || read_cert(job->cert, cert, &rq.cert_len))
			goto out;
		rq.cert = cert;
	}
	rq.s[MS_AGENT_S_PROG] = log_prog();
	rq.s[MS_AGENT_S_HASH] = job->hash;
	rq.s[MS_AGENT_S_KEY] = job->key;
	rq.s[MS_AGENT_S_CERT] = job->cert;
	rq.s[MS_AGENT_S_MODULE] = job->module;
	rq.s[MS_AGENT_S_DEST] = job->dest;
	rq.s[MS_AGENT_S_PROVIDER] = job->provider;
	rq.s[MS_AGENT_S_P11MOD] = job->p11module;
	buf = malloc(MS_AGENT_MSG_MAX);
	if (!buf || (n = ms_agent_encode(&rq, buf, MS_AGENT_MSG_MAX)) < 0)
		goto out;
	s = agent_connect(sock);
	if (s < 0 || ms_agent_send(s, buf, (size_t)n, fds,
				    fds[1] < 0 ? 1 : 2))
		goto out;
	n = ms_agent_recv(s, buf, MS_AGENT_MSG_MAX, NULL, 0, &got);
	if (n < (long)sizeof(ans)) {
		if (agent_let_go(s, fds[1])) {
			log_error(job->module, "locked by the signing agent at "
				 "%s, which does not answer: stop it, or unset "
				 "%s", sock, MS_AGENT_ENV);
			*code = EXITCODE_IO;
			done = 1;
			goto out;
		}
		done = replaced_meanwhile(job, fds[1]);
		*code = 0;
		if (!done && n == -EAGAIN)
			log_warn(sock, "the signing agent did not answer within "
				"%s: signing without it", MS_AGENT_TIMEOUT_ENV);
		goto out;
	}
	memcpy(&ans, buf, sizeof(ans));
	if (memcmp(ans.magic, MS_AGENT_MAGIC, 4) != 0 ||
	    ans.status != MS_AGENT_DONE ||
	    ans.text_len != (size_t)n - sizeof(ans))
		goto out;
	fwrite(buf + sizeof(ans), 1, ans.text_len, stderr);
	*code = (int)ans.code;
	done = 1;
out:
	if (s >= 0)
		close(s);
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(buf);
	free(cert);
	return done;
}

int ms_agent_stop(const char *sock)
{
	struct ms_agent_req rq = { .kind = MS_AGENT_STOP };
	uint8_t buf[512];
	long n = ms_agent_encode(&rq, buf, sizeof(buf));
	int s, err, got;

	if (n < 0)
		return (int)n;
	s = agent_connect(sock);
	if (s < 0)
		return s;
	err = ms_agent_send(s, buf, (size_t)n, NULL, 0);
	if (!err) {
		n = ms_agent_recv(s, buf, sizeof(buf), NULL, 0, &got);
		err = n < 0 ? (int)n : 0;
	}
	close(s);
	return err;
}
