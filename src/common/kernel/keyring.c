// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include "base/infile.h"
#include "kernel/keyring.h"

#define CS_MAX_FILE (16u << 20)

static int note_skip(struct keyring *cs, const char *path, int index,
		     int err, const char *why)
{
	struct keyring_skipped *ns = realloc(cs->skipped,
					(cs->n_skipped + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	cs->skipped = ns;
	ns[cs->n_skipped].path = strdup(path);
	ns[cs->n_skipped].index = index;
	ns[cs->n_skipped].err = err;
	ns[cs->n_skipped].why = why;
	cs->n_skipped++;
	return 0;
}

/*
 * FNV-1a over the DER: a copy of a certificate already loaded is found
 * without parsing it again, which is most of the cost of a directory of
 * thousands of copies (the DER is then compared in full).
 */
static uint64_t der_fp(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static bool loaded(const struct keyring *cs, uint64_t fp,
		   const uint8_t *der, size_t len)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->fp[i] == fp && cs->certs[i]->der_len == len &&
		    memcmp(cs->certs[i]->der, der, len) == 0)
			return true;
	return false;
}

static int add_one(struct keyring *cs, const char *path, int index,
		   const uint8_t *der, size_t len, const struct rules_rules *kr,
		   const struct blacklist *bl)
{
	struct x509k_cert *c, **nc;
	uint64_t fp = der_fp(der, len), *nf;
	const char *why = NULL;
	int ret;

	/*
	 * The same certificate twice is one key, as in the kernel, where
	 * the second key_create_or_update() replaces the first: not an
	 * error, and the first path stays the one verdicts name.
	 */
	if (loaded(cs, fp, der, len)) {
		cs->n_dup++;
		return 0;
	}
	ret = x509k_parse(der, len, kr, bl, &c, &why);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return note_skip(cs, path, index, ret, why);
	/* crypto/asymmetric_keys/x509_cert_parser.c: x509_key_preparse()
	 * refuses a blacklisted certificate */
	if (c->blacklisted) {
		x509k_free(c);
		return note_skip(cs, path, index, -EKEYREJECTED,
				 "certificate TBS hash is blacklisted");
	}
	c->path = strdup(path);
	nc = realloc(cs->certs, (cs->n + 1) * sizeof(*nc));
	if (nc)
		cs->certs = nc;
	nf = realloc(cs->fp, (cs->n + 1) * sizeof(*nf));
	if (nf)
		cs->fp = nf;
	if (!c->path || !nc || !nf) {
		x509k_free(c);
		return -ENOMEM;
	}
	nf[cs->n] = fp;
	nc[cs->n++] = c;
	return 0;
}

int keyring_add_der(struct keyring *cs, const char *path, int index,
	       const uint8_t *der, size_t len, const struct rules_rules *kr,
	       const struct blacklist *bl)
{
	return add_one(cs, path, index, der, len, kr, bl);
}

int keyring_add_cert_list(struct keyring *cs, const char *path,
		     const uint8_t *p, size_t len, const struct rules_rules *kr,
		     const struct blacklist *bl, int *count, size_t *stop)
{
	size_t off = 0, plen;
	int ret;

	*count = 0;
	while (off < len) {
		const uint8_t *q = p + off;

		/* the kernel's test is "p[0] != 0x30 && p[1] != 0x82" */
		if (len - off < 4 || (q[0] != 0x30 && q[1] != 0x82)) {
			*stop = off;
			return -EBADMSG;
		}
		plen = ((size_t)q[2] << 8 | q[3]) + 4;
		if (plen > len - off) {
			*stop = off;
			return -EBADMSG;
		}
		(*count)++;
		ret = add_one(cs, path, *count, q, plen, kr, bl);
		if (ret)
			return ret;
		off += plen;
	}
	return 0;
}

static int add_pem(struct keyring *cs, const char *path,
		   const uint8_t *buf, size_t len, const struct rules_rules *kr,
		   const struct blacklist *bl, int *count)
{
	BIO *b = BIO_new_mem_buf(buf, (int)len);
	char *name = NULL, *hdr = NULL;
	unsigned char *data = NULL;
	unsigned long e;
	long dlen = 0;
	int ret = 0;

	if (!b)
		return -ENOMEM;
	while (PEM_read_bio(b, &name, &hdr, &data, &dlen) == 1) {
		if (strcmp(name, "CERTIFICATE") == 0 ||
		    strcmp(name, "X509 CERTIFICATE") == 0 ||
		    strcmp(name, "TRUSTED CERTIFICATE") == 0) {
			(*count)++;
			ret = add_one(cs, path, *count, data, (size_t)dlen, kr,
				      bl);
		}
		OPENSSL_free(name);
		OPENSSL_free(hdr);
		OPENSSL_free(data);
		if (ret)
			break;
	}
	/*
	 * The end of the file reads as "no start line"; anything else is a
	 * block PEM_read_bio() gave up on (bad base64, no END line), and it
	 * reads nothing after it: say so rather than lose those silently.
	 */
	e = ERR_peek_last_error();
	if (!ret && e && !(ERR_GET_LIB(e) == ERR_LIB_PEM &&
			      ERR_GET_REASON(e) == PEM_R_NO_START_LINE)) {
		(*count)++;
		ret = note_skip(cs, path, *count, -EBADMSG, "corrupt PEM "
				"block (bad base64 or no END line); nothing "
				"after it in the file was read");
	}
	ERR_clear_error();
	BIO_free(b);
	return ret;
}

/* crypto/asymmetric_keys/x509_loader.c: DER certificates back to back,
 * "30 82 HH LL" framing */
static int add_der(struct keyring *cs, const char *path,
		   const uint8_t *buf, size_t len, const struct rules_rules *kr,
		   const struct blacklist *bl, int *count)
{
	size_t off = 0, n;
	int ret;

	while (len - off >= 4 && buf[off] == 0x30) {
		if (buf[off + 1] == 0x82)
			n = ((size_t)buf[off + 2] << 8 | buf[off + 3]) + 4;
		else if (buf[off + 1] == 0x81)
			n = (size_t)buf[off + 2] + 3;
		else
			break;
		if (n > len - off)
			break;
		(*count)++;
		ret = add_one(cs, path, *count, buf + off, n, kr, bl);
		if (ret)
			return ret;
		off += n;
	}
	return 0;
}

int keyring_add_file(struct keyring *cs, const char *path,
		const struct rules_rules *kr, const struct blacklist *bl)
{
	uint8_t *buf;
	size_t len;
	int ret, count = 0;

	ret = infile_read_all(path, CS_MAX_FILE, &buf, &len);
	if (ret)
		return ret;
	if (len >= 2 && buf[0] == 0x30 && (buf[1] == 0x81 || buf[1] == 0x82))
		ret = add_der(cs, path, buf, len, kr, bl, &count);
	else
		ret = add_pem(cs, path, buf, len, kr, bl, &count);
	free(buf);
	if (ret)
		return ret;
	return count ? 0 : -ENODATA;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Why a directory entry that is not a regular file is skipped.  Such an
 * entry is never opened: open() alone can block (a FIFO without a
 * writer, without O_NONBLOCK) or act (a tape rewinds, a watchdog arms).
 */
static const char *not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory (-k does not descend into it)";
	if (S_ISFIFO(mode))
		return "a FIFO, not a regular file (not opened)";
	if (S_ISSOCK(mode))
		return "a socket, not a regular file (not opened)";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device, not a regular file (not opened)";
	return "not a regular file (not opened)";
}

/* Why an entry could not be read; NULL: the errno says it all. */
static const char *unreadable(const char *path, int err)
{
	struct stat l;

	if (err == -ENOENT && lstat(path, &l) == 0 && S_ISLNK(l.st_mode))
		return "a dangling symbolic link";
	if (err == -ENOENT)
		return "gone: removed while the directory was read";
	if (err == -ELOOP)
		return "a symbolic link loop";
	if (err == -EFBIG)
		return "larger than 16 MiB: not a certificate file";
	return NULL;
}

int keyring_add_dir(struct keyring *cs, const char *dir,
	       const struct rules_rules *kr, const struct blacklist *bl)
{
	struct dirent **ents;
	int n, i, ret = 0;

	n = scandir(dir, &ents, NULL, by_name);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		struct stat st;
		char *p;
		int err;

		if (ents[i]->d_name[0] == '.' || ret)
			goto next;
		if (asprintf(&p, "%s/%s", dir, ents[i]->d_name) < 0) {
			ret = -ENOMEM;
			goto next;
		}
		/*
		 * One bad entry never stops the load: the kernel's keyring
		 * gets every certificate it can parse, and so does this one.
		 * Only running out of memory does.
		 */
		if (stat(p, &st) < 0) {
			err = -errno;	/* before unreadable()'s lstat */
			ret = note_skip(cs, p, 0, err, unreadable(p, err));
		} else if (!S_ISREG(st.st_mode)) {
			ret = note_skip(cs, p, 0, -ENOTSUP,
					not_regular(st.st_mode));
		} else {
			err = keyring_add_file(cs, p, kr, bl);
			if (err == -ENOMEM)
				ret = err;
			else if (err == -ENODATA)
				ret = note_skip(cs, p, 0, err,
						"no certificate in the file");
			else if (err == -ENOTSUP || err == -EISDIR)
				/* fstat after open: replaced since the stat */
				ret = note_skip(cs, p, 0, err, "replaced by a "
						"non-regular file while read");
			else if (err)
				ret = note_skip(cs, p, 0, err,
						unreadable(p, err));
		}
		free(p);
next:
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int keyring_move(struct keyring *from, size_t i, struct keyring *to)
{
	struct x509k_cert *c, **nc;
	uint64_t *nf, fp;

	if (i >= from->n)
		return 0;
	c = from->certs[i];
	fp = from->fp[i];
	if (to) {
		nc = realloc(to->certs, (to->n + 1) * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		to->certs = nc;
		nf = realloc(to->fp, (to->n + 1) * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		to->fp = nf;
		nf[to->n] = fp;
		nc[to->n++] = c;
	} else {
		x509k_free(c);
	}
	memmove(from->certs + i, from->certs + i + 1,
		(from->n - i - 1) * sizeof(*from->certs));
	memmove(from->fp + i, from->fp + i + 1,
		(from->n - i - 1) * sizeof(*from->fp));
	from->n--;
	return 0;
}

void keyring_free(struct keyring *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		x509k_free(cs->certs[i]);
	for (i = 0; i < cs->n_skipped; i++)
		free(cs->skipped[i].path);
	free(cs->certs);
	free(cs->fp);
	free(cs->skipped);
	memset(cs, 0, sizeof(*cs));
}
