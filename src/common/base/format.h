/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How every tool writes the facts of a signature: hex, key identifiers,
 * serial numbers, X.509 names and key types.  One spelling each, so the
 * same signer reads the same in extract-sig, verify-file and their JSON.
 */
#ifndef MODSIGN_BASE_FORMAT_H
#define MODSIGN_BASE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/types.h>

/* Lower-case hex without separators into a malloc'd string. */
char *format_hex(const uint8_t *p, size_t len);
/* A path as one line of diagnostics: control bytes become \ooo.
 * Malloc'd, NULL on -ENOMEM. */
char *format_one_line(const char *path);
/* The same into buf, cut (at a whole byte) to fit size. */
void format_hex_to(char *buf, size_t size, const uint8_t *p, size_t len);
/*
 * A certificate serial number from the content octets of its INTEGER:
 * lower-case hex of the magnitude, without the leading zero byte DER
 * puts before a high bit (as `openssl x509 -serial` shows it).
 */
void format_serial(char *buf, size_t size, const uint8_t *p, size_t len);
/*
 * An X.509 Name from the content octets of its SEQUENCE: each attribute
 * in the order stored, as "CN=modsign, O=Example" (OpenSSL's short
 * names, dotted OIDs for unknown ones), values as UTF-8 with control
 * bytes written \xHH.  A Name OpenSSL cannot read is written as # and
 * the hex of its content.
 */
void format_name(char *buf, size_t size, const uint8_t *p, size_t len);
/*
 * kmod's "signer" for the same Name (libkmod-signature.c): the value of
 * its commonName, else of its last attribute.  0, or -EINVAL when the
 * Name is unreadable or empty (buf is then empty).
 */
int format_signer(char *buf, size_t size, const uint8_t *p, size_t len);
/*
 * kmod's kmod_module_strbuf_pushhex (kmod's libkmod-module.c): upper-case
 * bytes joined by ':', and after every 20th byte with more to follow the
 * separator becomes ":\n\t\t".
 */
void format_hex_kmod(FILE *f, const uint8_t *p, size_t len);

/* "RSA-4096", "ECDSA-P256", "ML-DSA-65"... into buf. */
void format_pkey(EVP_PKEY *pkey, char *buf, size_t len);

#endif
