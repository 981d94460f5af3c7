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
#include "sign-file/agent_session.h"
#include "sign-file/agent_wire.h"
#include "sign-file/durability.h"
#include "sign-file/sign_many.h"

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

static int make_socket(struct ms_agent_session *sv)
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
static void teardown(struct ms_agent_session *sv, pthread_t *tid, int nt)
{
	if (sv->stopping)
		return;
	sv->stopping = 1;
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
static void finish(struct ms_agent_session *sv)
{
	for (int i = 0; i < sv->nfs; i++) {
		syncfs(sv->fs_fd[i]);
		close(sv->fs_fd[i]);
	}
	sv->nfs = 0;
	if (sv->stop_fd >= 0) {
		ms_agent_session_answer(sv->stop_fd, MS_AGENT_DONE, 0, NULL, 0);
		close(sv->stop_fd);
		sv->stop_fd = -1;
	}
}

static int load_identity(struct ms_agent_session *sv)
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
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : EXITCODE_IO;
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
	struct ms_agent_session sv = { .conf = conf,
				      .signer = *conf->signer,
				      .lfd = -1, .stop_fd = -1 };
	struct ms_sign_many many;
	int nt = 0, jobs = conf->jobs > 0 ? conf->jobs : 1, code = 0, err;
	pthread_t *tid = calloc((size_t)jobs, sizeof(*tid));
	sigset_t set, old;
	pid_t pid = 0;

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
		if (pthread_create(&tid[nt], NULL, ms_agent_session_worker, &sv))
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
