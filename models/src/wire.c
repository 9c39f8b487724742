/*
 * wire.c - the link/wire model (semantics, ownership and known
 * limitations are in gemlab/wire.h).
 *
 * Per direction the in-flight store is an in-order FIFO ring (arrival
 * times never decrease: the common path, O(1)) plus a small binary
 * min-heap for frames that overtake others (reorder_pct, jitter_reorders).
 * gl_link_poll() pops whichever head arrives first.
 *
 * Random draws per offered frame, in this order, each only when its
 * feature is on: loss model (random: 1, gemodel: 2, state: 1), duplication,
 * reordering, jitter, then per copy corruption, skew, duplex mismatch.
 */
#include "gemlab/wire.h"

#include <math.h>
#include <string.h>

#define P53 (1ULL << 53)

/* Keep rare paths out of the hot functions' register allocation. */
#if defined(__GNUC__)
#define GL_NOINLINE __attribute__((noinline))
#else
#define GL_NOINLINE
#endif

/* Probability -> threshold for a 53-bit uniform draw (1.0 always hits). */
static uint64_t thresh(double prob)
{
    if (!(prob > 0.0)) {
        return 0;
    }
    if (prob >= 1.0) {
        return P53;
    }
    return (uint64_t)(prob * (double)P53);
}

static inline uint64_t draw53(struct gl_prng *r)
{
    return gl_prng_u64(r) >> 11;
}

static inline bool hit(struct gl_prng *r, uint64_t t)
{
    return draw53(r) < t;
}

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ---- Ethernet timing ---- */

uint32_t gl_wire_frame_bytes(uint32_t len)
{
    uint32_t body = len < GL_ETH_MIN_FRAME ? GL_ETH_MIN_FRAME : len;
    return body + GL_ETH_FCS + GL_ETH_PREAMBLE + GL_ETH_IFG;
}

/* One byte time in ns: 8 bits at speed_mbps. Exact for 10/100/1000. */
static uint64_t byte_ns(unsigned speed_mbps)
{
    switch (speed_mbps) {
    case 10:
        return 800;
    case 100:
        return 80;
    case 1000:
        return 8;
    default:
        return 0;
    }
}

uint64_t gl_wire_frame_ns(uint32_t len, unsigned speed_mbps)
{
    return (uint64_t)gl_wire_frame_bytes(len) * byte_ns(speed_mbps);
}

/* ---- Parameters compiled into thresholds ---- */

static void compile(struct gl_wire *w, const struct gl_wire_params *p)
{
    w->p = *p;
    w->t_loss = thresh(p->loss_pct / 100.0);
    w->t_dup = thresh(p->dup_pct / 100.0);
    w->t_corrupt = thresh(p->corrupt_pct / 100.0);
    w->t_reorder = thresh(p->reorder_pct / 100.0);
    w->t_skew = thresh(p->skew_crc_pct / 100.0);
    w->t_ge_p = thresh(p->ge.p);
    w->t_ge_r = thresh(p->ge.r);
    w->t_ge_lose_bad = thresh(1.0 - p->ge.h);
    w->t_ge_lose_good = thresh(1.0 - p->ge.k);
    /* cumulative thresholds: ranges cannot leave gaps */
    w->t_p14 = thresh(p->mm4.p14);
    w->t_p13_14 = thresh(p->mm4.p14 + p->mm4.p13);
    w->t_p32 = thresh(p->mm4.p32);
    w->t_p31_32 = thresh(p->mm4.p32 + p->mm4.p31);
    w->t_p23 = thresh(p->mm4.p23);
    /* skew is left out: it acts only while gl_link_set_rgmii_skew marks
     * the direction (gl_link_send checks that at each frame) */
    w->plain = p->rate_bps == 0 && p->jitter_ns == 0 && p->loss_model == GL_LOSS_RANDOM &&
               w->t_loss == 0 && w->t_dup == 0 && w->t_reorder == 0 && w->t_corrupt == 0;
}

static void reset_loss_state(struct gl_wire *w)
{
    /* Gilbert-Elliott starts Good (0); the 4-state chain in state 1. */
    w->loss_state = w->p.loss_model == GL_LOSS_4STATE ? 1 : 0;
}

/* ---- Loss models ---- */

enum { GE_GOOD = 0, GE_BAD = 1 };

static bool lose_ge(struct gl_wire *w)
{
    /* netem loss_gilb_ell(): move, then lose with the old state's rate. */
    if (w->loss_state == GE_GOOD) {
        if (hit(&w->rng, w->t_ge_p)) {
            w->loss_state = GE_BAD;
        }
        return hit(&w->rng, w->t_ge_lose_good);
    }
    if (hit(&w->rng, w->t_ge_r)) {
        w->loss_state = GE_GOOD;
    }
    return hit(&w->rng, w->t_ge_lose_bad);
}

static bool lose_4state(struct gl_wire *w)
{
    uint64_t u = draw53(&w->rng);

    /* netem loss_4state(): the frame's fate is the state it moves to
     * (3 and 4 lose it). */
    switch (w->loss_state) {
    case 1:
        if (u < w->t_p14) {
            w->loss_state = 4;
            return true;
        } else if (u < w->t_p13_14) {
            w->loss_state = 3;
            return true;
        }
        return false;
    case 2:
        if (u < w->t_p23) {
            w->loss_state = 3;
            return true;
        }
        return false;
    case 3:
        if (u < w->t_p32) {
            w->loss_state = 2;
            return false;
        } else if (u < w->t_p31_32) {
            w->loss_state = 1;
            return false;
        }
        return true;
    default: /* 4: an isolated loss always returns to the gap */
        w->loss_state = 1;
        return false;
    }
}

static bool lose(struct gl_wire *w)
{
    switch (w->p.loss_model) {
    case GL_LOSS_GEMODEL:
        return lose_ge(w);
    case GL_LOSS_4STATE:
        return lose_4state(w);
    case GL_LOSS_RANDOM:
    default:
        return w->t_loss != 0 && hit(&w->rng, w->t_loss);
    }
}

/* ---- Jitter (netem tabledist shapes, generated analytically) ---- */

/* netem's tables hold s16 values scaled by NETEM_DIST_SCALE (8192). */
#define Z_MIN (-32768.0 / 8192.0)
#define Z_MAX (32767.0 / 8192.0)

/*
 * Inverse standard normal CDF, P. J. Acklam's rational approximation
 * (relative error below 1.2e-9), published coefficients.
 */
static double inv_normal(double q)
{
    static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00 };
    static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01 };
    static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00, 2.938163982698783e+00 };
    static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
                                2.445134137142996e+00, 3.754408661907416e+00 };
    const double q_low = 0.02425;
    double x, r;

    if (q <= 0.0) {
        return -HUGE_VAL;
    }
    if (q >= 1.0) {
        return HUGE_VAL;
    }
    if (q < q_low) {
        x = sqrt(-2.0 * log(q));
        return (((((c[0] * x + c[1]) * x + c[2]) * x + c[3]) * x + c[4]) * x + c[5]) /
               ((((d[0] * x + d[1]) * x + d[2]) * x + d[3]) * x + 1.0);
    }
    if (q > 1.0 - q_low) {
        x = sqrt(-2.0 * log(1.0 - q));
        return -(((((c[0] * x + c[1]) * x + c[2]) * x + c[3]) * x + c[4]) * x + c[5]) /
               ((((d[0] * x + d[1]) * x + d[2]) * x + d[3]) * x + 1.0);
    }
    x = q - 0.5;
    r = x * x;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * x /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

/* netem pareto.c: alpha 3, x_m 1, minus its mean 1.5, times 4/3; u in (0, 1]. */
static double pareto_z(double u)
{
    double z = (4.0 / 3.0) * (1.0 / cbrt(u) - 1.5);
    return z > Z_MAX ? Z_MAX : z;
}

static double clip_z(double z)
{
    return z < Z_MIN ? Z_MIN : z > Z_MAX ? Z_MAX : z;
}

/* Total delay (latency + jitter sample) in ns, never negative. */
static uint64_t delay_ns(struct gl_wire *w)
{
    const uint64_t mu = w->p.latency_ns, sigma = w->p.jitter_ns;
    double z, q, n, d;

    if (sigma == 0) {
        return mu;
    }
    switch (w->p.jitter_dist) {
    case GL_JITTER_NORMAL:
        z = clip_z(gl_prng_normal(&w->rng));
        break;
    case GL_JITTER_PARETO:
        z = pareto_z(1.0 - gl_prng_u01(&w->rng));
        break;
    case GL_JITTER_PARETONORMAL:
        /* netem paretonormal.c: both inverse CDFs at the same quantile;
         * its normal table spans x in [-10, 10]. */
        q = gl_prng_u01(&w->rng);
        n = inv_normal(q);
        n = n < -10.0 ? -10.0 : n > 10.0 ? 10.0 : n;
        z = clip_z((n + 3.0 * pareto_z(1.0 - q)) / 4.0);
        break;
    case GL_JITTER_UNIFORM:
    default: {
        /* netem: (rnd % (2 sigma)) + mu - sigma, an integer in [mu-s, mu+s) */
        uint64_t x = gl_prng_below(&w->rng, 2 * sigma);
        return mu + x < sigma ? 0 : mu + x - sigma;
    }
    }
    d = (double)mu + (double)sigma * z;
    return d <= 0.0 ? 0 : (uint64_t)(d + 0.5);
}

/* ---- Load window for duplex mismatch ---- */

static void load_account(struct gl_wire *w, uint64_t start_ns, uint64_t busy_ns)
{
    const uint64_t win = GL_WIRE_DUPLEX_WINDOW_NS;

    if (start_ns >= w->win_start_ns + win) {
        w->prev_busy_ns = start_ns < w->win_start_ns + 2 * win ? w->win_busy_ns : 0;
        w->win_start_ns = start_ns - start_ns % win;
        w->win_busy_ns = 0;
    }
    w->win_busy_ns += busy_ns;
}

/* Busy time of @w's most recently completed window as seen at @t. */
static uint64_t load_recent(const struct gl_wire *w, uint64_t t)
{
    const uint64_t win = GL_WIRE_DUPLEX_WINDOW_NS;

    if (t >= w->win_start_ns + 2 * win) {
        return 0;
    }
    if (t >= w->win_start_ns + win) {
        return w->win_busy_ns;
    }
    return w->prev_busy_ns;
}

/* ---- Rate-cap queue ---- */

#define QMASK (GL_WIRE_QUEUE_MAX - 1u)

static void queue_advance(struct gl_wire *w, uint64_t t)
{
    while (w->q_count && w->q[w->q_head].depart_ns <= t) {
        w->q_bytes -= w->q[w->q_head].wire_bytes;
        w->q_head = (w->q_head + 1) & QMASK;
        w->q_count--;
    }
}

/* Serve a frame of @wire_bytes entering the capped server at @t; returns
 * when its last bit leaves.  The sub-ns remainder is carried while the
 * server stays busy so a long busy period is exact. */
static uint64_t cap_serve(struct gl_wire *w, uint64_t t, uint32_t wire_bytes)
{
    uint64_t start, num;

    if (t >= w->cap_free_ns) {
        start = t;
        w->cap_rem = 0;
    } else {
        start = w->cap_free_ns;
    }
    num = (uint64_t)wire_bytes * 8u * 1000000000ULL + w->cap_rem;
    w->cap_rem = num % w->p.rate_bps;
    w->cap_free_ns = start + num / w->p.rate_bps;

    uint32_t i = (w->q_head + w->q_count) & QMASK;
    w->q[i].depart_ns = w->cap_free_ns;
    w->q[i].wire_bytes = wire_bytes;
    w->q[i].pad = 0;
    w->q_count++;
    w->q_bytes += wire_bytes;
    return w->cap_free_ns;
}

/* A frame of @wire_bytes offered to the rate cap at @t: false when the
 * queue in front of it is full; else true with *@depart when its last
 * bit leaves the capped server (@t itself when no cap acts). */
static bool cap_admit(const struct gl_link *l, struct gl_wire *w, uint64_t t, uint32_t wire_bytes,
                      uint64_t *depart)
{
    *depart = t;
    if (w->p.rate_bps == 0 || w->p.rate_bps >= (uint64_t)l->speed_mbps * 1000000u) {
        return true;
    }
    queue_advance(w, t);
    if (w->q_count >= w->p.queue_frames || w->q_bytes + wire_bytes > w->p.queue_bytes) {
        return false;
    }
    *depart = cap_serve(w, t, wire_bytes);
    return true;
}

/* ---- In-flight store ---- */

#define FMASK (GL_WIRE_INFLIGHT_MAX - 1u)

static inline bool slot_before(const struct gl_wire_slot *a, const struct gl_wire_slot *b)
{
    if (a->arrival_ns != b->arrival_ns) {
        return a->arrival_ns < b->arrival_ns;
    }
    return (int32_t)(a->seq - b->seq) < 0;
}

static struct gl_wire_slot *heap_push(struct gl_wire *w, const struct gl_wire_slot *s)
{
    uint32_t i = w->h_count++;

    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!slot_before(s, &w->heap[parent])) {
            break;
        }
        w->heap[i] = w->heap[parent];
        i = parent;
    }
    w->heap[i] = *s;
    return &w->heap[i];
}

static void heap_pop(struct gl_wire *w)
{
    struct gl_wire_slot last = w->heap[--w->h_count];
    uint32_t i = 0, n = w->h_count;

    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && slot_before(&w->heap[child + 1], &w->heap[child])) {
            child++;
        }
        if (!slot_before(&w->heap[child], &last)) {
            break;
        }
        w->heap[i] = w->heap[child];
        i = child;
    }
    if (n) {
        w->heap[i] = last;
    }
}

/* Store @s; returns where it went (stable until the next pop, and an
 * earlier-arriving slot is never moved by a later push), NULL when full. */
static inline struct gl_wire_slot *store_insert(struct gl_wire *w,
                                                const struct gl_wire_slot *s)
{
    if (w->f_count < GL_WIRE_INFLIGHT_MAX &&
        (w->f_count == 0 ||
         !slot_before(s, &w->fifo[(w->f_head + w->f_count - 1) & FMASK]))) {
        struct gl_wire_slot *dst = &w->fifo[(w->f_head + w->f_count) & FMASK];
        *dst = *s;
        w->f_count++;
        return dst;
    }
    if (w->h_count < GL_WIRE_OOO_MAX) {
        return heap_push(w, s);
    }
    return NULL;
}

/* Earliest slot, or NULL; *from_heap tells which structure holds it. */
static const struct gl_wire_slot *store_peek(const struct gl_wire *w, bool *from_heap)
{
    const struct gl_wire_slot *f = w->f_count ? &w->fifo[w->f_head] : NULL;
    const struct gl_wire_slot *h = w->h_count ? &w->heap[0] : NULL;

    if (h && (!f || slot_before(h, f))) {
        *from_heap = true;
        return h;
    }
    *from_heap = false;
    return f;
}

/* ---- FCS errors per copy ---- */

/* RGMII skew corrupts a direction only while its clock delay is wrong
 * (gl_link_set_rgmii_skew) and the link runs at 1000 Mb/s. */
static bool skew_active(const struct gl_link *l, int dir)
{
    return l->rgmii_skewed[dir] && l->speed_mbps == 1000 && l->dir[dir].t_skew != 0;
}

static uint16_t fcs_faults(struct gl_link *l, int dir)
{
    struct gl_wire *w = &l->dir[dir];
    uint16_t flags = 0;

    if (w->t_corrupt && hit(&w->rng, w->t_corrupt)) {
        flags |= GL_DELIV_FCS_ERROR | GL_DELIV_CORRUPT;
        w->c.corrupted++;
    }
    if (skew_active(l, dir) && hit(&w->rng, w->t_skew)) {
        flags |= GL_DELIV_FCS_ERROR | GL_DELIV_SKEW;
        w->c.skew_errors++;
    }
    return flags;
}

/* ---- Link API ---- */

static bool dir_ok(int dir)
{
    return dir == GL_LINK_A_TO_B || dir == GL_LINK_B_TO_A;
}

static void wire_reset(struct gl_wire *w, const struct gl_wire_params *p, uint64_t seed)
{
    memset(w, 0, sizeof(*w));
    compile(w, p);
    reset_loss_state(w);
    gl_prng_seed(&w->rng, seed);
}

int gl_link_init(struct gl_link *l, const struct gl_wire_params *a_to_b,
                 const struct gl_wire_params *b_to_a, uint64_t seed,
                 struct gl_err *err)
{
    int rc;

    if (!l) {
        return gl_err_set(err, -EINVAL, "link: no link given");
    }
    if ((rc = gl_wire_params_validate(a_to_b, err)) ||
        (rc = gl_wire_params_validate(b_to_a, err))) {
        return rc;
    }
    /* Each direction has its own stream so its decisions do not depend on
     * how the host interleaves the two directions. */
    wire_reset(&l->dir[0], a_to_b, seed);
    wire_reset(&l->dir[1], b_to_a, seed ^ 0x9e3779b97f4a7c15ULL);
    l->up = false;
    l->full_duplex[0] = l->full_duplex[1] = true;
    l->rgmii_skewed[0] = l->rgmii_skewed[1] = false;
    l->speed_mbps = 1000;
    return 0;
}

void gl_link_set_rgmii_skew(struct gl_link *l, bool a_to_b, bool b_to_a)
{
    if (!l) {
        return;
    }
    l->rgmii_skewed[GL_LINK_A_TO_B] = a_to_b;
    l->rgmii_skewed[GL_LINK_B_TO_A] = b_to_a;
}

int gl_link_configure(struct gl_link *l, int dir, const struct gl_wire_params *p,
                      struct gl_err *err)
{
    int rc;

    if (!l) {
        return gl_err_set(err, -EINVAL, "link: no link given");
    }
    if (!dir_ok(dir)) {
        return gl_err_set(err, -EINVAL, "link.dir: %d is out of range [0, 1]", dir);
    }
    if ((rc = gl_wire_params_validate(p, err))) {
        return rc;
    }
    struct gl_wire *w = &l->dir[dir];
    bool model_changed = w->p.loss_model != p->loss_model;
    compile(w, p);
    if (model_changed) {
        reset_loss_state(w);
    }
    if (w->reorder_count >= p->reorder_gap) {
        w->reorder_count = p->reorder_gap - 1;
    }
    return 0;
}

static void drop_in_flight(struct gl_wire *w, uint64_t now)
{
    for (uint32_t i = 0; i < w->f_count; i++) {
        struct gl_wire_slot *s = &w->fifo[(w->f_head + i) & FMASK];
        if (s->arrival_ns > now && !(s->flags & GL_DELIV_DROPPED)) {
            s->flags |= GL_DELIV_DROPPED;
            w->c.dropped_link_down++;
            w->c.in_flight--;
        }
    }
    for (uint32_t i = 0; i < w->h_count; i++) {
        struct gl_wire_slot *s = &w->heap[i];
        if (s->arrival_ns > now && !(s->flags & GL_DELIV_DROPPED)) {
            s->flags |= GL_DELIV_DROPPED;
            w->c.dropped_link_down++;
            w->c.in_flight--;
        }
    }
}

int gl_link_set_phy(struct gl_link *l, bool up, unsigned speed_mbps,
                    bool a_full_duplex, bool b_full_duplex, uint64_t now_ns,
                    struct gl_err *err)
{
    if (!l) {
        return gl_err_set(err, -EINVAL, "link: no link given");
    }
    if (byte_ns(speed_mbps) == 0 && (up || speed_mbps != 0)) {
        return gl_err_set(err, -EINVAL, "link.speed_mbps: %u is not one of 10, 100, 1000%s",
                          speed_mbps, up ? "" : " (or 0 while down)");
    }
    if (l->up && !up) {
        for (int d = 0; d < 2; d++) {
            struct gl_wire *w = &l->dir[d];
            w->now_ns = max_u64(w->now_ns, now_ns);
            drop_in_flight(w, w->now_ns);
            /* What was dropped no longer holds the rate cap's queue or
             * orders the frames sent after the link returns: every frame
             * still queued departs after now, so it was in flight.  Those
             * that arrived by now keep their order floor. */
            queue_advance(w, w->now_ns);
            w->q_head = 0;
            w->q_count = 0;
            w->q_bytes = 0;
            w->cap_free_ns = min_u64(w->cap_free_ns, w->now_ns);
            w->cap_rem = 0;
            w->last_arrival_ns = min_u64(w->last_arrival_ns, w->now_ns);
        }
    }
    l->up = up;
    if (speed_mbps) {
        l->speed_mbps = speed_mbps;
    }
    l->full_duplex[0] = a_full_duplex;
    l->full_duplex[1] = b_full_duplex;
    return 0;
}

/* ---- CSMA/CD (IEEE 802.3 4.2.3.2) for a half-duplex sender ---- */

enum csma_fate { CSMA_SENT, CSMA_LATE, CSMA_EXCESSIVE };

#define CSMA_ATTEMPT_LIMIT 16u  /* attemptLimit, 4.4.2 */
#define CSMA_BACKOFF_LIMIT 10u  /* backoffLimit, 4.4.2 */

/* Direction @dir's sender is half duplex; at @now it offers a frame of
 * @line_ns on-wire time (IFG included) that its MAC can start at @start
 * (later than @now when frames queue ahead of it).  Returns the start of
 * the last attempt; *@fate says how it ended and *@end when the MAC is
 * free again. */
static uint64_t csma(struct gl_link *l, int dir, uint64_t now, uint64_t start, uint64_t line_ns,
                     enum csma_fate *fate, uint64_t *end)
{
    struct gl_wire *w = &l->dir[dir];
    const struct gl_wire *o = &l->dir[!dir];
    const bool other_full = l->full_duplex[!dir];
    const uint64_t bit = byte_ns(l->speed_mbps) / 8u;
    /* slotTime: 512 bit times; 4096 at 1000 Mb/s (carrier extension) */
    const uint64_t slot = (l->speed_mbps == 1000 ? 4096u : 512u) * bit;
    const uint64_t jam = 32u * bit, ifg = 96u * bit;
    const uint64_t signal = line_ns - ifg;  /* preamble to FCS */
    const uint64_t preamble = 64u * bit;    /* the slot counts from the frame's first bit */
    /* the other side's load when the frame is offered stands for every
     * attempt: its frames after the ones known now are not offered yet.
     * Asked at @start instead, a frame queued more than two windows ahead
     * (the in-emulator partner hands over up to 64 frames, 7.9 ms at
     * 100 Mb/s) found no load at all and never collided. */
    const uint64_t busy = other_full ? load_recent(o, now) : 0;
    const uint64_t t_busy = busy ? thresh((double)busy / (double)GL_WIRE_DUPLEX_WINDOW_NS) : 0;
    unsigned attempts = 0;
    bool deferred = false;

    for (;;) {
        uint64_t off = UINT64_MAX;

        /* Carrier sense: the other side's transmission known so far.  Its
         * MAC-free time already holds the IFG after its last frame. */
        if (o->mac_free_ns > start && o->busy_from_ns < start + signal) {
            if (o->busy_from_ns == start || (other_full && o->busy_from_ns > start)) {
                /* it starts together with us, or (full duplex, it never
                 * defers) in the middle of our frame */
                off = o->busy_from_ns - start;
            } else {
                start = o->mac_free_ns;
                deferred = true;
                continue;
            }
        }
        /* A full-duplex other side also starts frames nobody has offered
         * yet: one begins inside ours with the probability that its MAC is
         * busy (its load in the last window). */
        if (off == UINT64_MAX && t_busy && hit(&w->rng, t_busy)) {
            off = gl_prng_below(&w->rng, signal);
        }
        if (deferred && attempts == 0) {
            w->c.deferred++;
        }
        if (off == UINT64_MAX) {
            if (attempts == 1) {
                w->c.single_collision++;
            } else if (attempts > 1) {
                w->c.multiple_collision++;
            }
            *fate = CSMA_SENT;
            *end = start + line_ns;
            return start;
        }
        w->c.collisions++;
        attempts++;
        if (off >= preamble + slot) {
            /* late collision: not retried (4.2.3.2.4 leaves it to the
             * MAC; the GEM counts it and drops the frame) */
            w->c.late_collisions++;
            *fate = CSMA_LATE;
            *end = start + off + jam + ifg;
            return start;
        }
        if (attempts == CSMA_ATTEMPT_LIMIT) {
            *fate = CSMA_EXCESSIVE;
            *end = start + off + jam + ifg;
            return start;
        }
        /* truncated binary exponential backoff: r slots, 0 <= r < 2^k,
         * k = min(attempts, backoffLimit) (4.2.3.2.5) */
        start += off + jam + ifg +
                 gl_prng_below(&w->rng, UINT64_C(1) << (attempts < CSMA_BACKOFF_LIMIT ? attempts
                                                                                   : CSMA_BACKOFF_LIMIT)) * slot;
    }
}

/* Everything after the sender's MAC when some impairment is configured
 * (or a late collision cut the frame: @cut).  @done: when the MAC
 * finished it. */
static GL_NOINLINE int send_impaired(struct gl_link *l, int dir, uint64_t done,
                                     uint64_t line_ns, uint32_t wire_bytes, uint32_t len,
                                     uint64_t cookie, uint16_t cut)
{
    struct gl_wire *w = &l->dir[dir];
    uint64_t depart = done;

    if (!cap_admit(l, w, done, wire_bytes, &depart)) {
        w->c.dropped_queue++;
        return GL_WIRE_DROP_QUEUE;
    }

    if (lose(w)) {
        w->c.dropped_loss++;
        return GL_WIRE_DROP_LOSS;
    }
    const bool dup = w->t_dup != 0 && hit(&w->rng, w->t_dup);

    struct gl_wire_slot s = {
        .tx_done_ns = done, .cookie = cookie, .seq = w->seq++, .len = (uint16_t)len,
    };
    bool reordered = false;
    if (w->t_reorder != 0) {
        /* netem: the first gap-1 frames after a jump are delayed, then
         * each frame jumps with reorder_pct until one does. */
        if (w->reorder_count + 1 < w->p.reorder_gap || !hit(&w->rng, w->t_reorder)) {
            if (w->reorder_count + 1 < w->p.reorder_gap) {
                w->reorder_count++;
            }
        } else {
            reordered = true;
            w->reorder_count = 0;
        }
    }
    if (reordered) {
        s.arrival_ns = depart;
        s.flags = GL_DELIV_REORDERED;
        w->c.reordered++;
    } else {
        /* in order, and behind the previous frame: one frame time after
         * it, not with it.  sch_netem adds the packet's time at its
         * configured rate after its ordering clamp, so behind a rate cap
         * that is the capped frame time (rounded down: the cap itself
         * carries the remainder, cap_serve): with the line's, a
         * 100 Mb/s cap followed by jitter delivered 258 Mb/s over 1 ms. */
        uint64_t spacing = line_ns;
        if (w->p.rate_bps != 0 && w->p.rate_bps < (uint64_t)l->speed_mbps * 1000000u) {
            spacing = (uint64_t)wire_bytes * 8u * 1000000000ULL / w->p.rate_bps;
        }
        s.arrival_ns = depart + delay_ns(w);
        if (!w->p.jitter_reorders && w->last_arrival_ns && s.arrival_ns < w->last_arrival_ns + spacing) {
            s.arrival_ns = w->last_arrival_ns + spacing;
        }
    }
    s.flags |= GL_DELIV_LAST;
    const bool fcs_possible = w->t_corrupt != 0 || skew_active(l, dir);
    if (fcs_possible) {
        s.flags |= fcs_faults(l, dir);
    }
    if (cut) {
        s.flags |= cut;
        w->c.duplex_errors++;
    }

    struct gl_wire_slot *orig = store_insert(w, &s);
    if (!orig) {
        w->c.dropped_store++;
        return GL_WIRE_DROP_STORE;
    }
    w->c.in_flight++;
    if (!reordered) {
        w->last_arrival_ns = max_u64(w->last_arrival_ns, s.arrival_ns);
    }

    if (dup) {
        /* The copy follows its original back-to-back on the sender's
         * wire: it takes one more frame time there, so the MAC's next
         * frame waits for it (a duplicate is a frame on the line, not a
         * free one), and it passes the rate cap's queue like any frame
         * (netem enqueues the copy at the root qdisc).  It keeps its
         * original's delay, and its tx_done_ns: the send that made it. */
        struct gl_wire_slot d = s;
        uint64_t d_done = done + line_ns, d_depart = d_done;
        w->mac_free_ns = max_u64(w->mac_free_ns, d_done);
        load_account(w, done, line_ns);
        w->c.duplicated++;
        if (!cap_admit(l, w, d_done, wire_bytes, &d_depart)) {
            w->c.dropped_queue++;      /* the copy found the queue full; the original goes on */
            return GL_WIRE_QUEUED;
        }
        d.arrival_ns = s.arrival_ns + (d_depart - depart);
        d.flags = (uint16_t)((s.flags & GL_DELIV_REORDERED) | GL_DELIV_DUPLICATE | GL_DELIV_LAST |
                             (fcs_possible ? fcs_faults(l, dir) : 0) | cut);
        w->c.duplex_errors += cut != 0;
        if (store_insert(w, &d)) {
            orig->flags &= (uint16_t)~GL_DELIV_LAST;
            w->c.in_flight++;
            if (!reordered) {
                w->last_arrival_ns = max_u64(w->last_arrival_ns, d.arrival_ns);
            }
        } else {
            w->c.dropped_store++;
        }
    }
    return GL_WIRE_QUEUED;
}

static GL_NOINLINE struct gl_wire_slot *store_insert_slow(struct gl_wire *w,
                                                          const struct gl_wire_slot *s)
{
    return store_insert(w, s);
}

int gl_link_send(struct gl_link *l, int dir, uint64_t now_ns, uint32_t len,
                 uint64_t cookie, uint64_t *tx_done_ns)
{
    if (!l || !dir_ok(dir) || len == 0 || len > GL_WIRE_LEN_MAX) {
        return -EINVAL;
    }
    struct gl_wire *w = &l->dir[dir];
    const uint32_t wire_bytes = gl_wire_frame_bytes(len);
    const uint64_t line_ns = (uint64_t)wire_bytes * byte_ns(l->speed_mbps);
    const uint64_t now = w->now_ns = max_u64(w->now_ns, now_ns);

    /* The sender's MAC serializes at line rate whatever happens next;
     * a half-duplex one first defers and backs off (CSMA/CD). */
    uint64_t start = max_u64(now, w->mac_free_ns);
    uint64_t done = start + line_ns;
    enum csma_fate fate = CSMA_SENT;
    if (l->up && !l->full_duplex[dir]) {
        start = csma(l, dir, now, start, line_ns, &fate, &done);
    }
    if (start > w->mac_free_ns) {
        w->busy_from_ns = start;
    }
    w->mac_free_ns = done;
    if (tx_done_ns) {
        *tx_done_ns = done;
    }
    w->c.sent++;
    w->c.bytes_sent += len;
    load_account(w, start, done - start);

    if (!l->up) {
        w->c.dropped_link_down++;
        return GL_WIRE_DROP_LINK_DOWN;
    }
    if (fate == CSMA_EXCESSIVE) {
        w->c.dropped_collision++;
        return GL_WIRE_DROP_COLLISION;
    }
    if (w->f_count == GL_WIRE_INFLIGHT_MAX && w->h_count == GL_WIRE_OOO_MAX) {
        w->c.dropped_store++;
        return GL_WIRE_DROP_STORE;
    }
    if (!w->plain || fate == CSMA_LATE || skew_active(l, dir)) {
        return send_impaired(l, dir, done, line_ns, wire_bytes, len, cookie,
                             fate == CSMA_LATE ? GL_DELIV_FCS_ERROR | GL_DELIV_DUPLEX : 0);
    }

    /* Common path: propagation delay only, in order. */
    uint64_t arrival = done + w->p.latency_ns;
    if (w->last_arrival_ns && arrival < w->last_arrival_ns + line_ns) {
        arrival = w->last_arrival_ns + line_ns;  /* latency was lowered at run time: in order, a frame apart */
    }
    w->last_arrival_ns = arrival;
    /* The FIFO tail may be a reordered frame (or its duplicate) that
     * arrives later than any in-order one: last_arrival_ns ignores those,
     * so a link reconfigured from reordering to unimpaired must not append
     * behind it (tests/fuzz/wire found the FIFO out of order). */
    if (w->f_count < GL_WIRE_INFLIGHT_MAX &&
        (w->f_count == 0 ||
         w->fifo[(w->f_head + w->f_count - 1) & FMASK].arrival_ns <= arrival)) {
        struct gl_wire_slot *dst = &w->fifo[(w->f_head + w->f_count) & FMASK];
        dst->arrival_ns = arrival;
        dst->tx_done_ns = done;
        dst->cookie = cookie;
        dst->seq = w->seq++;
        dst->len = (uint16_t)len;
        dst->flags = GL_DELIV_LAST;
        w->f_count++;
    } else {
        const struct gl_wire_slot s = {
            .arrival_ns = arrival, .tx_done_ns = done, .cookie = cookie,
            .seq = w->seq++, .len = (uint16_t)len, .flags = GL_DELIV_LAST,
        };
        if (!store_insert_slow(w, &s)) {
            w->c.dropped_store++;
            return GL_WIRE_DROP_STORE;
        }
    }
    w->c.in_flight++;
    return GL_WIRE_QUEUED;
}

/* When @s's last bit reaches the receiver.  Jitter that reorders and
 * frames netem "sends at once" decide each frame's own time; the
 * receiving side's line still carries one frame at a time, so a frame
 * ends no sooner than one frame time (IFG included, IEEE 802.3 4.4.2)
 * after the one delivered before it (in sch_netem the device serializes
 * what the tfifo releases).  A frame dropped by a link drop was never on
 * the line. */
static inline uint64_t due_ns(const struct gl_link *l, const struct gl_wire *w,
                              const struct gl_wire_slot *s)
{
    if (s->flags & GL_DELIV_DROPPED) {
        return s->arrival_ns;
    }
    return max_u64(s->arrival_ns, w->rx_free_ns + gl_wire_frame_ns(s->len, l->speed_mbps));
}

/* Hand @s over, due at @due, and account for it. */
static inline void deliver(struct gl_wire *w, const struct gl_wire_slot *s, uint64_t due,
                           struct gl_delivery *out)
{
    out->cookie = s->cookie;
    out->arrival_ns = due;
    out->tx_done_ns = s->tx_done_ns;
    out->len = s->len;
    out->flags = s->flags;
    if (!(s->flags & GL_DELIV_DROPPED)) {
        /* DROPPED ones were counted when the link went down. */
        w->rx_free_ns = due;
        w->c.in_flight--;
        w->c.delivered++;
        w->c.bytes_delivered += s->len;
        if (s->flags & GL_DELIV_FCS_ERROR) {
            w->c.fcs_errors++;
        }
    }
}

/* Poll when out-of-order frames are in flight. */
static GL_NOINLINE int poll_mixed(const struct gl_link *l, struct gl_wire *w, uint64_t now_ns,
                                  struct gl_delivery *out)
{
    bool from_heap;
    const struct gl_wire_slot *s = store_peek(w, &from_heap);
    uint64_t due;

    if (!s || (due = due_ns(l, w, s)) > now_ns) {
        return 0;
    }
    deliver(w, s, due, out);
    if (from_heap) {
        heap_pop(w);
    } else {
        w->f_head = (w->f_head + 1) & FMASK;
        w->f_count--;
    }
    return 1;
}

int gl_link_poll(struct gl_link *l, int dir, uint64_t now_ns, struct gl_delivery *out)
{
    if (!l || !dir_ok(dir) || !out) {
        return -EINVAL;
    }
    struct gl_wire *w = &l->dir[dir];

    /* Polling does not advance the direction's clock: looking ahead with a
     * large now_ns is harmless. */
    if (w->h_count != 0) {
        return poll_mixed(l, w, now_ns, out);
    }
    /* common path: everything in flight is in order */
    uint64_t due;
    if (w->f_count == 0 || (due = due_ns(l, w, &w->fifo[w->f_head])) > now_ns) {
        return 0;
    }
    deliver(w, &w->fifo[w->f_head], due, out);
    w->f_head = (w->f_head + 1) & FMASK;
    w->f_count--;
    return 1;
}

uint64_t gl_link_next_deadline(const struct gl_link *l, int dir)
{
    bool from_heap;

    if (!l || !dir_ok(dir)) {
        return GL_NEVER;
    }
    const struct gl_wire_slot *s = store_peek(&l->dir[dir], &from_heap);
    return s ? due_ns(l, &l->dir[dir], s) : GL_NEVER;
}

void gl_link_get_counters(const struct gl_link *l, int dir, struct gl_wire_counters *c)
{
    if (!c) {
        return;
    }
    if (!l || !dir_ok(dir)) {
        memset(c, 0, sizeof(*c));
        return;
    }
    *c = l->dir[dir].c;
}

size_t gl_link_state_size(void)
{
    return sizeof(struct gl_link);
}

static int check_slot(const struct gl_wire_slot *s, int dir, struct gl_err *err)
{
    if (s->arrival_ns < s->tx_done_ns) {
        return gl_err_set(err, -EINVAL,
                          "link.dir[%d]: cookie %llu arrives at %llu before its tx_done %llu",
                          dir, (unsigned long long)s->cookie,
                          (unsigned long long)s->arrival_ns, (unsigned long long)s->tx_done_ns);
    }
    return 0;
}

int gl_link_check_invariants(const struct gl_link *l, struct gl_err *err)
{
    if (!l) {
        return gl_err_set(err, -EINVAL, "link: no link given");
    }
    for (int dir = 0; dir < 2; dir++) {
        const struct gl_wire *w = &l->dir[dir];
        const struct gl_wire_counters *c = &w->c;
        uint64_t live = 0, qb = 0;
        int rc;

        if (c->sent + c->duplicated != c->delivered + c->dropped_link_down + c->dropped_queue +
                                           c->dropped_loss + c->dropped_store + c->dropped_collision + c->in_flight) {
            return gl_err_set(err, -EINVAL, "link.dir[%d]: counters do not balance", dir);
        }
        if (w->f_count > GL_WIRE_INFLIGHT_MAX || w->h_count > GL_WIRE_OOO_MAX ||
            w->q_count > GL_WIRE_QUEUE_MAX) {
            return gl_err_set(err, -EINVAL, "link.dir[%d]: store counts out of range", dir);
        }
        for (uint32_t i = 0; i < w->f_count; i++) {
            const struct gl_wire_slot *s = &w->fifo[(w->f_head + i) & FMASK];
            if (i && slot_before(s, &w->fifo[(w->f_head + i - 1) & FMASK])) {
                return gl_err_set(err, -EINVAL, "link.dir[%d]: FIFO out of order at %u", dir, i);
            }
            if ((rc = check_slot(s, dir, err))) {
                return rc;
            }
            live += !(s->flags & GL_DELIV_DROPPED);
        }
        for (uint32_t i = 0; i < w->h_count; i++) {
            if (i && slot_before(&w->heap[i], &w->heap[(i - 1) / 2])) {
                return gl_err_set(err, -EINVAL, "link.dir[%d]: heap order broken at %u", dir, i);
            }
            if ((rc = check_slot(&w->heap[i], dir, err))) {
                return rc;
            }
            live += !(w->heap[i].flags & GL_DELIV_DROPPED);
        }
        if (live != c->in_flight) {
            return gl_err_set(err, -EINVAL, "link.dir[%d]: %llu live slots but in_flight %llu",
                              dir, (unsigned long long)live, (unsigned long long)c->in_flight);
        }
        for (uint32_t i = 0; i < w->q_count; i++) {
            qb += w->q[(w->q_head + i) & QMASK].wire_bytes;
        }
        if (qb != w->q_bytes) {
            return gl_err_set(err, -EINVAL, "link.dir[%d]: queue holds %llu bytes, accounted %llu",
                              dir, (unsigned long long)qb, (unsigned long long)w->q_bytes);
        }
    }
    return 0;
}
