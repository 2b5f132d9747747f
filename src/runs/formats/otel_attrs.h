/* otel_attrs.h - what one OpenTelemetry span says about a conversation,
 * read from its attributes by otel_attrs.c for otel_spans.c, which puts
 * the spans of a trace together into a run.
 *
 * A span's messages are first read into the small shape below, not into
 * the run, because an LLM span's input repeats the turns earlier spans
 * showed: the trace reader compares them with what it has and adds only
 * what is new. Strings are borrowed from the run's tape (JSON texts that
 * attributes hold are grafted into it, see jdoc_graft). */
#ifndef TCR_FORMATS_OTEL_ATTRS_H
#define TCR_FORMATS_OTEL_ATTRS_H

#include <stdbool.h>
#include <stddef.h>

#include "runs/run.h"
#include "util/jdoc.h"

/* A span's attributes: a plain object {key: value} (SDK spans, flat maps)
 * or OTLP's list [{key, value: {stringValue | intValue | ...}}]. */
struct otel_attrs {
	jv obj;
	jv list;
};

/* The value of attribute key, OTLP's AnyValue unwrapped (a stringValue
 * is the string, an arrayValue its values); JV_NONE when absent. */
jv otel_attr(const struct jdoc *d, const struct otel_attrs *a, const char *key);
/* The attribute as a string, or NULL. */
const char *otel_attr_str(const struct jdoc *d, const struct otel_attrs *a, const char *key);

enum otel_part_kind {
	OTEL_TEXT,
	OTEL_THINKING,
	OTEL_CALL,          /* id, name, args */
	OTEL_RESULT,        /* id answered, result */
	OTEL_NOTE,          /* text says what was not read */
};

struct otel_part {
	enum otel_part_kind kind;
	const char *text;   /* TEXT, THINKING, NOTE */
	jv value;           /* TEXT: the string; RESULT: the result */
	const char *id;     /* CALL, RESULT: the call's id, NULL when none */
	jv raw_id;
	const char *name;   /* CALL */
	jv raw_name;
	jv args;            /* CALL */
	jv raw;             /* the part as the record has it */
};

struct otel_msg {
	const char *role;   /* as written ("user", "assistant", ...); NULL when none */
	const char *answers;/* a tool message's tool_call_id */
	jv raw;
	size_t first, n;    /* its parts in otel_msgs.parts */
};

struct otel_msgs {
	struct otel_msg *msgs;
	size_t n, cap;
	struct otel_part *parts;
	size_t nparts, parts_cap;
};

void otel_msgs_reset(struct otel_msgs *m);
void otel_msgs_free(struct otel_msgs *m);

enum otel_span_kind {
	OTEL_SPAN_OTHER,    /* nothing of the conversation (HTTP, embeddings) */
	OTEL_SPAN_LLM,      /* one model call: input history and output */
	OTEL_SPAN_AGENT,    /* an agent or SDK call around model calls */
	OTEL_SPAN_TOOL,     /* one tool execution */
};

/* What a tool span ran. */
struct otel_tool {
	const char *id, *name;
	jv raw_id, raw_name;
	jv args, result;
};

struct otel_span_io {
	enum otel_span_kind kind;
	struct otel_msgs in, out;
	struct otel_tool tool;
	const char *model;  /* NULL when the span does not say */
};

/* Reads one span's attributes (name is the span's name, raw the span)
 * into io, whose lists are reset first. */
void otel_read_span(struct run *r, const struct otel_attrs *a, const char *name, jv raw,
                    struct otel_span_io *io);

/* The attributes look like a span of a GenAI convention: gen_ai.*,
 * OpenInference's llm.* / openinference.span.kind, the AI SDK's ai.*. */
bool otel_attrs_known(const struct jdoc *d, const struct otel_attrs *a);

#endif
