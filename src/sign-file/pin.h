/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The passphrase or PKCS#11 PIN: from KBUILD_SIGN_PIN (the kernel tool's
 * variable), a file, or an inherited file descriptor; never from the
 * command line, where ps and /proc/PID/cmdline show it to every user.
 * It is read once per run and kept until ms_pin_clear(), so a run that
 * signs many files decrypts or logs in with one read and no prompt.
 */
#ifndef MODSIGN_SIGN_FILE_PIN_H
#define MODSIGN_SIGN_FILE_PIN_H

enum ms_pin_source {
	MS_PIN_ENV,	/* KBUILD_SIGN_PIN, when set (the default) */
	MS_PIN_FILE,	/* --pin-file FILE */
	MS_PIN_FD,	/* --pin-fd N */
};

/*
 * Choose the source; arg is the file name or the descriptor number.
 * -EINVAL for a descriptor that is not a number, -EEXIST when a source
 * other than the environment was already chosen.
 */
int ms_pin_set_source(enum ms_pin_source src, const char *arg);

/*
 * The PIN, read on the first call and cached: *pin is NULL when no source
 * holds one (KBUILD_SIGN_PIN unset).  One trailing newline is dropped.
 * -EMSGSIZE when longer than MS_PIN_MAX, -errno when unreadable.
 */
#define MS_PIN_MAX 1023
int ms_pin_get(const char **pin);

/* "KBUILD_SIGN_PIN", "--pin-file FILE" or "--pin-fd N", for messages. */
const char *ms_pin_source_name(void);

/* Wipe the cached PIN. */
void ms_pin_clear(void);

#endif
