// SPDX-License-Identifier: GPL-2.0-or-later
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
#include "sign-file/agent_server.h"
#include "sign-file/agent_wire.h"
#include "sign-file/durability.h"
#include "sign-file/sign_many.h"

/* File systems written to, flushed once when the serving ends. */
#define MAX_FS 32

struct server {
	const struct ms_agent_conf *conf;
	struct ms_signer signer;	/* conf's, with the batch's lock and
					 * template */
	struct ms_agent_fid key_id;	/* conf->key, a file */
	uint8_t *cert;			/* conf->cert's bytes, a file */
	size_t cert_len;
	int lfd;
	char dir[PATH_MAX], sock[PATH_MAX];
	pthread_mutex_t lock;		/* fs[], stop_fd */
	dev_t fs_dev[MAX_FS];
	int fs_fd[MAX_FS], nfs;
	unsigned int fs_sync[MAX_FS][2];	/* ms_dur_commit_flags() for a
						 * new file, a replacing one */
	int fs_full;			/* more file systems than fs[]: those
					 * were flushed per file */
	int stop_fd;			/* the stop request's connection */
};

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
static int acceptable(const struct server *sv, const struct ms_agent_req *rq)
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

static int answer(int fd, enum ms_agent_status st, int code,
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
static unsigned int note_fs(struct server *sv, const char *target,
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
	if (i == sv->nfs && sv->nfs < MAX_FS) {
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
static int sign_for(struct server *sv, const struct ms_agent_req *rq,
		    int client, int cwd, FILE *cap)
{
	const char *module = rq->s[MS_AGENT_S_MODULE];
	const char *dest = rq->s[MS_AGENT_S_DEST];
	char mpath[PATH_MAX], dpath[PATH_MAX], mpre[64] = "", dpre[64] = "";
	struct ms_sign_req r = {
		.module = mpath,
		.save_p7s = !!(rq->flags & MS_AGENT_F_SAVE_P7S),
		.p7s_only = !!(rq->flags & MS_AGENT_F_P7S_ONLY),
		.firmware = !!(rq->flags & MS_AGENT_F_FIRMWARE),
		.signed_policy = rq->flags & MS_AGENT_F_REPLACE ?
			MS_SIGNED_REPLACE : rq->flags & MS_AGENT_F_SKIP ?
			MS_SIGNED_SKIP : MS_SIGNED_REFUSE,
		.overlap = 1,
	};
	struct ms_signed job;
	struct ms_fail fail;
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
		return sv->conf->report(&fail, err);
	}
	if (skipped && !(rq->flags & MS_AGENT_F_QUIET))
		fprintf(cap, "%s: %s: already signed, left unchanged\n",
			log_prog(), module);
	return MS_EXIT_OK;
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
static int serve_client(struct server *sv, int fd, uint8_t *buf, int *held)
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
		answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
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
		answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
		goto out;
	}
	cap = open_memstream(&text, &tlen);
	if (!cap) {
		answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
		goto out;
	}
	if (sv->conf->preamble)
		fputs(sv->conf->preamble, cap);
	log_capture(cap);
	code = sign_for(sv, &rq, fd, fds[0], cap);
	log_capture(NULL);
	fclose(cap);
	if (code < 0)
		answer(fd, MS_AGENT_DECLINE, 0, NULL, 0);
	else
		answer(fd, MS_AGENT_DONE, code, text, tlen);
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

static volatile int stopping;

static void *worker(void *arg)
{
	struct server *sv = arg;
	uint8_t *buf = malloc(MS_AGENT_MSG_MAX);
	int held = -1;

	while (buf) {
		int fd = accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (!stopping && (errno == EINTR ||
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

/* The pid a directory name "modsign-agent.<pid>.XXXXXX" encodes, 0 for
 * any other name. */
static pid_t agent_dir_pid(const char *name)
{
	static const char pre[] = "modsign-agent.";
	char *end;
	long pid;

	if (strncmp(name, pre, sizeof(pre) - 1) != 0)
		return 0;
	pid = strtol(name + sizeof(pre) - 1, &end, 10);
	return *end == '.' && strlen(end) == 7 && pid > 0 && pid < INT_MAX
		       ? (pid_t)pid : 0;
}

/*
 * Remove what agents of this uid that were killed (SIGKILL: nothing ran
 * to clean up) left in tmp: their directory and socket, found by the
 * pid in the name being gone, as base/outfile.c does for temporary files.
 */
static void sweep_dead(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t pid = agent_dir_pid(e->d_name);
		char path[PATH_MAX];
		struct stat st;

		if (!pid || (kill(pid, 0) == 0 || errno != ESRCH) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		snprintf(path, sizeof(path), "%s/%s/socket", tmp, e->d_name);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name);
		rmdir(path);
	}
	closedir(d);
}

static int make_socket(struct server *sv)
{
	const char *tmp = getenv("TMPDIR");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int n;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	sweep_dead(tmp);
	n = snprintf(sv->dir, sizeof(sv->dir), "%s/modsign-agent.%d.XXXXXX",
		     tmp, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(sv->dir))
		return -ENAMETOOLONG;
	/* mkdtemp: mode 0700, a name nobody else could have taken */
	if (!mkdtemp(sv->dir))
		return -errno;
	n = snprintf(sv->sock, sizeof(sv->sock), "%s/socket", sv->dir);
	if ((size_t)n >= sizeof(sa.sun_path)) {
		rmdir(sv->dir);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, sv->sock, (size_t)n + 1);
	sv->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (sv->lfd < 0 || bind(sv->lfd, (struct sockaddr *)&sa,
				sizeof(sa)) < 0 ||
	    listen(sv->lfd, SOMAXCONN) < 0) {
		int err = -errno;

		if (sv->lfd >= 0)
			close(sv->lfd);
		unlink(sv->sock);
		rmdir(sv->dir);
		return err;
	}
	return 0;
}

/* Stop accepting, finish the clients being served, remove the socket
 * and its directory.  Once. */
static void teardown(struct server *sv, pthread_t *tid, int nt)
{
	if (stopping)
		return;
	stopping = 1;
	/* wakes every accept() with EINVAL */
	shutdown(sv->lfd, SHUT_RDWR);
	for (int i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
	close(sv->lfd);
	unlink(sv->sock);
	rmdir(sv->dir);
}

/* Once the serving has ended: flush what was signed, then answer a stop
 * request, so that --agent-stop returns with every module on disk. */
static void finish(struct server *sv)
{
	for (int i = 0; i < sv->nfs; i++) {
		syncfs(sv->fs_fd[i]);
		close(sv->fs_fd[i]);
	}
	sv->nfs = 0;
	if (sv->stop_fd >= 0) {
		answer(sv->stop_fd, MS_AGENT_DONE, 0, NULL, 0);
		close(sv->stop_fd);
		sv->stop_fd = -1;
	}
}

static int load_identity(struct server *sv)
{
	const struct ms_agent_conf *c = sv->conf;
	int err;

	if (!ms_agent_is_uri(c->key)) {
		err = ms_agent_fid_of(c->key, &sv->key_id);
		if (err)
			return err;
	}
	if (!ms_agent_is_uri(c->cert)) {
		err = infile_read_all(c->cert, MS_AGENT_CERT_MAX, &sv->cert,
				  &sv->cert_len);
		if (err)
			return err;
	}
	return 0;
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : MS_EXIT_IO;
}

/* Run cmd with the signals unblocked: its pid, or -errno. */
static pid_t run_command(char *const *cmd, const sigset_t *old)
{
	pid_t pid = fork();

	if (pid == 0) {
		sigprocmask(SIG_SETMASK, old, NULL);
		execvp(cmd[0], cmd);
		log_error(cmd[0], "cannot run: %s", strerror(errno));
		_exit(127);
	}
	return pid < 0 ? -errno : pid;
}

static void go_quiet(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 2);
	close(fd);
	if (chdir("/") < 0)
		return;
}

int ms_agent_serve(const struct ms_agent_conf *conf, char *const *cmd,
		   int ready_fd)
{
	struct server sv = { .conf = conf, .signer = *conf->signer,
			     .lfd = -1, .stop_fd = -1 };
	struct ms_sign_many many;
	int nt = 0, jobs = conf->jobs > 0 ? conf->jobs : 1, code = 0, err;
	pthread_t *tid = calloc((size_t)jobs, sizeof(*tid));
	sigset_t set, old;
	pid_t pid = 0;

	stopping = 0;
	pthread_mutex_init(&sv.lock, NULL);
	/* As batch signing: a token key signs one file at a time, an RSA
	 * key's SignedData is encoded once, and a token's RSA key signs
	 * directly, armed between clients (serve_client). */
	ms_sign_many_start(&many, &sv.signer);
	err = tid ? load_identity(&sv) : -ENOMEM;
	if (!err)
		err = make_socket(&sv);
	if (err)
		goto out;

	/* Signals are taken by sigwaitinfo below, in this thread only, so
	 * that whatever ends the serving removes the socket. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	setenv(MS_AGENT_ENV, sv.sock, 1);
	if (cmd) {
		pid = run_command(cmd, &old);
		if (pid < 0) {
			err = pid;
			teardown(&sv, tid, 0);
			goto unblock;
		}
	}
	infile_set_threaded(jobs > 1);
	for (nt = 0; nt < jobs; nt++)
		if (pthread_create(&tid[nt], NULL, worker, &sv))
			break;
	if (ready_fd >= 0) {
		dprintf(ready_fd, "%s\n", sv.sock);
		close(ready_fd);
		go_quiet();
	}
	for (;;) {
		siginfo_t si;
		int st, sig = sigwaitinfo(&set, &si);

		if (sig == SIGCHLD) {
			if (pid > 0 && waitpid(pid, &st, WNOHANG) == pid) {
				code = status_code(st);
				break;
			}
			continue;
		}
		if (sig < 0)
			continue;
		/* Serving ends now; the command gets the signal and may
		 * finish (its sign-file runs sign themselves).  A stop
		 * request (our own SIGTERM) ends the serving only. */
		teardown(&sv, tid, nt);
		finish(&sv);
		if (pid <= 0)
			break;
		if (si.si_code != SI_USER || si.si_pid != getpid())
			kill(pid, sig);
	}
	teardown(&sv, tid, nt);
unblock:
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out:
	finish(&sv);
	ms_sign_many_end(&many);
	free(sv.cert);
	free(tid);
	pthread_mutex_destroy(&sv.lock);
	return err ? err : code;
}

int ms_agent_detach(int *ready_fd, int *code)
{
	char path[PATH_MAX + 1];
	int p[2], st, null;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid == 0) {
		close(p[0]);
		setsid();
		/* "eval $(sign-file --agent-start ...)" reads our stdout to
		 * its end: only the parent may hold it. */
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 1);
			close(null);
		}
		*ready_fd = p[1];
		return 0;
	}
	close(p[1]);
	while (n < sizeof(path) - 1 &&
	       ((r = read(p[0], path + n, sizeof(path) - 1 - n)) > 0 ||
		(r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	close(p[0]);
	path[n] = '\0';
	if (n && path[n - 1] == '\n') {
		path[n - 1] = '\0';
		printf("%s=%s; export %s;\nMODSIGN_AGENT_PID=%d; "
		       "export MODSIGN_AGENT_PID;\n", MS_AGENT_ENV, path,
		       MS_AGENT_ENV, (int)pid);
		*code = 0;
		return 1;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*code = status_code(st);
	return 1;
}
