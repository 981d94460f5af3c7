/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File names in JSON.  A Linux file name is any bytes but '/' and NUL,
 * while JSON text (RFC 8259) is UTF-8: a name written as it is ("caf\xe9"
 * in Latin-1) makes the whole output unparsable, and a parser that
 * repairs it loses the name.  So every name goes through here.
 */
#ifndef MODSIGN_BASE_JSON_NAME_H
#define MODSIGN_BASE_JSON_NAME_H

#include <json-c/json.h>

/*
 * Add key: name, as UTF-8 with each byte that is no part of a valid
 * UTF-8 sequence written U+FFFD; and, only when there was such a byte,
 * key + "_bytes": the exact name as lower-case hex, from which it can be
 * recovered.  A NULL name adds key: null.
 */
void json_name_add(json_object *o, const char *key, const char *name);

#endif
