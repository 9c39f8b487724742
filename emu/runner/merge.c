/*
 * merge.c - `gemlab merge`: one verdict, JUnit file, report.md, index.html
 * and index.json from the outputs of N qemu-test.sh shards.  See merge.h.
 *
 * The JUnit reader is libxml2's (a well-formed XML 1.0 document): a
 * <testsuites> holding <testsuite name=.. time=..> elements, or one
 * <testsuite>, with <testcase classname= name= time=> children that are
 * empty or hold <failure>/<error>/<skipped> (the shape qemu-test.sh, pytest
 * and Ant's JUnit task write).
 */
#define _GNU_SOURCE /* nftw (XSI), memmem (GNU) */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "diagnose.h"
#include "doc.h"
#include "merge.h"
#include "units.h"
#include "util.h"

/* The "time" attribute @buf of the <@what name="@name"> element in
 * seconds: 0 with *@out NAN when there is none (@buf NULL or empty), or
 * with the value; -EINVAL (message naming @file, the element and the
 * attribute on @err) when it is not a decimal number 0..MG_MAX_TIME_S.
 * strtod alone takes a sign, blanks, "inf", "nan" and hex: time="-5" or
 * time="inf" went into the totals.  An exponent is taken ("1e-05", as some
 * JUnit writers print it). */
static int attr_time(const char *buf, const char *file, const char *what, const char *name, double *out,
                     FILE *err)
{
    char *e;
    double v;

    *out = NAN;
    if (!buf || !buf[0])
        return 0;
    if ((isdigit((unsigned char)buf[0]) || (buf[0] == '.' && isdigit((unsigned char)buf[1]))) &&
        !strpbrk(buf, "xXpP") && strlen(buf) < 64) {
        v = strtod(buf, &e);
        if (!*e && isfinite(v) && v >= 0 && v <= MG_MAX_TIME_S) {
            *out = v;
            return 0;
        }
    }
    fprintf(err, "%s: <%s name=\"%s\"> time=\"%.63s\": not a duration in seconds (a number 0..%.0f)\n", file,
            what, name, buf, MG_MAX_TIME_S);
    return -EINVAL;
}

/* The decimal digits [b, e) (units.h un_parse_u64: no overflow, which
 * sscanf's %d had); -ERANGE when there are more than 20. */
static int digits_u64(const char *b, const char *e, uint64_t *v)
{
    char buf[24];

    if (e - b > 20)
        return -ERANGE;
    memcpy(buf, b, (size_t)(e - b));
    buf[e - b] = '\0';
    return un_parse_u64(buf, v);
}

/* "...-K-of-N" at the end of @s (an optional ".xml" after it): 1 with *@k
 * and *@n; 0 when @s is not named so; -ERANGE when it is but not with
 * 1 <= K <= N <= MG_MAX_SHARDS ("s-3-of-2", "s-99999999999999-of-2"). */
static int shard_of(const char *s, int *k, int *n)
{
    size_t len = strlen(s);
    const char *ne, *nb, *ke, *kb;
    uint64_t a, b;

    if (len > 4 && !strcmp(s + len - 4, ".xml"))
        len -= 4;
    ne = nb = s + len;
    while (nb > s && isdigit((unsigned char)nb[-1]))
        nb--;
    if (nb == ne || nb - s < 4 || strncmp(nb - 4, "-of-", 4))
        return 0;
    ke = kb = nb - 4;
    while (kb > s && isdigit((unsigned char)kb[-1]))
        kb--;
    if (kb == ke || kb == s || kb[-1] != '-')
        return 0;
    if (digits_u64(kb, ke, &a) || digits_u64(nb, ne, &b) || a < 1 || a > b || b > MG_MAX_SHARDS)
        return -ERANGE;
    *k = (int)a;
    *n = (int)b;
    return 1;
}

/* Shard K of N of the suite @name in @file: from the name, else the file
 * name, else 1 of 1.  0, or -EINVAL when either claims a shard out of
 * range (message on @err): such a suite was taken as shard 1 of 1. */
static int suite_shard(const char *name, const char *file, int *k, int *n, FILE *err)
{
    const char *base = strrchr(file, '/');
    int rc = shard_of(name, k, n);

    if (rc == 0)
        rc = shard_of(base ? base + 1 : file, k, n);
    if (rc < 0) {
        fprintf(err, "%s: <testsuite name=\"%s\">: not shard K-of-N with 1 <= K <= N <= %d\n", file, name,
                MG_MAX_SHARDS);
        return -EINVAL;
    }
    if (rc == 0)
        *k = *n = 1;
    return 0;
}

static void *grow(void *p, int n, size_t sz)
{
    /* capacity doubles at powers of two */
    if (n && (n & (n - 1)))
        return p;
    return realloc(p, (size_t)(n ? 2 * n : 8) * sz);
}

/* An attribute's value with its entity and character references decoded
 * (XML 1.0 section 3.3.3; libxml2's xmlGetNoNsProp), cut to @len bytes;
 * false when the element has none. */
static bool prop(xmlNode *n, const char *name, char *out, size_t len)
{
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);

    if (!v)
        return false;
    snprintf(out, len, "%s", (const char *)v);
    xmlFree(v);
    return true;
}

/* Attribute @name of @n, whole, as a malloc'ed string ("" when absent) */
static char *prop_dup(xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
    char *s = strdup(v ? (const char *)v : "");

    xmlFree(v);
    return s;
}

static bool is_el(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* The "time" of element @n (attr_time) */
static int prop_time(xmlNode *n, const char *file, const char *what, const char *name, double *out, FILE *err)
{
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)"time");
    int rc = attr_time((const char *)v, file, what, name, out, err);

    xmlFree(v);
    return rc;
}

/* failures= plus errors= of a <testsuite>, the count its writer declared;
 * -1 when it gives neither as a whole number */
static int declared_failed(xmlNode *su)
{
    static const char *const names[] = { "failures", "errors" };
    int sum = -1;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char buf[24];
        uint64_t v;
        if (prop(su, names[i], buf, sizeof(buf)) && !un_parse_u64(buf, &v) && v <= INT_MAX / 2)
            sum = (sum < 0 ? 0 : sum) + (int)v;
    }
    return sum;
}

/* One <testsuite> element @su of @doc and its <testcase> children. */
static int add_suite(struct mg *m, xmlDoc *doc, xmlNode *su, const char *file, FILE *err)
{
    struct mg_suite *s;
    char name[sizeof(s->name)];
    double time;
    int k, n, rc;
    void *ns;
    xmlBuffer *buf;

    if (!prop(su, "name", name, sizeof(name)))
        snprintf(name, sizeof(name), "%s", file);
    if (prop_time(su, file, "testsuite", name, &time, err) || suite_shard(name, file, &k, &n, err))
        return -EINVAL;
    /* JUnit's schemas put suites side by side under <testsuites>; one
     * inside another was read as the outer suite cut at the inner one's
     * end, and the outer's later cases were lost */
    for (xmlNode *c = su->children; c; c = c->next)
        if (is_el(c, "testsuite")) {
            fprintf(err, "%s:%ld: a <testsuite> inside <testsuite name=\"%s\">: nested suites are not read; "
                         "put each under <testsuites>\n", file, xmlGetLineNo(c), name);
            return -EINVAL;
        }
    if (!(ns = grow(m->suites, m->nsuites, sizeof(*m->suites))))
        return -ENOMEM;
    m->suites = ns;
    s = &m->suites[m->nsuites++];
    memset(s, 0, sizeof(*s));
    snprintf(s->file, sizeof(s->file), "%s", file);
    memcpy(s->name, name, sizeof(s->name));
    s->time = time;
    s->k = k;
    s->n = n;
    s->declared_failed = declared_failed(su);
    /* copied into our junit.xml as libxml2 writes it back: well-formed
     * whatever the shard's comments, CDATA or quoting */
    if (!(buf = xmlBufferCreate()))
        return -ENOMEM;
    xmlNodeDump(buf, doc, su, 1, 0);
    s->xml = strndup((const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
    xmlBufferFree(buf);
    if (!s->xml)
        return -ENOMEM;
    for (xmlNode *c = su->children; c; c = c->next) {
        struct mg_case *tc, one;
        bool failed = false, skipped = false;

        if (!is_el(c, "testcase"))
            continue;
        memset(&one, 0, sizeof(one));
        one.classname = prop_dup(c, "classname");
        one.name = prop_dup(c, "name");
        rc = !one.classname || !one.name ? -ENOMEM
             : prop_time(c, file, "testcase", one.name, &one.time, err) ? -EINVAL
             : !(ns = grow(m->cases, m->ncases, sizeof(*m->cases))) ? -ENOMEM : 0;
        if (rc) {
            free(one.classname);
            free(one.name);
            return rc;
        }
        m->cases = ns;
        tc = &m->cases[m->ncases++];
        *tc = one;      /* owned by m */
        for (xmlNode *r = c->children; r; r = r->next)
            if (is_el(r, "failure") || is_el(r, "error"))
                failed = true;
            else if (is_el(r, "skipped") && !skipped) {
                /* qemu-test.sh: "TODO: ..." for a scenario marked todo,
                 * else why it could not run */
                skipped = true;
                if (!prop(r, "message", tc->why, sizeof(tc->why)))
                    snprintf(tc->why, sizeof(tc->why), "no reason given");
            }
        tc->status = failed ? MG_FAIL : skipped ? (!strncmp(tc->why, "TODO", 4) ? MG_TODO : MG_SKIP) : MG_PASS;
        tc->shard = m->nsuites - 1;
        s->failed_cases += failed;
    }
    return 0;
}

/* Parse @len bytes of JUnit @text read from @file with libxml2 (comments,
 * CDATA, character references, any attribute quoting and white space, as
 * XML 1.0 has them).  Walking a directory (@walking), a merge's own
 * junit.xml (<testsuites name="qemu-test-merged">) is passed over: read
 * again it counted every shard twice.  0, or -EINVAL with a message
 * naming @file (and its line) on @err.
 *
 * Shards' JUnit is copied into ours: a control character or bad UTF-8 in
 * it (a guest's console in a <failure>, an older qemu-test.sh) would make
 * junit.xml invalid XML 1.0 and lose every shard's results in CI
 * (docs/SECURITY.md R7), so the text is cleaned before it is parsed. */
static int add_junit(struct mg *m, const char *text, size_t len, const char *file, bool walking, FILE *err)
{
    const char *nul = memchr(text, '\0', len);
    xmlDoc *doc;
    xmlNode *root;
    char *clean;
    size_t cn;
    int found = 0, rc = 0;

    if (nul) {
        /* XML 1.0 section 2.2: NUL is no character; strlen() stopped at it
         * and the rest of the file went unread */
        fprintf(err, "%s: a NUL byte at offset %zu: not XML\n", file, (size_t)(nul - text));
        return -EINVAL;
    }
    if (len > INT_MAX / 3 - 1) {
        fprintf(err, "%s: larger than %d bytes\n", file, INT_MAX / 3 - 1);
        return -EINVAL;
    }
    if (!(clean = malloc(3 * len + 1)))
        return -ENOMEM;
    cn = runner_clean_text(clean, 3 * len + 1, text, len, true);
    xmlResetLastError();
    /* no network, no external DTD, entities left as references */
    doc = xmlReadMemory(clean, (int)cn, file, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        const char *msg = e && e->message ? e->message : "unreadable";
        fprintf(err, "%s:%d: not well-formed XML: %.*s\n", file, e ? e->line : 0,
                (int)strcspn(msg, "\n"), msg);
        free(clean);
        return -EINVAL;
    }
    root = xmlDocGetRootElement(doc);
    if (doc->intSubset || doc->extSubset) {
        fprintf(err, "%s: a <!DOCTYPE>: JUnit files have none, and its entities are not expanded here\n", file);
        rc = -EINVAL;
    } else if (is_el(root, "testsuites")) {
        char nm[32];
        if (walking && prop(root, "name", nm, sizeof(nm)) && !strcmp(nm, "qemu-test-merged"))
            found = -1;
        for (xmlNode *c = root->children; c && found >= 0 && !rc; c = c->next)
            if (is_el(c, "testsuite")) {
                rc = add_suite(m, doc, c, file, err);
                found++;
            }
    } else if (is_el(root, "testsuite")) {
        rc = add_suite(m, doc, root, file, err);
        found++;
    } else {
        fprintf(err, "%s:%ld: <%s> is not JUnit (<testsuites> or <testsuite>)\n", file,
                root ? xmlGetLineNo(root) : 0L, root ? (const char *)root->name : "");
        rc = -EINVAL;
    }
    if (!rc && !found) {
        fprintf(err, "%s: no <testsuite> in this file\n", file);
        rc = -EINVAL;
    }
    xmlFreeDoc(doc);
    free(clean);
    return rc;
}

int mg_add_junit(struct mg *m, const char *text, const char *file, FILE *err)
{
    return add_junit(m, text, strlen(text), file, false, err);
}

static void problem(struct mg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct mg *m, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    cJSON_AddItemToArray(m->problems, cJSON_CreateString(buf));
}

/* by (classname, name), then input order */
static int cmp_case(const void *x, const void *y)
{
    const struct mg_case *a = *(const struct mg_case *const *)x, *b = *(const struct mg_case *const *)y;
    int c = strcmp(a->classname, b->classname);

    if (!c)
        c = strcmp(a->name, b->name);
    return c ? c : (a > b) - (a < b);
}

/* For each case, the first earlier case with its classname and name that
 * ran in another shard, or -1 (a new array of m->ncases, or NULL when out
 * of memory).  Sorted, not compared pairwise: 80 000 cases took 10 s, and
 * a 64 MiB input holds over a million. */
static int *case_dups(const struct mg *m)
{
    size_t n = (size_t)m->ncases;
    const struct mg_case **v = malloc((n ? n : 1) * sizeof(*v));
    int *dup = malloc((n ? n : 1) * sizeof(*dup));

    if (!v || !dup) {
        free(v);
        free(dup);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = &m->cases[i];
        dup[i] = -1;
    }
    qsort(v, n, sizeof(*v), cmp_case);
    for (size_t g = 0, e; g < n; g = e) {
        /* a group of equal keys in input order: v[g] is its first case;
         * @other its first case in another shard than v[g]'s */
        int first = (int)(v[g] - m->cases), other = -1;
        for (e = g + 1; e < n && !strcmp(v[e]->classname, v[g]->classname) && !strcmp(v[e]->name, v[g]->name);
             e++) {
            int i = (int)(v[e] - m->cases);
            if (v[e]->shard != v[g]->shard) {
                dup[i] = first;
                if (other < 0)
                    other = i;
            } else
                dup[i] = other;
        }
    }
    free(v);
    return dup;
}

void mg_evaluate(struct mg *m)
{
    int seen[MG_MAX_SHARDS + 1] = { 0 };
    int *dup;

    cJSON_Delete(m->problems);
    m->problems = cJSON_CreateArray();
    m->n = m->expect_n;
    m->tests = m->passed = m->failed = m->skipped = m->todo = 0;
    m->time = 0;
    for (int i = 0; i < m->nsuites; i++) {
        const struct mg_suite *s = &m->suites[i];
        if (!m->expect_n && s->n > m->n)
            m->n = s->n;
        if (!isnan(s->time))
            m->time += s->time;
    }
    if (m->nsuites == 0)
        problem(m, "no shard results");
    for (int i = 0; i < m->nsuites; i++) {
        const struct mg_suite *s = &m->suites[i];
        if (s->n != m->n)
            problem(m, "%s (%s) is shard %d of %d, expected N=%d", s->name, s->file, s->k, s->n, m->n);
        else if (seen[s->k]++)
            problem(m, "shard %d of %d given more than once (%s)", s->k, s->n, s->file);
    }
    for (int k = 1; k <= m->n && k <= MG_MAX_SHARDS; k++)
        if (!seen[k])
            problem(m, "shard %d of %d is missing", k, m->n);
    /* a suite that says it failed more than its cases show lost some (a
     * writer cut off, or cases this reader does not see) */
    for (int i = 0; i < m->nsuites; i++) {
        const struct mg_suite *s = &m->suites[i];
        if (s->declared_failed > s->failed_cases)
            problem(m, "%s (%s) declares %d failures and errors, but %d of its test cases failed", s->name,
                    s->file, s->declared_failed, s->failed_cases);
    }
    {
        const cJSON *d;
        cJSON_ArrayForEach(d, m->incomplete)
            problem(m, "run %s is incomplete (" RUNNER_IN_PROGRESS ": killed, or its results could not be written)",
                    d->valuestring);
        cJSON_ArrayForEach(d, m->unreadable)
            problem(m, "run %s: its results.json cannot be read, so it is not in the report", d->valuestring);
    }
    dup = case_dups(m);
    if (!dup)
        problem(m, "out of memory: test cases not checked for duplicates");
    for (int i = 0; i < m->ncases; i++) {
        const struct mg_case *c = &m->cases[i];
        m->tests++;
        if (c->status == MG_FAIL)
            m->failed++;
        else if (c->status == MG_SKIP) {
            m->skipped++;
            if (m->skips_fail)
                problem(m, "%s (%s, shard %d/%d) was skipped (%s): under CI=true a skip fails the run; "
                        "provide what it needs, or if this is a known gap mark the scenario with "
                        "`todo = REASON` in its [scenario] section (scenarios/README.md)",
                        c->name, c->classname, m->suites[c->shard].k, m->suites[c->shard].n, c->why);
        } else if (c->status == MG_TODO)
            m->todo++;
        else
            m->passed++;
        if (dup && dup[i] >= 0)
            problem(m, "%s (%s) ran in %s and in %s", c->name, c->classname, m->suites[m->cases[dup[i]].shard].name,
                    m->suites[c->shard].name);
    }
    free(dup);
    /* shards that ran nothing passed nothing */
    if (m->nsuites && !m->tests)
        problem(m, "no test case in any shard: nothing ran");
    m->pass = m->failed == 0 && cJSON_GetArraySize(m->problems) == 0;
}

void mg_free(struct mg *m)
{
    for (int i = 0; i < m->nsuites; i++)
        free(m->suites[i].xml);
    free(m->suites);
    for (int i = 0; i < m->ncases; i++) {
        free(m->cases[i].classname);
        free(m->cases[i].name);
    }
    free(m->cases);
    cJSON_Delete(m->problems);
    cJSON_Delete(m->incomplete);
    cJSON_Delete(m->unreadable);
    memset(m, 0, sizeof(*m));
}

/* ---- the merge: inputs, run directories, outputs ---- */

/* nftw() passes no context: the merge a directory walk adds to */
static struct mg *walk_m;
static cJSON *walk_runs;
static int walk_rc;
static FILE *walk_err;

/* @path's text (runner_read_file, 64 MiB at most), or NULL with a message
 * on @err. */
static char *slurp(const char *path, size_t *len, FILE *err)
{
    char *buf = runner_read_file(path, 64u << 20, len);

    if (!buf)
        fprintf(err, "%s: %s\n", path, errno == EFBIG ? "larger than 64 MiB" : strerror(errno));
    return buf;
}

static const char *jstr_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        j = cJSON_GetObjectItemCaseSensitive(j, b);
    return cJSON_IsString(j) ? j->valuestring : "";
}

static double jnum2(const cJSON *o, const char *a, const char *b)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

/* one run directory's summary for the index */
static void add_run(const char *dir)
{
    char path[PATH_MAX + 32];
    cJSON *res = NULL, *dg = NULL, *r, *codes;
    const cJSON *f;

    if (runner_run_incomplete(dir, NULL))
        return; /* a problem of its own (visit) */
    snprintf(path, sizeof(path), "%s/results.json", dir);
    if (dg_load_results(path, &res, walk_err)) {
        /* reported above; its JUnit case may well have passed (the run
         * ended, then its results.json was cut or damaged), so the run
         * would be missing from the report with nothing failing */
        if (!walk_m->unreadable)
            walk_m->unreadable = cJSON_CreateArray();
        cJSON_AddItemToArray(walk_m->unreadable, cJSON_CreateString(dir));
        return;
    }
    r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "dir", dir);
    cJSON_AddStringToObject(r, "scenario", jstr_at(res, "scenario", "name"));
    {
        const cJSON *fw = runner_results_get(res, "conditions.firmware");  /* truth.conditions in schema 2 */
        cJSON_AddStringToObject(r, "firmware", cJSON_IsString(fw) ? fw->valuestring : "");
    }
    cJSON_AddStringToObject(r, "verdict", jstr_at(res, "verdict", "result"));
    cJSON_AddStringToObject(r, "reason", jstr_at(res, "verdict", "reason"));
    if (!isnan(jnum2(res, "iperf", "throughput_bps")))
        cJSON_AddNumberToObject(r, "throughput_bps", jnum2(res, "iperf", "throughput_bps"));
    codes = cJSON_AddArrayToObject(r, "findings");
    snprintf(path, sizeof(path), "%s/diagnosis.json", dir);
    if (access(path, R_OK) == 0 && dg_load_json(path, &dg, walk_err) == 0)
        cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(dg, "findings"))
            if (*jstr_at(f, "code", NULL))
                cJSON_AddItemToArray(codes, cJSON_CreateString(jstr_at(f, "code", NULL)));
    snprintf(path, sizeof(path), "%s/report.html", dir);
    cJSON_AddBoolToObject(r, "has_report_html", access(path, R_OK) == 0);
    cJSON_AddItemToArray(walk_runs, r);
    cJSON_Delete(dg);
    cJSON_Delete(res);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    size_t n = strlen(path);
    const char *base = path + ftw->base;

    (void)st;
    if (type == FTW_F && n > 4 && !strcmp(path + n - 4, ".xml") && strncmp(base, "merged", 6)) {
        size_t len;
        char *text = slurp(path, &len, walk_err);
        if (!text) {
            walk_rc = -EIO;
            return 0;
        }
        if (memmem(text, len, "<testsuite", 10) && add_junit(walk_m, text, len, path, true, walk_err))
            walk_rc = -EINVAL;
        free(text);
    } else if (type == FTW_F && !strcmp(base, "results.json")) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%.*s", (int)ftw->base - 1, path);
        add_run(dir);
    } else if (type == FTW_F && !strcmp(base, RUNNER_IN_PROGRESS)) {
        /* results.json may be missing or left from an earlier run: flag it */
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%.*s", (int)ftw->base - 1, path);
        if (!walk_m->incomplete)
            walk_m->incomplete = cJSON_CreateArray();
        cJSON_AddItemToArray(walk_m->incomplete, cJSON_CreateString(dir));
    }
    return 0;
}

/* @to relative to directory @from (both made absolute) */
static void relpath(const char *from, const char *to, char *out, size_t len)
{
    char a[PATH_MAX + 1], b[PATH_MAX + 1];  /* realpath() fills PATH_MAX, then a '/' (docs/SECURITY.md R10) */
    size_t i = 0, common = 0;
    int ups = 0;

    if (!realpath(from, a) || !realpath(to, b)) {
        snprintf(out, len, "%s", to);
        return;
    }
    strcat(a, "/");
    strcat(b, "/");
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            common = i + 1;
    for (i = common; a[i]; i++)
        if (a[i] == '/')
            ups++;
    out[0] = '\0';
    for (int u = 0; u < ups && strlen(out) + 3 < len; u++)
        strcat(out, "../");
    b[strlen(b) - 1] = '\0';
    snprintf(out + strlen(out), len - strlen(out), "%s", b + common);
    if (!out[0])
        snprintf(out, len, ".");
}

static int cmp_run(const void *x, const void *y)
{
    const cJSON *a = *(const cJSON *const *)x, *b = *(const cJSON *const *)y;
    return strcmp(jstr_at(a, "scenario", NULL), jstr_at(b, "scenario", NULL));
}

/* Outputs go through the atomic writer (util.h, docs/SECURITY.md D1): a merge that
 * is killed or runs out of space leaves no torn junit.xml for CI to
 * publish.  The open file, or NULL (message on stderr). */
static FILE *open_out(struct runner_out *o, const char *dir, const char *name)
{
    char path[PATH_MAX + 64];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return runner_out_open(o, path) ? NULL : o->f;
}

static int close_out(struct runner_out *o)
{
    return runner_out_commit(o) ? -EIO : 0;
}

/* each suite's tests, failed, skipped and todo cases */
struct mg_counts {
    int t, fl, sk, td;
};

/* One pass over the cases, not one per suite (a 64 MiB input can hold a
 * million of each).  A new array of m->nsuites, or NULL. */
static struct mg_counts *suite_counts(const struct mg *m)
{
    struct mg_counts *n = calloc(m->nsuites ? (size_t)m->nsuites : 1, sizeof(*n));

    if (!n)
        return NULL;
    for (int c = 0; c < m->ncases; c++) {
        struct mg_counts *k = &n[m->cases[c].shard];
        k->t++;
        k->fl += m->cases[c].status == MG_FAIL;
        k->sk += m->cases[c].status == MG_SKIP;
        k->td += m->cases[c].status == MG_TODO;
    }
    return n;
}

static const char *status_word(enum mg_status s)
{
    return s == MG_FAIL ? "FAIL" : s == MG_SKIP ? "SKIP" : s == MG_TODO ? "TODO" : "PASS";
}

/* report.md or index.html: the verdict, the shards, what failed or did
 * not run, every case (HTML), and the runs with a link to each report. */
static int merge_page(const struct mg *m, const cJSON *runs, const struct mg_counts *cnt, const char *out,
                      enum doc_fmt fmt)
{
    static const char *const shard_heads[] = { "shard", "tests", "failed", "skipped", "todo", "time (s)" };
    static const char *const case_heads[] = { "scenario", "class", "shard", "result", "time (s)" };
    static const char *const run_heads[] = { "scenario", "firmware", "verdict", "Mb/s", "findings", "run" };
    static const char *const list_heads[] = { "Failed", "Skipped (did not run: not a pass)",
                                              "TODO (scenarios marked todo: known gaps, not counted)" };
    static const enum mg_status list_status[] = { MG_FAIL, MG_SKIP, MG_TODO };
    const int list_count[] = { m->failed, m->skipped, m->todo };
    const char *verdict = m->pass ? "PASS" : "FAIL";
    char rel[PATH_MAX], href[PATH_MAX + 32];
    struct runner_out o;
    struct doc doc, *d = &doc;
    const cJSON *p, *r;
    FILE *f;

    if (!(f = open_out(&o, out, fmt == DOC_HTML ? "index.html" : "report.md")))
        return -EIO;
    doc_init(d, f, fmt);
    doc_begin(d, m->pass ? "qemu-test PASS" : "qemu-test FAIL");
    if (doc_html(d))
        fprintf(f, "<h1>qemu-test: <span class=\"%s\">%s</span></h1>\n", verdict, verdict);
    else
        doc_heading(d, 1, "qemu-test: %s %s", m->pass ? "\u2705" : "\u274c", verdict);
    doc_p_open(d);
    doc_textf(d, "%d scenarios in %d of %d shards: ", m->tests, m->nsuites, m->n);
    fputs(doc_html(d) ? "<b>" : "**", f);
    doc_textf(d, "%d passed, %d failed, %d skipped, %d todo", m->passed, m->failed, m->skipped, m->todo);
    fputs(doc_html(d) ? "</b>" : "**", f);
    doc_textf(d, ", %.0f s of shard time.%s", m->time, m->skips_fail ? " CI=true: a skip fails the run." : "");
    doc_p_close(d);
    if (cJSON_GetArraySize(m->problems)) {
        doc_heading(d, 2, "Shard problems");
        doc_list_open(d);
        cJSON_ArrayForEach(p, m->problems) {
            doc_li_open(d);
            doc_text(d, p->valuestring);
            doc_li_close(d);
        }
        doc_list_close(d);
    }
    doc_heading(d, 2, "Shards");
    doc_table(d, 6, shard_heads, "lrrrrr");
    for (int i = 0; i < m->nsuites; i++) {
        doc_tr(d);
        doc_tdf(d, "%d/%d", m->suites[i].k, m->suites[i].n);
        doc_tdf(d, "%d", cnt[i].t);
        doc_tdf(d, "%d", cnt[i].fl);
        doc_tdf(d, "%d", cnt[i].sk);
        doc_tdf(d, "%d", cnt[i].td);
        doc_tdf(d, "%.0f", isnan(m->suites[i].time) ? 0 : m->suites[i].time);
    }
    doc_table_end(d);
    for (size_t l = 0; l < sizeof(list_status) / sizeof(list_status[0]); l++) {
        if (!list_count[l])
            continue;
        doc_heading(d, 2, "%s", list_heads[l]);
        doc_list_open(d);
        for (int c = 0; c < m->ncases; c++)
            if (m->cases[c].status == list_status[l]) {
                const struct mg_case *k = &m->cases[c];
                doc_li_open(d);
                doc_textf(d, "%s (%s, shard %d/%d)%s%s", k->name, k->classname, m->suites[k->shard].k,
                          m->suites[k->shard].n, k->status == MG_FAIL ? "" : ": ", k->status == MG_FAIL ? "" : k->why);
                doc_li_close(d);
            }
        doc_list_close(d);
    }
    if (doc_html(d)) {      /* every case: the page a CI artifact opens on */
        doc_heading(d, 2, "Testcases");
        doc_table(d, 5, case_heads, "lllll");
        for (int c = 0; c < m->ncases; c++) {
            const struct mg_case *k = &m->cases[c];
            doc_tr(d);
            doc_td(d, k->name);
            doc_td(d, k->classname);
            doc_tdf(d, "%d/%d", m->suites[k->shard].k, m->suites[k->shard].n);
            doc_td_open(d, status_word(k->status));
            doc_text(d, status_word(k->status));
            if (k->status == MG_SKIP || k->status == MG_TODO) {
                doc_text(d, ": ");
                doc_text(d, k->why);
            }
            doc_tdf(d, "%.0f", isnan(k->time) ? 0 : k->time);
        }
        doc_table_end(d);
    }
    if (cJSON_GetArraySize(runs)) {
        doc_heading(d, 2, "Runs");
        doc_table(d, 6, run_heads, "lllrll");
        cJSON_ArrayForEach(r, runs) {
            const cJSON *c, *bps = cJSON_GetObjectItemCaseSensitive(r, "throughput_bps");
            bool html = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "has_report_html"));
            doc_tr(d);
            doc_td(d, jstr_at(r, "scenario", NULL));
            doc_td(d, jstr_at(r, "firmware", NULL));
            doc_td_open(d, jstr_at(r, "verdict", NULL));
            doc_text(d, jstr_at(r, "verdict", NULL));
            if (cJSON_IsNumber(bps))
                doc_tdf(d, "%.1f", bps->valuedouble / 1e6);
            else
                doc_td(d, "");
            doc_td_open(d, NULL);
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(r, "findings")) {
                if (c != cJSON_GetObjectItemCaseSensitive(r, "findings")->child)
                    doc_text(d, " ");
                doc_text(d, c->valuestring);
            }
            relpath(out, jstr_at(r, "dir", NULL), rel, sizeof(rel));
            snprintf(href, sizeof(href), "%s/%s", rel, html ? "report.html" : "results.json");
            doc_td_open(d, NULL);
            doc_link(d, href, html ? "report" : "results");
        }
        doc_table_end(d);
    }
    doc_end(d);
    return close_out(&o);
}

static int write_outputs(struct mg *m, cJSON *runs, const char *out)
{
    char path[PATH_MAX + 64];
    const char *verdict = m->pass ? "PASS" : "FAIL";
    const cJSON *p;
    struct runner_out o;
    struct mg_counts *cnt;
    cJSON *idx, *sh;
    FILE *f;
    int rc = 0;
    char *text;

    if (!(cnt = suite_counts(m)))
        return -ENOMEM;

    /* JUnit: the shards' suites verbatim, plus one failing case per problem */
    if (!(f = open_out(&o, out, "junit.xml"))) {
        rc = -EIO;
        goto out;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"qemu-test-merged\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.0f\">\n",
            m->tests + cJSON_GetArraySize(m->problems), m->failed + cJSON_GetArraySize(m->problems),
            m->skipped + m->todo, m->time);
    for (int i = 0; i < m->nsuites; i++)
        fprintf(f, "%s\n", m->suites[i].xml);
    if (cJSON_GetArraySize(m->problems)) {
        fprintf(f, "<testsuite name=\"qemu-test-merge\" tests=\"%d\" failures=\"%d\" skipped=\"0\" time=\"0\">\n",
                cJSON_GetArraySize(m->problems), cJSON_GetArraySize(m->problems));
        int i = 0;
        cJSON_ArrayForEach(p, m->problems) {
            fprintf(f, "  <testcase classname=\"qemu-test.merge\" name=\"shards-%d\"><failure message=\"", ++i);
            runner_html_esc(f, p->valuestring);
            fprintf(f, "\"/></testcase>\n");
        }
        fprintf(f, "</testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    rc |= close_out(&o);

    /* index.json */
    idx = cJSON_CreateObject();
    cJSON_AddStringToObject(idx, "schema", "gemlab-merge-1");
    cJSON_AddStringToObject(idx, "verdict", verdict);
    cJSON_AddNumberToObject(idx, "shards_expected", m->n);
    cJSON_AddNumberToObject(idx, "tests", m->tests);
    cJSON_AddNumberToObject(idx, "passed", m->passed);
    cJSON_AddNumberToObject(idx, "failed", m->failed);
    cJSON_AddNumberToObject(idx, "skipped", m->skipped);
    cJSON_AddNumberToObject(idx, "todo", m->todo);
    cJSON_AddBoolToObject(idx, "skips_fail", m->skips_fail);
    cJSON_AddNumberToObject(idx, "time_s", m->time);
    cJSON_AddItemToObject(idx, "problems", cJSON_Duplicate(m->problems, 1));
    /* what did not run, and why: skips and todos by name */
    sh = cJSON_AddArrayToObject(idx, "not_run");
    for (int c = 0; c < m->ncases; c++)
        if (m->cases[c].status == MG_SKIP || m->cases[c].status == MG_TODO) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "name", m->cases[c].name);
            cJSON_AddStringToObject(s, "classname", m->cases[c].classname);
            cJSON_AddStringToObject(s, "shard", m->suites[m->cases[c].shard].name);
            cJSON_AddStringToObject(s, "status", m->cases[c].status == MG_TODO ? "todo" : "skipped");
            cJSON_AddStringToObject(s, "why", m->cases[c].why);
            cJSON_AddItemToArray(sh, s);
        }
    sh = cJSON_AddArrayToObject(idx, "shards");
    for (int i = 0; i < m->nsuites; i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "name", m->suites[i].name);
        cJSON_AddStringToObject(s, "file", m->suites[i].file);
        cJSON_AddNumberToObject(s, "k", m->suites[i].k);
        cJSON_AddNumberToObject(s, "n", m->suites[i].n);
        cJSON_AddNumberToObject(s, "tests", cnt[i].t);
        cJSON_AddNumberToObject(s, "failed", cnt[i].fl);
        cJSON_AddNumberToObject(s, "skipped", cnt[i].sk);
        cJSON_AddNumberToObject(s, "todo", cnt[i].td);
        if (!isnan(m->suites[i].time))
            cJSON_AddNumberToObject(s, "time_s", m->suites[i].time);
        cJSON_AddItemToArray(sh, s);
    }
    cJSON_AddItemToObject(idx, "runs", cJSON_Duplicate(runs, 1));
    text = cJSON_Print(idx);
    snprintf(path, sizeof(path), "%s/index.json", out);
    rc |= runner_write_text(path, text);
    free(text);
    cJSON_Delete(idx);

    rc |= merge_page(m, runs, cnt, out, DOC_MD);
    rc |= merge_page(m, runs, cnt, out, DOC_HTML);
out:
    free(cnt);
    return rc ? -EIO : 0;
}

/* One INPUT into @m and @runs: a shard's output directory (walked for
 * JUnit files and run directories) or a JUnit file.  0 or a negative
 * errno (message on @err). */
static int read_input(struct mg *m, cJSON *runs, const char *in, FILE *err)
{
    struct stat st;
    size_t len;
    char *text;
    int rc;

    if (stat(in, &st)) {
        rc = -errno;
        fprintf(err, "gemlab merge: %s: %s\n", in, strerror(-rc));
        return rc;
    }
    if (S_ISDIR(st.st_mode)) {
        int before = m->nsuites, rb = cJSON_GetArraySize(runs),
            ib = cJSON_GetArraySize(m->incomplete) + cJSON_GetArraySize(m->unreadable);
        walk_m = m;
        walk_runs = runs;
        walk_rc = 0;
        walk_err = err;
        if (nftw(in, visit, 16, FTW_PHYS)) {
            fprintf(err, "gemlab merge: %s: cannot walk: %s\n", in, strerror(errno));
            return -EIO;
        }
        if (m->nsuites == before && cJSON_GetArraySize(runs) == rb &&
            cJSON_GetArraySize(m->incomplete) + cJSON_GetArraySize(m->unreadable) == ib) {
            fprintf(err, "gemlab merge: %s: no JUnit file and no run directory in it\n", in);
            return -EINVAL;
        }
        return walk_rc;
    }
    text = slurp(in, &len, err);
    rc = !text ? -EIO : add_junit(m, text, len, in, false, err) ? -EINVAL : 0;
    free(text);
    return rc;
}

/* @runs sorted by scenario (a new array; @runs is freed), or NULL */
static cJSON *sort_runs(cJSON *runs)
{
    int n = cJSON_GetArraySize(runs), j = 0;
    cJSON **v = calloc((size_t)n + 1, sizeof(*v)), *sorted, *it;

    if (!v)
        return NULL;
    sorted = cJSON_CreateArray();
    cJSON_ArrayForEach(it, runs) v[j++] = it;
    qsort(v, (size_t)n, sizeof(*v), cmp_run);
    for (j = 0; j < n; j++)
        cJSON_AddItemToArray(sorted, cJSON_Duplicate(v[j], 1));
    free(v);
    cJSON_Delete(runs);
    return sorted;
}

/* The runs a qemu-test case names (classname "qemu-test.FIRMWARE", name
 * the scenario's, _control included), when any case is qemu-test's: a
 * shard's output directory also holds the run directories of earlier
 * runs (`make qemu-test SCENARIO=x` leaves the others in place), which
 * the verdict, taken from the JUnit, does not judge; listed, a stale
 * FAIL stood under a PASS (a blind user merged 104 runs for 4 cases).
 * *@left counts the runs left out.  Frees @runs. */
static cJSON *runs_in_junit(const struct mg *m, cJSON *runs, int *left)
{
    static const char pfx[] = "qemu-test.";
    cJSON *kept, *r;
    bool any = false;

    *left = 0;
    for (int i = 0; i < m->ncases && !any; i++)
        any = !strncmp(m->cases[i].classname, pfx, sizeof(pfx) - 1);
    if (!any)
        return runs;
    kept = cJSON_CreateArray();
    cJSON_ArrayForEach(r, runs) {
        const char *sc = jstr_at(r, "scenario", NULL), *fw = jstr_at(r, "firmware", NULL);
        bool named = false;
        for (int i = 0; i < m->ncases && !named; i++)
            named = !strncmp(m->cases[i].classname, pfx, sizeof(pfx) - 1) &&
                    !strcmp(m->cases[i].classname + sizeof(pfx) - 1, fw) && !strcmp(m->cases[i].name, sc);
        if (named)
            cJSON_AddItemToArray(kept, cJSON_Duplicate(r, 1));
        else
            (*left)++;
    }
    cJSON_Delete(runs);
    return kept;
}

/* --out one of the INPUT directories: the merge goes beside the runs it
 * links to (their links stay relative); that directory is the user's
 * choice, not a stray one. */
static bool out_is_input(const struct mg_opts *o)
{
    struct stat so, si;

    if (stat(o->out, &so) || !S_ISDIR(so.st_mode))
        return false;
    for (int i = 0; i < o->ninputs; i++)
        if (!stat(o->inputs[i], &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return true;
    return false;
}

int mg_merge(const struct mg_opts *o, bool *pass, FILE *out, FILE *err)
{
    struct mg m;
    cJSON *runs, *sorted;
    const cJSON *p;
    int rc = 0, left = 0;

    memset(&m, 0, sizeof(m));
    m.expect_n = o->expect_n;
    m.skips_fail = o->skips_fail;
    *pass = false;
    runs = cJSON_CreateArray();
    for (int i = 0; i < o->ninputs; i++)
        if ((rc = read_input(&m, runs, o->inputs[i], err)))
            goto done;
    if (!(sorted = sort_runs(runs))) {
        rc = -ENOMEM;
        goto done;
    }
    runs = runs_in_junit(&m, sorted, &left);
    mg_evaluate(&m);
    if (!out_is_input(o) && (rc = runner_take_out_dir(o->out, "merge", "index.json", 0755))) {
        fprintf(err, "gemlab merge: --out %s: %s\n", o->out,
                rc == -EEXIST ? "holds other files and no merge: give a new or empty directory" : strerror(-rc));
        rc = -EIO;
        goto done;
    }
    if ((rc = write_outputs(&m, runs, o->out)))
        goto done;
    cJSON_ArrayForEach(p, m.problems) fprintf(err, "gemlab merge: %s\n", p->valuestring);
    if (left)
        fprintf(out, "merge: %d run director%s that no shard's JUnit names (an earlier run's) left out of "
                     "the report\n", left, left == 1 ? "y" : "ies");
    fprintf(out,
            "merge: %s: %d scenarios in %d of %d shards, %d passed, %d failed, %d skipped, %d todo; %s/report.md\n",
            m.pass ? "PASS" : "FAIL", m.tests, m.nsuites, m.n, m.passed, m.failed, m.skipped, m.todo, o->out);
    *pass = m.pass;
done:
    cJSON_Delete(runs);
    mg_free(&m);
    return rc;
}
