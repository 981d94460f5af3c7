/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UEFI signature lists (UEFI spec 2.x, 32.4.1 EFI_SIGNATURE_LIST): the
 * format of db, dbx, MokListRT and of efi-readvar / cert-to-efi-sig-list
 * output, read as security/integrity/platform_certs/efi_parser.c reads it.
 *
 *   EFI_SIGNATURE_LIST (repeated to the end of the buffer)
 *   +0   SignatureType         GUID (16)
 *   +16  SignatureListSize     le32: this whole list
 *   +20  SignatureHeaderSize   le32: bytes after the 28-byte header
 *   +24  SignatureSize         le32: each EFI_SIGNATURE_DATA below
 *   +28  SignatureHeader       [SignatureHeaderSize]
 *   ...  EFI_SIGNATURE_DATA    [(ListSize - 28 - HeaderSize) / SigSize]
 *          +0  SignatureOwner  GUID (16)
 *          +16 SignatureData   [SignatureSize - 16]
 */
#ifndef MODSIGN_TRUST_EFI_SIGLIST_H
#define MODSIGN_TRUST_EFI_SIGLIST_H

#include <stddef.h>
#include <stdint.h>

enum efi_siglist_type {
	EFI_SIGLIST_X509,		/* EFI_CERT_X509_GUID: a DER certificate */
	EFI_SIGLIST_SHA256,		/* EFI_CERT_SHA256_GUID: a binary's hash */
	EFI_SIGLIST_X509_SHA256,	/* EFI_CERT_X509_SHA256_GUID: a TBS hash */
	EFI_SIGLIST_OTHER,		/* a type the kernel has no handler for */
};

struct efi_siglist_entry {
	enum efi_siglist_type type;
	const uint8_t *data;
	size_t len;
	unsigned list;		/* 1-based list number */
	unsigned index;		/* 1-based entry number in the list */
};

/* Called per entry; a non-zero return stops the walk and is returned. */
typedef int (*efi_siglist_fn)(void *ctx, const struct efi_siglist_entry *e);

/*
 * parse_efi_signature_list(): -EBADMSG (with *bad at the list's offset)
 * for a list that overruns the buffer or whose sizes do not fit
 * together; the entries before it have been handed to fn, as the kernel
 * has added them by then.
 */
int efi_siglist_walk(const uint8_t *buf, size_t len, efi_siglist_fn fn, void *ctx,
		     size_t *bad);

/*
 * Read an efivarfs file (4-byte attributes, then the variable's data)
 * into a malloc'd buffer of just the data.  -ENOENT when the variable or
 * efivarfs is absent, -EBADMSG when shorter than the attributes.
 */
int efi_siglist_read_efivar(const char *path, uint8_t **data, size_t *len);

/* efivarfs names: db, dbx and MokListRT with their vendor GUIDs */
#define EFI_SIGLIST_EFIVARS "/sys/firmware/efi/efivars"
#define EFI_SIGLIST_VAR_DB "db-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
#define EFI_SIGLIST_VAR_DBX "dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f"
#define EFI_SIGLIST_VAR_MOK "MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
#define EFI_SIGLIST_VAR_MOKX "MokListXRT-605dab50-e046-4300-abb6-3dd810dd8b23"
#define EFI_SIGLIST_VAR_IGNORE_DB "MokIgnoreDB-605dab50-e046-4300-abb6-3dd810dd8b23"
/* drivers/firmware/efi/mokvar-table.c: shim's MOK variable config
 * table, one raw file per entry (no attribute bytes) */
#define EFI_SIGLIST_MOKVARS "/sys/firmware/efi/mok-variables"

#endif
