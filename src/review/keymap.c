/* keymap.c - the action table, key names and the bindings of the screen.
 *
 * Everything here is plain data and text so that the configuration can
 * check `keys:` at load, before any terminal is opened, and so that the
 * help screen and the man page are printed from the same table. */
#include "review/keymap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "conf/conf.h"
#include "util/strbuf.h"
#include "util/textvis.h"
#include "util/xalloc.h"
#include "util/error.h"

static const struct {
	const char *name, *keys, *help;
	enum key_section section;
} actions[ACT_COUNT] = {
#define X(id, name, keys, section, help) [ACT_##id] = { name, keys, help, SEC_##section },
	TCR_ACTIONS(X)
#undef X
};

/* Canonical names first: keycode_name() prints the first name of a code. */
static const struct {
	const char *name;
	keycode_t key;
} key_names[] = {
	{ "Space", ' ' },
	{ "Enter", '\n' },
	{ "Tab", '\t' },
	{ "Esc", 27 },
	/* People read "Shift-Tab"; curses calls it KEY_BTAB. */
	{ "Shift-Tab", KEY_FN(KF_BTAB) },
	{ "Up", KEY_FN(KF_UP) },
	{ "Down", KEY_FN(KF_DOWN) },
	{ "Left", KEY_FN(KF_LEFT) },
	{ "Right", KEY_FN(KF_RIGHT) },
	{ "PgUp", KEY_FN(KF_PGUP) },
	{ "PgDn", KEY_FN(KF_PGDN) },
	{ "Home", KEY_FN(KF_HOME) },
	{ "End", KEY_FN(KF_END) },
	{ "Backspace", KEY_FN(KF_BACKSPACE) },
	{ "Delete", KEY_FN(KF_DELETE) },
	{ "Insert", KEY_FN(KF_INSERT) },
	/* Spellings people type from habit (Emacs, Vim, tmux). */
	{ "Return", '\n' },
	{ "Escape", 27 },
	{ "PageUp", KEY_FN(KF_PGUP) },
	{ "PageDown", KEY_FN(KF_PGDN) },
	{ "Del", KEY_FN(KF_DELETE) },
	{ "Ins", KEY_FN(KF_INSERT) },
	{ "BTab", KEY_FN(KF_BTAB) },
	{ "S-Tab", KEY_FN(KF_BTAB) },
};

#define NKEY_NAMES (sizeof key_names / sizeof key_names[0])

/* ---- actions ------------------------------------------------------------ */

static bool action_valid(enum tcr_action a)
{
	return (int)a >= 0 && a < ACT_COUNT;
}

const char *action_name(enum tcr_action a)
{
	return action_valid(a) ? actions[a].name : "none";
}

const char *action_help(enum tcr_action a)
{
	return action_valid(a) ? actions[a].help : "";
}

const char *action_default_keys(enum tcr_action a)
{
	return action_valid(a) ? actions[a].keys : "";
}

enum key_section action_section(enum tcr_action a)
{
	return action_valid(a) ? actions[a].section : SEC_READING;
}

const char *section_title(enum key_section s)
{
	static const char *const titles[SEC_COUNT] = {
		[SEC_MOVING] = "Moving", [SEC_READING] = "Reading", [SEC_LABELLING] = "Labelling",
		[SEC_JUDGING] = "Judging", [SEC_CALIBRATION] = "Calibration",
		[SEC_COMPARING] = "Comparing", [SEC_FILES] = "Files",
	};
	return (int)s >= 0 && s < SEC_COUNT ? titles[s] : "";
}

enum tcr_action action_find(const char *name)
{
	for (int i = 0; i < ACT_COUNT; i++)
		if (name && strcmp(actions[i].name, name) == 0)
			return (enum tcr_action)i;
	return ACT_NONE;
}

/* ---- key names ---------------------------------------------------------- */

/* The code point of s when s is exactly one valid UTF-8 character. */
static bool utf8_single(const char *s, keycode_t *out)
{
	size_t len = strlen(s);
	size_t n = len ? utf8_seq_len(s, len) : 0;
	if (n == 0 || n != len)
		return false;
	const unsigned char *p = (const unsigned char *)s;
	keycode_t cp = n == 1 ? p[0]
	             : n == 2 ? (keycode_t)(p[0] & 0x1f) << 6
	             : n == 3 ? (keycode_t)(p[0] & 0x0f) << 12
	             : (keycode_t)(p[0] & 0x07) << 18;
	for (size_t i = 1; i < n; i++)
		cp |= (keycode_t)(p[i] & 0x3f) << (6 * (n - 1 - i));
	*out = cp;
	return true;
}

bool keycode_parse(const char *name, keycode_t *out)
{
	keycode_t k;
	if (!name || !*name)
		return false;
	for (size_t i = 0; i < NKEY_NAMES; i++) {
		if (strcasecmp(name, key_names[i].name) == 0) {
			*out = key_names[i].key;
			return true;
		}
	}
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
		int n = name[1] - '0';
		if (name[2] >= '0' && name[2] <= '9' && !name[3])
			n = n * 10 + (name[2] - '0');
		else if (name[2])
			return false;
		if (n > 12)
			return false;
		*out = KEY_FN(KF_F1 + n - 1);
		return true;
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3]) {
		/* Only the characters whose control code is a real key: letters
		 * and @ [ \ ] ^ _, with C-? for DEL as terminals send it. */
		unsigned char c = (unsigned char)name[2];
		if (c == '?') {
			*out = 0x7f;
			return true;
		}
		if ((c >= 'a' && c <= 'z') || (c >= '@' && c <= '_')) {
			*out = c & 0x1f;
			return true;
		}
		return false;
	}
	if (!utf8_single(name, &k))
		return false;
	/* Control characters have names; a raw one in a file is a mistake. */
	if (k < 0x20 || k == 0x7f || (k >= 0x80 && k < 0xa0))
		return false;
	*out = k;
	return true;
}

static void utf8_put(keycode_t cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		b[1] = '\0';
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		b[2] = '\0';
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		b[3] = '\0';
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		b[4] = '\0';
	}
}

void keycode_name(keycode_t key, char *buf, size_t n)
{
	char tmp[16];
	if (!buf || !n)
		return;
	for (size_t i = 0; i < NKEY_NAMES; i++) {
		if (key_names[i].key == key) {
			snprintf(buf, n, "%s", key_names[i].name);
			return;
		}
	}
	if (key >= KEY_FN(KF_F1) && key <= KEY_FN(KF_F12)) {
		snprintf(buf, n, "F%u", key - KEY_FN(KF_F1) + 1);
		return;
	}
	if (key < 0x20) {
		/* Letters read better in lower case: C-l, not C-L. */
		char c = (char)(key + '@');
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		snprintf(buf, n, "C-%c", c);
		return;
	}
	if (key == 0x7f) {
		snprintf(buf, n, "C-?");
		return;
	}
	if ((key & KEYCODE_FN) || key > 0x10ffff || (key >= 0xd800 && key < 0xe000) ||
	    (key >= 0x80 && key < 0xa0)) {
		snprintf(buf, n, "<0x%X>", key);
		return;
	}
	utf8_put(key, tmp);
	snprintf(buf, n, "%s", tmp);
}

/* ---- the map ------------------------------------------------------------ */

static void keymap_remove_if(struct keymap *km, keycode_t key, enum tcr_action a, bool by_key)
{
	size_t j = 0;
	for (size_t i = 0; i < km->nbinds; i++) {
		bool drop = by_key ? km->binds[i].key == key : km->binds[i].action == a;
		if (!drop)
			km->binds[j++] = km->binds[i];
	}
	km->nbinds = j;
}

static void keymap_push(struct keymap *km, keycode_t key, enum tcr_action a)
{
	if (km->nbinds == km->cap) {
		size_t cap = km->cap ? km->cap * 2 : 64;
		void *p = xrealloc(km->binds, cap * sizeof *km->binds);
		km->binds = p;
		km->cap = cap;
	}
	km->binds[km->nbinds].key = key;
	km->binds[km->nbinds].action = a;
	km->nbinds++;
}

/* Splits keys at blanks into at most `max` codes; -1 with a message for
 * an unknown name or too many keys. */
static int keys_split(const char *keys, keycode_t *codes, size_t max, size_t *ncodes,
                      struct error *err)
{
	char name[64];
	*ncodes = 0;
	for (const char *p = keys ? keys : ""; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, " \t");
		if (len >= sizeof name) {
			error_set(err, ERR_FAILED, "unknown key name '%.*s'", (int)len, p);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		keycode_t k;
		if (!keycode_parse(name, &k)) {
			error_set(err, ERR_FAILED, "unknown key name '%s'", name);
			return -1;
		}
		bool seen = false;
		for (size_t i = 0; i < *ncodes; i++)
			seen = seen || codes[i] == k;
		if (seen)
			continue;
		if (*ncodes == max) {
			error_set(err, ERR_FAILED, "too many keys (at most %zu per action)", max);
			return -1;
		}
		codes[(*ncodes)++] = k;
	}
	return 0;
}

#define MAX_KEYS_PER_ACTION 16

int keymap_bind(struct keymap *km, enum tcr_action a, const char *keys, struct error *err)
{
	keycode_t codes[MAX_KEYS_PER_ACTION];
	size_t n;
	error_clear(err);
	if (!action_valid(a)) {
		error_set(err, ERR_FAILED, "unknown action");
		return -1;
	}
	/* Parsed whole first, so a bad name leaves the map as it was. */
	if (keys_split(keys, codes, MAX_KEYS_PER_ACTION, &n, err))
		return -1;
	keymap_remove_if(km, 0, a, false);
	for (size_t i = 0; i < n; i++) {
		keymap_remove_if(km, codes[i], ACT_NONE, true);
		keymap_push(km, codes[i], a);
	}
	return 0;
}

void keymap_init_defaults(struct keymap *km)
{
	memset(km, 0, sizeof *km);
	for (int i = 0; i < ACT_COUNT; i++)
		keymap_bind(km, (enum tcr_action)i, actions[i].keys, NULL);
}

void keymap_free(struct keymap *km)
{
	if (!km)
		return;
	free(km->binds);
	memset(km, 0, sizeof *km);
}

enum tcr_action keymap_lookup(const struct keymap *km, keycode_t key)
{
	for (size_t i = 0; i < km->nbinds; i++)
		if (km->binds[i].key == key)
			return km->binds[i].action;
	return ACT_NONE;
}

void keymap_keys_of(const struct keymap *km, enum tcr_action a, char *buf, size_t n)
{
	size_t used = 0;
	if (!buf || !n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < km->nbinds; i++) {
		if (km->binds[i].action != a)
			continue;
		char name[32];
		keycode_name(km->binds[i].key, name, sizeof name);
		int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", name);
		if (w < 0 || (size_t)w >= n - used) {
			buf[used] = '\0';   /* never a name cut in half */
			return;
		}
		used += (size_t)w;
	}
}

/* ---- help table --------------------------------------------------------- */

/* Columns of UTF-8 text by code points: key names are one column each
 * ("é", "Space"), and a wide key would only misalign its own line. */
static size_t text_cols(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* roff: '-' would become a hyphen and backslashes start escapes; a line
 * starting with '.' or '\'' would be a request. */
static void roff_put(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '"')
			fputs("\\(dq", out);
		else
			fputc(*s, out);
	}
}

/* What the mouse does, shown after the keys: it has no binding to change. */
static const struct {
	const char *what, *help;
} mouse_lines[] = {
	{ "click", "Focus the pane under the pointer and select its row (a run, a call, a verdict)" },
	{ "wheel", "Scroll the pane under the pointer, without moving the focus" },
};

static void print_entry(FILE *out, bool man, const char *keys, size_t width, const char *name,
                        size_t name_w, const char *help)
{
	if (man) {
		fputs(".TP\n.BR \"", out);
		roff_put(out, keys);
		if (*name) {
			fputs("\" \" (", out);
			roff_put(out, name);
			fputs(")", out);
		}
		fputs("\"\n", out);
		roff_put(out, help);
		fputc('\n', out);
	} else {
		fprintf(out, "  %s%*s  %-*s  %s\n", keys, (int)(width - text_cols(keys)), "",
		        (int)name_w, name, help);
	}
}

static void print_heading(FILE *out, bool man, const char *title)
{
	if (man) {
		fputs(".SS ", out);
		roff_put(out, title);
		fputc('\n', out);
	} else {
		fprintf(out, "%s\n", title);
	}
}

void keymap_print(const struct keymap *km, FILE *out, bool man)
{
	char keys[ACT_COUNT][256];
	size_t width = 0;
	for (int i = 0; i < ACT_COUNT; i++) {
		keymap_keys_of(km, (enum tcr_action)i, keys[i], sizeof keys[i]);
		if (!keys[i][0])
			snprintf(keys[i], sizeof keys[i], "(unbound)");
		size_t w = text_cols(keys[i]);
		if (w > width)
			width = w;
	}
	/* The action's name is what `keys:` in the YAML rebinds. */
	size_t name_w = 0;
	for (int i = 0; i < ACT_COUNT; i++)
		if (strlen(actions[i].name) > name_w)
			name_w = strlen(actions[i].name);
	for (int s = 0; s < SEC_COUNT; s++) {
		print_heading(out, man, section_title((enum key_section)s));
		for (int i = 0; i < ACT_COUNT; i++)
			if (actions[i].section == (enum key_section)s)
				print_entry(out, man, keys[i], width, actions[i].name, name_w, actions[i].help);
	}
	print_heading(out, man, "Mouse");
	for (size_t i = 0; i < sizeof mouse_lines / sizeof mouse_lines[0]; i++)
		print_entry(out, man, mouse_lines[i].what, width, "", name_w, mouse_lines[i].help);
}

/* ---- the keys: section of the YAML ---------------------------------------- */

/* Checks the key names of one scalar (blank-separated names are allowed,
 * as in the table) and appends them to sb. Each key may be bound by one
 * action of the file only: binding it twice is surely a slip. */
static int keys_scalar(struct conf *x, const struct config *c, const struct conf_node *n,
                       const char *action, struct strbuf *sb)
{
	char *text;
	if (n->kind != CONF_SCALAR)
		return conf_fail(x, n, "wrong type for '%s': expected a key name or a list of key names, got %s",
		            action, conf_kind_name(n));
	if (conf_str(x, n, action, &text))
		return -1;
	if (!text[strspn(text, " \t")]) {
		free(text);
		return conf_fail(x, n, "'%s' names no key (the space bar is Space)", action);
	}
	int rc = 0;
	for (char *p = text; *p && rc == 0;) {
		size_t len = strcspn(p, " \t");
		if (!len) {
			p++;
			continue;
		}
		char save = p[len];
		p[len] = '\0';
		keycode_t k, other;
		if (!keycode_parse(p, &k)) {
			rc = conf_fail(x, n, "unknown key name '%s'", p);
			break;
		}
		for (size_t i = 0; i < c->nkeys && rc == 0; i++) {
			const struct key_conf *kc = &c->keys[i];
			char *names = xstrdup(kc->keys);
			for (char *q = strtok(names, " "); q; q = strtok(NULL, " ")) {
				if (keycode_parse(q, &other) && other == k) {
					rc = conf_fail(x, n, "key '%s' is already bound to '%s' at line %d", p,
					          kc->action, kc->line);
					break;
				}
			}
			free(names);
		}
		if (rc == 0) {
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, p);
		}
		p[len] = save;
		p += len;
	}
	free(text);
	return rc;
}

int keymap_conf_read(struct conf *x, const struct conf_node *m, struct config *c)
{
	if (conf_map(x, m, "keys"))
		return -1;
	c->keys = xcalloc(m->nkids / 2, sizeof *c->keys);
	for (size_t i = 0; i + 1 < m->nkids; i += 2) {
		const struct conf_node *k = m->kids[i], *v = m->kids[i + 1];
		char *name = xstrndup(k->text, k->len);
		if (action_find(name) == ACT_NONE) {
			conf_fail(x, k, "unknown action '%s' (see tcreview --help keys)", name);
			free(name);
			return -1;
		}
		struct strbuf sb = STRBUF_INIT;
		int rc = 0;
		if (v->kind == CONF_SEQ) {
			/* An empty list unbinds the action. */
			for (size_t j = 0; j < v->nkids && rc == 0; j++)
				rc = keys_scalar(x, c, v->kids[j], name, &sb);
		} else {
			rc = keys_scalar(x, c, v, name, &sb);
		}
		if (rc) {
			strbuf_release(&sb);
			free(name);
			return -1;
		}
		struct key_conf *kc = &c->keys[c->nkeys++];
		kc->action = name;
		kc->keys = sb.buf ? strbuf_detach(&sb) : xstrdup("");
		kc->line = v->line;
		kc->col = v->col;
	}
	return 0;
}
