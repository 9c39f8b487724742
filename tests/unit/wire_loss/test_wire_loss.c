/*
 * test_wire_loss.c - the wire model's random decisions: exact drop
 * sequences for a seed, reproducibility, and statistical checks of the
 * loss models (random, Gilbert-Elliott, 4-state Markov) and of the netem
 * jitter distributions.  The runs are seeded, so each check is
 * deterministic; the tolerances say how far off a correct model could be.
 */
#include "../wire/wire_test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define A2B GL_LINK_A_TO_B
#define B2A GL_LINK_B_TO_A

static struct gl_wire_params ideal(void)
{
    struct gl_wire_params p;
    gl_wire_params_default(&p);
    return p;
}

/* Offer @n minimum frames paced at line rate; record loss per frame in
 * @lost (may be NULL).  Returns the number lost. */
static uint64_t run_losses(struct gl_link *l, uint64_t n, unsigned char *lost)
{
    uint64_t now = 0, done, drops = 0;

    for (uint64_t i = 0; i < n; i++) {
        int v = gl_link_send(l, A2B, now, 60, i, &done);
        if (v == GL_WIRE_QUEUED) {
            wt_drain(l, A2B, done);
        } else {
            assert_int_equal(v, GL_WIRE_DROP_LOSS);
            drops++;
        }
        if (lost) {
            lost[i] = v == GL_WIRE_DROP_LOSS;
        }
        now = done;
    }
    return drops;
}

/* ---- Exact sequences and reproducibility ---- */

static void test_random_loss_10pct_seed_42_drops_exact_frames(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.loss_pct = 10;
    struct gl_link *l = wt_link_sym(&p, 42, 1000);
    unsigned char lost[100];
    unsigned idx[100], n = 0;

    run_losses(l, 100, lost);
    for (unsigned i = 0; i < 100; i++) {
        if (lost[i]) {
            idx[n++] = i;
        }
    }
    /* The A->B stream is gl_prng seeded with 42; a frame is lost when the
     * top 53 bits of its draw fall below 0.1 * 2^53.  Recompute that
     * independently, then pin the result. */
    struct gl_prng r;
    unsigned n_ref = 0;
    gl_prng_seed(&r, 42);
    for (unsigned i = 0; i < 100; i++) {
        if ((gl_prng_u64(&r) >> 11) < (uint64_t)(0.1 * 9007199254740992.0)) {
            assert_true(n_ref < n);
            assert_int_equal(idx[n_ref], i);
            n_ref++;
        }
    }
    assert_int_equal(n_ref, n);
    static const unsigned pinned[] = { 0, 20, 37, 54, 64, 77, 78, 88, 99 };
    if (n != sizeof(pinned) / sizeof(pinned[0]) ||
        memcmp(idx, pinned, sizeof(pinned)) != 0) {
        char buf[400] = "";
        for (unsigned i = 0; i < n; i++) {
            snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%u, ", idx[i]);
        }
        fail_msg("drop indices changed: %s", buf);
    }
    free(l);
}

/* A full trace (verdicts, arrivals, flags) with every impairment on. */
static uint64_t trace_hash(uint64_t seed)
{
    struct gl_wire_params p = ideal();
    p.latency_ns = 50000;
    p.jitter_ns = 20000;
    p.jitter_dist = GL_JITTER_NORMAL;
    p.loss_model = GL_LOSS_4STATE;
    p.mm4 = (struct gl_wire_4state){ .p13 = 0.05, .p31 = 0.5, .p32 = 0.2, .p23 = 0.3, .p14 = 0.02 };
    p.dup_pct = 5;
    p.corrupt_pct = 5;
    p.reorder_pct = 10;
    p.rate_bps = 400000000;
    struct gl_link *l = wt_link_sym(&p, seed, 1000);
    struct gl_delivery d;
    uint64_t h = 1469598103934665603ULL, now = 0;

    for (unsigned i = 0; i < 5000; i++) {
        int v = gl_link_send(l, i & 1, now, 64 + i % 1400, i, NULL);
        h = (h ^ (uint64_t)v) * 1099511628211ULL;
        for (int k = 0; k < 2; k++) {
            while (gl_link_poll(l, k, now, &d) == 1) {
                h = (h ^ d.cookie ^ (d.arrival_ns << 8) ^ d.flags) * 1099511628211ULL;
            }
        }
        now += 3000;
    }
    free(l);
    return h;
}

static void test_same_seed_gives_identical_trace(void **state)
{
    (void)state;
    assert_int_equal(trace_hash(7), trace_hash(7));
}

static void test_different_seed_gives_different_trace(void **state)
{
    (void)state;
    assert_int_not_equal(trace_hash(7), trace_hash(8));
}

static void test_direction_decisions_do_not_depend_on_other_direction(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.loss_pct = 30;
    struct gl_link *quiet = wt_link_sym(&p, 5, 1000);
    struct gl_link *busy = wt_link_sym(&p, 5, 1000);
    unsigned char a[200], b[200];

    for (unsigned i = 0; i < 50; i++) {
        gl_link_send(busy, B2A, 0, 60, i, NULL);
    }
    run_losses(quiet, 200, a);
    run_losses(busy, 200, b);
    assert_memory_equal(a, b, sizeof(a));
    free(quiet);
    free(busy);
}

/* ---- Deterministic chains: pin netem's ordering of move and loss ---- */

/* Loss pattern of the first @n frames for a loss spec, as a string of
 * 'L' (lost) and '.' (delivered). */
static void loss_pattern(const char *spec, unsigned n, char *out)
{
    struct gl_wire_params p = ideal();
    struct gl_err err = { "" };
    unsigned char lost[64];

    if (gl_wire_parse_loss(spec, &p, &err) != 0) {
        fail_msg("%s: %s", spec, err.msg);
    }
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    assert_true(n <= sizeof(lost));
    run_losses(l, n, lost);
    for (unsigned i = 0; i < n; i++) {
        out[i] = lost[i] ? 'L' : '.';
    }
    out[n] = '\0';
    free(l);
}

static void test_gemodel_loss_uses_the_state_the_frame_found(void **state)
{
    (void)state;
    char pat[16];

    /* p = r = 100%: the state flips every frame; Good never loses (1-k 0),
     * Bad always loses (1-h 100%).  The first frame finds Good. */
    loss_pattern("gemodel 100% 100% 100% 0%", 8, pat);
    assert_string_equal(pat, ".L.L.L.L");
    /* p = 100%, r = 0: Bad forever after the first frame */
    loss_pattern("gemodel 100% 0% 100% 0%", 8, pat);
    assert_string_equal(pat, ".LLLLLLL");
}

static void test_4state_fate_is_the_state_entered(void **state)
{
    (void)state;
    char pat[16];

    /* 1 -> 3 (lost) -> 1 (delivered) -> 3 ... */
    loss_pattern("state 100% 100% 0% 0% 0%", 8, pat);
    assert_string_equal(pat, "L.L.L.L.");
    /* 1 -> 3 (lost), 3 -> 2 (delivered), 2 stays (p23 = 0) */
    loss_pattern("state 100% 0% 100% 0% 0%", 8, pat);
    assert_string_equal(pat, "L.......");
    /* 1 -> 4 (isolated loss) -> 1 always */
    loss_pattern("state 0% 100% 0% 0% 100%", 8, pat);
    assert_string_equal(pat, "L.L.L.L.");
    /* 1 -> 3, then stay in 3 (p31 = p32 = 0) */
    loss_pattern("state 100% 0% 0% 0% 0%", 8, pat);
    assert_string_equal(pat, "LLLLLLLL");
}

static void test_changing_loss_model_at_run_time_restarts_its_state(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l;
    unsigned char lost[4];

    assert_int_equal(gl_wire_parse_loss("gemodel 100% 0% 100% 0%", &p, NULL), 0);
    l = wt_link_sym(&p, 1, 1000);
    run_losses(l, 4, lost);
    assert_int_equal(lost[3], 1);                  /* stuck in Bad */
    assert_int_equal(gl_wire_parse_loss("state 100% 100% 0% 0% 0%", &p, NULL), 0);
    assert_int_equal(gl_link_configure(l, A2B, &p, NULL), 0);
    assert_int_equal(gl_wire_parse_loss("gemodel 100% 0% 100% 0%", &p, NULL), 0);
    assert_int_equal(gl_link_configure(l, A2B, &p, NULL), 0);
    run_losses(l, 4, lost);
    assert_int_equal(lost[0], 0);                  /* back in Good */
    assert_int_equal(lost[1], 1);
    free(l);
}

/* ---- Statistics ---- */

static void test_random_loss_1pct_within_4_sigma_over_1e6_frames(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.loss_pct = 1;
    struct gl_link *l = wt_link_sym(&p, 2024, 1000);
    const double n = 1e6, q = 0.01;
    double drops = (double)run_losses(l, (uint64_t)n, NULL);
    double sigma = sqrt(n * q * (1 - q));

    if (fabs(drops - n * q) > 4 * sigma) {
        fail_msg("%.0f drops, expected %.0f +- %.0f", drops, n * q, 4 * sigma);
    }
    wt_assert_invariants(l);
    free(l);
}

/* Mean loss and mean loss-burst length over @n frames. */
static void loss_stats(struct gl_link *l, uint64_t n, double *mean_loss, double *mean_burst)
{
    unsigned char *lost = malloc(n);
    uint64_t drops, bursts = 0;

    assert_non_null(lost);
    drops = run_losses(l, n, lost);
    for (uint64_t i = 0; i < n; i++) {
        bursts += lost[i] && (i == 0 || !lost[i - 1]);
    }
    *mean_loss = (double)drops / (double)n;
    *mean_burst = bursts ? (double)drops / (double)bursts : 0.0;
    free(lost);
}

static void assert_within(double got, double want, double rel, const char *what)
{
    if (fabs(got - want) > rel * want) {
        fail_msg("%s: got %.6f, want %.6f within %.0f%%", what, got, want, rel * 100);
    }
}

static void test_gilbert_mean_loss_and_burst_within_5pct(void **state)
{
    (void)state;
    /* Simple Gilbert (h = 0, k = 1): loss p/(p+r), bursts geometric 1/r. */
    struct gl_wire_params p = ideal();
    p.loss_model = GL_LOSS_GEMODEL;
    p.ge = (struct gl_wire_ge){ .p = 0.01, .r = 0.3, .h = 0.0, .k = 1.0 };
    struct gl_link *l = wt_link_sym(&p, 77, 1000);
    double loss, burst;

    loss_stats(l, 1000000, &loss, &burst);
    assert_within(loss, 0.01 / 0.31, 0.05, "Gilbert mean loss");
    assert_within(burst, 1.0 / 0.3, 0.05, "Gilbert mean burst");
    free(l);
}

static void test_gilbert_elliott_mean_loss_within_5pct(void **state)
{
    (void)state;
    /* Full GE: loss = (r(1-k) + p(1-h)) / (p + r).  Bursts in Bad are runs
     * of frames lost with 1-h, so the mean loss-burst length is that of a
     * chain: checked against a direct simulation-free formula below. */
    struct gl_wire_params p = ideal();
    const double gp = 0.02, gr = 0.25, h = 0.3, k = 0.995;
    p.loss_model = GL_LOSS_GEMODEL;
    p.ge = (struct gl_wire_ge){ .p = gp, .r = gr, .h = h, .k = k };
    struct gl_link *l = wt_link_sym(&p, 78, 1000);
    double loss, burst;

    loss_stats(l, 1000000, &loss, &burst);
    assert_within(loss, (gr * (1 - k) + gp * (1 - h)) / (gp + gr), 0.05, "GE mean loss");

    /* Mean burst = E[run of losses].  With the loss decided by the state
     * the frame found: P(next lost | lost) = sum over states s of
     * P(s | lost) * sum_t P(s->t) * loss(t).  Mean burst = 1/(1 - that). */
    const double pg = gr / (gp + gr), pb = gp / (gp + gr);
    const double lg = 1 - k, lb = 1 - h;
    const double sg = pg * lg / (pg * lg + pb * lb), sb = 1 - sg;
    const double cont = sg * ((1 - gp) * lg + gp * lb) + sb * (gr * lg + (1 - gr) * lb);
    assert_within(burst, 1.0 / (1.0 - cont), 0.05, "GE mean burst");
    free(l);
}

static void test_4state_mean_loss_matches_stationary_distribution(void **state)
{
    (void)state;
    const double p13 = 0.01, p31 = 0.3, p32 = 0.2, p23 = 0.1, p14 = 0.02;
    struct gl_wire_params p = ideal();
    p.loss_model = GL_LOSS_4STATE;
    p.mm4 = (struct gl_wire_4state){ .p13 = p13, .p31 = p31, .p32 = p32, .p23 = p23, .p14 = p14 };
    struct gl_link *l = wt_link_sym(&p, 79, 1000);
    /* transition matrix T[from][to], states 1..4 as 0..3 */
    const double T[4][4] = {
        { 1 - p13 - p14, 0, p13, p14 },
        { 0, 1 - p23, p23, 0 },
        { p31, p32, 1 - p31 - p32, 0 },
        { 1, 0, 0, 0 },
    };
    double pi[4] = { 1, 0, 0, 0 }, next[4];
    double loss, burst;

    for (int it = 0; it < 20000; it++) {
        for (int j = 0; j < 4; j++) {
            next[j] = 0;
            for (int i = 0; i < 4; i++) {
                next[j] += pi[i] * T[i][j];
            }
        }
        memcpy(pi, next, sizeof(pi));
    }
    loss_stats(l, 1000000, &loss, &burst);
    assert_within(loss, pi[2] + pi[3], 0.05, "4-state mean loss");
    free(l);
}

static void test_4state_loss_bursts_have_mean_1_over_p31_plus_p32(void **state)
{
    (void)state;
    /* state 3 is left with p31 + p32 per frame: burst length geometric. */
    struct gl_wire_params p = ideal();
    assert_int_equal(gl_wire_parse_loss("state 2% 40% 10% 30% 0%", &p, NULL), 0);
    struct gl_link *l = wt_link_sym(&p, 80, 1000);
    double loss, burst;

    loss_stats(l, 1000000, &loss, &burst);
    assert_within(burst, 1.0 / 0.5, 0.05, "4-state burst");
    free(l);
}

/* ---- Jitter distributions ---- */

#define JN 200000

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sample @JN delays (arrival - tx_done) minus latency, in ns, sorted. */
static int64_t *sample_jitter(enum gl_jitter_dist dist, uint64_t latency, uint64_t jitter)
{
    struct gl_wire_params p = ideal();
    p.latency_ns = latency;
    p.jitter_ns = jitter;
    p.jitter_dist = dist;
    struct gl_link *l = wt_link_sym(&p, 1234 + dist, 1000);
    int64_t *x = malloc(JN * sizeof(*x));
    struct gl_delivery d;
    uint64_t now = 0;

    assert_non_null(x);
    for (unsigned i = 0; i < JN; i++) {
        assert_int_equal(gl_link_send(l, A2B, now, 60, i, NULL), GL_WIRE_QUEUED);
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
        x[i] = (int64_t)(d.arrival_ns - d.tx_done_ns) - (int64_t)latency;
        now = d.arrival_ns;
    }
    free(l);
    qsort(x, JN, sizeof(*x), cmp_i64);
    return x;
}

static void moments(const int64_t *x, double *mean, double *sd)
{
    double s = 0, s2 = 0;
    for (unsigned i = 0; i < JN; i++) {
        s += (double)x[i];
    }
    *mean = s / JN;
    for (unsigned i = 0; i < JN; i++) {
        s2 += ((double)x[i] - *mean) * ((double)x[i] - *mean);
    }
    *sd = sqrt(s2 / (JN - 1));
}

static void test_uniform_jitter_spans_minus_to_plus_sigma(void **state)
{
    (void)state;
    const double sigma = 100000;
    int64_t *x = sample_jitter(GL_JITTER_UNIFORM, 1000000, 100000);
    double mean, sd;

    moments(x, &mean, &sd);
    assert_true(x[0] >= -100000 && x[0] < -99000);
    assert_true(x[JN - 1] < 100000 && x[JN - 1] > 99000);
    assert_true(fabs(mean) < 0.01 * sigma);
    assert_within(sd, sigma / sqrt(3.0), 0.01, "uniform sd");
    free(x);
}

static void test_normal_jitter_has_sigma_sd_and_clips_at_4_sigma(void **state)
{
    (void)state;
    const double sigma = 100000;
    int64_t *x = sample_jitter(GL_JITTER_NORMAL, 1000000, 100000);
    double mean, sd;

    moments(x, &mean, &sd);
    assert_true(fabs(mean) < 0.01 * sigma);
    assert_within(sd, sigma, 0.01, "normal sd");
    assert_true(x[0] >= -4 * sigma && x[JN - 1] <= 4 * sigma);
    /* 2.5% quantile of N(0,1) is -1.96 */
    assert_within(-(double)x[JN / 40], 1.96 * sigma, 0.02, "normal 2.5% quantile");
    free(x);
}

static void test_pareto_jitter_matches_netem_table_shape(void **state)
{
    (void)state;
    const double sigma = 100000;
    int64_t *x = sample_jitter(GL_JITTER_PARETO, 1000000, 100000);
    double mean, sd;

    moments(x, &mean, &sd);
    /* netem pareto.c: z = 4/3 (U^-1/3 - 1.5): min -2/3, median
     * 4/3 (2^(1/3) - 1.5) = -0.3201, mean ~0 (slightly below: clipped at 4) */
    assert_true(x[0] >= -(2.0 / 3.0) * sigma - 1);
    assert_true(x[0] < -0.66 * sigma);
    assert_true(x[JN - 1] <= 4 * sigma);
    assert_within(-(double)x[JN / 2], 0.3201 * sigma, 0.02, "pareto median");
    /* clipping at 4 removes 4/3 * (1.5 u0^(2/3) - 4.5 u0), u0 = 4.5^-3:
     * the mean is -0.0329 sigma (sampling sd 0.0025 sigma) */
    assert_true(fabs(mean + 0.0329 * sigma) < 0.008 * sigma);
    free(x);
}

static void test_paretonormal_jitter_matches_netem_table_shape(void **state)
{
    (void)state;
    const double sigma = 100000;
    int64_t *x = sample_jitter(GL_JITTER_PARETONORMAL, 1000000, 100000);
    double mean, sd;

    moments(x, &mean, &sd);
    /* netem paretonormal.c: (Phi^-1(q) + 3 pareto(q)) / 4; at q = 0.5:
     * 3/4 * -0.3201 = -0.2401 */
    assert_within(-(double)x[JN / 2], 0.2401 * sigma, 0.02, "paretonormal median");
    assert_true(x[0] >= -4 * sigma && x[JN - 1] <= 4 * sigma);
    /* 3/4 of the pareto part's clipped mean: -0.0247 sigma */
    assert_true(fabs(mean + 0.0247 * sigma) < 0.008 * sigma);
    free(x);
}

static void test_negative_delay_is_clamped_to_zero(void **state)
{
    (void)state;
    /* latency 10 us, jitter 100 us normal: most draws go below 0 */
    int64_t *x = sample_jitter(GL_JITTER_NORMAL, 10000, 100000);
    assert_int_equal(x[0], -10000);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_loss_10pct_seed_42_drops_exact_frames),
        cmocka_unit_test(test_same_seed_gives_identical_trace),
        cmocka_unit_test(test_different_seed_gives_different_trace),
        cmocka_unit_test(test_direction_decisions_do_not_depend_on_other_direction),
        cmocka_unit_test(test_gemodel_loss_uses_the_state_the_frame_found),
        cmocka_unit_test(test_4state_fate_is_the_state_entered),
        cmocka_unit_test(test_changing_loss_model_at_run_time_restarts_its_state),
        cmocka_unit_test(test_random_loss_1pct_within_4_sigma_over_1e6_frames),
        cmocka_unit_test(test_gilbert_mean_loss_and_burst_within_5pct),
        cmocka_unit_test(test_gilbert_elliott_mean_loss_within_5pct),
        cmocka_unit_test(test_4state_mean_loss_matches_stationary_distribution),
        cmocka_unit_test(test_4state_loss_bursts_have_mean_1_over_p31_plus_p32),
        cmocka_unit_test(test_uniform_jitter_spans_minus_to_plus_sigma),
        cmocka_unit_test(test_normal_jitter_has_sigma_sd_and_clips_at_4_sigma),
        cmocka_unit_test(test_pareto_jitter_matches_netem_table_shape),
        cmocka_unit_test(test_paretonormal_jitter_matches_netem_table_shape),
        cmocka_unit_test(test_negative_delay_is_clamped_to_zero),
    };
    return cmocka_run_group_tests_name("wire_loss", tests, NULL, NULL);
}
