/* fake_llm.c - a local OpenAI-compatible HTTP server for the LLM-judge tests.
 *
 *   tests/fake_llm --script FILE --log FILE [--port-file FILE] [--max-seconds N]
 *
 * It listens on 127.0.0.1 on a port the kernel picks, answers each request
 * from a JSON script of rules (canned completions, error statuses, delays,
 * dropped connections, slow and cut-short bodies) and writes every request
 * it receives to the log as one JSON line, so a test can both steer the
 * judge's HTTP client and see exactly what it sent. One poll loop serves
 * every connection; delays are timers in that loop, so a slow answer on one
 * connection never holds up another. It ends on SIGTERM or SIGINT, and by
 * itself after --max-seconds, so a test that dies cannot leave it running.
 * The full script format is in the usage text below. */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#define MAX_HEAD (64 * 1024)
#define MAX_BODY (64 * 1024 * 1024)

static const char usage_text[] =
	"usage: fake_llm --script FILE --log FILE [--port-file FILE] [--max-seconds N]\n"
	"\n"
	"Serves HTTP/1.1 on 127.0.0.1 on a free port. The port goes to --port-file\n"
	"(written to a temporary file, then renamed) or else to stdout. Every\n"
	"request is logged as one JSON line, flushed at once:\n"
	"  {\"n\":1,\"method\":\"POST\",\"path\":\"/v1/...?q\",\"headers\":{\"lower-name\":\"value\"},\n"
	"   \"body\":<the body parsed as JSON, else the raw string>,\"at_ms\":<ms since start>,\n"
	"   \"answer\":\"rules[0]\"|\"default\"|\"builtin\",\"waiting\":N}\n"
	"where waiting counts the requests read and not yet answered whose client is\n"
	"still there, this one included.\n"
	"Ends on SIGTERM or SIGINT (status 0) or after --max-seconds (default 60;\n"
	"status 0).\n"
	"\n"
	"Script: {\"rules\":[RULE...], \"default\":RULE}, both optional. The first rule\n"
	"whose match fits and whose times are not used up answers; else default;\n"
	"else a 200 OpenAI chat completion with content {\"score\":1,\"reason\":\"ok\"}.\n"
	"RULE keys (all optional):\n"
	"  match: {method, path_prefix, body_contains, header:{name:value}}\n"
	"  times: N           answers at most N requests\n"
	"  status: 200        200..599\n"
	"  headers: {}        extra response headers\n"
	"  delay_ms: N        wait before answering\n"
	"  until_held: N      answer only once N requests (of clients still there) wait on\n"
	"                     such rules (a barrier:\n"
	"                     N requests were in flight at once, whatever the timing)\n"
	"  until_file: PATH   answer only once PATH exists (a test's own signal)\n"
	"  body: JSON | raw: \"text\" | content: TEXT | anthropic_content: TEXT\n"
	"  drop: true         close without answering\n"
	"  trickle_ms: N      send the body one byte every N ms\n"
	"  truncate: true     announce the whole body, send half of it, close\n";

/* ---- small helpers ---------------------------------------------------- */

static void
die_oom(void)
{
	fputs("fake_llm: out of memory\n", stderr);
	exit(1);
}

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

static char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
buf_printf(struct buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		buf_add(b, small, (size_t)n);
		return;
	}
	char *big = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf_add(b, big, (size_t)n);
	free(big);
}

/* Drops the first n bytes: what is left is the next pipelined request. */
static void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
	} else {
		memmove(b->p, b->p + n, b->len - n);
		b->len -= n;
	}
	if (b->p)
		b->p[b->len] = '\0';
}

static const char *
find_bytes(const char *hay, size_t n, const char *needle, size_t m)
{
	if (m == 0)
		return hay;
	for (size_t i = 0; i + m <= n; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0)
			return hay + i;
	return NULL;
}

/* A JSON string of any bytes: jansson refuses invalid UTF-8, and the log
 * must stay one JSON line whatever a client sends, so bytes above 0x7f
 * become '?' when the text is not UTF-8. */
static json_t *
json_bytes(const char *p, size_t n)
{
	json_t *s = json_stringn(p, n);
	if (s)
		return s;
	char *copy = xrealloc(NULL, n);
	for (size_t i = 0; i < n; i++)
		copy[i] = (unsigned char)p[i] < 0x80 ? p[i] : '?';
	s = json_stringn(copy, n);
	free(copy);
	return s ? s : json_string("");
}

static char *
dump_compact(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!s)
		die_oom();
	return s;
}

/* ---- the script ------------------------------------------------------- */

enum body_kind { BODY_TEXT, BODY_OPENAI, BODY_ANTHROPIC, BODY_ERROR };

struct rule {
	char name[32];          /* for the log's "answer" */
	const char *method;     /* match; NULL matches anything */
	const char *path_prefix;
	const char *body_contains;
	json_t *match_headers;  /* lower-case name -> string value */
	long long times;        /* -1: no limit */
	long long used;
	int status;
	json_t *headers;        /* response headers: name -> string */
	long long delay_ms, trickle_ms;
	long long until_held;   /* 0, or answer once this many wait on such rules */
	const char *until_file; /* NULL, or answer once this file exists */
	enum body_kind kind;
	char *text;             /* the body (BODY_TEXT) or the content (OPENAI, ANTHROPIC) */
	size_t text_len;
	bool drop, truncate;
};

struct script {
	json_t *root;           /* owns the strings the rules point into */
	struct rule *rules;
	size_t nrules;
	struct rule deflt;
	bool has_default;
	struct rule builtin;
};

static bool
only_keys(const json_t *obj, const char *const *allowed, const char *where)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		bool ok = false;
		for (size_t i = 0; allowed[i]; i++)
			if (strcmp(key, allowed[i]) == 0)
				ok = true;
		if (!ok) {
			/* A typo ("time" for "times") would silently change a test. */
			fprintf(stderr, "fake_llm: %s: unknown key \"%s\"\n", where, key);
			return false;
		}
	}
	return true;
}

static bool
get_int(const json_t *obj, const char *key, long long lo, long long hi, long long *out, const char *where)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return true;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		fprintf(stderr, "fake_llm: %s: \"%s\" must be an integer from %lld to %lld\n", where, key, lo, hi);
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

static bool
get_bool(const json_t *obj, const char *key, bool *out, const char *where)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return true;
	if (!json_is_boolean(v)) {
		fprintf(stderr, "fake_llm: %s: \"%s\" must be true or false\n", where, key);
		return false;
	}
	*out = json_is_true(v);
	return true;
}

static bool
get_str(const json_t *obj, const char *key, const char **out, const char *where)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return true;
	if (!json_is_string(v)) {
		fprintf(stderr, "fake_llm: %s: \"%s\" must be a string\n", where, key);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

static bool
string_object(const json_t *v, const char *key, const char *where)
{
	const char *k;
	json_t *x;
	if (!json_is_object(v)) {
		fprintf(stderr, "fake_llm: %s: \"%s\" must be an object of strings\n", where, key);
		return false;
	}
	json_object_foreach((json_t *)v, k, x) {
		if (!json_is_string(x) || !*k || strpbrk(k, " \t\r\n:") ||
		    strpbrk(json_string_value(x), "\r\n")) {
			fprintf(stderr, "fake_llm: %s: \"%s\": \"%s\" must be a header name with a one-line string value\n",
				where, key, k);
			return false;
		}
	}
	return true;
}

static void
set_text(struct rule *r, enum body_kind kind, const json_t *v)
{
	r->kind = kind;
	if (json_is_string(v)) {
		r->text_len = json_string_length(v);
		r->text = xrealloc(NULL, r->text_len + 1);
		memcpy(r->text, json_string_value(v), r->text_len + 1);
	} else {
		/* content given as a JSON value: the judge's reply is usually a
		 * JSON object, and writing it unquoted keeps scripts readable. */
		r->text = dump_compact(v);
		r->text_len = strlen(r->text);
	}
}

static bool
load_rule(const json_t *o, struct rule *r, const char *where)
{
	static const char *const keys[] = { "match", "times", "status", "headers", "delay_ms", "body", "raw",
		"content", "anthropic_content", "drop", "trickle_ms", "truncate", "until_held", "until_file", NULL };
	static const char *const match_keys[] = { "method", "path_prefix", "body_contains", "header", NULL };
	static const char *const reserved[] = { "content-length", "transfer-encoding", "connection", NULL };

	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", where);
	r->times = -1;
	r->status = 200;
	if (!json_is_object(o)) {
		fprintf(stderr, "fake_llm: %s must be an object\n", where);
		return false;
	}
	if (!only_keys(o, keys, where))
		return false;

	json_t *m = json_object_get(o, "match");
	if (m) {
		char mwhere[64];
		snprintf(mwhere, sizeof mwhere, "%s.match", where);
		if (!json_is_object(m)) {
			fprintf(stderr, "fake_llm: %s must be an object\n", mwhere);
			return false;
		}
		if (!only_keys(m, match_keys, mwhere) || !get_str(m, "method", &r->method, mwhere) ||
		    !get_str(m, "path_prefix", &r->path_prefix, mwhere) ||
		    !get_str(m, "body_contains", &r->body_contains, mwhere))
			return false;
		json_t *h = json_object_get(m, "header");
		if (h) {
			if (!string_object(h, "header", mwhere))
				return false;
			/* Request header names are logged and compared in lower case. */
			r->match_headers = json_object();
			const char *k;
			json_t *v;
			json_object_foreach(h, k, v) {
				char *lk = xstrdup(k);
				for (char *p = lk; *p; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
				json_object_set(r->match_headers, lk, v);
				free(lk);
			}
		}
	}

	long long status = 200;
	if (!get_int(o, "times", 0, LLONG_MAX, &r->times, where) ||
	    !get_int(o, "status", 200, 599, &status, where) ||
	    !get_int(o, "delay_ms", 0, 3600000, &r->delay_ms, where) ||
	    !get_int(o, "trickle_ms", 0, 60000, &r->trickle_ms, where) ||
	    !get_int(o, "until_held", 0, 1000, &r->until_held, where) ||
	    !get_str(o, "until_file", &r->until_file, where) ||
	    !get_bool(o, "drop", &r->drop, where) || !get_bool(o, "truncate", &r->truncate, where))
		return false;
	r->status = (int)status;

	r->headers = json_object_get(o, "headers");
	if (r->headers) {
		if (!string_object(r->headers, "headers", where))
			return false;
		const char *k;
		json_t *v;
		json_object_foreach(r->headers, k, v) {
			for (size_t i = 0; reserved[i]; i++)
				if (strcasecmp(k, reserved[i]) == 0) {
					/* The server frames the response itself; a wrong
					 * length is what "truncate" is for. */
					fprintf(stderr, "fake_llm: %s: headers: \"%s\" is set by the server\n", where, k);
					return false;
				}
		}
	}

	int bodies = !!json_object_get(o, "body") + !!json_object_get(o, "raw") +
		     !!json_object_get(o, "content") + !!json_object_get(o, "anthropic_content");
	if (bodies > 1) {
		fprintf(stderr, "fake_llm: %s: give at most one of body, raw, content, anthropic_content\n", where);
		return false;
	}
	json_t *v;
	if ((v = json_object_get(o, "body"))) {
		r->kind = BODY_TEXT;
		r->text = dump_compact(v);
		r->text_len = strlen(r->text);
	}
	if ((v = json_object_get(o, "raw"))) {
		if (!json_is_string(v)) {
			fprintf(stderr, "fake_llm: %s: \"raw\" must be a string\n", where);
			return false;
		}
		set_text(r, BODY_TEXT, v);
	}
	if ((v = json_object_get(o, "content")))
		set_text(r, BODY_OPENAI, v);
	if ((v = json_object_get(o, "anthropic_content")))
		set_text(r, BODY_ANTHROPIC, v);
	if (bodies == 0) {
		if (r->status == 200) {
			r->kind = BODY_OPENAI;
			r->text = xstrdup("{\"score\":1,\"reason\":\"ok\"}");
			r->text_len = strlen(r->text);
		} else {
			r->kind = BODY_ERROR;
		}
	}
	return true;
}

static bool
load_script(const char *file, struct script *s)
{
	json_error_t err;
	memset(s, 0, sizeof *s);
	s->root = json_load_file(file, 0, &err);
	if (!s->root) {
		fprintf(stderr, "fake_llm: %s:%d: %s\n", file, err.line, err.text);
		return false;
	}
	static const char *const keys[] = { "rules", "default", NULL };
	if (!json_is_object(s->root)) {
		fprintf(stderr, "fake_llm: %s: the script must be a JSON object\n", file);
		return false;
	}
	if (!only_keys(s->root, keys, "script"))
		return false;
	json_t *rules = json_object_get(s->root, "rules");
	if (rules && !json_is_array(rules)) {
		fprintf(stderr, "fake_llm: %s: \"rules\" must be an array\n", file);
		return false;
	}
	s->nrules = json_array_size(rules);
	s->rules = xrealloc(NULL, s->nrules * sizeof *s->rules);
	for (size_t i = 0; i < s->nrules; i++) {
		char where[32];
		snprintf(where, sizeof where, "rules[%zu]", i);
		if (!load_rule(json_array_get(rules, i), &s->rules[i], where)) {
			s->nrules = i + 1;
			return false;
		}
	}
	json_t *d = json_object_get(s->root, "default");
	if (d) {
		s->has_default = true;
		if (!load_rule(d, &s->deflt, "default"))
			return false;
	}
	json_t *none = json_object();
	load_rule(none, &s->builtin, "builtin");
	json_decref(none);
	return true;
}

static void
free_rule(struct rule *r)
{
	json_decref(r->match_headers);
	free(r->text);
}

static void
free_script(struct script *s)
{
	for (size_t i = 0; i < s->nrules; i++)
		free_rule(&s->rules[i]);
	free(s->rules);
	if (s->has_default)
		free_rule(&s->deflt);
	free_rule(&s->builtin);
	json_decref(s->root);
}

static bool
rule_fits(const struct rule *r, const char *method, const char *path, json_t *headers,
	  const char *body, size_t body_len)
{
	if (r->times >= 0 && r->used >= r->times)
		return false;
	if (r->method && strcmp(r->method, method) != 0)
		return false;
	if (r->path_prefix && strncmp(path, r->path_prefix, strlen(r->path_prefix)) != 0)
		return false;
	if (r->body_contains && !find_bytes(body, body_len, r->body_contains, strlen(r->body_contains)))
		return false;
	if (r->match_headers) {
		const char *k;
		json_t *want;
		json_object_foreach(r->match_headers, k, want) {
			json_t *got = json_object_get(headers, k);
			if (!got || strcmp(json_string_value(got), json_string_value(want)) != 0)
				return false;
		}
	}
	return true;
}

static struct rule *
choose_rule(struct script *s, const char *method, const char *path, json_t *headers,
	    const char *body, size_t body_len)
{
	for (size_t i = 0; i < s->nrules; i++)
		if (rule_fits(&s->rules[i], method, path, headers, body, body_len))
			return &s->rules[i];
	return s->has_default ? &s->deflt : &s->builtin;
}

/* ---- connections ------------------------------------------------------ */

enum conn_state { ST_READ, ST_WAIT, ST_WRITE };

struct conn {
	int fd;
	bool dead;
	enum conn_state st;
	struct buf in, out;
	size_t out_off;         /* bytes of out already sent */
	size_t allow;           /* bytes of out that may be sent so far (trickle holds it back) */
	int64_t due;            /* ST_WAIT: when to answer; ST_WRITE, trickling: the next byte */
	bool released;          /* ST_WAIT under until_held: the barrier was reached */

	/* the request whose head has been read */
	bool have_head;
	size_t head_len, body_len;
	char *method, *path;
	json_t *headers;
	bool close_after;       /* close once the response is sent */
	bool keep_alive_10;     /* an HTTP/1.0 client asked to keep the connection */
	bool is_head, expect_continue, sent_continue;
	bool eof;               /* the client will send nothing more */

	/* the answer chosen for it, built when its delay is over */
	struct rule *rule;
	long long req_n;
	char *model;
};

struct server {
	struct script script;
	FILE *log;
	int64_t start;
	long long nreq;
	struct conn **conns;
	size_t nconns, capconns;
};

static void
reset_request(struct conn *c)
{
	free(c->method);
	free(c->path);
	json_decref(c->headers);
	free(c->model);
	c->method = c->path = c->model = NULL;
	c->headers = NULL;
	c->have_head = c->close_after = c->keep_alive_10 = c->is_head = false;
	c->expect_continue = c->sent_continue = false;
	c->head_len = c->body_len = 0;
	c->rule = NULL;
}

static void
free_conn(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	reset_request(c);
	free(c->in.p);
	free(c->out.p);
	free(c);
}

static bool
has_token(const char *list, const char *token)
{
	size_t n = strlen(token);
	const char *p = list;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *e = p;
		while (*e && *e != ',')
			e++;
		const char *t = e;
		while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
			t--;
		if ((size_t)(t - p) == n && strncasecmp(p, token, n) == 0)
			return true;
		p = e;
	}
	return false;
}

static const char *
reason_phrase(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 413: return "Content Too Large";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	case 529: return "Overloaded";
	default:  return "Status";
	}
}

/* A request the server cannot read: it says why and closes, as there is no
 * telling where the next request would start. */
static void
refuse(struct conn *c, int status, const char *why)
{
	fprintf(stderr, "fake_llm: refusing a request: %s\n", why);
	buf_printf(&c->out, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
		   "Connection: close\r\n\r\n%s", status, reason_phrase(status), strlen(why), why);
	c->allow = c->out.len;
	c->close_after = true;
	c->in.len = 0;
	c->st = ST_WRITE;
}

/* Parses the head in c->in once it is complete. Returns 1 when parsed, 0
 * when more bytes are needed, -1 when the request was refused. */
static int
parse_head(struct conn *c)
{
	/* Stray line ends between requests are allowed (RFC 9112 2.2). */
	size_t skip = 0;
	while (skip < c->in.len && (c->in.p[skip] == '\r' || c->in.p[skip] == '\n'))
		skip++;
	buf_consume(&c->in, skip);

	const char *end = find_bytes(c->in.p, c->in.len, "\r\n\r\n", 4);
	if (!end) {
		if (c->in.len > MAX_HEAD) {
			refuse(c, 431, "request head too large");
			return -1;
		}
		return 0;
	}
	size_t head_len = (size_t)(end - c->in.p) + 4;
	char *head = xrealloc(NULL, head_len + 1);
	memcpy(head, c->in.p, head_len);
	head[head_len] = '\0';

	char *save = NULL;
	char *line = strtok_r(head, "\r\n", &save);
	char *sp1 = line ? strchr(line, ' ') : NULL;
	char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || sp1 == line || sp2 == sp1 + 1 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
		free(head);
		refuse(c, 400, "bad request line");
		return -1;
	}
	*sp1 = *sp2 = '\0';
	c->method = xstrdup(line);
	c->path = xstrdup(sp1 + 1);
	bool http10 = strcmp(sp2 + 1, "HTTP/1.0") == 0;
	c->headers = json_object();

	bool have_length = false, keep_alive = false;
	unsigned long long length = 0;
	while ((line = strtok_r(NULL, "\r\n", &save))) {
		char *colon = strchr(line, ':');
		if (!colon || colon == line || line[0] == ' ' || line[0] == '\t') {
			free(head);
			refuse(c, 400, "bad header line");
			return -1;
		}
		*colon = '\0';
		for (char *p = line; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t vn = strlen(v);
		while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
			v[--vn] = '\0';

		/* A repeated header is one list, joined as RFC 9110 5.3 allows. */
		json_t *old = json_object_get(c->headers, line);
		if (old) {
			struct buf j = { 0 };
			buf_add(&j, json_string_value(old), json_string_length(old));
			buf_str(&j, ", ");
			buf_add(&j, v, vn);
			json_object_set_new(c->headers, line, json_bytes(j.p, j.len));
			free(j.p);
		} else {
			json_object_set_new(c->headers, line, json_bytes(v, vn));
		}

		if (strcmp(line, "content-length") == 0) {
			char *e = NULL;
			errno = 0;
			unsigned long long n = strtoull(v, &e, 10);
			if (!*v || *v < '0' || *v > '9' || *e || errno || (have_length && n != length)) {
				free(head);
				refuse(c, 400, "bad Content-Length");
				return -1;
			}
			have_length = true;
			length = n;
		} else if (strcmp(line, "transfer-encoding") == 0) {
			free(head);
			refuse(c, 501, "Transfer-Encoding is not supported; send a Content-Length");
			return -1;
		} else if (strcmp(line, "connection") == 0) {
			if (has_token(v, "close"))
				c->close_after = true;
			if (has_token(v, "keep-alive"))
				keep_alive = true;
		} else if (strcmp(line, "expect") == 0) {
			c->expect_continue = strcasecmp(v, "100-continue") == 0;
		}
	}
	free(head);
	if (length > MAX_BODY) {
		refuse(c, 413, "request body too large");
		return -1;
	}
	if (http10 && !keep_alive)
		c->close_after = true;
	c->keep_alive_10 = http10 && !c->close_after;
	c->is_head = strcmp(c->method, "HEAD") == 0;
	c->head_len = head_len;
	c->body_len = (size_t)length;
	c->have_head = true;
	return 1;
}

static void
log_request(struct server *s, struct conn *c, const char *body, int64_t now)
{
	json_error_t err;
	json_t *parsed = c->body_len ? json_loadb(body, c->body_len, JSON_DECODE_ANY, &err) : NULL;
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer(c->req_n));
	json_object_set_new(o, "method", json_bytes(c->method, strlen(c->method)));
	json_object_set_new(o, "path", json_bytes(c->path, strlen(c->path)));
	json_object_set(o, "headers", c->headers);
	json_object_set_new(o, "body", parsed ? parsed : json_bytes(body, c->body_len));
	json_object_set_new(o, "at_ms", json_integer(now - s->start));
	json_object_set_new(o, "answer", json_string(c->rule->name));
	long long waiting = 1;
	for (size_t i = 0; i < s->nconns; i++)
		waiting += s->conns[i] != c && s->conns[i]->st == ST_WAIT && !s->conns[i]->eof;
	json_object_set_new(o, "waiting", json_integer(waiting));
	char *line = dump_compact(o);
	/* One write and a flush per line: tests read the log while we run. */
	fprintf(s->log, "%s\n", line);
	fflush(s->log);
	free(line);

	json_t *model = parsed ? json_object_get(parsed, "model") : NULL;
	c->model = xstrdup(json_is_string(model) ? json_string_value(model) : "fake-model");
	json_decref(o);
}

/* Reads the next request out of c->in if it is all there: logs it, picks
 * its rule and starts its delay. */
static void
take_request(struct server *s, struct conn *c, int64_t now)
{
	if (!c->have_head && parse_head(c) <= 0)
		return;
	size_t have = c->in.len - c->head_len;
	if (have < c->body_len) {
		/* curl waits a second for this before sending a large body. */
		if (c->expect_continue && !c->sent_continue) {
			buf_str(&c->out, "HTTP/1.1 100 Continue\r\n\r\n");
			c->allow = c->out.len;
			c->sent_continue = true;
		}
		return;
	}
	const char *body = c->in.p + c->head_len;
	c->req_n = ++s->nreq;
	c->rule = choose_rule(&s->script, c->method, c->path, c->headers, body, c->body_len);
	c->rule->used++;
	log_request(s, c, body, now);
	buf_consume(&c->in, c->head_len + c->body_len);
	c->st = ST_WAIT;
	c->released = false;
	c->due = now + c->rule->delay_ms;
}

/* Whether a waiting request may be answered once its delay is over: its
 * barrier reached, its file there. */
static bool
conn_ready(const struct conn *c)
{
	const struct rule *r = c->rule;
	return (!r->until_held || c->released) && (!r->until_file || access(r->until_file, F_OK) == 0);
}

/* The until_held barrier: once enough requests wait on such rules, all of
 * them may go. */
static void
release_held(struct server *s)
{
	long long held = 0, need = 0;
	for (size_t i = 0; i < s->nconns; i++) {
		const struct conn *c = s->conns[i];
		if (!c->dead && !c->eof && c->st == ST_WAIT && c->rule->until_held && !c->released) {
			held++;
			if (!need || c->rule->until_held < need)
				need = c->rule->until_held;
		}
	}
	if (!need || held < need)
		return;
	for (size_t i = 0; i < s->nconns; i++) {
		struct conn *c = s->conns[i];
		if (!c->dead && c->st == ST_WAIT && c->rule->until_held)
			c->released = true;
	}
}

static char *
answer_body(const struct conn *c, const struct rule *r)
{
	json_t *o = NULL;
	char id[64];
	switch (r->kind) {
	case BODY_TEXT:
		return NULL;
	case BODY_OPENAI:
		snprintf(id, sizeof id, "chatcmpl-fake-%lld", c->req_n);
		o = json_pack("{s:s, s:s, s:i, s:s, s:[{s:i, s:{s:s, s:s%}, s:s}], s:{s:i, s:i, s:i}}",
			      "id", id, "object", "chat.completion", "created", 1700000000, "model", c->model,
			      "choices", "index", 0, "message", "role", "assistant", "content", r->text, r->text_len,
			      "finish_reason", "stop",
			      "usage", "prompt_tokens", 11, "completion_tokens", 7, "total_tokens", 18);
		break;
	case BODY_ANTHROPIC:
		snprintf(id, sizeof id, "msg_fake_%lld", c->req_n);
		o = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:s%}], s:s, s:n, s:{s:i, s:i}}",
			      "id", id, "type", "message", "role", "assistant", "model", c->model,
			      "content", "type", "text", "text", r->text, r->text_len,
			      "stop_reason", "end_turn", "stop_sequence",
			      "usage", "input_tokens", 11, "output_tokens", 7);
		break;
	case BODY_ERROR: {
		char msg[64];
		snprintf(msg, sizeof msg, "fake_llm: HTTP %d", r->status);
		o = json_pack("{s:{s:s, s:s, s:i}}", "error", "message", msg, "type", "fake_llm_error",
			      "code", r->status);
		break;
	}
	}
	if (!o) {
		/* Only a content that is not UTF-8 gets here. */
		fprintf(stderr, "fake_llm: %s: cannot build the response\n", r->name);
		o = json_object();
	}
	char *text = dump_compact(o);
	json_decref(o);
	return text;
}

/* The request's delay is over: drop the connection or queue the answer. */
static void
answer(struct conn *c, int64_t now)
{
	const struct rule *r = c->rule;
	if (r->drop) {
		c->dead = true;
		return;
	}
	char *built = answer_body(c, r);
	const char *body = built ? built : r->text;
	size_t body_len = built ? strlen(built) : r->text_len;
	bool no_body = c->is_head || r->status == 204 || r->status == 304;
	bool typed = false;

	buf_printf(&c->out, "HTTP/1.1 %d %s\r\n", r->status, reason_phrase(r->status));
	if (r->headers) {
		const char *k;
		json_t *v;
		json_object_foreach(r->headers, k, v) {
			buf_printf(&c->out, "%s: %s\r\n", k, json_string_value(v));
			if (strcasecmp(k, "content-type") == 0)
				typed = true;
		}
	}
	if (!typed && r->status != 204 && r->status != 304)
		buf_str(&c->out, "Content-Type: application/json\r\n");
	size_t send_len = body_len;
	if (r->status != 204 && r->status != 304) {
		size_t announced = body_len;
		if (r->truncate) {
			/* Half the body under the whole body's length, then the
			 * connection ends: the client must see a short read. */
			send_len = body_len / 2;
			if (announced == 0)
				announced = 1;
		}
		buf_printf(&c->out, "Content-Length: %zu\r\n", announced);
	}
	if (c->close_after)
		buf_str(&c->out, "Connection: close\r\n");
	else if (c->keep_alive_10)
		buf_str(&c->out, "Connection: keep-alive\r\n");
	buf_str(&c->out, "\r\n");
	c->allow = c->out.len;
	if (!no_body)
		buf_add(&c->out, body, send_len);
	if (r->truncate)
		c->close_after = true;
	if (r->trickle_ms > 0 && !no_body)
		c->due = now + r->trickle_ms;
	else
		c->allow = c->out.len;
	free(built);
	c->st = ST_WRITE;
}

static void
response_done(struct conn *c)
{
	if (c->close_after) {
		c->dead = true;
		return;
	}
	c->out.len = c->out_off = c->allow = 0;
	reset_request(c);
	c->st = ST_READ;
}

/* What the time alone moves on: a request read in full, a delay over, the
 * next trickled byte. */
static void
conn_step(struct server *s, struct conn *c, int64_t now)
{
	if (c->st == ST_READ)
		take_request(s, c, now);
	if (c->st == ST_WAIT && c->due <= now && conn_ready(c))
		answer(c, now);
	if (c->st == ST_WRITE && c->allow < c->out.len && c->due <= now && c->out_off >= c->allow) {
		c->allow++;
		c->due = now + c->rule->trickle_ms;
	}
	if (c->st == ST_WRITE && c->out_off == c->out.len)
		response_done(c);
	if (c->st == ST_READ && c->eof && c->out_off == c->out.len)
		c->dead = true;
}

static bool
conn_has_timer(const struct conn *c)
{
	return c->st == ST_WAIT || (c->st == ST_WRITE && c->allow < c->out.len && c->out_off >= c->allow);
}

/* How long poll may sleep for this connection's sake: -1 for as long as
 * it likes (a barrier moves only when a request comes), a short tick
 * while it waits for a file to appear. */
static int64_t
conn_timer(const struct conn *c, int64_t now)
{
	if (!conn_has_timer(c))
		return -1;
	if (c->st == ST_WAIT && c->due <= now && !conn_ready(c))
		return c->rule->until_file ? 20 : -1;
	return c->due - now;
}

static void
conn_read(struct conn *c)
{
	char chunk[65536];
	for (;;) {
		ssize_t n = read(c->fd, chunk, sizeof chunk);
		if (n > 0) {
			if (c->in.len + (size_t)n > (size_t)MAX_HEAD + MAX_BODY + 1) {
				c->dead = true;
				return;
			}
			buf_add(&c->in, chunk, (size_t)n);
			continue;
		}
		if (n == 0) {
			/* The client may only have shut down its side: requests
			 * already read are still answered (conn_step closes). */
			c->eof = true;
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			c->dead = true;
		return;
	}
}

static void
conn_write(struct conn *c)
{
	while (c->out_off < c->allow) {
		ssize_t n = write(c->fd, c->out.p + c->out_off, c->allow - c->out_off);
		if (n > 0) {
			c->out_off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		c->dead = true;
		return;
	}
	if (c->st == ST_WRITE && c->out_off == c->out.len)
		response_done(c);
}

static void
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void
accept_all(struct server *s, int lfd)
{
	for (;;) {
		int fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNABORTED)
				fprintf(stderr, "fake_llm: accept: %s\n", strerror(errno));
			return;
		}
		set_nonblock(fd);
		/* Without it a trickled body would go out in Nagle-sized lumps. */
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		struct conn *c = xrealloc(NULL, sizeof *c);
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->st = ST_READ;
		if (s->nconns == s->capconns) {
			s->capconns = s->capconns ? s->capconns * 2 : 16;
			s->conns = xrealloc(s->conns, s->capconns * sizeof *s->conns);
		}
		s->conns[s->nconns++] = c;
	}
}

static void
reap(struct server *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nconns; i++) {
		if (s->conns[i]->dead)
			free_conn(s->conns[i]);
		else
			s->conns[k++] = s->conns[i];
	}
	s->nconns = k;
}

/* ---- start-up and the loop -------------------------------------------- */

static int sig_pipe[2] = { -1, -1 };

static void
on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	ssize_t r = write(sig_pipe[1], "x", 1);
	(void)r;
	errno = saved;
}

static bool
write_port_file(const char *file, int port)
{
	size_t n = strlen(file) + 32;
	char *tmp = xrealloc(NULL, n);
	snprintf(tmp, n, "%s.tmp.%ld", file, (long)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f && fprintf(f, "%d\n", port) > 0;
	if (f && fclose(f) != 0)
		ok = false;
	/* A reader polling for the file sees it whole or not at all. */
	if (ok && rename(tmp, file) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "fake_llm: cannot write %s: %s\n", file, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

static int
listen_local(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		fprintf(stderr, "fake_llm: socket: %s\n", strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t alen = sizeof a;
	if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 128) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
		fprintf(stderr, "fake_llm: cannot listen on 127.0.0.1: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	set_nonblock(fd);
	*port = ntohs(a.sin_port);
	return fd;
}

static int
serve(struct server *s, int lfd, int64_t deadline)
{
	struct pollfd *fds = NULL;
	size_t capfds = 0;
	for (;;) {
		int64_t now = now_ms();
		if (now >= deadline) {
			fprintf(stderr, "fake_llm: --max-seconds reached, exiting\n");
			break;
		}
		/* Every request read first, so that a barrier sees them all. */
		for (size_t i = 0; i < s->nconns; i++)
			if (s->conns[i]->st == ST_READ)
				take_request(s, s->conns[i], now);
		release_held(s);
		for (size_t i = 0; i < s->nconns; i++)
			conn_step(s, s->conns[i], now);
		reap(s);

		int64_t wait = deadline - now;
		if (capfds < s->nconns + 2) {
			capfds = (s->nconns + 2) * 2;
			fds = xrealloc(fds, capfds * sizeof *fds);
		}
		fds[0] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
		fds[1] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (size_t i = 0; i < s->nconns; i++) {
			struct conn *c = s->conns[i];
			short ev = 0;
			/* While a request waits too: a client that leaves is
			 * seen (eof), and counts no more as waiting. */
			if ((c->st == ST_READ || c->st == ST_WAIT) && !c->eof)
				ev |= POLLIN;
			if (c->out_off < c->allow)
				ev |= POLLOUT;
			int64_t t = conn_timer(c, now);
			if (t >= 0 && t < wait)
				wait = t;
			fds[i + 2] = (struct pollfd){ .fd = c->fd, .events = ev };
		}
		if (wait < 0)
			wait = 0;
		int r = poll(fds, (nfds_t)(s->nconns + 2), wait > INT_MAX ? INT_MAX : (int)wait);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "fake_llm: poll: %s\n", strerror(errno));
			free(fds);
			return 1;
		}
		if (fds[0].revents) {
			fprintf(stderr, "fake_llm: signalled, exiting\n");
			break;
		}
		size_t n = s->nconns;   /* connections accepted now have no pollfd yet */
		for (size_t i = 0; i < n; i++) {
			struct conn *c = s->conns[i];
			short re = fds[i + 2].revents;
			if (re & POLLNVAL)
				c->dead = true;
			if (!c->dead && (re & (POLLIN | POLLHUP | POLLERR)) && (c->st == ST_READ || c->st == ST_WAIT))
				conn_read(c);
			if (!c->dead && (re & POLLOUT))
				conn_write(c);
			/* Only a reset gets here: nobody is left to answer. */
			if (!c->dead && (re & (POLLERR | POLLHUP)) && c->st != ST_READ)
				c->dead = true;
		}
		if (fds[1].revents & POLLIN)
			accept_all(s, lfd);
		reap(s);
	}
	free(fds);
	return 0;
}

static bool
take_arg(int argc, char **argv, int *i, const char *name, const char **out)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return false;
	if (argv[*i][n] == '=') {
		*out = argv[*i] + n + 1;
		return true;
	}
	if (argv[*i][n] != '\0')
		return false;
	if (*i + 1 >= argc) {
		fprintf(stderr, "fake_llm: %s needs a value\n", name);
		exit(2);
	}
	*out = argv[++*i];
	return true;
}

int
main(int argc, char **argv)
{
	const char *script_file = NULL, *log_file = NULL, *port_file = NULL, *max_arg = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (take_arg(argc, argv, &i, "--script", &script_file) ||
		    take_arg(argc, argv, &i, "--log", &log_file) ||
		    take_arg(argc, argv, &i, "--port-file", &port_file) ||
		    take_arg(argc, argv, &i, "--max-seconds", &max_arg))
			continue;
		fprintf(stderr, "fake_llm: unknown argument %s\n%s", argv[i], usage_text);
		return 2;
	}
	if (!script_file || !log_file) {
		fputs(usage_text, stderr);
		return 2;
	}
	double max_seconds = 60;
	if (max_arg) {
		char *e = NULL;
		max_seconds = strtod(max_arg, &e);
		if (!*max_arg || *e || !(max_seconds > 0) || max_seconds > 86400) {
			fprintf(stderr, "fake_llm: --max-seconds must be a number of seconds above 0\n");
			return 2;
		}
	}

	struct server s;
	memset(&s, 0, sizeof s);
	s.start = now_ms();
	int64_t deadline = s.start + (int64_t)(max_seconds * 1000);
	if (!load_script(script_file, &s.script)) {
		free_script(&s.script);
		return 1;
	}
	s.log = fopen(log_file, "w");
	if (!s.log) {
		fprintf(stderr, "fake_llm: cannot write %s: %s\n", log_file, strerror(errno));
		free_script(&s.script);
		return 1;
	}

	if (pipe(sig_pipe) != 0) {
		fprintf(stderr, "fake_llm: pipe: %s\n", strerror(errno));
		return 1;
	}
	set_nonblock(sig_pipe[0]);
	set_nonblock(sig_pipe[1]);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;   /* a client that hangs up is an error from write() */
	sigaction(SIGPIPE, &sa, NULL);

	int port = 0;
	int lfd = listen_local(&port);
	if (lfd < 0)
		return 1;
	if (port_file) {
		if (!write_port_file(port_file, port))
			return 1;
	} else {
		printf("%d\n", port);
		fflush(stdout);
	}
	fprintf(stderr, "fake_llm: listening on 127.0.0.1:%d\n", port);

	int rc = serve(&s, lfd, deadline);

	for (size_t i = 0; i < s.nconns; i++)
		free_conn(s.conns[i]);
	free(s.conns);
	close(lfd);
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	fclose(s.log);
	free_script(&s.script);
	return rc;
}
