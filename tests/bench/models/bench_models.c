/*
 * bench_models.c - throughput of the wire model (frames per second and
 * instructions per frame) and the state it costs per link.
 *
 *   bench_models                       full run: table on stdout, JSON to
 *                                      $BENCH_JSON (if set)
 *   bench_models --count MODE FRAMES   run one case once, print nothing
 *                                      (what callgrind measures)
 *
 * A "frame" is one gl_link_send() plus the gl_link_poll() calls that
 * deliver it, on a simulated 1 Gb/s link offered minimum-size frames
 * back-to-back in both directions (the worst case: 1.488 Mpps per
 * direction).  Cases:
 *   common  link up, 100 us latency, no impairment
 *   all     latency + normal jitter, 900 Mb/s rate cap with queue,
 *           Gilbert-Elliott loss, 1% duplication, 1% corruption,
 *           1% reordering, RGMII skew errors and a duplex mismatch
 * Instructions per frame come from valgrind --tool=callgrind when it is
 * installed: (Ir(2N) - Ir(N)) / N, so setup cost cancels out.
 * Not a test: nothing here passes or fails on a figure.
 */
#include "gemlab/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/bench_time.h"

#define REPS        7
#define FRAMES      2000000ULL
#define CG_FRAMES   100000ULL

struct bench_case {
    const char *name;
    void (*params)(struct gl_wire_params *p);
    bool a_full, b_full;
};

static void params_common(struct gl_wire_params *p)
{
    gl_wire_params_default(p);
    p->latency_ns = 100000;
}

static void params_all(struct gl_wire_params *p)
{
    gl_wire_params_default(p);
    p->latency_ns = 100000;
    p->jitter_ns = 20000;
    p->jitter_dist = GL_JITTER_NORMAL;
    p->rate_bps = 900000000;
    p->queue_frames = 1000;
    p->loss_model = GL_LOSS_GEMODEL;
    p->ge = (struct gl_wire_ge){ .p = 0.01, .r = 0.3, .h = 0.2, .k = 0.999 };
    p->dup_pct = 1;
    p->corrupt_pct = 1;
    p->reorder_pct = 1;
    p->reorder_gap = 1;
    p->skew_crc_pct = 0.1;
}

static const struct bench_case cases[] = {
    { "common", params_common, true, true },
    { "all", params_all, false, true },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Run @frames frames through a fresh link; returns a checksum so the work
 * cannot be optimized away. */
static uint64_t run_case(const struct bench_case *bc, struct gl_link *l, uint64_t frames)
{
    struct gl_wire_params p;
    struct gl_err err;
    struct gl_delivery d;
    uint64_t now = 0, sum = 0;
    const uint64_t step = gl_wire_frame_ns(60, 1000) / 2;  /* both directions busy */

    bc->params(&p);
    if (gl_link_init(l, &p, &p, 1, &err) != 0 ||
        gl_link_set_phy(l, true, 1000, bc->a_full, bc->b_full, 0, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    /* skew_crc_pct acts only on a direction whose RGMII delay is wrong */
    gl_link_set_rgmii_skew(l, p.skew_crc_pct > 0, p.skew_crc_pct > 0);
    for (uint64_t i = 0; i < frames; i++) {
        int dir = (int)(i & 1);
        sum += (uint64_t)gl_link_send(l, dir, now, 60, i, NULL);
        while (gl_link_poll(l, dir, now, &d) == 1) {
            sum += d.cookie ^ d.flags;
        }
        now += step;
    }
    return sum;
}

int main(int argc, char **argv)
{
    struct gl_link *l = malloc(sizeof(*l));
    double mpps[N_CASES][REPS];
    double ipf[N_CASES];
    bool have_valgrind;
    const char *json = getenv("BENCH_JSON");

    if (!l) {
        return 1;
    }
    if (argc == 4 && strcmp(argv[1], "--count") == 0) {
        for (unsigned c = 0; c < N_CASES; c++) {
            if (strcmp(argv[2], cases[c].name) == 0) {
                volatile uint64_t sink = run_case(&cases[c], l, strtoull(argv[3], NULL, 10));
                (void)sink;
                free(l);
                return 0;
            }
        }
        fprintf(stderr, "bench: unknown case '%s'\n", argv[2]);
        return 2;
    }

    for (unsigned c = 0; c < N_CASES; c++) {
        for (unsigned r = 0; r < REPS; r++) {
            double t0 = now_s();
            volatile uint64_t sink = run_case(&cases[c], l, FRAMES);
            double t1 = now_s();
            (void)sink;
            mpps[c][r] = (double)FRAMES / (t1 - t0) / 1e6;
        }
        qsort(mpps[c], REPS, sizeof(double), cmp_double);
    }

    have_valgrind = system("command -v valgrind >/dev/null 2>&1") == 0;
    for (unsigned c = 0; c < N_CASES; c++) {
        ipf[c] = 0;
        if (have_valgrind) {
            unsigned long long a = callgrind_ir(argv[0], cases[c].name, CG_FRAMES);
            unsigned long long b = callgrind_ir(argv[0], cases[c].name, 2 * CG_FRAMES);
            if (a && b > a) {
                ipf[c] = (double)(b - a) / (double)CG_FRAMES;
            }
        }
    }

    printf("wire model, 1 Gb/s, 60-byte frames both ways, %u reps of %llu frames\n", REPS,
           (unsigned long long)FRAMES);
    printf("  %-8s %10s %10s %10s %12s\n", "case", "min Mpps", "med Mpps", "max Mpps",
           "instr/frame");
    for (unsigned c = 0; c < N_CASES; c++) {
        char ipf_s[32];
        if (ipf[c] > 0) {
            snprintf(ipf_s, sizeof(ipf_s), "%.0f", ipf[c]);
        } else {
            snprintf(ipf_s, sizeof(ipf_s), "n/a");
        }
        printf("  %-8s %10.2f %10.2f %10.2f %12s\n", cases[c].name, mpps[c][0],
               mpps[c][REPS / 2], mpps[c][REPS - 1], ipf_s);
    }
    printf("  state per link: %zu bytes (GL_WIRE_INFLIGHT_MAX %d, GL_WIRE_OOO_MAX %d, "
           "GL_WIRE_QUEUE_MAX %d)\n",
           gl_link_state_size(), GL_WIRE_INFLIGHT_MAX, GL_WIRE_OOO_MAX, GL_WIRE_QUEUE_MAX);
    printf("  goal: >= 20 Mpps on the common path (1G minimum frames: 1.488 Mpps)\n");

    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            perror(json);
            free(l);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"models\",\n  \"frames_per_rep\": %llu,\n  \"reps\": %u,\n",
                (unsigned long long)FRAMES, REPS);
        fprintf(f, "  \"state_bytes_per_link\": %zu,\n  \"wire\": {\n", gl_link_state_size());
        for (unsigned c = 0; c < N_CASES; c++) {
            char ipf_s[32] = "null";
            if (ipf[c] > 0) {
                snprintf(ipf_s, sizeof(ipf_s), "%.0f", ipf[c]);
            }
            fprintf(f,
                    "    \"%s\": { \"mpps_min\": %.3f, \"mpps_median\": %.3f, "
                    "\"mpps_max\": %.3f, \"instructions_per_frame\": %s }%s\n",
                    cases[c].name, mpps[c][0], mpps[c][REPS / 2], mpps[c][REPS - 1], ipf_s,
                    c + 1 < N_CASES ? "," : "");
        }
        fprintf(f, "  }\n}\n");
        fclose(f);
    }
    free(l);
    return 0;
}
