/*
 * test_phy_props.c - invariants of the PHY model under long random
 * sequences of MDIO accesses, time steps and environment changes.
 *
 * The sequences come from the project's seeded PRNG, so a failure names
 * the seed and operation index and replays exactly.  Invariants checked
 * after every operation:
 *  - register 17 link/speed/duplex agree with gl_phy_get_link();
 *  - BMSR (read twice) link status agrees with register 17;
 *  - gl_phy_step() returns GL_NEVER or a deadline after now;
 *  - the self-clearing BMCR bits never read back as 1, PHYID never changes;
 *  - irq_pending is exactly (reg 19 & reg 18) != 0;
 *  - a link that is up has a legal speed, and duplex_mismatch is exactly
 *    "both up with different duplex".
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

#define SEEDS 200u
#define OPS   1500u

static const uint16_t bmcr_values[] = {
    0x1140, 0x1340, 0x2100, 0x2000, 0x0100, 0x0000, 0x0140, 0x4140,
    0x6100, 0x1940, 0x9140, 0x8000, 0x3100,
};

static void check(struct gl_phy *phy, uint64_t now, unsigned seed,
                  unsigned op)
{
    struct gl_phy_link l;
    uint16_t page = gl_phy_peek(phy, M88E1116R_PAGE);
    char where[64];

    snprintf(where, sizeof(where), "seed %u op %u", seed, op);
    /* Look at page 0 without disturbing the firmware's page afterwards. */
    gl_phy_write(phy, M88E1116R_PAGE, 0, now);
    gl_phy_get_link(phy, &l);
    uint16_t ssr = gl_phy_peek(phy, M88E1116R_SSR);
    if (l.up != !!(ssr & M88E1116R_SSR_LINK)) {
        fail_msg("%s: reg 17 link %d vs link %d", where,
                 !!(ssr & M88E1116R_SSR_LINK), l.up);
    }
    if (l.up) {
        unsigned sp = (ssr & M88E1116R_SSR_SPEED_MASK) ==
                      M88E1116R_SSR_SPEED_1000 ? 1000 :
                      (ssr & M88E1116R_SSR_SPEED_MASK) ==
                      M88E1116R_SSR_SPEED_100 ? 100 : 10;
        if (sp != l.speed_mbps || !(ssr & M88E1116R_SSR_RESOLVED) ||
            !!(ssr & M88E1116R_SSR_DUPLEX) != l.full_duplex) {
            fail_msg("%s: reg 17 0x%04x vs %u/%d", where, ssr, l.speed_mbps,
                     l.full_duplex);
        }
        if (l.speed_mbps != 10 && l.speed_mbps != 100 &&
            l.speed_mbps != 1000) {
            fail_msg("%s: speed %u", where, l.speed_mbps);
        }
    }
    if (l.duplex_mismatch !=
        (l.up && l.partner_up && l.full_duplex != l.partner_full_duplex)) {
        fail_msg("%s: duplex_mismatch inconsistent", where);
    }
    if (l.loopback && l.partner_up) {
        fail_msg("%s: partner up in loopback", where);
    }
    gl_phy_read(phy, MII_BMSR, now);
    if (!!(gl_phy_read(phy, MII_BMSR, now) & BMSR_LSTATUS) != l.up) {
        fail_msg("%s: BMSR link disagrees", where);
    }
    if (gl_phy_read(phy, MII_BMCR, now) & (BMCR_RESET | BMCR_ANRESTART)) {
        fail_msg("%s: self-clearing bit reads 1", where);
    }
    if (gl_phy_read(phy, MII_PHYSID1, now) != 0x0141 ||
        (gl_phy_read(phy, MII_PHYSID2, now) & 0xFFF0) != 0x0E40) {
        fail_msg("%s: PHYID changed", where);
    }
    bool want = (gl_phy_peek(phy, M88E1116R_ISR) &
                 gl_phy_peek(phy, M88E1116R_IER)) != 0;
    if (gl_phy_irq_pending(phy) != want) {
        fail_msg("%s: irq_pending disagrees with reg 18/19", where);
    }
    uint64_t next = gl_phy_step(phy, now);
    if (next != GL_NEVER && next <= now) {
        fail_msg("%s: deadline %llu not after now %llu", where,
                 (unsigned long long)next, (unsigned long long)now);
    }
    gl_phy_write(phy, M88E1116R_PAGE, page, now);
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
