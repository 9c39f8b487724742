/* doc.c - the Markdown and HTML renderers of doc.h. */
#include "doc.h"

#include <stdarg.h>

#include "util.h"

void doc_begin(struct doc *d, const char *title)
{
    if (!doc_html(d))
        return;
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", d->f);
    runner_html_esc(d->f, title);
    fputs("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
          "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;"
          "vertical-align:top}th{background:#f4f4f4}.PASS,.ok{color:#080}.FAIL,.ERROR,.regression{color:#c00}"
          ".SKIP,.TODO{color:#b60}.improvement{color:#06c}.chart svg{width:100%;height:auto}"
          "code{font-size:90%}</style></head><body>\n",
          d->f);
}

void doc_end(struct doc *d)
{
    if (doc_html(d))
        fputs("</body></html>\n", d->f);
}

void doc_text(struct doc *d, const char *s)
{
    if (doc_html(d))
        runner_html_esc(d->f, s);
    else
        runner_md_esc(d->f, s);
}

/* formatted text, cut at 1 KiB, then escaped */
__attribute__((format(printf, 2, 0))) static void vtext(struct doc *d, const char *fmt, va_list ap)
{
    char buf[1024];

    vsnprintf(buf, sizeof(buf), fmt, ap);
    doc_text(d, buf);
}

void doc_textf(struct doc *d, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
}

void doc_code(struct doc *d, const char *s)
{
    if (!doc_html(d)) {
        runner_md_code(d->f, s, d->in_cell);
        return;
    }
    fputs("<code>", d->f);
    runner_html_esc(d->f, s);
    fputs("</code>", d->f);
}

void doc_link(struct doc *d, const char *href, const char *text)
{
    if (doc_html(d)) {
        fputs("<a href=\"", d->f);
        runner_url_path(d->f, href);
        fputs("\">", d->f);
        runner_html_esc(d->f, text);
        fputs("</a>", d->f);
        return;
    }
    fputc('[', d->f);
    runner_md_esc(d->f, text);
    fputs("](", d->f);
    runner_url_path(d->f, href);
    fputc(')', d->f);
}

void doc_br(struct doc *d)
{
    fputs(doc_html(d) ? "<br>" : d->in_cell ? " " : "  \n", d->f);
}

void doc_heading(struct doc *d, int level, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    level = level < 1 ? 1 : level > 6 ? 6 : level;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (doc_html(d)) {
        fprintf(d->f, "<h%d>", level);
        runner_html_esc(d->f, buf);
        fprintf(d->f, "</h%d>\n", level);
        return;
    }
    fprintf(d->f, "%.*s ", level, "######");
    runner_md_esc(d->f, buf);
    fputs("\n\n", d->f);
}

void doc_p_open(struct doc *d)
{
    if (doc_html(d))
        fputs("<p>", d->f);
}

void doc_p_close(struct doc *d)
{
    fputs(doc_html(d) ? "</p>\n" : "\n\n", d->f);
}

void doc_p(struct doc *d, const char *s)
{
    doc_p_open(d);
    doc_text(d, s);
    doc_p_close(d);
}

void doc_list_open(struct doc *d)
{
    if (doc_html(d))
        fputs("<ul>\n", d->f);
}

void doc_li_open(struct doc *d)
{
    fputs(doc_html(d) ? "<li>" : "- ", d->f);
}

void doc_li_close(struct doc *d)
{
    fputs(doc_html(d) ? "</li>\n" : "\n", d->f);
}

void doc_list_close(struct doc *d)
{
    fputs(doc_html(d) ? "</ul>\n" : "\n", d->f);
}

void doc_table(struct doc *d, int ncols, const char *const *heads, const char *align)
{
    d->in_row = d->in_cell = false;
    if (doc_html(d)) {
        fputs("<table>", d->f);
        if (heads) {
            fputs("<tr>", d->f);
            for (int i = 0; i < ncols; i++) {
                fputs("<th>", d->f);
                runner_html_esc(d->f, heads[i]);
                fputs("</th>", d->f);
            }
            fputs("</tr>", d->f);
        }
        fputc('\n', d->f);
        return;
    }
    fputc('|', d->f);
    for (int i = 0; i < ncols; i++) {
        if (heads) {
            fputc(' ', d->f);
            runner_md_esc(d->f, heads[i]);
        }
        fputs(" |", d->f);
    }
    fputs("\n|", d->f);
    for (int i = 0; i < ncols; i++)
        fputs(align && align[i] == 'r' ? "---:|" : "---|", d->f);
    fputc('\n', d->f);
}

static void row_end(struct doc *d)
{
    if (d->in_cell)
        doc_td_close(d);
    if (d->in_row)
        fputs(doc_html(d) ? "</tr>\n" : "\n", d->f);
    d->in_row = false;
}

void doc_tr(struct doc *d)
{
    row_end(d);
    fputs(doc_html(d) ? "<tr>" : "|", d->f);
    d->in_row = true;
}

void doc_td_open(struct doc *d, const char *cls)
{
    if (d->in_cell)
        doc_td_close(d);
    d->in_cell = true;
    if (!doc_html(d)) {
        fputc(' ', d->f);
        return;
    }
    if (cls && *cls) {
        fputs("<td class=\"", d->f);
        runner_html_class(d->f, cls);
        fputs("\">", d->f);
    } else
        fputs("<td>", d->f);
}

void doc_td_close(struct doc *d)
{
    fputs(doc_html(d) ? "</td>" : " |", d->f);
    d->in_cell = false;
}

void doc_td(struct doc *d, const char *s)
{
    doc_td_open(d, NULL);
    doc_text(d, s);
    doc_td_close(d);
}

void doc_tdf(struct doc *d, const char *fmt, ...)
{
    va_list ap;

    doc_td_open(d, NULL);
    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
    doc_td_close(d);
}

void doc_th(struct doc *d, const char *s)
{
    if (!doc_html(d)) {
        doc_td(d, s);
        return;
    }
    if (d->in_cell)
        doc_td_close(d);
    fputs("<th>", d->f);
    runner_html_esc(d->f, s);
    fputs("</th>", d->f);
}

void doc_table_end(struct doc *d)
{
    row_end(d);
    fputs(doc_html(d) ? "</table>\n" : "\n", d->f);
}
