// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sign-file executable: hands kbuild's one-module-per-process runs to
 * a signing agent when one serves the build, else executes the tool
 * proper, src/sign-file.c, built as lib/modsign/sign-file (sign-file/front.h
 * says why the two are apart).  It links nothing but a C library.
 */
#include "base/log.h"
#include "sign-file/front.h"

int main(int argc, char **argv)
{
	int code;

	log_init_plain(argc > 0 ? argv[0] : "sign-file");
	if (ms_front_delegate(argc, argv, &code))
		return code;
	return ms_front_run_core(argv);
}
