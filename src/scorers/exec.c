/* exec.c - the exec scorer: a command in any language reads the run as one
 * JSON document on stdin and writes {"score": X, "passed"?, "reason"?,
 * "details"?} on stdout. Protocol per-run: one process per run, the
 * document and the answer whole (util/child.c); stream: long-lived
 * processes, one line in and one line out per run (exec_stream.c).
 * Answers are cached by the command and the run (exec_cache.c).
 *
 * The entry is checked and completed when it is read (exec_configure):
 * the program is resolved against the YAML's folder, the timeout and the
 * scale are read, and the result is kept in sc->fixed, so that scoring a
 * run reads no configuration and shares nothing between threads. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf/conf.h"
#include "util/digest.h"
#include "scorers/params.h"
#include "scorers/scorer.h"
#include "exec_cache.h"
#include "util/child.h"
#include "exec_stream.h"
#include "util/xalloc.h"

#define EXEC_OUT_CAP (1024 * 1024)
#define EXEC_ERR_LINES 5
#define EXEC_ERR_BYTES 1000

static const struct param_spec exec_params[] = {
	{ .name = "command", .kind = PARAM_STRING_LIST, .flags = PARAM_REQUIRED,
	  .help = "the program and its arguments, run without a shell from the YAML's folder" },
	{ .name = "protocol", .kind = PARAM_STRING,
	  .help = "per-run (one process per run) or stream (one JSON line in and out per run)",
	  .deflt = "\"per-run\"" },
	{ .name = "timeout", .kind = PARAM_ANY, .help = "10s, 500ms, 2m or seconds (default 10s)",
	  .deflt = "\"10s\"" },
	{ .name = "scale", .kind = PARAM_OBJECT, .help = "{min, max, pass} (default 0..1, pass 0.5)" },
	{ .name = "env", .kind = PARAM_STRING_LIST,
	  .help = "variables passed on besides PATH, HOME and LANG" },
	{ .name = "cache", .kind = PARAM_BOOL,
	  .help = "keep answers by command, script content and run (default true)",
	  .deflt = "true" },
	{ .name = NULL },
};

/* The YAML's folder as an absolute path (malloc'd): the child starts there. */
static char *abs_dir(const char *dir)
{
	if (dir && dir[0] == '/')
		return strdup(dir);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return strdup(dir ? dir : ".");
	return conf_join(cwd, dir && *dir ? dir : ".");
}

static int scale_read(struct conf *x, const struct param *p, json_t *sv, double *lo,
                      double *hi, double *pass)
{
	const char *key;
	json_t *v;
	json_object_foreach(sv, key, v) {
		double *dst = strcmp(key, "min") == 0 ? lo : strcmp(key, "max") == 0 ? hi
		            : strcmp(key, "pass") == 0 ? pass : NULL;
		if (!dst)
			return conf_fail_at(x, p->line, p->col,
			                    "unknown key '%s' in scale (expected one of: min, max, pass)", key);
		if (!json_is_number(v))
			return conf_fail_at(x, p->line, p->col, "scale %s must be a number, got %s", key,
			                    conf_json_kind_name(v));
		*dst = json_number_value(v);
	}
	if (!(*lo < *hi))
		return conf_fail_at(x, p->line, p->col, "scale min %g must be below max %g", *lo, *hi);
	if (*pass < *lo || *pass > *hi)
		return conf_fail_at(x, p->line, p->col, "scale pass %g is off %g..%g", *pass, *lo, *hi);
	return 0;
}

/* Resolves the program: a name with a '/' against the YAML's folder, a bare
 * name along PATH. Stored as "program" in sc->fixed. */
static int program_resolve(struct conf *x, struct scorer_conf *sc, const struct param *p,
                           const char *dir)
{
	json_t *cmd = json_object_get(sc->fixed, "command");
	const char *prog = json_string_value(json_array_get(cmd, 0));
	if (!prog || !*prog)
		return conf_fail_at(x, p->line, p->col, "'command' must name a program");
	char *path = strchr(prog, '/') ? conf_join(dir, prog) : child_path_search(prog);
	if (!path)
		return conf_fail_at(x, p->line, p->col, "program '%s' is not found on PATH", prog);
	struct stat st = { 0 };
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
		int e = errno;
		conf_fail_at(x, p->line, p->col, "program '%s' is not an executable file (%s)", path,
		             S_ISDIR(st.st_mode) ? "a folder" : strerror(e ? e : EACCES));
		free(path);
		return -1;
	}
	json_object_set_new(sc->fixed, "program", json_string(path));
	free(path);
	return 0;
}

static int exec_configure(struct conf *x, struct scorer_conf *sc)
{
	for (size_t i = 0; i < sc->nparams; i++)
		if (sc->params[i].from)
			return conf_fail_at(x, sc->params[i].line, sc->params[i].col,
			                    "exec parameters are literals ('%s' is a reference)",
			                    sc->params[i].name);
	const struct param *pc = scorer_param_find(sc, "command");
	const struct param *pp = scorer_param_find(sc, "protocol");
	const struct param *pt = scorer_param_find(sc, "timeout");
	const struct param *ps = scorer_param_find(sc, "scale");
	const char *proto = json_string_value(json_object_get(sc->fixed, "protocol"));
	if (!proto || (strcmp(proto, "per-run") != 0 && strcmp(proto, "stream") != 0))
		return conf_fail_at(x, pp ? pp->line : sc->line, pp ? pp->col : sc->col,
		                    "unknown protocol '%s' (known: per-run, stream)", proto ? proto : "");
	long ms = child_duration_ms(json_object_get(sc->fixed, "timeout"));
	if (ms < 1)
		return conf_fail_at(x, pt ? pt->line : sc->line, pt ? pt->col : sc->col,
		                    "timeout must be a duration such as 10s, 500ms or 2m (at most 24h)");
	json_object_set_new(sc->fixed, "timeout_ms", json_integer(ms));
	double lo = 0, hi = 1, pass = sc->threshold;
	if (ps && scale_read(x, ps, json_object_get(sc->fixed, "scale"), &lo, &hi, &pass))
		return -1;
	sc->threshold = pass;
	sc->span = (struct scale){ .kind = SCALE_UNIT, .lo = lo, .hi = hi };
	sc->own_span = true;
	json_object_set_new(sc->fixed, "scale", json_pack("{s:f,s:f,s:f}", "min", lo, "max", hi,
	                                                  "pass", pass));
	char *dir = abs_dir(x->dir);
	json_object_set_new(sc->fixed, "dir", json_string(dir));
	int rc = program_resolve(x, sc, pc, dir);
	if (rc == 0) {
		char key[17];
		child_command_key(json_object_get(sc->fixed, "command"),
		               json_string_value(json_object_get(sc->fixed, "program")), dir,
		               json_object_get(sc->fixed, "env"), key);
		json_object_set_new(sc->fixed, "cache_key", json_string(key));
	}
	free(dir);
	return rc;
}

static const char *const role_names[] = { "system", "user", "assistant", "tool", "note" };
static const char *const state_names[] = { "requested", "completed", "failed", "partial" };
static const char *const part_names[] = { "text", "thinking", "call", "note" };

/* The tape's value as a tree without touching the run (another scorer of
 * the run may read it meanwhile): null when absent. */
static json_t *tape_json(const struct run *r, jv v)
{
	json_t *j = jv_to_json(r->doc, v);
	return j ? j : json_null();
}

static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	return j ? j : json_null();
}

static json_t *doc_messages(const struct run *r)
{
	json_t *msgs = json_array();
	for (size_t i = 0; i < r->nmsgs; i++) {
		const struct run_msg *m = &r->msgs[i];
		json_t *parts = json_array();
		for (size_t k = 0; k < m->nparts; k++) {
			const struct run_part *p = &r->parts[m->first_part + k];
			json_t *o = json_pack("{s:s}", "type", part_names[p->kind]);
			if (p->kind == PART_CALL)
				json_object_set_new(o, "call", json_integer((json_int_t)p->call));
			else
				json_object_set_new(o, "text", str_or_null(p->text));
			json_array_append_new(parts, o);
		}
		json_array_append_new(msgs, json_pack("{s:s,s:o,s:o}", "role", role_names[m->role],
		                                      "text", str_or_null(m->text), "parts", parts));
	}
	return msgs;
}

static json_t *doc_calls(const struct run *r)
{
	json_t *calls = json_array();
	for (size_t i = 0; i < r->ncalls; i++) {
		const struct run_call *c = &r->calls[i];
		json_t *o = json_pack("{s:o,s:o,s:s,s:i}", "name", str_or_null(c->name),
		                      "id", str_or_null(c->id), "state", state_names[c->state],
		                      "message", (json_int_t)c->msg_index);
		json_object_set_new(o, "arguments", tape_json(r, c->args));
		json_object_set_new(o, "result", c->has_result ? tape_json(r, c->result) : json_null());
		json_object_set_new(o, "error", c->is_error ? str_or_null(c->error_text ? c->error_text : "")
		                                            : json_null());
		json_array_append_new(calls, o);
	}
	return calls;
}

/* The run as the command reads it (one line of JSON, malloc'd). */
static char *run_document(const struct run *r, json_t *expected)
{
	json_t *d = json_pack("{s:o,s:o,s:o}", "id", str_or_null(r->id), "source",
	                      str_or_null(r->source), "format", str_or_null(r->format));
	json_object_set_new(d, "messages", doc_messages(r));
	json_object_set_new(d, "calls", doc_calls(r));
	json_object_set_new(d, "record", r->doc ? tape_json(r, jdoc_root(r->doc)) : json_null());
	json_object_set(d, "expected", expected ? expected : json_null());
	char *s = json_dumps(d, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(d);
	return s;
}

/* PATH, HOME, LANG and the listed variables, as the parent has them. */
static char **env_make(json_t *names)
{
	static const char *const base[] = { "PATH", "HOME", "LANG" };
	size_t n = json_array_size(names);
	char **env = calloc(n + 4, sizeof *env);
	size_t k = 0;
	for (size_t i = 0; i < 3 + n; i++) {
		const char *name = i < 3 ? base[i] : json_string_value(json_array_get(names, i - 3));
		const char *val = name ? getenv(name) : NULL;
		if (val && asprintf(&env[k++], "%s=%s", name, val) < 0)
			xalloc_die();
	}
	return env;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void fail(struct verdict *out, const struct child_result *res, const char *fmt,
                 const char *arg)
{
	char *tail = res && res->errout ? child_tail_lines(res->errout, res->errout_len, EXEC_ERR_LINES,
	                                                EXEC_ERR_BYTES) : NULL;
	char what[256];
	snprintf(what, sizeof what, fmt, arg);
	if (tail && *tail)
		verdict_error_from(out, "exec: ", "%s; stderr: %s", what, tail);
	else
		verdict_error_from(out, "exec: ", "%s", what);
	free(tail);
}

/* Why the process did not end well, or NULL when it exited 0. */
static const char *proc_problem(const struct child_result *res, char *buf, size_t n)
{
	if (res->exec_errno)
		snprintf(buf, n, "cannot run the program: %s", strerror(res->exec_errno));
	else if (res->overflow)
		snprintf(buf, n, "output past %d bytes", EXEC_OUT_CAP);
	else if (res->timed_out)
		snprintf(buf, n, "timed out (killed)");
	else if (WIFSIGNALED(res->status))
		snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(res->status),
		         strsignal(WTERMSIG(res->status)));
	else if (WIFEXITED(res->status) && WEXITSTATUS(res->status) != 0)
		snprintf(buf, n, "exit status %d", WEXITSTATUS(res->status));
	else if (res->ended)
		snprintf(buf, n, "the program ended (exit status 0) without answering");
	else
		return NULL;
	return buf;
}

/* Reads {"score", "passed"?, "reason"?, "details"?} into the verdict;
 * returns the answer when it was one (a new reference), else NULL. */
static json_t *output_read(const struct scorer_conf *sc, const struct child_result *res,
                           json_t *scale, struct verdict *out)
{
	json_t *answer = NULL;
	json_error_t je;
	json_t *o = json_loadb(res->out, res->outlen, JSON_DECODE_ANY, &je);
	json_t *score = json_object_get(o, "score");
	json_t *passed = json_object_get(o, "passed"), *reason = json_object_get(o, "reason");
	struct scale span = { .kind = SCALE_UNIT, .lo = json_number_value(json_object_get(scale, "min")),
	                      .hi = json_number_value(json_object_get(scale, "max")) };
	char got[128];
	if (!json_is_object(o) || !json_is_number(score)) {
		snprintf(got, sizeof got, "%.60s", res->outlen ? res->out : "nothing");
		fail(out, res, "output is not {\"score\": X, ...}: %s", got);
	} else if ((passed && !json_is_boolean(passed)) || (reason && !json_is_string(reason)))
		fail(out, res, "%s", "'passed' must be a boolean and 'reason' a string");
	else if (!scale_holds(&span, json_number_value(score))) {
		/* An integer scale (0..5) takes whole steps, as its labels do. */
		snprintf(got, sizeof got, "%g is off the scale %g..%g%s", json_number_value(score), span.lo,
		         span.hi, scale_levels(&span) ? " (whole steps only)" : "");
		fail(out, res, "score %s", got);
	} else {
		json_t *d = json_object();
		if (reason)
			json_object_set(d, "reason", reason);
		if (json_object_get(o, "details"))
			json_object_set(d, "details", json_object_get(o, "details"));
		verdict_ok(out, sc->threshold, json_number_value(score), d);
		if (passed)
			out->passed = json_is_true(passed);
		answer = json_incref(o);
	}
	json_decref(o);
	return answer;
}

/* Runs the command on the document, by the entry's protocol. */
static void ask(const struct scorer_conf *sc, json_t *params, const struct child_spec *sp,
                const char *doc, const char *run_id, struct verdict *out, json_t **answer)
{
	const char *proto = json_string_value(json_object_get(params, "protocol"));
	bool stream = proto && strcmp(proto, "stream") == 0;
	struct child_result res;
	char why[160];
	int rc = stream ? exec_stream_ask(sc, sp, doc, strlen(doc), run_id, &res)
	                : child_run(sp, doc, strlen(doc), &res);
	if (rc < 0) {
		verdict_error_from(out, "exec: ", "cannot start '%s': %s", sp->path, strerror(errno));
		return;
	}
	if (proc_problem(&res, why, sizeof why))
		fail(out, &res, "%s", why);
	else
		*answer = output_read(sc, &res, json_object_get(params, "scale"), out);
	child_result_free(&res);
}

static void exec_score(const struct scorer_conf *sc, const struct run *r, struct scorer_shared *sh,
                       json_t *params, const char *unset, struct verdict *out)
{
	(void)unset;
	json_t *cmd = json_object_get(params, "command");
	const char *program = json_string_value(json_object_get(params, "program"));
	if (!program) {
		verdict_error_from(out, "exec: ", "the entry was not configured from a file");
		return;
	}
	size_t argc = json_array_size(cmd);
	char **argv = calloc(argc + 1, sizeof *argv);
	for (size_t i = 0; i < argc; i++)
		argv[i] = strdup(json_string_value(json_array_get(cmd, i)));
	char **env = env_make(json_object_get(params, "env"));
	struct child_spec sp = {
		.path = program, .argv = argv, .envp = env,
		.cwd = json_string_value(json_object_get(params, "dir")),
		.timeout_ms = (long)json_integer_value(json_object_get(params, "timeout_ms")),
		.out_cap = EXEC_OUT_CAP,
	};
	char *doc = run_document(r, sh ? sh->expected : NULL);
	const char *key = json_is_true(json_object_get(params, "cache"))
	                ? json_string_value(json_object_get(params, "cache_key")) : NULL;
	char run_digest[SHA256_HEX_LEN + 1];
	char *kept = NULL;
	if (doc && key) {
		sha256_hex(doc, strlen(doc), run_digest);
		kept = exec_cache_get(sc, key, run_digest);
	}
	json_t *answer = NULL;
	if (!doc)
		verdict_error_from(out, "exec: ", "the run cannot be written as JSON");
	else if (kept) {
		struct child_result res = { .out = kept, .outlen = strlen(kept) };
		json_decref(output_read(sc, &res, json_object_get(params, "scale"), out));
		free(kept);
	} else {
		ask(sc, params, &sp, doc, r->id, out, &answer);
		if (answer && key)
			exec_cache_put(sc, key, run_digest, answer);
		json_decref(answer);
	}
	free(doc);
	strv_free(argv);
	strv_free(env);
}

static void exec_explain(const json_t *d, struct strbuf *out)
{
	const char *reason = json_string_value(json_object_get(d, "reason"));
	if (reason)
		strbuf_addf(out, "%s\n", reason);
	json_t *det = json_object_get(d, "details");
	if (det) {
		char *s = json_dumps(det, JSON_INDENT(2) | JSON_ENCODE_ANY);
		if (s)
			strbuf_addf(out, "%s\n", s);
		free(s);
	}
}

/* The entry's processes (stream) and its cache go with the configuration. */
static void exec_release(const struct scorer_conf *sc)
{
	exec_stream_close(sc);
	exec_cache_close(sc);
}

const struct scorer_ops scorer_exec = {
	.type = "exec",
	.summary = "a command in any language scores the run it reads as JSON on stdin",
	.scale = SCALE_UNIT,
	.default_threshold = 0.5,
	.params = exec_params,
	.score = exec_score,
	.explain = exec_explain,
	.configure = exec_configure,
	.release = exec_release,
	.per_run_process = true,
};
