// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include "base/cert_file.h"
#include "base/infile.h"

/* Well above any real certificate file. */
#define CERT_FILE_MAX (1u << 20)

X509 *cert_file_parse(const uint8_t *buf, size_t len)
{
	const unsigned char *p = buf;
	X509 *x = NULL;
	BIO *b;

	/* DER: a SEQUENCE with a long-form length */
	if (len >= 2 && buf[0] == 0x30 && buf[1] >= 0x81 && buf[1] <= 0x84)
		return d2i_X509(NULL, &p, (long)len);
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b)
		return NULL;
	x = PEM_read_bio_X509(b, NULL, NULL, NULL);
	BIO_free(b);
	return x;
}

int cert_file_read(const char *path, X509 **cert)
{
	uint8_t *buf;
	size_t len;
	int err;

	*cert = NULL;
	err = infile_read_all(path, CERT_FILE_MAX, &buf, &len);
	if (err)
		return err;
	*cert = cert_file_parse(buf, len);
	free(buf);
	if (!*cert) {
		ERR_clear_error();
		return -EBADMSG;
	}
	return 0;
}

const char *cert_file_strerror(int err)
{
	if (err == -EBADMSG)
		return "not an X.509 certificate (expected DER or PEM)";
	return infile_strerror(err);
}
