/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trusted keyring (and the revocation list) built from -k DIR and
 * -c FILE, as x509_load_certificate_list() would load it: a certificate
 * the kernel refuses as a key (crypto/asymmetric_keys/x509_cert_parser.c
 * parse failure, blacklisted TBS) is
 * left out, and the reason is kept for -v.
 */
#ifndef MODSIGN_KERNEL_KEYRING_H
#define MODSIGN_KERNEL_KEYRING_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/blacklist.h"
#include "kernel/rules.h"
#include "kernel/x509.h"

struct keyring_skipped {
	char *path;
	int index;		/* 1-based position in the file */
	int err;
	const char *why;
};

struct keyring {
	struct x509k_cert **certs;
	uint64_t *fp;		/* fingerprint of each certs[i]'s DER */
	size_t n;
	size_t n_dup;		/* certificates met again, not added twice */
	struct keyring_skipped *skipped;
	size_t n_skipped;
};

/*
 * Add every certificate of a file: PEM (any number of CERTIFICATE blocks)
 * or DER (one certificate, or several back to back as in the kernel's
 * certificate list), recognised by content.  -errno when the file cannot
 * be read; -ENODATA (with nothing added) when it holds no certificate:
 * not -ENOENT, which open() returns for a missing file.
 */
int keyring_add_file(struct keyring *cs, const char *path,
		const struct rules_rules *kr, const struct blacklist *bl);
/*
 * One DER certificate taken from a container (an EFI signature list, a
 * kernel image): path names the container, index the position in it.
 * A certificate the kernel refuses is recorded in skipped.
 */
int keyring_add_der(struct keyring *cs, const char *path, int index,
	       const uint8_t *der, size_t len, const struct rules_rules *kr,
	       const struct blacklist *bl);
/*
 * x509_load_certificate_list() over a built-in certificate list, with its
 * framing as it is (crypto/asymmetric_keys/x509_loader.c): each element
 * "30 82 HH LL"
 * (tested with &&, so only "neither byte matches" is a framing error),
 * 4 + HHLL bytes long.  A certificate that fails is skipped; a framing
 * error stops the list: -EBADMSG with *stop at its offset, after the
 * certificates before it were added.  *count gets the elements seen.
 */
int keyring_add_cert_list(struct keyring *cs, const char *path,
		     const uint8_t *p, size_t len, const struct rules_rules *kr,
		     const struct blacklist *bl, int *count, size_t *stop);
/*
 * Every regular file of a directory, in name order (dot files ignored).
 * An entry that gives nothing (no certificate, unreadable, a dangling
 * link, not a regular file: those are never opened) is recorded in
 * skipped and the load goes on.  -errno only when the directory itself
 * cannot be read, or -ENOMEM.
 */
int keyring_add_dir(struct keyring *cs, const char *dir,
	       const struct rules_rules *kr, const struct blacklist *bl);
/* Move certificate i of from to the end of to (NULL: drop it): a key a
 * keyring's restriction refused, filed elsewhere.  -ENOMEM. */
int keyring_move(struct keyring *from, size_t i, struct keyring *to);
#define keyring_move_last(from, to) keyring_move((from), (from)->n - 1, (to))
void keyring_free(struct keyring *cs);

#endif
