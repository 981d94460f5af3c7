/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PKCS#11 URIs (RFC 7512) and the token session that names each step of a
 * failure: module load, token lookup, login, object lookup.  OpenSSL's
 * providers and ENGINEs report all of these as one "could not load key";
 * users of HSMs need to know which step to fix.
 *
 * The session stays open, logged in, for the whole run: PKCS#11 login
 * state belongs to the application, so the provider or engine that loads
 * the key afterwards finds the token already logged in, and a run logs in
 * once however many files it signs.
 */
#ifndef MODSIGN_SIGN_FILE_PKCS11_TOKEN_H
#define MODSIGN_SIGN_FILE_PKCS11_TOKEN_H

#include <stddef.h>

#include "sign-file/keys.h"

#define MS_TOKEN_ATTR_MAX 256

struct ms_token_uri {
	char token[MS_TOKEN_ATTR_MAX];
	char manufacturer[MS_TOKEN_ATTR_MAX];
	char serial[MS_TOKEN_ATTR_MAX];
	char model[MS_TOKEN_ATTR_MAX];
	char object[MS_TOKEN_ATTR_MAX];
	unsigned char id[MS_TOKEN_ATTR_MAX];
	size_t id_len;
	int has_token, has_manufacturer, has_serial, has_model;
	int has_object, has_id;
	char type[16];		/* "private", "cert", ... or "" */
	char module_path[4096];	/* query attribute module-path */
	int has_pin_value;	/* pin-value, query attribute or in the
				 * path (libp11 reads it there): refused */
	int module_path_in_path; /* ";module-path=": RFC 7512 has it in
				  * the query only; refused, not passed
				  * to a provider or engine */
	char path_only[8192];	/* the URI without its query part */
	char path_notype[8192];	/* ... and without type= (certificates) */
};

/* 0, or -EINVAL for a malformed URI. */
int ms_token_uri_parse(const char *uri, struct ms_token_uri *u);

/* True for "pkcs11:" key or certificate names. */
int ms_token_is_uri(const char *s);

/* The module to load: the URI's module-path, then --pkcs11-module, then
 * p11-kit's proxy, which reaches every module p11-kit has registered. */
const char *ms_token_module_for(const struct ms_token_uri *u, const char *opt);

struct ms_token_session;

/*
 * Load the module, find the token the URI names, log in with pin (when
 * the token wants a login), and check that an object of the given class
 * ("private" or "cert") matching the URI exists.  On failure *why names
 * the step: MS_KEY_P11_MODULE, _TOKEN, _NEED_PIN, _LOGIN, _LOCKED, _KEY or
 * _CERT.  *sess is reused when already open (the certificate after the
 * key), so the token is logged in once.
 */
int ms_token_open(struct ms_token_session **sess, const struct ms_token_uri *u,
		  const char *module, const char *pin, const char *what,
		  enum ms_key_problem *why);
void ms_token_close(struct ms_token_session *sess);

/*
 * For a signer that calls the token itself (pkcs11/direct.h): the
 * module's CK_FUNCTION_LIST_PTR, the token's slot, and the handle of the
 * private key the URI named.  -ENOENT when no key was looked up, -E2BIG
 * when the URI matched more than one: then the provider or engine, which
 * picked one by its own rules, stays the only signer.
 */
int ms_token_private_key(const struct ms_token_session *sess, void **functions,
			 unsigned long *slot, unsigned long *key);

/*
 * For the messages: after a lookup that found its token, that token as
 * "'label' (serial X)"; after one that found none, every initialised
 * token seen, comma-separated; "" when the module gave no token at all.
 */
#define MS_TOKEN_TOKENS_MAX 512
const char *ms_token_list(const struct ms_token_session *sess);

#endif
