/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Force-included when build-efi-kernel.sh compiles
 * drivers/firmware/efi/secureboot.c for the "suse" flavour.  Debian's
 * efi_set_secure_boot() locks the kernel down to LOCKDOWN_INTEGRITY_MAX
 * under Secure Boot; SUSE's patch (openSUSE/kernel-source
 * patches.suse/0003-efi-Lock-down-the-kernel-if-booted-in-secure-boot-mode.patch,
 * setup_arch()) asks for LOCKDOWN_CONFIDENTIALITY_MAX.  The enum is
 * declared first, then its name in this one file means SUSE's level.
 */
#include <linux/security.h>

#define LOCKDOWN_INTEGRITY_MAX LOCKDOWN_CONFIDENTIALITY_MAX
