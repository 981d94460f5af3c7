// SPDX-License-Identifier: GPL-2.0-or-later
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "base/infile.h"
#include "module/elf_check.h"

/* The fields the checks read, whatever the class and byte order. */
struct ehdr {
	int is64, msb;
	uint16_t type, shentsize, shnum, shstrndx;
	uint64_t shoff;
};

struct shdr {
	uint32_t name, type, link;
	uint64_t addr, offset, size;
};

static uint64_t get(const uint8_t *p, int n, int msb)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

static int fail(const char **why, const char *text)
{
	*why = text;
	return -ENOEXEC;
}

static int read_ehdr(const uint8_t *body, size_t len, struct ehdr *h,
		     const char **why)
{
	uint8_t b[sizeof(Elf64_Ehdr)];
	size_t need;

	if (len < EI_NIDENT || ms_map_read(b, body, EI_NIDENT) ||
	    memcmp(b, ELFMAG, SELFMAG) != 0)
		return fail(why, "not an ELF file (no ELF magic): no kernel "
			    "module");
	h->is64 = b[EI_CLASS] == ELFCLASS64;
	h->msb = b[EI_DATA] == ELFDATA2MSB;
	need = h->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if ((b[EI_CLASS] != ELFCLASS32 && !h->is64) ||
	    (b[EI_DATA] != ELFDATA2LSB && !h->msb))
		return fail(why, "invalid ELF class or byte order in the ELF "
			    "header");
	if (len < need || ms_map_read(b, body, need))
		return fail(why, "ELF header cut short (truncated file?)");
	if (h->is64) {
		h->type = get(b + offsetof(Elf64_Ehdr, e_type), 2, h->msb);
		h->shoff = get(b + offsetof(Elf64_Ehdr, e_shoff), 8, h->msb);
		h->shentsize = get(b + offsetof(Elf64_Ehdr, e_shentsize), 2,
				   h->msb);
		h->shnum = get(b + offsetof(Elf64_Ehdr, e_shnum), 2, h->msb);
		h->shstrndx = get(b + offsetof(Elf64_Ehdr, e_shstrndx), 2,
				  h->msb);
	} else {
		h->type = get(b + offsetof(Elf32_Ehdr, e_type), 2, h->msb);
		h->shoff = get(b + offsetof(Elf32_Ehdr, e_shoff), 4, h->msb);
		h->shentsize = get(b + offsetof(Elf32_Ehdr, e_shentsize), 2,
				   h->msb);
		h->shnum = get(b + offsetof(Elf32_Ehdr, e_shnum), 2, h->msb);
		h->shstrndx = get(b + offsetof(Elf32_Ehdr, e_shstrndx), 2,
				  h->msb);
	}
	return 0;
}

static int read_shdr(const uint8_t *body, const struct ehdr *h,
		     unsigned int i, struct shdr *s)
{
	uint8_t b[sizeof(Elf64_Shdr)];
	const uint8_t *p = body + h->shoff + (uint64_t)i * h->shentsize;
	int m = h->msb;

	if (ms_map_read(b, p, h->shentsize))
		return -EIO;
	if (h->is64) {
		s->name = get(b + offsetof(Elf64_Shdr, sh_name), 4, m);
		s->type = get(b + offsetof(Elf64_Shdr, sh_type), 4, m);
		s->link = get(b + offsetof(Elf64_Shdr, sh_link), 4, m);
		s->addr = get(b + offsetof(Elf64_Shdr, sh_addr), 8, m);
		s->offset = get(b + offsetof(Elf64_Shdr, sh_offset), 8, m);
		s->size = get(b + offsetof(Elf64_Shdr, sh_size), 8, m);
	} else {
		s->name = get(b + offsetof(Elf32_Shdr, sh_name), 4, m);
		s->type = get(b + offsetof(Elf32_Shdr, sh_type), 4, m);
		s->link = get(b + offsetof(Elf32_Shdr, sh_link), 4, m);
		s->addr = get(b + offsetof(Elf32_Shdr, sh_addr), 4, m);
		s->offset = get(b + offsetof(Elf32_Shdr, sh_offset), 4, m);
		s->size = get(b + offsetof(Elf32_Shdr, sh_size), 4, m);
	}
	return 0;
}

/* validate_section_offset(): contents inside the body, no overflow */
static int inside(const struct shdr *s, size_t len)
{
	uint64_t end = s->offset + s->size;

	return end >= s->offset && end <= len;
}

int ms_elf_module_check(const uint8_t *body, size_t len, const char **why)
{
	struct ehdr h;
	struct shdr s, str;
	uint8_t last;
	int err;

	err = read_ehdr(body, len, &h, why);
	if (err)
		return err;
	if (h.type != ET_REL)
		return fail(why, "not a relocatable ELF object (ELF type is "
			    "not ET_REL): no kernel module");
	if (h.shentsize != (h.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(why, "invalid ELF section header size");
	if (h.shoff >= len ||
	    (uint64_t)h.shnum * h.shentsize > len - h.shoff)
		return fail(why, "ELF section header table beyond the end of "
			    "the module (truncated file?)");
	if (!h.shnum || read_shdr(body, &h, 0, &s) ||
	    s.type != SHT_NULL || s.size || s.addr)
		return fail(why, "ELF section 0 is not an empty SHT_NULL");
	for (unsigned int i = 1; i < h.shnum; i++) {
		if (read_shdr(body, &h, i, &s))
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
	if (read_shdr(body, &h, h.shstrndx, &str) || str.type != SHT_STRTAB)
		return fail(why, "the ELF section name table is not "
			    "SHT_STRTAB");
	if (!str.size)
		return fail(why, "empty ELF section name table");
	if (ms_map_read(&last, body + str.offset + str.size - 1, 1) || last)
		return fail(why, "the ELF section name table does not end "
			    "with NUL");
	for (unsigned int i = 0; i < h.shnum; i++) {
		if (read_shdr(body, &h, i, &s))
			return fail(why, "module unreadable");
		if (s.type != SHT_NULL && s.name >= str.size)
			return fail(why, "an ELF section name lies beyond the "
				    "section name table");
	}
	return 0;
}
