/* test_gem_ring.c - GEM buffer-descriptor rings: ownership, wrap, accounting.
 * The "hardware" here is the test writing descriptor bits the way the GEM
 * does (UG585 16.3.7): RX sets word0 bit 0 and the length in word1; TX sets
 * word1 bit 31 on the frame's (first) descriptor. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gem_ring.h"
#include "gem_regs.h"

#define N 8u
#define BUF(i) (0x00200000u + (uint32_t)(i) * 0x600u)

static struct gem_bd bd[N];

static void hw_rx_frame(uint32_t i, uint32_t len)
{
    bd[i].word1 = len | GEM_RXBD_SOF | GEM_RXBD_EOF;
    bd[i].word0 |= GEM_RXBD_OWN_SW;
}

static void hw_tx_done(uint32_t i, uint32_t err_bits)
{
    bd[i].word1 |= GEM_TXBD_USED | err_bits;
}

static void rx_init(struct gem_rx_ring *r)
{
    uint32_t bufs[N];
    for (uint32_t i = 0; i < N; i++)
        bufs[i] = BUF(i);
    assert_int_equal(gem_rx_ring_init(r, bd, N, bufs), 0);
}

static void test_rx_init_gives_all_to_gem_with_wrap_on_last_only(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    rx_init(&r);
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(bd[i].word0 & GEM_RXBD_ADDR_MASK, BUF(i));
        assert_int_equal(bd[i].word0 & GEM_RXBD_OWN_SW, 0);
        assert_int_equal(!!(bd[i].word0 & GEM_RXBD_WRAP), i == N - 1);
    }
}

static void test_rx_init_misaligned_buffer_returns_einval(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t bufs[N];
    for (uint32_t i = 0; i < N; i++)
        bufs[i] = BUF(i);
    bufs[3] |= 2;
    assert_int_equal(gem_rx_ring_init(&r, bd, N, bufs), -EINVAL);
    assert_int_equal(gem_rx_ring_init(&r, bd, 0, bufs), -EINVAL);
}

static void test_rx_peek_on_empty_ring_returns_false(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t idx, w1;
    rx_init(&r);
    assert_false(gem_rx_ring_peek(&r, &idx, &w1));
}

static void test_rx_frame_is_seen_then_rearm_returns_it_to_gem(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t idx, w1;
    rx_init(&r);
    hw_rx_frame(0, 60);
    assert_true(gem_rx_ring_peek(&r, &idx, &w1));
    assert_int_equal(idx, 0);
    assert_int_equal(w1 & GEM_RXBD_LEN_MASK, 60);
    gem_rx_ring_rearm(&r);
    assert_int_equal(bd[0].word0, BUF(0));          /* address kept, own cleared */
    assert_int_equal(r.head, 1);
    assert_false(gem_rx_ring_peek(&r, &idx, &w1));
}

static void test_rx_head_wraps_after_last_and_keeps_wrap_bit(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t idx, w1;
    rx_init(&r);
    for (uint32_t round = 0; round < 3; round++) {
        for (uint32_t i = 0; i < N; i++) {
            hw_rx_frame(i, 100 + i);
            assert_true(gem_rx_ring_peek(&r, &idx, &w1));
            assert_int_equal(idx, i);
            assert_int_equal(w1 & GEM_RXBD_LEN_MASK, 100 + i);
            gem_rx_ring_rearm(&r);
        }
        assert_int_equal(r.head, 0);
        assert_true(bd[N - 1].word0 & GEM_RXBD_WRAP);
        assert_int_equal(bd[N - 1].word0 & GEM_RXBD_OWN_SW, 0);
    }
}

static void test_rx_frames_out_of_order_ownership_waits_for_head(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t idx, w1;
    rx_init(&r);
    hw_rx_frame(1, 64);         /* not the head: must not be consumed */
    assert_false(gem_rx_ring_peek(&r, &idx, &w1));
}

/* `gem rxbd N`: the driver rebuilds the ring over the first n of its
 * descriptors while RX is stopped.  Frames pending in the old ring are gone,
 * the wrap moves to n-1 and the head restarts at 0, so the GEM (whose queue
 * pointer went back to RXQBASE) and the driver agree again. */
static void test_rx_reinit_with_fewer_descriptors_moves_wrap_and_resets_head(void **state)
{
    (void)state;
    struct gem_rx_ring r;
    uint32_t idx, w1, bufs[N];
    rx_init(&r);
    for (uint32_t i = 0; i < 5; i++) {          /* head at 5, frames at 5, 6 pending */
        hw_rx_frame(i, 60);
        assert_true(gem_rx_ring_peek(&r, &idx, &w1));
        gem_rx_ring_rearm(&r);
    }
    hw_rx_frame(5, 60);
    hw_rx_frame(6, 60);
    for (uint32_t i = 0; i < N; i++)
        bufs[i] = BUF(i);
    assert_int_equal(gem_rx_ring_init(&r, bd, 4, bufs), 0);
    assert_int_equal(r.n, 4);
    assert_int_equal(r.head, 0);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(bd[i].word0 & GEM_RXBD_OWN_SW, 0);
        assert_int_equal(!!(bd[i].word0 & GEM_RXBD_WRAP), i == 3);
    }
    assert_false(gem_rx_ring_peek(&r, &idx, &w1));
    /* the GEM fills 0..3 and wraps to 0; the driver follows */
    for (uint32_t k = 0; k < 6; k++) {
        hw_rx_frame(k % 4, 100 + k);
        assert_true(gem_rx_ring_peek(&r, &idx, &w1));
        assert_int_equal(idx, k % 4);
        assert_int_equal(w1 & GEM_RXBD_LEN_MASK, 100 + k);
        gem_rx_ring_rearm(&r);
    }
    assert_int_equal(r.head, 2);
}

static void test_tx_init_all_free_used_with_wrap_on_last(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    assert_int_equal(gem_tx_ring_init(&t, bd, N), 0);
    for (uint32_t i = 0; i < N; i++) {
        assert_true(bd[i].word1 & GEM_TXBD_USED);
        assert_int_equal(!!(bd[i].word1 & GEM_TXBD_WRAP), i == N - 1);
    }
    assert_int_equal(gem_tx_ring_space(&t), N);
}

static void test_tx_enqueue_clears_used_sets_last_and_length(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    gem_tx_ring_init(&t, bd, N);
    assert_int_equal(gem_tx_ring_enqueue(&t, BUF(0), 1514), 0);
    assert_int_equal(bd[0].word0, BUF(0));
    assert_int_equal(bd[0].word1, 1514u | GEM_TXBD_LAST);
    assert_int_equal(gem_tx_ring_space(&t), N - 1);
}

static void test_tx_full_ring_returns_enospc(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    gem_tx_ring_init(&t, bd, N);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(gem_tx_ring_enqueue(&t, BUF(i), 60), (int)i);
    assert_int_equal(gem_tx_ring_enqueue(&t, BUF(0), 60), -ENOSPC);
    assert_int_equal(gem_tx_ring_space(&t), 0);
    /* the last descriptor keeps its wrap bit while in flight */
    assert_true(bd[N - 1].word1 & GEM_TXBD_WRAP);
    assert_false(bd[N - 1].word1 & GEM_TXBD_USED);
}

static void test_tx_bad_length_returns_einval(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    gem_tx_ring_init(&t, bd, N);
    assert_int_equal(gem_tx_ring_enqueue(&t, BUF(0), 0), -EINVAL);
    assert_int_equal(gem_tx_ring_enqueue(&t, BUF(0), GEM_TXBD_LEN_MASK + 1), -EINVAL);
    assert_int_equal(gem_tx_ring_space(&t), N);
}

static void test_tx_reclaim_waits_for_gem_then_frees_in_order(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    struct gem_tx_done d;
    gem_tx_ring_init(&t, bd, N);
    gem_tx_ring_enqueue(&t, BUF(0), 60);
    gem_tx_ring_enqueue(&t, BUF(1), 60);
    assert_false(gem_tx_ring_reclaim(&t, &d));      /* GEM not done */
    hw_tx_done(1, 0);                               /* out of order */
    assert_false(gem_tx_ring_reclaim(&t, &d));      /* tail still busy */
    hw_tx_done(0, 0);
    assert_true(gem_tx_ring_reclaim(&t, &d));
    assert_int_equal(d.index, 0);
    assert_true(gem_tx_ring_reclaim(&t, &d));
    assert_int_equal(d.index, 1);
    assert_false(gem_tx_ring_reclaim(&t, &d));
    assert_int_equal(gem_tx_ring_space(&t), N);
}

static void test_tx_error_bits_reported_and_cleared_on_reclaim(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    struct gem_tx_done d;
    gem_tx_ring_init(&t, bd, N);
    gem_tx_ring_enqueue(&t, BUF(0), 60);
    hw_tx_done(0, GEM_TXBD_RETRY_LIMIT);
    assert_true(gem_tx_ring_reclaim(&t, &d));
    assert_true(d.status & GEM_TXBD_RETRY_LIMIT);
    assert_int_equal(bd[0].word1, GEM_TXBD_USED);   /* back to free, no stale bits */
}

static void test_tx_accounting_consistent_over_many_wraps(void **state)
{
    (void)state;
    struct gem_tx_ring t;
    struct gem_tx_done d;
    uint32_t sent = 0, done = 0;
    gem_tx_ring_init(&t, bd, N);
    for (uint32_t step = 0; step < 10 * N; step++) {
        /* enqueue up to 3, complete up to 2: the ring fills, then drains */
        for (int k = 0; k < 3; k++) {
            int i = gem_tx_ring_enqueue(&t, BUF(0), 60);
            if (i == -ENOSPC)
                break;
            assert_int_equal(i, (int)(sent % N));
            sent++;
        }
        for (int k = 0; k < 2 && done < sent; k++) {
            hw_tx_done(done % N, 0);
            assert_true(gem_tx_ring_reclaim(&t, &d));
            assert_int_equal(d.index, done % N);
            done++;
        }
        assert_int_equal(t.count, sent - done);
        assert_int_equal(gem_tx_ring_space(&t), N - (sent - done));
    }
    assert_true(sent > 3 * N);
    assert_true(bd[N - 1].word1 & GEM_TXBD_WRAP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rx_init_gives_all_to_gem_with_wrap_on_last_only),
        cmocka_unit_test(test_rx_init_misaligned_buffer_returns_einval),
        cmocka_unit_test(test_rx_peek_on_empty_ring_returns_false),
        cmocka_unit_test(test_rx_frame_is_seen_then_rearm_returns_it_to_gem),
        cmocka_unit_test(test_rx_head_wraps_after_last_and_keeps_wrap_bit),
        cmocka_unit_test(test_rx_frames_out_of_order_ownership_waits_for_head),
        cmocka_unit_test(test_rx_reinit_with_fewer_descriptors_moves_wrap_and_resets_head),
        cmocka_unit_test(test_tx_init_all_free_used_with_wrap_on_last),
        cmocka_unit_test(test_tx_enqueue_clears_used_sets_last_and_length),
        cmocka_unit_test(test_tx_full_ring_returns_enospc),
        cmocka_unit_test(test_tx_bad_length_returns_einval),
        cmocka_unit_test(test_tx_reclaim_waits_for_gem_then_frees_in_order),
        cmocka_unit_test(test_tx_error_bits_reported_and_cleared_on_reclaim),
        cmocka_unit_test(test_tx_accounting_consistent_over_many_wraps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
