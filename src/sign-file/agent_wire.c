// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sign-file/agent_wire.h"

int ms_agent_is_uri(const char *name)
{
	return strncmp(name, "pkcs11:", 7) == 0;
}

int ms_agent_fid_of(const char *path, struct ms_agent_fid *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) < 0)
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = (uint64_t)st.st_size;
	id->mtime_sec = st.st_mtim.tv_sec;
	id->mtime_nsec = st.st_mtim.tv_nsec;
	return 0;
}

long ms_agent_encode(const struct ms_agent_req *rq, uint8_t *buf, size_t size)
{
	struct ms_agent_hdr h = { .kind = rq->kind, .flags = rq->flags,
				  .cert_len = (uint32_t)rq->cert_len,
				  .key = rq->key };
	size_t off = sizeof(h);

	memcpy(h.magic, MS_AGENT_MAGIC, 4);
	if (rq->cert_len > MS_AGENT_CERT_MAX || size < off)
		return -EMSGSIZE;
	memcpy(buf, &h, sizeof(h));
	for (int i = 0; i < MS_AGENT_NSTR; i++) {
		const char *s = rq->s[i] ? rq->s[i] : "";
		size_t n = strlen(s) + 1;

		if (n > size - off)
			return -EMSGSIZE;
		memcpy(buf + off, s, n);
		off += n;
	}
	if (rq->cert_len > size - off)
		return -EMSGSIZE;
	if (rq->cert_len)
		memcpy(buf + off, rq->cert, rq->cert_len);
	return (long)(off + rq->cert_len);
}

int ms_agent_decode(const uint8_t *buf, size_t len, struct ms_agent_req *rq)
{
	struct ms_agent_hdr h;
	size_t off = sizeof(h);

	memset(rq, 0, sizeof(*rq));
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, MS_AGENT_MAGIC, 4) != 0)
		return -EBADMSG;
	rq->kind = h.kind;
	rq->flags = h.flags;
	rq->key = h.key;
	for (int i = 0; i < MS_AGENT_NSTR; i++) {
		const uint8_t *nul = off < len ? memchr(buf + off, 0, len - off)
					       : NULL;

		if (!nul)
			return -EBADMSG;
		rq->s[i] = (const char *)buf + off;
		off = (size_t)(nul - buf) + 1;
	}
	if (h.cert_len != len - off)
		return -EBADMSG;
	rq->cert = buf + off;
	rq->cert_len = h.cert_len;
	return 0;
}

int ms_agent_send(int sock, const void *buf, size_t len, const int *fds,
		  int nfd)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * 4)];
	} c;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (nfd > 4)
		return -EINVAL;
	if (nfd > 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.space;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfd);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfd);
		memcpy(CMSG_DATA(&c.h), fds, sizeof(int) * (size_t)nfd);
	}
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EPIPE;
}

long ms_agent_recv(int sock, void *buf, size_t size, int *fds, int nfd,
		   int *got)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * 8)];
	} c;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.space,
			    .msg_controllen = sizeof(c.space) };
	struct cmsghdr *cm;
	ssize_t n;

	*got = 0;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm)) {
		size_t k;

		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_RIGHTS)
			continue;
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			       sizeof(fd));
			if (*got < nfd)
				fds[(*got)++] = fd;
			else
				close(fd);
		}
	}
	if (n == 0)
		return -EPIPE;
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		return -EMSGSIZE;
	return (long)n;
}
