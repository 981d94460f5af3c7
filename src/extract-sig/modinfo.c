// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pkcs7.h>

#include "base/format.h"
#include "extract-sig/modinfo.h"
#include "module/sig_describe.h"
#include "module/trailer.h"

struct kmod_sig {
	const char *id_type;
	const uint8_t *signer;
	size_t signer_len;
	const uint8_t *key_id;
	size_t key_id_len;
	const char *hash_algo;
	const uint8_t *sig;
	size_t sig_len;
	/* storage for the PKCS#7 case */
	uint8_t *key_buf;
	char *signer_buf;
	uint8_t *sig_buf;
	char *hash_buf;
};

/* libkmod-signature.c: enum pkey_hash_algo, in order */
static const char *const kmod_hash_names[] = {
	"md4", "md5", "sha1", "rmd160", "sha256",
	"sha384", "sha512", "sha224", "sm3",
};

/*
 * kmod up to 31 (Debian 12 has 30) maps the digest OID onto its own
 * pkey_hash_algo table (libkmod-signature.c, obj_to_hash_algo()) and
 * shows no signature fields at all for any other digest, SHA-3 included.
 * kmod 32 dropped the table: fill_pkcs7() prints OBJ_obj2txt()'s name of
 * any digest ("sha3-256", "ripemd160"; a dotted OID when OpenSSL has no
 * name), as Debian 13's kmod 34 does.
 */
static const char *kmod30_hash_name(int nid)
{
	switch (nid) {
	case NID_md4: return kmod_hash_names[0];
	case NID_md5: return kmod_hash_names[1];
	case NID_sha1: return kmod_hash_names[2];
	case NID_ripemd160: return kmod_hash_names[3];
	case NID_sha256: return kmod_hash_names[4];
	case NID_sha384: return kmod_hash_names[5];
	case NID_sha512: return kmod_hash_names[6];
	case NID_sha224: return kmod_hash_names[7];
	case NID_sm3: return kmod_hash_names[8];
	}
	return NULL;
}

/*
 * We print what the modinfo of the machine we run on prints, so ask its
 * libkmod which kmod it is.  libkmod exports no version; the first
 * symbol version after the change is LIBKMOD_33 (kmod 33's
 * kmod_module_get_weakdeps), so kmod 32, the one release between, is
 * taken for the older kind.  Without libkmod there is no modinfo to
 * match: today's kmod it is.
 */
static bool kmod_names_any_digest(void)
{
	static int known = -1;
	void *h;

	if (known < 0) {
		h = dlopen("libkmod.so.2", RTLD_LAZY | RTLD_LOCAL);
		known = !h || dlsym(h, "kmod_module_get_weakdeps");
		if (h)
			dlclose(h);
	}
	return known;
}

/* The OpenSSL path of kmod's fill_pkcs7(): d2i_PKCS7, first SignerInfo,
 * issuer CN as signer, serial magnitude as key, digest long name. */
static int fill_pkcs7(struct kmod_sig *k, const uint8_t *sig, size_t len)
{
	const unsigned char *p = sig;
	STACK_OF(PKCS7_SIGNER_INFO) *sis;
	PKCS7_SIGNER_INFO *si;
	X509_ALGOR *dig;
	X509_NAME *issuer;
	X509_NAME_ENTRY *e = NULL;
	const ASN1_STRING *v;
	BIGNUM *bn;
	PKCS7 *p7;
	int err = -ENODATA, n;

	p7 = d2i_PKCS7(NULL, &p, (long)len);
	if (!p7)
		goto out;
	sis = PKCS7_get_signer_info(p7);
	si = sis ? sk_PKCS7_SIGNER_INFO_value(sis, 0) : NULL;
	if (!si || !si->issuer_and_serial || !si->enc_digest)
		goto out;
	PKCS7_SIGNER_INFO_get0_algs(si, NULL, &dig, NULL);
	if (kmod_names_any_digest()) {
		n = OBJ_obj2txt(NULL, 0, dig->algorithm, 0);
		if (n < 0 || !(k->hash_buf = malloc((size_t)n + 1)))
			goto out;
		OBJ_obj2txt(k->hash_buf, n + 1, dig->algorithm, 0);
		k->hash_algo = k->hash_buf;
	} else {
		k->hash_algo = kmod30_hash_name(OBJ_obj2nid(dig->algorithm));
	}
	if (!k->hash_algo)
		goto out;
	k->sig = si->enc_digest->data;
	k->sig_len = (size_t)si->enc_digest->length;

	bn = ASN1_INTEGER_to_BN(si->issuer_and_serial->serial, NULL);
	if (!bn)
		goto out;
	k->key_buf = malloc((size_t)BN_num_bytes(bn) + 1);
	if (k->key_buf)
		k->key_id_len = (size_t)BN_bn2bin(bn, k->key_buf);
	k->key_id = k->key_buf;
	BN_free(bn);

	issuer = si->issuer_and_serial->issuer;
	n = X509_NAME_entry_count(issuer);
	for (int i = 0; i < n; i++) {
		e = X509_NAME_get_entry(issuer, i);
		if (OBJ_obj2nid(X509_NAME_ENTRY_get_object(e)) ==
		    NID_commonName)
			break;
	}
	if (e) {
		v = X509_NAME_ENTRY_get_data(e);
		k->signer_buf = strndup((const char *)ASN1_STRING_get0_data(v),
					(size_t)ASN1_STRING_length(v));
		k->signer = (const uint8_t *)k->signer_buf;
		k->signer_len = k->signer_buf ? strlen(k->signer_buf) : 0;
	}
	k->id_type = "PKCS#7";
	err = 0;
	/* enc_digest and friends live in p7: keep copies before freeing */
	k->sig_buf = malloc(k->sig_len ? k->sig_len : 1);
	if (k->sig_buf)
		memcpy(k->sig_buf, si->enc_digest->data, k->sig_len);
	else
		err = -ENOMEM;
	k->sig = k->sig_buf;
out:
	PKCS7_free(p7);
	ERR_clear_error();
	return err;
}

/* kmod_module_signature_info(): the checks kmod makes, which are not the
 * kernel's (it does not insist on zero fields). */
static int kmod_sig_info(const uint8_t *buf, size_t len, struct kmod_sig *k)
{
	struct trailer_desc d;
	size_t size, need;

	if (len < TRAILER_MAGIC_LEN ||
	    memcmp(buf + len - TRAILER_MAGIC_LEN, TRAILER_MAGIC, TRAILER_MAGIC_LEN))
		return -ENODATA;
	size = len - TRAILER_MAGIC_LEN;
	if (size < TRAILER_DESC_LEN)
		return -ENODATA;
	d.algo = buf[size - 12];
	d.hash = buf[size - 11];
	d.id_type = buf[size - 10];
	d.signer_len = buf[size - 9];
	d.key_id_len = buf[size - 8];
	d.sig_len = (uint32_t)buf[size - 4] << 24 |
		    (uint32_t)buf[size - 3] << 16 |
		    (uint32_t)buf[size - 2] << 8 | buf[size - 1];
	if (d.algo >= 2 || d.hash >= 9 || d.id_type >= 3)
		return -ENODATA;
	size -= TRAILER_DESC_LEN;
	need = (size_t)d.sig_len + d.signer_len + d.key_id_len;
	if (d.sig_len == 0 || size < need)
		return -ENODATA;
	if (d.id_type == TRAILER_ID_PKCS7)
		return fill_pkcs7(k, buf + size - d.sig_len, d.sig_len);

	/* fill_default(): the legacy layout */
	k->sig = buf + size - d.sig_len;
	k->sig_len = d.sig_len;
	k->key_id = k->sig - d.key_id_len;
	k->key_id_len = d.key_id_len;
	k->signer = k->key_id - d.signer_len;
	/* kmod keeps each value as a C string (libkmod-module.c,
	 * kmod_module_info_new()): a NUL in the name ends it */
	k->signer_len = strnlen((const char *)k->signer, d.signer_len);
	k->hash_algo = kmod_hash_names[d.hash];
	k->id_type = sig_describe_id_type_name(d.id_type);
	return 0;
}

static void print_field(FILE *f, const struct kmod_sig *k, int which)
{
	switch (which) {
	case 0:
		fputs(k->id_type, f);
		break;
	case 1:
		/* an issuer without entries leaves no signer at all */
		if (k->signer_len)
			fwrite(k->signer, 1, k->signer_len, f);
		break;
	case 2:
		format_hex_kmod(f, k->key_id, k->key_id_len);
		break;
	case 3:
		fputs(k->hash_algo, f);
		break;
	case 4:
		format_hex_kmod(f, k->sig, k->sig_len);
		break;
	}
}

int modinfo_print(FILE *f, const uint8_t *buf, size_t len,
		     const char *field)
{
	static const char *const names[] = {
		"sig_id", "signer", "sig_key", "sig_hashalgo", "signature",
	};
	struct kmod_sig k = { 0 };
	int only = -1, err;

	if (field) {
		for (int i = 0; i < 5; i++)
			if (!strcmp(field, names[i]))
				only = i;
		if (only < 0)
			return -EINVAL;
	}
	err = kmod_sig_info(buf, len, &k);
	if (!err) {
		for (int i = 0; i < 5; i++) {
			if (only >= 0 && i != only)
				continue;
			/* modinfo: printf("%s:%-*s%s\n", key, 15 - keylen, "") */
			if (only < 0)
				fprintf(f, "%s:%-*s", names[i],
					15 - (int)strlen(names[i]), "");
			print_field(f, &k, i);
			fputc('\n', f);
		}
	}
	free(k.key_buf);
	free(k.signer_buf);
	free(k.sig_buf);
	free(k.hash_buf);
	return err;
}
