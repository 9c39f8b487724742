/*
 * fuzz_runner_merge.c - libFuzzer target: `gemlab merge`'s JUnit reader
 * (emu/runner/merge.c mg_add_junit, libxml2 underneath) and its verdict
 * (mg_evaluate) on a shard's file, which a test writer or a guest's
 * console (inside a <failure>) controls.
 *
 * Input: the file's text, NUL-terminated in an exact heap copy.
 * Checked besides "no crash, no ASan/UBSan report": the reader returns 0
 * or -EINVAL; on 0 every suite is what our junit.xml will hold and
 * parses as well-formed XML 1.0 on its own (the merged file is the one CI
 * reads: one bad suite loses every shard's results), every case belongs
 * to a suite read, a suite's failing cases are at most its cases, and
 * the totals add up (tests = passed + failed + skipped + todo; a failing
 * case never lets the merge pass).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "merge.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct mg m;
    int rc, *in_suite;

    if (!text)
        return 0;
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        fz_fail("/dev/null: cannot open");
    memcpy(text, data, size);
    text[size] = '\0';
    memset(&m, 0, sizeof(m));
    rc = mg_add_junit(&m, text, "f.xml", devnull);
    if (rc != 0 && rc != -EINVAL)
        fz_fail("mg_add_junit returned %d", rc);
    if (rc == 0 && m.nsuites == 0)
        fz_fail("read without a suite");
    in_suite = calloc((size_t)m.nsuites + 1, sizeof(*in_suite));
    if (!in_suite)
        fz_fail("out of memory");
    for (int i = 0; rc == 0 && i < m.nsuites; i++) {
        const struct mg_suite *s = &m.suites[i];
        xmlDoc *d;
        if (!s->xml)
            fz_fail("suite %d: no XML", i);
        d = xmlReadMemory(s->xml, (int)strlen(s->xml), "suite.xml", NULL,
                          XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        if (!d)
            fz_fail("suite %d: what goes into junit.xml is not well-formed: %.200s", i, s->xml);
        xmlFreeDoc(d);
        if (s->k < 1 || s->k > s->n || s->n > MG_MAX_SHARDS)
            fz_fail("suite %d: shard %d of %d", i, s->k, s->n);
    }
    for (int i = 0; i < m.ncases; i++) {
        if (m.cases[i].shard < 0 || m.cases[i].shard >= m.nsuites)
            fz_fail("case %d in suite %d of %d", i, m.cases[i].shard, m.nsuites);
        in_suite[m.cases[i].shard]++;
    }
    for (int i = 0; i < m.nsuites; i++)
        if (m.suites[i].failed_cases > in_suite[i])
            fz_fail("suite %d: %d failing of %d cases", i, m.suites[i].failed_cases, in_suite[i]);
    mg_evaluate(&m);
    if (m.tests != m.ncases || m.passed + m.failed + m.skipped + m.todo != m.tests)
        fz_fail("totals: %d tests, %d cases, %d+%d+%d+%d", m.tests, m.ncases, m.passed, m.failed,
                m.skipped, m.todo);
    if (m.failed > 0 && m.pass)
        fz_fail("a failing case and a passing merge");
    free(in_suite);
    mg_free(&m);
    free(text);
    return 0;
}
