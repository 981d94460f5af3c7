// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/infile.h"
#include "base/log.h"
#include "sign-file/keys.h"
#include "sign-file/pin.h"
#include "sign-file/sign_report.h"

int ms_sign_report(const struct ms_signer_failure *f, int err)
{
	switch (f->stage) {
	case MS_SIGNER_STAGE_HASH:
		/* "-" reads CONFIG_MODULE_SIG_HASH, which only a .config
		 * has: say so rather than call "-" an unknown digest. */
		if (strcmp(f->path, "-") == 0)
			log_error(NULL, "<hash> \"-\" takes CONFIG_MODULE_SIG_HASH "
				 "from --kernel-config FILE: give that option, "
				 "or name the hash (sha256, sha512, ...)");
		else
			log_error(NULL, "unknown hash algorithm '%s' (use "
				 "sha256, sha384, sha512, sha3-256, ...)",
				 f->path);
		return EXITCODE_USAGE;
	case MS_SIGNER_STAGE_KEY:
	case MS_SIGNER_STAGE_CERT:
	case MS_SIGNER_STAGE_MATCH:
		if (f->key == MS_KEY_PIN_UNREADABLE) {
			log_error(ms_pin_source_name(), "%s",
				 err == -EMSGSIZE ? "longer than 1023 bytes"
						  : infile_strerror(err));
			return EXITCODE_KEY;
		}
		if (f->reason)
			log_error(f->path, "%s", f->reason);
		else if (f->key == MS_KEY_UNREADABLE)
			log_error(f->path, "%s", infile_strerror(err));
		else
			log_error(f->path, "%s", ms_key_problem_str(f->key));
		return EXITCODE_KEY;
	case MS_SIGNER_STAGE_RAWSIG:
		if (!f->reason) {
			log_error(f->path, "%s", infile_strerror(err));
			return EXITCODE_IO;
		}
		log_error(f->path, "%s", f->reason);
		if (err == -ENOKEY)
			return EXITCODE_KEY;
		return err == -EKEYREJECTED ? EXITCODE_REJECTED
					    : EXITCODE_MALFORMED;
	case MS_SIGNER_STAGE_SIGNED:
		log_error(f->path, "already signed (use --replace or "
			 "--skip-signed)");
		return EXITCODE_SIGNED;
	case MS_SIGNER_STAGE_TRAILER:
		log_error(f->path, "%s", f->reason);
		return EXITCODE_MALFORMED;
	case MS_SIGNER_STAGE_DECOMPRESS:
		/* A corrupt stream is malformed input (6); too large or out
		 * of memory is a system limit (7). */
		log_error(f->path, "cannot decompress: %s", f->reason);
		return exitcode_for_errno(err);
	case MS_SIGNER_STAGE_SIGNED_AFTER:
		/* Not 8: the kernel does not see this module as signed, and
		 * a script treating 8 as "nothing to do" would ship it. */
		log_error(f->path, "%s (use --replace to sign the decompressed "
			 "module)", f->reason);
		return EXITCODE_MALFORMED;
	case MS_SIGNER_STAGE_SIGN:
		log_error(f->path, "%s", f->reason);
		return err == -ENOPKG ? EXITCODE_NOPKG : EXITCODE_KEY;
	case MS_SIGNER_STAGE_KERNEL:
	case MS_SIGNER_STAGE_NOALG:
		/* the kernel's errno, as verify-file would exit with it;
		 * or what this build lacks */
		log_error(f->path, "%s", f->reason);
		return exitcode_for_errno(err);
	case MS_SIGNER_STAGE_DEST:
		/* 2, a usage error: the command line named a second module
		 * where the kernel tool's layout puts <dest> */
		log_error(f->path, "is another kernel module, not overwritten "
			 "(<dest> after <module>: to sign several modules in "
			 "place, use --batch)");
		return EXITCODE_USAGE;
	case MS_SIGNER_STAGE_NOT_MODULE:
		/* 6, malformed input: the kernel refuses it as -ENOEXEC
		 * before any signature is looked at */
		log_error(f->path, "%s", f->reason);
		return EXITCODE_MALFORMED;
	case MS_SIGNER_STAGE_OTHER_SIGNER:
		log_error(f->path, "%s", f->reason);
		return EXITCODE_SIGNED;
	case MS_SIGNER_STAGE_CLOBBER:
		/* 2: the command line names one file as input and output */
		log_error(f->path, "%s", f->reason);
		return EXITCODE_USAGE;
	case MS_SIGNER_STAGE_OUTPUT:
		if (f->reason) {
			log_error(f->path, "%s", f->reason);
			return EXITCODE_IO;
		}
		break;
	case MS_SIGNER_STAGE_INPUT:
	case MS_SIGNER_STAGE_NONE:
		break;
	}
	log_error(f->path, "%s", infile_strerror(err));
	return EXITCODE_IO;
}
