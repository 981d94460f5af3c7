// SPDX-License-Identifier: GPL-2.0-or-later
#include "sign-file/cms.h"
#include "sign-file/pkcs11/direct.h"
#include "sign-file/sign_many.h"

void ms_sign_many_start(struct ms_sign_many *m, struct ms_signer *s)
{
	*m = (struct ms_sign_many){ .tmpl = NULL };
	pthread_mutex_init(&m->serial, NULL);
	for (int k = 0; k < s->n; k++)
		if (s->toks[k])
			s->serial = &m->serial;
	if (!s->raw_sig && s->n)
		ms_cms_template_new(s->certs, s->keys, s->n, s->md,
				    s->use_keyid, &m->tmpl);
	s->tmpl = m->tmpl;
	/* One signer, on a token, with a template to put its value in. */
	if (m->tmpl && s->n == 1 && s->toks[0])
		ms_p11_direct_new(s->toks[0], s->certs[0], s->md, &m->direct);
	s->direct = m->direct;
}

void ms_sign_many_arm(const struct ms_signer *s)
{
	if (!s->direct || !s->serial)
		return;
	/* Someone is signing: the next one arms it after answering. */
	if (pthread_mutex_trylock(s->serial))
		return;
	ms_p11_direct_arm(s->direct);
	pthread_mutex_unlock(s->serial);
}

void ms_sign_many_end(struct ms_sign_many *m)
{
	/* before the signer's tokens close their sessions */
	ms_p11_direct_free(m->direct);
	ms_cms_template_free(m->tmpl);
	pthread_mutex_destroy(&m->serial);
	*m = (struct ms_sign_many){ .tmpl = NULL };
}
