// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The words of a fix (fix_parts.h): paths as the judged machine names
 * them, quoted for a shell, certificates by name, the sign-file command;
 * and the fix's text line and JSON object.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/quote.h"
#include "verify-file/fix_parts.h"

/* p as the judged machine names it: under --sysroot without the root */
const char *ms_fix_shown(const struct ms_fix_ctx *c, const char *p)
{
	size_t n = c->rootlen;

	if (n && strncmp(p, c->m->root, n) == 0 && p[n] == '/')
		return p + n;
	return p;
}

/* p quoted for a shell when it needs it, into buf */
const char *ms_fix_shq(const char *p, char *buf, size_t size)
{
	char *q = quote_name(p);
	size_t o = 0;

	/* control bytes: ls's $'\n' form, which a shell reads back */
	if (q) {
		snprintf(buf, size, "%s", q);
		free(q);
		return buf;
	}
	if (strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_./+-:@%,=") == strlen(p))
		return p;
	buf[o++] = '\'';
	for (; *p && o + 5 < size; p++) {
		if (*p == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

void ms_fix_set(struct ms_fix *f, const char *kind)
{
	f->kind = kind;
}

void ms_fix_why(struct ms_fix *f, const char *fmt, ...)
{
	size_t n = strlen(f->why);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->why + n, sizeof(f->why) - n, fmt, ap);
	va_end(ap);
}

void ms_fix_command(struct ms_fix *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->command, sizeof(f->command), fmt, ap);
	va_end(ap);
}

/* The certificate's common name, else the kernel's key name. */
static void cn_of(const struct x509k_cert *x, char *buf, size_t size)
{
	if (format_signer(buf, size, x->subject, x->subject_len))
		snprintf(buf, size, "%s", x->name);
}

/* A certificate as the words name it: "dkms's key /var/lib/dkms/mok.pub
 * (\"CN\")", or where the machine holds it. */
void ms_fix_name_cert(const struct ms_fix_ctx *c, const struct ms_fix_local *l,
		      const struct x509k_cert *x, char *buf, size_t size)
{
	char cn[256], q[512];
	const char *p = ms_fix_shq(l && l->given ? x->path : ms_fix_shown(c, x->path), q,
			    sizeof(q));

	cn_of(x, cn, sizeof(cn));
	if (l)
		snprintf(buf, size, "%s %s (\"%s\")", l->label, p, cn);
	else
		snprintf(buf, size, "\"%s\" (%s)", cn, p);
}

/* sign-file with a hash the kernel has (sha256 unless it lacks it) */
const char *ms_fix_hash_for(const struct rules_rules *kr)
{
	static const char *const pref[] = { "sha256", "sha512", "sha384" };

	for (size_t i = 0; i < sizeof(pref) / sizeof(pref[0]); i++)
		if (rules_hash_available(kr, rules_hash_by_name(pref[i])))
			return pref[i];
	return NULL;
}

void ms_fix_sign_command(const struct ms_fix_ctx *c, struct ms_fix *f,
			 const char *hash, const struct ms_fix_local *l,
			 const struct x509k_cert *x, const char *file)
{
	char a[512], b[512], d[512];

	ms_fix_command(f, "sign-file %s %s %s %s", hash, ms_fix_shq(l->key, a, sizeof(a)),
		ms_fix_shq(ms_fix_shown(c, x->path), b, sizeof(b)),
		ms_fix_shq(ms_fix_shown(c, file), d, sizeof(d)));
}

void ms_fix_text(FILE *out, const struct ms_fix *f)
{
	if (!f->kind)
		return;
	fprintf(out, "  fix (%s): %s%s%s\n", f->kind, f->why,
		f->command[0] ? ": " : "", f->command);
}

void ms_fix_json(json_object *o, const struct ms_fix *f)
{
	json_object *x = NULL;

	if (f->kind) {
		x = json_object_new_object();
		json_object_object_add(x, "kind",
				       json_object_new_string(f->kind));
		json_object_object_add(x, "command", f->command[0] ?
				       json_object_new_string(f->command) :
				       NULL);
		json_object_object_add(x, "why", json_object_new_string(f->why));
	}
	json_object_object_add(o, "fix", x);
}

void ms_fix_why_pair(const struct ms_fix_ctx *c, struct ms_fix *f,
		     const struct x509k_cert *x, bool enrol)
{
	char q[512];

	if (enrol)
		ms_fix_why(f, ", then enrol its certificate (mokutil --import "
		    "%s), reboot and confirm the enrolment in MokManager",
		    ms_fix_shq(ms_fix_shown(c, x->path), q, sizeof(q)));
	else
		ms_fix_why(f, ", which this kernel trusts");
}
