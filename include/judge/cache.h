/* cache.h - judge verdicts kept beside the inputs, so reopening a
 * file shows earlier verdicts without asking again.
 *
 * FIRST_INPUT.judgements.jsonl, append-only, one line per verdict:
 *   {"v":1,"key","run","judge","model","prompt_hash","at",
 *    "verdict":{"status","score","passed","details","error"}}
 * and "group" for a verdict made with few-shot examples (examples.h): the
 * key of the run and judge whatever examples were shown.
 * The key covers the run's content, the judge's configuration, the prompt,
 * the model and the ids of the examples shown, so a change to any of them
 * asks again. No API key is ever
 * written. Lines are appended like the annotations file's (O_APPEND, one
 * write, fsync). */
#ifndef TCR_JUDGE_CACHE_H
#define TCR_JUDGE_CACHE_H

#include <stddef.h>

#include "judge/judge.h"
#include "util/error.h"

struct judge_cache;

/* Opens and reads the file, which the first verdict put creates when it is
 * missing (its folder must be writable now); broken lines are skipped
 * and reported by judge_cache_warning. NULL with "PATH: reason" in err. */
struct judge_cache *judge_cache_open(const char *path, struct error *err);
void judge_cache_close(struct judge_cache *c);
/* Where the cache of an input lives: FIRST_INPUT.judgements.jsonl
 * (malloc'd), or NULL for standard input ("-"), which has nowhere to keep one. */
char *judge_cache_path(const char *first_input);
const char *judge_cache_warning(const struct judge_cache *c);
/* Reads another input's cache into c, for reading only: its verdicts on
 * keys c lacks (a key covers the run's content and the judge, so either
 * file's verdict on it is the same question's answer); c's own stand.
 * A missing file adds nothing. Returns 0, or -1 with "PATH: reason". */
int judge_cache_read_also(struct judge_cache *c, const char *path, struct error *err);

/* 16 hex digits and a NUL: FNV-1a of the run's record (compact JSON), the
 * judge's hash, its prompt hash and model. For a judge with examples this
 * is the group of its verdicts on the run, whatever examples it was shown. */
void judge_cache_key(const struct run *r, const struct judge_conf *j, char key[17]);
/* The key with the ids of the examples shown (a JSON array of strings);
 * judge_cache_key's when ids is NULL. */
void judge_cache_key_examples(const struct run *r, const struct judge_conf *j, const json_t *ids,
                              char key[17]);
/* The key the judge's verdict made without examples has: the same judge
 * configured without `examples:` (j->base_hash). judge_cache_key's for a
 * judge without examples. */
void judge_cache_key_base(const struct run *r, const struct judge_conf *j, char key[17]);

/* The key of a pairwise judge's verdict on runs a (base) and b
 * (candidate): both records in that order, the judge's hash, its prompt
 * hash and model; never a run's key, and (b, a) has another. */
void judge_cache_key_pair(const struct run *a, const struct run *b, const struct judge_conf *j,
                          char key[17]);

/* The latest cached verdict for a key, or NULL. Valid until close. */
const struct verdict *judge_cache_get(const struct judge_cache *c, const char *key);
/* The newest cached verdict of a group (judge_cache_key), made with any
 * examples or none, or NULL. Valid until close. */
const struct verdict *judge_cache_get_latest(const struct judge_cache *c, const char *group);
/* Appends a verdict. Returns 0 once it is on disk, -1 with a reason. */
int judge_cache_put(struct judge_cache *c, const char *key, const struct run *r,
                    const struct judge_conf *j, const struct verdict *v, struct error *err);
/* The same for a key of a group (judge_cache_key_examples within
 * judge_cache_key); group NULL or equal to key: judge_cache_put. */
int judge_cache_put_in(struct judge_cache *c, const char *key, const char *group,
                       const struct run *r, const struct judge_conf *j, const struct verdict *v,
                       struct error *err);

#endif
