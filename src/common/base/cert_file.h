/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading an X.509 certificate from a file or from memory (DER or PEM),
 * for every tool: no keys, no tokens, so a tool that only reads a
 * certificate links none of the signing stack.
 */
#ifndef MODSIGN_BASE_CERT_FILE_H
#define MODSIGN_BASE_CERT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

/*
 * The certificate in path into *cert (the caller frees it).  Returns 0,
 * a negative errno when the file cannot be read, or -EBADMSG when it holds
 * neither a DER nor a PEM X.509 certificate; *cert is then NULL.
 */
int cert_file_read(const char *path, X509 **cert);
/* The same from memory: the certificate, or NULL. */
X509 *cert_file_parse(const uint8_t *buf, size_t len);
/* What went wrong, for one line of error: err as cert_file_read returns it. */
const char *cert_file_strerror(int err);

#endif
