/* doc.h - one report written once, rendered as Markdown or as HTML.
 *
 * `gemlab report` and `gemlab merge` write each page twice: report.md
 * (GitHub-flavoured Markdown, read in a terminal or a CI summary) and
 * report.html / index.html (with charts).  The page's structure -
 * headings, tables, cells - is written once against this interface and
 * the renderer chosen by the format; text is escaped by the renderer
 * (runner_md_esc(), runner_html_esc()), so no caller writes markup.
 *
 * Markdown tables are GFM's (github.github.com/gfm, "Tables"): a header
 * row, a delimiter row whose `---:` right-aligns a column, one line a
 * row.  A cell is one line, so a line break inside one (doc_br()) is a
 * space in Markdown and <br> in HTML. */
#ifndef GEMLAB_RUNNER_DOC_H
#define GEMLAB_RUNNER_DOC_H

#include <stdbool.h>
#include <stdio.h>

enum doc_fmt { DOC_MD, DOC_HTML };

struct doc {
    FILE *f;
    enum doc_fmt fmt;
    bool in_cell;       /* between doc_td_open() and doc_td_close() */
    bool in_row;
};

static inline void doc_init(struct doc *d, FILE *f, enum doc_fmt fmt)
{
    d->f = f;
    d->fmt = fmt;
    d->in_cell = d->in_row = false;
}

static inline bool doc_html(const struct doc *d)
{
    return d->fmt == DOC_HTML;
}

/* An HTML page's head, titled @title, with the reports' one style sheet,
 * and its end; nothing in Markdown. */
void doc_begin(struct doc *d, const char *title);
void doc_end(struct doc *d);

/* Text, escaped for the format; doc_textf() formats first (at most 1 KiB). */
void doc_text(struct doc *d, const char *s);
void doc_textf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A code span: Markdown backticks (| escaped in a table cell), HTML <code>. */
void doc_code(struct doc *d, const char *s);
/* A link to the relative path @href (percent-encoded) reading @text. */
void doc_link(struct doc *d, const char *href, const char *text);
/* A line break inside a cell or paragraph: a space in a Markdown cell. */
void doc_br(struct doc *d);

/* A heading of @level (1..6).  Markdown: every block (paragraph, list,
 * table, heading) ends with a blank line, so one never needs one before. */
void doc_heading(struct doc *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A paragraph: doc_p_open(), text, doc_p_close(); doc_p() for plain text. */
void doc_p_open(struct doc *d);
void doc_p_close(struct doc *d);
void doc_p(struct doc *d, const char *s);
/* A list item: doc_li_open(), text, doc_li_close(); doc_list_open/close
 * around the items (HTML <ul>; nothing in Markdown). */
void doc_list_open(struct doc *d);
void doc_li_open(struct doc *d);
void doc_li_close(struct doc *d);
void doc_list_close(struct doc *d);

/* A table of @ncols columns.  @heads: the column titles, or NULL for a
 * table without a header (a key/value table: Markdown needs a header
 * row, so it gets an empty one).  @align: one character a column, 'r'
 * right-aligns it in Markdown ('l' or anything else: left); NULL: all
 * left. */
void doc_table(struct doc *d, int ncols, const char *const *heads, const char *align);
void doc_tr(struct doc *d);                 /* start a row (ends the last) */
void doc_td(struct doc *d, const char *s);  /* a cell of escaped text */
void doc_tdf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A cell whose text is written in parts (doc_text, doc_code, doc_br,
 * doc_link); @cls, when not NULL, is its HTML class ([A-Za-z_] kept). */
void doc_td_open(struct doc *d, const char *cls);
void doc_td_close(struct doc *d);
/* A row's header cell (HTML <th>; a plain cell in Markdown). */
void doc_th(struct doc *d, const char *s);
void doc_table_end(struct doc *d);

#endif
