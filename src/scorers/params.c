/* params.c - a scorer entry of the YAML read by the parameters its type
 * declares, its hash, and its parameters resolved for one run.
 *
 * A parameter is a literal, checked now against the declared kind and
 * range, or a reference {from: PATH, default: V} resolved per run against
 * the run's record (walked on its tape: only the value found becomes a
 * tree) or (expected.PATH) its expectation. */
#include "scorers/params.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/jsonpath.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- scorers ----------------------------------------------------------- */

static const char *param_kind_name(enum param_kind k)
{
	switch (k) {
	case PARAM_STRING:      return "a string";
	case PARAM_BOOL:        return "a boolean";
	case PARAM_NUMBER:      return "a number";
	case PARAM_STRING_LIST: return "a list of strings";
	case PARAM_OBJECT:      return "a mapping";
	case PARAM_ANY:         return "any value";
	}
	return "a value";
}

/* Checks a literal (or a default) against the declared kind. Null always
 * passes: Mastra tells "given as null" from "absent". */
static int literal_check(struct conf *x, const struct param_spec *spec, const char *label,
                         const struct conf_node *n, const json_t *v)
{
	bool ok = true;
	if (json_is_null(v))
		return 0;
	switch (spec->kind) {
	case PARAM_STRING:      ok = json_is_string(v); break;
	case PARAM_BOOL:        ok = json_is_boolean(v); break;
	case PARAM_NUMBER:      ok = json_is_number(v); break;
	case PARAM_OBJECT:      ok = json_is_object(v); break;
	case PARAM_ANY:         ok = true; break;
	case PARAM_STRING_LIST:
		ok = json_is_array(v);
		for (size_t i = 0; ok && i < json_array_size(v); i++) {
			const json_t *item = json_array_get(v, i);
			if (json_is_string(item))
				continue;
			const struct conf_node *at = n->kind == CONF_SEQ && i < n->nkids ? n->kids[i] : n;
			return conf_fail(x, at, "wrong type for %s: expected a list of strings, item %zu is %s",
			            label, i + 1, conf_json_kind_name(item));
		}
		break;
	}
	if (!ok)
		return conf_fail(x, n, "wrong type for %s: expected %s, got %s", label,
		            param_kind_name(spec->kind), conf_json_kind_name(v));
	if (spec->kind == PARAM_NUMBER && spec->lo < spec->hi &&
	    (json_number_value(v) < spec->lo || json_number_value(v) > spec->hi))
		return conf_fail(x, n, "%s must be from %g to %g, got %g", label, spec->lo, spec->hi,
		                 json_number_value(v));
	return 0;
}

static int param_parse(struct conf *x, const struct param_spec *spec, const struct conf_node *v,
                       struct param *p)
{
	char label[160];
	p->name = xstrdup(spec->name);
	p->line = v->line;
	p->col = v->col;

	if (v->kind != CONF_MAP || !conf_get(v, "from")) {
		snprintf(label, sizeof label, "'%s'", spec->name);
		if (conf_json(x, v, &p->literal))
			return -1;
		return literal_check(x, spec, label, v, p->literal);
	}

	/* A reference: {from: PATH, default: VALUE}. A mapping literal that
	 * needs a "from" key cannot be written inline; use a reference with
	 * a default instead. */
	for (size_t i = 0; i + 1 < v->nkids; i += 2) {
		const struct conf_node *k = v->kids[i], *val = v->kids[i + 1];
		if (conf_key_is(k, "from")) {
			if (conf_str(x, val, "from", &p->from))
				return -1;
			const char *prefix = "expected.";
			p->from_expected = strncmp(p->from, prefix, strlen(prefix)) == 0;
			p->from_path = p->from + (p->from_expected ? strlen(prefix) : 0);
			const char *why;
			if (!jsonpath_valid(p->from_path, &why))
				return conf_fail(x, val, "invalid path '%s' for '%s': %s", p->from, spec->name,
				            why);
		} else if (conf_key_is(k, "default")) {
			snprintf(label, sizeof label, "the default of '%s'", spec->name);
			if (conf_json(x, val, &p->deflt) ||
			    literal_check(x, spec, label, val, p->deflt))
				return -1;
		} else {
			return conf_fail(x, k, "unknown key '%.*s' in a reference (expected one of: from, default)",
			            (int)k->len, k->text);
		}
	}
	return 0;
}

static int threshold_parse(struct conf *x, const struct scorer_conf *sc, const struct conf_node *v,
                           double *out)
{
	if (conf_num(x, v, "threshold", out))
		return -1;
	double lo, hi;
	const char *range = scale_range(sc->ops->scale, &lo, &hi);
	if (*out < lo || *out > hi)
		return conf_fail(x, v, "threshold %g is off the scale of '%s' (%s)", *out, sc->ops->type,
		                 range);
	return 0;
}

static void known_list(struct strbuf *sb, const struct scorer_ops *ops)
{
	strbuf_addstr(sb, "id, type, threshold, criterion");
	for (const struct param_spec *ps = ops->params; ps && ps->name; ps++) {
		strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, ps->name);
	}
}

/* FNV-1a over a canonical text of what decides a verdict: the type, each
 * parameter in the order written and the threshold. The id is left out so
 * that renaming a scorer keeps its cached verdicts. */
static void scorer_hash(struct scorer_conf *sc)
{
	uint64_t h = HASH_FNV_SEED;
	char num[64];

	hash_add_str(&h, "type=");
	hash_add_str(&h, sc->ops->type);
	hash_add_str(&h, "\n");
	for (size_t i = 0; i < sc->nparams; i++) {
		const struct param *p = &sc->params[i];
		hash_add_str(&h, p->name);
		hash_add_str(&h, "=");
		if (!p->from) {
			hash_add_json(&h, p->literal);
		} else {
			json_t *ref = json_object();
			json_object_set_new(ref, "from", json_string(p->from));
			if (p->deflt)
				json_object_set(ref, "default", p->deflt);
			hash_add_json(&h, ref);
			json_decref(ref);
		}
		hash_add_str(&h, "\n");
	}
	snprintf(num, sizeof num, "threshold=%.17g\n", sc->threshold);
	hash_add_str(&h, num);
	hash_hex(h, sc->hash);
}

/* The scorer's type, from the registry; the error lists the known ones. */
static int type_read(struct conf *x, struct scorer_conf *sc, const struct conf_node *typen)
{
	char *type;
	if (conf_str(x, typen, "type", &type))
		return -1;
	sc->ops = scorer_find(type);
	if (!sc->ops) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; scorer_table[i]; i++) {
			if (i)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, scorer_table[i]->type);
		}
		conf_fail(x, typen, "unknown scorer type '%s' (known: %s)", type,
		          sb.buf ? sb.buf : "none");
		strbuf_release(&sb);
		free(type);
		return -1;
	}
	free(type);
	return 0;
}

static const struct param_spec *spec_find(const struct scorer_ops *ops, const struct conf_node *k)
{
	for (const struct param_spec *ps = ops->params; ps && ps->name; ps++)
		if (conf_key_is(k, ps->name))
			return ps;
	return NULL;
}

/* Every key besides id and type: the threshold and the declared parameters. */
static int params_read(struct conf *x, struct scorer_conf *sc, const struct conf_node *m)
{
	sc->threshold = sc->ops->default_threshold;
	sc->params = xcalloc(m->nkids / 2, sizeof *sc->params);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct conf_node *k = m->kids[i], *v = m->kids[i + 1];
		if (conf_key_is(k, "id") || conf_key_is(k, "type"))
			continue;
		if (conf_key_is(k, "threshold")) {
			if (threshold_parse(x, sc, v, &sc->threshold))
				return -1;
			continue;
		}
		if (conf_key_is(k, "criterion")) {
			if (criterion_read(x, v, &sc->criterion))
				return -1;
			continue;
		}
		const struct param_spec *spec = spec_find(sc->ops, k);
		if (!spec) {
			struct strbuf sb = STRBUF_INIT;
			known_list(&sb, sc->ops);
			conf_fail(x, k, "unknown key '%.*s' for scorer type '%s' (known: %s)", (int)k->len,
			          k->text, sc->ops->type, sb.buf);
			strbuf_release(&sb);
			return -1;
		}
		if (param_parse(x, spec, v, &sc->params[sc->nparams++]))
			return -1;
	}
	for (const struct param_spec *ps = sc->ops->params; ps && ps->name; ps++)
		if ((ps->flags & PARAM_REQUIRED) && !conf_get(m, ps->name))
			return conf_fail(x, m, "scorer '%s' needs '%s' (%s)", sc->id, ps->name,
			                 ps->help ? ps->help : param_kind_name(ps->kind));
	return 0;
}

/* The type's own check, when every parameter is known now. */
static int literals_check(struct conf *x, const struct scorer_conf *sc, const struct conf_node *m)
{
	for (size_t i = 0; i < sc->nparams; i++)
		if (sc->params[i].from)
			return 0;
	if (!sc->ops->check)
		return 0;
	json_t *lits = json_object();
	for (size_t i = 0; i < sc->nparams; i++)
		json_object_set(lits, sc->params[i].name, sc->params[i].literal);
	const char *msg = sc->ops->check(lits);
	json_decref(lits);
	return msg ? conf_fail(x, m, "%s", msg) : 0;
}

static int scorer_read(struct conf *x, struct scorer_conf *list, size_t n,
                       const struct conf_node *m, scorer_id_check check, void *arg)
{
	struct scorer_conf *sc = &list[n - 1];
	sc->line = m->line;
	sc->col = m->col;

	if (m->kind != CONF_MAP)
		return conf_fail(x, m, "each scorer must be a mapping with 'id' and 'type', got %s",
		            conf_kind_name(m));
	const struct conf_node *idn = conf_get(m, "id"), *typen = conf_get(m, "type");
	if (!idn)
		return conf_fail(x, m, "scorer has no 'id'");
	if (conf_str(x, idn, "id", &sc->id))
		return -1;
	if (!conf_is_id(sc->id))
		return conf_fail(x, idn, "invalid scorer id '%s' (use letters, digits and _ . : -)", sc->id);
	for (size_t i = 0; i + 1 < n; i++)
		if (strcmp(list[i].id, sc->id) == 0)
			return conf_fail(x, idn, "duplicate scorer id '%s' (first at line %d)", sc->id,
			            list[i].line);
	if (check && check(x, idn, sc->id, arg))
		return -1;
	if (!typen)
		return conf_fail(x, m, "scorer '%s' has no 'type'", sc->id);
	if (type_read(x, sc, typen) || params_read(x, sc, m) || literals_check(x, sc, m))
		return -1;
	scorer_hash(sc);
	bool refs = false;
	for (size_t i = 0; i < sc->nparams; i++)
		refs = refs || sc->params[i].from;
	if (!refs)
		sc->fixed = scorer_resolve_params(sc, NULL, NULL, NULL, NULL);
	if (sc->ops->configure && sc->ops->configure(x, sc))
		return -1;
	return 0;
}

int scorers_read(struct conf *x, const struct conf_node *n, struct scorer_conf **out,
                 size_t *nout, scorer_id_check check, void *arg)
{
	if (conf_seq(x, n, "scorers", "scorers"))
		return -1;
	*out = xcalloc(n->nkids, sizeof **out);
	for (size_t i = 0; i < n->nkids; i++) {
		++*nout;        /* counted now: freed on error */
		if (scorer_read(x, *out, *nout, n->kids[i], check, arg))
			return -1;
	}
	return 0;
}

void scorers_free(struct scorer_conf *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct scorer_conf *sc = &list[i];
		if (sc->ops && sc->ops->release)
			sc->ops->release(sc);
		for (size_t j = 0; j < sc->nparams; j++) {
			free(sc->params[j].name);
			json_decref(sc->params[j].literal);
			free(sc->params[j].from);
			json_decref(sc->params[j].deflt);
		}
		free(sc->params);
		free(sc->id);
		criterion_free(&sc->criterion);
		json_decref(sc->fixed);
	}
	free(list);
}

/* The value at path in the run's record (new reference), or NULL. */
static json_t *record_value(const struct run *run, const char *path)
{
	if (!run)
		return NULL;
	return jv_to_json(run->doc, run_value(run, path));
}

json_t *scorer_resolve_params(const struct scorer_conf *sc, struct run *run, json_t *expected,
                              const char *expect_miss, char **unset)
{
	json_t *out = json_object();
	struct strbuf why = STRBUF_INIT;

	if (!out)
		xalloc_die();
	for (const struct param_spec *ps = sc->ops ? sc->ops->params : NULL; ps && ps->name; ps++)
		if (ps->deflt && !scorer_param_given(sc, ps->name))
			json_object_set_new(out, ps->name, json_loads(ps->deflt, JSON_DECODE_ANY, NULL));
	if (unset)
		*unset = NULL;
	for (size_t i = 0; i < sc->nparams; i++) {
		const struct param *p = &sc->params[i];
		if (!p->from) {
			json_object_set(out, p->name, p->literal);
			continue;
		}
		bool no_expect = p->from_expected && !expected;
		json_t *v = no_expect ? NULL
		          : p->from_expected ? json_incref(jsonpath_get(expected, p->from_path))
		          : record_value(run, p->from_path);
		if (!v)
			v = json_incref(p->deflt);
		if (v) {
			/* A found null is set: the scorer must see "given as null". */
			json_object_set_new(out, p->name, v);
			continue;
		}
		if (why.len)
			strbuf_addstr(&why, "; ");
		if (no_expect) {
			strbuf_addf(&why, "%s: no expectation for this run", p->name);
			if (expect_miss && *expect_miss)
				strbuf_addf(&why, " (%s)", expect_miss);
		} else {
			strbuf_addf(&why, "%s: %s not found", p->name, p->from);
		}
	}
	if (unset && why.len)
		*unset = strbuf_detach(&why);
	else
		strbuf_release(&why);
	return out;
}
