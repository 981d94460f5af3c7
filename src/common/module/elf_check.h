/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a module's body is an ELF file the kernel goes on to load: the
 * offline part of the kernel's elf_validity_check() (kernel/module/main.c;
 * 6.12 and later split it into elf_validity_ehdr(),
 * elf_validity_cache_sechdrs() and elf_validity_cache_secstrings()),
 * which load_module() runs after module_sig_check() on the body without
 * its signature.  Every failure there is -ENOEXEC.
 */
#ifndef MODSIGN_MODULE_ELF_CHECK_H
#define MODSIGN_MODULE_ELF_CHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * 0 when body passes the checks below, else -ENOEXEC with *why (static
 * text, the kernel's reason in words):
 *   the ELF header fits and has the magic, a relocatable object (ET_REL),
 *   e_shentsize is the size of a section header of its class, the section
 *   header table lies inside the body, section 0 is SHT_NULL and empty,
 *   every section with contents lies inside the body, the section name
 *   table index is valid, that section is a non-empty SHT_STRTAB ending
 *   with NUL, every section name lies inside it, and a symbol table
 *   links to a valid section.
 * Not checked: e_machine (elf_check_arch() depends on the kernel's
 * architecture, and modules are checked on other machines) and what
 * needs the kernel's own structures (.gnu.linkonce.this_module's size).
 * Both ELF classes and byte orders are read.  body may be an input's
 * mapping (read through infile_map_read).
 */
int elf_check_module(const uint8_t *body, size_t len, const char **why);

#endif
