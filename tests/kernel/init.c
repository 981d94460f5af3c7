// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /init of the conformance initramfs.
 *
 * Loads every "module" case of /cases/cases.tsv with finit_module() and says
 * what the kernel decided, then loads /judge/modsign_judge.ko, which reports
 * the errno behind each verdict, and reboots (QEMU runs with -no-reboot, so
 * that ends the run).  Everything the host parses is one line on the console:
 *
 *	MODSIGN-BOOT	<kernel log line from before the first case>
 *	MODSIGN-CASE	<case>	accepted|rejected	0|<ERRNO>
 *	MODSIGN-KMSG	<case>	<kernel log line produced by that load>
 *	MODSIGN-JUDGE	<case>	0|<ERRNO>|n/a	<step>
 *	MODSIGN-JUDGE-KMSG	<case>	<kernel log line while judging it>
 *	MODSIGN-ERROR	<what went wrong>
 *	MODSIGN-DONE	<cases loaded>	<judge verdicts>
 *
 * Build: gcc -static -O2 -o init init.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define CASES_DIR "/cases"
#define JUDGE_KO "/judge/modsign_judge.ko"

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

/*
 * Read every pending /dev/kmsg record.  A record is
 * "prio,seq,usec,flags[,...];text\n" plus continuation lines that start with
 * a space; only the text is handed to fn.  The device escapes control
 * characters (a tab reads as \x09), so kernel lines never contain our tabs.
 */
static void kmsg_drain(void (*fn)(const char *text, void *arg), void *arg)
{
	char rec[8192];
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten: skip ahead */
		if (n <= 0)
			return;		/* EAGAIN: nothing more */
		rec[n] = '\0';
		char *text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		char *nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		if (fn)
			fn(text, arg);
	}
}

static void print_kmsg(const char *text, void *arg)
{
	const char *tag = arg;

	if (tag)
		printf("MODSIGN-KMSG\t%s\t%s\n", tag, text);
	else
		printf("MODSIGN-BOOT\t%s\n", text);
}

/*
 * The judge's lines: "modsign-judge-begin: <case>", the kernel's messages
 * for that case, then "modsign-judge: <case> <ret> <step>".  The case id may
 * hold spaces, so <ret> and <step> are taken from the right.
 */
static void print_judge(const char *text, void *arg)
{
	static const char begin[] = "modsign-judge-begin: ";
	static const char verdict[] = "modsign-judge: ";
	static char current[256] = "judge";
	int *count = arg;
	char buf[1024], *ret_s, *step;

	if (!strncmp(text, begin, sizeof(begin) - 1)) {
		snprintf(current, sizeof(current), "%s", text + sizeof(begin) - 1);
		return;
	}
	if (strncmp(text, verdict, sizeof(verdict) - 1) ||
	    !strncmp(text, "modsign-judge: cannot", 21)) {
		printf("MODSIGN-JUDGE-KMSG\t%s\t%s\n", current, text);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", text + sizeof(verdict) - 1);
	step = strrchr(buf, ' ');
	if (!step)
		goto bad;
	*step++ = '\0';
	ret_s = strrchr(buf, ' ');
	if (!ret_s)
		goto bad;
	*ret_s++ = '\0';
	if (!strcmp(ret_s, "n/a")) {
		printf("MODSIGN-JUDGE\t%s\tn/a\t%s\n", buf, step);
	} else {
		int ret = atoi(ret_s);

		printf("MODSIGN-JUDGE\t%s\t%s\t%s\n", buf,
		       ret ? errno_name(-ret) : "0", step);
	}
	(*count)++;
	return;
bad:
	printf("MODSIGN-ERROR\tunparsable judge line: %s\n", text);
}

/* The names in /proc/modules, as one string of " name" words. */
static void module_names(char *out, size_t size)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512];
	size_t used = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && used + 2 < size) {
		char *sp = strchr(line, ' ');

		if (sp)
			*sp = '\0';
		used += snprintf(out + used, size - used, " %s ", line);
	}
	fclose(f);
}

/* Unload what the last finit_module() added, so the next case can load. */
static void unload_new(const char *before, const char *tag)
{
	char after[4096], *word, *save = NULL;

	module_names(after, sizeof(after));
	for (word = strtok_r(after, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		char key[300];

		snprintf(key, sizeof(key), " %s ", word);
		if (strstr(before, key))
			continue;
		if (syscall(SYS_delete_module, word, O_NONBLOCK) != 0)
			printf("MODSIGN-ERROR\t%s: delete_module(%s): %s\n",
			       tag, word, errno_name(errno));
	}
}

static int is_compressed(int fd)
{
	unsigned char m[6];
	ssize_t n = pread(fd, m, sizeof(m), 0);

	return (n >= 6 && !memcmp(m, "\xfd" "7zXZ\0", 6)) ||
	       (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) ||
	       (n >= 4 && !memcmp(m, "\x28\xb5\x2f\xfd", 4));
}

static int load_case(const char *name, const char *file)
{
	char path[512], before[4096];
	int fd, flags = 0, ret, err = 0;

	snprintf(path, sizeof(path), "%s/%s", CASES_DIR, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("MODSIGN-ERROR\t%s: open %s: %s\n", name, path,
		       errno_name(errno));
		return -1;
	}
	/* a .ko.xz (or .gz/.zst) is handed to the kernel to decompress */
	if (is_compressed(fd))
		flags |= MODULE_INIT_COMPRESSED_FILE;
	module_names(before, sizeof(before));
	kmsg_drain(NULL, NULL);
	ret = syscall(SYS_finit_module, fd, "", flags);
	if (ret)
		err = errno;
	close(fd);
	printf("MODSIGN-CASE\t%s\t%s\t%s\n", name, ret ? "rejected" : "accepted",
	       ret ? errno_name(err) : "0");
	kmsg_drain(print_kmsg, (void *)name);
	if (!ret)
		unload_new(before, name);
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
		if (first && !strncmp(line, "case\t", 5)) {
			first = 0;
			continue;
		}
		first = 0;
		for (i = 0; i < 5; i++)
			col[i] = strsep(&rest, "\t");
		if (!col[4] || rest) {
			printf("MODSIGN-ERROR\tbad cases.tsv row: %s\n", line);
			continue;
		}
		if (strcmp(col[2], "module"))
			continue;	/* detached: the judge alone decides */
		if (load_case(col[0], col[1]) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static int run_judge(void)
{
	int fd, count = 0;

	fd = open(JUDGE_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("MODSIGN-ERROR\tjudge: open %s: %s\n", JUDGE_KO,
		       errno_name(errno));
		return -1;
	}
	kmsg_drain(NULL, NULL);
	if (syscall(SYS_finit_module, fd, "dir=" CASES_DIR, 0)) {
		printf("MODSIGN-ERROR\tjudge: finit_module: %s\n",
		       errno_name(errno));
		kmsg_drain(print_kmsg, "judge");
		close(fd);
		return -1;
	}
	close(fd);
	kmsg_drain(print_judge, &count);
	syscall(SYS_delete_module, "modsign_judge", O_NONBLOCK);
	return count;
}

int main(void)
{
	int loaded, judged;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0)
		printf("MODSIGN-ERROR\topen /dev/kmsg: %s\n", errno_name(errno));
	kmsg_drain(print_kmsg, NULL);

	loaded = run_cases();
	judged = run_judge();
	printf("MODSIGN-DONE\t%d\t%d\n", loaded, judged);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
