/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Force-included after <linux/kconfig.h> when build-efi-kernel.sh compiles
 * kernel/module/signing.c for the kernel.org variant.  Debian's
 * mod_verify_sig() retries an -ENOKEY module against the platform keyring
 * when CONFIG_INTEGRITY_PLATFORM_KEYRING is set; kernel.org's has no such
 * retry.  Hiding the option from this one file gives kernel.org's
 * behaviour while every other object (the keyrings themselves) keeps it.
 */
#undef CONFIG_INTEGRITY_PLATFORM_KEYRING
