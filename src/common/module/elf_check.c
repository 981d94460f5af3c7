// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "base/infile.h"
#include "module/elf.h"
#include "module/elf_check.h"

static int fail(const char **why, const char *text)
{
	*why = text;
	return -ENOEXEC;
}

/* validate_section_offset(): contents inside the body, no overflow */
static int inside(const struct elf_section *s, size_t len)
{
	uint64_t end = s->offset + s->size;

	return end >= s->offset && end <= len;
}

int elf_check_module(const uint8_t *body, size_t len, const char **why)
{
	struct elf_file h;
	struct elf_section s, str;
	uint8_t last;

	if (elf_read_header(body, len, &h, why))
		return -ENOEXEC;
	if (h.type != ET_REL)
		return fail(why, "not a relocatable ELF object (ELF type is "
			    "not ET_REL): no kernel module");
	if (h.shentsize != (h.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(why, "invalid ELF section header size");
	if (h.shoff >= len ||
	    (uint64_t)h.shnum * h.shentsize > len - h.shoff)
		return fail(why, "ELF section header table beyond the end of "
			    "the module (truncated file?)");
	if (!h.shnum || elf_read_section(&h, 0, &s) ||
	    s.type != SHT_NULL || s.size || s.addr)
		return fail(why, "ELF section 0 is not an empty SHT_NULL");
	for (unsigned int i = 1; i < h.shnum; i++) {
		if (elf_read_section(&h, i, &s))
			return fail(why, "module unreadable");
		if (s.type == SHT_NULL || s.type == SHT_NOBITS)
			continue;
		if (!inside(&s, len))
			return fail(why, "an ELF section lies beyond the end "
				    "of the module (truncated file?)");
		if (s.type == SHT_SYMTAB && (s.link == SHN_UNDEF ||
					     s.link >= h.shnum))
			return fail(why, "the symbol table links to an "
				    "invalid section");
	}
	if (h.shstrndx == SHN_UNDEF || h.shstrndx >= h.shnum)
		return fail(why, "invalid ELF section name table index");
	if (elf_read_section(&h, h.shstrndx, &str) || str.type != SHT_STRTAB)
		return fail(why, "the ELF section name table is not "
			    "SHT_STRTAB");
	if (!str.size)
		return fail(why, "empty ELF section name table");
	if (infile_map_read(&last, body + str.offset + str.size - 1, 1) || last)
		return fail(why, "the ELF section name table does not end "
			    "with NUL");
	for (unsigned int i = 0; i < h.shnum; i++) {
		if (elf_read_section(&h, i, &s))
			return fail(why, "module unreadable");
		if (s.type != SHT_NULL && s.name >= str.size)
			return fail(why, "an ELF section name lies beyond the "
				    "section name table");
	}
	return 0;
}
