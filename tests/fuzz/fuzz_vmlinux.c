// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: kernel images.  The boot header, the six payload
 * decompressors, the ELF reader (symbols, sections, both classes and byte
 * orders) and the certificate scan never read outside their buffers, and
 * every run they report lies inside the searched image; each run then
 * goes through the kernel's built-in list loop.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/keyring.h"
#include "trust/kernel_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct keyring cs = { 0 };
	struct kernel_image img;
	const char *why;
	size_t i, stop;
	int ret, count;

	ret = kernel_image_find_certs(data, size, rules_get(RULES_6_12), &img, &why);
	if (ret == 0) {
		assert(img.n_runs <= KERNEL_IMAGE_MAX_RUNS);
		for (i = 0; i < img.n_runs; i++) {
			assert(img.runs[i].off <= img.len &&
			       img.runs[i].len <= img.len - img.runs[i].off);
			keyring_add_cert_list(&cs, "fuzz", img.data + img.runs[i].off,
					 img.runs[i].len, rules_get(RULES_6_12), NULL,
					 &count, &stop);
		}
	} else {
		assert(ret == -EINVAL || ret == -EBADMSG || ret == -EFBIG ||
		       ret == -ENOMEM);
	}
	kernel_image_free(&img);
	keyring_free(&cs);
	return 0;
}
