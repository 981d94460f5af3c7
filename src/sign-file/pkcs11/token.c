// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <p11-kit/pkcs11.h>

#include "sign-file/pkcs11/token.h"

#ifndef MS_P11_KIT_PROXY
#define MS_P11_KIT_PROXY "p11-kit-proxy.so"
#endif

int ms_token_is_uri(const char *s)
{
	return s && strncasecmp(s, "pkcs11:", 7) == 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Percent-decode [s, s+n) into out (cap bytes); the result is also
 * NUL-terminated when room allows.  -EINVAL on bad escapes or overflow. */
static int pct_decode(const char *s, size_t n, unsigned char *out,
		      size_t cap, size_t *len)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= n)
				return -EINVAL;
			h = hexval(s[i + 1]);
			l = hexval(s[i + 2]);
			if (h < 0 || l < 0)
				return -EINVAL;
			c = h << 4 | l;
			i += 2;
		}
		if (o + 1 >= cap)
			return -EINVAL;
		out[o++] = (unsigned char)c;
	}
	out[o] = 0;
	*len = o;
	return 0;
}

static int set_attr(char *dst, int *has, const char *v, size_t n)
{
	size_t len;

	*has = 1;
	return pct_decode(v, n, (unsigned char *)dst, MS_TOKEN_ATTR_MAX, &len);
}

static int path_attr(struct ms_token_uri *u, const char *a, size_t n)
{
	const char *eq = memchr(a, '=', n);
	size_t kl, vl, len;
	const char *v;

	if (!eq)
		return -EINVAL;
	kl = (size_t)(eq - a);
	v = eq + 1;
	vl = n - kl - 1;
#define KEY(name) (kl == strlen(name) && strncmp(a, name, kl) == 0)
	if (KEY("token"))
		return set_attr(u->token, &u->has_token, v, vl);
	if (KEY("manufacturer"))
		return set_attr(u->manufacturer, &u->has_manufacturer, v, vl);
	if (KEY("serial"))
		return set_attr(u->serial, &u->has_serial, v, vl);
	if (KEY("model"))
		return set_attr(u->model, &u->has_model, v, vl);
	if (KEY("object"))
		return set_attr(u->object, &u->has_object, v, vl);
	if (KEY("id")) {
		u->has_id = 1;
		return pct_decode(v, vl, u->id, sizeof(u->id), &u->id_len);
	}
	if (KEY("type"))
		return pct_decode(v, vl, (unsigned char *)u->type,
				  sizeof(u->type), &len);
	/* query attributes (RFC 7512 section 2.3) that libp11 also reads
	 * in the path: a PIN there shows on the command line as one in
	 * the query does, and a module there would reach the provider or
	 * engine unchecked (its own error lines, not ours) */
	if (KEY("pin-value")) {
		u->has_pin_value = 1;
		return 0;
	}
	if (KEY("module-path")) {
		u->module_path_in_path = 1;
		return 0;
	}
#undef KEY
	/* library-*, slot-* and vendor attributes narrow nothing we check;
	 * the provider or engine still sees them. */
	return 0;
}

static int query_attr(struct ms_token_uri *u, const char *a, size_t n)
{
	const char *eq = memchr(a, '=', n);
	size_t kl, len;

	if (!eq)
		return -EINVAL;
	kl = (size_t)(eq - a);
	if (kl == 9 && strncmp(a, "pin-value", 9) == 0)
		u->has_pin_value = 1;
	else if (kl == 11 && strncmp(a, "module-path", 11) == 0)
		return pct_decode(eq + 1, n - kl - 1,
				  (unsigned char *)u->module_path,
				  sizeof(u->module_path), &len);
	return 0;
}

int ms_token_uri_parse(const char *uri, struct ms_token_uri *u)
{
	const char *p, *q, *end;
	size_t plen;
	int err;

	memset(u, 0, sizeof(*u));
	if (!ms_token_is_uri(uri))
		return -EINVAL;
	p = uri + 7;
	q = strchr(p, '?');
	end = q ? q : p + strlen(p);
	plen = (size_t)(end - uri);
	if (plen >= sizeof(u->path_only))
		return -EINVAL;
	memcpy(u->path_only, uri, plen);
	u->path_only[plen] = '\0';
	memcpy(u->path_notype, uri, 7);
	u->path_notype[7] = '\0';
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t n = semi ? (size_t)(semi - p) : (size_t)(end - p);

		if (n) {
			err = path_attr(u, p, n);
			if (err)
				return err;
			if (strncmp(p, "type=", 5) != 0) {
				size_t l = strlen(u->path_notype);

				snprintf(u->path_notype + l,
					 sizeof(u->path_notype) - l, "%s%.*s",
					 l > 7 ? ";" : "", (int)n, p);
			}
		}
		p += n + (semi ? 1 : 0);
	}
	if (!q)
		return 0;
	for (p = q + 1; *p;) {
		const char *amp = strchr(p, '&');
		size_t n = amp ? (size_t)(amp - p) : strlen(p);

		if (n) {
			err = query_attr(u, p, n);
			if (err)
				return err;
		}
		p += n + (amp ? 1 : 0);
	}
	return 0;
}

const char *ms_token_module_for(const struct ms_token_uri *u, const char *opt)
{
	if (u->module_path[0])
		return u->module_path;
	if (opt)
		return opt;
	return MS_P11_KIT_PROXY;
}

struct ms_token_session {
	void *dl;
	CK_FUNCTION_LIST_PTR f;
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	int initialized, open, logged_in;
	/* the private key the URI names, when it names exactly one */
	CK_OBJECT_HANDLE key;
	int key_count;		/* 0, 1, or 2 for "more than one" */
	/* what a failure names: the token searched, or those present */
	char tokens[MS_TOKEN_TOKENS_MAX];
};

/* A blank-padded CK_UTF8CHAR field equals a URI attribute. */
static int field_eq(const CK_UTF8CHAR *f, size_t flen, const char *want)
{
	size_t n = flen;

	while (n && f[n - 1] == ' ')
		n--;
	return strlen(want) == n && memcmp(f, want, n) == 0;
}

static int token_matches(const CK_TOKEN_INFO *ti, const struct ms_token_uri *u)
{
	if (!(ti->flags & CKF_TOKEN_INITIALIZED))
		return 0;
	if (u->has_token && !field_eq(ti->label, sizeof(ti->label), u->token))
		return 0;
	if (u->has_manufacturer &&
	    !field_eq(ti->manufacturerID, sizeof(ti->manufacturerID),
		      u->manufacturer))
		return 0;
	if (u->has_serial &&
	    !field_eq(ti->serialNumber, sizeof(ti->serialNumber), u->serial))
		return 0;
	if (u->has_model && !field_eq(ti->model, sizeof(ti->model), u->model))
		return 0;
	return 1;
}

static int load_module(struct ms_token_session *p, const char *module)
{
	CK_RV (*get_list)(CK_FUNCTION_LIST_PTR_PTR);
	CK_C_INITIALIZE_ARGS args;
	CK_RV rv;

	p->dl = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl)
		return -ENOENT;
	*(void **)&get_list = dlsym(p->dl, "C_GetFunctionList");
	if (!get_list || get_list(&p->f) != CKR_OK || !p->f)
		return -ENOPKG;
	/* Let the library use OS locking: the engine may call from its own
	 * code paths into the same instance. */
	memset(&args, 0, sizeof(args));
	args.flags = CKF_OS_LOCKING_OK;
	rv = p->f->C_Initialize(&args);
	if (rv != CKR_OK && rv != CKR_CRYPTOKI_ALREADY_INITIALIZED)
		return -ENOPKG;
	p->initialized = rv == CKR_OK;
	return 0;
}

/* Append "'label' (serial X)" of a token to p->tokens, comma-separated;
 * what runs over the room is left out with "...". */
static void name_token(struct ms_token_session *p, const CK_TOKEN_INFO *ti)
{
	size_t len = strlen(p->tokens), ll = sizeof(ti->label),
	       sl = sizeof(ti->serialNumber);
	char one[128];

	while (ll && ti->label[ll - 1] == ' ')
		ll--;
	while (sl && ti->serialNumber[sl - 1] == ' ')
		sl--;
	snprintf(one, sizeof(one), "%s'%.*s' (serial %.*s)", len ? ", " : "",
		 (int)ll, (const char *)ti->label, (int)sl,
		 (const char *)ti->serialNumber);
	if (len + strlen(one) + 4 < sizeof(p->tokens))
		memcpy(p->tokens + len, one, strlen(one) + 1);
	else if (len + 4 < sizeof(p->tokens) && !strstr(p->tokens, "..."))
		memcpy(p->tokens + len, "...", 4);
}

static int find_token(struct ms_token_session *p, const struct ms_token_uri *u,
		      CK_SLOT_ID *slot, CK_TOKEN_INFO *ti)
{
	CK_SLOT_ID *slots = NULL;
	CK_ULONG n = 0, i;
	int err = -ENODEV;

	if (p->f->C_GetSlotList(CK_TRUE, NULL, &n) != CKR_OK || n == 0)
		return -ENODEV;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	if (p->f->C_GetSlotList(CK_TRUE, slots, &n) != CKR_OK)
		goto out;
	for (i = 0; i < n; i++) {
		if (p->f->C_GetTokenInfo(slots[i], ti) != CKR_OK)
			continue;
		if (token_matches(ti, u)) {
			*slot = slots[i];
			err = 0;
			break;
		}
		/* none matched: the message lists those there are */
		if (ti->flags & CKF_TOKEN_INITIALIZED)
			name_token(p, ti);
	}
	/* one matched: the message names it (the first that matches is
	 * the one searched, token= or not) */
	if (!err) {
		p->tokens[0] = 0;
		name_token(p, ti);
	}
out:
	free(slots);
	return err;
}

/* Whether an object of class cls matches the URI; for a private key,
 * also which one, and whether it is the only one. */
static int find_object(struct ms_token_session *p, const struct ms_token_uri *u,
		       CK_OBJECT_CLASS cls)
{
	CK_ATTRIBUTE tmpl[3];
	CK_OBJECT_HANDLE h[2];
	CK_ULONG n = 0, count = 0;

	tmpl[n].type = CKA_CLASS;
	tmpl[n].pValue = &cls;
	tmpl[n++].ulValueLen = sizeof(cls);
	if (u->has_object) {
		tmpl[n].type = CKA_LABEL;
		tmpl[n].pValue = (void *)u->object;
		tmpl[n++].ulValueLen = strlen(u->object);
	}
	if (u->has_id) {
		tmpl[n].type = CKA_ID;
		tmpl[n].pValue = (void *)u->id;
		tmpl[n++].ulValueLen = u->id_len;
	}
	if (p->f->C_FindObjectsInit(p->s, tmpl, n) != CKR_OK)
		return -EIO;
	if (p->f->C_FindObjects(p->s, h, 2, &count) != CKR_OK)
		count = 0;
	p->f->C_FindObjectsFinal(p->s);
	if (cls == CKO_PRIVATE_KEY) {
		p->key = h[0];
		p->key_count = (int)count;
	}
	return count ? 0 : -ENOENT;
}

int ms_token_open(struct ms_token_session **sess, const struct ms_token_uri *u,
		  const char *module, const char *pin, const char *what,
		  enum ms_key_problem *why)
{
	int want_cert = strcmp(what, "cert") == 0;
	struct ms_token_session *p = *sess;
	CK_TOKEN_INFO ti;
	CK_SLOT_ID slot;
	CK_RV rv;

	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			*why = MS_KEY_UNREADABLE;
			return -ENOMEM;
		}
		*sess = p;
		if (load_module(p, module)) {
			*why = MS_KEY_P11_MODULE;
			return -ENOPKG;
		}
		if (find_token(p, u, &slot, &ti)) {
			*why = MS_KEY_P11_TOKEN;
			return -ENODEV;
		}
		p->slot = slot;
		if (p->f->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
					&p->s) != CKR_OK) {
			*why = MS_KEY_P11_TOKEN;
			return -EIO;
		}
		p->open = 1;
		if (ti.flags & CKF_LOGIN_REQUIRED) {
			if (!pin) {
				*why = MS_KEY_P11_NEED_PIN;
				return -EACCES;
			}
			/* One attempt: a wrong PIN retried locks tokens. */
			rv = p->f->C_Login(p->s, CKU_USER, (CK_UTF8CHAR_PTR)pin,
					   strlen(pin));
			if (rv == CKR_PIN_LOCKED) {
				*why = MS_KEY_P11_LOCKED;
				return -EACCES;
			}
			if (rv != CKR_OK && rv != CKR_USER_ALREADY_LOGGED_IN) {
				*why = MS_KEY_P11_LOGIN;
				return -EACCES;
			}
			p->logged_in = rv == CKR_OK;
		}
	}
	if (find_object(p, u, want_cert ? CKO_CERTIFICATE : CKO_PRIVATE_KEY)) {
		*why = want_cert ? MS_KEY_P11_CERT : MS_KEY_P11_KEY;
		return -ENOENT;
	}
	*why = MS_KEY_OK;
	return 0;
}

int ms_token_private_key(const struct ms_token_session *p, void **functions,
			 unsigned long *slot, unsigned long *key)
{
	if (!p || !p->open || p->key_count != 1)
		return p && p->key_count > 1 ? -E2BIG : -ENOENT;
	*functions = p->f;
	*slot = p->slot;
	*key = p->key;
	return 0;
}

const char *ms_token_list(const struct ms_token_session *p)
{
	return p ? p->tokens : "";
}

void ms_token_close(struct ms_token_session *p)
{
	if (!p)
		return;
	if (p->logged_in)
		p->f->C_Logout(p->s);
	if (p->open)
		p->f->C_CloseSession(p->s);
	if (p->initialized)
		p->f->C_Finalize(NULL);
	if (p->dl)
		dlclose(p->dl);
	free(p);
}
