/* script.c - the screen driven from a file, for tests and demos.
 *
 * TCR_SCRIPT names a file read line by line. A line starting with ':' is
 * a command; `#` starts a comment; any other line is keys: characters as
 * typed, and <Name> for named keys (<Enter>, <Down>, <C-l>, <Esc>, <Tab>;
 * <lt> is a literal '<'). Commands:
 *   :save-display FILE   write the screen as curses holds it to FILE
 *   :resize COLS LINES   change the screen size (as a terminal would)
 *   :wait                wait for the judges' answers (keys already wait for
 *                        indexing and scoring, but not for judges)
 * The screen quits at the end of the script. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui_int.h"
#include "util/xalloc.h"

int script_open(struct tui *t, const char *path)
{
	t->script.f = fopen(path, "r");
	return t->script.f ? 0 : -1;
}

void script_close(struct tui *t)
{
	if (t->script.f)
		fclose(t->script.f);
	t->script.f = NULL;
	free(t->script.keys);
	free(t->script.dump);
	t->script.dump = NULL;
	t->script.keys = NULL;
	t->script.n = t->script.cap = t->script.pos = 0;
}

static void push_key(struct tui *t, keycode_t k)
{
	if (t->script.n == t->script.cap) {
		t->script.cap = t->script.cap ? t->script.cap * 2 : 32;
		t->script.keys = xrealloc(t->script.keys, t->script.cap * sizeof(*t->script.keys));
	}
	t->script.keys[t->script.n++] = k;
}

static void parse_keys(struct tui *t, const char *line)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	const char *p = line;
	while (*p) {
		if (*p == '<') {
			const char *end = strchr(p, '>');
			if (end && end > p + 1) {
				char name[64];
				size_t n = (size_t)(end - p - 1);
				if (n < sizeof name) {
					memcpy(name, p + 1, n);
					name[n] = '\0';
					keycode_t k;
					if (!strcmp(name, "lt")) {
						push_key(t, '<');
						p = end + 1;
						continue;
					}
					if (keycode_parse(name, &k)) {
						push_key(t, k);
						p = end + 1;
						continue;
					}
				}
			}
		}
		wchar_t wc;
		size_t n = mbrtowc(&wc, p, strlen(p), &st);
		if (n == 0 || n == (size_t)-1 || n == (size_t)-2) {
			push_key(t, (unsigned char)*p);
			p++;
			memset(&st, 0, sizeof st);
			continue;
		}
		push_key(t, (keycode_t)wc);
		p += n;
	}
}

static void command(struct tui *t, char *line)
{
	char *arg = line + strcspn(line, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	if (!strcmp(line, ":save-display")) {
		/* The loop draws first, so the file holds what the person
		 * would see now. */
		free(t->script.dump);
		t->script.dump = strdup(arg);
	} else if (!strcmp(line, ":resize")) {
		int cols = 0, lines = 0;
		if (sscanf(arg, "%d %d", &cols, &lines) == 2 && cols > 0 && lines > 0) {
			resizeterm(lines, cols);
			t->dirty |= REDRAW_ALL | RELAYOUT;
		}
	} else if (!strcmp(line, ":wait")) {
		/* keys already wait for indexing and scoring; this also waits
		 * for the judges' answers */
		t->script.waiting = true;
	} else {
		tui_message(t, true, "unknown script command %s", line);
		t->dirty |= REDRAW_STATUS;
	}
}

bool script_next(struct tui *t, keycode_t *key)
{
	*key = 0;
	while (t->script.pos >= t->script.n) {
		t->script.n = t->script.pos = 0;
		char buf[8192];
		if (!t->script.f || !fgets(buf, sizeof buf, t->script.f))
			return false;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (buf[0] == '#' || buf[0] == '\0')
			continue;
		if (buf[0] == ':') {
			command(t, buf);
			return true;        /* one command per turn, then draw */
		}
		parse_keys(t, buf);
	}
	*key = t->script.keys[t->script.pos++];
	return true;
}
