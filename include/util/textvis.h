/* textvis.h - transcript text made safe to show on a terminal.
 *
 * Transcripts carry control characters and whole escape sequences; sent
 * to a terminal they would recolour it, move the cursor or retitle the
 * window. Everything shown to a person goes through here first. */
#ifndef TCR_UTIL_TEXTVIS_H
#define TCR_UTIL_TEXTVIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "util/strbuf.h"

/* Appends s with C0 controls and DEL shown in caret notation (ESC as ^[,
 * so "\x1b[31m" reads ^[[31m), what textvis_spelled_out names as <U+0085>,
 * and invalid UTF-8 as U+FFFD. With keep_newlines, '\n' and '\t' pass
 * through. */
void textvis_append(struct strbuf *sb, const char *s, size_t len, int keep_newlines);
/* Invisible characters a reader must see, shown as <U+XXXX>: C1 controls
 * (the 8-bit CSI is an escape sequence), bidirectional embedding, override
 * and isolate controls (they reorder text on terminals that do bidi:
 * "Trojan source"), tag characters (they carry hidden text: prompt
 * smuggling). */
bool textvis_spelled_out(uint32_t cp);
/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t utf8_seq_len(const char *s, size_t n);
/* Writes s to f made visible, as textvis_append does. */
void textvis_fputs(FILE *f, const char *s);

#endif
