/* calib_pane.c - the calibration overlay (K): each criterion's agreement with the labels, and a confusion matrix.
 *
 * The figures are review/calib.h's (the ones `tcreview stats` prints),
 * built without bootstrap intervals so opening is quick, and built again
 * whenever labels change (a decision, another reviewer's line read by
 * review_refresh, a judge's answer). Rows are the verdict rows of the
 * configuration; the matrix is the selected row's machine verdict (rows)
 * against the human consensus (columns), and Enter on a cell filters the
 * run list to exactly its runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_int.h"
#include "util/xalloc.h"

/* One meaning for each mark, said by the legend under the figures. */
#define DASH "\xe2\x80\x93"         /* – undefined on these labels (why: below the matrix) */
#define NA   "n/a"                  /* the figure does not apply to this scale */

static void calib_build_now(struct tui *t)
{
	struct calib_state *cs = &t->cal;
	if (cs->built)
		calpane_free(t);
	error_clear(&cs->err);
	cs->gen = tui_rv(t)->labels_gen;
	if (review_busy(tui_rv(t))) {
		error_set(&cs->err, ERR_FAILED, "the figures come once every run is scored (%.0f%%)",
		         review_score_progress(tui_rv(t)) * 100);
		return;
	}
	struct calib_opts o = { .bootstrap = 0, .target_width = tui_rv(t)->target_width };
	if (calib_build(&cs->c, tui_rv(t), &o, &cs->err) < 0) {
		memset(&cs->c, 0, sizeof cs->c);
		return;
	}
	/* The pairwise judges are measured against the reviewers' preferences,
	 * from the cache (stats' figures: review/prefs.h). */
	review_prefs(&cs->prefs, t->rv, t->judging.runner, NULL, 0, false);
	cs->built = true;
}

void calpane_free(struct tui *t)
{
	if (t->cal.built) {
		calib_free(&t->cal.c);
		prefs_free(&t->cal.prefs);
	}
	t->cal.built = false;
}

/* The selected criterion's machine-vs-human pair, or NULL. */
static const struct calib_pair *selected_pair(const struct tui *t)
{
	if (!t->cal.built || t->cal.sel >= review_nrows(tui_rv(t)))
		return NULL;
	return calib_find(&t->cal.c, review_row_id(tui_rv(t), t->cal.sel));
}

unsigned calpane_open(struct tui *t)
{
	if (tui_rv(t)->blind) {
		/* The figures and the cells compare labels with machine verdicts
		 * the reviewer has not seen. */
		tui_message(t, true, "no calibration in blind mode: it shows the machine's verdicts");
		return REDRAW_STATUS;
	}
	if (review_nrows(tui_rv(t)) == 0) {
		tui_message(t, true, "no scorers or judges to calibrate (-c FILE)");
		return REDRAW_STATUS;
	}
	t->cal.shown = true;
	calib_build_now(t);
	return REDRAW_ALL;
}

void calpane_fit(struct tui *t)
{
	struct calib_state *cs = &t->cal;
	if (cs->gen != tui_rv(t)->labels_gen || (!cs->built && !review_busy(tui_rv(t))))
		calib_build_now(t);
	if (cs->sel >= review_nrows(tui_rv(t)))
		cs->sel = review_nrows(tui_rv(t)) ? review_nrows(tui_rv(t)) - 1 : 0;
	const struct calib_pair *p = selected_pair(t);
	size_t cells = p ? p->ncats * p->ncats : 0;
	if (cs->cell >= cells)
		cs->cell = cells ? cells - 1 : 0;
}

/* ---- drawing ------------------------------------------------------------- */

/* A figure in a column: its value, "–" when undefined (its reason is a
 * footnote), "n/a" when it does not apply to the scale. */
static void fig_text(const struct calib_fig *f, bool percent, char *buf, size_t n)
{
	if (f->ok)
		snprintf(buf, n, percent ? "%.0f%%" : "%.2f", percent ? f->v * 100 : f->v);
	else
		snprintf(buf, n, "%s", f->why ? DASH : NA);
}

/* The columns of the criteria table, right-aligned by display width. */
static const char *const col_names[] = { "n", "agree", "kappa", "qkappa", "TPR", "TNR", "pass", "corr." };
#define NCOLS (sizeof col_names / sizeof col_names[0])
#define COL_W 7

static int draw_right(int y, int x, int w, const char *s, attr_t a)
{
	int pad = w - draw_width(s, strlen(s));
	return draw_text(y, x + (pad > 0 ? pad : 0), w, s, strlen(s), a) + (pad > 0 ? pad : 0);
}

static void criteria_header(const struct tui *t, int y, int idw)
{
	attr_t head = screen_attr(t, SLOT_HEADER);
	draw_fill(y, 0, COLS, head);
	draw_text(y, 2, idw, "criterion", 9, head);
	int x = 2 + idw;
	for (size_t c = 0; c < NCOLS; c++)
		x += draw_right(y, x, COL_W, col_names[c], head);
}

/* A row's name; a row declaring `criterion: TAG` is measured as the
 * failure mode, so that leads. */
static void criterion_name(const struct review_row *r, const struct calib_pair *p, char *buf,
                           size_t n)
{
	/* The failure mode first: where the column is narrow, the row's id
	 * is what is cut (the matrix's title names the scorer or judge whole). */
	if (p && p->tag)
		snprintf(buf, n, "%s (%s)", p->criterion, r->id);
	else
		snprintf(buf, n, "%s:%s", r->kind == ROW_SCORER ? "scorer" : "judge", r->id);
}

static void criterion_row(const struct tui *t, size_t row, int y, int idw)
{
	bool sel = row == t->cal.sel;
	attr_t a = screen_attr(t, sel ? SLOT_SELECTION : SLOT_NORMAL);
	draw_fill(y, 0, COLS, a);
	if (sel)
		draw_text(y, 0, 1, ">", 1, a);
	struct review_row r;
	review_row_get(tui_rv(t), NULL, row, &r);
	const struct calib_pair *p = t->cal.built ? calib_find(&t->cal.c, r.id) : NULL;
	char name[320];
	criterion_name(&r, p, name, sizeof name);
	draw_text_cut(y, 2, idw - 1, name, strlen(name), a);
	char cells[NCOLS][32];
	if (!p) {
		/* Not a figure left undefined: there is nothing to figure yet. */
		draw_right(y, 2 + idw, COL_W, "0", a);
		static const char none[] = "no labelled run yet";
		draw_text_cut(y, 2 + idw + COL_W + 2, COLS - (2 + idw + COL_W + 2), none, sizeof none - 1,
		              sel ? a : screen_attr(t, SLOT_DIM));
		return;
	} else {
		/* "w": the figures are weighted by the queue's chances (calib.h) */
		snprintf(cells[0], sizeof cells[0], p->weighted ? "%zu w" : "%zu", p->n);
		fig_text(&p->agreement, false, cells[1], sizeof cells[1]);
		fig_text(&p->kappa, false, cells[2], sizeof cells[2]);
		fig_text(&p->kappa_quadratic, false, cells[3], sizeof cells[3]);
		fig_text(&p->tpr, false, cells[4], sizeof cells[4]);
		fig_text(&p->tnr, false, cells[5], sizeof cells[5]);
		fig_text(&p->pass_rate, true, cells[6], sizeof cells[6]);
		fig_text(&p->pass_rate_corrected, true, cells[7], sizeof cells[7]);
	}
	int x = 2 + idw;
	for (size_t c = 0; c < NCOLS; c++)
		x += draw_right(y, x, COL_W, cells[c], a);
}

/* A count as a shade of its share of the largest count, so the eye finds
 * where the items are before reading the numbers. */
static const char *shade(size_t count, size_t max)
{
	static const char *const s[] = { "  ", "\xe2\x96\x91\xe2\x96\x91", "\xe2\x96\x92\xe2\x96\x92",
	                                 "\xe2\x96\x93\xe2\x96\x93", "\xe2\x96\x88\xe2\x96\x88" };
	if (count == 0 || max == 0)
		return s[0];
	size_t k = 1 + (count * 4 - 1) / max;       /* 1..4 */
	return s[k > 4 ? 4 : k];
}

#define CELL_W 10
#define CELL_MIN 6

/* A cell's width: the full one (shade and count) while the matrix fits,
 * narrower for an integer scale of many levels (0..10 has eleven), down
 * to a count alone. */
static int cell_width(size_t ncats)
{
	int w = ncats ? (COLS - 16) / (int)ncats : CELL_W;
	return w > CELL_W ? CELL_W : w < CELL_MIN ? CELL_MIN : w;
}

/* The matrix of pair p from row y; returns the next free row. */
static int matrix_draw(const struct tui *t, const struct calib_pair *p, int y)
{
	attr_t n = screen_attr(t, SLOT_NORMAL), head = screen_attr(t, SLOT_HEADER);
	int cw = cell_width(p->ncats);
	char line[256];
	int len = snprintf(line, sizeof line, "%s (rows) against %s (columns), %zu labelled run%s", p->a,
	                   p->b, p->n, p->n == 1 ? "" : "s");
	draw_text(y++, 2, COLS - 2, line, (size_t)len, screen_attr(t, SLOT_TITLE));
	draw_fill(y, 0, COLS, head);
	for (size_t b = 0; b < p->ncats; b++)
		draw_right(y, 14 + (int)b * cw, cw, p->cat_names[b], head);
	y++;
	size_t max = 0;
	for (size_t i = 0; i < p->ncats * p->ncats; i++)
		max = p->counts[i] > max ? p->counts[i] : max;
	for (size_t a = 0; a < p->ncats && y < LINES - 2; a++, y++) {
		draw_text_cut(y, 2, 11, p->cat_names[a], strlen(p->cat_names[a]), head);
		for (size_t b = 0; b < p->ncats; b++) {
			size_t i = a * p->ncats + b, c = p->counts[i];
			bool sel = i == t->cal.cell;
			attr_t ca = sel ? screen_attr(t, SLOT_SELECTION) : a == b ? screen_attr(t, SLOT_PASS) : n;
			/* the selected cell is bracketed: it must show without colour */
			if (cw == CELL_W)
				snprintf(line, sizeof line, sel ? "[%s %4zu]" : "%s %4zu ", shade(c, max), c);
			else
				snprintf(line, sizeof line, sel ? "[%*zu]" : "%*zu ", cw - 3, c);
			int x = 14 + (int)b * cw;
			draw_fill(y, x + 1, cw - 1, sel ? ca : n);
			draw_right(y, x, cw, line, ca);
		}
	}
	return y;
}

/* Why figures are missing, for the selected criterion. */
static int footnotes_draw(const struct tui *t, const struct calib_pair *p, int y)
{
	const struct { const char *name; const struct calib_fig *f; } figs[] = {
		{ "agreement", &p->agreement }, { "kappa", &p->kappa },
		{ "quadratic kappa", &p->kappa_quadratic }, { "TPR", &p->tpr }, { "TNR", &p->tnr },
		{ "pass rate", &p->pass_rate }, { "corrected pass rate", &p->pass_rate_corrected },
	};
	attr_t dim = screen_attr(t, SLOT_DIM);
	for (size_t i = 0; i < sizeof figs / sizeof figs[0] && y < LINES - 1; i++) {
		if (figs[i].f->ok || !figs[i].f->why)
			continue;
		char line[256];
		int len = snprintf(line, sizeof line, DASH " %s: %s", figs[i].name, figs[i].f->why);
		draw_text_cut(y++, 2, COLS - 2, line, (size_t)len, dim);
	}
	/* The pair's note repeats the reasons above in stats' words; what it
	 * adds for a person is what was left out. */
	if ((p->ties || p->stale) && y < LINES - 1) {
		char line[160];
		int len = snprintf(line, sizeof line, "left out: %zu tie%s (no consensus), %zu stale label%s",
		                   p->ties, p->ties == 1 ? "" : "s", p->stale, p->stale == 1 ? "" : "s");
		draw_text_cut(y++, 2, COLS - 2, line, (size_t)len, dim);
	}
	return y;
}

/* The criterion column: as wide as the longest name (never cut while the
 * row has room), the figures' columns keeping their width. */
static int criteria_width(const struct tui *t)
{
	const struct review *rv = tui_rv(t);
	int want = 9;                           /* "criterion" */
	for (size_t row = 0; row < review_nrows(rv); row++) {
		struct review_row r;
		review_row_get(rv, NULL, row, &r);
		char name[320];
		criterion_name(&r, t->cal.built ? calib_find(&t->cal.c, r.id) : NULL, name, sizeof name);
		int w = draw_width(name, strlen(name));
		want = w > want ? w : want;
	}
	int room = COLS - 2 - (int)NCOLS * COL_W;
	int idw = want + 2;
	return idw > room ? (room < 8 ? 8 : room) : idw;
}

/* How many more labels bring the agreement's Wilson interval under the
 * target width (review/calib.h): a reviewer's reason to go on or stop. */
static int togo_draw(const struct tui *t, const struct calib_pair *p, int y)
{
	if (!p->labels_to_go_ok || y >= LINES - 4)
		return y;
	char line[320], ci[96] = "";
	double half = p->target_width / 2;
	if (p->agreement_wilson.ok)
		snprintf(ci, sizeof ci, " (agreement's 95%% interval %.2f-%.2f)", p->agreement_wilson.lo,
		         p->agreement_wilson.hi);
	int len;
	if (p->labels_to_go)
		len = snprintf(line, sizeof line, "labels to go: \xe2\x89\x88 %zu more for \xc2\xb1%.2f%s",
		               p->labels_to_go, half, ci);
	else
		len = snprintf(line, sizeof line, "labels to go: none, under \xc2\xb1%.2f%s", half, ci);
	if (!p->n)
		len = snprintf(line, sizeof line, "labels to go: \xe2\x89\x88 %zu for \xc2\xb1%.2f (before "
		               "any label: at agreement 0.5, the widest)", p->labels_to_go, half);
	attr_t a = screen_attr(t, SLOT_NORMAL);
	draw_text_cut(y++, 2, COLS - 2, line, (size_t)(len < (int)sizeof line ? len : (int)sizeof line - 1), a);
	if (p->weighted) {
		len = snprintf(line, sizeof line, "weighted by the queue's chances (1/pi): effective n %.1f "
		               "of %zu labels", p->n_eff, p->n);
		draw_text_cut(y++, 2, COLS - 2, line, (size_t)len, a);
	}
	return y + 1;
}

/* What the marks in the figures mean. */
static int legend_draw(const struct tui *t, int y)
{
	static const char legend[] = DASH " undefined on these labels (why: below the matrix)   "
	                             NA " does not apply to this scale";
	static const char weighted[] = "w weighted (a sampled queue's labels)   ";
	bool any = false;
	for (size_t i = 0; t->cal.built && i < t->cal.c.npairs && !any; i++)
		any = t->cal.c.pairs[i].weighted;
	if (y >= LINES - 1)
		return y;
	/* "w" is said first when it is on screen: the legend is cut at the right */
	int x = 2;
	if (any)
		x += draw_text_cut(y, x, COLS - x, weighted, sizeof weighted - 1, screen_attr(t, SLOT_DIM));
	if (x < COLS)
		draw_text_cut(y, x, COLS - x, legend, sizeof legend - 1, screen_attr(t, SLOT_DIM));
	return y + 1;
}

/* Each pairwise judge against the reviewers' consensus and against this
 * reviewer: stats' figures, a line each, under the per-run criteria. */
static int pairwise_draw(const struct tui *t, int y)
{
	const struct prefs *p = &t->cal.prefs;
	const char *me = tui_rv(t)->reviewer;
	bool head = false;
	for (size_t i = 0; i < p->njudges && y < LINES - 3; i++) {
		const struct prefs_judge *j = &p->judges[i];
		if (j->reviewer && (!me || strcmp(j->reviewer, me) != 0))
			continue;
		if (!head) {
			static const char title[] = "pairwise judges against the reviewers' preferences "
			                            "(< > ~ ! in the side by side)";
			draw_text_cut(y++, 2, COLS - 2, title, sizeof title - 1, screen_attr(t, SLOT_DIM));
			head = true;
		}
		char line[320], agree[64] = DASH, kappa[32] = DASH;
		if (j->agreement_ok)
			snprintf(agree, sizeof agree, "%.3f [%.3f, %.3f]", j->agreement, j->low, j->high);
		if (j->kappa_ok)
			snprintf(kappa, sizeof kappa, "%.3f", j->kappa);
		int len = snprintf(line, sizeof line, "%s  %s  n %zu  agreement %s  kappa %s", j->judge,
		                   j->reviewer ? j->reviewer : "(consensus)", j->n, agree, kappa);
		draw_text_cut(y++, 2, COLS - 2, line, (size_t)(len < (int)sizeof line ? len : (int)sizeof line - 1),
		              screen_attr(t, SLOT_NORMAL));
	}
	return head ? y + 1 : y;
}

void calpane_draw(const struct tui *t)
{
	attr_t head = screen_attr(t, SLOT_TITLE_FOCUS);
	draw_fill(0, 0, COLS, head);
	static const char title[] = "[calibration] \xe2\x86\x91\xe2\x86\x93 criterion  \xe2\x86\x90\xe2\x86\x92 cell  "
	                            "PgUp/PgDn row  Enter its runs  Esc or K closes";
	draw_text(0, 0, COLS, title, sizeof title - 1, head);
	int y = 1;
	if (!t->cal.built) {
		draw_text_cut(y + 1, 2, COLS - 2, t->cal.err.msg, strlen(t->cal.err.msg), screen_attr(t, SLOT_DIM));
		return;
	}
	int idw = criteria_width(t);
	criteria_header(t, y++, idw);
	size_t n = review_nrows(tui_rv(t));
	for (size_t row = 0; row < n && y < LINES - 5; row++)
		criterion_row(t, row, y++, idw);
	y = legend_draw(t, y) + 1;
	y = pairwise_draw(t, y);
	const struct calib_pair *p = selected_pair(t);
	if (!p) {
		static const char none[] = "no labelled run for this criterion yet: label some (digits) first";
		draw_text_cut(y, 2, COLS - 2, none, sizeof none - 1, screen_attr(t, SLOT_DIM));
		return;
	}
	y = togo_draw(t, p, y);
	y = matrix_draw(t, p, y) + 1;
	footnotes_draw(t, p, y);
}

/* ---- keys ------------------------------------------------------------------ */

/* Enter on a cell: the run list shows exactly its runs. */
static unsigned cell_filter(struct tui *t)
{
	const struct calib_pair *p = selected_pair(t);
	if (!p || p->ncats == 0)
		return REDRAW_STATUS;
	size_t a = t->cal.cell / p->ncats, b = t->cal.cell % p->ncats;
	size_t *entries = xcalloc(p->n ? p->n : 1, sizeof *entries), k = 0;
	for (size_t i = 0; i < p->n; i++)
		if ((size_t)p->items[i].cat_a == a && (size_t)p->items[i].cat_b == b)
			entries[k++] = p->items[i].entry;
	if (k == 0) {
		free(entries);
		tui_message(t, true, "no run in the cell %s %s / %s %s", p->a, p->cat_names[a], p->b,
		            p->cat_names[b]);
		return REDRAW_STATUS;
	}
	char name[512];
	snprintf(name, sizeof name, "kappa cell %s %s/%s (%zu)", p->a, p->cat_names[a], p->cat_names[b], k);
	review_set_cell_filter(t->rv, entries, k, name);
	free(entries);
	review_move_to(t->rv, 0);
	t->cal.shown = false;
	tui_message(t, false, "%zu run%s where %s said %s and %s %s (f a shows all runs)", k,
	            k == 1 ? "" : "s", p->a, p->cat_names[a], p->b, p->cat_names[b]);
	return list_moved(t);
}

/* Left and Right step through the cells in reading order (wrapping);
 * PgDn and PgUp go a row down or up in the same column. */
static unsigned move_cell(struct tui *t, long step)
{
	const struct calib_pair *p = selected_pair(t);
	long cells = p ? (long)(p->ncats * p->ncats) : 0;
	if (cells)
		t->cal.cell = (size_t)((((long)t->cal.cell + step) % cells + cells) % cells);
	return REDRAW_ALL;
}

static unsigned move_row(struct tui *t, long dir)
{
	const struct calib_pair *p = selected_pair(t);
	return p ? move_cell(t, dir * (long)p->ncats) : REDRAW_ALL;
}

static unsigned move_criterion(struct tui *t, long delta)
{
	size_t n = review_nrows(tui_rv(t));
	long s = (long)t->cal.sel + delta;
	t->cal.sel = s < 0 ? 0 : (size_t)s >= n ? (n ? n - 1 : 0) : (size_t)s;
	t->cal.cell = 0;
	return REDRAW_ALL;
}

unsigned calpane_key(struct tui *t, enum tcr_action a)
{
	switch (a) {
	case ACT_DOWN:   return move_criterion(t, 1);
	case ACT_UP:     return move_criterion(t, -1);
	case ACT_FIRST:  return move_criterion(t, -(long)review_nrows(tui_rv(t)));
	case ACT_LAST:   return move_criterion(t, (long)review_nrows(tui_rv(t)));
	case ACT_RIGHT:  return move_cell(t, 1);
	case ACT_LEFT:   return move_cell(t, -1);
	case ACT_PAGE_DOWN: return move_row(t, 1);
	case ACT_PAGE_UP:   return move_row(t, -1);
	case ACT_TOGGLE: return cell_filter(t);
	case ACT_CALIB: case ACT_CANCEL: case ACT_QUIT:
		t->cal.shown = false;
		return REDRAW_ALL | RELAYOUT;
	case ACT_REDRAW: return REDRAW_ALL | RELAYOUT | REDRAW_CLEAR;
	default:
		tui_message(t, false, "in the calibration: arrows move, Enter shows a cell's runs, Esc or K closes");
		return REDRAW_STATUS;
	}
}
