/* jdoc_parse.cc - the tape of util/jdoc filled by simdjson's on-demand parser.
 *
 * The only C++ in the program. simdjson finds the structure and checks
 * UTF-8, string escapes and the grammar between tokens; what on-demand
 * leaves to the caller is checked here: number and atom tokens (it only
 * reads the ones asked for), nesting depth (it only counts it in debug
 * builds) and what follows the value. Every value is visited once, so a
 * record is validated whole, as jansson validated it.
 *
 * No exceptions: every simdjson call goes through its error codes. */
#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

#include "jdoc_int.h"
extern "C" {
#include "util/xalloc.h"
}

using namespace simdjson;

namespace {

/* One parser per thread: its buffers grow to the largest record seen and
 * are reused for every record after it. */
thread_local ondemand::parser tl_parser;
constexpr size_t PARSER_KEEP = (size_t)64 << 20;
/* Records from this size on are reserved for exactly, not generously. */
constexpr size_t PARSER_EXACT = (size_t)8 << 20;

/* While the parser reserves its buffers for a record: a failure there
 * makes that record an error ("out of memory for the parser") and the
 * others are still read. */
thread_local bool tl_parser_reserving;

/* The handler of every failed new: simdjson allocates with new
 * (std::nothrow), the walk's stack with new. Out of memory ends the
 * program as xalloc does (a message naming the record, status 3), never
 * with std::terminate's abort; only the parser's reservation is answered
 * with bad_alloc, which its nothrow new turns into a NULL it reports.
 * Installed before main, for every program that parses records. */
void out_of_memory()
{
	if (tl_parser_reserving)
		std::__throw_bad_alloc();
	xalloc_die();
}
const bool new_handler_set = (std::set_new_handler(out_of_memory), true);

struct frame;

struct walker {
	struct jdoc *d;
	const char *base;       /* the bytes parsed; node offsets count from here */
	const char *limit;      /* base + len */
	ondemand::parser *parser;
	uint8_t *out;           /* next free byte of d->strings */
	const char *errat;      /* where an error found here lies */
	const char *errmsg;     /* its wording, when simdjson has none for it */
	std::vector<struct frame> *stack;       /* the containers open around the walk */
};

inline bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

inline size_t trim(const char *s, size_t n)
{
	while (n && is_ws(s[n - 1]))
		n--;
	return n;
}

inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

__attribute__((noinline, cold)) void grow_nodes(struct jdoc *d)
{
	/* By half past 1M nodes (24 MB): a large array is moved by mremap,
	 * not copied, so growing often is cheap and the spare room small. */
	size_t cap = d->nodes_cap < (1u << 20) ? (size_t)d->nodes_cap * 2 + 16
	                                       : (size_t)d->nodes_cap + d->nodes_cap / 2;
	if (cap > (size_t)UINT32_MAX - 1)
		cap = (size_t)UINT32_MAX - 1;
	d->nodes = (struct jdoc_node *)xrealloc(d->nodes, cap * sizeof *d->nodes);
	d->nodes_cap = (uint32_t)cap;
}

inline __attribute__((always_inline)) uint32_t push(walker &w, uint8_t type, const char *src)
{
	struct jdoc *d = w.d;
	if (__builtin_expect(d->nnodes == d->nodes_cap, 0))
		grow_nodes(d);
	uint32_t i = d->nnodes++;
	struct jdoc_node *n = &d->nodes[i];
	n->type = type;
	n->flags = 0;
	n->unused = 0;
	n->end = i + 1;
	n->count = 0;
	n->text = 0;
	n->src = (uint32_t)(src - w.base);
	n->src_len = 0;
	return i;
}

/* The JVF_* flags of a number token, or -1 when it breaks the grammar
 * -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
int number_flags(const char *s, size_t n)
{
	size_t i = 0;
	bool neg = false;
	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	size_t int_start = i;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && is_digit(s[i]))
			i++;
	else
		return -1;
	size_t int_digits = i - int_start;
	bool integer = true, exponent = false;
	if (i < n && s[i] == '.') {
		size_t f = ++i;
		while (i < n && is_digit(s[i]))
			i++;
		if (i == f)
			return -1;
		integer = false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t e = i;
		while (i < n && is_digit(s[i]))
			i++;
		if (i == e)
			return -1;
		integer = false;
		exponent = true;
	}
	if (i != n)
		return -1;

	int flags = 0;
	if (integer) {
		flags |= JVF_INTEGER;
		if (int_digits < 19 ||
		    (int_digits == 19 &&
		     memcmp(s + int_start, neg ? "9223372036854775808" : "9223372036854775807", 19) <= 0))
			flags |= JVF_INT64;
	}
	/* Only an exponent or a very long integer part can leave a double's
	 * range (about 1.8e308), so the others skip the conversion. */
	if ((exponent || int_digits > 308) && std::isinf(jdoc_text_real(s, n)))
		flags |= JVF_RANGE;
	return flags;
}

error_code put_number(walker &w, const char *tok, size_t n)
{
	int flags = number_flags(tok, n);
	if (flags < 0) {
		w.errat = tok;
		return NUMBER_ERROR;
	}
	uint32_t i = push(w, JV_NUMBER, tok);
	struct jdoc_node *node = &w.d->nodes[i];
	node->flags = (uint8_t)flags;
	node->src_len = (uint32_t)n;
	node->count = (uint32_t)n;
	node->text = (uint32_t)(w.out - (uint8_t *)w.d->strings);
	memcpy(w.out, tok, n);
	w.out += n;
	*w.out++ = 0;
	return SUCCESS;
}

error_code put_atom(walker &w, const char *tok, size_t n)
{
	bool ok;
	uint8_t type;
	if (*tok == 'n') {
		ok = n == 4 && !memcmp(tok, "null", 4);
		type = JV_NULL;
	} else if (n == 4 && !memcmp(tok, "true", 4)) {
		ok = true;
		type = JV_TRUE;
	} else {
		ok = n == 5 && !memcmp(tok, "false", 5);
		type = JV_FALSE;
	}
	if (!ok) {
		w.errat = tok;
		return *tok == 'n' ? N_ATOM_ERROR : *tok == 't' ? T_ATOM_ERROR : F_ATOM_ERROR;
	}
	uint32_t i = push(w, type, tok);
	w.d->nodes[i].src_len = (uint32_t)n;
	return SUCCESS;
}

/* A string whose opening quote is at open and whose source ends at end
 * (just past the closing quote), decoded straight into d->strings. */
error_code put_string(walker &w, ondemand::raw_json_string raw, const char *open, const char *end)
{
	uint32_t i = push(w, JV_STRING, open);
	uint8_t *start = w.out;
	std::string_view s;
	error_code e = w.parser->unescape(raw, w.out).get(s);
	if (e) {
		w.errat = open;
		return e;
	}
	struct jdoc_node *node = &w.d->nodes[i];
	node->text = (uint32_t)(start - (uint8_t *)w.d->strings);
	node->count = (uint32_t)s.size();
	node->src_len = (uint32_t)(end - open);
	*w.out++ = 0;
	return SUCCESS;
}

/* Where a container closes: after its last member (or its opening
 * bracket) only white space can come before the closing one. */
error_code close_container(walker &w, uint32_t i, const char *from, char closer)
{
	while (from < w.limit && is_ws(*from))
		from++;
	if (from >= w.limit || *from != closer) {
		w.errat = from;
		return TAPE_ERROR;
	}
	struct jdoc_node *node = &w.d->nodes[i];
	node->src_len = (uint32_t)(from + 1 - (w.base + node->src));
	node->end = w.d->nnodes;
	return SUCCESS;
}

inline const char *node_end(const walker &w, uint32_t i)
{
	const struct jdoc_node *n = &w.d->nodes[i];
	return w.base + n->src + n->src_len;
}

/* An open container. The walk keeps these on a stack of its own rather
 * than recursing, so the depth jansson allows fits any thread's stack and
 * the sanitizers' larger frames. */
struct frame {
	ondemand::array_iterator arr;
	ondemand::object_iterator obj;
	const char *last;       /* just past its last member so far */
	uint32_t node;
	uint32_t count;
	bool is_object;
	bool started;
};

thread_local std::vector<frame> tl_stack;

void open_frame(walker &w, bool is_object, const char *open)
{
	frame f;
	f.node = push(w, is_object ? JV_OBJECT : JV_ARRAY, open);
	f.count = 0;
	f.last = open + 1;
	f.is_object = is_object;
	f.started = false;
	w.stack->push_back(f);
}

/* A scalar or an empty-handed container: tok is its token as simdjson cut
 * it (up to the next structural character, so with any white space after
 * it). Containers are opened on the stack; the rest go on the tape. */
template <typename V>
error_code visit(walker &w, V &v, const char *tok, size_t toklen)
{
	/* The first byte tells the type, as simdjson's type() reads it. */
	error_code e;
	switch (*tok) {
	case '[': {
		ondemand::array a;
		if ((e = v.get_array().get(a)))
			return e;
		open_frame(w, false, tok);
		return a.begin().get(w.stack->back().arr);
	}
	case '{': {
		ondemand::object o;
		if ((e = v.get_object().get(o)))
			return e;
		open_frame(w, true, tok);
		return o.begin().get(w.stack->back().obj);
	}
	case '"': {
		size_t n = trim(tok, toklen);
		ondemand::raw_json_string raw;
		if ((e = v.get_raw_json_string().get(raw)))
			return e;
		if (n < 2 || tok[n - 1] != '"') {
			w.errat = tok;
			return STRING_ERROR;
		}
		return put_string(w, raw, tok, tok + n);
	}
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return put_number(w, tok, trim(tok, toklen));
	case 't': case 'f': case 'n':
		return put_atom(w, tok, trim(tok, toklen));
	default:
		w.errat = tok;
		return TAPE_ERROR;
	}
}

/* jansson counts every value, scalars too, toward its depth: the root is
 * level 1 and nothing may sit on level JDOC_MAX_DEPTH + 1. */
inline error_code check_depth(walker &w, const char *tok)
{
	if (w.stack->size() >= JDOC_MAX_DEPTH) {
		w.errat = tok;
		w.errmsg = "maximum parsing depth reached";
		return DEPTH_ERROR;
	}
	return SUCCESS;
}

/* The next member of the innermost open object: its key onto the tape,
 * then its value visited. */
error_code next_member(walker &w, frame &f)
{
	ondemand::field fld;
	error_code e = (*f.obj).get(fld);
	if (e)
		return e;
	ondemand::raw_json_string key = fld.key();
	const char *kopen = (const char *)key.raw() - 1;
	ondemand::value &v = fld.value();
	std::string_view tok = v.raw_json_token();
	/* The key's closing quote: back from its value over the colon. */
	const char *kend = tok.data();
	while (kend > kopen && is_ws(kend[-1]))
		kend--;
	if (kend > kopen && kend[-1] == ':')
		kend--;
	while (kend > kopen && is_ws(kend[-1]))
		kend--;
	if (kend - kopen < 2 || kend[-1] != '"') {
		w.errat = kopen;
		return TAPE_ERROR;
	}
	if ((e = put_string(w, key, kopen, kend)))
		return e;
	if ((e = check_depth(w, tok.data())))
		return e;
	f.count++;
	return visit(w, v, tok.data(), tok.size());
}

error_code next_element(walker &w, frame &f)
{
	ondemand::value v;
	error_code e = (*f.arr).get(v);
	if (e)
		return e;
	std::string_view tok = v.raw_json_token();
	if ((e = check_depth(w, tok.data())))
		return e;
	f.count++;
	return visit(w, v, tok.data(), tok.size());
}

error_code walk(walker &w, ondemand::document &doc)
{
	std::string_view tok;
	error_code e = doc.raw_json_token().get(tok);
	if (e)
		return e;
	w.errat = tok.data();
	if ((e = visit(w, doc, tok.data(), tok.size())))
		return e;
	w.errat = nullptr;
	while (!w.stack->empty()) {
		frame &f = w.stack->back();
		if (f.started) {
			if (f.is_object)
				++f.obj;
			else
				++f.arr;
		}
		f.started = true;
		/* (The iterators' != ignores its argument: it asks whether the
		 * container still has members.) */
		bool more = f.is_object ? f.obj != f.obj : f.arr != f.arr;
		if (!more) {
			uint32_t node = f.node;
			w.d->nodes[node].count = f.count;
			if ((e = close_container(w, node, f.last, f.is_object ? '}' : ']')))
				return e;
			w.stack->pop_back();
			if (!w.stack->empty())
				w.stack->back().last = node_end(w, node);
			continue;
		}
		size_t depth = w.stack->size();
		if ((e = f.is_object ? next_member(w, f) : next_element(w, f)))
			return e;
		/* A scalar member is complete already: note where it ends. (The
		 * frame may have moved if a container was opened, hence the
		 * depth test before touching it.) */
		if (w.stack->size() == depth)
			w.stack->back().last = node_end(w, w.d->nnodes - 1);
	}
	return SUCCESS;
}

void set_msg(char *msg, size_t msglen, const char *text)
{
	if (!msglen)
		return;
	size_t n = strlen(text);
	if (n >= msglen)
		n = msglen - 1;
	memcpy(msg, text, n);
	msg[n] = 0;
}

enum jdoc_fill_status fill(ondemand::parser &parser, struct jdoc *d, const char *buf, size_t len,
                           size_t cap, char *msg, size_t msglen, size_t *pos)
{
	*pos = 0;
	if (parser.capacity() < len) {
		/* Round up so that a run of slowly growing records does not
		 * reallocate for each; a large record gets what it needs and no
		 * more. simdjson reserves about 5.7 bytes of address space per
		 * byte of capacity (a structural index of 4 bytes per byte, a
		 * string buffer of 5/3), so a quarter more of 100 MB is 140 MB
		 * that a limit on address space (ulimit -v) counts. */
		size_t want = len < PARSER_EXACT ? len + len / 4 + 4096 : len;
		if (want > SIMDJSON_MAXSIZE_BYTES)
			want = SIMDJSON_MAXSIZE_BYTES;
		/* The old buffers go first: simdjson allocates the new ones
		 * before it frees the old, which would hold both at once. */
		parser = ondemand::parser();
		tl_parser_reserving = true;
		error_code e = parser.allocate(want, JDOC_MAX_DEPTH + 1);
		tl_parser_reserving = false;
		if (e) {
			set_msg(msg, msglen, "out of memory for the parser");
			return JDOC_FILL_NOMEM;
		}
	}

	/* Decoded strings never outgrow their escaped text, and each value
	 * takes at least one byte of the record besides its NUL, so len + 1
	 * bytes hold them all; simdjson may write SIMDJSON_PADDING past the
	 * end of each one. */
	size_t scap = len + 2 + SIMDJSON_PADDING;
	if (d->strings_cap < scap) {
		d->strings = (char *)xrealloc(d->strings, scap);
		d->strings_cap = scap;
		if (scap >= XALLOC_HUGE_MIN)
			xalloc_advise_huge(d->strings, scap);
	}
	/* Records of agent transcripts hold a value per 20 bytes or so; a
	 * denser one grows the array. A large record may be one long string
	 * (a tool's output of 100 MB): its guess is capped and the array
	 * grows as the values come. */
	size_t ncap = (len < PARSER_EXACT ? len : PARSER_EXACT) / 16 + 16;
	if (ncap > (size_t)UINT32_MAX - 1)
		ncap = (size_t)UINT32_MAX - 1;
	if (d->nodes_cap < ncap) {
		d->nodes = (struct jdoc_node *)xrealloc(d->nodes, ncap * sizeof *d->nodes);
		d->nodes_cap = (uint32_t)ncap;
	}
	d->nnodes = 0;

	walker w;
	w.d = d;
	w.base = buf;
	w.limit = buf + len;
	w.parser = &parser;
	w.out = (uint8_t *)d->strings;
	w.errat = nullptr;
	w.errmsg = nullptr;
	w.stack = &tl_stack;
	w.stack->clear();

	ondemand::document doc;
	error_code e = parser.iterate(buf, len, cap).get(doc);
	if (e == UTF8_ERROR)
		return JDOC_FILL_UTF8;
	bool started = !e;
	if (!e)
		e = walk(w, doc);
	if (!e) {
		/* Nothing but white space after the value. */
		const char *p = node_end(w, 0);
		while (p < w.limit && is_ws(*p))
			p++;
		if (p < w.limit) {
			w.errat = p;
			w.errmsg = "trailing content after the JSON value";
			e = TAPE_ERROR;
		}
	}
	if (e) {
		d->nnodes = 0;
		d->strings_len = 0;
		if (!w.errat && started) {
			const char *at;
			if (!doc.current_location().get(at))
				w.errat = at;
		}
		if (w.errat && w.errat >= buf && w.errat <= w.limit)
			*pos = (size_t)(w.errat - buf);
		set_msg(msg, msglen, w.errmsg ? w.errmsg : error_message(e));
		return JDOC_FILL_ERROR;
	}
	d->strings_len = (size_t)((char *)w.out - d->strings);
	/* The document lives as long as its run: give back what a generous
	 * reservation left unused (shrinking stays in place in glibc). */
	if (d->nodes_cap > d->nnodes + d->nnodes / 4 + 16) {
		d->nodes = (struct jdoc_node *)xrealloc(d->nodes, (size_t)d->nnodes * sizeof *d->nodes);
		d->nodes_cap = d->nnodes;
	}
	if (d->strings_cap > d->strings_len + d->strings_len / 4 + 256) {
		d->strings = (char *)xrealloc(d->strings, d->strings_len + 1);
		d->strings_cap = d->strings_len + 1;
	}
	return JDOC_FILL_OK;
}

} // namespace

extern "C" enum jdoc_fill_status jdoc_fill(struct jdoc *d, const char *buf, size_t len, size_t cap,
                                           char *msg, size_t msglen, size_t *pos)
{
	enum jdoc_fill_status st = fill(tl_parser, d, buf, len, cap, msg, msglen, pos);
	/* The parser keeps about five times the largest record it has seen;
	 * after an unusually large one, let that go. */
	if (tl_parser.capacity() > PARSER_KEEP)
		tl_parser = ondemand::parser();
	return st;
}

/* The parser's version, for --version. */
#define JDOC_STR_(x) #x
#define JDOC_STR(x) JDOC_STR_(x)
extern "C" const char *jdoc_parser_version(void)
{
	return JDOC_STR(SIMDJSON_VERSION);
}

extern "C" double jdoc_text_real(const char *text, size_t len)
{
	double v = 0;
	auto r = std::from_chars(text, text + len, v);
	if (r.ec != std::errc::result_out_of_range)
		return v;
	/* Out of range: overflow when the value is at least 1, which its
	 * decimal exponent tells; otherwise it underflows to zero. */
	const char *p = text, *end = text + len;
	bool neg = p < end && *p == '-';
	if (neg)
		p++;
	long mag = 0;           /* the power of ten of the first non-zero digit, plus one */
	bool seen = false, point = false;
	for (; p < end && (is_digit(*p) || *p == '.'); p++) {
		if (*p == '.') {
			point = true;
			continue;
		}
		if (!seen && *p != '0') {
			seen = true;
			if (!point)
				mag++;
		} else if (seen && !point) {
			mag++;
		} else if (!seen && point) {
			mag--;
		}
	}
	long exp = 0;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		bool eneg = p < end && *p == '-';
		if (p < end && (*p == '-' || *p == '+'))
			p++;
		for (; p < end && is_digit(*p); p++)
			if (exp < 100000000)
				exp = exp * 10 + (*p - '0');
		if (eneg)
			exp = -exp;
	}
	if (seen && exp + mag > 0)
		return neg ? -HUGE_VAL : HUGE_VAL;
	return neg ? -0.0 : 0.0;
}
