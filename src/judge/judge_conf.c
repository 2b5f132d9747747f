/* judge_conf.c - the `judges:` section: each judge's keys read by a key
 * table, the provider's own keys and checks from its provider_ops, the
 * prompt read and checked against the rubric, and the judge's hash.
 *
 * The keys are read in the table's order (not the file's), so that a
 * judge's first error is the same whatever order its keys are written in:
 * the id, the rubric, the model and its provider, then the rest. */
#include "judge/judge_conf.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/prompt.h"
#include "judge/provider.h"
#include "judge/trust.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- judges ------------------------------------------------------------ */

#define JUDGE_KEYS "id, rubric, model, base_url, endpoint, api_version, api_key_env, tools, " \
                   "threshold, scale, prompt_file, timeout, max_retries, examples, criterion, swap"

static void judge_free(struct judge_conf *j)
{
	free(j->id);
	free(j->model);
	free(j->base_url);
	free(j->endpoint);
	free(j->api_version);
	free(j->api_key_env);
	free(j->confirm_host);
	free(j->confirm_key_env);
	json_decref(j->tools);
	free(j->prompt_text);
	free(j->prompt_source);
	free(j->examples.splits);
	criterion_free(&j->criterion);
	memset(j, 0, sizeof *j);
}

static int url_parse(struct conf *x, const struct conf_node *v, const char *what, char **out)
{
	if (conf_str(x, v, what, out))
		return -1;
	if (strncmp(*out, "http://", 7) != 0 && strncmp(*out, "https://", 8) != 0)
		return conf_fail(x, v, "'%s' must be an http:// or https:// address, got '%s'", what, *out);
	return 0;
}

static int env_name_parse(struct conf *x, const struct conf_node *v, char **out)
{
	if (conf_str(x, v, "api_key_env", out))
		return -1;
	for (const char *p = *out; *p; p++) {
		char ch = *p;
		bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_' ||
		          (p != *out && ch >= '0' && ch <= '9');
		if (!ok)
			return conf_fail(x, v, "'api_key_env' names an environment variable (letters, digits "
			            "and _), got '%s'", *out);
	}
	return 0;
}

/* One tool's keys: name (or Mastra's id), description, parameters. */
static int tool_keys(struct conf *x, const struct conf_node *t, char **name,
                     const struct conf_node **namen, char **desc, json_t **params)
{
	int rc = 0;
	for (size_t k = 0; k + 1 < t->nkids && rc == 0; k += 2) {
		const struct conf_node *kk = t->kids[k], *vv = t->kids[k + 1];
		if (conf_key_is(kk, "name") || conf_key_is(kk, "id")) {
			/* Mastra's tools have an id where the others have a name. */
			if (*name)
				rc = conf_fail(x, kk, "a tool has both 'name' and 'id'");
			else
				rc = conf_str(x, vv, "name", name);
			*namen = vv;
		} else if (conf_key_is(kk, "description")) {
			rc = conf_str(x, vv, "description", desc);
		} else if (conf_key_is(kk, "parameters")) {
			rc = conf_json(x, vv, params);
			if (rc == 0 && !json_is_object(*params))
				rc = conf_fail(x, vv, "a tool's 'parameters' must be a JSON Schema mapping");
		} else {
			rc = conf_unknown_key(x, kk, "name, description, parameters");
		}
	}
	return rc;
}

/* One {name, description, parameters?} appended to list. */
static int tool_read(struct conf *x, const struct conf_node *t, json_t *list)
{
	const struct conf_node *namen = NULL;
	char *name = NULL, *desc = NULL;
	json_t *params = NULL;
	if (t->kind != CONF_MAP)
		return conf_fail(x, t, "each tool must be a mapping {name, description}, got %s",
		                 conf_kind_name(t));
	int rc = tool_keys(x, t, &name, &namen, &desc, &params);
	if (rc == 0 && !name)
		rc = conf_fail(x, t, "a tool needs 'name'");
	if (rc == 0 && !desc)
		rc = conf_fail(x, t, "tool '%s' needs 'description'", name);
	for (size_t k = 0; rc == 0 && k < json_array_size(list); k++)
		if (strcmp(json_string_value(json_object_get(json_array_get(list, k), "name")),
		           name) == 0)
			rc = conf_fail(x, namen, "tool '%s' is listed twice", name);
	if (rc == 0) {
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(o, "description", json_string(desc));
		if (params)
			json_object_set(o, "parameters", params);
		if (!json_object_get(o, "name") || !json_object_get(o, "description"))
			rc = conf_fail(x, t, "the tool is not valid UTF-8");
		json_array_append_new(list, o);
	}
	free(name);
	free(desc);
	json_decref(params);
	return rc ? -1 : 0;
}

/* tools: from-run, or [{name, description, parameters?}]. */
static int judge_tools_parse(struct conf *x, const struct conf_node *v, json_t **out)
{
	static const char shape[] = "'tools' must be from-run or a list of {name, description}";
	*out = NULL;
	if (v->kind == CONF_SCALAR) {
		if (conf_key_is(v, "from-run"))
			return 0;
		return conf_fail(x, v, "%s, got '%.*s'", shape, (int)v->len, v->text);
	}
	if (v->kind != CONF_SEQ)
		return conf_fail(x, v, "%s, got a mapping", shape);
	if (v->nkids == 0)
		return conf_fail(x, v, "'tools' lists no tool (tools: from-run takes the run's definitions)");
	*out = json_array();
	for (size_t i = 0; i < v->nkids; i++)
		if (tool_read(x, v->kids[i], *out))
			return -1;
	return 0;
}

/* scale: {min, max, pass}. */
static int judge_scale_parse(struct conf *x, struct judge_conf *j, const struct conf_node *v,
                             const struct conf_node **passn, double *pass)
{
	const struct conf_node *minn = NULL, *maxn = NULL;
	*passn = NULL;
	if (conf_map(x, v, "scale"))
		return -1;
	for (size_t i = 0; i + 1 < v->nkids; i += 2) {
		const struct conf_node *k = v->kids[i], *n = v->kids[i + 1];
		if (conf_key_is(k, "min"))
			minn = n;
		else if (conf_key_is(k, "max"))
			maxn = n;
		else if (conf_key_is(k, "pass"))
			*passn = n;
		else
			return conf_unknown_key(x, k, "min, max, pass");
	}
	if (!minn)
		return conf_fail(x, v, "'scale' needs 'min'");
	if (!maxn)
		return conf_fail(x, v, "'scale' needs 'max'");
	if (conf_num(x, minn, "min", &j->scale_min) || conf_num(x, maxn, "max", &j->scale_max))
		return -1;
	if (!(j->scale_min < j->scale_max))
		return conf_fail(x, maxn, "'max' (%g) must be above 'min' (%g)", j->scale_max, j->scale_min);
	if (*passn && conf_num(x, *passn, "pass", pass))
		return -1;
	return 0;
}

/* Reads the judge's prompt (its prompt_file, else the rubric's built-in
 * one from the data folder) and checks it against the rubric, so that a
 * typo in a placeholder is found now rather than in every verdict. */
static int judge_prompt_load(struct conf *x, struct judge_conf *j, const char *datadir,
                             const struct conf_node *filen, const struct conf_node *rubricn)
{
	struct error msg = {0};
	const struct conf_node *at = filen ? filen : rubricn;
	if (filen) {
		if (conf_file(x, filen, "prompt_file", &j->prompt_source))
			return -1;
	} else {
		j->prompt_source = prompt_builtin_path(datadir, j->rubric->prompt_file);
	}
	if (prompt_read(j->prompt_source, &j->prompt_text, &msg) < 0) {
		if (filen)
			return conf_fail(x, at, "cannot read the prompt: %s", msg.msg);
		return conf_fail(x, at, "cannot read the built-in prompt of '%s': %s (is the data folder "
		            "there? TCREVIEW_DATADIR names it)", j->rubric->name, msg.msg);
	}
	int line, col;
	if (rubric_check_prompt(j->rubric, j->prompt_text, &line, &col, &msg) < 0) {
		if (line > 0)
			return conf_fail_in(x, j->prompt_source, line, col, "%s", msg.msg);
		return conf_fail(x, at, "%s: %s", j->prompt_source, msg.msg);
	}
	prompt_hash(j->prompt_text, j->prompt_hash);
	return 0;
}

/* The examples go last, after base_hash is taken: the judge without
 * them is the same judge, whose verdicts pick: disagreements reads. */
static void examples_hash(uint64_t *h, const struct judge_examples_conf *e)
{
	char num[160];
	snprintf(num, sizeof num, "examples=%d,%s,%s,seed=%llu,splits=", e->k,
	         judge_pick_name(e->pick), e->split, (unsigned long long)e->seed);
	hash_add_str(h, num);
	for (size_t i = 0; i < e->spec.n; i++) {
		snprintf(num, sizeof num, "%s<%.17g;", e->spec.names[i], e->spec.upto[i]);
		hash_add_str(h, num);
	}
	hash_add_str(h, "\n");
}

/* FNV-1a over what decides a verdict. The id, the key's variable and the
 * timeouts are left out: renaming a judge or moving its key keeps its
 * cached verdicts. */
static void judge_hash(struct judge_conf *j)
{
	uint64_t h = HASH_FNV_SEED;
	char num[128];
	hash_add_str(&h, "rubric=");
	hash_add_str(&h, j->rubric->name);
	hash_add_str(&h, "\nmodel=");
	hash_add_str(&h, j->model);
	snprintf(num, sizeof num, "\nprovider=%s%d", judge_provider_prefix(j->provider), (int)j->provider);
	hash_add_str(&h, num);
	hash_add_str(&h, "\nbase_url=");
	hash_add_str(&h, j->base_url ? j->base_url : "");
	hash_add_str(&h, "\nendpoint=");
	hash_add_str(&h, j->endpoint ? j->endpoint : "");
	hash_add_str(&h, "\napi_version=");
	hash_add_str(&h, j->api_version ? j->api_version : "");
	hash_add_str(&h, "\ntools=");
	if (j->tools)
		hash_add_json(&h, j->tools);
	else
		hash_add_str(&h, "from-run");
	snprintf(num, sizeof num, "\nthreshold=%.17g\nscale=%.17g..%.17g\nprompt=", j->threshold,
	         j->scale_min, j->scale_max);
	hash_add_str(&h, num);
	hash_add_str(&h, j->prompt_hash);
	hash_add_str(&h, "\n");
	/* Only when set, so the other judges' hashes stay as they were. */
	if (j->swap)
		hash_add_str(&h, "swap\n");
	hash_hex(h, j->base_hash);
	if (j->examples.k)
		examples_hash(&h, &j->examples);
	hash_hex(h, j->hash);
}


/* ---- one judge, by its key table --------------------------------------- */

enum judge_key {
	K_ID, K_RUBRIC, K_BASE_URL, K_MODEL, K_ENDPOINT, K_API_VERSION, K_API_KEY_ENV, K_TOOLS,
	K_SCALE, K_THRESHOLD, K_TIMEOUT, K_MAX_RETRIES, K_EXAMPLES, K_CRITERION, K_SWAP,
	K_PROMPT_FILE, K_COUNT
};

/* What the key readers share while one judge is read. */
struct judge_read {
	struct judge_conf *list;    /* the judges so far; the last is being read */
	size_t n;
	struct judge_conf *j;
	const struct conf_node *m;  /* the judge's mapping */
	const struct conf_node *slots[K_COUNT];
	judge_id_check check;
	void *arg;
	const struct judge_read_opts *opts;     /* lent by the caller; never NULL */
};

static int id_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	struct judge_conf *j = r->j;
	if (!v)
		return conf_fail(x, r->m, "judge has no 'id'");
	if (conf_str(x, v, "id", &j->id))
		return -1;
	if (!conf_is_id(j->id))
		return conf_fail(x, v, "invalid judge id '%s' (use letters, digits and _ . : -)", j->id);
	for (size_t i = 0; i + 1 < r->n; i++)
		if (strcmp(r->list[i].id, j->id) == 0)
			return conf_fail(x, v, "duplicate judge id '%s' (first at line %d)", j->id,
			                 r->list[i].line);
	return r->check ? r->check(x, v, j->id, r->arg) : 0;
}

static int rubric_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	char *name;
	if (!v)
		return conf_fail(x, r->m, "judge '%s' has no 'rubric'", r->j->id);
	if (conf_str(x, v, "rubric", &name))
		return -1;
	r->j->rubric = rubric_find(name);
	if (!r->j->rubric) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; rubric_table[i]; i++) {
			if (i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, rubric_table[i]->name);
		}
		conf_fail(x, v, "unknown rubric '%s' (known: %s)", name, sb.buf ? sb.buf : "none");
		strbuf_release(&sb);
	}
	free(name);
	return r->j->rubric ? 0 : -1;
}

static int base_url_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	return url_parse(x, v, "base_url", &r->j->base_url);
}

/* The keys a provider may own (provider_ops.own_keys), where they go and
 * how they are read. */
static const struct own_key {
	const char *name;
	enum judge_key slot;
	size_t offset;
	bool url;
} own_key_table[] = {
	{ "endpoint", K_ENDPOINT, offsetof(struct judge_conf, endpoint), true },
	{ "api_version", K_API_VERSION, offsetof(struct judge_conf, api_version), false },
};

static const struct own_key *own_key_find(const char *name)
{
	for (size_t i = 0; i < sizeof own_key_table / sizeof *own_key_table; i++)
		if (strcmp(own_key_table[i].name, name) == 0)
			return &own_key_table[i];
	return NULL;
}

static bool owns(const struct provider_ops *p, const char *key)
{
	for (const char *const *k = p->own_keys; k && *k; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

static char **own_field(struct judge_conf *j, const struct own_key *ok)
{
	return (char **)(void *)((char *)j + ok->offset);
}

/* Another provider's key is refused; the judge's provider checks that
 * its own are there (before their values are read, so that a missing key
 * is reported first), then they are read. */
static int provider_keys(struct conf *x, struct judge_read *r)
{
	const struct provider_ops *own = provider_of(r->j->provider);
	for (size_t i = 0; provider_table[i]; i++) {
		const struct provider_ops *p = provider_table[i];
		for (const char *const *k = p->own_keys; p != own && k && *k; k++) {
			const struct own_key *ok = own_key_find(*k);
			if (ok && r->slots[ok->slot] && !(own && owns(own, *k)))
				return conf_fail(x, r->slots[ok->slot], "'%s' is only for %s models", *k,
				                 p->prefix);
		}
	}
	if (!own || !own->own_keys)
		return 0;
	for (const char *const *k = own->own_keys; *k; k++) {
		const struct own_key *ok = own_key_find(*k);
		const struct conf_node *n = ok ? r->slots[ok->slot] : NULL;
		if (n)
			*own_field(r->j, ok) = xstrndup(n->text ? n->text : "", n->len);
	}
	struct error msg = {0};
	const char *key = NULL;
	int rc = own->check ? own->check(r->j, &key, &msg) : 0;
	for (const char *const *k = own->own_keys; *k; k++) {
		const struct own_key *ok = own_key_find(*k);
		if (ok) {
			free(*own_field(r->j, ok));
			*own_field(r->j, ok) = NULL;
		}
	}
	if (rc) {
		const struct own_key *ok = key ? own_key_find(key) : NULL;
		const struct conf_node *at = ok && r->slots[ok->slot] ? r->slots[ok->slot] : r->m;
		return conf_fail(x, at, "%s", msg.msg);
	}
	for (const char *const *k = own->own_keys; *k; k++) {
		const struct own_key *ok = own_key_find(*k);
		const struct conf_node *n = ok ? r->slots[ok->slot] : NULL;
		if (n && (ok->url ? url_parse(x, n, ok->name, own_field(r->j, ok))
		                  : conf_str(x, n, ok->name, own_field(r->j, ok))))
			return -1;
	}
	return 0;
}

static int model_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	struct judge_conf *j = r->j;
	char *model;
	const char *rest;
	if (!v)
		return conf_fail(x, r->m, "judge '%s' has no 'model' (e.g. openai/gpt-4o-mini)", j->id);
	if (conf_str(x, v, "model", &model))
		return -1;
	if (judge_parse_model(model, j->base_url != NULL, &j->provider, &rest) < 0) {
		if (strchr(model, '/') && !strchr(model, '/')[1])
			conf_fail(x, v, "model '%s' names no model after its provider", model);
		else
			conf_fail(x, v, "unknown provider in model '%s' (known: openai/, ollama/, azure/, "
			          "anthropic/; another OpenAI-compatible server needs base_url)", model);
		free(model);
		return -1;
	}
	j->model = xstrdup(rest);
	free(model);
	return provider_keys(x, r);
}

/* Read after the model and its provider's keys, so that where the judge's
 * requests and key go is known and checked here (judge/trust.h). */
static int key_env_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	if (v && env_name_parse(x, v, &r->j->api_key_env))
		return -1;
	struct error msg = {0};
	const char *key;
	if (judge_trust_check(r->opts->trust, r->j, &key, &msg) == 0)
		return 0;
	const struct conf_node *at = r->m;
	if (key && strcmp(key, "api_key_env") == 0)
		at = r->slots[K_API_KEY_ENV];
	else if (key && strcmp(key, "base_url") == 0)
		at = r->slots[K_BASE_URL];
	else if (key && strcmp(key, "endpoint") == 0)
		at = r->slots[K_ENDPOINT];
	return conf_fail(x, at ? at : r->m, "%s", msg.msg);
}

static int tools_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	return judge_tools_parse(x, v, &r->j->tools);
}

/* The scale (the rubric's, or a custom judge's own) and the pass mark:
 * scale's 'pass' or 'threshold', on the scale. */
static int scale_read(struct conf *x, const struct conf_node *scalen, void *store)
{
	struct judge_read *r = store;
	struct judge_conf *j = r->j;
	const struct conf_node *thresholdn = r->slots[K_THRESHOLD], *passn = NULL;
	double pass = 0;
	/* Only a custom judge has no built-in prompt, and so no fixed scale. */
	bool custom = !j->rubric->prompt_file;
	if (custom) {
		if (!r->slots[K_PROMPT_FILE])
			return conf_fail(x, r->m, "custom judge '%s' needs 'prompt_file'", j->id);
		if (!scalen)
			return conf_fail(x, r->m, "custom judge '%s' needs 'scale' ({min, max, pass})", j->id);
		if (judge_scale_parse(x, j, scalen, &passn, &pass))
			return -1;
		if (passn && thresholdn)
			return conf_fail(x, thresholdn, "give the pass mark once: scale's 'pass' or 'threshold'");
		if (!passn && !thresholdn)
			return conf_fail(x, scalen, "'scale' needs 'pass' (the lowest passing score)");
	} else {
		if (scalen)
			return conf_fail(x, scalen, "'scale' is only for custom judges ('%s' scores %s)",
			                 j->rubric->name, scale_name(j->rubric->scale));
		double lo, hi;
		scale_range(j->rubric->scale, &lo, &hi);
		j->scale_min = lo;
		j->scale_max = hi;
	}
	j->threshold = passn ? pass : j->rubric->default_threshold;
	const struct conf_node *markn = passn ? passn : thresholdn;
	if (thresholdn && conf_num(x, thresholdn, "threshold", &j->threshold))
		return -1;
	if (markn && (j->threshold < j->scale_min || j->threshold > j->scale_max))
		return conf_fail(x, markn, "%s %g is off the scale of '%s' (%g..%g)",
		                 passn ? "pass" : "threshold", j->threshold, j->id, j->scale_min,
		                 j->scale_max);
	if (markn && j->rubric->scale == SCALE_1TO5 && !custom && j->threshold != floor(j->threshold))
		return conf_fail(x, markn, "threshold %g is not one of the levels 1..5", j->threshold);
	return 0;
}

static int timeout_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	if (conf_num(x, v, "timeout", &r->j->timeout_s))
		return -1;
	if (!(r->j->timeout_s > 0) || r->j->timeout_s > 3600)
		return conf_fail(x, v, "'timeout' must be a number of seconds above 0 (at most 3600)");
	return 0;
}

static int retries_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	long n;
	if (conf_int(x, v, "max_retries", 0, 20, &n))
		return -1;
	r->j->max_retries = (int)n;
	return 0;
}

#define LATER CONF_LATER
#define ALWAYS (CONF_LATER | CONF_ALWAYS)

/* ---- examples: {k, pick, split, splits, seed} ---------------------------- */

enum examples_key { EX_K, EX_PICK, EX_SEED, EX_SPLITS, EX_SPLIT, EX_COUNT };

struct examples_read {
	struct judge_examples_conf *e;
	const struct conf_node *slots[EX_COUNT];
};

static int ex_k_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct examples_read *r = store;
	long k;
	if (conf_int(x, v, "k", 1, JUDGE_EXAMPLES_MAX, &k))
		return -1;
	r->e->k = (int)k;
	return 0;
}

static int ex_pick_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct examples_read *r = store;
	char *name;
	if (conf_str(x, v, "pick", &name))
		return -1;
	int p = judge_pick_find(name);
	if (p < 0)
		conf_fail(x, v, "unknown pick '%s' (known: %s, %s, %s)", name,
		          judge_pick_name(PICK_DISAGREEMENTS), judge_pick_name(PICK_STRATIFIED),
		          judge_pick_name(PICK_RECENT));
	free(name);
	r->e->pick = p < 0 ? PICK_DISAGREEMENTS : (enum judge_pick)p;
	return p < 0 ? -1 : 0;
}

static int ex_seed_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct examples_read *r = store;
	long seed;
	/* Whole numbers a double holds exactly, as YAML numbers are read. */
	if (conf_int(x, v, "seed", 0, 9007199254740991L, &seed))
		return -1;
	r->e->seed = (uint64_t)seed;
	return 0;
}

/* The splits as `tcreview export --split` takes them; SPLIT_DEFAULT when
 * not given, so a judge's examples come from the split export calls so. */
static int ex_splits_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct examples_read *r = store;
	struct judge_examples_conf *e = r->e;
	struct error why = {0};
	if (v && conf_str(x, v, "splits", &e->splits))
		return -1;
	if (!v)
		e->splits = xstrdup(SPLIT_DEFAULT);
	if (split_parse(&e->spec, e->splits, e->seed, &why) < 0)
		return conf_fail(x, v, "'splits': %s", why.msg);
	return 0;
}

static int ex_split_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct examples_read *r = store;
	struct judge_examples_conf *e = r->e;
	char *name;
	if (conf_str(x, v, "split", &name))
		return -1;
	int rc = 0;
	if (split_find(&e->spec, name) < 0 || strlen(name) >= sizeof e->split) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < e->spec.n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", e->spec.names[i]);
		rc = conf_fail(x, v, "unknown split '%s' (the splits are %s)", name, sb.buf);
		strbuf_release(&sb);
	} else {
		snprintf(e->split, sizeof e->split, "%s", name);
	}
	free(name);
	return rc;
}

static const struct conf_key examples_keys[] = {
	[EX_K] = { .name = "k", .kind = CONF_K_FN, .flags = CONF_REQUIRED, .read = ex_k_read,
	           .missing = "'examples' needs 'k' (how many examples to show, 1..20)" },
	[EX_PICK] = { .name = "pick", .kind = CONF_K_FN, .flags = CONF_REQUIRED,
	              .read = ex_pick_read,
	              .missing = "'examples' needs 'pick' (disagreements, stratified or recent)" },
	[EX_SEED] = { .name = "seed", .kind = CONF_K_FN, .flags = LATER, .read = ex_seed_read },
	[EX_SPLITS] = { .name = "splits", .kind = CONF_K_FN, .flags = ALWAYS,
	                .read = ex_splits_read },
	[EX_SPLIT] = { .name = "split", .kind = CONF_K_FN, .flags = LATER | CONF_REQUIRED,
	               .read = ex_split_read,
	               .missing = "'examples' needs 'split' (the split they come from, e.g. train)" },
	[EX_COUNT] = { .name = NULL },
};

static const struct conf_table examples_table = {
	.keys = examples_keys,
	.known = "k, pick, split, splits, seed",
	.unknown_for = "in 'examples'",
};

static int examples_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	struct examples_read er = { .e = &r->j->examples };
	if (conf_map(x, v, "examples"))
		return -1;
	er.e->line = v->line;
	er.e->col = v->col;
	if (conf_keys(x, v, &examples_table, &er, er.slots))
		return -1;
	return 0;
}

/* A judge shown examples its prompt has no place for would be asked as
 * if it had none, under another cache key: refused. */
static int examples_placed(struct conf *x, const struct judge_read *r)
{
	const struct judge_conf *j = r->j;
	struct prompt_doc doc;
	int line, col;
	struct error msg = {0};
	if (!j->examples.k || prompt_parse(j->prompt_text, &doc, &line, &col, &msg) < 0)
		return 0;
	for (size_t i = 0; i < doc.n; i++)
		if (prompt_uses(&doc.sec[i], "examples"))
			return 0;
	return conf_fail(x, r->slots[K_EXAMPLES], "judge '%s' has examples but its prompt (%s) has no "
	                 "{{examples}} placeholder to show them in", j->id, j->prompt_source);
}

static int criterion_key_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	return criterion_read(x, v, &r->j->criterion);
}

/* swap: for a pairwise judge only; such a judge is shown no examples and
 * answers for no failure mode, as both are about one run. */
static int swap_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	struct judge_conf *j = r->j;
	if (!judge_is_pairwise(j)) {
		if (v)
			return conf_fail(x, v, "'swap' is only for pairwise judges (rubric: pairwise)");
		return 0;
	}
	if (r->slots[K_EXAMPLES])
		return conf_fail(x, r->slots[K_EXAMPLES], "a pairwise judge is shown no examples");
	if (r->slots[K_CRITERION])
		return conf_fail(x, r->slots[K_CRITERION], "a pairwise judge answers for no failure "
		                 "mode ('criterion' is about one run)");
	return v ? conf_bool(x, v, "swap", &j->swap) : 0;
}

/* Last, as it needs the rubric; then everything that decides a verdict is
 * known and hashed. */
static int prompt_file_read(struct conf *x, const struct conf_node *v, void *store)
{
	struct judge_read *r = store;
	if (judge_prompt_load(x, r->j, r->opts->datadir, v, r->slots[K_RUBRIC]) ||
	    examples_placed(x, r))
		return -1;
	judge_hash(r->j);
	return 0;
}

/* In the order they are read; indexed by enum judge_key. */
static const struct conf_key judge_keys[] = {
	[K_ID] = { .name = "id", .kind = CONF_K_FN, .flags = ALWAYS, .read = id_read },
	[K_RUBRIC] = { .name = "rubric", .kind = CONF_K_FN, .flags = ALWAYS, .read = rubric_read },
	[K_BASE_URL] = { .name = "base_url", .kind = CONF_K_FN, .flags = LATER, .read = base_url_read },
	[K_MODEL] = { .name = "model", .kind = CONF_K_FN, .flags = ALWAYS, .read = model_read },
	[K_ENDPOINT] = { .name = "endpoint", .kind = CONF_K_NODE, .flags = LATER },
	[K_API_VERSION] = { .name = "api_version", .kind = CONF_K_NODE, .flags = LATER },
	[K_API_KEY_ENV] = { .name = "api_key_env", .kind = CONF_K_FN, .flags = ALWAYS,
	                    .read = key_env_read },
	[K_TOOLS] = { .name = "tools", .kind = CONF_K_FN, .flags = LATER, .read = tools_read },
	[K_SCALE] = { .name = "scale", .kind = CONF_K_FN, .flags = ALWAYS, .read = scale_read },
	[K_THRESHOLD] = { .name = "threshold", .kind = CONF_K_NODE, .flags = LATER },
	[K_TIMEOUT] = { .name = "timeout", .kind = CONF_K_FN, .flags = LATER, .read = timeout_read },
	[K_MAX_RETRIES] = { .name = "max_retries", .kind = CONF_K_FN, .flags = LATER,
	                    .read = retries_read },
	[K_EXAMPLES] = { .name = "examples", .kind = CONF_K_FN, .flags = LATER, .read = examples_read },
	[K_CRITERION] = { .name = "criterion", .kind = CONF_K_FN, .flags = LATER,
	                  .read = criterion_key_read },
	[K_SWAP] = { .name = "swap", .kind = CONF_K_FN, .flags = ALWAYS, .read = swap_read },
	[K_PROMPT_FILE] = { .name = "prompt_file", .kind = CONF_K_FN, .flags = ALWAYS,
	                    .read = prompt_file_read },
	[K_COUNT] = { .name = NULL },
};

/* A key in the file ends up in backups, diffs and bug reports. */
static int secret_key(struct conf *x, const struct conf_node *k, void *store)
{
	(void)store;
	if (conf_key_is(k, "api_key") || conf_key_is(k, "key"))
		return conf_fail(x, k, "a key does not belong in the configuration: put it in an "
		                 "environment variable and name that with api_key_env");
	return 1;
}

static const struct conf_table judge_table = {
	.keys = judge_keys,
	.known = JUDGE_KEYS,
	.unknown_for = "for a judge",
	.other = secret_key,
};

static int judge_read(struct conf *x, struct judge_read *r)
{
	struct judge_conf *j = r->j;
	j->line = r->m->line;
	j->col = r->m->col;
	j->timeout_s = 60;
	j->max_retries = 4;
	if (r->m->kind != CONF_MAP)
		return conf_fail(x, r->m, "each judge must be a mapping with 'id', 'rubric' and 'model', "
		                 "got %s", conf_kind_name(r->m));
	return conf_keys(x, r->m, &judge_table, r, r->slots);
}

int judges_read(struct conf *x, const struct conf_node *n, struct judge_conf **out,
                size_t *nout, judge_id_check check, void *arg, const struct judge_read_opts *opts)
{
	static const struct judge_read_opts none = { NULL, NULL };
	if (conf_seq(x, n, "judges", "judges"))
		return -1;
	*out = xcalloc(n->nkids, sizeof **out);
	for (size_t i = 0; i < n->nkids; i++) {
		++*nout;        /* counted now: freed on error */
		struct judge_read r = {
			.list = *out, .n = *nout, .j = &(*out)[*nout - 1], .m = n->kids[i],
			.check = check, .arg = arg, .opts = opts ? opts : &none,
		};
		if (judge_read(x, &r))
			return -1;
	}
	return 0;
}

void judges_free(struct judge_conf *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		judge_free(&list[i]);
	free(list);
}
