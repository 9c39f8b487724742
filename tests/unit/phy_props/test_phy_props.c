/*
 * test_phy_props.c - invariants of the PHY model under long random
 * sequences of MDIO accesses, time steps and environment changes.
 *
 * The sequences come from the project's seeded PRNG, so a failure names
 * the seed and operation index and replays exactly.  After every operation
 * the invariants of tests/common/phy_check.h are checked (register 17 vs
 * BMSR/ANLPAR/1000BASE-T status and gl_phy_get_link(), BMSR latching,
 * BMCR self-clearing bits, PHYID, irq level, registers above 31,
 * deadlines); tests/fuzz/phy checks the same ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"
#include "gemlab/prng.h"

#include "../../common/phy_check.h"

#define SEEDS 200u
#define OPS   1500u

static const uint16_t bmcr_values[] = {
    0x1140, 0x1340, 0x2100, 0x2000, 0x0100, 0x0000, 0x0140, 0x4140,
    0x6100, 0x1940, 0x9140, 0x8000, 0x3100,
};

static void check(struct gl_phy *phy, uint64_t now, unsigned seed,
                  unsigned op)
{
    char why[160];

    if (gl_test_phy_check(phy, now, why, sizeof(why)) != 0) {
        fail_msg("seed %u op %u: %s", seed, op, why);
    }
}

static void random_partner(struct gl_prng *r, struct gl_phy_partner *pt)
{
    gl_phy_partner_default(pt);
    pt->autoneg = gl_prng_below(r, 4) != 0;
    pt->abilities = (uint32_t)gl_prng_u64(r) & GL_ABIL_ALL_MASK;
    pt->forced_speed_mbps = gl_prng_below(r, 2) ? 100 : 10;
    pt->forced_full_duplex = gl_prng_below(r, 2);
    pt->ms = (enum gl_phy_ms)gl_prng_below(r, GL_MS__COUNT);
}

static void run_seed(unsigned seed)
{
    struct gl_prng r;
    struct gl_phy_params p;
    struct gl_phy phy;
    uint64_t now = 0;

    gl_prng_seed(&r, seed);
    gl_phy_params_default(&p);
    p.aneg_ns = (1 + gl_prng_below(&r, 50)) * GL_NS_PER_MS;
    p.train_1000_ns = gl_prng_below(&r, 50) * GL_NS_PER_MS;
    p.seed = seed;
    p.cable = (enum gl_cable)gl_prng_below(&r, GL_CABLE__COUNT);
    p.downshift_enable = gl_prng_below(&r, 2);
    p.downshift_attempts = 1 + (unsigned)gl_prng_below(&r, 8);
    random_partner(&r, &p.partner);
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);

    for (unsigned op = 0; op < OPS; op++) {
        uint64_t k = gl_prng_below(&r, 100);
        now += gl_prng_below(&r, 30 * GL_NS_PER_MS);
        if (k < 30) {
            gl_phy_read(&phy, (unsigned)gl_prng_below(&r, 34), now);
        } else if (k < 40) {
            gl_phy_write(&phy, MII_BMCR, bmcr_values[gl_prng_below(
                &r, sizeof(bmcr_values) / sizeof(bmcr_values[0]))], now);
        } else if (k < 55) {
            gl_phy_write(&phy, (unsigned)gl_prng_below(&r, 34),
                         (uint16_t)gl_prng_u64(&r), now);
        } else if (k < 65) {
            static const unsigned cfg[] = {
                MII_ADVERTISE, MII_CTRL1000, M88E1116R_EXT_CR, M88E1116R_IER,
            };
            gl_phy_write(&phy, cfg[gl_prng_below(&r, 4)],
                         (uint16_t)gl_prng_u64(&r), now);
        } else if (k < 80) {
            gl_phy_step(&phy, now);
        } else if (k < 87) {
            struct gl_phy_partner pt;
            random_partner(&r, &pt);
            assert_int_equal(gl_phy_set_partner(&phy, &pt, now, NULL), 0);
        } else if (k < 93) {
            assert_int_equal(gl_phy_set_cable(&phy, (enum gl_cable)
                             gl_prng_below(&r, GL_CABLE__COUNT), now, NULL), 0);
        } else {
            gl_phy_set_link_forced_down(&phy, gl_prng_below(&r, 2), now);
        }
        check(&phy, now, seed, op);
    }
}

static void test_invariants_hold_over_random_operation_sequences(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= SEEDS; seed++) {
        run_seed(seed);
    }
}

/* The same seed drives the same sequence to the same final state. */
static void test_same_seed_replays_identically(void **state)
{
    struct gl_phy_params p;
    struct gl_phy a, b;

    (void)state;
    gl_phy_params_default(&p);
    p.aneg_ns = GL_NS_PER_MS;
    p.train_1000_ns = GL_NS_PER_MS;
    p.partner.ms = GL_MS_PREFER_SLAVE;    /* seeds decide MASTER-SLAVE */
    p.seed = 42;
    assert_int_equal(gl_phy_init(&a, &p, NULL), 0);
    assert_int_equal(gl_phy_init(&b, &p, NULL), 0);
    for (unsigned i = 0; i < 50; i++) {
        uint64_t t = (uint64_t)i * 10 * GL_NS_PER_MS;
        gl_phy_write(&a, MII_BMCR, 0x1340, t);
        gl_phy_write(&b, MII_BMCR, 0x1340, t);
        gl_phy_step(&a, t + 5 * GL_NS_PER_MS);
        gl_phy_step(&b, t + 5 * GL_NS_PER_MS);
        assert_int_equal(a.master, b.master);
    }
    assert_memory_equal(a.regs, b.regs, sizeof(a.regs));
    assert_memory_equal(&a.prng, &b.prng, sizeof(a.prng));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invariants_hold_over_random_operation_sequences),
        cmocka_unit_test(test_same_seed_replays_identically),
    };
    return cmocka_run_group_tests_name("phy_props", tests, NULL, NULL);
}
