// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What may be signed, and where: the already-signed policy (refuse, skip
 * what these certificates signed, or strip for --replace), the body a
 * kernel would load, and a <dest> that holds another module.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "base/treewalk.h"
#include "module/elf_check.h"
#include "module/module_file.h"
#include "module/sig_describe.h"
#include "module/trailer.h"
#include "sign-file/signer.h"
#include "sign-file/signer_steps.h"

/* Body length once every appended trailer is peeled off (--replace). */
static int strip_trailers(const uint8_t *buf, size_t len, size_t *body_len)
{
	struct trailer t;
	const char *why;

	while (trailer_has_magic(buf, len)) {
		int err = trailer_split(buf, len, &t, &why);

		if (err)
			return err;
		len = t.body_len;
	}
	*body_len = len;
	return 0;
}

/* Hex of up to the first 8 bytes, ".." after when there are more. */
static void short_hex(char *out, size_t size, const uint8_t *p, size_t n)
{
	size_t k = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && i < 8 && k + 3 < size; i++)
		k += (size_t)snprintf(out + k, size - k, "%02x", p[i]);
	if (n > 8 && k + 3 <= size)
		snprintf(out + k, size - k, "..");
}

/*
 * --skip-signed leaves alone what these certificates signed: the last
 * signature (the one the kernel checks, kernel/module/signing.c:
 * mod_verify_sig()) has, for every certificate of this run, a SignerInfo
 * naming it by issuer and serial number or by subjectKeyIdentifier, the
 * way the kernel finds the key (crypto/asymmetric_keys/pkcs7_verify.c:
 * pkcs7_find_key()).  Anything else (a module signed by the
 * distribution's key before a key rotation) is named and refused: only
 * --replace re-signs it.  Without a certificate (--digest-only) any
 * signature counts.
 */
static int signed_by_us(const struct ms_signer *s, const uint8_t *buf,
			size_t len, const struct ms_signer_req *r,
			struct ms_signer_failure *fail)
{
	static const char ours[] = "this run's certificate";
	int n = s->n ? s->n : (s->certs[0] != NULL), all = 1;
	struct sig_describe d;
	const struct sig_describe_signer *sd;
	char id[24] = "";

	if (!n)
		return 0;
	for (int k = 0; k < n && all; k++) {
		int found = 0;

		if (sig_describe_fill(&d, buf, len, s->certs[k], ours) == 0)
			for (int i = 0; i < d.n_signers &&
			     i < SIG_DESCRIBE_MAX_SIGNERS; i++)
				found |= d.s[i].cert_from == ours;
		all = found;
		if (!all)
			break;
		sig_describe_free(&d);
	}
	if (all)
		return 0;
	/* d is the description that lacked certificate k: name its first
	 * signer, as the kernel logs a key ("<signer>: <key id>") */
	sd = d.cms_ok && d.n_signers ? &d.s[0] : NULL;
	if (sd && sd->by_skid)
		short_hex(id, sizeof(id), sd->skid, sd->skid_len);
	else if (sd)
		short_hex(id, sizeof(id), sd->serial, sd->serial_len);
	if (sd && sd->by_skid)
		/* a SignerInfo by SKID carries no name */
		snprintf(fail->text, sizeof(fail->text), "already signed by "
			 "the key with subjectKeyIdentifier %s, not by this "
			 "certificate: use --replace to sign it again", id);
	else if (sd)
		snprintf(fail->text, sizeof(fail->text), "already signed by "
			 "'%s' (serial %s), not by this certificate: use "
			 "--replace to sign it again", sd->issuer_cn ?
			 sd->issuer_cn : "?", id);
	else
		snprintf(fail->text, sizeof(fail->text), "already signed, "
			 "with a signature whose signer cannot be read (not "
			 "a CMS made by this certificate): use --replace to "
			 "sign it again");
	sig_describe_free(&d);
	return ms_signer_fail(fail, MS_SIGNER_STAGE_OTHER_SIGNER, r->module, fail->text,
			      -EEXIST);
}

/*
 * The already-signed policy, the same for signing and --digest-only:
 * refuse (-EEXIST), skip (*skipped) what these certificates signed, or
 * strip every trailer (--replace).
 */
static int apply_signed_policy(const struct ms_signer *s, const uint8_t *buf,
			       size_t len, const struct ms_signer_req *r,
			       size_t *body_len, int *skipped,
			       struct ms_signer_failure *fail)
{
	struct trailer t;
	const char *why;
	int err;

	if (!trailer_has_magic(buf, len))
		return 0;
	switch (r->signed_policy) {
	case MS_SIGNER_SIGNED_SKIP:
		/* A trailer the kernel refuses before it reads the CMS
		 * (kernel/module_signature.c, mod_check_sig()) is no
		 * signature to keep: the module would not load. */
		err = trailer_check(buf, len, &t, &why);
		if (err) {
			snprintf(fail->text, sizeof(fail->text), "signature "
				 "trailer the kernel refuses (%s): use "
				 "--replace to sign it again", why);
			return ms_signer_fail(fail, MS_SIGNER_STAGE_TRAILER, r->module,
					      fail->text, err);
		}
		err = signed_by_us(s, buf, len, r, fail);
		if (err)
			return err;
		*skipped = 1;
		return 0;
	case MS_SIGNER_SIGNED_REPLACE:
		err = strip_trailers(buf, len, body_len);
		if (err)
			return ms_signer_fail(fail, MS_SIGNER_STAGE_TRAILER, r->module,
					      "existing signature trailer is "
					      "malformed; cannot strip it", err);
		return 0;
	case MS_SIGNER_SIGNED_REFUSE:
		break;
	}
	return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGNED, r->module, NULL, -EEXIST);
}

/* Bytes compared a chunk at a time, read through infile_map_read so that a
 * mapped file never faults (base/infile.h). */
#define CMP_CHUNK ((size_t)64 << 10)

static int same_bytes(const uint8_t *a, const uint8_t *b, size_t len)
{
	uint8_t *x = malloc(2 * CMP_CHUNK), *y = x + CMP_CHUNK;
	int same = 1;

	if (!x)
		return 0;
	for (size_t off = 0; same && off < len; off += CMP_CHUNK) {
		size_t n = len - off < CMP_CHUNK ? len - off : CMP_CHUNK;

		if (infile_map_read(x, a + off, n) || infile_map_read(y, b + off, n))
			same = 0;
		else
			same = memcmp(x, y, n) == 0;
	}
	free(x);
	return same;
}

/* An ELF file starts with its identification (elf.h: ELFMAG). */
static int is_elf(const uint8_t *buf, size_t len)
{
	uint8_t id[4];

	return len >= sizeof(id) && !infile_map_read(id, buf, sizeof(id)) &&
	       memcmp(id, "\177ELF", sizeof(id)) == 0;
}

/*
 * The kernel tool writes <dest> whatever it holds, so "sign-file sha256
 * key cert dir/ *.ko" (a glob matching two) replaces the second
 * with a signed copy of the first.  An existing <dest> that is a kernel
 * module (ELF, or anything carrying a signature trailer) is overwritten
 * only when it is this module (signed or not): the same body once every
 * trailer is peeled off.  A <dest> that cannot be read is left to the
 * write to judge.
 */
int ms_signer_policy_dest(const struct ms_signer_req *r, const uint8_t *body,
			  size_t body_len, struct ms_signer_failure *fail)
{
	struct module_file d;
	const char *why;
	size_t dlen;
	int other = 0;

	if (!r->dest || r->p7s_only || r->trailer_only)
		return 0;
	if (module_file_open(r->dest, &d, &why))
		return 0;
	if (is_elf(d.data, d.len) || trailer_has_magic(d.data, d.len)) {
		if (strip_trailers(d.data, d.len, &dlen))
			dlen = d.len;
		other = dlen != body_len || !same_bytes(d.data, body, dlen);
	}
	module_file_close(&d);
	if (!other)
		return 0;
	return ms_signer_fail(fail, MS_SIGNER_STAGE_DEST, r->dest, NULL, -EEXIST);
}

/*
 * finit_module() refuses an empty or non-ELF file (-ENOEXEC from
 * kernel/module/main.c: elf_validity_check()), so a zero-byte module
 * left by a failed build, or a git-lfs pointer named .ko, is refused
 * here rather than signed: the signature would hide the damage.  The
 * kernel tool signs them.  A body that is no module (firmware,
 * regulatory.db) is signed when named otherwise or with --usage firmware;
 * an empty one never.
 */
static int check_body(const struct ms_signer_req *r, const uint8_t *body,
		      size_t body_len, struct ms_signer_failure *fail)
{
	const char *why;

	if (!body_len)
		return ms_signer_fail(fail, MS_SIGNER_STAGE_NOT_MODULE, r->module,
				      "empty module (nothing to sign: a failed "
				      "build?)", -ENOEXEC);
	if (r->firmware || !treewalk_is_module(r->module))
		return 0;
	if (!is_elf(body, body_len))
		return ms_signer_fail(fail, MS_SIGNER_STAGE_NOT_MODULE, r->module,
				      "not an ELF file, so no kernel module (a "
				      "truncated build output or a git-lfs "
				      "pointer?); to sign it as data, give --usage "
				      "firmware", -ENOEXEC);
	/* the ELF checks load_module() makes after the signature's */
	if (!elf_check_module(body, body_len, &why))
		return 0;
	snprintf(fail->text, sizeof(fail->text), "no kernel module: %s "
		 "(the kernel refuses it, ENOEXEC); to sign it as data, give "
		 "--usage firmware", why);
	return ms_signer_fail(fail, MS_SIGNER_STAGE_NOT_MODULE, r->module, fail->text,
			      -ENOEXEC);
}

/*
 * What may be signed or digested: the already-signed policy (which may
 * strip the trailers, *body_len then the length without them, or skip
 * the file) and a body the kernel would load.
 */
int ms_signer_policy_check(const struct ms_signer *s,
			   const struct ms_signer_req *r, struct module_file *in,
			   size_t *body_len, int *skipped, struct ms_signer_failure *fail)
{
	const char *why;
	int err;

	/* A trailer after the compressed stream is neither "signed" nor
	 * harmless: only --replace may drop it, and even --skip-signed must
	 * not leave it as it is. */
	if (in->signed_after && r->signed_policy != MS_SIGNER_SIGNED_REPLACE) {
		module_file_signed_after(in, &why);
		return ms_signer_fail(fail, MS_SIGNER_STAGE_SIGNED_AFTER, r->module, why,
				      -EBADMSG);
	}
	*body_len = in->len;
	err = apply_signed_policy(s, in->data, in->len, r, body_len, skipped,
				  fail);
	if (err || *skipped)
		return err;
	return check_body(r, in->data, *body_len, fail);
}
