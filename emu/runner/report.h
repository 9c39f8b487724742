/*
 * report.h - `gemlab report`: report.md (CI job summaries) and a
 * self-contained report.html with gnuplot SVG charts, for one run or for
 * several runs side by side.
 *
 * Per run (RUN_DIR/report.md, RUN_DIR/report.html, data and gnuplot
 * scripts in RUN_DIR/report/): verdict, throughput, conditions and
 * versions, the baseline comparison when RUN_DIR/baseline-compare.json
 * exists, findings with their evidence, and charts: throughput over time
 * per stream and summed, UDP loss and jitter over time (iperf 2 server
 * intervals), the link timeline with flaps marked, the latency histogram
 * (the firmware's latency result) and the packet-size sweep.
 *
 * Several runs (OUT/report.md, OUT/report.html): one row per run with what
 * differs from the first run, throughput and its ratio to the first, and
 * charts: throughput per run (bars; a -P or BD sweep) and summed
 * throughput over time.
 *
 * gnuplot (Debian gnuplot-nox) is exec'd directly, without a shell, in
 * the report directory, on a script and data files written there.
 * Without it the reports are written without charts and the exit is 3.
 */
#ifndef GEMLAB_RUNNER_REPORT_H
#define GEMLAB_RUNNER_REPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Per-stream series of one run: parsed from RUN_DIR/iperf*.csv (iperf 2
 * -y C) and iperf*.json (iperf3 -J).  t is the interval's end in s. */
#define RP_MAX_STREAMS 16
#define RP_MAX_POINTS 512
struct rp_series {
    char label[48];
    int n;
    double t[RP_MAX_POINTS], bps[RP_MAX_POINTS];
    double jitter_ms[RP_MAX_POINTS], lost_pct[RP_MAX_POINTS]; /* NAN unless UDP server intervals */
};
struct rp_streams {
    int n;
    struct rp_series s[RP_MAX_STREAMS];
};

/* Parse one iperf 2 CSV text / iperf3 JSON text into @st (appends). */
void rp_parse_iperf2_csv(const char *text, const char *file, struct rp_streams *st);
void rp_parse_iperf3_json(const char *text, const char *file, struct rp_streams *st);

/* Write RUN_DIR/report.md and report.html.  0, 3 (no gnuplot: written
 * without charts) or 2 (unreadable results.json; message on stderr). */
int rp_run_report(const char *run_dir);

/* `gemlab report` (options: cmd_report.c): each run's report.md and, with
 * @html, report.html; with two runs or more, the side-by-side report.md
 * and report.html in @out (created).  Each report written is printed on
 * stdout, messages go to stderr.  Returns 2 when a run directory cannot
 * be read (nothing written), else the largest of the reports' 0, 3 (no
 * gnuplot) and 2 (cannot write). */
#define RP_OUT_DEFAULT "build/report"

struct rp_opts {
    const char *const *dirs;    /* the run directories, n >= 1 */
    int n;
    const char *out;            /* NULL: each run's report in its run directory, several
                                 * side by side in RP_OUT_DEFAULT; else there (one run:
                                 * its report.md, report.html and report/) */
    bool html;                  /* report.html with charts too */
};
int rp_report(const struct rp_opts *o);

#endif
