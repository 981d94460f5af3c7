// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509.h>

#include "kernel/x509.h"
#include "module/elf.h"
#include "trust/kernel_image.h"
#include "trust/kernel_image_parts.h"

/* A decompressed kernel is tens of MiB; debug builds a few hundred.
 * (The fuzz build lowers it to stay within libFuzzer's memory limit.) */
#ifndef KERNEL_IMAGE_DECOMPRESS_MAX
#define KERNEL_IMAGE_DECOMPRESS_MAX ((size_t)1 << 30)
#endif
/* Candidate payloads tried when the boot header does not say. */
#define KERNEL_IMAGE_MAX_TRIES 64

/*
 * The image's ELF header (module/elf.c reads it): -EINVAL when the image
 * is no ELF file, -EBADMSG when damaged, including a section header
 * table that does not lie inside it.  An image without section headers
 * is scanned whole.
 */
static int image_elf_open(const uint8_t *p, size_t len, struct elf_file *e)
{
	const char *why;
	int ret;

	if (len < 52)
		return -EINVAL;
	ret = elf_read_header(p, len, e, &why);
	if (ret)
		return ret;
	if (e->shnum == 0)
		return 0;	/* no section headers: scanned whole */
	if (e->shentsize < (e->is64 ? 64 : 40) || e->shoff > len ||
	    (uint64_t)e->shnum * e->shentsize > len - e->shoff)
		return -EBADMSG;
	return 0;
}

/* Section header i, its contents inside the image. */
static int image_elf_shdr(const struct elf_file *e, unsigned i,
		    struct elf_section *s)
{
	if (i >= e->shnum || elf_read_section(e, i, s))
		return -EBADMSG;
	/* SHT_NOBITS occupies no file bytes */
	if (s->type != 8 &&
	    (s->offset > e->len || s->size > e->len - s->offset))
		return -EBADMSG;
	return 0;
}

/* The NUL-terminated string at off in section s (or strndx), or NULL. */
static const char *str_at(const struct elf_file *e,
			  const struct elf_section *s, uint64_t off)
{
	const char *p;

	if (s->type == 8 || off >= s->size)
		return NULL;
	p = (const char *)e->p + s->offset + off;
	return memchr(p, '\0', s->size - off) ? p : NULL;
}

static const char *image_elf_str(const struct elf_file *e, unsigned strndx,
			   uint64_t off)
{
	struct elf_section s;

	return image_elf_shdr(e, strndx, &s) ? NULL : str_at(e, &s, off);
}

/* The file bytes at a symbol: its section's offset plus the symbol value
 * (section-relative in a relocatable object, an address otherwise). */
static int sym_bytes(const struct elf_file *e, unsigned shndx, uint64_t value,
		     uint64_t want, size_t *off)
{
	struct elf_section s;
	uint64_t rel;

	if (image_elf_shdr(e, shndx, &s) || s.type == 8)
		return -EBADMSG;
	rel = e->type == 1 ? value : value - s.addr;
	if ((e->type != 1 && value < s.addr) || rel > s.size ||
	    want > s.size - rel)
		return -EBADMSG;
	*off = (size_t)(s.offset + rel);
	return 0;
}

/*
 * A certificate list and its size from the symbol table: NAME and
 * NAME_size, as certs/system_certificates.S and revocation_certificates.S
 * define them.  1 when found, 0 when absent, -EBADMSG when the symbols
 * point outside their sections.
 */
static int sym_list(const struct elf_file *e, const char *name, size_t *loff,
		    size_t *llen)
{
	uint64_t lval = 0, sval = 0, size;
	unsigned lsec = 0, ssec = 0, i;
	size_t nlen = strlen(name);
	int found = 0;
	size_t soff;
	struct elf_section sh, strs;

	for (i = 0; i < e->shnum; i++) {
		uint64_t n, j, esz = e->is64 ? 24 : 16;
		bool have_strs;

		if (image_elf_shdr(e, i, &sh) || sh.type != 2)	/* SHT_SYMTAB */
			continue;
		/* its string table, read once for all its symbols */
		have_strs = image_elf_shdr(e, sh.link, &strs) == 0;
		n = sh.size / esz;
		for (j = 0; j < n; j++) {
			const uint8_t *y = e->p + sh.offset + j * esz;
			uint32_t nm = (uint32_t)elf_get(e, y, 4);
			unsigned shndx = (unsigned)elf_get(e, y + (e->is64 ? 6 : 14),
							   2);
			uint64_t v = elf_get(e, y + (e->is64 ? 8 : 4),
					     e->is64 ? 8 : 4);
			const char *sym = have_strs ? str_at(e, &strs, nm) :
					  NULL;

			if (!sym || shndx == 0 || shndx >= 0xff00 ||
			    strncmp(sym, name, nlen) != 0)
				continue;
			if (sym[nlen] == '\0') {
				lval = v;
				lsec = shndx;
				found |= 1;
			} else if (strcmp(sym + nlen, "_size") == 0) {
				sval = v;
				ssec = shndx;
				found |= 2;
			}
		}
	}
	if (found != 3)
		return 0;
	/* .quad on 64-bit kernels, .long on 32-bit ones */
	if (sym_bytes(e, ssec, sval, e->is64 ? 8 : 4, &soff))
		return -EBADMSG;
	size = elf_get(e, e->p + soff, e->is64 ? 8 : 4);
	if (sym_bytes(e, lsec, lval, size, loff))
		return -EBADMSG;
	*llen = (size_t)size;
	return 1;
}

/*
 * load_system_certificate_list() and load_revocation_certificate_list():
 * the lists exactly, from the symbol table.  CONFIG_MODULE_SIG is assumed
 * (verifying module signatures is the point), so module_cert_size is not
 * skipped.  1 when the system list was found.
 */
static int by_symbol(const struct elf_file *e, struct kernel_image *img)
{
	size_t off, len;
	int ret;

	ret = sym_list(e, "system_certificate_list", &off, &len);
	if (ret <= 0)
		return ret;
	img->how = KERNEL_IMAGE_SYMBOL;
	img->runs[0] = (struct kernel_image_run){ off, len, KERNEL_IMAGE_LIST_SYSTEM };
	img->n_runs = 1;
	ret = sym_list(e, "revocation_certificate_list", &off, &len);
	if (ret < 0)
		return ret;
	if (ret && len)
		img->runs[img->n_runs++] =
			(struct kernel_image_run){ off, len, KERNEL_IMAGE_LIST_REVOCATION };
	return 1;
}

/* A whole DER certificate of exactly 4 + HHLL bytes at p ("30 82 HH LL",
 * a TBS SEQUENCE next), as OpenSSL reads one. */
static bool plausible(const uint8_t *p, size_t avail, size_t *plen)
{
	const unsigned char *q = p;
	size_t n;
	X509 *x;

	if (avail < 8 || p[0] != 0x30 || p[1] != 0x82 || p[4] != 0x30)
		return false;
	n = ((size_t)p[2] << 8 | p[3]) + 4;
	if (n > avail)
		return false;
	x = d2i_X509(NULL, &q, (long)n);
	X509_free(x);
	ERR_clear_error();
	*plen = n;
	return x && q == p + n;
}

/* Runs of back-to-back certificates in [from, to); a run is kept when
 * one of its certificates parses as the kernel parses it. */
static int scan(const uint8_t *p, size_t from, size_t to,
		const struct rules_rules *kr, struct kernel_image *img)
{
	size_t i = from, j, n;

	while (i + 8 <= to && img->n_runs < KERNEL_IMAGE_MAX_RUNS) {
		const uint8_t *hit = memchr(p + i, 0x30, to - i - 7);
		bool good = false;

		if (!hit)
			break;
		i = (size_t)(hit - p);
		for (j = i; plausible(p + j, to - j, &n); j += n) {
			struct x509k_cert *c;
			const char *why;
			int ret;

			if (good)
				continue;
			ret = x509k_parse(p + j, n, kr, NULL, &c, &why);
			if (ret == -ENOMEM)
				return ret;
			x509k_free(c);
			good = ret == 0;
		}
		if (good) {
			img->runs[img->n_runs].off = i;
			img->runs[img->n_runs++].len = j - i;
			i = j;
		} else {
			i++;
		}
	}
	return 0;
}

/*
 * CONFIG_SYSTEM_BLACKLIST_HASH_LIST entries: blacklist.c compiles the
 * list into an array of string literals, "tbs:<hex>" or "bin:<hex>", which
 * land in .rodata whatever section holds the array.  A candidate must be
 * a whole C string (NUL before and after) of lower-case hex digits, as
 * blacklist_init() accepts them; at least 32 digits keeps ordinary
 * strings that merely start "bin:" out.
 */
static void find_hashes(const uint8_t *p, size_t len, struct kernel_image *img)
{
	static const char *const pfx[] = { "tbs:", "bin:" };
	unsigned k;

	if (!len)
		return;
	for (k = 0; k < 2; k++) {
		const uint8_t *q = p, *end = p + len;

		while (img->n_hashes < KERNEL_IMAGE_MAX_HASHES &&
		       (q = memmem(q, (size_t)(end - q), pfx[k], 4))) {
			const uint8_t *h = q + 4;
			size_t n = 0;

			while (h + n < end && ((h[n] >= '0' && h[n] <= '9') ||
					       (h[n] >= 'a' && h[n] <= 'f')))
				n++;
			if ((q == p || q[-1] == '\0') && h + n < end &&
			    h[n] == '\0' && n >= 32 && n <= 128 && n % 2 == 0)
				img->hashes[img->n_hashes++] =
					(struct kernel_image_hash){ (size_t)(q - p), n + 4 };
			q = h + n;
		}
	}
}

/* The 64-bit little-endian size that follows a list at the next 8-byte
 * boundary (".align 8; NAME_size: .quad end - start") equals its length. */
static bool sized_list(const uint8_t *p, size_t len, const struct kernel_image_run *r)
{
	size_t end = r->off + r->len, q = (end + 7) & ~(size_t)7, i;
	uint64_t v = 0;

	if (q + 8 > len)
		return false;
	for (i = end; i < q; i++)
		if (p[i])
			return false;
	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[q + i] << (8 * i);
	return v == r->len;
}

/*
 * Without symbols, which run is which: certs/Makefile links
 * system_certificates.o before revocation_certificates.o, so the system
 * list comes first; a later run that carries its own size word is the
 * revocation list (CONFIG_SYSTEM_REVOCATION_KEYS).  Any other run stays
 * trusted, as before: an image may hold a list we cannot place.
 */
static void classify(const uint8_t *p, size_t len, struct kernel_image *img)
{
	size_t i;

	for (i = 1; i < img->n_runs; i++)
		if (sized_list(p, len, &img->runs[0]) &&
		    sized_list(p, len, &img->runs[i]))
			img->runs[i].list = KERNEL_IMAGE_LIST_REVOCATION;
}

/* Search an image (ELF or raw) for the lists. */
static int find_lists(const uint8_t *p, size_t len, const struct rules_rules *kr,
		  struct kernel_image *img, const char **why)
{
	struct elf_file e;
	struct elf_section sh;
	unsigned i;
	int ret;

	img->data = p;
	img->len = len;
	ret = image_elf_open(p, len, &e);
	if (ret == -EBADMSG) {
		*why = "corrupt ELF header";
		return ret;
	}
	img->elf = ret == 0;
	if (img->elf && e.shnum) {
		ret = by_symbol(&e, img);
		if (ret < 0) {
			*why = "system_certificate_list lies outside its section";
			return ret;
		}
		if (ret)
			return 0;
		for (i = 0; i < e.shnum; i++) {
			const char *name;

			if (image_elf_shdr(&e, i, &sh)) {
				*why = "corrupt ELF section header";
				return -EBADMSG;
			}
			/* __INITRODATA is ".init.rodata"; the kernel's linker
			 * script (INIT_DATA) folds it into ".init.data" */
			name = image_elf_str(&e, e.shstrndx, sh.name);
			if (sh.type == 8 || !name ||
			    (strcmp(name, ".init.data") != 0 &&
			     strcmp(name, ".init.rodata") != 0))
				continue;
			img->how = KERNEL_IMAGE_SECTION;
			return scan(p, sh.offset, sh.offset + sh.size, kr, img);
		}
	}
	img->how = KERNEL_IMAGE_SCAN;
	return scan(p, 0, len, kr, img);
}

static int search(const uint8_t *p, size_t len, const struct rules_rules *kr,
		  struct kernel_image *img, const char **why)
{
	int ret = find_lists(p, len, kr, img, why);

	if (ret)
		return ret;
	if (img->how != KERNEL_IMAGE_SYMBOL)
		classify(p, len, img);
	find_hashes(p, len, img);
	return 0;
}

/* Decompress a payload into img; 0, or -errno with *why. */
static int unpack(const uint8_t *in, size_t len, enum compress_fmt c,
		  struct kernel_image *img, const char **why)
{
	size_t out_len, used;
	uint8_t *out;
	int ret;

	ret = compress_decode(c, in, len, KERNEL_IMAGE_DECOMPRESS_MAX, &out, &out_len,
			    &used, why);
	if (ret)
		return ret;
	if (!out_len) {
		free(out);
		*why = "the kernel payload is empty";
		return -EBADMSG;
	}
	free(img->owned);
	img->owned = out;
	img->len = out_len;
	img->comp = c;
	return 0;
}

/* A .lzma header off the start of a file: lzma's three-byte "magic" is
 * too common to try blindly, so the dictionary size must be sane and the
 * size unknown (all ones) or below the cap. */
static bool lzma_header_sane(const uint8_t *p, size_t avail)
{
	uint32_t dict;
	uint64_t size = 0;
	int i;

	if (avail < 13)
		return false;
	dict = le32(p + 1);
	for (i = 0; i < 8; i++)
		size |= (uint64_t)p[5 + i] << (8 * i);
	return dict >= 4096 && dict <= (1u << 30) &&
	       (size == UINT64_MAX || size <= KERNEL_IMAGE_DECOMPRESS_MAX);
}

/*
 * x86 boot protocol (Documentation/arch/x86/boot.rst): 0xAA55 at 0x1fe,
 * "HdrS" at 0x202, the version at 0x206; from 2.08 on, payload_offset
 * (0x248) and payload_length (0x24c) locate the compressed kernel after
 * the setup sectors (setup_sects at 0x1f1, 0 meaning 4).
 */
static int bzimage_payload(const uint8_t *p, size_t len, size_t *off,
			   size_t *plen)
{
	size_t setup;

	if (len < 0x250 || le16(p + 0x1fe) != 0xaa55 ||
	    memcmp(p + 0x202, "HdrS", 4) != 0 || le16(p + 0x206) < 0x208)
		return -EINVAL;
	setup = ((size_t)(p[0x1f1] ? p[0x1f1] : 4) + 1) * 512;
	*off = setup + le32(p + 0x248);
	*plen = le32(p + 0x24c);
	if (*off > len || *plen > len - *off || *plen == 0)
		return -EBADMSG;
	return 0;
}

/*
 * An ELF file with no certificate list and no "Linux version" banner
 * (init/version.c's linux_banner) is some other program: /bin/ls is no
 * kernel whose keys could be empty.
 */
static int search_elf(const uint8_t *buf, size_t len,
		      const struct rules_rules *kr, struct kernel_image *img,
		      const char **why)
{
	char rel[64];
	int ret = search(buf, len, kr, img, why);

	if (ret || img->n_runs || kernel_image_banner_release(buf, len, rel, sizeof(rel)) == 0)
		return ret;
	*why = "an ELF file with neither a Linux version banner nor a "
	       "built-in certificate list: no kernel image";
	return -EINVAL;
}

int kernel_image_find_certs(const uint8_t *buf, size_t len, const struct rules_rules *kr,
		  struct kernel_image *img, const char **why)
{
	size_t off, plen, i;
	enum compress_fmt c;
	int ret, tries = 0;

	memset(img, 0, sizeof(*img));
	*why = NULL;
	if (!len) {
		*why = "an empty file, no kernel image";
		return -EINVAL;
	}
	if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0)
		return search_elf(buf, len, kr, img, why);

	/* the boot header says where the payload is */
	if (bzimage_payload(buf, len, &off, &plen) == 0) {
		c = compress_detect_kernel(buf + off, plen);
		if (c != COMPRESS_NONE &&
		    unpack(buf + off, plen, c, img, why) == 0) {
			img->payload_off = off;
			return search(img->owned, img->len, kr, img, why);
		}
	}
	/* a compressed whole file (Image.gz), or a payload found by its
	 * magic (older boot protocols, damaged headers) */
	for (i = 0; i + 8 <= len && tries < KERNEL_IMAGE_MAX_TRIES; i++) {
		c = compress_detect_kernel(buf + i, len - i);
		if (c == COMPRESS_NONE)
			continue;
		if (c == COMPRESS_LZMA && !lzma_header_sane(buf + i, len - i))
			continue;
		tries++;
		ret = unpack(buf + i, len - i, c, img, why);
		if (ret == -ENOMEM)
			return ret;
		if (ret == 0 && img->len >= 4096) {
			img->payload_off = i;
			return search(img->owned, img->len, kr, img, why);
		}
		free(img->owned);
		img->owned = NULL;
		img->comp = COMPRESS_NONE;
	}
	/* an uncompressed raw Image, or nothing the kernel would boot */
	if (len >= 0x250 && le16(buf + 0x1fe) == 0xaa55) {
		*why = "a boot sector, but no kernel payload that decompresses";
		return -EBADMSG;
	}
	ret = search(buf, len, kr, img, why);
	if (!ret && img->n_runs == 0) {
		*why = "neither a bzImage, a compressed kernel nor an ELF vmlinux";
		return -EINVAL;
	}
	return ret;
}

void kernel_image_free(struct kernel_image *img)
{
	free(img->owned);
	memset(img, 0, sizeof(*img));
}

const char *kernel_image_how_name(enum kernel_image_how how)
{
	switch (how) {
	case KERNEL_IMAGE_SYMBOL:
		return "symbol system_certificate_list";
	case KERNEL_IMAGE_SECTION:
		return "scan of .init.data/.init.rodata";
	case KERNEL_IMAGE_SCAN:
		break;
	}
	return "scan of the whole image";
}
