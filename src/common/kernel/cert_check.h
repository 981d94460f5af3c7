/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extract-sig -c CERT, and sign-file --batch --json: the appended
 * signature judged as verify-file would judge it with CERT as the only
 * trusted key, so that its description gives the same "key_description"
 * and "trusted" as verify-file's.
 */
#ifndef MODSIGN_KERNEL_CERT_CHECK_H
#define MODSIGN_KERNEL_CERT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "module/sig_describe.h"

struct rules_rules;

/*
 * Judge the signed module buf (len bytes, as the kernel reads it) with
 * the certificates of cert_path alone under the rules of kr, and fill
 * d's cert_judged, cert_description (into desc, size bytes) and
 * cert_trusted.  0, or -errno when cert_path gives the kernel no key
 * (d is then left as it was).
 */
int cert_check_chain(const char *cert_path, const struct rules_rules *kr,
		  const uint8_t *buf, size_t len, struct sig_describe *d,
		  char *desc, size_t size);

#endif
