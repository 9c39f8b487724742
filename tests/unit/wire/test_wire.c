/*
 * test_wire.c - the link/wire model: exact Ethernet timing, the rate-cap
 * queue, ownership of duplicated frames, reordering, FCS-error faults,
 * link state, invariants and every configuration error path.
 * Statistical loss and jitter checks live in tests/unit/wire_loss.
 */
#include "wire_test_util.h"

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

/* ---- Exact timing ---- */

static void test_frame_1514_at_100m_occupies_123040_ns(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 100);
    struct gl_delivery d;
    uint64_t done = 0;

    assert_int_equal(gl_wire_frame_bytes(1514), 1538);
    assert_int_equal(gl_wire_frame_ns(1514, 100), 123040);
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 7, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 123040);
    assert_int_equal(gl_link_next_deadline(l, A2B), 123040);
    assert_int_equal(gl_link_poll(l, A2B, 123039, &d), 0);
    assert_int_equal(gl_link_poll(l, A2B, 123040, &d), 1);
    assert_int_equal(d.cookie, 7);
    assert_int_equal(d.len, 1514);
    assert_int_equal(d.arrival_ns, 123040);
    assert_int_equal(d.flags, GL_DELIV_LAST);
    assert_int_equal(gl_link_next_deadline(l, A2B), GL_NEVER);
    free(l);
}

static void test_byte_time_is_800_80_8_ns_at_10_100_1000(void **state)
{
    (void)state;
    assert_int_equal(gl_wire_frame_ns(1514, 10), 1538u * 800u);
    assert_int_equal(gl_wire_frame_ns(1514, 100), 1538u * 80u);
    assert_int_equal(gl_wire_frame_ns(1514, 1000), 1538u * 8u);
    assert_int_equal(gl_wire_frame_ns(1514, 42), 0);
}

static void test_short_frames_padded_to_64_bytes_plus_preamble_and_ifg(void **state)
{
    (void)state;
    assert_int_equal(gl_wire_frame_bytes(1), 84);
    assert_int_equal(gl_wire_frame_bytes(42), 84);
    assert_int_equal(gl_wire_frame_bytes(60), 84);
    assert_int_equal(gl_wire_frame_bytes(61), 85);
    assert_int_equal(gl_wire_frame_ns(60, 1000), 672);
}

static void test_back_to_back_1514_at_1g_gives_81274_frames_per_second(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    uint64_t now = 0, done = 0, delivered = 0;

    /* The host hands the next frame over as soon as the MAC completes. */
    while (now < 1000000000ULL) {
        assert_int_equal(gl_link_send(l, A2B, now, 1514, delivered, &done), GL_WIRE_QUEUED);
        now = done;
        if (now <= 1000000000ULL) {
            delivered += wt_drain(l, A2B, now);
        }
    }
    delivered += wt_drain(l, A2B, 1000000000ULL);
    assert_int_equal(delivered, 81274);
    free(l);
}

static void test_backlogged_mac_serializes_frames_back_to_back(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    uint64_t done = 0;

    for (unsigned i = 1; i <= 10; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 1514, i, &done), GL_WIRE_QUEUED);
        assert_int_equal(done, i * 12304u);
    }
    free(l);
}

static void test_latency_is_added_exactly(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 1234567;
    struct gl_link *l = wt_link_sym(&p, 1, 100);
    struct gl_delivery d;
    uint64_t done;

    assert_int_equal(gl_link_send(l, B2A, 1000, 100, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 1000 + 124 * 80);
    assert_int_equal(gl_link_next_deadline(l, B2A), done + 1234567);
    assert_int_equal(gl_link_poll(l, B2A, done + 1234566, &d), 0);
    assert_int_equal(gl_link_poll(l, B2A, done + 1234567, &d), 1);
    assert_int_equal(d.arrival_ns, done + 1234567);
    assert_int_equal(gl_link_next_deadline(l, A2B), GL_NEVER);
    free(l);
}

/* ---- Rate cap and queue ---- */

static void test_rate_cap_spaces_arrivals_by_capped_frame_time(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 50000000;  /* 50 Mb/s: 1538 B take 246080 ns */
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;
    uint64_t done, prev = 0;

    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 1514, i, &done), GL_WIRE_QUEUED);
        /* the sender's MAC still completes at line rate */
        assert_int_equal(done, (i + 1) * 12304u);
    }
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
        assert_int_equal(d.cookie, i);
        if (i == 0) {
            assert_int_equal(d.arrival_ns, 12304 + 246080);
        } else {
            assert_int_equal(d.arrival_ns - prev, 246080);
        }
        prev = d.arrival_ns;
    }
    free(l);
}

static void test_rate_cap_at_or_above_line_rate_changes_nothing(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 1000000000;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;
    uint64_t done;

    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.arrival_ns, 12304);
    free(l);
}

static void test_rate_cap_long_run_is_exact_despite_rounding(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 3000000;   /* 672 bits take 224000 ns; 1538 B: 4101333.33 ns */
    p.queue_frames = 1024;
    struct gl_link *l = wt_link_sym(&p, 1, 100);
    struct gl_delivery d;
    uint64_t last = 0;

    for (unsigned i = 0; i < 300; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 1514, i, NULL), GL_WIRE_QUEUED);
    }
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        last = d.arrival_ns;
    }
    /* 300 frames at 1538*8e9/3e6 = 4101333 1/3 ns each, from the first
     * MAC completion at 123040 ns: floor(300 * 4101333.33) exactly. */
    assert_int_equal(last, 123040 + 1230400000);
    free(l);
}

/* A rate cap, then jitter that keeps order: netem adds the frame's time
 * at the configured rate after its ordering clamp, so frames never come
 * closer than the capped frame time.  Clamped at the line's frame time,
 * a 100 Mb/s cap delivered 258 Mb/s over 1 ms windows. */
static void test_rate_cap_then_jitter_keeps_capped_spacing(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 100000000;
    p.queue_frames = 1000;
    p.latency_ns = 2000000;
    p.jitter_ns = 1000000;
    struct gl_link *l = wt_link_sym(&p, 4, 1000);
    struct gl_delivery d;
    const uint64_t cap_ns = 1536ull * 8 * 1000000000 / 100000000; /* 122880 */
    uint64_t prev = 0;
    unsigned n = 0;

    for (unsigned i = 0; i < 5000; i++) {
        int v = gl_link_send(l, A2B, i * 40960ull, 1512, i, NULL);
        assert_true(v == GL_WIRE_QUEUED || v == GL_WIRE_DROP_QUEUE);
    }
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        if (n++)
            assert_true(d.arrival_ns - prev >= cap_ns);
        prev = d.arrival_ns;
    }
    assert_true(n > 1000);
    free(l);
}

static void test_queue_tail_drops_beyond_queue_frames(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 10000000;
    p.queue_frames = 5;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_wire_counters c;

    for (unsigned i = 0; i < 10; i++) {
        int v = gl_link_send(l, A2B, 0, 1514, i, NULL);
        assert_int_equal(v, i < 5 ? GL_WIRE_QUEUED : GL_WIRE_DROP_QUEUE);
    }
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.dropped_queue, 5);
    assert_int_equal(c.in_flight, 5);
    wt_assert_invariants(l);
    free(l);
}

static void test_queue_tail_drops_beyond_queue_bytes(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 10000000;
    p.queue_bytes = 3 * 1538 + 100;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);

    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 1514, i, NULL),
                         i < 3 ? GL_WIRE_QUEUED : GL_WIRE_DROP_QUEUE);
    }
    /* a minimum frame still fits in the 100 bytes left */
    assert_int_equal(gl_link_send(l, A2B, 0, 60, 9, NULL), GL_WIRE_QUEUED);
    free(l);
}

static void test_queue_drains_with_time_and_accepts_again(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 10000000;
    p.queue_frames = 1;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    uint64_t done;

    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_send(l, A2B, done, 1514, 2, NULL), GL_WIRE_DROP_QUEUE);
    /* first frame leaves the capped server at 12304 + 1230400 */
    assert_int_equal(gl_link_send(l, A2B, 12304 + 1230400, 1514, 3, NULL), GL_WIRE_QUEUED);
    free(l);
}

/* ---- Ownership, duplication, corruption, reordering ---- */

static void test_duplicate_delivers_twice_and_only_the_copy_is_last(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.dup_pct = 100;
    struct gl_link *l = wt_link_sym(&p, 1, 100);
    struct gl_delivery d1, d2;
    struct gl_wire_counters c;

    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 42, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d1), 1);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d2), 1);
    assert_int_equal(d1.cookie, 42);
    assert_int_equal(d2.cookie, 42);
    assert_int_equal(d1.flags & (GL_DELIV_LAST | GL_DELIV_DUPLICATE), 0);
    assert_int_equal(d2.flags & (GL_DELIV_LAST | GL_DELIV_DUPLICATE),
                     GL_DELIV_LAST | GL_DELIV_DUPLICATE);
    /* the copy follows back-to-back on the wire */
    assert_int_equal(d2.arrival_ns - d1.arrival_ns, 123040);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.sent, 1);
    assert_int_equal(c.duplicated, 1);
    assert_int_equal(c.delivered, 2);
    wt_assert_invariants(l);
    free(l);
}

/* A duplicate is a frame on the line: it holds the sender's wire for one
 * frame time, so the next original waits for it and nothing arrives
 * faster than line rate (the copy used to take no wire time: 2 Gb/s
 * arrived on 1G with dup 100 %). */
static void test_duplicate_takes_wire_time_and_delays_the_next_frame(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.dup_pct = 100;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    const uint64_t f = gl_wire_frame_ns(1514, 1000);
    struct gl_delivery d[4];
    uint64_t done = 0, done2 = 0;

    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, f);
    /* offered as soon as the MAC completes the original: its copy is
     * still on the line */
    assert_int_equal(gl_link_send(l, A2B, done, 1514, 2, &done2), GL_WIRE_QUEUED);
    assert_int_equal(done2, 3 * f);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d[i]), 1);
    }
    assert_int_equal(d[0].arrival_ns, f);
    assert_int_equal(d[1].arrival_ns, 2 * f);
    assert_int_equal(d[1].tx_done_ns, f);          /* the send that made it */
    assert_int_equal(d[2].arrival_ns, 3 * f);
    assert_int_equal(d[2].cookie, 2);
    assert_int_equal(d[3].arrival_ns, 4 * f);
    wt_assert_invariants(l);
    free(l);
}

/* Under a rate cap the copy passes the cap too: 100 % duplication behind
 * a 100 Mb/s cap on 1G delivers 100 Mb/s of frames, not 200. */
static void test_duplicate_passes_the_rate_cap(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.dup_pct = 100;
    p.rate_bps = 100000000u;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    const uint64_t cap = 1538u * 8u * 10u;      /* a 1514-byte frame at 100 Mb/s: 123040 ns */
    struct gl_delivery d;
    uint64_t now = 0, done = 0, last = 0;
    unsigned n = 0;

    for (int i = 0; i < 200; i++) {
        int rc = gl_link_send(l, A2B, now, 1514, (uint64_t)i, &done);
        assert_true(rc == GL_WIRE_QUEUED || rc == GL_WIRE_DROP_QUEUE);
        now = done;
    }
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        if (d.flags & GL_DELIV_DROPPED) {
            continue;
        }
        if (n) {
            assert_true(d.arrival_ns - last >= cap);
        }
        last = d.arrival_ns;
        n++;
    }
    assert_true(n > 0);
    wt_assert_invariants(l);
    free(l);
}

/* In-order jitter never puts two frames on the line at once: each
 * arrives at least its own frame time after the one before. */
static void test_in_order_jitter_keeps_frames_a_frame_time_apart(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 1000000;
    p.jitter_ns = 500000;
    p.jitter_dist = GL_JITTER_UNIFORM;
    struct gl_link *l = wt_link_sym(&p, 3, 1000);
    const uint64_t f = gl_wire_frame_ns(1514, 1000);
    struct gl_delivery d;
    uint64_t now = 0, done = 0, last = 0;
    unsigned n = 0;

    for (int i = 0; i < 2000; i++) {
        assert_int_equal(gl_link_send(l, A2B, now, 1514, (uint64_t)i, &done), GL_WIRE_QUEUED);
        now = done;
    }
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        assert_int_equal(d.cookie, n);              /* in order */
        if (n) {
            assert_true(d.arrival_ns - last >= f);
        }
        last = d.arrival_ns;
        n++;
    }
    assert_int_equal(n, 2000);
    wt_assert_invariants(l);
    free(l);
}

/* A flap drops what was in flight; what it dropped no longer fills the
 * rate cap's queue, nor holds back frames sent after the link returns
 * (a frame sent after a flap waited 1.23 s behind a full 10 Mb/s queue of
 * dropped frames, or 500 ms behind a dropped frame's old latency). */
static void test_flap_empties_the_cap_queue_and_the_order_floor(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.rate_bps = 10000000u;
    p.queue_frames = 1000;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_err err;
    struct gl_delivery d;
    const uint64_t f = gl_wire_frame_ns(1514, 1000), cap = 1538u * 800u;
    uint64_t now = 0, done = 0, t_up, arrival = 0;

    int rc = GL_WIRE_QUEUED;
    for (int i = 0; i < 1100 && rc == GL_WIRE_QUEUED; i++) {
        rc = gl_link_send(l, A2B, now, 1514, (uint64_t)i, &done);
        now = done;
    }
    assert_int_equal(rc, GL_WIRE_DROP_QUEUE);     /* the queue is full */
    assert_int_equal(gl_link_set_phy(l, false, 1000, true, true, now, &err), 0);
    t_up = now + 1000000;
    assert_int_equal(gl_link_set_phy(l, true, 1000, true, true, t_up, &err), 0);
    assert_int_equal(gl_link_send(l, A2B, t_up, 1514, 2000, &done), GL_WIRE_QUEUED);
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        if (d.cookie == 2000) {
            arrival = d.arrival_ns;
        }
    }
    assert_int_equal(arrival, t_up + f + cap);
    wt_assert_invariants(l);
    free(l);

    /* the order floor: a frame in flight at 500 ms latency, dropped by
     * the flap; the latency lowered to 1 ms meanwhile */
    p = ideal();
    p.latency_ns = 500000000;
    l = wt_link_sym(&p, 1, 1000);
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_set_phy(l, false, 1000, true, true, 1000000, &err), 0);
    p.latency_ns = 1000000;
    assert_int_equal(gl_link_configure(l, A2B, &p, &err), 0);
    assert_int_equal(gl_link_set_phy(l, true, 1000, true, true, 2000000, &err), 0);
    assert_int_equal(gl_link_send(l, A2B, 3000000, 1514, 2, &done), GL_WIRE_QUEUED);
    arrival = 0;
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        if (d.cookie == 2) {
            arrival = d.arrival_ns;
        }
    }
    assert_int_equal(arrival, 3000000 + f + 1000000);
    wt_assert_invariants(l);
    free(l);
}

static void test_corrupt_frame_is_delivered_marked_fcs_error_not_dropped(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.corrupt_pct = 100;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;
    struct gl_wire_counters c;

    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 64, i, NULL), GL_WIRE_QUEUED);
    }
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
        assert_int_equal(d.flags, GL_DELIV_FCS_ERROR | GL_DELIV_CORRUPT | GL_DELIV_LAST);
    }
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.corrupted, 3);
    assert_int_equal(c.fcs_errors, 3);
    assert_int_equal(c.delivered, 3);
    assert_int_equal(c.sent, c.delivered);
    free(l);
}

static void test_reorder_gap_5_sends_every_5th_frame_ahead(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 10000000;
    p.reorder_pct = 100;
    p.reorder_gap = 5;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;
    uint64_t order[15];
    unsigned n = 0;

    for (unsigned i = 0; i < 15; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 64, i, NULL), GL_WIRE_QUEUED);
    }
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        assert_true(n < 15);
        assert_int_equal(!!(d.flags & GL_DELIV_REORDERED), d.cookie % 5 == 4);
        order[n++] = d.cookie;
    }
    assert_int_equal(n, 15);
    /* netem: frames 5, 10, 15 (1-based) skip the 10 ms delay */
    const uint64_t expect[15] = { 4, 9, 14, 0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13 };
    assert_memory_equal(order, expect, sizeof(expect));
    wt_assert_invariants(l);
    free(l);
}

static void test_jitter_keeps_order_unless_jitter_reorders(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 1000000;
    p.jitter_ns = 500000;
    struct gl_delivery d;
    int pass;

    for (pass = 0; pass < 2; pass++) {
        p.jitter_reorders = pass == 1;
        struct gl_link *l = wt_link_sym(&p, 3, 1000);
        uint64_t prev_cookie = 0, prev_arrival = 0;
        unsigned inversions = 0, n = 0;

        for (unsigned i = 0; i < 500; i++) {
            assert_int_equal(gl_link_send(l, A2B, i * 1000ULL, 64, i, NULL), GL_WIRE_QUEUED);
        }
        while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
            if (n) {
                assert_true(d.arrival_ns >= prev_arrival);
                inversions += d.cookie < prev_cookie;
            }
            prev_cookie = d.cookie;
            prev_arrival = d.arrival_ns;
            n++;
        }
        assert_int_equal(n, 500);
        if (pass == 0) {
            assert_int_equal(inversions, 0);
        } else {
            assert_true(inversions > 50);
        }
        free(l);
    }
}

/* Frames that overtake decide their own arrival times, but the
 * receiver's line carries one at a time: each delivery ends at least its
 * own frame time after the one before, and gl_link_next_deadline() says
 * when that is.  Three ways to crowd the line: jitter that reorders,
 * netem's "sent at once" beside delayed frames, and duplicates. */
static void test_overtaking_frames_reach_the_receiver_a_frame_time_apart(void **state)
{
    (void)state;
    struct gl_delivery d;

    for (int pass = 0; pass < 3; pass++) {
        struct gl_wire_params p = ideal();
        p.latency_ns = 20000;
        if (pass == 0) {
            p.jitter_ns = 15000;
            p.jitter_reorders = true;
        } else if (pass == 1) {
            p.reorder_pct = 50;
        } else {
            p.jitter_ns = 15000;
            p.jitter_reorders = true;
            p.dup_pct = 30;
        }
        struct gl_link *l = wt_link_sym(&p, 7, 1000);
        uint64_t prev = 0, t = 0;
        unsigned n = 0, inversions = 0;
        uint64_t prev_cookie = 0;

        for (unsigned i = 0; i < 600; i++) {
            uint32_t len = (i % 3) ? 60 : 1514;
            assert_int_equal(gl_link_send(l, A2B, 0, len, i, NULL), GL_WIRE_QUEUED);
        }
        for (;;) {
            uint64_t next = gl_link_next_deadline(l, A2B);
            if (next == GL_NEVER) {
                break;
            }
            assert_true(next >= t);
            if (next > t) {
                assert_int_equal(gl_link_poll(l, A2B, next - 1, &d), 0);
            }
            t = next;
            assert_int_equal(gl_link_poll(l, A2B, t, &d), 1);
            assert_int_equal(d.arrival_ns, t);
            if (n) {
                assert_true(d.arrival_ns >= prev + gl_wire_frame_ns(d.len, 1000));
                inversions += d.cookie < prev_cookie;
            }
            prev = d.arrival_ns;
            prev_cookie = d.cookie;
            n++;
        }
        struct gl_wire_counters c;
        gl_link_get_counters(l, A2B, &c);
        assert_int_equal(n, 600 + c.duplicated);
        /* the impairment still reorders: the line only spaces frames */
        assert_true(inversions > 30);
        wt_assert_invariants(l);
        free(l);
    }
}

/* ---- Link state ---- */

static void test_frame_sent_while_link_down_is_lost_and_counted(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = malloc(sizeof(*l));
    struct gl_wire_counters c;
    uint64_t done = 0;

    assert_int_equal(gl_link_init(l, &p, &p, 1, NULL), 0);
    /* a fresh link is down; the MAC still serializes at the kept speed */
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_DROP_LINK_DOWN);
    assert_int_equal(done, 12304);
    assert_int_equal(gl_link_next_deadline(l, A2B), GL_NEVER);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.sent, 1);
    assert_int_equal(c.dropped_link_down, 1);
    assert_int_equal(c.in_flight, 0);
    wt_assert_invariants(l);
    free(l);
}

static void test_link_down_marks_in_flight_frames_dropped_and_last(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 1000000;
    p.dup_pct = 100;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;
    struct gl_wire_counters c;
    unsigned n = 0, last = 0;

    assert_int_equal(gl_link_send(l, A2B, 0, 64, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_send(l, A2B, 0, 64, 2, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_set_phy(l, false, 0, true, true, 500000, NULL), 0);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.dropped_link_down, 4);
    assert_int_equal(c.in_flight, 0);
    wt_assert_invariants(l);
    while (gl_link_poll(l, A2B, GL_NEVER - 1, &d) == 1) {
        assert_true(d.flags & GL_DELIV_DROPPED);
        last += !!(d.flags & GL_DELIV_LAST);
        n++;
    }
    /* every reference comes back, each cookie released exactly once */
    assert_int_equal(n, 4);
    assert_int_equal(last, 2);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.delivered, 0);
    wt_assert_invariants(l);
    free(l);
}

static void test_frames_already_arrived_survive_link_down(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;

    assert_int_equal(gl_link_send(l, A2B, 0, 64, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_set_phy(l, false, 0, true, true, 10000, NULL), 0);
    assert_int_equal(gl_link_poll(l, A2B, 10000, &d), 1);
    assert_int_equal(d.flags & GL_DELIV_DROPPED, 0);
    free(l);
}

static void test_link_back_up_delivers_new_frames(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 1000;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;

    assert_int_equal(gl_link_set_phy(l, false, 0, true, true, 0, NULL), 0);
    assert_int_equal(gl_link_send(l, A2B, 10, 60, 1, NULL), GL_WIRE_DROP_LINK_DOWN);
    assert_int_equal(gl_link_set_phy(l, true, 100, true, true, 20000, NULL), 0);
    assert_int_equal(gl_link_send(l, A2B, 20000, 60, 2, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.cookie, 2);
    assert_int_equal(d.arrival_ns, 20000 + 84 * 80 + 1000);
    assert_int_equal(d.flags, GL_DELIV_LAST);
    wt_assert_invariants(l);
    free(l);
}

static void test_speed_change_applies_to_next_frame(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    uint64_t done;

    assert_int_equal(gl_link_set_phy(l, true, 10, true, true, 0, NULL), 0);
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 1538u * 800u);
    free(l);
}

/* ---- Signal faults ---- */

/* ---- Half duplex: CSMA/CD (IEEE 802.3 4.2.3.2) ---- */

#define T64_100M   (84u * 80u)     /* 64-byte frame + preamble + IFG at 100 Mb/s, ns */
#define T1514_100M 123040u         /* 1514 bytes at 100 Mb/s, ns */
#define JAM_100M   (32u * 10u)
#define IFG_100M   (96u * 10u)
#define SLOT_100M  (512u * 10u)

static struct gl_link *half_link(bool a_full, bool b_full, unsigned speed, uint64_t seed)
{
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, seed, speed);
    assert_int_equal(gl_link_set_phy(l, true, speed, a_full, b_full, 0, NULL), 0);
    return l;
}

/* A half-duplex sender waits for the other side's carrier to drop; a
 * full-duplex one does not. */
static void test_half_duplex_defers_to_carrier(void **state)
{
    struct gl_wire_counters c;
    struct gl_delivery d;
    uint64_t done;
    (void)state;
    for (int full = 0; full < 2; full++) {
        struct gl_link *l = half_link(full, true, 100, 1);
        assert_int_equal(gl_link_send(l, B2A, 0, 1514, 1, NULL), GL_WIRE_QUEUED);
        assert_int_equal(gl_link_send(l, A2B, 1000, 60, 2, &done), GL_WIRE_QUEUED);
        assert_int_equal(done, full ? 1000u + T64_100M : T1514_100M + T64_100M);
        gl_link_get_counters(l, A2B, &c);
        assert_int_equal(c.deferred, full ? 0 : 1);
        assert_int_equal(c.collisions, 0);
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
        assert_int_equal(d.arrival_ns, done);
        assert_int_equal(d.flags & GL_DELIV_FCS_ERROR, 0);
        wt_assert_invariants(l);
        free(l);
    }
}

/* Both half duplex, both start at once: a collision at offset 0 (early),
 * jam, backoff of 0 or 1 slot, then deferral to the other frame. */
static void test_simultaneous_start_collides_then_backs_off(void **state)
{
    struct gl_wire_counters c;
    uint64_t done;
    (void)state;
    struct gl_link *l = half_link(false, false, 100, 2);
    assert_int_equal(gl_link_send(l, B2A, 0, 60, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_send(l, A2B, 0, 60, 2, &done), GL_WIRE_QUEUED);
    /* the retry (at 320 + 960 + r * 5120 ns, r in {0, 1}) finds B's
     * 6720 ns frame still on the wire and defers to its end */
    assert_int_equal(done, T64_100M + T64_100M);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.collisions, 1);
    assert_int_equal(c.single_collision, 1);
    assert_int_equal(c.multiple_collision + c.late_collisions + c.dropped_collision, 0);
    wt_assert_invariants(l);
    free(l);
}

/* Duplex mismatch, A half and B full: B begins a frame inside A's.  Inside
 * the slot time A backs off and resends (B receives it once, intact);
 * after it, a late collision cuts A's frame, which B counts as an FCS error. */
static void test_mismatch_early_and_late_collisions(void **state)
{
    struct gl_wire_counters c;
    struct gl_delivery d;
    uint64_t done;
    (void)state;
    /* early: B starts 2 us into A's frame (slot 5.12 us) */
    struct gl_link *l = half_link(false, true, 100, 3);
    assert_int_equal(gl_link_send(l, B2A, 2000, 1514, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 2, &done), GL_WIRE_QUEUED);
    assert_true(done >= 2000u + T1514_100M + T1514_100M); /* waited for B's frame */
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.collisions, 1);
    assert_int_equal(c.single_collision, 1);
    assert_int_equal(c.late_collisions, 0);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.cookie, 2);
    assert_int_equal(d.flags & GL_DELIV_FCS_ERROR, 0);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 0);
    /* B's frame reaches the half-duplex side intact */
    assert_int_equal(gl_link_poll(l, B2A, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.flags & GL_DELIV_FCS_ERROR, 0);
    free(l);

    /* late: B starts 50 us into A's frame: A's frame is cut there */
    l = half_link(false, true, 100, 3);
    assert_int_equal(gl_link_send(l, B2A, 50000, 1514, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_send(l, A2B, 0, 1514, 2, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 50000u + JAM_100M + IFG_100M);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.collisions, 1);
    assert_int_equal(c.late_collisions, 1);
    assert_int_equal(c.single_collision, 0);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.cookie, 2);
    assert_int_equal(d.flags & (GL_DELIV_FCS_ERROR | GL_DELIV_DUPLEX), GL_DELIV_FCS_ERROR | GL_DELIV_DUPLEX);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.fcs_errors, 1);
    assert_int_equal(c.duplex_errors, 1);
    wt_assert_invariants(l);
    free(l);
}

/* Drive both sides as backlogged senders for @dur_ns of @len-byte frames
 * (each offers its next frame when its MAC is free) and count what
 * arrives intact per direction. */
static void saturate(struct gl_link *l, uint32_t len_a, uint32_t len_b, uint64_t dur_ns,
                     uint64_t good[2], struct gl_wire_counters c[2])
{
    uint64_t t[2] = { 0, 0 };
    uint32_t len[2] = { len_a, len_b };
    struct gl_delivery d;

    good[0] = good[1] = 0;
    while (t[0] < dur_ns || t[1] < dur_ns) {
        int k = t[0] <= t[1] ? 0 : 1;
        uint64_t done;
        int v = gl_link_send(l, k, t[k], len[k], 0, &done);
        assert_true(v == GL_WIRE_QUEUED || v == GL_WIRE_DROP_COLLISION);
        assert_true(done > t[k]);
        t[k] = done;
        for (int j = 0; j < 2; j++)
            while (gl_link_poll(l, j, t[0] < t[1] ? t[0] : t[1], &d) == 1)
                good[j] += !(d.flags & GL_DELIV_FCS_ERROR);
    }
    for (int j = 0; j < 2; j++) {
        while (gl_link_poll(l, j, GL_NEVER - 1, &d) == 1)
            good[j] += !(d.flags & GL_DELIV_FCS_ERROR);
        gl_link_get_counters(l, j, &c[j]);
    }
    wt_assert_invariants(l);
}

/* Duplex mismatch, A full duplex sending at half load, B half duplex and
 * backlogged.  B's collisions with frames A has not offered yet are drawn
 * from A's load when B offers the frame, so they must not depend on how
 * far ahead of its MAC B hands frames over: one at a time, or 64 at once
 * as the in-emulator partner does (7.9 ms of 1514-byte frames at 100 Mb/s,
 * beyond the two 1 ms load windows). */
static uint64_t mismatch_collisions(unsigned ahead)
{
    struct gl_link *l = half_link(true, false, 100, 8);
    struct gl_wire_counters c;
    struct gl_delivery d;
    uint64_t next_a = 0, next_b = 0;
    const uint64_t end = 400000000ull;

    while (next_a < end || next_b < end) {
        if (next_a <= next_b) {
            assert_int_equal(gl_link_send(l, A2B, next_a, 1514, 0, NULL), GL_WIRE_QUEUED);
            next_a += 2 * T1514_100M;
        } else {
            uint64_t done = next_b;
            for (unsigned i = 0; i < ahead; i++) {
                int v = gl_link_send(l, B2A, next_b, 1514, 0, &done);
                assert_true(v == GL_WIRE_QUEUED || v == GL_WIRE_DROP_COLLISION);
            }
            next_b = done;
        }
        uint64_t now = next_a < next_b ? next_a : next_b;
        for (int j = 0; j < 2; j++)
            while (gl_link_poll(l, j, now, &d) == 1) {
            }
    }
    wt_drain(l, A2B, GL_NEVER - 1);
    wt_drain(l, B2A, GL_NEVER - 1);
    wt_assert_invariants(l);
    gl_link_get_counters(l, B2A, &c);
    free(l);
    return c.collisions;
}

static void test_mismatch_collisions_do_not_depend_on_frames_queued_ahead(void **state)
{
    (void)state;
    uint64_t one = mismatch_collisions(1), many = mismatch_collisions(64);
    /* about 1600 frames of B's each way; half of them meet A's half load */
    assert_true(one > 500);
    assert_true(many > one * 8 / 10 && many < one * 12 / 10);
}

/* Full duplex carries line rate each way; a half-duplex link is one shared
 * medium: the two directions together carry about one line rate. */
static void test_half_duplex_link_is_one_shared_medium(void **state)
{
    uint64_t good[2];
    struct gl_wire_counters c[2];
    const uint64_t one_way = 1000000000ull / T1514_100M; /* 1514-byte frames in 1 s at 100 Mb/s */
    (void)state;
    struct gl_link *l = half_link(true, true, 100, 4);
    saturate(l, 1514, 1514, 1000000000ull, good, c);
    assert_true(good[0] >= one_way - 2 && good[1] >= one_way - 2);
    free(l);

    l = half_link(false, false, 100, 4);
    saturate(l, 1514, 1514, 1000000000ull, good, c);
    /* both together: at most one line rate, and collisions, backoff and
     * the capture effect cost a little of it */
    assert_true(good[0] + good[1] <= one_way + 2);
    assert_true(good[0] + good[1] >= one_way * 85 / 100);
    /* each side starts its next frame one IFG after its last, just when the
     * other (deferring) side does: a collision at offset 0, never late */
    assert_true(c[0].collisions + c[1].collisions > 0);
    assert_int_equal(c[0].late_collisions + c[1].late_collisions, 0);
    assert_int_equal(c[0].fcs_errors + c[1].fcs_errors, 0);
    free(l);
}

/* Duplex mismatch under load, A half (sending small frames, like ACKs) and
 * B full (backlogged data): A collides, retries, and sometimes gives up
 * after 16 attempts; B never defers and sees no collision; FCS errors
 * appear only at B (the full-duplex receiver), from late collisions. */
static void test_mismatch_collisions_land_on_the_half_duplex_side(void **state)
{
    uint64_t good[2];
    struct gl_wire_counters c[2];
    (void)state;
    struct gl_link *l = half_link(false, true, 100, 5);
    saturate(l, 1514, 1514, 200000000ull, good, c);
    assert_true(c[A2B].collisions > 100);
    assert_true(c[A2B].late_collisions > 0);
    assert_int_equal(c[A2B].fcs_errors, c[A2B].late_collisions);
    assert_int_equal(c[B2A].collisions + c[B2A].deferred + c[B2A].fcs_errors, 0);
    /* B sends at line rate, A gets far less through */
    assert_true(good[B2A] >= 200000000ull / T1514_100M - 2);
    assert_true(good[A2B] < good[B2A] / 2);
    free(l);

    /* short frames from A (they fit the slot): collisions are all early,
     * and some frames hit the attempt limit */
    l = half_link(false, true, 100, 6);
    saturate(l, 60, 1514, 200000000ull, good, c);
    assert_true(c[A2B].collisions > 100);
    assert_true(c[A2B].dropped_collision > 0);
    assert_true(c[A2B].multiple_collision > 0);
    assert_int_equal(c[A2B].late_collisions, 0); /* 576 bits < slot: never late */
    free(l);
}

/* The same seed and calls give the same CSMA/CD decisions. */
static void test_csma_is_deterministic(void **state)
{
    uint64_t g1[2], g2[2];
    struct gl_wire_counters c1[2], c2[2];
    (void)state;
    struct gl_link *a = half_link(false, true, 100, 7), *b = half_link(false, true, 100, 7);
    saturate(a, 800, 1514, 50000000ull, g1, c1);
    saturate(b, 800, 1514, 50000000ull, g2, c2);
    assert_memory_equal(c1, c2, sizeof(c1));
    assert_memory_equal(g1, g2, sizeof(g1));
    free(a);
    free(b);
}

static void test_skew_crc_errors_only_at_1000(void **state)
{
    (void)state;
    static const unsigned speeds[] = { 10, 100, 1000 };
    struct gl_wire_params p = ideal();
    p.skew_crc_pct = 100;

    for (unsigned s = 0; s < 3; s++) {
        struct gl_link *l = wt_link_sym(&p, 1, speeds[s]);
        struct gl_wire_counters c;
        gl_link_set_rgmii_skew(l, false, true);
        for (unsigned i = 0; i < 20; i++) {
            assert_int_equal(gl_link_send(l, B2A, 0, 64, i, NULL), GL_WIRE_QUEUED);
        }
        wt_drain(l, B2A, GL_NEVER - 1);
        gl_link_get_counters(l, B2A, &c);
        assert_int_equal(c.skew_errors, speeds[s] == 1000 ? 20 : 0);
        assert_int_equal(c.fcs_errors, c.skew_errors);
        free(l);
    }
}

/* The skew percentage is how badly a wrong RGMII delay corrupts, not a
 * fault by itself: a direction not marked skewed stays clean, a marked one
 * is hit from the next frame, and unmarking it stops the errors. */
static void test_skew_only_on_directions_marked_skewed(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.skew_crc_pct = 100;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_wire_counters c[2];

    for (unsigned i = 0; i < 10; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 64, i, NULL), GL_WIRE_QUEUED);
        assert_int_equal(gl_link_send(l, B2A, 0, 64, i, NULL), GL_WIRE_QUEUED);
    }
    gl_link_set_rgmii_skew(l, true, false);     /* A's TX timing only */
    for (unsigned i = 10; i < 30; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 64, i, NULL), GL_WIRE_QUEUED);
        assert_int_equal(gl_link_send(l, B2A, 0, 64, i, NULL), GL_WIRE_QUEUED);
    }
    gl_link_set_rgmii_skew(l, false, false);
    for (unsigned i = 30; i < 40; i++) {
        assert_int_equal(gl_link_send(l, A2B, 0, 64, i, NULL), GL_WIRE_QUEUED);
    }
    wt_drain(l, A2B, GL_NEVER - 1);
    wt_drain(l, B2A, GL_NEVER - 1);
    gl_link_get_counters(l, A2B, &c[0]);
    gl_link_get_counters(l, B2A, &c[1]);
    assert_int_equal(c[0].skew_errors, 20);
    assert_int_equal(c[0].fcs_errors, 20);
    assert_int_equal(c[1].skew_errors, 0);
    assert_int_equal(c[1].fcs_errors, 0);
    wt_assert_invariants(l);
    free(l);
}

/* The model owns the severity: an untouched parameter set corrupts
 * GL_WIRE_RGMII_SKEW_PCT of a skewed direction's frames at 1000. */
static void test_skew_default_rate(void **state)
{
    (void)state;
    struct gl_wire_params p;
    gl_wire_params_default(&p);
    assert_true(p.skew_crc_pct == GL_WIRE_RGMII_SKEW_PCT);
    struct gl_link *l = wt_link_sym(&p, 5, 1000);
    struct gl_wire_counters c;
    uint64_t now = 0, done = 0;

    gl_link_set_rgmii_skew(l, false, true);
    for (unsigned i = 0; i < 50000; i++) {
        assert_int_equal(gl_link_send(l, B2A, now, 1000, i, &done), GL_WIRE_QUEUED);
        now = done;
        wt_drain(l, B2A, now);
    }
    wt_drain(l, B2A, GL_NEVER - 1);
    gl_link_get_counters(l, B2A, &c);
    /* 2 % of 50000 = 1000, sigma ~31 */
    assert_in_range(c.skew_errors, 850, 1150);
    free(l);
}

/* ---- Invariants under every impairment ---- */

static void test_no_delivery_before_serialization_with_all_impairments(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 200000;
    p.jitter_ns = 150000;
    p.jitter_dist = GL_JITTER_PARETONORMAL;
    p.rate_bps = 300000000;
    p.queue_frames = 64;
    p.loss_model = GL_LOSS_GEMODEL;
    p.ge = (struct gl_wire_ge){ .p = 0.02, .r = 0.3, .h = 0.2, .k = 0.995 };
    p.dup_pct = 3;
    p.corrupt_pct = 2;
    p.reorder_pct = 5;
    p.reorder_gap = 3;
    p.skew_crc_pct = 1;
    struct gl_link *l = wt_link_sym(&p, 99, 1000);
    struct gl_wire_counters c;
    struct gl_delivery d;
    uint64_t now = 0, sent_at[4096];
    unsigned len;

    gl_link_set_rgmii_skew(l, true, true);

    assert_int_equal(gl_link_set_phy(l, true, 1000, false, true, 0, NULL), 0);
    for (unsigned i = 0; i < 200000; i++) {
        int dir = (i % 3) == 0;
        len = 60 + (i * 7919u) % 1455u;
        uint64_t done;
        int v = gl_link_send(l, dir, now, len, i, &done);
        assert_true(v >= GL_WIRE_QUEUED && v <= GL_WIRE_DROP_COLLISION);
        /* A is half duplex: a late collision or the attempt limit ends a
         * frame early */
        assert_true(done >= now + (dir == A2B ? 1 : gl_wire_frame_ns(len, 1000)));
        sent_at[i % 4096] = now;
        for (int k = 0; k < 2; k++) {
            while (gl_link_poll(l, k, now, &d) == 1) {
                assert_true(d.arrival_ns <= now);
                assert_true(d.arrival_ns >= d.tx_done_ns);
                if (d.cookie + 4096 > i && !(d.flags & GL_DELIV_DUPLEX)) {
                    assert_true(d.arrival_ns >= sent_at[d.cookie % 4096] +
                                                    gl_wire_frame_ns(d.len, 1000));
                }
            }
        }
        if (i % 1000 == 0) {
            wt_assert_invariants(l);
        }
        now += (i * 2654435761u) % 9000u;
    }
    wt_drain(l, A2B, GL_NEVER - 1);
    wt_drain(l, B2A, GL_NEVER - 1);
    wt_assert_invariants(l);
    for (int k = 0; k < 2; k++) {
        gl_link_get_counters(l, k, &c);
        assert_int_equal(c.in_flight, 0);
        assert_int_equal(c.sent + c.duplicated,
                         c.delivered + c.dropped_queue + c.dropped_loss +
                             c.dropped_link_down + c.dropped_store + c.dropped_collision);
        assert_true(c.dropped_loss > 0 && c.duplicated > 0 && c.reordered > 0 &&
                    c.corrupted > 0 && c.skew_errors > 0);
        /* only the half-duplex side (A) collides */
        assert_true(k == A2B ? c.collisions > 0 : c.collisions == 0);
        assert_int_equal(c.fcs_errors <= c.corrupted + c.skew_errors + c.duplex_errors, 1);
    }
    free(l);
}

static void test_store_full_drops_and_counts(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    p.latency_ns = 60000000000ULL;
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_wire_counters c;
    const unsigned cap = GL_WIRE_INFLIGHT_MAX + GL_WIRE_OOO_MAX;

    for (unsigned i = 0; i < cap + 10; i++) {
        int v = gl_link_send(l, A2B, 0, 64, i, NULL);
        assert_int_equal(v, i < cap ? GL_WIRE_QUEUED : GL_WIRE_DROP_STORE);
    }
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.dropped_store, 10);
    wt_assert_invariants(l);
    /* and they still come out in order */
    struct gl_delivery d;
    for (unsigned i = 0; i < cap; i++) {
        assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
        assert_int_equal(d.cookie, i);
    }
    free(l);
}

static void test_configure_at_run_time_changes_latency_for_new_frames(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_delivery d;

    p.latency_ns = 5000;
    assert_int_equal(gl_link_configure(l, A2B, &p, NULL), 0);
    assert_int_equal(gl_link_send(l, A2B, 0, 60, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.arrival_ns, 672 + 5000);
    /* the other direction is untouched */
    assert_int_equal(gl_link_send(l, B2A, 0, 60, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, B2A, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.arrival_ns, 672);
    free(l);
}

static void test_time_going_backwards_is_clamped(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    uint64_t done;

    assert_int_equal(gl_link_send(l, A2B, 100000, 60, 1, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 100672);
    assert_int_equal(gl_link_send(l, A2B, 5, 60, 2, &done), GL_WIRE_QUEUED);
    assert_int_equal(done, 101344);
    free(l);
}

/* ---- Error paths ---- */

struct err_row {
    const char *name;
    void (*mutate)(struct gl_wire_params *p);
    const char *msg;  /* expected message prefix */
};

#define ROW(field, stmt) static void mut_##field(struct gl_wire_params *p) { stmt; }
ROW(latency, p->latency_ns = 60000000001ULL)
ROW(jitter, p->jitter_ns = 60000000001ULL)
ROW(dist, p->jitter_dist = (enum gl_jitter_dist)9)
ROW(rate_low, p->rate_bps = 999)
ROW(rate_high, p->rate_bps = 100000000001ULL)
ROW(qframes0, p->queue_frames = 0)
ROW(qframes_big, p->queue_frames = GL_WIRE_QUEUE_MAX + 1)
ROW(qbytes, p->queue_bytes = 83)
ROW(model, p->loss_model = (enum gl_loss_model)7)
ROW(loss_pct, p->loss_pct = 120)
ROW(loss_neg, p->loss_pct = -1)
ROW(loss_nan, p->loss_pct = NAN)
ROW(ge_p, p->ge.p = 1.5)
ROW(ge_r, p->ge.r = -0.1)
ROW(ge_h, p->ge.h = 2)
ROW(ge_k, p->ge.k = -2)
ROW(p13, p->mm4.p13 = 1.1)
ROW(p31, p->mm4.p31 = -1)
ROW(p32, p->mm4.p32 = 3)
ROW(p23, p->mm4.p23 = 1.01)
ROW(p14, p->mm4.p14 = -0.5)
ROW(p13_p14, (p->mm4.p13 = 0.7, p->mm4.p14 = 0.4))
ROW(p31_p32, (p->mm4.p31 = 0.7, p->mm4.p32 = 0.4))
ROW(dup, p->dup_pct = 101)
ROW(corrupt, p->corrupt_pct = -3)
ROW(reorder, (p->latency_ns = 1, p->reorder_pct = 100.5))
ROW(reorder_nolat, p->reorder_pct = 10)
ROW(gap, p->reorder_gap = 0)
ROW(skew, p->skew_crc_pct = 1000)
#undef ROW

static const struct err_row err_rows[] = {
    { "test_bad_latency_ns_rejected", mut_latency, "wire.latency_ns: 60000000001 is out of range [0, 60000000000] ns" },
    { "test_bad_jitter_ns_rejected", mut_jitter, "wire.jitter_ns: 60000000001 is out of range" },
    { "test_bad_jitter_dist_rejected", mut_dist, "wire.jitter_dist: 9 is not one of" },
    { "test_rate_below_1000_rejected", mut_rate_low, "wire.rate_bps: 999 is out of range [1000, 100000000000]" },
    { "test_rate_above_100g_rejected", mut_rate_high, "wire.rate_bps: 100000000001 is out of range" },
    { "test_queue_frames_0_rejected", mut_qframes0, "wire.queue_frames: 0 is out of range [1, 1024] frames" },
    { "test_queue_frames_too_many_rejected", mut_qframes_big, "wire.queue_frames: 1025 is out of range" },
    { "test_queue_bytes_below_one_frame_rejected", mut_qbytes, "wire.queue_bytes: 83 is out of range [84, 4294967295] bytes" },
    { "test_bad_loss_model_rejected", mut_model, "wire.loss_model: 7 is not one of" },
    { "test_loss_pct_120_rejected", mut_loss_pct, "wire.loss_pct: 120 is out of range [0, 100] %" },
    { "test_loss_pct_negative_rejected", mut_loss_neg, "wire.loss_pct: -1 is out of range" },
    { "test_loss_pct_nan_rejected", mut_loss_nan, "wire.loss_pct: " },
    { "test_ge_p_above_1_rejected", mut_ge_p, "wire.ge.p: 1.5 is out of range [0, 1]" },
    { "test_ge_r_negative_rejected", mut_ge_r, "wire.ge.r: -0.1 is out of range [0, 1]" },
    { "test_ge_h_above_1_rejected", mut_ge_h, "wire.ge.h: 2 is out of range" },
    { "test_ge_k_negative_rejected", mut_ge_k, "wire.ge.k: -2 is out of range" },
    { "test_p13_above_1_rejected", mut_p13, "wire.mm4.p13: 1.1 is out of range" },
    { "test_p31_negative_rejected", mut_p31, "wire.mm4.p31: -1 is out of range" },
    { "test_p32_above_1_rejected", mut_p32, "wire.mm4.p32: 3 is out of range" },
    { "test_p23_above_1_rejected", mut_p23, "wire.mm4.p23: 1.01 is out of range" },
    { "test_p14_negative_rejected", mut_p14, "wire.mm4.p14: -0.5 is out of range" },
    { "test_p13_plus_p14_above_1_rejected", mut_p13_p14, "wire.mm4: p13 + p14 = 1.1 exceeds 1" },
    { "test_p31_plus_p32_above_1_rejected", mut_p31_p32, "wire.mm4: p31 + p32 = 1.1 exceeds 1" },
    { "test_dup_pct_101_rejected", mut_dup, "wire.dup_pct: 101 is out of range [0, 100] %" },
    { "test_corrupt_pct_negative_rejected", mut_corrupt, "wire.corrupt_pct: -3 is out of range" },
    { "test_reorder_pct_above_100_rejected", mut_reorder, "wire.reorder_pct: 100.5 is out of range" },
    { "test_reorder_without_latency_rejected", mut_reorder_nolat, "wire.reorder_pct: 10 needs latency_ns > 0" },
    { "test_reorder_gap_0_rejected", mut_gap, "wire.reorder_gap: 0 is out of range [1, 1000000000]" },
    { "test_skew_crc_pct_1000_rejected", mut_skew, "wire.skew_crc_pct: 1000 is out of range" },
};

/* One row: validate, init and configure all reject it with the message,
 * and configure leaves the link as it was. */
static void test_error_row(void **state)
{
    const struct err_row *row = *state;
    struct gl_wire_params good = ideal(), bad = ideal();
    struct gl_err err = { "" };
    struct gl_link *l = wt_link_sym(&good, 1, 1000);
    struct gl_delivery d;

    row->mutate(&bad);
    assert_int_equal(gl_wire_params_validate(&bad, &err), -EINVAL);
    if (strncmp(err.msg, row->msg, strlen(row->msg)) != 0) {
        fail_msg("got \"%s\", want prefix \"%s\"", err.msg, row->msg);
    }
    memset(&err, 0, sizeof(err));
    assert_int_equal(gl_link_configure(l, A2B, &bad, &err), -EINVAL);
    assert_int_equal(strncmp(err.msg, row->msg, strlen(row->msg)), 0);
    assert_int_equal(gl_link_send(l, A2B, 0, 60, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, A2B, GL_NEVER - 1, &d), 1);
    assert_int_equal(d.arrival_ns, 672);
    assert_int_equal(gl_link_init(l, &good, &bad, 1, &err), -EINVAL);
    assert_int_equal(gl_link_init(l, &bad, &good, 1, NULL), -EINVAL);
    free(l);
}

static void test_default_params_are_valid(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    assert_int_equal(gl_wire_params_validate(&p, NULL), 0);
    assert_int_equal(gl_wire_params_validate(NULL, NULL), -EINVAL);
}

static void test_bad_direction_and_length_rejected_without_change(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_err err = { "" };
    struct gl_delivery d;
    struct gl_wire_counters c;

    assert_int_equal(gl_link_send(l, 2, 0, 60, 1, NULL), -EINVAL);
    assert_int_equal(gl_link_send(l, -1, 0, 60, 1, NULL), -EINVAL);
    assert_int_equal(gl_link_send(l, A2B, 0, 0, 1, NULL), -EINVAL);
    assert_int_equal(gl_link_send(l, A2B, 0, GL_WIRE_LEN_MAX + 1, 1, NULL), -EINVAL);
    assert_int_equal(gl_link_send(NULL, A2B, 0, 60, 1, NULL), -EINVAL);
    assert_int_equal(gl_link_send(l, A2B, 0, GL_WIRE_LEN_MAX, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_poll(l, 2, 0, &d), -EINVAL);
    assert_int_equal(gl_link_poll(l, A2B, 0, NULL), -EINVAL);
    assert_int_equal(gl_link_next_deadline(l, 5), GL_NEVER);
    assert_int_equal(gl_link_next_deadline(NULL, 0), GL_NEVER);
    gl_link_get_counters(l, 7, &c);
    assert_int_equal(c.sent, 0);
    gl_link_get_counters(l, A2B, &c);
    assert_int_equal(c.sent, 1);
    assert_int_equal(gl_link_configure(l, 3, &p, &err), -EINVAL);
    assert_string_equal(err.msg, "link.dir: 3 is out of range [0, 1]");
    assert_int_equal(gl_link_configure(NULL, 0, &p, NULL), -EINVAL);
    assert_int_equal(gl_link_configure(l, 0, NULL, NULL), -EINVAL);
    assert_int_equal(gl_link_init(NULL, &p, &p, 0, NULL), -EINVAL);
    assert_int_equal(gl_link_check_invariants(NULL, NULL), -EINVAL);
    free(l);
}

static void test_set_phy_rejects_speed_not_10_100_1000(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();
    struct gl_link *l = wt_link_sym(&p, 1, 1000);
    struct gl_err err = { "" };

    assert_int_equal(gl_link_set_phy(l, true, 0, true, true, 0, &err), -EINVAL);
    assert_string_equal(err.msg, "link.speed_mbps: 0 is not one of 10, 100, 1000");
    assert_int_equal(gl_link_set_phy(l, false, 2500, true, true, 0, &err), -EINVAL);
    assert_string_equal(err.msg,
                        "link.speed_mbps: 2500 is not one of 10, 100, 1000 (or 0 while down)");
    assert_int_equal(gl_link_set_phy(NULL, true, 100, true, true, 0, NULL), -EINVAL);
    /* unchanged: still up at 1000 */
    assert_int_equal(gl_link_send(l, A2B, 0, 60, 1, NULL), GL_WIRE_QUEUED);
    assert_int_equal(gl_link_next_deadline(l, A2B), 672);
    free(l);
}

/* ---- Parsers and names ---- */

static void test_parse_jitter_dist_names_round_trip(void **state)
{
    (void)state;
    static const char *const names[] = { "uniform", "normal", "pareto", "paretonormal" };
    enum gl_jitter_dist d;
    struct gl_err err = { "" };

    for (int i = 0; i < 4; i++) {
        assert_int_equal(gl_wire_parse_jitter_dist(names[i], &d, NULL), 0);
        assert_int_equal(d, i);
        assert_string_equal(gl_wire_jitter_dist_name(d), names[i]);
    }
    assert_int_equal(gl_wire_parse_jitter_dist("gauss", &d, &err), -EINVAL);
    assert_string_equal(err.msg, "jitter distribution: 'gauss' is not one of uniform, normal, "
                                 "pareto, paretonormal");
    assert_int_equal(gl_wire_parse_jitter_dist(NULL, &d, NULL), -EINVAL);
    assert_string_equal(gl_wire_jitter_dist_name((enum gl_jitter_dist)17), "?");
    assert_string_equal(gl_wire_loss_model_name(GL_LOSS_4STATE), "state");
    assert_string_equal(gl_wire_loss_model_name((enum gl_loss_model)-1), "?");
    assert_string_equal(gl_wire_verdict_name(GL_WIRE_DROP_QUEUE), "drop-queue");
    assert_string_equal(gl_wire_verdict_name(-EINVAL), "?");
}

static void test_parse_loss_random_and_bare_percent(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();

    assert_int_equal(gl_wire_parse_loss("random 1%", &p, NULL), 0);
    assert_int_equal(p.loss_model, GL_LOSS_RANDOM);
    assert_true(p.loss_pct > 0.999999 && p.loss_pct < 1.000001);
    assert_int_equal(gl_wire_parse_loss("  2.5 ", &p, NULL), 0);
    assert_true(p.loss_pct > 2.499999 && p.loss_pct < 2.500001);
    assert_int_equal(gl_wire_parse_loss("none", &p, NULL), 0);
    assert_true(p.loss_pct == 0.0);
}

static void test_parse_loss_gemodel_converts_complements(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();

    assert_int_equal(gl_wire_parse_loss("gemodel 1% 30% 80% 0.5%", &p, NULL), 0);
    assert_int_equal(p.loss_model, GL_LOSS_GEMODEL);
    assert_true(p.ge.p > 0.00999 && p.ge.p < 0.01001);
    assert_true(p.ge.r > 0.29999 && p.ge.r < 0.30001);
    assert_true(p.ge.h > 0.19999 && p.ge.h < 0.20001);   /* 1-h = 80% */
    assert_true(p.ge.k > 0.99499 && p.ge.k < 0.99501);   /* 1-k = 0.5% */
    /* iproute2 defaults: r = 1-p, 1-h = 100%, 1-k = 0 */
    assert_int_equal(gl_wire_parse_loss("gemodel 10", &p, NULL), 0);
    assert_true(p.ge.r > 0.89999 && p.ge.r < 0.90001);
    assert_true(p.ge.h == 0.0 && p.ge.k == 1.0);
}

static void test_parse_loss_state_fills_iproute2_defaults(void **state)
{
    (void)state;
    struct gl_wire_params p = ideal();

    assert_int_equal(gl_wire_parse_loss("state 1 2 3 4 5", &p, NULL), 0);
    assert_int_equal(p.loss_model, GL_LOSS_4STATE);
    assert_true(p.mm4.p13 > 0.00999 && p.mm4.p13 < 0.01001);
    assert_true(p.mm4.p31 > 0.01999 && p.mm4.p31 < 0.02001);
    assert_true(p.mm4.p32 > 0.02999 && p.mm4.p32 < 0.03001);
    assert_true(p.mm4.p23 > 0.03999 && p.mm4.p23 < 0.04001);
    assert_true(p.mm4.p14 > 0.04999 && p.mm4.p14 < 0.05001);
    assert_int_equal(gl_wire_parse_loss("state 20%", &p, NULL), 0);
    assert_true(p.mm4.p31 > 0.79999 && p.mm4.p31 < 0.80001);
    assert_true(p.mm4.p32 == 0.0 && p.mm4.p23 == 1.0 && p.mm4.p14 == 0.0);
}

static void test_parse_loss_errors_name_the_token(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *msg;
    } rows[] = {
        { "", "loss: empty spec (expected none, random, gemodel or state)" },
        { "bursty 3", "loss: unknown model 'bursty' (expected none, random, gemodel or state)" },
        { "random", "loss: random needs a percentage" },
        { "random x%", "loss: random 'x%' is not a percentage" },
        { "random 120%", "loss: random '120%' is out of range [0, 100] %" },
        /* plain decimal only: strtod would take these */
        { "random 1e1", "loss: random '1e1' is not a percentage" },
        { "random 0x10", "loss: random '0x10' is not a percentage" },
        { "random 0x1p-3", "loss: random '0x1p-3' is not a percentage" },
        { "random .", "loss: random '.' is not a percentage" },
        { "random +1", "loss: random '+1' is not a percentage" },
        { "gemodel 1e0 5", "loss: gemodel p '1e0' is not a percentage" },
        { "random 1% 25%", "loss: unexpected token '25%' (correlation is not supported)" },
        { "none 3", "loss: unexpected token '3' after none" },
        { "gemodel", "loss: gemodel needs at least p" },
        { "gemodel 1 2 x", "loss: gemodel 1-h 'x' is not a percentage" },
        { "gemodel 1 2 3 4 5", "loss: unexpected token '5' after gemodel's 4 values" },
        { "state", "loss: state needs at least p13" },
        { "state 1 2 3 4 5 6", "loss: unexpected token '6' after state's 5 values" },
        { "state 1 2 3 4 1e", "loss: state p14 '1e' is not a percentage" },
        { "state 80 10 0 100 30", "wire.mm4: p13 + p14 = 1.1 exceeds 1" },
        { "1 2 3 4 5 6 7 8 9", "loss: more than 8 tokens in '1 2 3 4 5 6 7 8 9'" },
    };
    struct gl_wire_params p = ideal(), before;
    struct gl_err err;

    before = p;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        memset(&err, 0, sizeof(err));
        assert_int_equal(gl_wire_parse_loss(rows[i].spec, &p, &err), -EINVAL);
        if (strcmp(err.msg, rows[i].msg) != 0) {
            fail_msg("'%s': got \"%s\", want \"%s\"", rows[i].spec, err.msg, rows[i].msg);
        }
        assert_memory_equal(&p, &before, sizeof(p));
    }
    char big[300];
    memset(big, '1', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_int_equal(gl_wire_parse_loss(big, &p, &err), -EINVAL);
    assert_string_equal(err.msg, "loss: spec longer than 255 characters");
    assert_int_equal(gl_wire_parse_loss(NULL, &p, NULL), -EINVAL);
}

static void test_state_size_reports_sizeof_link(void **state)
{
    (void)state;
    assert_int_equal(gl_link_state_size(), sizeof(struct gl_link));
}

int main(void)
{
    static struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_1514_at_100m_occupies_123040_ns),
        cmocka_unit_test(test_byte_time_is_800_80_8_ns_at_10_100_1000),
        cmocka_unit_test(test_short_frames_padded_to_64_bytes_plus_preamble_and_ifg),
        cmocka_unit_test(test_back_to_back_1514_at_1g_gives_81274_frames_per_second),
        cmocka_unit_test(test_backlogged_mac_serializes_frames_back_to_back),
        cmocka_unit_test(test_latency_is_added_exactly),
        cmocka_unit_test(test_rate_cap_spaces_arrivals_by_capped_frame_time),
        cmocka_unit_test(test_rate_cap_at_or_above_line_rate_changes_nothing),
        cmocka_unit_test(test_rate_cap_long_run_is_exact_despite_rounding),
        cmocka_unit_test(test_rate_cap_then_jitter_keeps_capped_spacing),
        cmocka_unit_test(test_queue_tail_drops_beyond_queue_frames),
        cmocka_unit_test(test_queue_tail_drops_beyond_queue_bytes),
        cmocka_unit_test(test_queue_drains_with_time_and_accepts_again),
        cmocka_unit_test(test_duplicate_delivers_twice_and_only_the_copy_is_last),
        cmocka_unit_test(test_duplicate_takes_wire_time_and_delays_the_next_frame),
        cmocka_unit_test(test_duplicate_passes_the_rate_cap),
        cmocka_unit_test(test_in_order_jitter_keeps_frames_a_frame_time_apart),
        cmocka_unit_test(test_flap_empties_the_cap_queue_and_the_order_floor),
        cmocka_unit_test(test_corrupt_frame_is_delivered_marked_fcs_error_not_dropped),
        cmocka_unit_test(test_reorder_gap_5_sends_every_5th_frame_ahead),
        cmocka_unit_test(test_jitter_keeps_order_unless_jitter_reorders),
        cmocka_unit_test(test_overtaking_frames_reach_the_receiver_a_frame_time_apart),
        cmocka_unit_test(test_frame_sent_while_link_down_is_lost_and_counted),
        cmocka_unit_test(test_link_down_marks_in_flight_frames_dropped_and_last),
        cmocka_unit_test(test_frames_already_arrived_survive_link_down),
        cmocka_unit_test(test_link_back_up_delivers_new_frames),
        cmocka_unit_test(test_speed_change_applies_to_next_frame),
        cmocka_unit_test(test_half_duplex_defers_to_carrier),
        cmocka_unit_test(test_simultaneous_start_collides_then_backs_off),
        cmocka_unit_test(test_mismatch_early_and_late_collisions),
        cmocka_unit_test(test_half_duplex_link_is_one_shared_medium),
        cmocka_unit_test(test_mismatch_collisions_land_on_the_half_duplex_side),
        cmocka_unit_test(test_mismatch_collisions_do_not_depend_on_frames_queued_ahead),
        cmocka_unit_test(test_csma_is_deterministic),
        cmocka_unit_test(test_skew_crc_errors_only_at_1000),
        cmocka_unit_test(test_skew_only_on_directions_marked_skewed),
        cmocka_unit_test(test_skew_default_rate),
        cmocka_unit_test(test_no_delivery_before_serialization_with_all_impairments),
        cmocka_unit_test(test_store_full_drops_and_counts),
        cmocka_unit_test(test_configure_at_run_time_changes_latency_for_new_frames),
        cmocka_unit_test(test_time_going_backwards_is_clamped),
        cmocka_unit_test(test_default_params_are_valid),
        cmocka_unit_test(test_bad_direction_and_length_rejected_without_change),
        cmocka_unit_test(test_set_phy_rejects_speed_not_10_100_1000),
        cmocka_unit_test(test_parse_jitter_dist_names_round_trip),
        cmocka_unit_test(test_parse_loss_random_and_bare_percent),
        cmocka_unit_test(test_parse_loss_gemodel_converts_complements),
        cmocka_unit_test(test_parse_loss_state_fills_iproute2_defaults),
        cmocka_unit_test(test_parse_loss_errors_name_the_token),
        cmocka_unit_test(test_state_size_reports_sizeof_link),
    };
    enum { N_FIXED = sizeof(tests) / sizeof(tests[0]) };
    enum { N_ERR = sizeof(err_rows) / sizeof(err_rows[0]) };
    static struct CMUnitTest all[N_FIXED + N_ERR];

    memcpy(all, tests, sizeof(tests));
    /* Table rows through prestate, each named after its condition. */
    for (unsigned i = 0; i < N_ERR; i++) {
        all[N_FIXED + i] = (struct CMUnitTest){
            .name = err_rows[i].name,
            .test_func = test_error_row,
            .initial_state = (void *)&err_rows[i],
        };
    }
    return cmocka_run_group_tests_name("wire", all, NULL, NULL);
}
