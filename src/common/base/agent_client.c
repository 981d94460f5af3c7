// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/agent_client.h"
#include "base/agent_wire.h"
#include "base/log.h"

static int agent_connect(const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (!sock || !*sock || strlen(sock) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
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
 * The agent ended without an answer.  In place, the module's name then
 * holds either the file this run opened (nothing was replaced: sign it
 * here) or the agent's complete signed file (its rename is the last
 * step before the answer): then the job is done.
 */
static int replaced_meanwhile(const struct ms_agent_job *job, int modfd)
{
	struct stat was, now;

	if (job->dest || (job->flags & MS_AGENT_F_P7S_ONLY) || modfd < 0)
		return 0;
	return fstat(modfd, &was) == 0 && stat(job->module, &now) == 0 &&
	       (was.st_dev != now.st_dev || was.st_ino != now.st_ino);
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
	rq.s[MS_AGENT_S_PROG] = ms_prog();
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
		done = replaced_meanwhile(job, fds[1]);
		*code = 0;
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
