/* judge_conf.h - reading the `judges:` section into struct judge_conf
 * (judge/judge.h): the key table, each provider's own keys and checks,
 * the prompt, the hash. */
#ifndef TCR_JUDGE_JUDGE_CONF_H
#define TCR_JUDGE_JUDGE_CONF_H

#include <stddef.h>

#include "conf/conf.h"
#include "judge/judge.h"

/* Called with each judge's id as soon as it is read and found unique among
 * the judges, so that the caller can check it against ids of other
 * sections (the scorers share the namespace). Returns 0 or -1 (conf_fail). */
typedef int (*judge_id_check)(struct conf *cf, const struct conf_node *idn, const char *id,
                              void *arg);

struct judge_trust;
/* What the command lends the judges it reads: the allowances each is
 * checked against and keeps (judge/trust.h; NULL: nothing allowed), and
 * the data folder holding the built-in prompts (NULL: the installed one). */
struct judge_read_opts {
	struct judge_trust *trust;
	const char *datadir;
};

/* Reads `judges:` (a list) into *out / *nout; relative prompt files are
 * taken from cf->dir. *nout counts each entry as it is started, so that
 * judges_free frees a half-read list. opts may be NULL. */
int  judges_read(struct conf *cf, const struct conf_node *list, struct judge_conf **out,
                 size_t *nout, judge_id_check check, void *arg,
                 const struct judge_read_opts *opts);
void judges_free(struct judge_conf *list, size_t n);
/* Moves the pairwise judges (judge_is_pairwise) of a list read by
 * judges_read to the end of *pairs, keeping the order of both, so that
 * no per-run list of judges ever holds one. */
void judges_take_pairwise(struct judge_conf **list, size_t *n, struct judge_conf **pairs,
                          size_t *npairs);

#endif
