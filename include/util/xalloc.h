/* xalloc.h - allocation that cannot fail quietly.
 *
 * Running out of memory is an error like an unreadable input, not a crash:
 * the program says so in one line naming what it was reading, restores
 * the terminal when the screen is up, and exits with status 3 (never a
 * signal). Nothing is written after the message: the annotations file is
 * appended one whole line per write(), so no decision is left half done,
 * and a half-built run or decision is never used. */
#ifndef TCR_UTIL_XALLOC_H
#define TCR_UTIL_XALLOC_H

#include <stddef.h>

/* The exit status of running out of memory: an input could not be read. */
#define XALLOC_EXIT 3

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* malloc that ends the program as xcalloc does (for jansson's hooks). */
void *xmalloc(size_t size);

/* Ends the program: "tcreview: PATH:LINE: out of memory while DOING" (or
 * "tcreview: out of memory" when this thread reads nothing) on standard
 * error, after the restore hook, with status XALLOC_EXIT. Safe from any
 * thread; it allocates nothing. */
void xalloc_die(void) __attribute__((noreturn));

/* What this thread is reading, for xalloc_die's message: path (borrowed;
 * it must outlive the reading, or be cleared with NULL), a 1-based line
 * (0 for the whole file) and what is being done ("reading the record").
 * Cheap: three stores, no formatting. */
void xalloc_input(const char *path, unsigned long line, const char *doing);

/* A function run once before the message (the screen's endwin), or NULL.
 * It must not allocate much: memory has run out. */
void xalloc_on_die(void (*restore)(void));

/* Has jansson allocate through xmalloc, so that a tree too big for memory
 * ends the program with the message instead of a NULL each caller must
 * check. Called once by main, before anything else. */
void xalloc_install(void);

/* Asks for huge pages for the whole 2 MB pages inside p .. p+n, a large
 * buffer about to be written whole: a 100 MB string then costs 50 page
 * faults instead of 25,000. Only a hint (THP may be off). */
void xalloc_advise_huge(void *p, size_t n);
/* Buffers from this size on are worth the hint. */
#define XALLOC_HUGE_MIN ((size_t)8 << 20)


#endif
