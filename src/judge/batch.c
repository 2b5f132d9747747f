/* batch.c - the OpenAI Batch API's files: requests as its input lines, a batch's answers fed to the jobs.
 *
 * Only the protocol: which command writes or reads the files, and what it
 * prints, is the command's (cli/cmd_judge.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/batch.h"
#include "judge/http.h"
#include "judge/provider.h"
#include "util/jsonw.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

struct batch_output {
	json_t *by_id;              /* custom_id -> {status_code, body} or {status_code 0, error} */
};

/* ---- the input file ------------------------------------------------------- */

void batch_custom_id(const char *key, size_t judge, char *out, size_t n)
{
	snprintf(out, n, "tcr-%s-%zu", key, judge);
}

/* One request line of the Batch API input: the same body as a live request. */
int batch_request_write(FILE *f, const struct judge_conf *j, struct judge_job *job,
                        const char *id, struct error *err)
{
	const struct provider_ops *ops = provider_of(j->provider);
	if (!ops || !ops->batch_url) {
		error_set(err, ERR_FAILED, "%s: batch files are for OpenAI and OpenAI-compatible judges", j->id);
		return -1;
	}
	struct judge_prompt p;
	if (!judge_job_next_prompt(job, &p)) {
		error_set(err, ERR_FAILED, "%s: nothing to ask", j->id);
		return -1;
	}
	struct http_req req;
	if (provider_request(j, &p, &req, err) < 0)
		return -1;
	json_error_t jerr;
	json_t *body = json_loads(req.body, 0, &jerr);
	http_req_free(&req);
	if (!body) {
		error_set(err, ERR_FAILED, "%s: the request body is not JSON", j->id);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{\"custom_id\":");
	jsonw_string(&sb, id, strlen(id));
	strbuf_addstr(&sb, ",\"method\":\"POST\",\"url\":");
	jsonw_string(&sb, ops->batch_url, strlen(ops->batch_url));
	strbuf_addstr(&sb, ",\"body\":");
	jsonw_value(&sb, body);
	strbuf_addstr(&sb, "}\n");
	json_decref(body);
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
	return 0;
}

/* ---- the output file ------------------------------------------------------ */

/* custom_id -> {status_code, body} of a finished batch's output file. */
static json_t *output_read(const char *path, batch_bad_line_fn *bad, void *ctx, struct error *err)
{
	/* Read line by line, but only a regular file within the cap: a FIFO
	 * would wait and /dev/zero be one line growing without end. */
	int fd = open_regular(path, O_RDONLY, 0, err);
	struct stat st;
	char capname[32];
	format_cap(READ_CAP_BATCH, capname, sizeof capname);
	if (fd >= 0 && fstat(fd, &st) == 0 && (unsigned long long)st.st_size > READ_CAP_BATCH) {
		error_set(err, ERR_FAILED, "%s: larger than %s", path, capname);
		close(fd);
		return NULL;
	}
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0) {
			error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
			close(fd);
		}
		return NULL;
	}
	json_t *map = json_object();
	char *line = NULL;
	size_t cap = 0, lineno = 0, total = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if ((total += (size_t)n) > READ_CAP_BATCH) {     /* it grew while read */
			error_set(err, ERR_FAILED, "%s: larger than %s", path, capname);
			free(line);
			fclose(f);
			json_decref(map);
			return NULL;
		}
		json_error_t jerr;
		json_t *v = json_loadb(line, (size_t)n, 0, &jerr);
		const char *id = json_string_value(json_object_get(v, "custom_id"));
		json_t *resp = json_object_get(v, "response");
		if (!v || !id) {
			if (line[strspn(line, " \t\r\n")] && bad)
				bad(ctx, path, lineno);
		} else if (resp) {
			json_object_set(map, id, resp);
		} else {
			json_t *e = json_object_get(v, "error");
			json_t *fake = json_pack("{s:i,s:O}", "status_code", 0, "error", e ? e : json_null());
			json_object_set_new(map, id, fake);
		}
		json_decref(v);
	}
	free(line);
	fclose(f);
	return map;
}

/* Feeds a batch answer into a job, as the client would a live one. */
static void answer(const struct judge_conf *j, struct judge_job *job, json_t *resp)
{
	long status = (long)json_integer_value(json_object_get(resp, "status_code"));
	json_t *body = json_object_get(resp, "body");
	struct error err = {0};
	char *text = NULL;
	struct judge_reply reply = { .http_status = status, .prompt_tokens = -1, .completion_tokens = -1 };
	if (!body) {
		json_t *e = json_object_get(resp, "error");
		const char *m = json_string_value(json_object_get(e, "message"));
		error_set(&err, ERR_FAILED, "the batch has no answer: %s", m ? m : "request failed");
		reply.error = err.msg;
	} else {
		char *raw = json_dumps(body, JSON_COMPACT);
		if (provider_reply(j, status, raw, strlen(raw), &text, &reply, &err) < 0)
			reply.error = err.msg;
		else
			reply.text = text;
		free(raw);
	}
	judge_job_take_reply(job, &reply);
	free(text);
}

struct batch_output *batch_output_read(const char *path, batch_bad_line_fn *bad, void *ctx,
                                       struct error *err)
{
	json_t *map = output_read(path, bad, ctx, err);
	if (!map)
		return NULL;
	struct batch_output *o = xcalloc(1, sizeof *o);
	o->by_id = map;
	return o;
}

void batch_output_feed(const struct batch_output *o, const char *id, const struct judge_conf *j,
                       struct judge_job *job)
{
	json_t *resp = json_object_get(o->by_id, id);
	if (!resp)
		judge_job_fail(job, "no answer for it in the batch output");
	else
		answer(j, job, resp);
}

void batch_output_free(struct batch_output *o)
{
	if (!o)
		return;
	json_decref(o->by_id);
	free(o);
}
