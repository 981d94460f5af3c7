// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libp11's "pkcs11" ENGINE: the path for OpenSSL 3 installs without a
 * PKCS#11 provider (Debian 12).  The ENGINE API is deprecated in OpenSSL
 * 3, so this file alone asks for the 1.1.1 API; nothing else may use it.
 */
#define OPENSSL_API_COMPAT 0x10100000L
#define OPENSSL_SUPPRESS_DEPRECATED

#include <errno.h>
#include <stdlib.h>

#include <openssl/err.h>
#include <openssl/opensslconf.h>
#ifndef OPENSSL_NO_ENGINE
#include <openssl/engine.h>
#endif

#include "sign-file/pkcs11/load.h"

#ifndef OPENSSL_NO_ENGINE

struct ms_engine {
	ENGINE *e;
	int initialised;
};

int ms_engine_open(struct ms_engine **out, const char *module,
		   const char *pin)
{
	struct ms_engine *m;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->e = ENGINE_by_id("pkcs11");
	if (!m->e) {
		free(m);
		ERR_clear_error();
		return -ENOPKG;
	}
	*out = m;
	/* Module before init: libp11 loads it in ENGINE_init.  The PIN is
	 * set, not prompted for, and libp11 offers it once. */
	if (!ENGINE_ctrl_cmd_string(m->e, "MODULE_PATH", module, 0) ||
	    !ENGINE_init(m->e))
		return -EIO;
	m->initialised = 1;
	if (pin && !ENGINE_ctrl_cmd_string(m->e, "PIN", pin, 0))
		return -EIO;
	return 0;
}

int ms_engine_load_key(struct ms_engine *m, const char *uri, EVP_PKEY **key)
{
	*key = ENGINE_load_private_key(m->e, uri, NULL, NULL);
	return *key ? 0 : -ENOENT;
}

int ms_engine_load_cert(struct ms_engine *m, const char *uri, X509 **cert)
{
	/* libp11's LOAD_CERT_CTRL argument (eng_front.c). */
	struct load_cert_parms {
		const char *s_slot_cert_id;
		X509 *cert;
	} parms = { uri, NULL };

	if (!ENGINE_ctrl_cmd(m->e, "LOAD_CERT_CTRL", 0, &parms, NULL, 1) ||
	    !parms.cert)
		return -ENOENT;
	*cert = parms.cert;
	return 0;
}

void ms_engine_close(struct ms_engine *m)
{
	if (!m)
		return;
	if (m->initialised)
		ENGINE_finish(m->e);
	ENGINE_free(m->e);
	free(m);
}

#else /* OPENSSL_NO_ENGINE: only providers reach tokens. */

int ms_engine_open(struct ms_engine **out, const char *module,
		   const char *pin)
{
	(void)module;
	(void)pin;
	*out = NULL;
	return -ENOPKG;
}

int ms_engine_load_key(struct ms_engine *m, const char *uri, EVP_PKEY **key)
{
	(void)m;
	(void)uri;
	*key = NULL;
	return -ENOPKG;
}

int ms_engine_load_cert(struct ms_engine *m, const char *uri, X509 **cert)
{
	(void)m;
	(void)uri;
	*cert = NULL;
	return -ENOPKG;
}

void ms_engine_close(struct ms_engine *m)
{
	(void)m;
}

#endif
