/*
 * report.c - `gemlab report`: report.md and a self-contained report.html
 * with gnuplot SVG charts, per run and side by side.  See report.h.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diagnose.h"
#include "doc.h"
#include "report.h"
#include "results_schema.h"
#include "util.h"

/* ---- small helpers ---- */

static double jnum(const cJSON *root, const char *path)
{
    const cJSON *j = runner_results_get(root, path);
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

static const char *js(const cJSON *root, const char *path)
{
    const cJSON *j = runner_results_get(root, path);
    return cJSON_IsString(j) ? j->valuestring : "";
}

/* value as short text: numbers %g, strings as-is, others JSON */
static void jtext(const cJSON *v, char *out, size_t len)
{
    if (cJSON_IsNumber(v))
        snprintf(out, len, "%.6g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(out, len, "%s", v->valuestring);
    else if (cJSON_IsBool(v))
        snprintf(out, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (!v || cJSON_IsNull(v))
        snprintf(out, len, "-");
    else {
        char *t = cJSON_PrintUnformatted(v);
        snprintf(out, len, "%s", t ? t : "?");
        free(t);
    }
}

static void mbps(char *out, size_t len, double bps)
{
    if (isnan(bps))
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%.1f", bps / 1e6);
}

/* a count, or "-" when unknown */
static void num_text(char *out, size_t len, double v)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else
        snprintf(out, len, "%g", v);
}

/* @v with @prec digits after the point (and its sign, with @sign), or
 * "-" when unknown: a report never says "nan" */
static void fixed_text(char *out, size_t len, double v, int prec, bool sign)
{
    if (isnan(v))
        snprintf(out, len, "-");
    else if (sign)
        snprintf(out, len, "%+.*f", prec, v);
    else
        snprintf(out, len, "%.*f", prec, v);
}

/* A per-core figure list, "88.8 / 16.5" (a -P sweep test's cpu_busy_pct or
 * cpu_softirq_pct), or "-". */
static void percore_text(char *out, size_t len, const cJSON *e, const char *key)
{
    const cJSON *c;
    size_t n = 0;

    snprintf(out, len, "-");
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(e, key)) {
        if (!cJSON_IsNumber(c) || n >= len)
            continue;
        n += (size_t)snprintf(out + n, len - n, "%s%.1f", n ? " / " : "", c->valuedouble);
    }
}

static void percore_cell(char *out, size_t len, const cJSON *v, int decimals)
{
    if (cJSON_IsNumber(v))
        snprintf(out, len, "%.*f", decimals, v->valuedouble);
    else
        snprintf(out, len, "-");
}

/* The per-core table's rows at most: a Zynq-7000 has two cores; a
 * crafted results.json with a long list gets a bounded table (and no
 * quadratic walk of cJSON_GetArrayItem). */
#define PERCORE_ROWS_MAX 16

/* Row i of the per-core table (Linux agent: cpu.busy_pct, cpu.softirq_pct,
 * irq.gem_per_cpu): its three cells, "-" where a figure is missing.
 * False past the last core any of them has. */
static bool percore_row(const cJSON *res, int i, char busy[16], char sirq[16], char irqs[24])
{
    const cJSON *b, *s, *q;

    if (i >= PERCORE_ROWS_MAX)
        return false;
    b = cJSON_GetArrayItem(runner_json_path(res, RS(CPU_BUSY_PCT)), i);
    s = cJSON_GetArrayItem(runner_json_path(res, RS(CPU_SOFTIRQ_PCT)), i);
    q = cJSON_GetArrayItem(runner_json_path(res, RS(IRQ_GEM_PER_CPU)), i);
    if (!b && !s && !q)
        return false;
    percore_cell(busy, 16, b, 1);
    percore_cell(sirq, 16, s, 1);
    percore_cell(irqs, 24, q, 0);
    return true;
}

/* a label gnuplot can quote: [A-Za-z0-9 ._#/+-] */
static void plot_label(char *s)
{
    for (; *s; s++)
        if (!(((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9') || strchr(" ._#/+-", *s)))
            *s = '_';
}

/* ---- iperf interval parsing ---- */

static struct rp_series *series(struct rp_streams *st, const char *label)
{
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->s[i].label, label))
            return &st->s[i];
    if (st->n >= RP_MAX_STREAMS)
        return NULL;
    struct rp_series *s = &st->s[st->n++];
    memset(s, 0, sizeof(*s));
    snprintf(s->label, sizeof(s->label), "%s", label);
    plot_label(s->label);
    return s;
}

static void point(struct rp_series *s, double t, double bps, double jit, double lost)
{
    if (!s || s->n >= RP_MAX_POINTS)
        return;
    s->t[s->n] = t;
    s->bps[s->n] = bps;
    s->jitter_ms[s->n] = jit;
    s->lost_pct[s->n] = lost;
    s->n++;
}

static const char *base_of(const char *file)
{
    const char *b = strrchr(file, '/');
    return b ? b + 1 : file;
}

void rp_parse_iperf2_csv(const char *text, const char *file, struct rp_streams *st)
{
    const char *line = text;

    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512], *fld[16], *save = NULL, *tok;
        int nf = 0;

        if (len < sizeof(buf)) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            for (tok = strtok_r(buf, ",\r", &save); tok && nf < 16; tok = strtok_r(NULL, ",\r", &save))
                fld[nf++] = tok;
            if (nf >= 9) {
                double a, b;
                long lid = strtol(fld[5], NULL, 10);    /* not atoi(): "4294967295" is no -1 */
                int id = lid > INT_MAX ? INT_MAX : lid < INT_MIN ? INT_MIN : (int)lid;
                if (sscanf(fld[6], "%lf-%lf", &a, &b) == 2 && b > a && b - a <= 1.5) {
                    char label[48];
                    double jit = NAN, lost = NAN;
                    if (nf >= 13) {
                        jit = strtod(fld[9], NULL);
                        lost = strtod(fld[12], NULL);
                    }
                    if (id < 0)
                        snprintf(label, sizeof(label), "%s sum", base_of(file));
                    else
                        snprintf(label, sizeof(label), "%s #%d", base_of(file), id);
                    point(series(st, label), b, strtod(fld[8], NULL), jit, lost);
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
}

void rp_parse_iperf3_json(const char *text, const char *file, struct rp_streams *st)
{
    cJSON *root = cJSON_Parse(text);
    const cJSON *iv, *s;

    if (!root)
        return;
    cJSON_ArrayForEach(iv, cJSON_GetObjectItemCaseSensitive(root, "intervals")) {
        const cJSON *sum = cJSON_GetObjectItemCaseSensitive(iv, "sum");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sum, "omitted")))
            continue;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(iv, "streams")) {
            char label[48];
            double sock = jnum(s, "socket");
            /* no (int) of NaN or of a huge number: undefined (C11 6.3.1.4) */
            if (isfinite(sock) && sock >= 0 && sock <= INT_MAX)
                snprintf(label, sizeof(label), "%s #%d", base_of(file), (int)sock);
            else
                snprintf(label, sizeof(label), "%s #unknown", base_of(file));
            point(series(st, label), jnum(s, "end"), jnum(s, "bits_per_second"), jnum(s, "jitter_ms"),
                  jnum(s, "lost_percent"));
        }
    }
    cJSON_Delete(root);
}

/* iperf-2.csv before iperf-10.csv: runs of digits compare as numbers.  A
 * size sweep numbers its files in the order of its sizes, and the charts
 * label series i with size i; alphasort put iperf-10 and iperf-11 before
 * iperf-2, and a sweep of 10 sizes or more was labelled wrongly. */
static int by_number(const struct dirent **a, const struct dirent **b)
{
    const char *x = (*a)->d_name, *y = (*b)->d_name;

    while (*x && *y) {
        if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
            size_t nx, ny;
            int c;
            while (*x == '0' && isdigit((unsigned char)x[1]))
                x++;
            while (*y == '0' && isdigit((unsigned char)y[1]))
                y++;
            nx = strspn(x, "0123456789");
            ny = strspn(y, "0123456789");
            if (nx != ny)
                return nx < ny ? -1 : 1;
            if ((c = strncmp(x, y, nx)))
                return c;
            x += nx;
            y += ny;
        } else if (*x != *y)
            return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
        else {
            x++;
            y++;
        }
    }
    return (unsigned char)*x - (unsigned char)*y;
}

static void load_streams(const char *dir, struct rp_streams *st)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_number);

    memset(st, 0, sizeof(*st));
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        size_t l = strlen(name);
        if (!strncmp(name, "iperf", 5) && l > 4 && (!strcmp(name + l - 4, ".csv") || !strcmp(name + l - 5, ".json"))) {
            char path[PATH_MAX];
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            char *text = runner_read_file(path, 64u << 20, NULL);
            if (text) {
                if (!strcmp(name + l - 4, ".csv"))
                    rp_parse_iperf2_csv(text, name, st);
                else
                    rp_parse_iperf3_json(text, name, st);
            }
            free(text);
        }
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
}

/* the firmware's latency result from console.log (docs/schema.md) */
static cJSON *load_latency(const char *dir)
{
    char path[PATH_MAX];
    char *text, *p;
    cJSON *found = NULL;

    snprintf(path, sizeof(path), "%s/console.log", dir);
    if (!(text = runner_read_file(path, 64u << 20, NULL)))
        return NULL;
    for (p = text; (p = strstr(p, "@gemlab {"));) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (strstr(p, "\"test\":\"latency\"") && strstr(p, "\"type\":\"result\"")) {
            cJSON *j = cJSON_Parse(p + 8);
            if (j) {
                cJSON_Delete(found);
                found = j;
            }
        }
        if (!end)
            break;
        p = end + 1;
    }
    free(text);
    return found;
}

/* ---- gnuplot ---- */

/* Run gnuplot on @script in @dir: 0, -ENOENT (not installed), -EIO. */
static int gnuplot(const char *dir, const char *script)
{
    pid_t pid = fork();
    int status;

    if (pid < 0)
        return -EIO;
    if (pid == 0) {
        int fd;
        if (chdir(dir))
            _exit(126);
        fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        fd = open("/dev/null", O_RDONLY);
        if (fd >= 0)
            dup2(fd, 0);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    for (int ms = 0; ms < 60000; ms += 10) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
                return -ENOENT;
            return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
        }
        if (w < 0)
            return -EIO;
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -EIO;
}

struct charts {
    char dir[PATH_MAX + 16];
    int made, failed;
    bool missing;           /* gnuplot not installed */
    char names[8][64], titles[8][96];
    int n;
};

/* A chart's data or script file in c->dir, created or truncated; a
 * symlink planted there (an unpacked artifact) is not followed. */
static FILE *chart_file(struct charts *c, const char *name, const char *mode)
{
    char path[PATH_MAX + 64];
    FILE *f;
    int fd;

    (void)mode;
    snprintf(path, sizeof(path), "%s/%s", c->dir, name);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return NULL;
    if (!(f = fdopen(fd, "w")))
        close(fd);
    return f;
}

static const char *PREAMBLE =
    "set terminal svg size 860,320 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
    "set grid\nset key outside right top\nset datafile missing 'NaN'\nset border 3\nset tics nomirror\n";

/* write NAME.gp (@body after the preamble and output) and run it */
static void chart(struct charts *c, const char *name, const char *title, const char *body)
{
    char gp[64], svg[64];
    FILE *f;

    if (c->missing || c->n >= 8)
        return;
    snprintf(gp, sizeof(gp), "%s.gp", name);
    snprintf(svg, sizeof(svg), "%s.svg", name);
    if (!(f = chart_file(c, gp, "w"))) {
        c->failed++;
        return;
    }
    {   /* gnuplot creates the SVG itself: no planted symlink in its way */
        char svgp[PATH_MAX + 128];
        snprintf(svgp, sizeof(svgp), "%s/%s", c->dir, svg);
        unlink(svgp);
    }
    fprintf(f, "%sset output '%s'\nset title '%s'\n%s", PREAMBLE, svg, title, body);
    if (fclose(f)) {
        c->failed++;
        return;
    }
    switch (gnuplot(c->dir, gp)) {
    case 0:
        snprintf(c->names[c->n], sizeof(c->names[0]), "%s", svg);
        snprintf(c->titles[c->n], sizeof(c->titles[0]), "%s", title);
        c->n++;
        c->made++;
        break;
    case -ENOENT:
        c->missing = true;
        break;
    default:
        c->failed++;
    }
}

/* inline one SVG (from "<svg" on) */
static void inline_svg(FILE *out, const char *dir, const char *name)
{
    char path[PATH_MAX + 64];
    char *text, *p;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (!(text = runner_read_file(path, 64u << 20, NULL)))
        return;
    p = strstr(text, "<svg");
    if (p)
        fputs(p, out);
    free(text);
}

/* ---- one run ---- */

struct run_data {
    char dir[PATH_MAX];
    char out[PATH_MAX];         /* where report.md, report.html and report/ go: dir, or --out */
    cJSON *res, *dg, *cmp, *lat;
    struct rp_streams st;
};

static int load_run(const char *dir, struct run_data *r)
{
    char path[PATH_MAX + 32];
    struct stat sb;

    memset(r, 0, sizeof(*r));
    snprintf(r->dir, sizeof(r->dir), "%s", dir);
    snprintf(r->out, sizeof(r->out), "%s", dir);
    if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "gemlab report: %s: not a run directory\n", dir);
        return -ENOENT;
    }
    if (runner_run_incomplete(dir, stderr))
        return -EINVAL;
    snprintf(path, sizeof(path), "%s/results.json", dir);
    if (dg_load_results(path, &r->res, stderr))
        return -EINVAL;
    snprintf(path, sizeof(path), "%s/diagnosis.json", dir);
    if (access(path, R_OK) == 0 && dg_load_json(path, &r->dg, stderr))
        r->dg = NULL;
    snprintf(path, sizeof(path), "%s/baseline-compare.json", dir);
    if (access(path, R_OK) == 0 && dg_load_json(path, &r->cmp, stderr))
        r->cmp = NULL;
    r->lat = load_latency(dir);
    load_streams(dir, &r->st);
    return 0;
}

static void free_run(struct run_data *r)
{
    cJSON_Delete(r->res);
    cJSON_Delete(r->dg);
    cJSON_Delete(r->cmp);
    cJSON_Delete(r->lat);
    r->res = r->dg = r->cmp = r->lat = NULL;
}

/* ---- the line-rate ceiling every throughput chart draws ----
 *
 * Goodput cannot pass the negotiated line rate R times the share of each
 * frame's wire time that is payload.  Around each IP packet the wire
 * carries 38 bytes: preamble + SFD 8, MAC header 14 and FCS 4 (IEEE
 * 802.3 clause 3.1.1) and the inter-packet gap of 96 bit times = 12
 * (clause 4.4.2); a full 1500-byte packet takes 1538 bytes of wire.  TCP
 * carries MSS bytes of it (dg_ceiling_bps, the rule diagnosis uses: 1448
 * with timestamps, 1460 without), UDP L bytes of an L + 28 packet
 * (docs/BENCHMARKS.md: R x 1470/1536 for 1470-byte datagrams;
 * dg_udp_ceiling_bps).
 * results.json has no measured MSS: the legend says which one it assumed. */
struct ceiling {
    double speed_mbps, bps;
    char legend[192];
};

/* The ceiling for a run's negotiated speed and protocol; false when the
 * run has no speed to draw it at (link never up, no expected speed). */
static bool run_ceiling(const cJSON *res, struct ceiling *ce)
{
    const cJSON *ts = runner_results_get(res, "conditions.tcp_timestamps");
    const char *proto = js(res, "conditions.protocol"), *fw = js(res, "conditions.firmware");
    double sp = jnum(res, RS(LINK_SPEED_MBPS)), len = jnum(res, "conditions.length_bytes");

    bool expected = false;
    char side[32] = "";
    size_t o;

    memset(ce, 0, sizeof(*ce));
    /* no -l in the scenario: the length the tool used (iperf 2's UDP
     * default is 1470, not 1472) */
    if (isnan(len))
        len = jnum(res, RS(IPERF_METHOD_LENGTH_BYTES));
    if (isnan(sp) || sp <= 0 || !cJSON_IsTrue(runner_json_path(res, RS(LINK_UP)))) {
        sp = jnum(res, RS(EXPECT_SPEED_MBPS));
        expected = true;
    }
    /* a hand-edited file may say anything: no ceiling for a speed no
     * Ethernet PHY negotiates (IEEE 802.3 tops out at 800 Gb/s) */
    if (isnan(sp) || sp <= 0 || sp > 800000)
        return false;
    ce->speed_mbps = sp;
    if (cJSON_IsTrue(runner_results_get(res, "conditions.bidir")))
        snprintf(side, sizeof(side), ", per direction");
    if (strcmp(proto, "udp") == 0) {
        if (!isnan(len) && len > 0 && len <= 65507) {
            int n;
            double w;
            ce->bps = dg_udp_ceiling_bps(sp, len, &n, &w);
            o = runner_appendf(ce->legend, sizeof(ce->legend), 0,
                               "line-rate ceiling %.2f Mb/s = %g x %g/%g (UDP, %g-byte datagrams", ce->bps / 1e6, sp,
                               len, w, len);
            if (n > 1)
                o = runner_appendf(ce->legend, sizeof(ce->legend), o, " in %d IP fragments", n);
        } else {
            ce->bps = dg_ceiling_bps(sp, true, false);
            o = runner_appendf(ce->legend, sizeof(ce->legend), 0,
                               "line-rate ceiling %.2f Mb/s = %g x 1472/1538 (UDP, 1472-byte datagrams assumed",
                               ce->bps / 1e6, sp);
        }
    } else {
        /* timestamps: as results say, else Linux uses them and lwIP does not (diagnose.c) */
        bool on = cJSON_IsBool(ts) ? cJSON_IsTrue(ts) : strcmp(fw, "linux") == 0;
        ce->bps = dg_ceiling_bps(sp, false, on);
        o = runner_appendf(ce->legend, sizeof(ce->legend), 0,
                           "line-rate ceiling %.2f Mb/s = %g x %d/1538 (TCP, MSS %d: %s%s", ce->bps / 1e6, sp,
                           on ? 1448 : 1460, on ? 1448 : 1460, on ? "with timestamps" : "no timestamps",
                           cJSON_IsBool(ts) ? "" : " assumed");
    }
    runner_appendf(ce->legend, sizeof(ce->legend), o, "%s%s)", expected ? ", expected speed: link not up" : "", side);
    return true;
}

/* "CEILING with lines ... title 'PREFIXLEGEND'" for a plot command: a
 * dashed horizontal line (the caller's plot sets the x range), red; a
 * side-by-side chart with several ceilings gives each its own @style. */
static size_t ceiling_term(char *out, size_t len, const struct ceiling *ce, int style, const char *prefix)
{
    static const char *const colour[] = { "#cc0000", "#e07000", "#008060", "#5030c0" };

    style %= 4;
    return runner_appendf(out, len, 0, "%.6g with lines dt %d lw 2 lc rgb '%s' title '%s%s'", ce->bps / 1e6,
                          2 + style, colour[style], prefix, ce->legend);
}

static void run_charts(struct run_data *r, struct charts *c)
{
    const cJSON *iv = runner_json_path(r->res, RS(IPERF_INTERVALS_BPS)), *e, *sw = runner_json_path(r->res, RS(SWEEP));
    const cJSON *ps = runner_json_path(r->res, RS(PARALLEL_SWEEP));
    char body[8192];
    size_t o = 0;
    FILE *f;
    int k;
    bool any_udp = false;
    struct ceiling ce;
    bool has_ce = run_ceiling(r->res, &ce);

    /* throughput over time: per stream and the summed series, under the
     * line-rate ceiling (key below the plot: the formula is long) */
    if (cJSON_GetArraySize(iv) > 0 || r->st.n > 0) {
        o = (size_t)snprintf(body, sizeof(body), "set xlabel 'time (s)'\nset ylabel 'Mb/s'\nset yrange [0:*]\n%splot ",
                             has_ce ? "set key below left Left reverse\n" : "");
        /* a sweep's tests ran one after another: their sum is no rate */
        if (cJSON_GetArraySize(iv) > 0 && cJSON_GetArraySize(sw) == 0 && cJSON_GetArraySize(ps) == 0 &&
            (f = chart_file(c, "tput_sum.dat", "w"))) {
            double omit = jnum(r->res, "conditions.omit_s");
            /* both directions at once (-d): the intervals are the board's
             * receiving half; called "sum" beside a headline of both
             * halves, an RX of 0.4 Mb/s read as the whole run */
            bool bidir = cJSON_IsTrue(runner_results_get(r->res, "conditions.bidir"));
            k = 0;
            fprintf(f, "# t_s Mb/s (%s, results.json iperf.intervals_bps)\n",
                    bidir ? "the board's receiving half of -d" : "summed");
            cJSON_ArrayForEach(e, iv) {
                k++;
                if (cJSON_IsNumber(e))
                    fprintf(f, "%g %.6g\n", (isnan(omit) ? 0 : omit) + k, e->valuedouble / 1e6);
            }
            fclose(f);
            o += (size_t)snprintf(body + o, sizeof(body) - o,
                                  "'tput_sum.dat' using 1:2 with linespoints lw 3 pt 7 title '%s', ",
                                  bidir ? "board RX (-d: the TX half is not sampled)" : "sum");
        }
        for (int i = 0; i < r->st.n && o < sizeof(body) - 200; i++) {
            char name[32];
            snprintf(name, sizeof(name), "tput_%d.dat", i);
            if (!(f = chart_file(c, name, "w")))
                continue;
            /* a size sweep runs one test per size, in order: label by size */
            if (cJSON_GetArraySize(sw) == r->st.n) {
                snprintf(r->st.s[i].label, sizeof(r->st.s[i].label), "%g-byte test",
                         jnum(cJSON_GetArrayItem(sw, i), "length_bytes"));
                plot_label(r->st.s[i].label);
            }
            fprintf(f, "# t_s Mb/s jitter_ms lost_pct (%s)\n", r->st.s[i].label);
            for (int p = 0; p < r->st.s[i].n; p++) {
                fprintf(f, "%g %.6g %.6g %.6g\n", r->st.s[i].t[p], r->st.s[i].bps[p] / 1e6, r->st.s[i].jitter_ms[p],
                        r->st.s[i].lost_pct[p]);
                if (r->st.s[i].jitter_ms[p] > 0 || r->st.s[i].lost_pct[p] > 0)
                    any_udp = true;
            }
            fclose(f);
            o += (size_t)snprintf(body + o, sizeof(body) - o, "'%s' using 1:2 with lines lw 1.5 title '%s', ", name,
                                  r->st.s[i].label);
        }
        if (o > 2 && body[o - 2] == ',') {
            if (has_ce && o < sizeof(body) - 256) {
                o += ceiling_term(body + o, sizeof(body) - o, &ce, 0, "");
                snprintf(body + o, sizeof(body) - o, "\n");
            } else {
                body[o - 2] = '\n';
                body[o - 1] = '\0';
            }
            chart(c, "throughput", "Throughput over time (per stream and summed)", body);
        }
    }
    /* UDP loss and jitter over time (receiver-side intervals only) */
    if (any_udp) {
        o = (size_t)snprintf(body, sizeof(body), "set xlabel 'time (s)'\nset ylabel 'lost %%'\nset y2label "
                                                 "'jitter (ms)'\nset y2tics\nset yrange [0:*]\nset y2range [0:*]\nplot ");
        for (int i = 0; i < r->st.n && o < sizeof(body) - 300; i++)
            o += (size_t)snprintf(body + o, sizeof(body) - o,
                                  "'tput_%d.dat' using 1:4 with linespoints title 'lost %% %s', "
                                  "'tput_%d.dat' using 1:3 axes x1y2 with linespoints dt 2 title 'jitter %s', ",
                                  i, r->st.s[i].label, i, r->st.s[i].label);
        body[o - 2] = '\n';
        body[o - 1] = '\0';
        chart(c, "udp", "UDP loss and jitter over time", body);
    }
    /* link timeline: speed (0 = down), flaps marked */
    if (cJSON_GetArraySize(runner_json_path(r->res, RS(LINK_EVENTS))) > 0 && (f = chart_file(c, "link.dat", "w"))) {
        FILE *fl = chart_file(c, "flaps.dat", "w");
        double last_t = 0, last_v = 0, dur = jnum(r->res, "conditions.duration_s");
        bool was_up = false;
        int nflaps = 0;
        fprintf(f, "# t_s speed_mbps (0: link down)\n0 0\n");
        if (fl)
            fprintf(fl, "# t_s of each link-down after the first link-up\n");
        cJSON_ArrayForEach(e, runner_json_path(r->res, RS(LINK_EVENTS))) {
            double t = jnum(e, "t_s"), sp = jnum(e, "speed_mbps");
            bool up = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "up"));
            if (isnan(t))
                continue;
            last_v = up ? (isnan(sp) ? 1 : sp) : 0;
            fprintf(f, "%g %g\n", t, last_v);
            if (!up && was_up && fl) {
                fprintf(fl, "%g 0\n", t);
                nflaps++;
            }
            was_up = was_up || up;
            last_t = t;
        }
        fprintf(f, "%g %g\n", last_t + (isnan(dur) ? 5 : dur), last_v);
        fclose(f);
        if (fl)
            fclose(fl);
        snprintf(body, sizeof(body),
                 "set xlabel 'time since boot (s)'\nset ylabel 'negotiated Mb/s'\nset yrange [-60:1100]\n"
                 "set ytics ('down' 0, '100' 100, '1000' 1000)\n"
                 "plot 'link.dat' using 1:2 with steps lw 2 title 'link speed (0 = down)'%s\n",
                 nflaps ? ", 'flaps.dat' using 1:2 with points pt 7 ps 1.5 lc rgb '#cc0000' title 'flap (link down)', "
                          "'flaps.dat' using 1:(1050):(sprintf('flap %.1fs', $1)) with labels tc rgb '#cc0000' "
                          "notitle, 'flaps.dat' using 1:(-60):(0):(1110) with vectors nohead dt 2 lc rgb '#cc0000' "
                          "notitle"
                        : "");
        chart(c, "link", "Negotiated link timeline", body);
    }
    /* latency histogram */
    if (r->lat && cJSON_GetArraySize(runner_json_path(r->lat, "hist.buckets")) > 0 && (f = chart_file(c, "latency.dat", "w"))) {
        fprintf(f, "# bucket_lower_us count (log2 buckets)\n");
        cJSON_ArrayForEach(e, runner_json_path(r->lat, "hist.buckets"))
            if (cJSON_GetArraySize(e) == 2)
                fprintf(f, "%g %g\n", cJSON_GetArrayItem(e, 0)->valuedouble, cJSON_GetArrayItem(e, 1)->valuedouble);
        fclose(f);
        chart(c, "latency", "Round-trip latency histogram",
              "set xlabel 'RTT (us, log2 buckets)'\nset ylabel 'probes'\nset logscale x 2\nset style fill solid 0.6\n"
              "set yrange [0:*]\nplot 'latency.dat' using ($1*1.41421):2:($1*0.9) with boxes title 'probes'\n");
    }
    /* packet-size sweep */
    if (cJSON_GetArraySize(sw) > 0 && (f = chart_file(c, "sweep.dat", "w"))) {
        fprintf(f, "# length_bytes Mb/s lost_pct\n");
        cJSON_ArrayForEach(e, sw)
            fprintf(f, "%g %.6g %.6g\n", jnum(e, "length_bytes"), jnum(e, "throughput_bps") / 1e6, jnum(e, "udp_lost_pct"));
        fclose(f);
        o = (size_t)snprintf(body, sizeof(body),
                             "set xlabel 'payload (bytes)'\nset ylabel 'Mb/s'\nset logscale x 2\nset yrange [0:*]\n"
                             "%splot 'sweep.dat' using 1:2 with linespoints lw 2 pt 7 title 'goodput'",
                             has_ce ? "set key below left Left reverse\nset samples 400\n" : "");
        if (has_ce && strcmp(js(r->res, "conditions.protocol"), "udp") == 0)
            /* UDP: the ceiling depends on the datagram length L (dg_udp_ceiling_bps;
             * fragments of 1480 data bytes, minimum-frame padding left out) */
            snprintf(body + o, sizeof(body) - o,
                     ", %g*x/(x+%d+ceil((x+%d)/%d.0)*%d) with lines dt 2 lw 2 lc rgb '#cc0000' "
                     "title 'line-rate ceiling %g x L/(L+8+58 x IP fragments) (UDP; 58 = 20 IPv4 + 38 wire)'\n",
                     ce.speed_mbps, DG_UDP_HDR, DG_UDP_HDR, DG_IP_MTU - DG_IPV4_HDR, DG_IPV4_HDR + DG_WIRE_OVERHEAD, ce.speed_mbps);
        else if (has_ce) {
            body[o++] = ',';
            body[o++] = ' ';
            o += ceiling_term(body + o, sizeof(body) - o, &ce, 0, "");
            snprintf(body + o, sizeof(body) - o, "\n");
        } else
            snprintf(body + o, sizeof(body) - o, "\n");
        chart(c, "sweep", "Packet-size sweep", body);
    }
    /* -P sweep: one bar per parallel count (summed goodput of that test) */
    if (cJSON_GetArraySize(ps) > 0 && (f = chart_file(c, "psweep.dat", "w"))) {
        fprintf(f, "# index Mb/s label (results.json parallel_sweep)\n");
        k = 0;
        cJSON_ArrayForEach(e, ps) {
            double b = jnum(e, "throughput_bps");
            if (isnan(b))
                fprintf(f, "%d NaN \"-P %g\"\n", k++, jnum(e, "parallel"));
            else
                fprintf(f, "%d %.6g \"-P %g\"\n", k++, b / 1e6, jnum(e, "parallel"));
        }
        fclose(f);
        o = (size_t)snprintf(body, sizeof(body),
                             "set ylabel 'Mb/s'\nset yrange [0:*]\nset style fill solid 0.6\nset boxwidth 0.6\n"
                             "set xrange [-0.6:%g]\n%s\n"      /* the ceiling spans every bar */
                             "plot 'psweep.dat' using 1:2:xtic(3) with boxes notitle, "
                             "'' using 1:2:(sprintf('%%.1f',$2)) with labels offset 0,0.7 notitle",
                             k - 0.4, has_ce ? "set key below left Left reverse" : "set key off");
        if (has_ce) {
            body[o++] = ',';
            body[o++] = ' ';
            o += ceiling_term(body + o, sizeof(body) - o, &ce, 0, "");
        }
        snprintf(body + o, sizeof(body) - o, "\n");
        chart(c, "psweep", "-P sweep: summed goodput per stream count", body);
    }
}

/* The charts of @c, or the word that gnuplot is missing (HTML only). */
static void charts_section(struct doc *d, const struct charts *c)
{
    doc_heading(d, 2, "Charts");
    if (c->missing)
        doc_p(d, "No charts: gnuplot is not installed (Debian gnuplot-nox; scripts/deps/charts.list).");
    for (int i = 0; i < c->n; i++) {
        fprintf(d->f, "<div class=\"chart\" id=\"chart-%.*s\">\n", (int)(strlen(c->names[i]) - 4), c->names[i]);
        inline_svg(d->f, c->dir, c->names[i]);
        fputs("</div>\n", d->f);
    }
}

static void findings(struct doc *d, const cJSON *dg)
{
    static const char *const heads[] = { "code", "layer", "summary", "evidence", "cause", "remedy" };
    const cJSON *fd, *ev;
    int n = cJSON_GetArraySize(runner_json_path(dg, "findings"));

    doc_heading(d, 2, "Findings (%d)", n);
    if (!n) {
        doc_p(d, "No findings.");
        return;
    }
    doc_table(d, 6, heads, NULL);
    cJSON_ArrayForEach(fd, runner_json_path(dg, "findings")) {
        doc_tr(d);
        doc_td_open(d, NULL);
        doc_code(d, js(fd, "code"));
        doc_td(d, js(fd, "layer"));
        doc_td(d, js(fd, "summary"));
        doc_td_open(d, NULL);
        cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(fd, "evidence")) {
            char v[128];
            jtext(ev, v, sizeof(v));
            if (ev != cJSON_GetObjectItemCaseSensitive(fd, "evidence")->child)
                doc_br(d);
            if (ev->string)     /* an object's member; an array's has no key */
                doc_textf(d, "%s=", ev->string);
            doc_text(d, v);
        }
        doc_td(d, js(fd, "cause"));
        doc_td(d, js(fd, "remedy"));
    }
    doc_table_end(d);
}

static const char *const KV[][2] = {
    { "scenario", "scenario.name" }, { "scenario hash", "scenario.hash" }, { "seed", "seed" },
    { "firmware", "conditions.firmware" }, { "protocol", "conditions.protocol" },
    { "streams (-P)", "conditions.parallel" }, { "traffic", "iperf.source" },
    { "window (bytes)", "conditions.window_bytes" },
    { "duration (s)", "conditions.duration_s" }, { "RX/TX BDs", "conditions.rx_bds" },
    { "net", "conditions.net" }, { "QEMU", "versions.qemu" }, { "QEMU patch set", "versions.qemu_patch" },
    { "models", "versions.models" }, { "firmware version", "versions.firmware" },
    { "firmware options", "versions.firmware_options" },
};

static void kv_text(const cJSON *res, int i, char *v, size_t len)
{
    jtext(runner_results_get(res, KV[i][1]), v, len);
    if (!strcmp(KV[i][0], "traffic") && !strcmp(v, "-")) {
        /* the host's tools: the direction asked (--net pair and sim say
         * which end ran the client, and -R, in iperf.source) */
        const cJSON *rev = runner_results_get(res, "conditions.reverse");
        if (cJSON_IsTrue(runner_results_get(res, "conditions.bidir")))
            snprintf(v, len, "host <-> board, both at once");
        else if (cJSON_IsBool(rev))
            snprintf(v, len, cJSON_IsTrue(rev) ? "board -> host" : "host -> board");
    }
    if (!strcmp(KV[i][0], "RX/TX BDs")) {
        char t[32];
        jtext(runner_results_get(res, "conditions.tx_bds"), t, sizeof(t));
        strncat(v, " / ", len - strlen(v) - 1);
        strncat(v, t, len - strlen(v) - 1);
    }
}

/* TCP segments sent again: the sender's own count (iperf3), else the
 * wire capture's (retransmissions, less spurious ones a reordering or
 * copying path explains);
 * "-" unknown.  @words: "N retransmits" / "N resent on the wire (capture)". */
static void retransmits_text(const cJSON *res, char *out, size_t len, bool words)
{
    double tool = jnum(res, RS(IPERF_RETRANSMITS)), cap = jnum(res, RS(CAPTURE_TCP_RETRANSMITS));
    double spur = jnum(res, RS(CAPTURE_TCP_SPURIOUS_RETRANSMITS));
    bool cut = cJSON_IsTrue(runner_json_path(res, RS(CAPTURE_TRUNCATED)));
    /* as the diagnosis counts them (diagnose.c cap_lost_resent): spurious
     * ones only on a path that reorders or copies are left out */
    if (!(jnum(res, RS(CAPTURE_TCP_OUT_OF_ORDER)) > 0 || jnum(res, RS(CAPTURE_TCP_DUPLICATES)) > 0))
        spur = 0;

    if (!isnan(tool))
        snprintf(out, len, words ? "%g retransmits" : "%g", tool);
    else if (!isnan(cap))
        snprintf(out, len, words ? "%g resent on the wire (capture%s)" : "%g (capture%s)",
                 cap - (isnan(spur) ? 0 : spur), cut ? ", cut at its size cap" : "");
    else
        snprintf(out, len, "%s", words ? "" : "-");
}

static void summary_numbers(const cJSON *res, char *out, size_t len)
{
    char t[32], l[160];
    char rtx[96];
    double lost = jnum(res, RS(IPERF_UDP_LOST_PCT)), jit = jnum(res, RS(IPERF_UDP_JITTER_MS));
    int o;

    mbps(t, sizeof(t), jnum(res, RS(IPERF_THROUGHPUT_BPS)));
    if (cJSON_IsTrue(runner_json_path(res, RS(LINK_UP)))) {
        char sp[32], fl[32];
        num_text(sp, sizeof(sp), jnum(res, RS(LINK_SPEED_MBPS)));
        num_text(fl, sizeof(fl), jnum(res, RS(LINK_FLAPS)));
        snprintf(l, sizeof(l), "link %s Mb/s %s duplex, %s flap(s)", sp,
                 cJSON_IsTrue(runner_json_path(res, RS(LINK_FULL_DUPLEX))) ? "full" : "half", fl);
    }
    else
        snprintf(l, sizeof(l), "%s", runner_json_path(res, RS(LINK_UP)) ? "link down" : "link unknown");
    o = snprintf(out, len, "%s Mb/s; %s", t, l);
    retransmits_text(res, rtx, sizeof(rtx), true);
    if (*rtx && o > 0 && (size_t)o < len)
        o += snprintf(out + o, len - (size_t)o, "; %s", rtx);
    if (!isnan(lost) && o > 0 && (size_t)o < len)
        o += snprintf(out + o, len - (size_t)o, "; UDP lost %.3g%%", lost);
    if (!isnan(jit) && o > 0 && (size_t)o < len)
        snprintf(out + o, len - (size_t)o, ", jitter %.3g ms", jit);
}

/* report.md or report.html of one run: the same sections in both, the
 * charts in HTML only (report.md links report.html). */
static int write_run(const struct run_data *r, const struct charts *c, enum doc_fmt fmt)
{
    char path[PATH_MAX + 32], sum[512], v[512], title[256];
    const char *verdict = js(r->res, "verdict.result");
    struct runner_out out;
    struct doc doc, *d = &doc;
    const cJSON *e;

    snprintf(path, sizeof(path), "%s/report.%s", r->out, fmt == DOC_HTML ? "html" : "md");
    if (runner_out_open(&out, path))
        return -EIO;
    doc_init(d, out.f, fmt);
    snprintf(title, sizeof(title), "%s %s", js(r->res, "scenario.name"), verdict);
    doc_begin(d, title);
    if (doc_html(d)) {
        fputs("<h1><span class=\"", out.f);
        runner_html_class(out.f, verdict);
        fputs("\">", out.f);
        runner_html_esc(out.f, *verdict ? verdict : "UNKNOWN");
        fputs("</span> ", out.f);
        doc_textf(d, "%s (%s)", js(r->res, "scenario.name"), js(r->res, "conditions.firmware"));
        fputs("</h1>\n", out.f);
    } else
        doc_heading(d, 1, "%s %s: %s (%s)", !strcmp(verdict, "PASS") ? "\u2705" : "\u274c",
                    *verdict ? verdict : "UNKNOWN", js(r->res, "scenario.name"), js(r->res, "conditions.firmware"));
    if (*js(r->res, "verdict.reason"))
        doc_p(d, js(r->res, "verdict.reason"));
    summary_numbers(r->res, sum, sizeof(sum));
    doc_p_open(d);
    fputs(doc_html(d) ? "<b>" : "**", out.f);
    doc_text(d, sum);
    fputs(doc_html(d) ? "</b>" : "**", out.f);
    doc_p_close(d);
    if (!doc_html(d)) {
        doc_p_open(d);
        doc_text(d, "Run directory: ");
        doc_code(d, r->dir);
        doc_text(d, " (");
        doc_link(d, "report.html", "report.html");
        doc_text(d, ", ");
        doc_link(d, "results.json", "results.json");
        doc_text(d, ")");
        doc_p_close(d);
    }
    if (r->cmp) {
        doc_heading(d, 2, "Baseline");
        if (doc_html(d)) {
            fputs("<p class=\"", out.f);
            runner_html_class(out.f, js(r->cmp, "verdict"));
            fputs("\">", out.f);
        }
        fputs(doc_html(d) ? "<b>" : "**", out.f);
        doc_text(d, js(r->cmp, "verdict"));
        fputs(doc_html(d) ? "</b>" : "**", out.f);
        doc_text(d, " against ");
        doc_code(d, js(r->cmp, "name"));
        {
            char now[32], med[32], runs[32], delta[32], tol[32];
            mbps(now, sizeof(now), jnum(r->cmp, "throughput_bps"));
            mbps(med, sizeof(med), jnum(r->cmp, "median_bps"));
            num_text(runs, sizeof(runs), jnum(r->cmp, "runs"));
            fixed_text(delta, sizeof(delta), jnum(r->cmp, "delta_pct"), 1, true);
            fixed_text(tol, sizeof(tol), jnum(r->cmp, "tolerance_pct"), 1, false);
            doc_textf(d, ": %s Mb/s vs median %s Mb/s of %s run(s), %s%% (tolerance %s%%)", now, med, runs, delta,
                      tol);
        }
        doc_p_close(d);
        doc_list_open(d);
        for (int pass = 0; pass < 2; pass++)
            cJSON_ArrayForEach(e, runner_json_path(r->cmp, pass ? "changed" : "conditions_differ")) {
                char b[160], o[160];
                jtext(runner_json_path(e, "baseline"), b, sizeof(b));
                jtext(runner_json_path(e, "run"), o, sizeof(o));
                doc_li_open(d);
                doc_textf(d, "%s: %s: %s \u2192 %s", pass ? "changed" : "conditions differ", js(e, "key"), b, o);
                doc_li_close(d);
            }
        doc_list_close(d);
    }
    if (c)
        charts_section(d, c);
    findings(d, r->dg);
    if (cJSON_GetArraySize(runner_json_path(r->res, RS(SWEEP))) > 0) {
        static const char *const heads[] = { "payload (bytes)", "Mb/s", "lost %" };
        doc_heading(d, 2, "Packet-size sweep");
        doc_table(d, 3, heads, "rrr");
        cJSON_ArrayForEach(e, runner_json_path(r->res, RS(SWEEP))) {
            char t[32];
            mbps(t, sizeof(t), jnum(e, "throughput_bps"));
            doc_tr(d);
            doc_tdf(d, "%g", jnum(e, "length_bytes"));
            doc_td(d, t);
            if (isnan(jnum(e, "udp_lost_pct")))
                doc_td(d, "-");     /* TCP: nothing lost to count */
            else
                doc_tdf(d, "%.3g", jnum(e, "udp_lost_pct"));
        }
        doc_table_end(d);
    }
    if (cJSON_GetArraySize(runner_json_path(r->res, RS(PARALLEL_SWEEP))) > 0) {
        static const char *const heads[] = { "-P", "Mb/s", "retransmits", "CPU busy %", "CPU softirq %" };
        doc_heading(d, 2, "-P sweep");
        doc_table(d, 5, heads, "rrrrr");
        cJSON_ArrayForEach(e, runner_json_path(r->res, RS(PARALLEL_SWEEP))) {
            char t[32], b[64], sq[64], rt[32];
            mbps(t, sizeof(t), jnum(e, "throughput_bps"));
            percore_text(b, sizeof(b), e, "cpu_busy_pct");
            percore_text(sq, sizeof(sq), e, "cpu_softirq_pct");
            num_text(rt, sizeof(rt), jnum(e, "retransmits"));
            doc_tr(d);
            doc_tdf(d, "%g", jnum(e, "parallel"));
            doc_td(d, t);
            doc_td(d, rt);
            doc_td(d, b);
            doc_td(d, sq);
        }
        doc_table_end(d);
    }
    {
        static const char *const heads[] = { "core", "busy %", "softirq %", "GEM interrupts" };
        char b[16], sq[16], q[24];
        int i;
        for (i = 0; percore_row(r->res, i, b, sq, q); i++) {
            if (!i) {
                doc_heading(d, 2, "Per core (Linux agent, over the test)");
                doc_table(d, 4, heads, "lrrr");
            }
            doc_tr(d);
            doc_tdf(d, "CPU%d", i);
            doc_td(d, b);
            doc_td(d, sq);
            doc_td(d, q);
        }
        if (i)
            doc_table_end(d);
    }
    if (r->lat) {
        doc_heading(d, 2, "Latency");
        doc_p_open(d);
        {
            static const char *const keys[] = { "sent", "lost", "min_us", "p50_us", "p90_us", "p99_us", "max_us" };
            char t[7][32];
            for (int k = 0; k < 7; k++)
                num_text(t[k], sizeof(t[k]), jnum(r->lat, keys[k]));
            doc_textf(d, "%s probes, %s lost: min %s us, p50 %s, p90 %s, p99 %s, max %s us", t[0], t[1], t[2],
                      t[3], t[4], t[5], t[6]);
        }
        doc_p_close(d);
    }
    /* Markdown folds the conditions away (GFM passes <details> through) */
    if (doc_html(d))
        doc_heading(d, 2, "Conditions and versions");
    else
        fputs("<details><summary>Conditions and versions</summary>\n\n", out.f);
    doc_table(d, 2, NULL, NULL);
    for (size_t i = 0; i < sizeof(KV) / sizeof(KV[0]); i++) {
        kv_text(r->res, (int)i, v, sizeof(v));
        doc_tr(d);
        doc_th(d, KV[i][0]);
        doc_td(d, v);
    }
    doc_table_end(d);
    if (!doc_html(d))
        fputs("</details>\n", out.f);
    doc_end(d);
    return runner_out_commit(&out) ? -EIO : 0;
}

/* 0, 3 without gnuplot, 2 bad input / cannot write */
static int run_report(struct run_data *r, bool html)
{
    struct charts c;
    int rc = 0;

    memset(&c, 0, sizeof(c));
    if (write_run(r, NULL, DOC_MD))
        return 2;
    if (!html)
        return 0;
    snprintf(c.dir, sizeof(c.dir), "%s/report", r->out);
    if (runner_mkdir_p(c.dir, 0755)) {
        fprintf(stderr, "%s: cannot create: %s\n", c.dir, strerror(errno));
        return 2;
    }
    {   /* the charts' files go into RUN_DIR/report itself, never through a
         * symlink an unpacked artifact planted there (docs/SECURITY.md) */
        struct stat st;
        if (lstat(c.dir, &st) || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: not a directory (symlinks are refused)\n", c.dir);
            return 2;
        }
    }
    run_charts(r, &c);
    if (write_run(r, &c, DOC_HTML))
        return 2;
    if (c.missing) {
        fprintf(stderr, "gemlab report: gnuplot not found (apt-get install gnuplot-nox): %s/report.html has no charts\n",
                r->out);
        rc = 3;
    } else if (c.failed)
        fprintf(stderr, "gemlab report: %d chart(s) failed, see %s/gnuplot.log\n", c.failed, c.dir);
    return rc;
}

int rp_run_report(const char *run_dir)
{
    struct run_data *r = calloc(1, sizeof(*r));
    int rc;

    if (!r)
        return 2;
    rc = load_run(run_dir, r) ? 2 : run_report(r, true);
    free_run(r);
    free(r);
    return rc;
}

/* ---- several runs side by side ---- */

/* keys shown when they differ between runs */
static const char *const CMP_KEYS[][2] = {
    { "scenario", "scenario.name" }, { "firmware", "conditions.firmware" },
    { "protocol", "conditions.protocol" }, { "-P", "conditions.parallel" },
    { "reverse", "conditions.reverse" }, { "window", "conditions.window_bytes" },
    { "rx_bds", "conditions.rx_bds" }, { "tx_bds", "conditions.tx_bds" },
    { "pbufs", "conditions.pbufs" }, { "cpus", "conditions.cpus" }, { "seed", "seed" },
    { "fw options", "versions.firmware_options" }, { "fw version", "versions.firmware" },
    { "QEMU patch", "versions.qemu_patch" }, { "models", "versions.models" },
};
#define NCMP (sizeof(CMP_KEYS) / sizeof(CMP_KEYS[0]))

/* "#N scenario" (the table maps N to the run directory) */
static void run_label(const struct run_data *r, int i, char *out, size_t len)
{
    snprintf(out, len, "#%d %.40s", i + 1, js(r->res, "scenario.name"));
    plot_label(out);
}

/* OUT/report.md or OUT/report.html of several runs: one row a run, a
 * column for each of CMP_KEYS that differs between them. */
static int side_by_side_page(const struct run_data *runs, int n, const char *out, const bool *differs,
                             const struct charts *c, enum doc_fmt fmt)
{
    static const char *const tail[] = { "retransmits", "UDP lost %", "findings", "baseline", "run" };
    const char *heads[4 + NCMP + 5] = { "#", "verdict", "Mb/s", "vs #1" };
    char align[4 + NCMP + 5 + 1] = "llrr", path[PATH_MAX + 32], v[256];
    double base = jnum(runs[0].res, RS(IPERF_THROUGHPUT_BPS));
    struct runner_out wo;
    struct doc doc, *d = &doc;
    int nh = 4;

    for (size_t k = 0; k < NCMP; k++)
        if (differs[k]) {
            align[nh] = 'l';
            heads[nh++] = CMP_KEYS[k][0];
        }
    for (size_t k = 0; k < sizeof(tail) / sizeof(tail[0]); k++) {
        align[nh] = k < 2 ? 'r' : 'l';
        heads[nh++] = tail[k];
    }
    align[nh] = '\0';
    snprintf(path, sizeof(path), "%s/report.%s", out, fmt == DOC_HTML ? "html" : "md");
    if (runner_out_open(&wo, path))
        return -EIO;
    doc_init(d, wo.f, fmt);
    doc_begin(d, "gemlab runs side by side");
    doc_heading(d, 1, "%d runs side by side", n);
    doc_table(d, nh, heads, align);
    for (int i = 0; i < n; i++) {
        const cJSON *res = runs[i].res, *fd;
        const char *bl = runs[i].cmp ? js(runs[i].cmp, "verdict") : "";
        double bps = jnum(res, RS(IPERF_THROUGHPUT_BPS));
        char t[32];
        mbps(t, sizeof(t), bps);
        doc_tr(d);
        doc_tdf(d, "%d", i + 1);
        doc_td_open(d, js(res, "verdict.result"));
        doc_text(d, js(res, "verdict.result"));
        doc_td(d, t);
        if (base > 0 && !isnan(bps))
            doc_tdf(d, "%.3f", bps / base);
        else
            doc_td(d, "");
        for (size_t k = 0; k < NCMP; k++)
            if (differs[k]) {
                jtext(runner_results_get(res, CMP_KEYS[k][1]), v, sizeof(v));
                doc_td(d, v);
            }
        retransmits_text(res, v, sizeof(v), false);
        doc_td(d, v);
        jtext(runner_json_path(res, RS(IPERF_UDP_LOST_PCT)), v, sizeof(v));
        doc_td(d, v);
        doc_td_open(d, NULL);
        cJSON_ArrayForEach(fd, runner_json_path(runs[i].dg, "findings")) {
            if (fd != runner_json_path(runs[i].dg, "findings")->child)
                doc_text(d, " ");
            doc_text(d, js(fd, "code"));
        }
        doc_td_open(d, bl);
        doc_text(d, bl);
        doc_td_open(d, NULL);
        doc_code(d, runs[i].dir);
    }
    doc_table_end(d);
    if (c)
        charts_section(d, c);
    doc_end(d);
    return runner_out_commit(&wo) ? -EIO : 0;
}

static int side_by_side(struct run_data *runs, int n, const char *out, bool html)
{
    bool differs[NCMP] = { false };
    char label[96];
    struct charts c;
    FILE *d;

    for (size_t k = 0; k < NCMP; k++)
        for (int i = 1; i < n; i++)
            if ((runner_results_get(runs[0].res, CMP_KEYS[k][1]) || runner_results_get(runs[i].res, CMP_KEYS[k][1])) &&
                !cJSON_Compare(runner_results_get(runs[0].res, CMP_KEYS[k][1]), runner_results_get(runs[i].res, CMP_KEYS[k][1]), true))
                differs[k] = true;
    memset(&c, 0, sizeof(c));
    snprintf(c.dir, sizeof(c.dir), "%s", out);
    if (html) {
        /* throughput per run (bars) and summed throughput over time, each
         * under the line-rate ceiling of every distinct speed/protocol */
        char body[8192], ceils[1024] = "";
        size_t o, co = 0;
        struct ceiling ce[4];
        char who[4][40];        /* "#1,#3: " when the runs' ceilings differ */
        int nce = 0;
        for (int i = 0; i < n; i++) {
            struct ceiling x;
            int j = 0;
            if (!run_ceiling(runs[i].res, &x))
                continue;
            while (j < nce && strcmp(ce[j].legend, x.legend))
                j++;
            if (j == nce && nce < 4) {
                ce[nce] = x;
                who[nce++][0] = '\0';
            }
            if (j < nce && strlen(who[j]) < sizeof(who[j]) - 8)
                snprintf(who[j] + strlen(who[j]), sizeof(who[j]) - strlen(who[j]), "%s#%d", who[j][0] ? "," : "", i + 1);
        }
        for (int j = 0; j < nce; j++) {
            if (nce > 1)
                snprintf(who[j] + strlen(who[j]), sizeof(who[j]) - strlen(who[j]), ": ");
            co = runner_appendf(ceils, sizeof(ceils), co, ", ");
            co += ceiling_term(ceils + co, sizeof(ceils) - co, &ce[j], j, nce > 1 ? who[j] : "");
        }
        if ((d = chart_file(&c, "runs.dat", "w"))) {
            fprintf(d, "# index Mb/s label\n");
            for (int i = 0; i < n; i++) {
                run_label(&runs[i], i, label, sizeof(label));
                fprintf(d, "%d %.6g \"%s\"\n", i, jnum(runs[i].res, "iperf.throughput_bps") / 1e6, label);
            }
            fclose(d);
            snprintf(body, sizeof(body),
                     "set ylabel 'Mb/s'\nset yrange [0:*]\nset style fill solid 0.6\nset boxwidth 0.6\nset xrange [-0.6:%g]\n"
                     "%s\nplot 'runs.dat' using 1:2:xtic(3) with boxes notitle, "
                     "'' using 1:2:(sprintf('%%.1f',$2)) with labels offset 0,0.7 notitle%s\n",
                     n - 0.4, nce ? "set key below left Left reverse" : "set key off", ceils);
            chart(&c, "runs", "Throughput per run", body);
        }
        o = (size_t)snprintf(body, sizeof(body), "set xlabel 'interval (s)'\nset ylabel 'Mb/s'\nset yrange [0:*]\n%splot ",
                             nce ? "set key below left Left reverse\n" : "");
        for (int i = 0; i < n && o < sizeof(body) - 200 - co; i++) {
            char name[32];
            const cJSON *e;
            int k = 0;
            snprintf(name, sizeof(name), "run_%d.dat", i);
            if (cJSON_GetArraySize(runner_json_path(runs[i].res, "iperf.intervals_bps")) == 0 || !(d = chart_file(&c, name, "w")))
                continue;
            cJSON_ArrayForEach(e, runner_json_path(runs[i].res, "iperf.intervals_bps"))
                if (cJSON_IsNumber(e))
                    fprintf(d, "%d %.6g\n", ++k, e->valuedouble / 1e6);
            fclose(d);
            run_label(&runs[i], i, label, sizeof(label));
            o += (size_t)snprintf(body + o, sizeof(body) - o, "'%s' using 1:2 with linespoints lw 2 title '%s', ",
                                  name, label);
        }
        if (o > 2 && body[o - 2] == ',') {
            /* the ceilings' leading ", " takes the place of the last one */
            snprintf(body + o - 2, sizeof(body) - (o - 2), "%s\n", ceils);
            chart(&c, "overtime", "Summed throughput over time", body);
        }
    }

    for (int fmt = DOC_MD; fmt <= (html ? DOC_HTML : DOC_MD); fmt++)
        if (side_by_side_page(runs, n, out, differs, fmt == DOC_HTML ? &c : NULL, fmt))
            return 2;
    return c.missing ? 3 : 0;
}

int rp_report(const struct rp_opts *o)
{
    struct run_data *runs;
    int n = o->n, rc = 0, worst = 0;

    runs = calloc((size_t)n, sizeof(*runs));
    if (!runs)
        return 2;
    for (int i = 0; i < n; i++)
        if (load_run(o->dirs[i], &runs[i])) {
            rc = 2;
            goto done;
        }
    if (n > 1 || o->out) {
        /* before any report is written: the side-by-side report.md, or
         * one run's report written elsewhere, would replace a run's own
         * (a run directory holds results.json) */
        const char *out = o->out ? o->out : RP_OUT_DEFAULT;
        char probe[4096];
        struct stat st;
        snprintf(probe, sizeof(probe), "%s/results.json", out);
        if (o->out && !o->out[0]) {
            fprintf(stderr, "gemlab report: --out: empty directory name\n");
            rc = 2;
            goto done;
        }
        if (n == 1) {
            struct stat rs;
            /* --out RUN_DIR itself is where it goes anyway */
            if (!stat(out, &st) && !stat(runs[0].dir, &rs) && st.st_dev == rs.st_dev && st.st_ino == rs.st_ino)
                goto write;
        }
        if (!stat(probe, &st)) {
            fprintf(stderr, "gemlab report: --out %s is a run directory: its own report.md would be replaced; "
                            "give another directory\n", out);
            rc = 2;
            goto done;
        }
        {
            int e = runner_take_out_dir(out, "report", "report.md", 0755);
            if (e) {
                fprintf(stderr, "gemlab report: --out %s: %s\n", out,
                        e == -EEXIST ? "holds other files and no report: give a new or empty directory"
                                     : strerror(-e));
                rc = 2;
                goto done;
            }
        }
        if (n == 1)
            snprintf(runs[0].out, sizeof(runs[0].out), "%s", out);
    }
write:
    for (int i = 0; i < n; i++) {
        int r = run_report(&runs[i], o->html);
        if (r > worst)
            worst = r;
        /* the paths of what was written (3: without charts); a report
         * that could not be written has said so on stderr */
        if (r == 0 || r == 3)
            printf("%s/report.md%s\n", runs[i].out, o->html ? " report.html" : "");
    }
    if (n > 1) {
        const char *out = o->out ? o->out : RP_OUT_DEFAULT;
        int r = side_by_side(runs, n, out, o->html);
        if (r > worst)
            worst = r;
        if (r == 0 || r == 3)
            printf("%s/report.md%s\n", out, o->html ? " report.html" : "");
    }
    rc = worst;
done:
    for (int i = 0; i < n; i++)
        free_run(&runs[i]);
    free(runs);
    return rc;
}
