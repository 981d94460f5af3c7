// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the trailer parsers.  Both must agree with each other
 * where the kernel's rules and kmod's overlap, and never read outside the
 * buffer.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "module/trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trailer k, s;
	const char *why;
	int kerr = trailer_check(data, size, &k, &why);
	int serr = trailer_split(data, size, &s, &why);

	/* sig_len 0 passes the kernel's trailer checks (the PKCS#7 parser
	 * rejects it later, §8 case 12) but not kmod's: leave it out. */
	if (kerr == 0 && k.sig_len > 0) {
		/* what the kernel accepts, the lenient split reads alike */
		assert(serr == 0);
		assert(k.body_len == s.body_len && k.sig_len == s.sig_len);
		assert(k.body_len + k.sig_len + TRAILER_OVERHEAD == size);
		assert(k.body_len >= 1);
	}
	if (serr == 0)
		assert(s.signer_off <= s.key_id_off && s.key_id_off <= s.sig_off &&
		       s.sig_off + s.sig_len + TRAILER_OVERHEAD == size);
	return 0;
}
