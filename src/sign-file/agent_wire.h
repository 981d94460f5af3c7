/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signing agent's wire format, shared by the client (a plain sign-file
 * run that hands its module over) and the agent (sign-file --agent).
 *
 * One SOCK_SEQPACKET connection per module, on a UNIX socket in a 0700
 * directory, same host and same uid (the agent checks SO_PEERCRED), so
 * integers travel in host order.  Two messages:
 *
 *   client -> agent   struct ms_agent_hdr
 *                     MS_AGENT_NSTR NUL-terminated strings (enum
 *                     ms_agent_str order)
 *                     cert_len bytes: the <x509> file's content (0 when
 *                     <x509> is a pkcs11: URI)
 *                     SCM_RIGHTS: the client's working directory (O_PATH)
 *                     and <module>, open for reading (left out when
 *                     the client cannot open it: the agent's attempt
 *                     then reports why)
 *   agent -> client   struct ms_agent_ans, then text_len bytes: what the
 *                     client writes to stderr, byte for byte as it would
 *                     have written it signing itself
 *
 * A MS_AGENT_STOP request carries no strings and no descriptors.
 */
#ifndef MODSIGN_SIGN_FILE_AGENT_WIRE_H
#define MODSIGN_SIGN_FILE_AGENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define MS_AGENT_MAGIC "MSA1"
/* The environment variable naming the agent's socket. */
#define MS_AGENT_ENV "MODSIGN_AGENT"
/* How long a client waits for the agent, in seconds (default 30). */
#define MS_AGENT_TIMEOUT_ENV "MODSIGN_AGENT_TIMEOUT"
/* A certificate larger than this is signed by the client itself. */
#define MS_AGENT_CERT_MAX (64u << 10)
/* Largest message either way (strings: PATH_MAX each at most). */
#define MS_AGENT_MSG_MAX (MS_AGENT_CERT_MAX + 9 * 4096 + 256)

enum ms_agent_kind { MS_AGENT_SIGN = 1, MS_AGENT_STOP = 2 };

/* The per-file options a client may delegate (anything else it signs
 * itself). */
#define MS_AGENT_F_KEYID 0x01u		/* -k */
#define MS_AGENT_F_SAVE_P7S 0x02u	/* -p */
#define MS_AGENT_F_P7S_ONLY 0x04u	/* -d */
#define MS_AGENT_F_REPLACE 0x08u	/* --replace */
#define MS_AGENT_F_SKIP 0x10u		/* --skip-signed */
#define MS_AGENT_F_FIRMWARE 0x20u	/* --usage firmware */
#define MS_AGENT_F_QUIET 0x40u		/* -q */
#define MS_AGENT_F_ALL 0x7fu

enum ms_agent_str {
	MS_AGENT_S_PROG,	/* the client's program name (messages) */
	MS_AGENT_S_HASH,
	MS_AGENT_S_KEY,
	MS_AGENT_S_CERT,
	MS_AGENT_S_MODULE,
	MS_AGENT_S_DEST,	/* "" for in place */
	MS_AGENT_S_PROVIDER,	/* --provider, "" when not given */
	MS_AGENT_S_P11MOD,	/* --pkcs11-module, "" when not given */
	MS_AGENT_NSTR
};

/* A key file's identity: the same file, not rewritten since (no read). */
struct ms_agent_fid {
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
};

struct ms_agent_hdr {
	char magic[4];
	uint32_t kind;
	uint32_t flags;
	uint32_t cert_len;
	struct ms_agent_fid key;	/* zero for a pkcs11: URI */
};

enum ms_agent_status {
	MS_AGENT_DONE = 0,	/* exit with code, after writing the text */
	MS_AGENT_DECLINE = 1,	/* not this agent's key/options: sign */
};

struct ms_agent_ans {
	char magic[4];
	uint32_t status;
	uint32_t code;
	uint32_t text_len;
};

/* One request, decoded: strings point into the message buffer. */
struct ms_agent_req {
	uint32_t kind, flags;
	const char *s[MS_AGENT_NSTR];
	struct ms_agent_fid key;
	const uint8_t *cert;
	size_t cert_len;
};

/* 1 for a pkcs11: URI (compared as a string), 0 for a file. */
int ms_agent_is_uri(const char *name);
/* Identity of the key file at path: 0 or -errno. */
int ms_agent_fid_of(const char *path, struct ms_agent_fid *id);

/* Encode rq into buf (size MS_AGENT_MSG_MAX): the length, or -EMSGSIZE. */
long ms_agent_encode(const struct ms_agent_req *rq, uint8_t *buf, size_t size);
/* Decode a received message: 0 or -EBADMSG. */
int ms_agent_decode(const uint8_t *buf, size_t len, struct ms_agent_req *rq);

/*
 * One message with up to nfd descriptors: sendmsg/recvmsg without
 * SIGPIPE.  ms_agent_recv gives -EPIPE at end of stream, and closes any
 * descriptor beyond the nfd expected (*got tells how many came).
 */
int ms_agent_send(int sock, const void *buf, size_t len, const int *fds,
		  int nfd);
long ms_agent_recv(int sock, void *buf, size_t size, int *fds, int nfd,
		   int *got);

#endif
