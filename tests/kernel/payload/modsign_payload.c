// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module every conformance case wraps.  It does nothing but say it was
 * loaded, so the only thing that decides whether it loads is its signature.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init modsign_payload_init(void)
{
	pr_info("modsign_payload: loaded\n");
	return 0;
}

static void __exit modsign_payload_exit(void)
{
}

module_init(modsign_payload_init);
module_exit(modsign_payload_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("modsign conformance payload (does nothing)");
