/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File names in text output, quoted as coreutils' ls and stat quote them
 * (--quoting-style=shell-escape) when they hold control bytes, so that
 * no escape sequence reaches the terminal and no newline splits a line:
 * "a\nb" is shown as 'a'$'\n''b'.  Other names are shown as they are.
 * JSON has its own escaping (base/json_name.h).
 */
#ifndef MODSIGN_BASE_QUOTE_H
#define MODSIGN_BASE_QUOTE_H

/* The quoted name, allocated, or NULL when name needs no quoting (or
 * there is no memory: then it is shown as it is). */
char *quote_name(const char *name);

#endif
