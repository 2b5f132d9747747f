/* word_inclusion.c - the custom scorer of Mastra's createScorer example:
 * the fraction of distinct words of the user's request that appear in the
 * agent's final answer.
 *
 * It follows the JavaScript it mirrors: both texts are lower-cased, words
 * are runs of ASCII [A-Za-z0-9_] (the /\b\w+\b/ regex without the u flag,
 * so Japanese or Chinese text has no words and scores 0), and a word counts
 * as matched when it occurs anywhere in the answer as a substring. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scorers/params.h"
#include "scorers/scorer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const struct param_spec wi_params[] = {
	{ .name = "input", .kind = PARAM_STRING, .help = "the text whose words are looked for (default: the first user message)" },
	{ .name = "output", .kind = PARAM_STRING, .help = "the text searched (default: the agent's final answer)" },
	{ .name = NULL },
};

/* ASCII letters lowered without a branch a byte: the compiler makes this
 * vector code. */
static void lower_ascii(unsigned char *out, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)(p[i] + ((unsigned char)(p[i] - 'A') < 26 ? 32 : 0));
}

static const unsigned char *find_or_end(const unsigned char *p, const unsigned char *end, int c)
{
	const unsigned char *q = memchr(p, c, (size_t)(end - p));
	return q ? q : end;
}

/* String.prototype.toLowerCase, as far as it can create ASCII: the only
 * non-ASCII letters whose lower case contains ASCII are U+0130 (to "i" and
 * a combining dot) and U+212A KELVIN SIGN (to "k"). The text runs between
 * their lead bytes (0xc4, 0xe2) are lowered whole: a tool's output of
 * 100 MB is the answer some runs end with. */
static void js_lower(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	strbuf_grow(sb, n + n / 2);            /* U+0130 grows from 2 bytes to 3 */
	unsigned char *out = (unsigned char *)sb->buf + sb->len, *start = out;
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	const unsigned char *c4 = find_or_end(p, end, 0xc4), *e2 = find_or_end(p, end, 0xe2);
	while (p < end) {
		const unsigned char *stop = c4 < e2 ? c4 : e2;
		lower_ascii(out, p, (size_t)(stop - p));
		out += stop - p;
		p = stop;
		if (p == end)
			break;
		if (p[0] == 0xc4 && p[1] == 0xb0) {
			memcpy(out, "i\xcc\x87", 3);
			out += 3;
			p += 2;
		} else if (p[0] == 0xe2 && p[1] == 0x84 && p[2] == 0xaa) {
			*out++ = 'k';
			p += 3;
		} else {
			*out++ = *p++;
		}
		if (c4 < p)
			c4 = find_or_end(p, end, 0xc4);
		if (e2 < p)
			e2 = find_or_end(p, end, 0xe2);
	}
	sb->len += (size_t)(out - start);
	sb->buf[sb->len] = '\0';
}

static bool is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The distinct words seen so far, as (offset, length) into the lower-cased
 * request: an open-addressing set, so a word costs no allocation. */
struct word_set {
	const char *text;
	uint32_t *slots;        /* offset + 1, 0 for empty */
	uint32_t *lens;
	size_t cap, n;
	uint32_t small_slots[64], small_lens[64];
};

static uint64_t word_hash(const char *w, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)w[i]) * 1099511628211ULL;
	return h;
}

static void word_set_init(struct word_set *ws, const char *text)
{
	memset(ws, 0, sizeof *ws);
	ws->text = text;
	ws->slots = ws->small_slots;
	ws->lens = ws->small_lens;
	ws->cap = 64;
}

static void word_set_free(struct word_set *ws)
{
	if (ws->slots != ws->small_slots) {
		free(ws->slots);
		free(ws->lens);
	}
}

static bool word_set_put(struct word_set *ws, size_t off, size_t len);

static void word_set_grow(struct word_set *ws)
{
	uint32_t *slots = ws->slots, *lens = ws->lens;
	size_t cap = ws->cap;
	ws->cap = cap * 2;
	ws->slots = xcalloc(ws->cap, sizeof *ws->slots);
	ws->lens = xcalloc(ws->cap, sizeof *ws->lens);
	ws->n = 0;
	for (size_t i = 0; i < cap; i++)
		if (slots[i])
			word_set_put(ws, slots[i] - 1, lens[i]);
	if (slots != ws->small_slots) {
		free(slots);
		free(lens);
	}
}

/* Adds the word at text[off .. off+len); false when it was there already. */
static bool word_set_put(struct word_set *ws, size_t off, size_t len)
{
	if ((ws->n + 1) * 2 > ws->cap)
		word_set_grow(ws);
	const char *w = ws->text + off;
	size_t i = (size_t)word_hash(w, len) & (ws->cap - 1);
	while (ws->slots[i]) {
		if (ws->lens[i] == len && memcmp(ws->text + ws->slots[i] - 1, w, len) == 0)
			return false;
		i = (i + 1) & (ws->cap - 1);
	}
	ws->slots[i] = (uint32_t)off + 1;
	ws->lens[i] = (uint32_t)len;
	ws->n++;
	return true;
}

/* The pairs of adjacent word bytes of the answer, and its word bytes: a
 * word can occur in the answer only if each of its bytes, and each pair
 * of its adjacent bytes, does. Most words that do not occur are told so
 * here, without a search; a word of one byte is answered exactly. */
struct hay_pairs {
	uint64_t pairs[64];     /* 64 x 64 bits: symbol of the first byte, of the second */
	uint64_t bytes;
};

static unsigned word_symbol(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 1;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 27;
	if (c >= '0' && c <= '9')
		return c - '0' + 53;
	return 63;              /* '_' */
}

/* word_symbol of every byte, 0 for a byte that is not a word byte. */
static unsigned char symbols[256];

static void symbols_init(void)
{
	for (unsigned c = 0; c < 256; c++)
		symbols[c] = is_word((unsigned char)c) ? (unsigned char)word_symbol((unsigned char)c) : 0;
}

static void hay_pairs_init(struct hay_pairs *hp, const char *hay, size_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, symbols_init);
	/* Without a branch a byte: a pair whose first byte is not a word
	 * byte lands in row 0 and a byte that is not one sets bit 0, both
	 * ignored. */
	uint64_t pairs[64] = { 0 }, bytes = 0;
	unsigned prev = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned sym = symbols[(unsigned char)hay[i]];
		bytes |= 1ULL << sym;
		pairs[prev] |= 1ULL << sym;
		prev = sym;
	}
	memset(hp, 0, sizeof *hp);
	hp->bytes = bytes & ~1ULL;
	for (unsigned k = 1; k < 64; k++)
		hp->pairs[k] = pairs[k] & ~1ULL;
}

/* Whether the word w (word bytes only) occurs in hay as a substring. */
static bool hay_has(const struct hay_pairs *hp, const char *hay, size_t n, const char *w,
                    size_t len)
{
	unsigned prev = word_symbol((unsigned char)w[0]);
	if (!(hp->bytes & (1ULL << prev)))
		return false;
	if (len == 1)
		return true;
	for (size_t i = 1; i < len; i++) {
		unsigned sym = word_symbol((unsigned char)w[i]);
		if (!(hp->pairs[prev] & (1ULL << sym)))
			return false;
		prev = sym;
	}
	return memmem(hay, n, w, len) != NULL;
}

static void wi_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                     json_t *params, const char *unset, struct verdict *out)
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

	/* Distinct words in order of first appearance; a word is matched
	 * where it occurs in the answer as a substring (strstr's test). */
	size_t total = 0, matched = 0;
	size_t haylen = qout.len;
	const char *s = qin.buf ? qin.buf : "";
	struct word_set seen;
	word_set_init(&seen, s);
	struct hay_pairs hp;
	hay_pairs_init(&hp, hay, haylen);
	for (size_t i = 0; s[i];) {
		if (!is_word((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (s[j] && is_word((unsigned char)s[j]))
			j++;
		if (word_set_put(&seen, i, j - i)) {
			total++;
			if (hay_has(&hp, hay, haylen, s + i, j - i))
				matched++;
		}
		i = j;
	}
	word_set_free(&seen);
	strbuf_release(&qin);
	strbuf_release(&qout);

	double score = total ? (double)matched / (double)total : 0;
	json_t *d = json_object();      /* ASCII keys: no UTF-8 check needed */
	json_object_set_new_nocheck(d, "totalWords", json_integer((json_int_t)total));
	json_object_set_new_nocheck(d, "matchedWords", json_integer((json_int_t)matched));
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
