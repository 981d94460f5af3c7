/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sign-file's positional words, decoded once into what each names, by
 * the kernel tool's layouts (scripts/sign-file.c: main()).  Plain C with
 * no library: the front end (sign-file/front.h) decodes with it too.
 */
#ifndef MODSIGN_SIGN_FILE_SIGN_WORDS_H
#define MODSIGN_SIGN_FILE_SIGN_WORDS_H

/* What the positional words mean (the kernel tool's layouts). */
enum ms_sign_words_verb {
	MS_SIGN_WORDS_SIGN,		/* <hash> <key> <x509> <module> [<dest>] */
	MS_SIGN_WORDS_RAW,		/* -s <raw-cms> <hash> <x509> <module> ... */
	MS_SIGN_WORDS_ATTACH,		/* --attach SIG <hash> <x509> <module> ... */
	MS_SIGN_WORDS_DIGEST,		/* --digest-only <hash> <module> */
};

/* The words by name; NULL for what the line does not give. */
struct ms_sign_words {
	const char *hash;	/* <hash> */
	const char *key;	/* <key> (not with --signer alone) */
	const char *raw;	/* -s's <raw-cms>, in <key>'s place */
	const char *cert;	/* <x509> */
	const char *module;	/* one file's <module> */
	const char *dest;	/* one file's <dest>, as given */
	const char *extra;	/* a word past the one-file layout (past
				 * <dest>, or <module> for --digest-only) */
	/* The words after <hash> [<key> <x509>]: --batch's modules,
	 * --agent's command after "--". */
	char **rest;
	int nrest;
};

/*
 * Decode words (nwords of them) for verb, head being how many come
 * before the first <module> (or --agent's command): 3 for <hash> <key>
 * <x509> (-s: <raw-cms> <hash> <x509>), 2 for --attach's <hash> <x509>,
 * 1 for <hash> alone (--signer, --digest-only).  Fewer words than head
 * leave the missing ones NULL.
 */
void ms_sign_words_decode(enum ms_sign_words_verb verb, int head, char **words,
			  int nwords, struct ms_sign_words *w);

#endif
