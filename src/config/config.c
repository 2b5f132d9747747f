/* config.c - the YAML configuration: run ids, expectations, scorers.
 *
 * libyaml's event stream is first turned into a small node tree that keeps
 * the line and column of every node, so that any later check (unknown key,
 * wrong type, a scorer's own refusal) can point at the exact spot. The tree
 * is then walked once into struct config and thrown away. */
#include "config/config.h"
#include "conf/conf.h"
#include "runs/runs_conf.h"
#include "util/hash.h"
#include "judge/judge.h"
#include "judge/prompt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/jsonpath.h"
#include "review/keymap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int runs_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	struct runs_conf rc;
	int r = runs_conf_read(x, m, &rc);
	c->run_id_path = rc.id_path;
	c->format = rc.format;
	return r;
}

static int expect_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	if (expect_conf_read(x, m, &c->expect))
		return -1;
	c->has_expect = true;
	return 0;
}

/* ---- theme and keys ------------------------------------------------------ */

static int theme_parse_conf(struct conf *x, struct config *c, const struct conf_node *v)
{
	if (conf_str(x, v, "theme", &c->theme))
		return -1;
	/* The name becomes a file name (themes/NAME.theme); checked here so the
	 * error can point at it. Whether the file exists is known only to the
	 * screen, which knows the data folder. */
	for (const char *p = c->theme; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return conf_fail(x, v, "invalid theme name '%s' (use letters, digits, _ and -)",
			            c->theme);
	return 0;
}

/* Checks the key names of one scalar (blank-separated names are allowed,
 * as in the table) and appends them to sb. Each key may be bound by one
 * action of the file only: binding it twice is surely a slip. */
static int keys_scalar(struct conf *x, const struct config *c, const struct conf_node *n,
                       const char *action, struct strbuf *sb)
{
	char *text;
	if (n->kind != CONF_SCALAR)
		return conf_fail(x, n, "wrong type for '%s': expected a key name or a list of key names, got %s",
		            action, conf_kind_name(n));
	if (conf_str(x, n, action, &text))
		return -1;
	if (!text[strspn(text, " \t")]) {
		free(text);
		return conf_fail(x, n, "'%s' names no key (the space bar is Space)", action);
	}
	int rc = 0;
	for (char *p = text; *p && rc == 0;) {
		size_t len = strcspn(p, " \t");
		if (!len) {
			p++;
			continue;
		}
		char save = p[len];
		p[len] = '\0';
		keycode_t k, other;
		if (!keycode_parse(p, &k)) {
			rc = conf_fail(x, n, "unknown key name '%s'", p);
			break;
		}
		for (size_t i = 0; i < c->nkeys && rc == 0; i++) {
			const struct key_conf *kc = &c->keys[i];
			char *names = xstrdup(kc->keys);
			for (char *q = strtok(names, " "); q; q = strtok(NULL, " ")) {
				if (keycode_parse(q, &other) && other == k) {
					rc = conf_fail(x, n, "key '%s' is already bound to '%s' at line %d", p,
					          kc->action, kc->line);
					break;
				}
			}
			free(names);
		}
		if (rc == 0) {
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, p);
		}
		p[len] = save;
		p += len;
	}
	free(text);
	return rc;
}

static int keys_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	if (conf_map(x, m, "keys"))
		return -1;
	c->keys = xcalloc(m->nkids / 2, sizeof *c->keys);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct conf_node *k = m->kids[i], *v = m->kids[i + 1];
		char *name = xstrndup(k->text, k->len);
		if (action_find(name) == ACT_NONE) {
			conf_fail(x, k, "unknown action '%s' (see tcreview --help keys)", name);
			free(name);
			return -1;
		}
		struct strbuf sb = STRBUF_INIT;
		int rc = 0;
		if (v->kind == CONF_SEQ) {
			/* An empty list unbinds the action. */
			for (size_t j = 0; j < v->nkids && rc == 0; j++)
				rc = keys_scalar(x, c, v->kids[j], name, &sb);
		} else {
			rc = keys_scalar(x, c, v, name, &sb);
		}
		if (rc) {
			strbuf_release(&sb);
			free(name);
			return -1;
		}
		struct key_conf *kc = &c->keys[c->nkeys++];
		kc->action = name;
		kc->keys = sb.buf ? strbuf_detach(&sb) : xstrdup("");
		kc->line = v->line;
		kc->col = v->col;
	}
	return 0;
}

/* Scorer and judge ids share one namespace: a verdict row is named by it. */
static int scorer_id_free(struct conf *x, const struct conf_node *idn, const char *id, void *arg)
{
	const struct config *c = arg;
	for (size_t i = 0; i < c->njudges; i++)
		if (c->judges[i].id && strcmp(c->judges[i].id, id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': judge at line %d has it (scorers and "
			                 "judges share one set of ids)", id, c->judges[i].line);
	return 0;
}

static void hash_add(uint64_t *h, const char *s)
{
	*h = hash_fnv1a(s, strlen(s), *h);
}

static void hash_json(uint64_t *h, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!s)
		abort();
	hash_add(h, s);
	free(s);
}

/* ---- judges ------------------------------------------------------------ */

#define JUDGE_KEYS "id, rubric, model, base_url, endpoint, api_version, api_key_env, tools, " \
                   "threshold, scale, prompt_file, timeout, max_retries"

static void judge_conf_free(struct judge_conf *j)
{
	free(j->id);
	free(j->model);
	free(j->base_url);
	free(j->endpoint);
	free(j->api_version);
	free(j->api_key_env);
	json_decref(j->tools);
	free(j->prompt_text);
	free(j->prompt_source);
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
	json_t *list = json_array();
	*out = list;
	for (size_t i = 0; i < v->nkids; i++) {
		const struct conf_node *t = v->kids[i], *namen = NULL;
		char *name = NULL, *desc = NULL;
		json_t *params = NULL;
		int rc = 0;
		if (t->kind != CONF_MAP)
			return conf_fail(x, t, "each tool must be a mapping {name, description}, got %s",
			            conf_kind_name(t));
		for (size_t k = 0; k + 1 < t->nkids && rc == 0; k += 2) {
			const struct conf_node *kk = t->kids[k], *vv = t->kids[k + 1];
			if (conf_key_is(kk, "name") || conf_key_is(kk, "id")) {
				/* Mastra's tools have an id where the others have a name. */
				if (name)
					rc = conf_fail(x, kk, "a tool has both 'name' and 'id'");
				else
					rc = conf_str(x, vv, "name", &name);
				namen = vv;
			} else if (conf_key_is(kk, "description")) {
				rc = conf_str(x, vv, "description", &desc);
			} else if (conf_key_is(kk, "parameters")) {
				rc = conf_json(x, vv, &params);
				if (rc == 0 && !json_is_object(params))
					rc = conf_fail(x, vv, "a tool's 'parameters' must be a JSON Schema mapping");
			} else {
				rc = conf_unknown_key(x, kk, "name, description, parameters");
			}
		}
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
		if (rc)
			return -1;
	}
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
static int judge_prompt_load(struct conf *x, const struct config *c, struct judge_conf *j,
                             const struct conf_node *filen, const struct conf_node *rubricn)
{
	char msg[1024];
	const struct conf_node *at = filen ? filen : rubricn;
	if (filen) {
		char *file;
		if (conf_str(x, filen, "prompt_file", &file))
			return -1;
		j->prompt_source = conf_join(c->dir, file);
		free(file);
	} else {
		j->prompt_source = prompt_builtin_path(j->rubric->prompt_file);
	}
	if (prompt_read(j->prompt_source, &j->prompt_text, msg, sizeof msg) < 0) {
		if (filen)
			return conf_fail(x, at, "cannot read the prompt: %s", msg);
		return conf_fail(x, at, "cannot read the built-in prompt of '%s': %s (is the data folder "
		            "there? TCREVIEW_DATADIR names it)", j->rubric->name, msg);
	}
	int line, col;
	if (rubric_check_prompt(j->rubric, j->prompt_text, &line, &col, msg, sizeof msg) < 0) {
		if (line > 0)
			return conf_fail_in(x, j->prompt_source, line, col, "%s", msg);
		return conf_fail(x, at, "%s: %s", j->prompt_source, msg);
	}
	prompt_hash(j->prompt_text, j->prompt_hash);
	return 0;
}

/* FNV-1a over what decides a verdict. The id, the key's variable and the
 * timeouts are left out: renaming a judge or moving its key keeps its
 * cached verdicts. */
static void judge_hash(struct judge_conf *j)
{
	uint64_t h = HASH_FNV_SEED;
	char num[128];
	hash_add(&h, "rubric=");
	hash_add(&h, j->rubric->name);
	hash_add(&h, "\nmodel=");
	hash_add(&h, j->model);
	snprintf(num, sizeof num, "\nprovider=%s%d", judge_provider_prefix(j->provider), (int)j->provider);
	hash_add(&h, num);
	hash_add(&h, "\nbase_url=");
	hash_add(&h, j->base_url ? j->base_url : "");
	hash_add(&h, "\nendpoint=");
	hash_add(&h, j->endpoint ? j->endpoint : "");
	hash_add(&h, "\napi_version=");
	hash_add(&h, j->api_version ? j->api_version : "");
	hash_add(&h, "\ntools=");
	if (j->tools)
		hash_json(&h, j->tools);
	else
		hash_add(&h, "from-run");
	snprintf(num, sizeof num, "\nthreshold=%.17g\nscale=%.17g..%.17g\nprompt=", j->threshold,
	         j->scale_min, j->scale_max);
	hash_add(&h, num);
	hash_add(&h, j->prompt_hash);
	hash_add(&h, "\n");
	hash_hex(h, j->hash);
}

static int judge_parse(struct conf *x, struct config *c, const struct conf_node *m)
{
	struct judge_conf *j = &c->judges[c->njudges++];   /* counted now: freed on error */
	const struct conf_node *idn = NULL, *rubricn = NULL, *modeln = NULL, *basen = NULL,
	                   *endpointn = NULL, *versionn = NULL, *keyenvn = NULL, *toolsn = NULL,
	                   *thresholdn = NULL, *scalen = NULL, *filen = NULL, *timeoutn = NULL,
	                   *retriesn = NULL;
	j->line = m->line;
	j->col = m->col;
	j->timeout_s = 60;
	j->max_retries = 4;

	if (m->kind != CONF_MAP)
		return conf_fail(x, m, "each judge must be a mapping with 'id', 'rubric' and 'model', got %s",
		            conf_kind_name(m));
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct conf_node *k = m->kids[i], *v = m->kids[i + 1];
		const struct conf_node **slot =
			conf_key_is(k, "id") ? &idn : conf_key_is(k, "rubric") ? &rubricn
		      : conf_key_is(k, "model") ? &modeln : conf_key_is(k, "base_url") ? &basen
		      : conf_key_is(k, "endpoint") ? &endpointn : conf_key_is(k, "api_version") ? &versionn
		      : conf_key_is(k, "api_key_env") ? &keyenvn : conf_key_is(k, "tools") ? &toolsn
		      : conf_key_is(k, "threshold") ? &thresholdn : conf_key_is(k, "scale") ? &scalen
		      : conf_key_is(k, "prompt_file") ? &filen : conf_key_is(k, "timeout") ? &timeoutn
		      : conf_key_is(k, "max_retries") ? &retriesn : NULL;
		if (slot) {
			*slot = v;
			continue;
		}
		/* A key in the file ends up in backups, diffs and bug reports. */
		if (conf_key_is(k, "api_key") || conf_key_is(k, "key"))
			return conf_fail(x, k, "a key does not belong in the configuration: put it in an "
			            "environment variable and name that with api_key_env");
		return conf_fail(x, k, "unknown key '%.*s' for a judge (known: " JUDGE_KEYS ")",
		            (int)k->len, k->text);
	}

	if (!idn)
		return conf_fail(x, m, "judge has no 'id'");
	if (conf_str(x, idn, "id", &j->id))
		return -1;
	if (!conf_is_id(j->id))
		return conf_fail(x, idn, "invalid judge id '%s' (use letters, digits and _ . : -)", j->id);
	for (size_t i = 0; i + 1 < c->njudges; i++)
		if (strcmp(c->judges[i].id, j->id) == 0)
			return conf_fail(x, idn, "duplicate judge id '%s' (first at line %d)", j->id,
			            c->judges[i].line);
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && strcmp(c->scorers[i].id, j->id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': scorer at line %d has it (scorers and "
			            "judges share one set of ids)", j->id, c->scorers[i].line);

	if (!rubricn)
		return conf_fail(x, m, "judge '%s' has no 'rubric'", j->id);
	char *name;
	if (conf_str(x, rubricn, "rubric", &name))
		return -1;
	j->rubric = rubric_find(name);
	if (!j->rubric) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; rubric_table[i]; i++) {
			if (i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, rubric_table[i]->name);
		}
		conf_fail(x, rubricn, "unknown rubric '%s' (known: %s)", name, sb.buf ? sb.buf : "none");
		strbuf_release(&sb);
		free(name);
		return -1;
	}
	free(name);

	if (basen && url_parse(x, basen, "base_url", &j->base_url))
		return -1;
	if (!modeln)
		return conf_fail(x, m, "judge '%s' has no 'model' (e.g. openai/gpt-4o-mini)", j->id);
	char *model;
	const char *rest;
	if (conf_str(x, modeln, "model", &model))
		return -1;
	if (judge_parse_model(model, j->base_url != NULL, &j->provider, &rest) < 0) {
		if (strchr(model, '/') && !strchr(model, '/')[1])
			conf_fail(x, modeln, "model '%s' names no model after its provider", model);
		else
			conf_fail(x, modeln, "unknown provider in model '%s' (known: openai/, ollama/, azure/, "
			     "anthropic/; another OpenAI-compatible server needs base_url)", model);
		free(model);
		return -1;
	}
	j->model = xstrdup(rest);
	free(model);

	if (j->provider == PROVIDER_AZURE) {
		if (!endpointn)
			return conf_fail(x, m, "judge '%s' (azure/) needs 'endpoint' "
			            "(e.g. https://NAME.openai.azure.com)", j->id);
		if (!versionn)
			return conf_fail(x, m, "judge '%s' (azure/) needs 'api_version' (e.g. \"2024-10-21\")",
			            j->id);
		if (url_parse(x, endpointn, "endpoint", &j->endpoint) ||
		    conf_str(x, versionn, "api_version", &j->api_version))
			return -1;
	} else if (endpointn || versionn) {
		const struct conf_node *n = endpointn ? endpointn : versionn;
		return conf_fail(x, n, "'%s' is only for azure/ models", endpointn ? "endpoint" : "api_version");
	}
	if (keyenvn && env_name_parse(x, keyenvn, &j->api_key_env))
		return -1;
	if (toolsn && judge_tools_parse(x, toolsn, &j->tools))
		return -1;

	/* The scale: the rubric's, or a custom judge's own. */
	double pass = 0;
	const struct conf_node *passn = NULL;
	/* Only a custom judge has no built-in prompt, and so no fixed scale. */
	bool custom = !j->rubric->prompt_file;
	if (custom) {
		if (!filen)
			return conf_fail(x, m, "custom judge '%s' needs 'prompt_file'", j->id);
		if (!scalen)
			return conf_fail(x, m, "custom judge '%s' needs 'scale' ({min, max, pass})", j->id);
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
		            passn ? "pass" : "threshold", j->threshold, j->id, j->scale_min, j->scale_max);
	if (markn && j->rubric->scale == SCALE_1TO5 && !custom && j->threshold != floor(j->threshold))
		return conf_fail(x, markn, "threshold %g is not one of the levels 1..5", j->threshold);

	if (timeoutn) {
		if (conf_num(x, timeoutn, "timeout", &j->timeout_s))
			return -1;
		if (!(j->timeout_s > 0) || j->timeout_s > 3600)
			return conf_fail(x, timeoutn, "'timeout' must be a number of seconds above 0 (at most 3600)");
	}
	if (retriesn) {
		double r;
		if (conf_num(x, retriesn, "max_retries", &r))
			return -1;
		if (r != floor(r) || r < 0 || r > 20)
			return conf_fail(x, retriesn, "'max_retries' must be a whole number from 0 to 20");
		j->max_retries = (int)r;
	}

	if (judge_prompt_load(x, c, j, filen, rubricn))
		return -1;
	judge_hash(j);
	return 0;
}

static int judges_parse(struct conf *x, struct config *c, const struct conf_node *n)
{
	if (n->kind != CONF_SEQ)
		return conf_fail(x, n, "'judges' must be a list of judges, got %s",
		            n->kind == CONF_SCALAR ? "a value" : conf_kind_name(n));
	c->judges = xcalloc(n->nkids, sizeof *c->judges);
	for (size_t i = 0; i < n->nkids; i++)
		if (judge_parse(x, c, n->kids[i]))
			return -1;
	return 0;
}

static int config_walk(struct conf *x, struct config *c, const struct conf_node *root)
{
	if (conf_is_null(root))
		return 0;       /* "---" alone, or "~": an empty configuration */
	if (root->kind != CONF_MAP)
		return conf_fail(x, root, "the configuration must be a mapping of runs, expectations, scorers and judges");

	for (size_t i = 0; i + 1 < root->nkids; i += 2) {
		const struct conf_node *k = root->kids[i], *v = root->kids[i + 1];
		int rc;
		if (conf_key_is(k, "runs"))
			rc = conf_is_null(v) ? 0 : runs_parse(x, c, v);
		else if (conf_key_is(k, "expectations"))
			rc = conf_is_null(v) ? 0 : expect_parse(x, c, v);
		else if (conf_key_is(k, "scorers"))
			rc = conf_is_null(v) ? 0 : scorers_read(x, v, &c->scorers, &c->nscorers,
			                                           scorer_id_free, c);
		else if (conf_key_is(k, "judges"))
			rc = conf_is_null(v) ? 0 : judges_parse(x, c, v);
		else if (conf_key_is(k, "theme"))
			rc = conf_is_null(v) ? 0 : theme_parse_conf(x, c, v);
		else if (conf_key_is(k, "keys"))
			rc = conf_is_null(v) ? 0 : keys_parse(x, c, v);
		else
			rc = conf_unknown_key(x, k, "runs, expectations, scorers, judges, theme, keys");
		if (rc)
			return -1;
	}

	/* Checked last because `expectations` may come after `scorers`. */
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct scorer_conf *sc = &c->scorers[i];
		for (size_t j = 0; j < sc->nparams; j++)
			if (sc->params[j].from_expected && !c->has_expect)
				return conf_fail_at(x, sc->params[j].line, sc->params[j].col,
				               "'%s' refers to expected.* but there is no 'expectations' section",
				               sc->params[j].name);
	}
	return 0;
}

/* ---- public API -------------------------------------------------------- */

int config_load_string(struct config *c, const char *name, const char *dir,
                       const char *text, size_t len, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (err && errlen)
		err[0] = '\0';
	struct conf x;
	c->path = name ? xstrdup(name) : NULL;   /* NULL marks the built-in config */
	c->dir = dir ? xstrdup(dir) : NULL;

	int rc = conf_parse(&x, name, c->dir, text, len, err, errlen);
	if (rc == 0 && x.root)
		rc = config_walk(&x, c, x.root);
	conf_free(&x);
	if (rc)
		config_free(c);
	return rc;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (!err)
		errlen = 0;
	struct strbuf sb = STRBUF_INIT;
	/* A configuration is a few kilobytes; 16 MB is surely not one. */
	if (strbuf_read_file(&sb, path, 16u << 20, err, errlen) < 0) {
		strbuf_release(&sb);
		return -1;
	}

	char *dir = dir_of(path);
	int rc = config_load_string(c, path, dir, sb.buf ? sb.buf : "", sb.len, err, errlen);
	free(dir);
	strbuf_release(&sb);
	return rc;
}

void config_free(struct config *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->dir);
	free(c->run_id_path);
	free(c->format);
	expect_conf_free(&c->expect);
	scorers_free(c->scorers, c->nscorers);
	for (size_t i = 0; i < c->njudges; i++)
		judge_conf_free(&c->judges[i]);
	free(c->judges);
	free(c->theme);
	for (size_t i = 0; i < c->nkeys; i++) {
		free(c->keys[i].action);
		free(c->keys[i].keys);
	}
	free(c->keys);
	memset(c, 0, sizeof *c);
}
