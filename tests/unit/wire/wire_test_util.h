/*
 * wire_test_util.h - helpers shared by the wire model's unit tests
 * (tests/unit/wire and tests/unit/wire_loss).  Header-only, static.
 */
#ifndef WIRE_TEST_UTIL_H
#define WIRE_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "gemlab/wire.h"

/* A link is ~360 KB: keep it off the stack. */
static inline struct gl_link *wt_link_new(const struct gl_wire_params *ab,
                                          const struct gl_wire_params *ba,
                                          uint64_t seed, unsigned speed)
{
    struct gl_link *l = malloc(sizeof(*l));
    struct gl_err err = { "" };

    assert_non_null(l);
    if (gl_link_init(l, ab, ba, seed, &err) != 0) {
        fail_msg("gl_link_init: %s", err.msg);
    }
    if (gl_link_set_phy(l, true, speed, true, true, 0, &err) != 0) {
        fail_msg("gl_link_set_phy: %s", err.msg);
    }
    return l;
}

/* Same parameters both ways. */
static inline struct gl_link *wt_link_sym(const struct gl_wire_params *p, uint64_t seed,
                                          unsigned speed)
{
    return wt_link_new(p, p, seed, speed);
}

static inline void wt_assert_invariants(const struct gl_link *l)
{
    struct gl_err err = { "" };
    if (gl_link_check_invariants(l, &err) != 0) {
        fail_msg("invariant broken: %s", err.msg);
    }
}

/* Drain every delivery due at @now in @dir, checking the basic delivery
 * invariants; returns how many were popped. */
static inline unsigned wt_drain(struct gl_link *l, int dir, uint64_t now)
{
    struct gl_delivery d;
    unsigned n = 0;

    while (gl_link_poll(l, dir, now, &d) == 1) {
        assert_true(d.arrival_ns <= now);
        assert_true(d.arrival_ns >= d.tx_done_ns);
        n++;
    }
    return n;
}

#endif /* WIRE_TEST_UTIL_H */
