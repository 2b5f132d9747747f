/* line.c - a decision as the annotations file spells it: one JSON line read and written.
 *
 * Verdict decisions keep the v2 line exactly; the fields of failure
 * analysis (tags, call labels, corrections, groups, queue weights) are
 * written only when set, so a verdict line reads as it always did and an
 * older program reading a newer file skips only the kinds it does not know. */
#include "annot_int.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"

static const char *const kind_names[] = {
	[DEC_ACCEPT] = "accept",
	[DEC_OVERRIDE] = "override",
	[DEC_RETRACT] = "retract",
	[DEC_NOTE] = "note",
	[DEC_TAG] = "tag",
	[DEC_TAG_ALIAS] = "tag-alias",
	[DEC_CALL_LABEL] = "call-label",
	[DEC_CORRECT] = "correct",
	[DEC_PREFER] = "prefer",
};

static const char *const preference_names[] = {
	[PREF_NONE] = NULL,
	[PREF_BASE] = "base",
	[PREF_CAND] = "cand",
	[PREF_TIE] = "tie",
	[PREF_BOTH_BAD] = "both-bad",
};

static const char *const correction_names[] = {
	[CORR_NONE] = NULL,
	[CORR_REPLACE] = "replace",
	[CORR_REMOVE] = "remove",
	[CORR_INSERT] = "insert",
	[CORR_ANSWER] = "answer",
};

#define COUNT(a) (sizeof (a) / sizeof *(a))

const char *annot_kind_name(enum decision_kind k)
{
	return (unsigned)k < COUNT(kind_names) ? kind_names[k] : NULL;
}

const char *annot_correction_name(enum correction_kind c)
{
	return (unsigned)c < COUNT(correction_names) ? correction_names[c] : NULL;
}

const char *annot_preference_name(enum preference p)
{
	return (unsigned)p < COUNT(preference_names) ? preference_names[p] : NULL;
}

bool annot_preference_from_name(const char *name, enum preference *out)
{
	*out = PREF_NONE;
	for (size_t i = 1; name && i < COUNT(preference_names); i++)
		if (strcmp(name, preference_names[i]) == 0) {
			*out = (enum preference)i;
			return true;
		}
	return false;
}

static bool kind_from_name(const char *name, enum decision_kind *out)
{
	for (size_t i = 0; i < COUNT(kind_names); i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*out = (enum decision_kind)i;
			return true;
		}
	return false;
}

static bool correction_from_name(const char *name, enum correction_kind *out)
{
	for (size_t i = 1; i < COUNT(correction_names); i++)
		if (strcmp(name, correction_names[i]) == 0) {
			*out = (enum correction_kind)i;
			return true;
		}
	return false;
}

/* A decision about the whole file, not one run: a code's alias, or the
 * retract of a group or of an alias. */
static bool file_wide(const struct decision *d)
{
	if (d->kind == DEC_TAG_ALIAS)
		return true;
	return d->kind == DEC_RETRACT &&
	       (d->retracts_group || (d->retracts_set && d->retracts == DEC_TAG_ALIAS));
}

/* Reads an optional string field: absent and null both mean NULL. */
static bool field_str(json_t *o, const char *key, const char **out, char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v)) {
		snprintf(why, whylen, "\"%s\" is not a string", key);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

static bool field_num(json_t *o, const char *key, bool *has, double *out,
                      char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*has = false;
	*out = 0;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_number(v)) {
		snprintf(why, whylen, "\"%s\" is not a number", key);
		return false;
	}
	*has = true;
	*out = json_number_value(v);
	return true;
}

static bool field_bool(json_t *o, const char *key, bool *has, bool *out,
                       char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	*has = false;
	*out = false;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_boolean(v)) {
		snprintf(why, whylen, "\"%s\" is not true or false", key);
		return false;
	}
	*has = true;
	*out = json_is_true(v);
	return true;
}

/* The string fields of a line; v2 added run_hash, model and prompt_hash,
 * which v1 lines leave out and so read as NULL. */
static const struct {
	const char *key;
	size_t off;
} str_fields[] = {
	{ "run", offsetof(struct decision, run) },
	{ "reviewer", offsetof(struct decision, reviewer) },
	{ "source", offsetof(struct decision, source) },
	{ "scorer", offsetof(struct decision, scorer) },
	{ "scorer_type", offsetof(struct decision, scorer_type) },
	{ "reason", offsetof(struct decision, reason) },
	{ "at", offsetof(struct decision, at) },
	{ "config", offsetof(struct decision, config) },
	{ "run_hash", offsetof(struct decision, run_hash) },
	{ "model", offsetof(struct decision, model) },
	{ "prompt_hash", offsetof(struct decision, prompt_hash) },
	{ "tag", offsetof(struct decision, tag) },
	{ "tag_to", offsetof(struct decision, tag_to) },
	{ "call_id", offsetof(struct decision, call_id) },
	{ "tool", offsetof(struct decision, tool) },
	{ "label", offsetof(struct decision, label) },
	{ "group", offsetof(struct decision, group) },
	{ "queue", offsetof(struct decision, queue) },
	{ "other", offsetof(struct decision, other) },
	{ "other_hash", offsetof(struct decision, other_hash) },
	{ "task", offsetof(struct decision, task) },
};

/* The fields every line has; the kinds of failure analysis are read after. */
static bool verdict_from_json(json_t *o, struct decision *d, char *why, size_t whylen)
{
	memset(d, 0, sizeof *d);
	if (!json_is_object(o)) {
		snprintf(why, whylen, "not a JSON object");
		return false;
	}
	json_t *k = json_object_get(o, "decision");
	if (!k || json_is_null(k)) {
		snprintf(why, whylen, "no \"decision\"");
		return false;
	}
	if (!json_is_string(k)) {
		snprintf(why, whylen, "\"decision\" is not a string");
		return false;
	}
	if (!kind_from_name(json_string_value(k), &d->kind)) {
		snprintf(why, whylen, "unknown decision \"%.60s\"", json_string_value(k));
		return false;
	}

	for (size_t f = 0; f < sizeof str_fields / sizeof *str_fields; f++)
		if (!field_str(o, str_fields[f].key,
		               (const char **)(void *)((char *)d + str_fields[f].off), why, whylen))
			return false;
	bool has_blind;
	if (!field_num(o, "machine_score", &d->has_machine_score, &d->machine_score, why, whylen) ||
	    !field_num(o, "score", &d->has_score, &d->score, why, whylen) ||
	    !field_bool(o, "machine_passed", &d->has_machine_passed, &d->machine_passed, why, whylen) ||
	    !field_bool(o, "blind", &has_blind, &d->blind, why, whylen))
		return false;
	return true;
}


static const char *analysis_problem(const struct decision *d);

/* `retracts`: what a retract takes back when it is not a verdict. */
static bool read_retracts(json_t *o, struct decision *d, char *why, size_t whylen)
{
	const char *r;
	if (!field_str(o, "retracts", &r, why, whylen))
		return false;
	if (!r)
		return true;
	if (strcmp(r, "group") == 0) {
		d->retracts_group = true;
		return true;
	}
	enum decision_kind k;
	if (!kind_from_name(r, &k) || k == DEC_ACCEPT || k == DEC_OVERRIDE || k == DEC_RETRACT) {
		snprintf(why, whylen, "\"retracts\" is \"%.40s\", not a kind that can be taken back", r);
		return false;
	}
	d->retracts_set = true;
	d->retracts = k;
	return true;
}

/* The fields of failure analysis, on top of what verdict_from_json read. */
static bool analysis_from_json(json_t *o, struct decision *d, char **owned,
                               char *why, size_t whylen)
{
	bool has_call;
	double call;
	bool has_lines;
	double lines;
	if (!field_num(o, "group_lines", &has_lines, &lines, why, whylen))
		return false;
	if (has_lines) {
		if (lines < 1 || lines > 1e9 || lines != floor(lines)) {
			snprintf(why, whylen, "\"group_lines\" is not a count of lines (1, 2, ...)");
			return false;
		}
		d->group_lines = (long)lines;
	}
	if (!field_num(o, "call", &has_call, &call, why, whylen) ||
	    !field_num(o, "weight", &d->has_weight, &d->weight, why, whylen) ||
	    !read_retracts(o, d, why, whylen))
		return false;
	if (has_call) {
		if (call < 1 || call > 1e9 || call != floor(call)) {
			snprintf(why, whylen, "\"call\" is not a call number (1, 2, ...)");
			return false;
		}
		d->call = (long)call;
	}
	const char *c;
	if (!field_str(o, "correction", &c, why, whylen))
		return false;
	if (c && !correction_from_name(c, &d->correction)) {
		snprintf(why, whylen, "\"correction\" is \"%.40s\", not replace, remove, insert or answer", c);
		return false;
	}
	const char *pref;
	if (!field_str(o, "prefer", &pref, why, whylen))
		return false;
	if (pref && !annot_preference_from_name(pref, &d->prefer)) {
		snprintf(why, whylen, "\"prefer\" is \"%.40s\", not base, cand, tie or both-bad", pref);
		return false;
	}
	json_t *e = json_object_get(o, "expected");
	if (e && !json_is_null(e))
		d->expected = *owned = json_dumps(e, JSON_COMPACT | JSON_ENCODE_ANY);
	return true;
}

bool annot_line_read(json_t *o, struct decision *d, char **owned, char *why, size_t whylen)
{
	*owned = NULL;
	if (!verdict_from_json(o, d, why, whylen) ||
	    !analysis_from_json(o, d, owned, why, whylen))
		return false;
	if (!d->run && !file_wide(d)) {
		snprintf(why, whylen, "no \"run\"");
		return false;
	}
	if (!d->reviewer) {
		snprintf(why, whylen, "no \"reviewer\"");
		return false;
	}
	/* Only what makes the line meaningless: a verdict line a person edited
	 * (a run_hash cut short) still reads, as it always did. */
	const char *problem = analysis_problem(d);
	if (problem) {
		snprintf(why, whylen, "%s", problem);
		return false;
	}
	return true;
}

/* The fields of failure analysis, each only when set. */
static void put_analysis(struct strbuf *sb, const struct decision *d)
{
	if (d->tag)
		jsonw_member_str(sb, "tag", d->tag);
	if (d->tag_to)
		jsonw_member_str(sb, "tag_to", d->tag_to);
	if (d->call > 0)
		strbuf_addf(sb, ",\"call\":%ld", d->call);
	if (d->call_id)
		jsonw_member_str(sb, "call_id", d->call_id);
	if (d->tool)
		jsonw_member_str(sb, "tool", d->tool);
	if (d->label)
		jsonw_member_str(sb, "label", d->label);
	if (annot_correction_name(d->correction))
		jsonw_member_str(sb, "correction", annot_correction_name(d->correction));
	if (d->expected) {
		/* Written as the JSON value itself, not a string holding it, so
		 * that jq and a person read the call as a call. */
		json_t *v = json_loads(d->expected, JSON_DECODE_ANY, NULL);
		char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		strbuf_addstr(sb, ",\"expected\":");
		strbuf_addstr(sb, text ? text : "null");
		free(text);
		json_decref(v);
	}
	if (d->retracts_group)
		jsonw_member_str(sb, "retracts", "group");
	else if (d->retracts_set)
		jsonw_member_str(sb, "retracts", annot_kind_name(d->retracts));
	if (d->group)
		jsonw_member_str(sb, "group", d->group);
	if (d->group && d->group_lines > 1)
		strbuf_addf(sb, ",\"group_lines\":%ld", d->group_lines);
	if (d->has_weight)
		jsonw_member_num(sb, "weight", true, d->weight);
	if (d->queue)
		jsonw_member_str(sb, "queue", d->queue);
	if (d->other)
		jsonw_member_str(sb, "other", d->other);
	if (d->other_hash)
		jsonw_member_str(sb, "other_hash", d->other_hash);
	if (annot_preference_name(d->prefer))
		jsonw_member_str(sb, "prefer", annot_preference_name(d->prefer));
	if (d->task)
		jsonw_member_str(sb, "task", d->task);
}


void annot_line_build(struct strbuf *sb, const struct decision *d, const char *at)
{
	strbuf_addstr(sb, "{\"v\":2");
	jsonw_member_str(sb, "run", d->run);
	jsonw_member_str(sb, "source", d->source);
	jsonw_member_str(sb, "run_hash", d->run_hash);
	jsonw_member_str(sb, "scorer", d->scorer);
	jsonw_member_str(sb, "scorer_type", d->scorer_type);
	jsonw_member_str(sb, "model", d->model);
	jsonw_member_str(sb, "prompt_hash", d->prompt_hash);
	jsonw_member_num(sb, "machine_score", d->has_machine_score, d->machine_score);
	strbuf_addstr(sb, ",\"machine_passed\":");
	strbuf_addstr(sb, !d->has_machine_passed ? "null" : d->machine_passed ? "true" : "false");
	jsonw_member_str(sb, "decision", kind_names[d->kind]);
	jsonw_member_num(sb, "score", d->has_score, d->score);
	jsonw_member_str(sb, "reason", d->reason);
	jsonw_member_str(sb, "reviewer", d->reviewer);
	strbuf_addstr(sb, d->blind ? ",\"blind\":true" : ",\"blind\":false");
	jsonw_member_str(sb, "at", at);
	jsonw_member_str(sb, "config", d->config);
	put_analysis(sb, d);
	strbuf_addch(sb, '}');
}

static bool is_sha256_hex(const char *h)
{
	size_t n = 0;
	for (; h[n]; n++)
		if (!((h[n] >= '0' && h[n] <= '9') || (h[n] >= 'a' && h[n] <= 'f')))
			return false;
	return n == 64;
}

/* What would make the line unreadable later: it is better refused now,
 * while the reviewer is there to see why. */
static const char *verdict_problem(const struct decision *d, const char *at)
{
	if (!annot_kind_name(d->kind))
		return "unknown decision kind";
	if (!d->reviewer || (!d->run && !file_wide(d)))
		return "a decision needs a run and a reviewer";
	if ((d->has_score && !isfinite(d->score)) ||
	    (d->has_machine_score && !isfinite(d->machine_score)))
		return "a score is not a finite number";
	if (d->run_hash && !is_sha256_hex(d->run_hash))
		return "run_hash is not 64 lowercase hex digits";
	if (d->other_hash && !is_sha256_hex(d->other_hash))
		return "other_hash is not 64 lowercase hex digits";
	const char *strs[] = { d->run, d->source, d->scorer, d->scorer_type, d->reason,
	                       d->reviewer, at, d->config, d->model, d->prompt_hash,
	                       d->tag, d->tag_to, d->call_id, d->tool, d->label, d->group,
	                       d->queue, d->other, d->task };
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
		if (!strs[i])
			continue;
		json_t *t = json_string(strs[i]);      /* NULL when not UTF-8 */
		if (!t)
			return "text is not valid UTF-8";
		json_decref(t);
	}
	return NULL;
}

/* `expected` for a correction: a call is an object with a string "name"
 * and, when given, object "arguments"; NULL when it is one. */
static const char *call_problem(json_t *c)
{
	if (!json_is_object(c) || !json_is_string(json_object_get(c, "name")) ||
	    !*json_string_value(json_object_get(c, "name")))
		return "\"expected\" is not a call ({\"name\": ..., \"arguments\": {...}})";
	json_t *args = json_object_get(c, "arguments");
	if (args && !json_is_object(args) && !json_is_null(args))
		return "the expected call's \"arguments\" is not an object";
	return NULL;
}

static const char *expected_problem(const struct decision *d)
{
	if (d->correction == CORR_REMOVE)
		return d->expected ? "a removal has no \"expected\"" : NULL;
	if (!d->expected)
		return "a correction needs \"expected\"";
	json_t *v = json_loads(d->expected, JSON_DECODE_ANY, NULL);
	const char *p = NULL;
	if (!v)
		p = "\"expected\" is not JSON";
	else if (d->correction == CORR_ANSWER)
		p = json_is_string(v) ? NULL : "an answer's \"expected\" is not a string";
	else if (d->correction == CORR_INSERT && json_is_array(v)) {
		if (!json_array_size(v))
			p = "an insertion names no call";
		for (size_t i = 0; !p && i < json_array_size(v); i++)
			p = call_problem(json_array_get(v, i));
	} else
		p = call_problem(v);
	json_decref(v);
	return p;
}

/* What each kind needs beyond a reviewer; NULL when it has it. */
static const char *analysis_problem(const struct decision *d)
{
	bool retract = d->kind == DEC_RETRACT;
	enum decision_kind k = retract && d->retracts_set ? d->retracts : d->kind;
	if (retract && d->retracts_group)
		return d->group ? NULL : "a retract of a group needs \"group\"";
	if (d->has_weight && (!isfinite(d->weight) || d->weight < 1))
		return "\"weight\" is not a number of 1 or more";
	switch (k) {
	case DEC_TAG:
		return d->tag && *d->tag ? NULL : "a tag needs \"tag\"";
	case DEC_TAG_ALIAS:
		if (!d->tag || !*d->tag)
			return "a tag-alias needs \"tag\"";
		return retract || (d->tag_to && *d->tag_to) ? NULL : "a tag-alias needs \"tag_to\"";
	case DEC_CALL_LABEL:
		if (d->call < 1)
			return "a call-label needs \"call\"";
		return retract || d->has_score ? NULL : "a call-label needs \"score\"";
	case DEC_CORRECT:
		if (d->correction == CORR_NONE)
			return "a correction needs \"correction\"";
		if ((d->correction == CORR_ANSWER) != (d->call < 1))
			return d->call < 1 ? "a call correction needs \"call\"" : "an answer has no \"call\"";
		return retract ? NULL : expected_problem(d);
	case DEC_PREFER:
		if (!d->other || !*d->other)
			return "a preference needs \"other\" (the run compared with)";
		if (d->run && strcmp(d->run, d->other) == 0)
			return "a preference compares a run with another, not itself";
		return retract || d->prefer != PREF_NONE ? NULL :
		       "a preference needs \"prefer\" (base, cand, tie or both-bad)";
	default:
		return NULL;
	}
}

const char *annot_line_problem(const struct decision *d, const char *at)
{
	const char *p = verdict_problem(d, at);
	return p ? p : analysis_problem(d);
}
