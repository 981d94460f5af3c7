// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /init of the firmware stage's initramfs (built into the EFI kernel).
 *
 * Says what the booted machine looks like to the kernel, then loads every
 * case of /cases/cases.tsv (tests/kernel's format; module rows only) with
 * finit_module() and says what the kernel decided, then reboots (QEMU runs
 * with -no-reboot).  One line per fact on the console:
 *
 *	MODSIGN-STATE	lockdown	<content of securityfs lockdown>
 *	MODSIGN-FILE	<path>	<hex content>	(efivarfs, mok-variables)
 *	MODSIGN-PROCKEY	<line of /proc/keys>
 *	MODSIGN-BOOT	<kernel log line from before the first case>
 *	MODSIGN-CASE	<case>	accepted|rejected	0|<ERRNO>	<taint flags>
 *	MODSIGN-KMSG	<case>	<kernel log line produced by that load>
 *	MODSIGN-ERROR	<what went wrong>
 *	MODSIGN-VF	<line of verify-file --machine --json on every case>
 *	MODSIGN-VF-ERR	<line verify-file wrote to stderr>
 *	MODSIGN-DONE	<cases loaded>
 *
 * The MODSIGN-FILE lines let the host rebuild the machine's variables as
 * files for verify-file --machine --sysroot.  When the initramfs holds
 * /bin/verify-file (with its libraries), /init runs it as a user would on this machine,
 * after the loads, with /boot/vmlinuz-RELEASE and /boot/config-RELEASE
 * that the initramfs carries too.
 *
 * Build: gcc -static -O2 -o init fw-init.c
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASES_DIR "/cases"
#define EFIVARS "/sys/firmware/efi/efivars"
#define MOKVARS "/sys/firmware/efi/mok-variables"

static int kmsg_fd = -1;

static const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);
	static char buf[32];

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void kmsg_drain(const char *tag)
{
	char rec[8192];
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return;
		rec[n] = '\0';
		char *text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		if (!tag)
			continue;
		if (*tag)
			printf("MODSIGN-KMSG\t%s\t%s\n", tag, text);
		else
			printf("MODSIGN-BOOT\t%s\n", text);
	}
}

/* Print a whole small file as hex on one line. */
static void dump_file(const char *path)
{
	unsigned char buf[65536];
	ssize_t n, i, len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("MODSIGN-ERROR\topen %s: %s\n", path, errno_name(errno));
		return;
	}
	while (len < (ssize_t)sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	printf("MODSIGN-FILE\t%s\t", path);
	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
}

/* efivarfs names are NAME-GUID; only the variables keyrings depend on. */
static int wanted_var(const char *name)
{
	static const char *const prefixes[] = {
		"SecureBoot-", "SetupMode-", "db-", "dbx-", "MokListRT-",
		"MokListXRT-", "MokListTrustedRT-", "MokSBStateRT-",
		"MokIgnoreDB-", "MokListTrusted-", NULL
	};
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void dump_dir(const char *dir, int all)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d) {
		printf("MODSIGN-STATE\tno-dir\t%s\t%s\n", dir, errno_name(errno));
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !(all || wanted_var(e->d_name)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		dump_file(path);
	}
	closedir(d);
}

static void print_lines(const char *path, const char *tag)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		printf("MODSIGN-ERROR\topen %s: %s\n", path, errno_name(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s\t%s\n", tag, line);
	}
	fclose(f);
}

static void module_names(char *out, size_t size)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512];
	size_t used = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && used + 2 < size) {
		line[strcspn(line, " ")] = '\0';
		used += snprintf(out + used, size - used, " %s ", line);
	}
	fclose(f);
}

/* The taint flags /proc/modules shows for NAME, e.g. "(E)", or "-". */
static void module_taint(const char *name, char *out, size_t size)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512];

	snprintf(out, size, "-");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(name);
		char *paren;

		if (strncmp(line, name, n) || line[n] != ' ')
			continue;
		paren = strchr(line, '(');
		if (paren) {
			paren[strcspn(paren, ")") + 1] = '\0';
			snprintf(out, size, "%s", paren);
		}
	}
	fclose(f);
}

static int load_case(const char *name, const char *file)
{
	char path[512], before[4096], after[4096], taint[64] = "-";
	char *word, *save = NULL;
	int fd, ret, err = 0;

	snprintf(path, sizeof(path), "%s/%s", CASES_DIR, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("MODSIGN-ERROR\t%s: open %s: %s\n", name, path,
		       errno_name(errno));
		return -1;
	}
	module_names(before, sizeof(before));
	kmsg_drain(NULL);
	ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret)
		err = errno;
	close(fd);
	module_names(after, sizeof(after));
	for (word = strtok_r(after, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		char key[300];

		snprintf(key, sizeof(key), " %s ", word);
		if (strstr(before, key))
			continue;
		module_taint(word, taint, sizeof(taint));
		if (syscall(SYS_delete_module, word, O_NONBLOCK) != 0)
			printf("MODSIGN-ERROR\t%s: delete_module(%s): %s\n",
			       name, word, errno_name(errno));
	}
	printf("MODSIGN-CASE\t%s\t%s\t%s\t%s\n", name,
	       ret ? "rejected" : "accepted", ret ? errno_name(err) : "0", taint);
	kmsg_drain(name);
	fflush(stdout);
	return 0;
}

static int run_cases(void)
{
	FILE *f = fopen(CASES_DIR "/cases.tsv", "r");
	char line[2048];
	int first = 1, n = 0;

	if (!f) {
		printf("MODSIGN-ERROR\tcannot open %s/cases.tsv: %s\n",
		       CASES_DIR, errno_name(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *col[5], *rest = line;
		int i;

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (first) {
			first = 0;
			continue;
		}
		for (i = 0; i < 5; i++)
			col[i] = strsep(&rest, "\t");
		if (!col[4] || rest || strcmp(col[2], "module"))
			continue;
		if (load_case(col[0], col[1]) == 0)
			n++;
	}
	fclose(f);
	return n;
}

/* Relay each line of FD with TAG in front. */
static void relay(FILE *f, const char *tag)
{
	char line[16384];

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s\t%s\n", tag, line);
	}
}

static void run_verify_file(void)
{
	/* one worker: the harness kernel has no futexes (tinyconfig) */
	char *argv[64] = { "/bin/verify-file", "--machine", "--json", "-j", "1" };
	int argc = 5, out[2], err[2], status;
	DIR *d;
	struct dirent *e;
	pid_t pid;

	if (access(argv[0], X_OK))
		return;
	d = opendir(CASES_DIR);
	if (!d)
		return;
	while ((e = readdir(d)) && argc < 62) {
		size_t n = strlen(e->d_name);
		char *p;

		if (n < 4 || strcmp(e->d_name + n - 3, ".ko"))
			continue;
		if (asprintf(&p, "%s/%s", CASES_DIR, e->d_name) < 0)
			break;
		argv[argc++] = p;
	}
	closedir(d);
	argv[argc] = NULL;
	if (pipe(out) || pipe(err))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	FILE *fo = fdopen(out[0], "r"), *fe = fdopen(err[0], "r");
	relay(fo, "MODSIGN-VF");
	relay(fe, "MODSIGN-VF-ERR");
	fclose(fo);
	fclose(fe);
	waitpid(pid, &status, 0);
	printf("MODSIGN-VF-EXIT\t%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void)
{
	int loaded;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
	if (mount("efivarfs", EFIVARS, "efivarfs", 0, NULL))
		printf("MODSIGN-ERROR\tmount efivarfs: %s\n", errno_name(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0)
		printf("MODSIGN-ERROR\topen /dev/kmsg: %s\n", errno_name(errno));
	kmsg_drain("");
	print_lines("/sys/kernel/security/lockdown", "MODSIGN-STATE\tlockdown");
	dump_dir(EFIVARS, 0);
	dump_dir(MOKVARS, 1);
	print_lines("/proc/keys", "MODSIGN-PROCKEY");

	loaded = run_cases();
	run_verify_file();
	printf("MODSIGN-DONE\t%d\n", loaded);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
