// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "trust/efi_siglist.h"
#include "trust/trust_sources.h"

/* vmlinuz files are a few tens of MiB; an unstripped vmlinux can be
 * several hundred */
#define TS_MAX_IMAGE ((size_t)1 << 30)

int trust_sources_add_vmlinux(const struct trust_sources_stores *st, const char *path,
			      struct trust_sources_note *note)
{
	struct kernel_image img;
	struct infile f = { .fd = -1 };
	size_t i;
	int ret, count;

	memset(note, 0, sizeof(*note));
	ret = infile_open(path, &f);
	if (ret)
		return ret;
	if (f.len > TS_MAX_IMAGE) {
		infile_close(&f);
		return -EFBIG;
	}
	ret = kernel_image_find_certs(f.data, f.len, st->kr, &img, &note->why);
	if (ret)
		goto out;
	note->comp = img.comp;
	note->how = img.how;
	note->n_runs = img.n_runs;
	/* blacklist_init() runs before the certificate lists are loaded, so
	 * a blacklisted built-in certificate is refused
	 * (certs/system_keyring.c, certs/blacklist.c) */
	for (i = 0; i < img.n_hashes; i++) {
		char line[4 + 128 + 4];
		int bad;

		snprintf(line, sizeof(line), "\"%.*s\"",
			 (int)img.hashes[i].len,
			 (const char *)img.data + img.hashes[i].off);
		ret = blacklist_load(st->bl, line, strlen(line), &bad);
		if (ret == -ENOMEM)
			goto out;
		note->hashes += ret == 0;
	}
	ret = 0;
	for (i = 0; i < img.n_runs; i++) {
		bool sys = img.runs[i].list == KERNEL_IMAGE_LIST_SYSTEM;

		if (sys && !note->list_len) {
			note->list_off = img.runs[i].off;
			note->list_len = img.runs[i].len;
		}
		ret = keyring_add_cert_list(sys ? st->trusted : st->revoked, path,
				       img.data + img.runs[i].off,
				       img.runs[i].len, st->kr, st->bl, &count,
				       &note->stop_off);
		if (sys)
			note->listed += count;
		else
			note->revocation += count;
		if (ret == -EBADMSG) {
			/* the kernel logs it and keeps what it loaded */
			note->framing_error = true;
			ret = 0;
		}
		if (ret)
			break;
	}
out:
	if (infile_check(&f))
		ret = INFILE_ECHANGED;
	kernel_image_free(&img);
	infile_close(&f);
	return ret;
}

/* One string read out of the image at path by find (kernel_image.c). */
static int image_string(const char *path,
			int (*find)(const uint8_t *, size_t, char *, size_t),
			char *out, size_t size)
{
	struct infile f = { .fd = -1 };
	int ret;

	ret = infile_open(path, &f);
	if (ret)
		return ret;
	/* an empty file is no image: loading it says so (-EINVAL), not
	 * a "no version" warning first */
	ret = f.len > TS_MAX_IMAGE ? -EFBIG : !f.len ? -EINVAL :
	      find(f.data, f.len, out, size);
	infile_close(&f);
	return ret;
}

int trust_sources_vmlinux_version(const char *path, char *out, size_t size)
{
	return image_string(path, kernel_image_version, out, size);
}

int trust_sources_vmlinux_banner(const char *path, char *out, size_t size)
{
	return image_string(path, kernel_image_banner, out, size);
}

struct esl_ctx {
	const struct trust_sources_stores *st;
	const char *path;
	enum trust_sources_esl_role role;
	struct trust_sources_note *note;
	int n;
};

/*
 * crypto/asymmetric_keys/restrict.c: restrict_link_by_ca() takes a key
 * whose certificate is a CA (basicConstraints) with keyCertSign; with
 * INTEGRITY_CA_MACHINE_KEYRING_MAX, one without digitalSignature.  A key
 * refused is tried in .platform (machine_keyring.c:
 * add_to_machine_keyring()).
 */
static int esl_machine_ca(struct esl_ctx *c, const struct efi_siglist_entry *e)
{
	struct keyring *t = c->st->trusted;
	size_t n0 = t->n;
	struct x509k_cert *x;
	int ret;

	ret = keyring_add_der(t, c->path, (int)c->note->x509, e->data, e->len,
			 c->st->kr, c->st->bl);
	if (ret || t->n == n0)
		return ret;
	x = t->certs[t->n - 1];
	if (x->ca && x->keycertsign &&
	    !(c->role == TRUST_SOURCES_ESL_MACHINE_CA_MAX && x->digsig))
		return 0;
	x->keyring = ".platform";
	x->filed_why = c->role == TRUST_SOURCES_ESL_MACHINE_CA_MAX ?
		"MokListRT, refused by .machine: not a CA key without "
		"digitalSignature (INTEGRITY_CA_MACHINE_KEYRING_MAX)" :
		"MokListRT, refused by .machine: not a CA key with keyCertSign "
		"(INTEGRITY_CA_MACHINE_KEYRING)";
	return keyring_move_last(t, c->st->platform);
}

static int take_entry(void *p, const struct efi_siglist_entry *e)
{
	struct esl_ctx *c = p;
	struct keyring *cs;

	switch (e->type) {
	case EFI_SIGLIST_X509:
		/* uefi_revocation_list_x509() adds nothing without
		 * SYSTEM_REVOCATION_LIST (include/keys/system_keyring.h) */
		if (c->role == TRUST_SOURCES_ESL_DBX_HASHES)
			break;
		c->note->x509++;
		if (c->role == TRUST_SOURCES_ESL_MACHINE_CA ||
		    c->role == TRUST_SOURCES_ESL_MACHINE_CA_MAX)
			return esl_machine_ca(c, e);
		cs = c->role == TRUST_SOURCES_ESL_TRUSTED ? c->st->trusted :
		     c->role == TRUST_SOURCES_ESL_PLATFORM ? c->st->platform :
		     c->st->revoked;
		return keyring_add_der(cs, c->path, (int)c->note->x509, e->data,
				  e->len, c->st->kr, c->st->bl);
	case EFI_SIGLIST_X509_SHA256:
		/* EFI_CERT_X509_SHA256: SHA-256 of the TBS, then 16 bytes of
		 * revocation time */
		if ((c->role != TRUST_SOURCES_ESL_DBX && c->role != TRUST_SOURCES_ESL_DBX_HASHES) ||
		    e->len < 32) {
			c->note->other++;
			return 0;
		}
		c->note->tbs_hashes++;
		return blacklist_add(c->st->bl, true, e->data, 32);
	case EFI_SIGLIST_SHA256:
		if ((c->role != TRUST_SOURCES_ESL_DBX && c->role != TRUST_SOURCES_ESL_DBX_HASHES) ||
		    e->len != 32) {
			c->note->other++;
			return 0;
		}
		c->note->bin_hashes++;
		return blacklist_add(c->st->bl, false, e->data, 32);
	case EFI_SIGLIST_OTHER:
		break;
	}
	c->note->other++;
	return 0;
}

int trust_sources_add_esl(const struct trust_sources_stores *st, const char *path, bool efivar,
			  enum trust_sources_esl_role role, struct trust_sources_note *note)
{
	struct esl_ctx c = { st, path, role, note, 0 };
	uint8_t *buf;
	size_t len;
	int ret;

	memset(note, 0, sizeof(*note));
	if (efivar)
		ret = efi_siglist_read_efivar(path, &buf, &len);
	else
		ret = infile_read_all(path, 16u << 20, &buf, &len);
	if (ret) {
		note->why = ret == -EBADMSG ? "shorter than the 4-byte "
			    "efivarfs attributes" : NULL;
		return ret;
	}
	ret = efi_siglist_walk(buf, len, take_entry, &c, &note->bad_off);
	if (ret == -EBADMSG)
		note->why = "EFI_SIGNATURE_LIST sizes overrun the data or do "
			    "not fit together";
	free(buf);
	return ret;
}

const char *trust_sources_efivar(enum trust_sources_esl_role role, bool mok)
{
	if (mok)
		return EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_MOK;
	return role == TRUST_SOURCES_ESL_DBX || role == TRUST_SOURCES_ESL_DBX_HASHES ? EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_DBX
				  : EFI_SIGLIST_EFIVARS "/" EFI_SIGLIST_VAR_DB;
}
