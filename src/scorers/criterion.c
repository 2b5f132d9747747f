/* criterion.c - reads `criterion:`, the failure mode a scorer's or judge's verdicts answer for. */
#include <stdlib.h>
#include <string.h>

#include "scorers/criterion.h"

static int present_read(struct conf *cf, const struct conf_node *v, bool *pass)
{
	char *s;
	if (conf_str(cf, v, "present_when", &s))
		return -1;
	int rc = 0;
	if (!strcmp(s, "pass") || !strcmp(s, "fail"))
		*pass = !strcmp(s, "pass");
	else
		rc = conf_fail(cf, v, "'present_when' is pass or fail, not '%s'", s);
	free(s);
	return rc;
}

int criterion_read(struct conf *cf, const struct conf_node *v, struct criterion_decl *out)
{
	const struct conf_node *tag = v;
	out->present_when_pass = true;
	if (v && v->kind == CONF_MAP) {
		for (size_t i = 0; i + 1 < v->nkids; i += 2) {
			const struct conf_node *k = v->kids[i];
			if (!conf_key_is(k, "tag") && !conf_key_is(k, "present_when"))
				return conf_fail(cf, k, "unknown key '%.*s' in 'criterion' (known: tag, "
				                 "present_when)", (int)k->len, k->text);
		}
		tag = conf_get(v, "tag");
		if (!tag)
			return conf_fail(cf, v, "'criterion' needs 'tag' (a failure mode of tags:)");
		const struct conf_node *pw = conf_get(v, "present_when");
		if (pw && present_read(cf, pw, &out->present_when_pass))
			return -1;
	}
	if (conf_str(cf, tag, "criterion", &out->tag))
		return -1;
	out->line = tag->line;
	out->col = tag->col;
	if (!out->tag[0])
		return conf_fail(cf, tag, "'criterion' names a failure mode of tags:, not an empty text");
	return 0;
}

void criterion_free(struct criterion_decl *c)
{
	free(c->tag);
	c->tag = NULL;
}
