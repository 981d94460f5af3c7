// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "base/infile.h"
#include "module/elf.h"

uint64_t elf_get(const struct elf_file *e, const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[e->msb ? n - 1 - i : i] << (8 * i);
	return v;
}

int elf_read_header(const uint8_t *p, size_t len, struct elf_file *e,
		    const char **why)
{
	uint8_t b[sizeof(Elf64_Ehdr)];
	size_t need;

	memset(e, 0, sizeof(*e));
	e->p = p;
	e->len = len;
	if (len < EI_NIDENT || infile_map_read(b, p, EI_NIDENT) ||
	    memcmp(b, ELFMAG, SELFMAG) != 0) {
		*why = "not an ELF file (no ELF magic): no kernel module";
		return -EINVAL;
	}
	e->is64 = b[EI_CLASS] == ELFCLASS64;
	e->msb = b[EI_DATA] == ELFDATA2MSB;
	need = e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if ((b[EI_CLASS] != ELFCLASS32 && !e->is64) ||
	    (b[EI_DATA] != ELFDATA2LSB && !e->msb)) {
		*why = "invalid ELF class or byte order in the ELF header";
		return -EBADMSG;
	}
	if (len < need || infile_map_read(b, p, need)) {
		*why = "ELF header cut short (truncated file?)";
		return -EBADMSG;
	}
	if (e->is64) {
		e->type = elf_get(e, b + offsetof(Elf64_Ehdr, e_type), 2);
		e->shoff = elf_get(e, b + offsetof(Elf64_Ehdr, e_shoff), 8);
		e->shentsize = elf_get(e, b + offsetof(Elf64_Ehdr, e_shentsize),
				       2);
		e->shnum = elf_get(e, b + offsetof(Elf64_Ehdr, e_shnum), 2);
		e->shstrndx = elf_get(e, b + offsetof(Elf64_Ehdr, e_shstrndx),
				      2);
	} else {
		e->type = elf_get(e, b + offsetof(Elf32_Ehdr, e_type), 2);
		e->shoff = elf_get(e, b + offsetof(Elf32_Ehdr, e_shoff), 4);
		e->shentsize = elf_get(e, b + offsetof(Elf32_Ehdr, e_shentsize),
				       2);
		e->shnum = elf_get(e, b + offsetof(Elf32_Ehdr, e_shnum), 2);
		e->shstrndx = elf_get(e, b + offsetof(Elf32_Ehdr, e_shstrndx),
				      2);
	}
	return 0;
}

int elf_read_section(const struct elf_file *e, unsigned int i,
		     struct elf_section *s)
{
	uint8_t b[sizeof(Elf64_Shdr)];
	const uint8_t *p = e->p + e->shoff + (uint64_t)i * e->shentsize;

	if (infile_map_read(b, p, e->is64 ? sizeof(Elf64_Shdr) :
			sizeof(Elf32_Shdr)))
		return -EIO;
	if (e->is64) {
		s->name = elf_get(e, b + offsetof(Elf64_Shdr, sh_name), 4);
		s->type = elf_get(e, b + offsetof(Elf64_Shdr, sh_type), 4);
		s->link = elf_get(e, b + offsetof(Elf64_Shdr, sh_link), 4);
		s->addr = elf_get(e, b + offsetof(Elf64_Shdr, sh_addr), 8);
		s->offset = elf_get(e, b + offsetof(Elf64_Shdr, sh_offset), 8);
		s->size = elf_get(e, b + offsetof(Elf64_Shdr, sh_size), 8);
	} else {
		s->name = elf_get(e, b + offsetof(Elf32_Shdr, sh_name), 4);
		s->type = elf_get(e, b + offsetof(Elf32_Shdr, sh_type), 4);
		s->link = elf_get(e, b + offsetof(Elf32_Shdr, sh_link), 4);
		s->addr = elf_get(e, b + offsetof(Elf32_Shdr, sh_addr), 4);
		s->offset = elf_get(e, b + offsetof(Elf32_Shdr, sh_offset), 4);
		s->size = elf_get(e, b + offsetof(Elf32_Shdr, sh_size), 4);
	}
	return 0;
}
