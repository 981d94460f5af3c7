/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files a signing run writes, named in one place, checked before
 * anything is written against the files it reads: the kernel's
 * scripts/sign-file writes <dest> whatever it is, so "sign-file sha256
 * key.pem cert.pem foo.ko key.pem" replaced the private key.
 */
#ifndef MODSIGN_SIGN_FILE_OUTPUTS_H
#define MODSIGN_SIGN_FILE_OUTPUTS_H

#include "base/samefile.h"
#include "sign-file/signer.h"

/*
 * 0 when no file r writes (the signed module, <dest>, <module>.p7s; with
 * digest, --digest-only's <module>.digest and <module>.tbs) is one of
 * inputs or, unless it is signed in place, the module itself.  Else
 * -EEXIST and fail (MS_SIGNER_STAGE_CLOBBER): path the output, text the input
 * it is.
 */
int ms_sign_outputs_check(const struct ms_signer_req *r, int digest,
			  const struct samefile_inputs *inputs,
			  struct ms_signer_failure *fail);

#endif
