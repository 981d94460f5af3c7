// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pkcs12.h>

#include "base/infile.h"
#include "kernel/verify.h"
#include "trust/keyring_load.h"

/* A blacklist hash list is small; 64 MiB bounds a wrong file. */
#define BLACKLIST_FILE_MAX (64u << 20)

int keyring_load_kind_trusts(enum keyring_load_kind kind)
{
	return kind != KEYRING_LOAD_REVOKED && kind != KEYRING_LOAD_DBX &&
	       kind != KEYRING_LOAD_EFI_DBX && kind != KEYRING_LOAD_MOKX &&
	       kind != KEYRING_LOAD_SECONDARY;
}

static int is_dbx(enum keyring_load_kind kind)
{
	return kind == KEYRING_LOAD_DBX || kind == KEYRING_LOAD_EFI_DBX ||
	       kind == KEYRING_LOAD_MOKX;
}

static int is_efivar(enum keyring_load_kind kind)
{
	return kind == KEYRING_LOAD_EFI_DB || kind == KEYRING_LOAD_EFI_DBX ||
	       kind == KEYRING_LOAD_MOK || kind == KEYRING_LOAD_MOKX;
}

static enum trust_sources_esl_role role_of(const struct keyring_load_source *src)
{
	if (is_dbx(src->kind))
		return src->file == KEYRING_LOAD_FILE_HASHES_ONLY ? TRUST_SOURCES_ESL_DBX_HASHES :
							  TRUST_SOURCES_ESL_DBX;
	switch (src->file) {
	case KEYRING_LOAD_FILE_PLATFORM: return TRUST_SOURCES_ESL_PLATFORM;
	case KEYRING_LOAD_FILE_MACHINE_CA: return TRUST_SOURCES_ESL_MACHINE_CA;
	case KEYRING_LOAD_FILE_MACHINE_CA_MAX: return TRUST_SOURCES_ESL_MACHINE_CA_MAX;
	case KEYRING_LOAD_FILE_AS_KIND: case KEYRING_LOAD_FILE_HASHES_ONLY: break;
	}
	return src->kind == KEYRING_LOAD_EFI_DB ? TRUST_SOURCES_ESL_PLATFORM :
						 TRUST_SOURCES_ESL_TRUSTED;
}

/* The keys a source added, labelled with the keyring the model filed
 * them in (a key already labelled, refused by .machine, keeps its). */
static void label(const struct keyring *cs, size_t from,
		  const struct keyring_load_source *src)
{
	for (size_t i = from; src->keyring && i < cs->n; i++)
		if (!cs->certs[i]->keyring) {
			cs->certs[i]->keyring = src->keyring;
			cs->certs[i]->filed_why = src->why;
		}
}

static void report_skipped(const struct keyring *cs, size_t from,
			   const struct keyring_load_source *src,
			   void (*report)(void *, const struct keyring_load_report *),
			   void *ctx)
{
	for (size_t i = from; i < cs->n_skipped; i++) {
		struct keyring_load_report r = { .event = KEYRING_LOAD_SKIPPED, .src = src,
				       .path = cs->skipped[i].path,
				       .skipped = &cs->skipped[i] };

		report(ctx, &r);
	}
}

/* A kernel image or a signature list: the sources with a trust_sources_note. */
static int load_container(const struct keyring_load_source *src,
			  const struct trust_sources_stores *st,
			  void (*report)(void *, const struct keyring_load_report *),
			  void *ctx, struct keyring_load_failure *fail)
{
	enum trust_sources_esl_role role = role_of(src);
	const char *path = is_efivar(src->kind) && !src->path ?
		trust_sources_efivar(role, src->kind == KEYRING_LOAD_MOK) : src->path;
	size_t t0 = st->trusted->n, p0 = st->platform->n;
	struct keyring_load_report r = { .src = src, .path = path };
	int err;

	memset(&fail->note, 0, sizeof(fail->note));
	fail->src = src;
	fail->path = path;
	if (src->kind == KEYRING_LOAD_VMLINUX) {
		err = trust_sources_add_vmlinux(st, path, &fail->note);
		r.event = KEYRING_LOAD_IMAGE_DONE;
	} else {
		err = trust_sources_add_esl(st, path, is_efivar(src->kind) && !src->raw,
					    role, &fail->note);
		r.event = KEYRING_LOAD_LIST_DONE;
		if (err == -ENOENT && is_efivar(src->kind)) {
			r.event = KEYRING_LOAD_EFIVAR_ABSENT;
			err = 0;
		}
	}
	if (err)
		return err;
	label(st->trusted, t0, src);
	if (role != TRUST_SOURCES_ESL_TRUSTED)
		label(st->platform, p0, src);
	r.note = &fail->note;
	report(ctx, &r);
	return 0;
}

/*
 * A PKCS#12 file named as a certificate: the kernel's loaders read X.509
 * only, so its certificate would be left out and every module signed with
 * it would fail as -ENOKEY with no hint why.  Said up front instead.
 */
static int is_pkcs12(const char *path)
{
	const unsigned char *p;
	PKCS12 *p12;
	uint8_t *buf;
	size_t len;
	int yes;

	if (infile_read_all(path, 64u << 20, &buf, &len))
		return 0;
	p = buf;
	p12 = d2i_PKCS12(NULL, &p, (long)len);
	yes = p12 && p == buf + len;
	PKCS12_free(p12);
	free(buf);
	ERR_clear_error();
	return yes;
}

/* -k DIR, -c FILE, --revoked FILE */
static int load_certs(const struct keyring_load_source *src, const struct trust_sources_stores *st,
		      void (*report)(void *, const struct keyring_load_report *),
		      void *ctx, struct keyring_load_failure *fail)
{
	struct keyring *cs = src->kind == KEYRING_LOAD_REVOKED ? st->revoked
						       : st->trusted;
	size_t skip0 = cs->n_skipped, n0 = cs->n, dup0 = cs->n_dup;
	struct keyring_load_report r = { .event = KEYRING_LOAD_DIR_DONE, .src = src,
			       .path = src->path };
	int err;

	fail->src = src;
	fail->path = src->path;
	memset(&fail->note, 0, sizeof(fail->note));
	if (src->kind != KEYRING_LOAD_DIR && is_pkcs12(src->path)) {
		fail->note.why = "a PKCS#12 file, which the kernel cannot "
				 "load (take its certificate out: openssl pkcs12 "
				 "-nokeys -clcerts -in FILE -out cert.pem)";
		return -EINVAL;
	}
	if (src->kind == KEYRING_LOAD_DIR)
		err = keyring_add_dir(cs, src->path, st->kr, st->bl);
	else
		err = keyring_add_file(cs, src->path, st->kr, st->bl);
	if (err)
		return err;
	report_skipped(cs, skip0, src, report, ctx);
	if (src->kind != KEYRING_LOAD_DIR)
		return 0;
	for (size_t i = skip0; i < cs->n_skipped; i++) {
		if (cs->skipped[i].index)
			r.left_out++;
		else
			r.empty_files++;
	}
	r.loaded = cs->n - n0;
	r.repeats = cs->n_dup - dup0;
	report(ctx, &r);
	return 0;
}

int keyring_load(const struct keyring_load_source *srcs, size_t n,
		 const struct trust_sources_stores *st,
		 void (*report)(void *ctx, const struct keyring_load_report *r), void *ctx,
		 struct keyring_load_failure *fail)
{
	int err;

	/* dbx-style lists first, then the other containers, then files */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct keyring_load_source *src = &srcs[i];
			int container = src->kind != KEYRING_LOAD_DIR &&
					src->kind != KEYRING_LOAD_CERT &&
					src->kind != KEYRING_LOAD_REVOKED;
			int want = pass == 0 ? container && is_dbx(src->kind) :
				   pass == 1 ? container && !is_dbx(src->kind) :
				   !container;
			size_t bt = st->trusted->n_skipped;
			size_t bp = st->platform->n_skipped;
			size_t br = st->revoked->n_skipped;

			if (!want || src->kind == KEYRING_LOAD_SECONDARY)
				continue;
			if (!container) {
				err = load_certs(src, st, report, ctx, fail);
				if (err)
					return err;
				continue;
			}
			err = load_container(src, st, report, ctx, fail);
			if (err)
				return err;
			report_skipped(st->trusted, bt, src, report, ctx);
			report_skipped(st->platform, bp, src, report, ctx);
			report_skipped(st->revoked, br, src, report, ctx);
		}
	}
	return 0;
}

int keyring_load_blacklist(const char *path, struct blacklist *bl, int *line)
{
	uint8_t *buf;
	size_t len;
	int err;

	*line = 0;
	err = infile_read_all(path, BLACKLIST_FILE_MAX, &buf, &len);
	if (err)
		return err;
	err = blacklist_load(bl, (const char *)buf, len, line);
	free(buf);
	return err ? -EINVAL : 0;
}

/*
 * --secondary FILE: each certificate of FILE into st->trusted, filed
 * in .secondary_trusted_keys, only when a key already trusted signed it
 * (verify_restrict_by_signature(); builtin_only: one of the image's, the
 * keys labelled .builtin_trusted_keys, or with no label any -k, -c or
 * --vmlinux key).  A certificate accepted vouches for the next ones.
 * Each refusal is reported; -errno only when FILE cannot be read
 * (-ENODATA: no certificate in it).
 */
static int add_secondary(const struct trust_sources_stores *st, const char *path,
			    bool builtin_only,
			    void (*refused)(void *ctx,
					    const struct keyring_load_refusal *r),
			    void *ctx)
{
	struct keyring in = { 0 };
	struct keyring_load_refusal r = { .path = path };
	int err;

	err = keyring_add_file(&in, path, st->kr, st->bl);
	if (err)
		goto out;
	for (size_t i = 0; i < in.n_skipped; i++) {
		/* x509_key_preparse() refused it before any restriction */
		r.index = in.skipped[i].index;
		r.err = in.skipped[i].err;
		r.why = in.skipped[i].why ? in.skipped[i].why :
			"the kernel cannot parse it";
		refused(ctx, &r);
	}
	for (size_t i = 0; i < in.n; i++) {
		const struct x509k_cert *c = in.certs[i];
		size_t n0 = st->trusted->n;

		r.index = (int)i + 1;
		r.why = NULL;
		r.err = verify_restrict_by_signature(st->kr, st->trusted, c,
						 builtin_only, &r.why);
		if (r.err == -ENOMEM) {
			err = r.err;
			goto out;
		}
		if (r.err) {
			refused(ctx, &r);
			continue;
		}
		err = keyring_add_der(st->trusted, path, r.index, c->der,
				 c->der_len, st->kr, st->bl);
		if (err)
			goto out;
		if (st->trusted->n > n0) {
			struct x509k_cert *k = st->trusted->certs[n0];

			k->keyring = ".secondary_trusted_keys";
			k->filed_why = "--secondary, signed by a trusted key";
		}
	}
out:
	keyring_free(&in);
	return err;
}

int keyring_load_add_secondaries(const struct keyring_load_source *srcs, size_t n,
				 const struct trust_sources_stores *st, bool have,
				 bool builtin_only,
				 void (*refused)(void *ctx, const struct keyring_load_refusal *r),
				 void *ctx, struct keyring_load_failure *fail)
{
	for (size_t i = 0; i < n; i++) {
		struct keyring_load_refusal r = { .path = srcs[i].path };
		int err;

		if (srcs[i].kind != KEYRING_LOAD_SECONDARY)
			continue;
		if (!have) {
			r.why = "the kernel has no .secondary_trusted_keys "
				"(CONFIG_SECONDARY_TRUSTED_KEYRING is not set)";
			refused(ctx, &r);
			continue;
		}
		err = add_secondary(st, srcs[i].path, builtin_only,
				       refused, ctx);
		if (err) {
			memset(fail, 0, sizeof(*fail));
			fail->src = &srcs[i];
			fail->path = srcs[i].path;
			return err;
		}
	}
	return 0;
}
