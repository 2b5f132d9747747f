/* reply.c - reading a model's answer: JSON wherever it is, and rounding.
 *
 * Models asked for JSON often wrap it in a Markdown fence or a sentence of
 * preamble even when told not to; the reply is still usable, so we look for
 * the object rather than fail on the first stray character. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "judge/judge.h"

static json_t *object_from(const char *s, size_t n)
{
	json_error_t jerr;
	json_t *v = json_loadb(s, n, 0, &jerr);
	if (v && !json_is_object(v)) {
		json_decref(v);
		v = NULL;
	}
	return v;
}

/* The contents of the first ``` fence (```json, ```JSON or bare). */
static json_t *from_fence(const char *text)
{
	for (const char *p = strstr(text, "```"); p; p = strstr(p + 3, "```")) {
		const char *body = p + 3;
		/* Skip an info string: the rest of the fence's line. */
		const char *nl = strchr(body, '\n');
		if (!nl)
			return NULL;
		const char *info = body;
		while (info < nl && (*info == ' ' || *info == '\t'))
			info++;
		bool word = info < nl && *info != '{';
		if (word)
			body = nl + 1;
		const char *end = strstr(body, "```");
		if (!end)
			return NULL;
		json_t *v = object_from(body, (size_t)(end - body));
		if (v)
			return v;
		p = end;
	}
	return NULL;
}

/* The end of the balanced {...} starting at s, strings and escapes
 * respected, or NULL. */
static const char *balanced_end(const char *s)
{
	int depth = 0;
	bool in_str = false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (in_str) {
			if (c == '\\' && p[1])
				p++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			return p + 1;
	}
	return NULL;
}

json_t *judge_reply_json(const char *text)
{
	if (!text)
		return NULL;
	json_t *v = object_from(text, strlen(text));
	if (v)
		return v;
	if ((v = from_fence(text)))
		return v;
	for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
		const char *end = balanced_end(p);
		if (!end)
			continue;
		if ((v = object_from(p, (size_t)(end - p))))
			return v;
	}
	return NULL;
}

/* JavaScript's Math.round(x): the nearest integer, halves up. floor(x +
 * 0.5) would be wrong for 0.49999999999999994, whose sum rounds to 1. */
static double js_round(double x)
{
	double f = floor(x);
	return x - f >= 0.5 ? f + 1 : f;
}

double judge_round2(double x)
{
	return js_round((x + DBL_EPSILON) * 100) / 100;
}
