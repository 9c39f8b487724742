/*
 * bench_phy.c - cost of one MDIO access to the PHY model (the hot path a
 * polling driver hits: Linux phylib reads BMSR twice plus registers 17,
 * 5 and 10 every second; a bare-metal poll loop far more often).
 *
 *   bench_phy                        full run: table on stdout, JSON to
 *                                    $BENCH_JSON (if set)
 *   bench_phy --count CASE ACCESSES  run one case once, print nothing
 *                                    (what callgrind measures)
 *
 * Cases (every access goes through gl_phy_read/gl_phy_write with an
 * advancing now_ns, so the deadline check is included):
 *   read-bmsr   latching-low status register read, link up
 *   read-isr    clear-on-read interrupt status read
 *   write-anar  read-only-masked write without side effects
 *   poll        Linux-style poll: BMSR x2, 17, 5, 10 (cost per access)
 * Cycles come from the TSC on x86 hosts (n/a elsewhere); instructions per
 * access from valgrind --tool=callgrind when installed: (Ir(2N) - Ir(N)) /
 * N, so setup cost cancels out.  Not a test: nothing passes or fails.
 */
#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../common/bench_time.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static uint64_t cycles(void)
{
    return __rdtsc();
}
#define HAVE_CYCLES 1
#else
static uint64_t cycles(void)
{
    return 0;
}
#define HAVE_CYCLES 0
#endif

#define REPS       7
#define ACCESSES   5000000ULL
#define CG_ACCESSES 200000ULL

enum bench_kind { K_READ_BMSR, K_READ_ISR, K_WRITE_ANAR, K_POLL };

static const struct {
    const char *name;
    enum bench_kind kind;
} cases[] = {
    { "read-bmsr", K_READ_BMSR },
    { "read-isr", K_READ_ISR },
    { "write-anar", K_WRITE_ANAR },
    { "poll", K_POLL },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static const unsigned poll_regs[] = {
    MII_BMSR, MII_BMSR, M88E1116R_SSR, MII_LPA, MII_STAT1000,
};
#define N_POLL (sizeof(poll_regs) / sizeof(poll_regs[0]))

/* A PHY with the link up at 1000 FD, as most of a run sees it. */
static void linked_phy(struct gl_phy *phy)
{
    struct gl_phy_params p;
    struct gl_err err;

    gl_phy_params_default(&p);
    p.aneg_ns = GL_NS_PER_MS;
    p.train_1000_ns = GL_NS_PER_MS;
    if (gl_phy_init(phy, &p, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    gl_phy_step(phy, 10 * GL_NS_PER_MS);
}

static uint64_t run_case(enum bench_kind kind, struct gl_phy *phy, uint64_t n)
{
    uint64_t now = 10 * GL_NS_PER_MS, sum = 0;

    for (uint64_t i = 0; i < n; i++) {
        now += 400;     /* one MDIO frame at 2.5 MHz is ~25 us; be denser */
        switch (kind) {
        case K_READ_BMSR:
            sum += gl_phy_read(phy, MII_BMSR, now);
            break;
        case K_READ_ISR:
            sum += gl_phy_read(phy, M88E1116R_ISR, now);
            break;
        case K_WRITE_ANAR:
            gl_phy_write(phy, MII_ADVERTISE, (uint16_t)(0x01E1 | (i & 0x0C00)),
                         now);
            sum += i;
            break;
        case K_POLL:
            sum += gl_phy_read(phy, poll_regs[i % N_POLL], now);
            break;
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    static struct gl_phy phy;
    double ns[N_CASES][REPS], cyc[N_CASES][REPS], ipa[N_CASES];
    const char *json = getenv("BENCH_JSON");

    if (argc == 4 && strcmp(argv[1], "--count") == 0) {
        for (unsigned c = 0; c < N_CASES; c++) {
            if (strcmp(argv[2], cases[c].name) == 0) {
                linked_phy(&phy);
                volatile uint64_t sink = run_case(cases[c].kind, &phy,
                                                  strtoull(argv[3], NULL, 10));
                (void)sink;
                return 0;
            }
        }
        fprintf(stderr, "bench: unknown case '%s'\n", argv[2]);
        return 2;
    }

    for (unsigned c = 0; c < N_CASES; c++) {
        for (unsigned r = 0; r < REPS; r++) {
            linked_phy(&phy);
            double t0 = now_s();
            uint64_t c0 = cycles();
            volatile uint64_t sink = run_case(cases[c].kind, &phy, ACCESSES);
            uint64_t c1 = cycles();
            double t1 = now_s();
            (void)sink;
            ns[c][r] = (t1 - t0) * 1e9 / (double)ACCESSES;
            cyc[c][r] = (double)(c1 - c0) / (double)ACCESSES;
        }
        qsort(ns[c], REPS, sizeof(double), cmp_double);
        qsort(cyc[c], REPS, sizeof(double), cmp_double);
    }

    bool have_valgrind = system("command -v valgrind >/dev/null 2>&1") == 0;
    for (unsigned c = 0; c < N_CASES; c++) {
        ipa[c] = 0;
        if (have_valgrind) {
            unsigned long long a = callgrind_ir(argv[0], cases[c].name,
                                                CG_ACCESSES);
            unsigned long long b = callgrind_ir(argv[0], cases[c].name,
                                                2 * CG_ACCESSES);
            if (a && b > a) {
                ipa[c] = (double)(b - a) / (double)CG_ACCESSES;
            }
        }
    }

    printf("PHY model MDIO access, %u reps of %llu accesses, link up at 1000\n",
           REPS, (unsigned long long)ACCESSES);
    printf("  %-11s %8s %8s %8s %10s %10s\n", "case", "min ns", "med ns",
           "max ns", HAVE_CYCLES ? "med cycles" : "cycles", "instr");
    for (unsigned c = 0; c < N_CASES; c++) {
        char cyc_s[32] = "n/a", ipa_s[32] = "n/a";
        if (HAVE_CYCLES) {
            snprintf(cyc_s, sizeof(cyc_s), "%.1f", cyc[c][REPS / 2]);
        }
        if (ipa[c] > 0) {
            snprintf(ipa_s, sizeof(ipa_s), "%.0f", ipa[c]);
        }
        printf("  %-11s %8.2f %8.2f %8.2f %10s %10s\n", cases[c].name,
               ns[c][0], ns[c][REPS / 2], ns[c][REPS - 1], cyc_s, ipa_s);
    }
    printf("  state per PHY: %zu bytes (struct gl_phy)\n", sizeof(struct gl_phy));

    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            perror(json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"phy\",\n  \"accesses_per_rep\": %llu,\n"
                "  \"reps\": %u,\n  \"state_bytes\": %zu,\n  \"mdio\": {\n",
                (unsigned long long)ACCESSES, REPS, sizeof(struct gl_phy));
        for (unsigned c = 0; c < N_CASES; c++) {
            char cyc_s[32] = "null", ipa_s[32] = "null";
            if (HAVE_CYCLES) {
                snprintf(cyc_s, sizeof(cyc_s), "%.1f", cyc[c][REPS / 2]);
            }
            if (ipa[c] > 0) {
                snprintf(ipa_s, sizeof(ipa_s), "%.0f", ipa[c]);
            }
            fprintf(f, "    \"%s\": { \"ns_min\": %.3f, \"ns_median\": %.3f, "
                    "\"ns_max\": %.3f, \"cycles_median\": %s, "
                    "\"instructions\": %s }%s\n", cases[c].name, ns[c][0],
                    ns[c][REPS / 2], ns[c][REPS - 1], cyc_s, ipa_s,
                    c + 1 < N_CASES ? "," : "");
        }
        fprintf(f, "  }\n}\n");
        fclose(f);
    }
    return 0;
}
