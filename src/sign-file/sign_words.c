// SPDX-License-Identifier: GPL-2.0-or-later
#include <stddef.h>
#include <string.h>

#include "sign-file/sign_words.h"

/* words[i], or NULL past the end. */
static const char *word(char **words, int nwords, int i)
{
	return i < nwords ? words[i] : NULL;
}

void ms_sign_words_decode(enum ms_sign_words_verb verb, int head, char **words,
			  int nwords, struct ms_sign_words *w)
{
	memset(w, 0, sizeof(*w));
	switch (verb) {
	case MS_SIGN_WORDS_RAW:
		/* the raw CMS in the key's slot, the hash moved second */
		w->raw = word(words, nwords, 0);
		w->hash = word(words, nwords, 1);
		w->cert = word(words, nwords, 2);
		break;
	case MS_SIGN_WORDS_ATTACH:
		w->hash = word(words, nwords, 0);
		w->cert = word(words, nwords, 1);
		break;
	case MS_SIGN_WORDS_SIGN:
	case MS_SIGN_WORDS_DIGEST:
	default:
		w->hash = word(words, nwords, 0);
		if (head == 3) {
			w->key = word(words, nwords, 1);
			w->cert = word(words, nwords, 2);
		}
		break;
	}
	if (nwords < head)
		head = nwords;
	w->rest = words ? words + head : NULL;
	w->nrest = nwords - head;
	w->module = word(w->rest, w->nrest, 0);
	if (verb == MS_SIGN_WORDS_DIGEST) {
		w->extra = word(w->rest, w->nrest, 1);
	} else {
		w->dest = word(w->rest, w->nrest, 1);
		w->extra = word(w->rest, w->nrest, 2);
	}
}
