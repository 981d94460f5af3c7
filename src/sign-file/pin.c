// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "sign-file/pin.h"

static enum ms_pin_source source = MS_PIN_ENV;
static const char *source_arg;
static char source_name[64] = "KBUILD_SIGN_PIN";
static char value[MS_PIN_MAX + 2];
static int state;	/* 0 unread, 1 read (may be absent), <0 error */
static int present;

int ms_pin_set_source(enum ms_pin_source src, const char *arg)
{
	char *end;
	long fd;

	if (source != MS_PIN_ENV)
		return -EEXIST;
	if (src == MS_PIN_FD) {
		errno = 0;
		fd = strtol(arg, &end, 10);
		if (errno || end == arg || *end || fd < 0 || fd > INT_MAX)
			return -EINVAL;
	}
	source = src;
	source_arg = arg;
	snprintf(source_name, sizeof(source_name), "%s %s",
		 src == MS_PIN_FILE ? "--pin-file" : "--pin-fd", arg);
	return 0;
}

const char *ms_pin_source_name(void)
{
	return source_name;
}

/* Read at most MS_PIN_MAX + 1 bytes: one more tells "too long". */
static int read_fd(int fd, size_t *len)
{
	size_t n = 0;
	ssize_t r;

	while (n < MS_PIN_MAX + 1) {
		r = read(fd, value + n, MS_PIN_MAX + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return 0;
}

static int load(void)
{
	const char *env;
	size_t len = 0;
	int fd, err;

	switch (source) {
	case MS_PIN_ENV:
		env = getenv("KBUILD_SIGN_PIN");
		if (!env)
			return 0;
		len = strlen(env);
		if (len > MS_PIN_MAX)
			return -EMSGSIZE;
		memcpy(value, env, len);
		present = 1;
		return 0;
	case MS_PIN_FILE:
		fd = open(source_arg, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = read_fd(fd, &len);
		close(fd);
		break;
	case MS_PIN_FD:
		err = read_fd((int)strtol(source_arg, NULL, 10), &len);
		break;
	default:
		return -EINVAL;
	}
	if (err)
		return err;
	if (len > MS_PIN_MAX)
		return -EMSGSIZE;
	/* Files made with echo end in a newline that is not part of it. */
	if (len && value[len - 1] == '\n')
		len--;
	if (len && value[len - 1] == '\r')
		len--;
	value[len] = '\0';
	present = 1;
	return 0;
}

int ms_pin_get(const char **pin)
{
	*pin = NULL;
	if (state == 0) {
		int err = load();

		state = err ? err : 1;
	}
	if (state < 0)
		return state;
	if (present)
		*pin = value;
	return 0;
}

void ms_pin_clear(void)
{
	OPENSSL_cleanse(value, sizeof(value));
	present = 0;
	state = 0;
}
