// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/opensslv.h>

#include "base/digest.h"
#include "base/exitcode.h"
#include "base/infile.h"
#include "base/outfile.h"
#include "base/treewalk.h"
#include "kernel/cert_check.h"
#include "kernel/rules.h"
#include "module/compress.h"
#include "module/elf_check.h"
#include "module/module_file.h"
#include "module/sig_describe.h"
#include "module/trailer.h"
#include "sign-file/cms.h"
#include "sign-file/durability.h"
#include "sign-file/kernel_check.h"
#include "sign-file/pkcs11/direct.h"
#include "sign-file/signer.h"

/* The kernel's ASN.1 decoder stops at 64 KiB (lib/asn1_decoder.c,
 * asn1_ber_decoder()); leave room above it
 * so that an oversized -s blob is reported by the CMS check, not here. */
#define RAW_SIG_MAX (1u << 20)

static int fail_at(struct ms_fail *f, enum ms_stage stage, const char *path,
		   const char *reason, int err)
{
	f->stage = stage;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->reason = reason;
	return err;
}

int ms_signer_init(struct ms_signer *s, const char *hash, int use_keyid,
		   struct ms_fail *fail)
{
	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->use_keyid = use_keyid;
	s->md = digest_by_name(hash);
	if (!s->md)
		return fail_at(fail, MS_STAGE_HASH, hash, NULL, -EINVAL);
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
 * against OpenSSL 3.5 signs with: say so (MS_STAGE_NOALG, -ENOSYS)
 * rather than "no private key found".
 */
static int no_mldsa(struct ms_fail *f, const char *key, const char *cert)
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
	fail_at(f, MS_STAGE_NOALG, key, f->text, -ENOSYS);
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
static void name_tokens(struct ms_fail *f, const struct ms_token *tok)
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
		  const struct ms_key_opts *o, struct ms_fail *fail)
{
	struct ms_token **tok = &s->toks[s->n];
	X509 *bundled = NULL;
	int i = s->n, err;

	memset(fail, 0, sizeof(*fail));
	if (s->n >= MS_MAX_SIGNERS)
		return fail_at(fail, MS_STAGE_KEY, key, "too many signers",
			       -E2BIG);
	s->n++;
	err = ms_key_load_private(key, o, tok, &s->keys[i], &bundled,
				  &fail->key);
	fail->token = *tok != NULL;
	if (err) {
		X509_free(bundled);
		if (no_mldsa(fail, key, cert))
			return -ENOSYS;
		fail_at(fail, MS_STAGE_KEY, key, NULL, err);
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
			fail_at(fail, MS_STAGE_CERT, cert, NULL, err);
			redact_pin(fail->path, sizeof(fail->path));
			name_tokens(fail, *tok);
			return err;
		}
	}
	/* Refuse before writing anything: a mismatched pair makes a module
	 * the kernel rejects, found only at load time. */
	if (ms_key_matches_cert(s->keys[i], s->certs[i])) {
		fail->key = MS_KEY_MISMATCH;
		return fail_at(fail, MS_STAGE_MATCH, key, NULL, -EKEYREJECTED);
	}
	return 0;
}

int ms_signer_load_raw(struct ms_signer *s, const char *raw,
		       const char *cert, struct ms_fail *fail)
{
	int err;

	memset(s, 0, sizeof(*s));
	memset(fail, 0, sizeof(*fail));
	s->raw_path = raw;
	err = infile_read_all(raw, RAW_SIG_MAX, &s->raw_sig, &s->raw_sig_len);
	if (err)
		return fail_at(fail, MS_STAGE_RAWSIG, raw, NULL, err);
	err = ms_key_load_cert(cert, &s->certs[0], &fail->key);
	if (err)
		return fail_at(fail, MS_STAGE_CERT, cert, NULL, err);
	return 0;
}

int ms_signer_load_attach(struct ms_signer *s, const char *hash,
			  const char *raw, const char *cert, int use_keyid,
			  const struct ms_key_opts *o, struct ms_fail *fail)
{
	int err = ms_signer_init(s, hash, use_keyid, fail);

	if (err)
		return err;
	s->raw_path = raw;
	err = infile_read_all(raw, RAW_SIG_MAX, &s->raw_sig, &s->raw_sig_len);
	if (err)
		return fail_at(fail, MS_STAGE_RAWSIG, raw, NULL, err);
	s->raw_is_value = !ms_cms_is(s->raw_sig, s->raw_sig_len);
	err = ms_key_load_cert_spec(cert, o, &s->toks[0], &s->certs[0],
				    &fail->key);
	if (err)
		return fail_at(fail, MS_STAGE_CERT, cert, NULL, err);
	return 0;
}

void ms_signer_free(struct ms_signer *s)
{
	/* Keys before the tokens: a token key needs its engine or
	 * provider until it is freed. */
	for (int i = 0; i < MS_MAX_SIGNERS; i++) {
		EVP_PKEY_free(s->keys[i]);
		X509_free(s->certs[i]);
		ms_p11_load_free(s->toks[i]);
	}
	free(s->raw_sig);
	EVP_MD_free(s->md_fetched);
	memset(s, 0, sizeof(*s));
}

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
			size_t len, const struct ms_sign_req *r,
			struct ms_fail *fail)
{
	static const char ours[] = "this run's certificate";
	int n = s->n ? s->n : (s->certs[0] != NULL), all = 1;
	struct ms_sigdesc d;
	const struct ms_signer_desc *sd;
	char id[24] = "";

	if (!n)
		return 0;
	for (int k = 0; k < n && all; k++) {
		int found = 0;

		if (sig_describe_fill(&d, buf, len, s->certs[k], ours) == 0)
			for (int i = 0; i < d.n_signers &&
			     i < MS_MAX_SIGNERS; i++)
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
	return fail_at(fail, MS_STAGE_OTHER_SIGNER, r->module, fail->text,
		       -EEXIST);
}

/*
 * The already-signed policy, the same for signing and --digest-only:
 * refuse (-EEXIST), skip (*skipped) what these certificates signed, or
 * strip every trailer (--replace).
 */
static int apply_signed_policy(const struct ms_signer *s, const uint8_t *buf,
			       size_t len, const struct ms_sign_req *r,
			       size_t *body_len, int *skipped,
			       struct ms_fail *fail)
{
	struct trailer t;
	const char *why;
	int err;

	if (!trailer_has_magic(buf, len))
		return 0;
	switch (r->signed_policy) {
	case MS_SIGNED_SKIP:
		/* A trailer the kernel refuses before it reads the CMS
		 * (kernel/module_signature.c, mod_check_sig()) is no
		 * signature to keep: the module would not load. */
		err = trailer_check(buf, len, &t, &why);
		if (err) {
			snprintf(fail->text, sizeof(fail->text), "signature "
				 "trailer the kernel refuses (%s): use "
				 "--replace to sign it again", why);
			return fail_at(fail, MS_STAGE_TRAILER, r->module,
				       fail->text, err);
		}
		err = signed_by_us(s, buf, len, r, fail);
		if (err)
			return err;
		*skipped = 1;
		return 0;
	case MS_SIGNED_REPLACE:
		err = strip_trailers(buf, len, body_len);
		if (err)
			return fail_at(fail, MS_STAGE_TRAILER, r->module,
				       "existing signature trailer is "
				       "malformed; cannot strip it", err);
		return 0;
	case MS_SIGNED_REFUSE:
		break;
	}
	return fail_at(fail, MS_STAGE_SIGNED, r->module, NULL, -EEXIST);
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
static int check_dest(const struct ms_sign_req *r, const uint8_t *body,
		      size_t body_len, struct ms_fail *fail)
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
	return fail_at(fail, MS_STAGE_DEST, r->dest, NULL, -EEXIST);
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
static int check_body(const struct ms_sign_req *r, const uint8_t *body,
		      size_t body_len, struct ms_fail *fail)
{
	const char *why;

	if (!body_len)
		return fail_at(fail, MS_STAGE_NOT_MODULE, r->module,
			       "empty module (nothing to sign: a failed "
			       "build?)", -ENOEXEC);
	if (r->firmware || !treewalk_is_module(r->module))
		return 0;
	if (!is_elf(body, body_len))
		return fail_at(fail, MS_STAGE_NOT_MODULE, r->module,
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
	return fail_at(fail, MS_STAGE_NOT_MODULE, r->module, fail->text,
		       -ENOEXEC);
}

/*
 * A failed write, named by what it needed.  The file is never written in
 * place: a new one is created beside it (base/outfile.h: outfile_begin), so a
 * read-only directory refuses even a writable module, and "Permission
 * denied" on the module's name would point at the wrong thing.
 */
static int out_fail(struct ms_fail *fail, const char *target, int err)
{
	char *copy;
	const char *dir;

	fail_at(fail, MS_STAGE_OUTPUT, target, NULL, err);
	if (err != -EACCES && err != -EPERM && err != -EROFS)
		return err;
	copy = strdup(target);
	if (!copy)
		return err;
	dir = dirname(copy);
	snprintf(fail->text, sizeof(fail->text), "cannot create a file in "
		 "the directory %s: %s (the signed file is written there "
		 "as a new file, then renamed over %s: make the directory "
		 "writable, or give a <dest> elsewhere)", dir, strerror(-err),
		 target);
	fail->reason = fail->text;
	free(copy);
	return err;
}

static int write_p7s(const char *module, const uint8_t *der, size_t len,
		     struct outfile *o, char **path, struct ms_fail *fail)
{
	int err;

	if (asprintf(path, "%s.p7s", module) < 0) {
		*path = NULL;
		return fail_at(fail, MS_STAGE_OUTPUT, module, NULL, -ENOMEM);
	}
	err = outfile_begin(*path, outfile_mode(*path), o);
	if (err)
		return out_fail(fail, *path, err);
	err = outfile_write(o, der, len);
	if (err)
		return fail_at(fail, MS_STAGE_OUTPUT, *path, NULL, err);
	return 0;
}

/*
 * What is appended after the body: CMS, descriptor, magic.  Written alone
 * it is kmodsign -D's "full detached signature block": the module
 * followed by it is the module signed in place.  (For a compressed module
 * it completes the decompressed module, as the .p7s does.)
 */
static int write_trailer(struct outfile *out, const uint8_t *sig,
			 size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	int err;

	err = outfile_write(out, sig, sig_len);
	if (!err) {
		trailer_encode((uint32_t)sig_len, trailer);
		err = outfile_write(out, trailer, sizeof(trailer));
	}
	return err;
}

/*
 * A plain module: body, CMS, descriptor and magic, so the output is the
 * kernel tool's byte for byte.  A body read into memory goes out with the
 * trailer in one writev; a mapped (large) one is copied file to file,
 * reflinked where the file system can, never passing through user space.
 */
static int write_plain(struct outfile *out, const struct infile *in,
		       size_t body_len, const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	struct iovec iov[3];
	int err;

	if (!in->buf) {
		err = outfile_copy(out, in->fd, body_len);
		return err ? err : write_trailer(out, sig, sig_len);
	}
	trailer_encode((uint32_t)sig_len, trailer);
	iov[0] = (struct iovec){ (void *)in->data, body_len };
	iov[1] = (struct iovec){ (void *)sig, sig_len };
	iov[2] = (struct iovec){ trailer, sizeof(trailer) };
	return outfile_writev(out, iov, 3);
}

/*
 * A compressed module: sign first, then compress (the kernel checks the
 * decompressed module), in the input's format with kbuild's settings.
 */
static int write_compressed(struct outfile *out, enum compress_fmt comp,
			    const uint8_t *body, size_t body_len,
			    const uint8_t *sig, size_t sig_len)
{
	uint8_t trailer[TRAILER_OVERHEAD];
	struct iovec iov[3];
	uint8_t *packed;
	size_t packed_len;
	int err;

	trailer_encode((uint32_t)sig_len, trailer);
	iov[0] = (struct iovec){ (void *)body, body_len };
	iov[1] = (struct iovec){ (void *)sig, sig_len };
	iov[2] = (struct iovec){ trailer, sizeof(trailer) };
	err = compress_encode(comp, iov, 3, &packed, &packed_len);
	if (err)
		return err;
	err = outfile_write(out, packed, packed_len);
	free(packed);
	return err;
}

/*
 * A large plain module's body goes into the output while it is hashed:
 * the copy (copy_file_range: a reflink on btrfs/xfs, an in-kernel copy
 * elsewhere) and SHA-256 each take about as long, and a single run has
 * a CPU to spare for the one, so the copy hides behind the hashing
 * (bench/NOTES; bench/sign-bench.sh measures it).  Below this size the
 * thread costs more than it hides.
 */
#define OVERLAP_MIN ((size_t)1 << 20)

struct body_copy {
	pthread_t tid;
	struct outfile *out;
	const char *target;
	mode_t mode;
	const struct infile *in;
	size_t len;
	int err;
};

static void *copy_body(void *arg)
{
	struct body_copy *c = arg;

	c->err = outfile_begin(c->target, c->mode, c->out);
	if (!c->err)
		c->err = outfile_copy(c->out, c->in->fd, c->len);
	return NULL;
}

/*
 * A CMS made elsewhere (-s, --attach) goes through the kernel model
 * verify-file judges with, for the kernel of r->kernel, with the given
 * certificate as the only trusted key: what that kernel would refuse is
 * refused here, with its errno and its reason, before anything is
 * written.
 */
static int check_attach(const struct ms_signer *s,
			const struct ms_sign_req *r, struct ms_fail *fail,
			const uint8_t *sig, size_t sig_len,
			const uint8_t *data, size_t len)
{
	const struct kr_rules *kr = r->kernel ? r->kernel
					      : kr_get(KR_DEFAULT);
	struct ms_kernel_verdict v;
	int err;

	err = ms_kernel_check_cms(kr, s->certs, 1, data, len, sig, sig_len,
				  &v);
	if (!err)
		return 0;
	if (err != v.err)	/* -ENOMEM: no verdict */
		return fail_at(fail, MS_STAGE_RAWSIG, s->raw_path, NULL, err);
	if (v.cert_refused)
		snprintf(fail->text, sizeof(fail->text), "the %s kernel would "
			 "not load the certificate as a key: -%s: %s",
			 kr_label(kr), exitcode_errno_name(err), v.why);
	else if (err == -ENOKEY)
		snprintf(fail->text, sizeof(fail->text), "no signer of the "
			 "CMS is the given certificate (-ENOKEY from the %s "
			 "kernel trusting only it)", kr_label(kr));
	else if (s->raw_is_value && err == -EKEYREJECTED)
		/* the CMS around it is ours: the value is what is wrong */
		snprintf(fail->text, sizeof(fail->text), "the signature "
			 "value does not verify over this file with the "
			 "certificate (-%s from the %s kernel: %s)",
			 exitcode_errno_name(err), kr_label(kr), v.why);
	else
		snprintf(fail->text, sizeof(fail->text), "the %s kernel "
			 "would refuse this signature: -%s: %s%s", kr_label(kr),
			 exitcode_errno_name(err), v.why ? v.why : "rejected",
			 s->raw_is_value ? "" : " (openssl cms -sign makes "
			 "one it accepts with -binary -noattr -nosmimecap "
			 "-nocerts)");
	return fail_at(fail, MS_STAGE_KERNEL, s->raw_path, fail->text, err);
}

/*
 * Whether a kernel takes an ML-DSA signature depends on more than its
 * key type and digest (signed attributes, the SHA-512 rule that comes
 * with them, the waiver, mixed signers), so the signature made is judged
 * as a whole by the kernel model, with the signers' certificates as the
 * trusted keys, before it is written.  Without a .config the waiver
 * (CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA) cannot be known:
 * kbuild calls sign-file with none, for a kernel that may have it, so it
 * is assumed (the tool warns, ms_kernel_check_mldsa_note).
 */
static int check_mldsa(const struct ms_signer *s,
		       const struct ms_sign_req *r, struct ms_fail *fail,
		       const uint8_t *sig, size_t sig_len,
		       const uint8_t *data, size_t len)
{
	const struct kr_rules *kr = r->kernel ? r->kernel
					      : kr_get(KR_DEFAULT);
	struct kr_rules assumed = *kr;
	struct ms_kernel_verdict v;
	int err, mldsa = 0;

	for (int i = 0; i < s->n; i++)
		mldsa |= ms_key_is_mldsa(s->keys[i]);
	if (!mldsa)
		return 0;
	if (!kr->from_config)
		assumed.mldsa_authattr_waiver = true;
	err = ms_kernel_check_cms(&assumed, s->certs, s->n, data, len, sig,
				  sig_len, &v);
	if (!err)
		return 0;
	if (err != v.err)	/* -ENOMEM: no verdict */
		return fail_at(fail, MS_STAGE_SIGN, r->module, NULL, err);
	snprintf(fail->text, sizeof(fail->text), "the %s kernel would %s: "
		 "-%s: %s%s", kr_label(kr), v.cert_refused ? "not load the "
		 "signer's certificate as a key" : "refuse this ML-DSA "
		 "signature", exitcode_errno_name(err), v.why ? v.why : "rejected",
		 kr->from_config && !kr->mldsa_authattr_waiver &&
		 err == -EKEYREJECTED ? " (ML-DSA signatures made with "
		 "OpenSSL before 4.0 carry signed attributes, which need "
		 "CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA=y)" : "");
	return fail_at(fail, MS_STAGE_KERNEL, r->module, fail->text, err);
}

/*
 * The signature just made, described as extract-sig describes one: the
 * signed module (body, CMS, descriptor, magic) described with the first
 * certificate for the key, and judged with it alone as extract-sig -c
 * judges (kernel/cert_check.h).  NULL when it cannot be.
 */
static struct ms_made_sig *describe_sig(const struct ms_signer *s,
					const struct ms_sign_req *r,
					const char *cert_from,
					const uint8_t *body, size_t body_len,
					const uint8_t *sig, size_t sig_len)
{
	size_t len = body_len + sig_len + TRAILER_OVERHEAD;
	uint8_t *buf = malloc(len);
	struct ms_made_sig *m = calloc(1, sizeof(*m));

	if (!buf || !m || infile_map_read(buf, body, body_len))
		goto fail;
	memcpy(buf + body_len, sig, sig_len);
	trailer_encode((uint32_t)sig_len, buf + body_len + sig_len);
	if (sig_describe_fill(&m->d, buf, len, s->certs[0], cert_from))
		goto fail;
	if (r->cert_path)
		cert_check_chain(r->cert_path, r->kernel ? r->kernel :
			      kr_get(KR_DEFAULT), buf, len, &m->d,
			      m->key_description, sizeof(m->key_description));
	free(buf);
	return m;
fail:
	if (m)
		sig_describe_free(&m->d);
	free(m);
	free(buf);
	return NULL;
}

/* What the steps of ms_signer_prepare hand on to each other. */
struct prep {
	struct module_file in;	/* the module, locked; for a compressed one
				 * the decompressed bytes */
	size_t body_len;	/* in's bytes that are signed: without the
				 * trailers --replace strips */
	const char *target;	/* where the signed module goes */
	mode_t mode;		/* and the mode it gets */
	struct body_copy copy;	/* the body going out while it is hashed */
	int copying;
	uint8_t *der;		/* a CMS made here (owned) */
	const uint8_t *sig;	/* the CMS appended: der or the raw one */
	size_t sig_len;
};

/*
 * For a compressed module everything after this sees the decompressed
 * bytes: already-signed checks, the signature and the .p7s.  The file
 * stays locked until its replacement is renamed into place.
 */
static int open_module(const struct ms_sign_req *r, struct prep *p,
		       struct ms_fail *fail)
{
	const char *why;
	int err;

	err = r->nowait ? module_file_open_trylock(r->module, &p->in, &why)
			: module_file_open_locked(r->module, &p->in, &why);
	if (err)
		return fail_at(fail, why ? MS_STAGE_DECOMPRESS : MS_STAGE_INPUT,
			       r->module, why, err);
	return 0;
}

/*
 * What may be signed or digested: the already-signed policy (which may
 * strip the trailers, *body_len then the length without them, or skip
 * the file) and a body the kernel would load.
 */
static int check_policy(const struct ms_signer *s,
			const struct ms_sign_req *r, struct module_file *in,
			size_t *body_len, int *skipped, struct ms_fail *fail)
{
	const char *why;
	int err;

	/* A trailer after the compressed stream is neither "signed" nor
	 * harmless: only --replace may drop it, and even --skip-signed must
	 * not leave it as it is. */
	if (in->signed_after && r->signed_policy != MS_SIGNED_REPLACE) {
		module_file_signed_after(in, &why);
		return fail_at(fail, MS_STAGE_SIGNED_AFTER, r->module, why,
			       -EBADMSG);
	}
	*body_len = in->len;
	err = apply_signed_policy(s, in->data, in->len, r, body_len, skipped,
				  fail);
	if (err || *skipped)
		return err;
	return check_body(r, in->data, *body_len, fail);
}

/* A large plain module's body starts going into the output now, on a
 * thread of its own (OVERLAP_MIN). */
static void start_body_copy(const struct ms_signer *s,
			    const struct ms_sign_req *r, struct outfile *out,
			    struct prep *p)
{
	if (!r->overlap || s->raw_sig || r->p7s_only || r->trailer_only ||
	    p->in.comp != COMPRESS_NONE || p->in.file.buf ||
	    p->body_len < OVERLAP_MIN)
		return;
	p->copy = (struct body_copy){ .out = out, .target = p->target,
				      .mode = p->mode, .in = &p->in.file,
				      .len = p->body_len };
	/* No thread: the copy is made after the signature, as for a small
	 * module. */
	p->copying = pthread_create(&p->copy.tid, NULL, copy_body, &p->copy)
		     == 0;
}

/* The body copied while it was hashed: 0 once the copy is done, or the
 * copy's error. */
static int join_body_copy(struct prep *p, struct ms_fail *fail)
{
	if (!p->copying)
		return 0;
	pthread_join(p->copy.tid, NULL);
	p->copying = 0;
	return p->copy.err ? out_fail(fail, p->target, p->copy.err) : 0;
}

/* -s and --attach: the CMS made elsewhere, checked as the target kernel
 * would check it. */
static int attach_sig(const struct ms_signer *s, const struct ms_sign_req *r,
		      struct prep *p, struct ms_fail *fail)
{
	int err;

	p->sig = s->raw_sig;
	p->sig_len = s->raw_sig_len;
	/* --attach with a bare value: wrap it as sign-file would, then
	 * check it like any other CMS made elsewhere. */
	if (s->raw_is_value) {
		err = ms_cms_from_value(s->certs[0], s->md, s->use_keyid,
					s->raw_sig, s->raw_sig_len, &p->der,
					&p->sig_len);
		if (err)
			return fail_at(fail, MS_STAGE_RAWSIG, s->raw_path,
				       "cannot build a CMS around this "
				       "signature value", err);
		p->sig = p->der;
	}
	return check_attach(s, r, fail, p->sig, p->sig_len, p->in.data,
			    p->body_len);
}

/* Why the signing failed, in words that point at the fix; bad is the
 * signer that refused, or -1. */
static int sign_failed(const struct ms_signer *s, const struct ms_sign_req *r,
		       int err, int bad, struct ms_fail *fail)
{
	const char *why, *advice;

	/* A digest no kernel takes in a module signature (blake2b512,
	 * md4): OpenSSL's refusal is the hash's, as the kernel's would be
	 * (-ENOPKG, 5), not the key's. */
	if (kr_digest_check(NULL, s->md, &why, &advice) == -ENOPKG)
		return fail_at(fail, MS_STAGE_SIGN, r->module,
			       "cannot sign with this hash (use sha256, "
			       "sha384 or sha512)", -ENOPKG);
	if (err == -ENOPKG)
		return fail_at(fail, MS_STAGE_SIGN, r->module,
			       "this OpenSSL cannot make a CMS signature with "
			       "this key type and hash (use sha256, sha384 or "
			       "sha512)", err);
	fail->token = bad >= 0 ? s->toks[bad] != NULL : s->toks[0] != NULL;
	return fail_at(fail, MS_STAGE_SIGN, r->module, s->use_keyid ?
		       "cannot sign (with -k the certificate needs a "
		       "subjectKeyIdentifier extension)" :
		       fail->token ? "signing refused by the PKCS#11 token"
				   : "cannot sign", err);
}

/* A token key signing directly (sign_many.h): -ENOTSUP when there is
 * none, or when the token failed, and the provider or engine signs and
 * reports a real failure in its own words. */
static int sign_direct(const struct ms_signer *s, const uint8_t *digest,
		       unsigned int dlen, uint8_t **der, size_t *der_len)
{
	uint8_t sig[MS_P11_DIRECT_SIG_MAX];
	size_t len;

	if (!s->direct || !s->tmpl ||
	    ms_p11_direct_sign(s->direct, digest, dlen, sig, &len))
		return -ENOTSUP;
	return ms_cms_template_with_value(s->tmpl, sig, len, der, der_len);
}

/* The signature made here, over the body's digest, and judged by the
 * kernel model when it is ML-DSA. */
static int sign_body(const struct ms_signer *s, const struct ms_sign_req *r,
		     struct prep *p, struct ms_fail *fail)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int err, bad = -1;

	/* Hashing needs no token: only the signing is serialised. */
	err = p->in.comp == COMPRESS_NONE
		? digest_input(s->md, &p->in.file, p->body_len, digest,
				  &dlen)
		: digest_bytes(s->md, p->in.data, p->body_len, digest, &dlen);
	if (!err) {
		if (s->serial)
			pthread_mutex_lock(s->serial);
		err = sign_direct(s, digest, dlen, &p->der, &p->sig_len);
		if (err == -ENOTSUP)
			err = s->tmpl
			    ? ms_cms_sign_template(s->tmpl, digest, dlen,
						   &p->der, &p->sig_len, &bad)
			    : ms_cms_sign_digest(s->certs, s->keys, s->n,
						 s->md, s->use_keyid, digest,
						 dlen, &p->der, &p->sig_len,
						 &bad);
		if (s->serial)
			pthread_mutex_unlock(s->serial);
	}
	if (err)
		return sign_failed(s, r, err, bad, fail);
	p->sig = p->der;
	return check_mldsa(s, r, fail, p->sig, p->sig_len, p->in.data,
			   p->body_len);
}

/* The outputs, complete but not in place: the .p7s of -p and -d, then
 * the signed module (or kmodsign -D's block) as a temporary file. */
static int write_outputs(const struct ms_signer *s,
			 const struct ms_sign_req *r, struct ms_signed *job,
			 const struct prep *p, struct ms_fail *fail)
{
	struct outfile *out = &job->out;
	int err;

	/* -p and -d only exist for signatures made here, as in the kernel
	 * tool, whose .p7s writing sits in its non-raw branch.  For a
	 * compressed module the .p7s covers the decompressed module, which
	 * is what the kernel checks. */
	if (!s->raw_sig && (r->save_p7s || r->p7s_only)) {
		err = write_p7s(r->module, p->sig, p->sig_len, &job->p7s,
				&job->p7s_path, fail);
		if (err || r->p7s_only)
			return err;
	}
	if (out->tmp) {
		/* the body went in while it was hashed */
		err = write_trailer(out, p->sig, p->sig_len);
	} else {
		err = outfile_begin(p->target, p->mode, out);
		if (!err && r->trailer_only)
			err = write_trailer(out, p->sig, p->sig_len);
		else if (!err && p->in.comp == COMPRESS_NONE)
			err = write_plain(out, &p->in.file, p->body_len, p->sig,
					  p->sig_len);
		else if (!err)
			err = write_compressed(out, p->in.comp, p->in.data,
					       p->body_len, p->sig, p->sig_len);
	}
	return err ? out_fail(fail, p->target, err) : 0;
}

/*
 * The end of every prepare that opened the module: the job keeps only
 * what the commit needs, the descriptor holding the lock (no mapping, no
 * decompressed copy), so many jobs can wait for a group commit without
 * holding their modules in memory; on failure or skip, nothing.
 */
static int end_prepare(const struct ms_sign_req *r, struct ms_signed *job,
		       struct prep *p, int err, int skipped,
		       struct ms_fail *fail)
{
	if (p->copying)		/* signing failed while the body was copied */
		pthread_join(p->copy.tid, NULL);
	/* Whatever went wrong, a module that changed while it was read is
	 * the reason (and nothing computed from it may be written). */
	if (err == INFILE_ECHANGED || infile_check(&p->in.file))
		err = fail_at(fail, MS_STAGE_INPUT, r->module, NULL,
			      INFILE_ECHANGED);
	free(p->der);
	free(p->in.buf);
	p->in.buf = NULL;
	infile_unmap(&p->in.file);
	job->in = p->in;
	if (err || skipped)
		ms_signer_release(job);
	return err;
}

int ms_signer_prepare(const struct ms_signer *s, const struct ms_sign_req *r,
		      struct ms_signed *job, int *skipped, struct ms_fail *fail)
{
	struct prep p = { .target = r->dest ? r->dest : r->module };
	int err;

	memset(fail, 0, sizeof(*fail));
	memset(job, 0, sizeof(*job));
	job->out.fd = job->p7s.fd = -1;
	job->in.file.fd = -1;
	*skipped = 0;
	err = open_module(r, &p, fail);
	if (err)
		return err;
	job->module = r->module;
	err = check_policy(s, r, &p.in, &p.body_len, skipped, fail);
	if (!err && !*skipped)
		err = check_dest(r, p.in.data, p.body_len, fail);
	if (err || *skipped)
		goto done;
	/* In place keeps the module's mode, an existing dest its own, and
	 * a new dest gets umask's. */
	p.mode = r->dest ? outfile_mode(r->dest)
			 : (p.in.file.st.st_mode & 07777);
	start_body_copy(s, r, &job->out, &p);
	err = s->raw_sig ? attach_sig(s, r, &p, fail)
			 : sign_body(s, r, &p, fail);
	/* a failed hash or signature is reported and wins over the copy */
	if (!err)
		err = join_body_copy(&p, fail);
	if (err)
		goto done;
	if (r->describe)
		job->made = describe_sig(s, r, r->cert_path ?
					    r->cert_path : "given", p.in.data,
					    p.body_len, p.sig, p.sig_len);
	err = write_outputs(s, r, job, &p, fail);
done:
	return end_prepare(r, job, &p, err, *skipped, fail);
}

int ms_signer_commit(struct ms_signed *job, unsigned int sync,
		     struct ms_fail *fail)
{
	int err;

	memset(fail, 0, sizeof(*fail));
	/* Both files are complete: only now replace anything. */
	if (job->p7s.tmp) {
		err = outfile_commit_flags(&job->p7s, sync);
		if (err)
			return fail_at(fail, MS_STAGE_OUTPUT, job->p7s_path,
				       NULL, err);
	}
	if (job->out.tmp) {
		const char *target = job->out.target;
		char path[sizeof(fail->path)];

		snprintf(path, sizeof(path), "%s", target);
		err = outfile_commit_flags(&job->out, sync);
		if (err)
			return fail_at(fail, MS_STAGE_OUTPUT, path, NULL, err);
	}
	return 0;
}

void ms_signer_release(struct ms_signed *job)
{
	if (job->made)
		sig_describe_free(&job->made->d);
	free(job->made);
	job->made = NULL;
	outfile_abort(&job->p7s);
	outfile_abort(&job->out);
	free(job->p7s_path);
	job->p7s_path = NULL;
	module_file_close(&job->in);
}

int ms_signer_sign_file(const struct ms_signer *s, const struct ms_sign_req *r,
			int *skipped, struct ms_fail *fail)
{
	struct ms_signed job;
	int err;

	err = ms_signer_prepare(s, r, &job, skipped, fail);
	if (err || *skipped)
		return err;
	err = ms_signer_commit(&job, ms_dur_commit_flags(job.out.tmp ?
			       job.out.fd : job.p7s.fd, job.out.tmp &&
			       job.out.replaces && !job.p7s.tmp), fail);
	ms_signer_release(&job);
	return err;
}



static int write_aside(const char *module, const char *ext,
		       const uint8_t *buf, size_t len, struct outfile *o,
		       char **path, struct ms_fail *fail)
{
	int err;

	if (asprintf(path, "%s.%s", module, ext) < 0) {
		*path = NULL;
		return fail_at(fail, MS_STAGE_OUTPUT, module, NULL, -ENOMEM);
	}
	err = outfile_begin(*path, outfile_mode(*path), o);
	if (!err)
		err = outfile_write(o, buf, len);
	if (err)
		return fail_at(fail, MS_STAGE_OUTPUT, *path, NULL, err);
	return 0;
}

int ms_signer_digest_file(const struct ms_signer *s, const struct ms_sign_req *r,
			  uint8_t *digest, unsigned int *digest_len, int *skipped,
			  struct ms_fail *fail)
{
	struct outfile dout = { .fd = -1 }, tout = { .fd = -1 };
	char *dpath = NULL, *tpath = NULL;
	uint8_t *tbs = NULL;
	size_t body_len, tbs_len;
	struct module_file in;
	const char *why;
	int err;

	memset(fail, 0, sizeof(*fail));
	*skipped = 0;
	/*
	 * The digest of what the kernel checks, exactly as signing reads
	 * it: for a .ko.xz/.gz/.zst the decompressed module, so that the
	 * signature made remotely over it is the one --attach then puts
	 * inside the compression (digesting the compressed bytes gave a
	 * signature no kernel and no --attach could ever accept).
	 */
	err = module_file_open(r->module, &in, &why);
	if (err)
		return fail_at(fail, why ? MS_STAGE_DECOMPRESS : MS_STAGE_INPUT,
			       r->module, why, err);
	err = check_policy(s, r, &in, &body_len, skipped, fail);
	if (err || *skipped)
		goto done;
	err = ms_cms_digest_info(s->md, in.data, body_len, digest, digest_len,
				 &tbs, &tbs_len);
	if (infile_check(&in.file)) {
		err = fail_at(fail, MS_STAGE_INPUT, r->module, NULL,
			      INFILE_ECHANGED);
		goto done;
	}
	if (err) {
		fail_at(fail, MS_STAGE_SIGN, r->module, "cannot digest", err);
		goto done;
	}
	err = write_aside(r->module, "digest", digest, *digest_len, &dout,
			  &dpath, fail);
	if (!err)
		err = write_aside(r->module, "tbs", tbs, tbs_len, &tout, &tpath,
				  fail);
	if (!err) {
		err = outfile_commit(&dout);
		if (err)
			fail_at(fail, MS_STAGE_OUTPUT, dpath, NULL, err);
	}
	if (!err) {
		err = outfile_commit(&tout);
		if (err)
			fail_at(fail, MS_STAGE_OUTPUT, tpath, NULL, err);
	}
done:
	outfile_abort(&dout);
	outfile_abort(&tout);
	free(dpath);
	free(tpath);
	free(tbs);
	module_file_close(&in);
	return err;
}
