/* config.c - the YAML configuration as a table of sections, each handed to
 * its owner.
 *
 * conf/ reads the file into positioned nodes; each top-level key is looked
 * up in the section table below and its value given to the owner's reader
 * (runs/, scorers/, judge/, and, through readers the caller hands down in
 * config_opts, review/ and tui/). What no single owner can check is checked here: scorer and
 * judge ids share one namespace, expected.* references need an
 * `expectations` section, and compare: pairs name a scorer and a judge. The tree is thrown away once read. */
#include "config/config.h"

#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "judge/judge_conf.h"
#include "runs/runs_conf.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* ---- what no one owner can check ---------------------------------------- */

/* Scorer and judge ids share one namespace: a verdict row is named by it. */
static int scorer_id_free(struct conf *x, const struct conf_node *idn, const char *id, void *arg)
{
	const struct config *c = arg;
	for (size_t i = 0; i < c->njudges + c->npair_judges; i++) {
		const struct judge_conf *j = i < c->njudges ? &c->judges[i]
		                                            : &c->pair_judges[i - c->njudges];
		if (j->id && strcmp(j->id, id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': judge at line %d has it (scorers and "
			                 "judges share one set of ids)", id, j->line);
	}
	return 0;
}

static int judge_id_free(struct conf *x, const struct conf_node *idn, const char *id, void *arg)
{
	const struct config *c = arg;
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && strcmp(c->scorers[i].id, id) == 0)
			return conf_fail(x, idn, "duplicate id '%s': scorer at line %d has it (scorers and "
			                 "judges share one set of ids)", id, c->scorers[i].line);
	return 0;
}

static bool is_scorer(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->nscorers; i++)
		if (c->scorers[i].id && strcmp(c->scorers[i].id, id) == 0)
			return true;
	return false;
}

static bool is_judge(const struct config *c, const char *id)
{
	for (size_t i = 0; i < c->njudges; i++)
		if (c->judges[i].id && strcmp(c->judges[i].id, id) == 0)
			return true;
	return false;
}

/* compare: names a code scorer, then a judge; either may be declared
 * after the section, so the ids are checked once everything is read. The
 * judge may also come from the user's configuration read under this one
 * (`under`, or NULL). */
static int compare_check(struct conf *x, const struct config *c, const struct config *under)
{
	for (size_t i = 0; i < c->ncompare; i++) {
		const struct compare_conf *p = &c->compare[i];
		bool sj = is_judge(c, p->scorer);
		if (!is_scorer(c, p->scorer))
			return conf_fail_at(x, p->scorer_line, p->scorer_col,
			                    sj ? "'%s' is a judge; a compare pair is [scorer-id, judge-id]"
			                       : "compare: unknown scorer '%s'", p->scorer);
		if (!is_judge(c, p->judge) && !(under && is_judge(under, p->judge) &&
		                                 !is_scorer(c, p->judge)))
			return conf_fail_at(x, p->judge_line, p->judge_col,
			                    is_scorer(c, p->judge)
			                    ? "'%s' is a code scorer; a compare pair is [scorer-id, judge-id]"
			                    : "compare: unknown judge '%s'", p->judge);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(c->compare[k].scorer, p->scorer) && !strcmp(c->compare[k].judge, p->judge))
				return conf_fail_at(x, p->scorer_line, p->scorer_col,
				                    "compare: [%s, %s] is given twice", p->scorer, p->judge);
	}
	return 0;
}

/* A `criterion:` names a failure mode defined in tags:. */
static int criterion_check(struct conf *x, const struct config *c, const char *who,
                           const char *id, const struct criterion_decl *cd)
{
	if (!cd->tag)
		return 0;
	const struct tag_def *t = vocab_tag_find(&c->vocab, cd->tag);
	if (t && vocab_code_eq(t->id, cd->tag))
		return 0;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < c->vocab.ntags; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", c->vocab.tags[i].id);
	int rc = conf_fail_at(x, cd->line, cd->col, "%s '%s': criterion '%s' is not a failure mode "
	                      "defined in tags: (%s%s)", who, id, cd->tag,
	                      t ? "it is absorbed by " : "defined: ",
	                      t ? t->id : sb.len ? sb.buf : "none");
	strbuf_release(&sb);
	return rc;
}

/* Checked last because `expectations` may come after `scorers`. */
static int references_check(struct conf *x, const struct config *c, const struct config *under)
{
	if (compare_check(x, c, under))
		return -1;
	for (size_t i = 0; i < c->nscorers; i++)
		if (criterion_check(x, c, "scorer", c->scorers[i].id, &c->scorers[i].criterion))
			return -1;
	for (size_t i = 0; i < c->njudges; i++)
		if (criterion_check(x, c, "judge", c->judges[i].id, &c->judges[i].criterion))
			return -1;
	for (size_t i = 0; i < c->nscorers; i++) {
		const struct scorer_conf *sc = &c->scorers[i];
		for (size_t j = 0; j < sc->nparams; j++)
			if (sc->params[j].from_expected && !c->has_expect)
				return conf_fail_at(x, sc->params[j].line, sc->params[j].col,
				                    "'%s' refers to expected.* but there is no 'expectations' "
				                    "section", sc->params[j].name);
	}
	return 0;
}

/* ---- the sections ------------------------------------------------------- */

/* A section of the table is read with what the caller lent the load. */
typedef int (*section_reader)(struct conf *x, const struct conf_node *v, struct config *c,
                              const struct config_opts *opts);

static int runs_section(struct conf *x, const struct conf_node *v, struct config *c,
                        const struct config_opts *opts)
{
	(void)opts;
	struct runs_conf rc;
	int r = runs_conf_read(x, v, &rc);
	c->run_id_path = rc.id_path;
	c->format = rc.format;
	return r;
}

static int expect_section(struct conf *x, const struct conf_node *v, struct config *c,
                          const struct config_opts *opts)
{
	(void)opts;
	if (expect_conf_read(x, v, &c->expect))
		return -1;
	c->has_expect = true;
	return 0;
}

static int scorers_section(struct conf *x, const struct conf_node *v, struct config *c,
                           const struct config_opts *opts)
{
	(void)opts;
	return scorers_read(x, v, &c->scorers, &c->nscorers, scorer_id_free, c);
}

static int judges_section(struct conf *x, const struct conf_node *v, struct config *c,
                          const struct config_opts *opts)
{
	const struct judge_read_opts jo = { opts->trust, opts->datadir };
	if (judges_read(x, v, &c->judges, &c->njudges, judge_id_free, c, &jo))
		return -1;
	judges_take_pairwise(&c->judges, &c->njudges, &c->pair_judges, &c->npair_judges);
	return 0;
}

/* tags: and call_labels:, the words of failure analysis (annot/vocab.h). */
static int tags_section(struct conf *x, const struct conf_node *v, struct config *c,
                        const struct config_opts *opts)
{
	(void)opts;
	return vocab_tags_read(x, v, &c->vocab);
}

static int call_labels_section(struct conf *x, const struct conf_node *v, struct config *c,
                               const struct config_opts *opts)
{
	(void)opts;
	return vocab_call_labels_read(x, v, &c->vocab);
}

/* formats: formats declared as data, their jq compiled as they are read. */
static int formats_section(struct conf *x, const struct conf_node *v, struct config *c,
                           const struct config_opts *opts)
{
	(void)opts;
	return declared_conf_read(x, v, "configuration", &c->formats);
}

/* reviewer: NAME, who decides on the screen unless --reviewer says. */
static int reviewer_section(struct conf *x, const struct conf_node *v, struct config *c,
                            const struct config_opts *opts)
{
	(void)opts;
	return conf_str(x, v, "reviewer", &c->reviewer);
}

/* compare's pairs, [[scorer-id, judge-id], ...]: only the shape here, the
 * ids in compare_check. */
static int compare_pairs(struct conf *x, const struct conf_node *v, struct config *c)
{
	if (conf_seq(x, v, "compare", "[scorer-id, judge-id] pairs"))
		return -1;
	c->has_compare = true;
	c->compare = xcalloc(v->nkids + 1, sizeof *c->compare);
	for (size_t i = 0; i < v->nkids; i++) {
		const struct conf_node *p = v->kids[i];
		if (p->kind != CONF_SEQ)
			return conf_fail(x, p, "each 'compare' item must be a pair [scorer-id, judge-id], "
			                 "got %s", conf_kind_name(p));
		if (p->nkids != 2)
			return conf_fail(x, p, "each 'compare' item must be a pair [scorer-id, judge-id], "
			                 "got a list of %zu", p->nkids);
		struct compare_conf *cc = &c->compare[c->ncompare];
		if (conf_str(x, p->kids[0], "compare", &cc->scorer) ||
		    conf_str(x, p->kids[1], "compare", &cc->judge)) {
			free(cc->scorer);
			free(cc->judge);
			*cc = (struct compare_conf){ 0 };
			return -1;
		}
		cc->scorer_line = p->kids[0]->line;
		cc->scorer_col = p->kids[0]->col;
		cc->judge_line = p->kids[1]->line;
		cc->judge_col = p->kids[1]->col;
		c->ncompare++;
	}
	return 0;
}

static int compare_pairs_key(struct conf *x, const struct conf_node *v, void *store)
{
	return compare_pairs(x, v, store);
}

static int compare_task_key(struct conf *x, const struct conf_node *v, void *store)
{
	struct config *c = store;
	return run_spec_read(x, v, "task", &c->compare_task);
}

static const struct conf_key compare_keys[] = {
	{ .name = "task", .kind = CONF_K_FN, .read = compare_task_key },
	{ .name = "pairs", .kind = CONF_K_FN, .read = compare_pairs_key },
	{ .name = NULL },
};

static const struct conf_table compare_table = { .keys = compare_keys,
                                                 .unknown_for = "in 'compare'" };

/* compare: the pairs as a list (code scorer against judge), or a mapping:
 * {task: PATH or [PATH, ...], pairs: [...]}, where `task` names what a run
 * is a trial of, so that diff, the side by side and pass^k pair runs. */
static int compare_section(struct conf *x, const struct conf_node *v, struct config *c,
                           const struct config_opts *opts)
{
	(void)opts;
	if (v->kind == CONF_MAP)
		return conf_keys(x, v, &compare_table, c, NULL);
	return compare_pairs(x, v, c);
}

/* Which files a section may stand in: a project's tcreview.yaml, the
 * user's own configuration, or both. The user's holds what belongs to a
 * person wherever they review (theme, keys, name, judges they like); what
 * scores a dataset stays with the dataset. */
enum {
	IN_PROJECT = 1u << CONFIG_PROJECT,
	IN_USER = 1u << CONFIG_USER,
	IN_BOTH = IN_PROJECT | IN_USER,
};

/* Every top-level key, in the order "unknown key" lists them. keys: and
 * theme: belong to review/ and tui/, which stand above config/ in the
 * layer order, so config/ cannot call them by name: the caller hands their
 * readers down in config_opts (the command line does so as it loads), and
 * the sections are then read and checked at load, at their place in the
 * file, like every other. */
static const struct {
	const char *name;
	section_reader read;        /* NULL: read by the reader the caller gives */
	unsigned in;                /* IN_*: the files it may stand in */
} sections[] = {
	{ "runs", runs_section, IN_PROJECT },
	{ "expectations", expect_section, IN_PROJECT },
	{ "scorers", scorers_section, IN_PROJECT },
	{ "judges", judges_section, IN_BOTH },
	{ "compare", compare_section, IN_PROJECT },
	{ "formats", formats_section, IN_BOTH },
	{ "theme", NULL, IN_BOTH },
	{ "keys", NULL, IN_BOTH },
	{ "reviewer", reviewer_section, IN_USER },
	{ "tags", tags_section, IN_PROJECT },
	{ "call_labels", call_labels_section, IN_PROJECT },
};

#define NSECTIONS (sizeof sections / sizeof *sections)

/* The reader the caller gave for a section above config/, or NULL. */
static config_reader given_reader(const struct config_opts *opts, const char *section)
{
	for (const struct config_section_reader *r = opts->readers; r && r->section; r++)
		if (strcmp(r->section, section) == 0)
			return r->read;
	return NULL;
}

static int unknown_section(struct conf *x, const struct conf_node *k)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < NSECTIONS; i++) {
		if (i)
			strbuf_addstr(&sb, ", ");
		strbuf_addstr(&sb, sections[i].name);
	}
	conf_unknown_key(x, k, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* A section that is known but belongs in the other kind of file. */
static int misplaced_section(struct conf *x, const struct conf_node *k, enum config_scope scope)
{
	if (scope == CONFIG_USER)
		return conf_fail(x, k, "'%s' belongs in a project's tcreview.yaml, beside its runs; "
		                 "the user configuration holds only theme, keys, reviewer, judges and formats",
		                 k->text);
	return conf_fail(x, k, "'%s' is a person's setting: put it in the user configuration "
	                 "(see `tcreview --help config`) or pass --reviewer NAME", k->text);
}

/* How a file is read: its kind, and the user's configuration it stands
 * over (a project's compare: may name the user's judges), or NULL. */
struct load_how {
	enum config_scope scope;
	const struct config *under;
	const struct config_opts *opts;     /* never NULL */
};

static int config_walk(struct conf *x, struct config *c, const struct conf_node *root,
                       const struct load_how *how)
{
	enum config_scope scope = how->scope;
	if (conf_is_null(root))
		return 0;       /* "---" alone, or "~": an empty configuration */
	if (root->kind != CONF_MAP)
		return conf_fail(x, root, "the configuration must be a mapping of runs, expectations, "
		                 "scorers and judges");

	for (size_t i = 0; i + 1 < root->nkids; i += 2) {
		const struct conf_node *k = root->kids[i], *v = root->kids[i + 1];
		size_t s = 0;
		while (s < NSECTIONS && !conf_key_is(k, sections[s].name))
			s++;
		if (s == NSECTIONS)
			return unknown_section(x, k);
		if (!(sections[s].in & (1u << scope)))
			return misplaced_section(x, k, scope);
		/* A section without a reader (keys: or theme: in a program that
		 * has no screen) is not this program's business. */
		if (conf_is_null(v))
			continue;
		config_reader given = sections[s].read ? NULL : given_reader(how->opts, sections[s].name);
		if (sections[s].read ? sections[s].read(x, v, c, how->opts) : given && given(x, v, c))
			return -1;
	}
	return references_check(x, c, how->under);
}

/* ---- public API -------------------------------------------------------- */

/* allow NULL: not confined (a string of the program's or a test's). */
static int load_text(struct config *c, const char *name, const char *dir, const char *text,
                     size_t len, const struct config_allow *allow, const struct load_how *how,
                     struct error *err)
{
	memset(c, 0, sizeof *c);
	error_clear(err);
	struct conf x;
	c->path = name ? xstrdup(name) : NULL;   /* NULL marks the built-in config */
	c->dir = dir ? xstrdup(dir) : NULL;

	int rc = conf_parse(&x, name, c->dir, text, len, err);
	if (allow) {
		x.confined = true;
		x.allow = allow->paths;
		x.nallow = allow->n;
	}
	if (rc == 0 && x.root)
		rc = config_walk(&x, c, x.root, how);
	conf_free(&x);
	if (rc)
		config_free(c);
	return rc;
}

static const struct config_opts no_opts;

int config_load_string(struct config *c, const struct config_opts *opts, const char *name,
                       const char *dir, const char *text, size_t len, struct error *err)
{
	const struct load_how how = { CONFIG_PROJECT, NULL, opts ? opts : &no_opts };
	return load_text(c, name, dir, text, len, NULL, &how, err);
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

static int load_file(struct config *c, const char *path, const struct config_allow *allow,
                     const struct load_how *how, struct error *err)
{
	static const struct config_allow none = { NULL, 0 };
	memset(c, 0, sizeof *c);
	struct strbuf sb = STRBUF_INIT;
	if (read_regular_file(&sb, path, READ_CAP_CONFIG, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}

	char *dir = dir_of(path);
	int rc = load_text(c, path, dir, sb.buf ? sb.buf : "", sb.len, allow ? allow : &none, how,
	                   err);
	free(dir);
	strbuf_release(&sb);
	return rc;
}

int config_load_scoped(struct config *c, const struct config_opts *opts, const char *path,
                       enum config_scope scope, struct error *err)
{
	const struct load_how how = { scope, NULL, opts ? opts : &no_opts };
	return load_file(c, path, how.opts->allow, &how, err);
}

int config_load_under(struct config *c, const struct config_opts *opts, const char *path,
                      const struct config *user, struct error *err)
{
	const struct load_how how = { CONFIG_PROJECT, user, opts ? opts : &no_opts };
	return load_file(c, path, how.opts->allow, &how, err);
}

int config_load(struct config *c, const struct config_opts *opts, const char *path, struct error *err)
{
	return config_load_scoped(c, opts, path, CONFIG_PROJECT, err);
}

bool config_compares(const struct config *c, const char *scorer_id, const char *judge_id)
{
	if (!c->has_compare)
		return true;
	for (size_t i = 0; i < c->ncompare; i++)
		if (!strcmp(c->compare[i].scorer, scorer_id) && !strcmp(c->compare[i].judge, judge_id))
			return true;
	return false;
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
	judges_free(c->judges, c->njudges);
	judges_free(c->pair_judges, c->npair_judges);
	for (size_t i = 0; i < c->ncompare; i++) {
		free(c->compare[i].scorer);
		free(c->compare[i].judge);
	}
	free(c->compare);
	free(c->compare_task);
	free(c->theme);
	free(c->reviewer);
	declared_set_free(&c->formats);
	vocab_free(&c->vocab);
	free(c->user_path);
	for (size_t i = 0; i < c->nkeys; i++) {
		free(c->keys[i].action);
		free(c->keys[i].keys);
	}
	free(c->keys);
	memset(c, 0, sizeof *c);
}
