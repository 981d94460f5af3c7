// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/ui.h>

#include "base/openssl_init.h"
#include "sign-file/pkcs11/load.h"
#include "sign-file/pkcs11/token.h"

struct ms_p11_load_token {
	struct ms_token_session *sess;	/* step-by-step checks, login */
	OSSL_PROVIDER *prov;		/* the provider that answered */
	struct ms_engine *eng;		/* or libp11's engine */
	char via[96];
};

void ms_p11_load_free(struct ms_p11_load_token *t)
{
	if (!t)
		return;
	ms_engine_close(t->eng);
	if (t->prov)
		OSSL_PROVIDER_unload(t->prov);
	ms_token_close(t->sess);
	free(t);
}

const char *ms_p11_load_searched(const struct ms_p11_load_token *t)
{
	return t ? ms_token_list(t->sess) : "";
}

const struct ms_token_session *ms_p11_load_session(const struct ms_p11_load_token *t)
{
	return t ? t->sess : NULL;
}

const char *ms_p11_load_via(const struct ms_p11_load_token *t)
{
	return t ? t->via : "file";
}

/*
 * Pick the route to the token once per run: a provider when one answers
 * (the one named by --provider, else "pkcs11", pkcs11-provider's name),
 * else the engine.  The defaults stay loaded (retain_fallbacks) so the
 * digests and the CMS code keep working, as in the kernel's sign-file,
 * which loads "pkcs11" and then "default".
 */
static int choose_route(struct ms_p11_load_token *t, const struct ms_key_opts *o,
			const char *module, int module_chosen,
			const char *pin, enum ms_key_problem *why)
{
	const char *name = o->provider ? o->provider : "pkcs11";
	int err;

	if (t->prov || t->eng)
		return 0;
	/* pkcs11-provider reads its module from the environment when no
	 * configuration names one; an explicit choice wins. */
	if (strcmp(name, "pkcs11") == 0)
		setenv("PKCS11_PROVIDER_MODULE", module, module_chosen);
	t->prov = OSSL_PROVIDER_try_load(NULL, name, 1);
	if (t->prov) {
		snprintf(t->via, sizeof(t->via), "provider %s",
			 OSSL_PROVIDER_get0_name(t->prov));
		return 0;
	}
	/* --provider pkcs11 names the default: it falls back to the
	 * engine as the default does (Debian 12 has no pkcs11-provider).
	 * Any other name is a provider the user wants, and nothing else
	 * stands in for it. */
	if (o->provider && strcmp(o->provider, "pkcs11") != 0) {
		*why = MS_KEY_P11_PROVIDER;
		return -ENOPKG;
	}
	ERR_clear_error();
	err = ms_engine_open(&t->eng, module, pin);
	if (err == -ENOPKG) {
		*why = MS_KEY_P11_UNAVAILABLE;
		return err;
	}
	if (err) {
		*why = MS_KEY_P11_LOAD;
		return err;
	}
	snprintf(t->via, sizeof(t->via), "engine pkcs11");
	return 0;
}

/* Everything up to "the object exists and the route is chosen". */
static int prepare(const char *uri, const struct ms_key_opts *o,
		   const char *pin, struct ms_p11_load_token **tok, const char *what,
		   struct ms_token_uri *u, enum ms_key_problem *why)
{
	const char *module;
	int err;

	/* its provider or engine ends before the module does */
	openssl_init_need_teardown();
	if (ms_token_uri_parse(uri, u)) {
		*why = MS_KEY_P11_URI;
		return -EINVAL;
	}
	if (u->has_pin_value) {
		*why = MS_KEY_P11_PIN_IN_URI;
		return -EINVAL;
	}
	if (u->module_path_in_path) {
		*why = MS_KEY_P11_MODULE_IN_PATH;
		return -EINVAL;
	}
	if (!*tok) {
		*tok = calloc(1, sizeof(**tok));
		if (!*tok) {
			*why = MS_KEY_UNREADABLE;
			return -ENOMEM;
		}
	}
	module = ms_token_module_for(u, o->p11_module);
	err = ms_token_open(&(*tok)->sess, u, module, pin, what, why);
	if (err)
		return err;
	return choose_route(*tok, o, module,
			    u->module_path[0] || o->p11_module, pin, why);
}

/*
 * A certificate as the store gives it keeps the store's property query
 * ("provider=pkcs11"), and X509_get0_pubkey() decodes its public key
 * with that query: pkcs11-provider has no decoder for a certificate's
 * SubjectPublicKeyInfo (1.0, Debian 13), so the key does not decode and
 * the certificate never matches the key.  A certificate is public data:
 * take it again from its DER, under no provider in particular.
 */
static X509 *plain_cert(const X509 *x)
{
	unsigned char *der = NULL;
	const unsigned char *p;
	X509 *plain = NULL;
	int len = x ? i2d_X509(x, &der) : 0;

	if (len > 0) {
		p = der;
		plain = d2i_X509(NULL, &p, len);
	}
	OPENSSL_free(der);
	return plain;
}

/* The first object of the wanted type from an OSSL_STORE URI. */
static void *store_load(const struct ms_p11_load_token *t, const char *uri,
			const char *pin, int type)
{
	struct ms_key_pin_state st = { .pin = pin };
	OSSL_STORE_CTX *ctx;
	OSSL_STORE_INFO *info;
	UI_METHOD *ui;
	char propq[128];
	void *obj = NULL;

	snprintf(propq, sizeof(propq), "provider=%s",
		 OSSL_PROVIDER_get0_name(t->prov));
	ui = UI_UTIL_wrap_read_pem_callback(ms_key_pin_cb, 0);
	if (!ui)
		return NULL;
	ctx = OSSL_STORE_open_ex(uri, NULL, propq, ui, &st, NULL, NULL, NULL);
	if (!ctx) {
		UI_destroy_method(ui);
		return NULL;
	}
	OSSL_STORE_expect(ctx, type);
	while (!obj && !OSSL_STORE_eof(ctx)) {
		info = OSSL_STORE_load(ctx);
		if (!info) {
			if (OSSL_STORE_error(ctx))
				break;
			continue;
		}
		if (OSSL_STORE_INFO_get_type(info) == type)
			obj = type == OSSL_STORE_INFO_PKEY ?
				(void *)OSSL_STORE_INFO_get1_PKEY(info) :
				(void *)plain_cert(
					OSSL_STORE_INFO_get0_CERT(info));
		OSSL_STORE_INFO_free(info);
	}
	OSSL_STORE_close(ctx);
	UI_destroy_method(ui);
	return obj;
}

/*
 * One object from the token: the private key (type=private in the URI)
 * or the certificate.  For the certificate the URI's type is dropped:
 * type=private would hide it, and the same URI may name both.
 */
static int load_object(const char *uri, const struct ms_key_opts *o,
		       const char *pin, struct ms_p11_load_token **tok, int type,
		       void **obj, enum ms_key_problem *why)
{
	bool is_key = type == OSSL_STORE_INFO_PKEY;
	struct ms_token_uri *u;
	int err;

	*obj = NULL;
	u = malloc(sizeof(*u));
	if (!u) {
		*why = MS_KEY_UNREADABLE;
		return -ENOMEM;
	}
	err = prepare(uri, o, pin, tok, is_key ? "private" : "cert", u, why);
	if (err)
		goto out;
	if ((*tok)->prov)
		*obj = store_load(*tok, is_key ? u->path_only : u->path_notype,
				  pin, type);
	else if (is_key) {
		EVP_PKEY *k = NULL;

		ms_engine_load_key((*tok)->eng, u->path_only, &k);
		*obj = k;
	} else {
		X509 *x = NULL;

		ms_engine_load_cert((*tok)->eng, u->path_notype, &x);
		*obj = x;
	}
	if (!*obj) {
		*why = MS_KEY_P11_LOAD;
		err = -ENOENT;
		goto out;
	}
	*why = MS_KEY_OK;
out:
	free(u);
	return err;
}

int ms_p11_load_key(const char *uri, const struct ms_key_opts *o,
		    const char *pin, struct ms_p11_load_token **tok, EVP_PKEY **key,
		    enum ms_key_problem *why)
{
	void *obj;
	int err = load_object(uri, o, pin, tok, OSSL_STORE_INFO_PKEY, &obj,
			      why);

	*key = obj;
	return err;
}

int ms_p11_load_cert(const char *uri, const struct ms_key_opts *o,
		     const char *pin, struct ms_p11_load_token **tok, X509 **cert,
		     enum ms_key_problem *why)
{
	void *obj;
	int err = load_object(uri, o, pin, tok, OSSL_STORE_INFO_CERT, &obj,
			      why);

	*cert = obj;
	return err;
}
