/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one ELF reader: the file header and section headers of either
 * class and byte order, read through infile_map_read so that an input's
 * mapping may be read.  It checks only what it must to read a header
 * (the magic, the class and byte order, the header's own size); what a
 * file must further be is its callers' business: a module's
 * (elf_check.c, the kernel's elf_validity_check()) or a kernel image's
 * (trust/kernel_image.c).
 */
#ifndef MODSIGN_MODULE_ELF_H
#define MODSIGN_MODULE_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields of the file header its callers read. */
struct elf_file {
	const uint8_t *p;
	size_t len;
	bool is64, msb;
	uint16_t type, shentsize, shnum, shstrndx;
	uint64_t shoff;
};

/* The fields of a section header its callers read. */
struct elf_section {
	uint32_t name, type, link;
	uint64_t addr, offset, size;
};

/* n bytes (at most 8) at p as a number in the file's byte order. */
uint64_t elf_get(const struct elf_file *e, const uint8_t *p, int n);

/*
 * Read the file header of p: 0, -EINVAL when p is no ELF file (no
 * magic), or -EBADMSG when its class or byte order is invalid or the
 * header is cut short; *why says which.
 */
int elf_read_header(const uint8_t *p, size_t len, struct elf_file *e,
		    const char **why);

/*
 * Read section header i, whose table the caller has found to lie inside
 * the file with entries of at least the class's header size: 0, or
 * -EIO when a mapping could not be read.
 */
int elf_read_section(const struct elf_file *e, unsigned int i,
		     struct elf_section *s);

#endif
