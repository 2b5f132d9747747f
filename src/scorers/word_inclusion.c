/* word_inclusion.c - the custom scorer of Mastra's createScorer example:
 * the fraction of distinct words of the user's request that appear in the
 * agent's final answer.
 *
 * It follows the JavaScript it mirrors: both texts are lower-cased, words
 * are runs of ASCII [A-Za-z0-9_] (the /\b\w+\b/ regex without the u flag,
 * so Japanese or Chinese text has no words and scores 0), and a word counts
 * as matched when it occurs anywhere in the answer as a substring. */
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/strbuf.h"

static const struct param_spec wi_params[] = {
	{ .name = "input", .kind = PARAM_STRING, .help = "the text whose words are looked for (default: the first user message)" },
	{ .name = "output", .kind = PARAM_STRING, .help = "the text searched (default: the agent's final answer)" },
	{ .name = NULL },
};

/* String.prototype.toLowerCase, as far as it can create ASCII: the only
 * non-ASCII letters whose lower case contains ASCII are U+0130 (to "i" and
 * a combining dot) and U+212A KELVIN SIGN (to "k"). */
static void js_lower(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	strbuf_grow(sb, n + n / 2);            /* U+0130 grows from 2 bytes to 3 */
	char *out = sb->buf + sb->len;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*out++ = (char)(*p + 32);
		else if (p[0] == 0xc4 && p[1] == 0xb0) {
			memcpy(out, "i\xcc\x87", 3);
			out += 3;
			p++;
		} else if (p[0] == 0xe2 && p[1] == 0x84 && p[2] == 0xaa) {
			*out++ = 'k';
			p += 2;
		} else
			*out++ = (char)*p;
	}
	sb->len = (size_t)(out - sb->buf);
	sb->buf[sb->len] = '\0';
}

static bool is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void wi_score(const struct scorer_conf *sc, const struct run *r, json_t *params,
                     const char *unset, struct verdict *out)
{
	const char *in = json_string_value(json_object_get(params, "input"));
	const char *outp = json_string_value(json_object_get(params, "output"));
	/* A reference given for input or output that found nothing skips the
	 * run; only an input or output not configured at all falls back to
	 * the run's own texts. */
	bool input_unset = !json_object_get(params, "input") && scorer_param_given(sc, "input");
	bool output_unset = !json_object_get(params, "output") && scorer_param_given(sc, "output");
	if (unset && (input_unset || output_unset)) {
		verdict_skip(out, "%s", unset);
		return;
	}
	if (!in)
		in = run_first_user_text(r);
	if (!outp)
		outp = run_final_agent_text(r);

	struct strbuf qin = STRBUF_INIT, qout = STRBUF_INIT;
	js_lower(&qin, in);
	js_lower(&qout, outp);
	const char *hay = qout.buf ? qout.buf : "";

	/* Distinct words in order of first appearance. */
	json_t *seen = json_object();
	size_t total = 0, matched = 0;
	const char *s = qin.buf ? qin.buf : "";
	for (size_t i = 0; s[i];) {
		if (!is_word((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (s[j] && is_word((unsigned char)s[j]))
			j++;
		char *w = strndup(s + i, j - i);
		if (!json_object_get(seen, w)) {
			json_object_set_new(seen, w, json_true());
			total++;
			if (strstr(hay, w))
				matched++;
		}
		free(w);
		i = j;
	}
	json_decref(seen);
	strbuf_release(&qin);
	strbuf_release(&qout);

	double score = total ? (double)matched / (double)total : 0;
	json_t *d = json_object();
	json_object_set_new(d, "totalWords", json_integer((json_int_t)total));
	json_object_set_new(d, "matchedWords", json_integer((json_int_t)matched));
	verdict_ok(out, sc->threshold, score, d);
}

static void wi_explain(const json_t *d, struct strbuf *out)
{
	json_int_t total = json_integer_value(json_object_get(d, "totalWords"));
	json_int_t matched = json_integer_value(json_object_get(d, "matchedWords"));
	strbuf_addf(out, "%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
	            " distinct words of the request appear in the final answer\n", matched, total);
	if (total == 0)
		strbuf_addstr(out, "the request has no ASCII words (e.g. it is Japanese or Chinese): score 0\n");
}

const struct scorer_ops scorer_word_inclusion = {
	.type = "word-inclusion",
	.summary = "fraction of the request's distinct words found in the final answer",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.params = wi_params,
	.check = NULL,
	.score = wi_score,
	.explain = wi_explain,
};
