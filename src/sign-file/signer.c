// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signer set: the digest, the key/certificate pairs (files, PKCS#12 or
 * pkcs11: URIs), or the CMS or value of -s and --attach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/opensslv.h>

#include "base/digest.h"
#include "base/infile.h"
#include "sign-file/cms.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

/* The kernel's ASN.1 decoder stops at 64 KiB (lib/asn1_decoder.c,
 * asn1_ber_decoder()); leave room above it
 * so that an oversized -s blob is reported by the CMS check, not here. */
#define RAW_SIG_MAX (1u << 20)

int ms_signer_fail(struct ms_signer_failure *f, enum ms_signer_stage stage, const char *path,
		   const char *reason, int err)
{
	f->stage = stage;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->reason = reason;
	return err;
}

int ms_signer_init(struct ms_signer *s, const char *hash, int use_keyid,
		   struct ms_signer_failure *fail)
{
	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->use_keyid = use_keyid;
	s->md = digest_by_name(hash);
	if (!s->md)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_HASH, hash, NULL, -EINVAL);
	/*
	 * The name is resolved as the kernel tool resolves it (aliases
	 * included), then the implementation fetched once: a digest found
	 * by name is fetched again from the provider at every DigestInit
	 * and EVP_PKEY_CTX_set_signature_md, under the method store's lock,
	 * which batch mode would pay per module on every CPU.
	 */
	s->md_fetched = EVP_MD_fetch(NULL, EVP_MD_get0_name(s->md), NULL);
	if (s->md_fetched)
		s->md = s->md_fetched;
	ERR_clear_error();
	return 0;
}

/*
 * A key this OpenSSL could not load may be an ML-DSA key that a build
 * against OpenSSL 3.5 signs with: say so (MS_SIGNER_STAGE_NOALG, -ENOSYS)
 * rather than "no private key found".
 */
static int no_mldsa(struct ms_signer_failure *f, const char *key, const char *cert)
{
	int set;

	if (f->key == MS_KEY_UNREADABLE || f->key == MS_KEY_PIN_UNREADABLE ||
	    ms_key_mldsa_signing())
		return 0;
	set = ms_key_mldsa_named(key, cert);
	if (!set)
		return 0;
	snprintf(f->text, sizeof(f->text), "ML-DSA-%d key: this sign-file "
		 "is built with OpenSSL %s, which cannot sign with ML-DSA "
		 "(a build against OpenSSL 3.5 or later can)", set,
		 OPENSSL_VERSION_STR);
	ms_signer_fail(f, MS_SIGNER_STAGE_NOALG, key, f->text, -ENOSYS);
	return 1;
}

/*
 * A pkcs11: URI with pin-value= is refused (keys.c), but its refusal
 * named the URI, and so put the PIN into logs: the name is shown with
 * the value replaced.
 */
static void redact_pin(char *path, size_t size)
{
	char *v = strstr(path, "pin-value=");
	char *end;

	if (!v || strncmp(path, "pkcs11:", 7) != 0)
		return;
	v += strlen("pin-value=");
	/* the value ends at the next attribute, in the query or the path */
	end = v + strcspn(v, "&;?");
	if (strlen(path) - (size_t)(end - v) + 3 >= size)
		return;
	memmove(v + 3, end, strlen(end) + 1);
	memcpy(v, "***", 3);
}

/*
 * Which token a PKCS#11 lookup searched (or, when none matched, which
 * it saw): a URI without token= takes the first initialised token, and
 * "not found on the token" did not say which one that was.
 */
static void name_tokens(struct ms_signer_failure *f, const struct ms_p11_load_token *tok)
{
	const char *t = ms_p11_load_searched(tok);

	if (f->key != MS_KEY_P11_KEY && f->key != MS_KEY_P11_CERT &&
	    f->key != MS_KEY_P11_TOKEN)
		return;
	if (f->key == MS_KEY_P11_TOKEN)
		snprintf(f->text, sizeof(f->text), "%s; tokens present: %s",
			 ms_key_problem_str(f->key), t[0] ? t : "none");
	else
		snprintf(f->text, sizeof(f->text), "%s; searched token %s "
			 "(token= in the URI picks another)",
			 ms_key_problem_str(f->key), t);
	f->reason = f->text;
}

int ms_signer_add(struct ms_signer *s, const char *key, const char *cert,
		  const struct ms_key_opts *o, struct ms_signer_failure *fail)
{
	struct ms_p11_load_token **tok = &s->toks[s->n];
	X509 *bundled = NULL;
	int i = s->n, err;

	memset(fail, 0, sizeof(*fail));
	if (s->n >= MS_SIGNER_MAX)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_KEY, key, "too many signers",
				      -E2BIG);
	s->n++;
	err = ms_key_load_private(key, o, tok, &s->keys[i], &bundled,
				  &fail->key);
	fail->token = *tok != NULL;
	if (err) {
		X509_free(bundled);
		if (no_mldsa(fail, key, cert))
			return -ENOSYS;
		ms_signer_fail(fail, MS_SIGNER_STAGE_KEY, key, NULL, err);
		redact_pin(fail->path, sizeof(fail->path));
		name_tokens(fail, *tok);
		return err;
	}
	if (bundled && strcmp(key, cert) == 0) {
		s->certs[i] = bundled;
	} else {
		X509_free(bundled);
		err = ms_key_load_cert_spec(cert, o, tok, &s->certs[i],
					    &fail->key);
		if (err) {
			ms_signer_fail(fail, MS_SIGNER_STAGE_CERT, cert, NULL, err);
			redact_pin(fail->path, sizeof(fail->path));
			name_tokens(fail, *tok);
			return err;
		}
	}
	/* Refuse before writing anything: a mismatched pair makes a module
	 * the kernel rejects, found only at load time. */
	if (ms_key_matches_cert(s->keys[i], s->certs[i])) {
		fail->key = MS_KEY_MISMATCH;
		return ms_signer_fail(fail, MS_SIGNER_STAGE_MATCH, key, NULL, -EKEYREJECTED);
	}
	return 0;
}

int ms_signer_load_raw(struct ms_signer *s, const char *raw,
		       const char *cert, struct ms_signer_failure *fail)
{
	int err;

	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->raw_path = raw;
	err = infile_read_all(raw, RAW_SIG_MAX, &s->raw_sig, &s->raw_sig_len);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_RAWSIG, raw, NULL, err);
	err = ms_key_load_cert(cert, &s->certs[0], &fail->key);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_CERT, cert, NULL, err);
	return 0;
}

int ms_signer_load_attach(struct ms_signer *s, const char *hash,
			  const char *raw, const char *cert, int use_keyid,
			  const struct ms_key_opts *o, struct ms_signer_failure *fail)
{
	int err = ms_signer_init(s, hash, use_keyid, fail);

	if (err)
		return err;
	s->raw_path = raw;
	err = infile_read_all(raw, RAW_SIG_MAX, &s->raw_sig, &s->raw_sig_len);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_RAWSIG, raw, NULL, err);
	s->raw_is_value = !ms_cms_is(s->raw_sig, s->raw_sig_len);
	err = ms_key_load_cert_spec(cert, o, &s->toks[0], &s->certs[0],
				    &fail->key);
	if (err)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_CERT, cert, NULL, err);
	return 0;
}

void ms_signer_free(struct ms_signer *s)
{
	/* Keys before the tokens: a token key needs its engine or
	 * provider until it is freed. */
	for (int i = 0; i < MS_SIGNER_MAX; i++) {
		EVP_PKEY_free(s->keys[i]);
		X509_free(s->certs[i]);
		ms_p11_load_free(s->toks[i]);
	}
	free(s->raw_sig);
	EVP_MD_free(s->md_fetched);
	memset(s, 0, sizeof(*s));
}
