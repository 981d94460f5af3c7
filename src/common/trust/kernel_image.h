/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The certificates built into a kernel image: the list that
 * certs/system_certificates.S places at system_certificate_list (the
 * CONFIG_MODULE_SIG_KEY certificate, then CONFIG_SYSTEM_TRUSTED_KEYS) and
 * load_system_certificate_list() hands to x509_load_certificate_list().
 *
 * Images: an x86 bzImage/vmlinuz (payload found through the boot protocol
 * header, decompressed with libraries), a whole-file compressed image
 * (arm64 Image.gz), an uncompressed ELF vmlinux, or a raw Image.
 */
#ifndef MODSIGN_TRUST_KERNEL_IMAGE_H
#define MODSIGN_TRUST_KERNEL_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "module/compress.h"
#include "kernel/rules.h"

#define KERNEL_IMAGE_MAX_RUNS 8

/* How the list was found, most exact first. */
enum kernel_image_how {
	KERNEL_IMAGE_SYMBOL,	/* system_certificate_list{,_size} in the symtab */
	KERNEL_IMAGE_SECTION,	/* a scan of .init.data (or .init.rodata in a .o) */
	KERNEL_IMAGE_SCAN,	/* a scan of the whole image */
};

/* Which list a run of certificates is. */
enum kernel_image_list {
	KERNEL_IMAGE_LIST_SYSTEM,		/* system_certificate_list: trusted */
	KERNEL_IMAGE_LIST_REVOCATION,	/* revocation_certificate_list
				 * (CONFIG_SYSTEM_REVOCATION_KEYS) */
};

struct kernel_image_run {
	size_t off;	/* in the (decompressed) image */
	size_t len;
	enum kernel_image_list list;
};

/* A CONFIG_SYSTEM_BLACKLIST_HASH_LIST entry, "tbs:<hex>" or "bin:<hex>",
 * as the NUL-terminated string blacklist.c's blacklist_hashes[] points
 * at (len without the NUL). */
#define KERNEL_IMAGE_MAX_HASHES 1024
struct kernel_image_hash {
	size_t off, len;
};

struct kernel_image {
	uint8_t *owned;		/* decompressed image, or NULL */
	const uint8_t *data;	/* the image searched (owned or the input) */
	size_t len;
	enum compress_fmt comp;	/* payload compression, COMPRESS_NONE if none */
	size_t payload_off;	/* where the payload was in the input */
	int elf;		/* the searched image is an ELF file */
	enum kernel_image_how how;
	struct kernel_image_run runs[KERNEL_IMAGE_MAX_RUNS];
	size_t n_runs;
	struct kernel_image_hash hashes[KERNEL_IMAGE_MAX_HASHES];
	size_t n_hashes;
};

/*
 * Find the built-in certificate list of a kernel image in buf.  With a
 * symbol table the list is taken exactly (system_certificate_list and
 * its _size); otherwise runs of back-to-back DER certificates are looked
 * for (in .init.data, else .init.rodata, when the ELF has them), and a
 * run counts only when at least one of its certificates parses as the
 * kernel parses it (x509k, rules kr): random "30 82" bytes are no
 * certificate list.  Besides the system list, the revocation list
 * (revocation_certificate_list, the same layout, linked after it) is
 * found the same way and marked KERNEL_IMAGE_LIST_REVOCATION; the blacklist hash
 * strings are collected from the whole image.
 * 0 with img filled (n_runs may be 0: an image without certificates),
 * -EINVAL (*why) when buf is no kernel image, -EBADMSG (*why) for a
 * corrupt payload or ELF, -EFBIG, -ENOMEM.  kernel_image_free() in every case.
 */
int kernel_image_find_certs(const uint8_t *buf, size_t len, const struct rules_rules *kr,
		  struct kernel_image *img, const char **why);
void kernel_image_free(struct kernel_image *img);

/*
 * The kernel release an image was built as ("6.1.0-57-amd64",
 * "7.3.4+deb13-amd64"): the x86 boot header's kernel_version string, else
 * the "Linux version " banner (init/version.c linux_banner) in the image
 * or its decompressed payload.  0 and out filled, or -ENOENT when none is
 * found, -EBADMSG, -ENOMEM.
 */
int kernel_image_version(const uint8_t *buf, size_t len, char *out, size_t size);

/*
 * The image's version line after "Linux version " (init/version.c
 * linux_banner: release, builder, compiler, UTS_VERSION), or the x86
 * header's kernel_version string (release, builder, UTS_VERSION): who
 * built the kernel.  0, -ENOENT, -EBADMSG, -ENOMEM.
 */
int kernel_image_banner(const uint8_t *buf, size_t len, char *out, size_t size);

/* "symbol system_certificate_list", "scan of .init.data/.init.rodata"... */
const char *kernel_image_how_name(enum kernel_image_how how);

#endif
