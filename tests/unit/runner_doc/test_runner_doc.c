/* emu/runner/doc.c: one page written once, rendered as GFM Markdown and
 * as HTML (issue 21, docs: aesthetics review "one table model with two
 * renderers").  Each case writes through open_memstream and compares the
 * exact text each renderer must give. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "doc.h"

struct page {
    char *text;
    size_t len;
    FILE *f;
    struct doc d;
};

static struct doc *open_page(struct page *p, enum doc_fmt fmt)
{
    p->text = NULL;
    p->f = open_memstream(&p->text, &p->len);
    assert_non_null(p->f);
    doc_init(&p->d, p->f, fmt);
    return &p->d;
}

/* the page's text (freed by the caller) */
static char *close_page(struct page *p)
{
    fclose(p->f);
    return p->text;
}

/* the same table, written once, in each format */
static void table(struct doc *d)
{
    static const char *const heads[] = { "run", "Mb/s" };

    doc_heading(d, 2, "Runs (%d)", 2);
    doc_table(d, 2, heads, "lr");
    doc_tr(d);
    doc_td(d, "a|b");
    doc_tdf(d, "%.1f", 949.28);
    doc_tr(d);
    doc_td_open(d, "PASS");
    doc_code(d, "x|y");
    doc_br(d);
    doc_text(d, "<i>");
    doc_td(d, "");
    doc_table_end(d);
    doc_p(d, "done");
}

static void test_table_markdown(void **state)
{
    struct page p;
    char *s;

    (void)state;
    table(open_page(&p, DOC_MD));
    s = close_page(&p);
    assert_string_equal(s, "## Runs (2)\n\n"
                           "| run | Mb/s |\n|---|---:|\n"
                           "| a\\|b | 949.3 |\n"
                           "| `x\\|y` \\<i\\> |  |\n\n"
                           "done\n\n");
    free(s);
}

static void test_table_html(void **state)
{
    struct page p;
    char *s;

    (void)state;
    table(open_page(&p, DOC_HTML));
    s = close_page(&p);
    assert_string_equal(s, "<h2>Runs (2)</h2>\n"
                           "<table><tr><th>run</th><th>Mb/s</th></tr>\n"
                           "<tr><td>a|b</td><td>949.3</td></tr>\n"
                           "<tr><td class=\"PASS\"><code>x|y</code><br>&lt;i&gt;</td><td></td></tr>\n"
                           "</table>\n"
                           "<p>done</p>\n");
    free(s);
}

/* a key/value table has no header: Markdown still needs an (empty) one */
static void test_headless_table_and_row_headers(void **state)
{
    struct page p;
    char *s;

    (void)state;
    for (int fmt = DOC_MD; fmt <= DOC_HTML; fmt++) {
        struct doc *d = open_page(&p, fmt);
        doc_table(d, 2, NULL, NULL);
        doc_tr(d);
        doc_th(d, "seed");
        doc_td(d, "1");
        doc_table_end(d);
        s = close_page(&p);
        assert_string_equal(s, fmt == DOC_MD ? "| | |\n|---|---|\n| seed | 1 |\n\n"
                                             : "<table>\n<tr><th>seed</th><td>1</td></tr>\n</table>\n");
        free(s);
    }
}

/* hostile text stays text: markup characters escaped, a class keeps
 * [A-Za-z_] only, a link target is percent-encoded */
static void test_escaping_and_links(void **state)
{
    struct page p;
    char *s;

    (void)state;
    for (int fmt = DOC_MD; fmt <= DOC_HTML; fmt++) {
        struct doc *d = open_page(&p, fmt);
        doc_begin(d, "<t>");
        doc_heading(d, 1, "# %s", "<script>");
        doc_table(d, 1, NULL, NULL);
        doc_tr(d);
        doc_td_open(d, "a\" onclick=\"x");
        doc_link(d, "java script:/r.json", "[x](y)");
        doc_table_end(d);
        doc_list_open(d);
        doc_li_open(d);
        doc_text(d, "*b*\nc");
        doc_li_close(d);
        doc_list_close(d);
        doc_end(d);
        s = close_page(&p);
        if (fmt == DOC_MD) {
            assert_string_equal(s, "# \\# \\<script\\>\n\n| |\n|---|\n"
                                   "| [\\[x\\](y)](java%20script%3A/r.json) |\n\n- \\*b\\* c\n\n");
            assert_null(strstr(s, "script:"));  /* no scheme survives */
        } else {
            assert_non_null(strstr(s, "<title>&lt;t&gt;</title>"));
            assert_non_null(strstr(s, "<h1># &lt;script&gt;</h1>\n"));
            assert_non_null(strstr(s, "<td class=\"aonclickx\"><a href=\"java%20script%3A/r.json\">[x](y)</a></td>"));
            assert_non_null(strstr(s, "<ul>\n<li>*b*\nc</li>\n</ul>\n"));
            assert_non_null(strstr(s, "</body></html>\n"));
            assert_null(strstr(s, "<script"));
        }
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_markdown),
        cmocka_unit_test(test_table_html),
        cmocka_unit_test(test_headless_table_and_row_headers),
        cmocka_unit_test(test_escaping_and_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
