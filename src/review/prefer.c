/* prefer.c - a reviewer's preference on a pair of runs (base better, candidate better, tie, both bad), written and taken back. */
#include <stdio.h>
#include <string.h>

#include "review/compare.h"
#include "review/session.h"
#include "util/strbuf.h"

const char *compare_pref_words(enum preference p)
{
	switch (p) {
	case PREF_BASE:     return "base better";
	case PREF_CAND:     return "candidate better";
	case PREF_TIE:      return "tie";
	case PREF_BOTH_BAD: return "both bad";
	default:            return "none";
	}
}

/* The pair's fields every preference line and its retract carry. */
static struct decision pair_decision(const struct review *rv, const struct compare *c,
                                     enum decision_kind kind)
{
	struct decision d = {
		.kind = kind,
		.run = c->run[0].id,
		.source = c->run[0].source,
		.other = c->run[1].id,
		.reviewer = rv->reviewer,
		.blind = rv->blind,
	};
	return d;
}

int review_prefer(struct review *rv, const struct compare *c, enum preference p,
                  struct error *err)
{
	struct decision d = pair_decision(rv, c, DEC_PREFER);
	d.prefer = p;
	d.run_hash = c->run[0].hash[0] ? c->run[0].hash : NULL;
	d.other_hash = c->run[1].hash[0] ? c->run[1].hash : NULL;
	/* the task as the key names it; both runs are trials of it when they
	 * agree, else it is not one task and none is written */
	if (c->run[0].task && (!c->run[1].task || strcmp(c->run[0].task, c->run[1].task) == 0))
		d.task = c->run[0].task;
	if (annot_append(rv->annot, &d, err) < 0)
		return -1;
	rv->labels_gen++;
	return 0;
}

int review_prefer_retract(struct review *rv, const struct compare *c, struct error *err)
{
	if (!annot_preference(rv->annot, c->run[0].id, c->run[1].id, rv->reviewer)) {
		error_set(err, ERR_MISSING, "no preference of yours on this pair to take back");
		return -1;
	}
	struct decision d = pair_decision(rv, c, DEC_RETRACT);
	d.retracts_set = true;
	d.retracts = DEC_PREFER;
	if (annot_append(rv->annot, &d, err) < 0)
		return -1;
	rv->labels_gen++;
	return 0;
}

void compare_prefs_text(const struct review *rv, const struct compare *c, char *buf, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const struct decision *mine = annot_preference(rv->annot, c->run[0].id, c->run[1].id,
	                                               rv->reviewer);
	if (mine)
		strbuf_addf(&sb, "%s (%s)", compare_pref_words(mine->prefer), rv->reviewer);
	const char *const *names;
	size_t nr = rv->blind ? 0 : annot_reviewers(rv->annot, &names);
	for (size_t i = 0; i < nr; i++) {
		if (strcmp(names[i], rv->reviewer) == 0)
			continue;
		const struct decision *d = annot_preference(rv->annot, c->run[0].id, c->run[1].id,
		                                            names[i]);
		if (d)
			strbuf_addf(&sb, "%s%s (%s)", sb.len ? ", " : "", compare_pref_words(d->prefer),
			            names[i]);
	}
	snprintf(buf, n, "%s", sb.len ? sb.buf : "");
	strbuf_release(&sb);
}
