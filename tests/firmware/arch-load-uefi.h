/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Force-included when build-efi-kernel.sh compiles
 * security/integrity/platform_certs/load_uefi.c for the "arch" flavour:
 * kernel.org's load_uefi_certs() up to 7.0, which asked IMA's
 * arch_ima_get_secureboot() before loading MokListXRT and MokListRT.  That
 * function was real only with CONFIG_IMA_SECURE_AND_OR_TRUSTED_BOOT and an
 * inline stub returning false otherwise (include/linux/ima.h up to 7.0);
 * 7.1's "integrity: Make arch_ima_get_secureboot integrity-wide" made it
 * ask arch_get_secureboot() (<linux/secure_boot.h>) whatever IMA is.
 * Renaming the one call in this one file gives 7.0's behaviour: without
 * IMA's architecture policy MOK and MOKx are never loaded.
 */
#include <linux/types.h>

#ifndef CONFIG_IMA_SECURE_AND_OR_TRUSTED_BOOT
/* 7.0's stub; secure_boot.h's declaration then declares this one */
static inline bool modsign_ima_get_secureboot_stub(void)
{
	return false;
}
#define arch_get_secureboot modsign_ima_get_secureboot_stub
#endif
