/*
 * test_phy.c - PHY model register semantics, configuration errors, parsing.
 *
 * Autonegotiation outcomes, downshift and parallel detection are in
 * tests/unit/phy_aneg.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

#define MS(x) ((uint64_t)(x) * GL_NS_PER_MS)
#define ANEG MS(50)
#define TRAIN MS(50)

struct fx {
    struct gl_phy phy;
    struct gl_phy_params p;
};

static struct fx fxs;

static int setup(void **state)
{
    struct gl_err err = { { 0 } };

    memset(&fxs, 0, sizeof(fxs));
    gl_phy_params_default(&fxs.p);
    fxs.p.aneg_ns = ANEG;
    fxs.p.train_1000_ns = TRAIN;
    assert_int_equal(gl_phy_init(&fxs.phy, &fxs.p, &err), 0);
    *state = &fxs;
    return 0;
}

static struct gl_phy *phy_of(void **state)
{
    return &((struct fx *)*state)->phy;
}

static void expect_params_error(const struct gl_phy_params *p,
                                const char *field);

static uint16_t rd(struct gl_phy *phy, unsigned reg, uint64_t t)
{
    return gl_phy_read(phy, reg, t);
}

/* ---- identity and defaults ------------------------------------------- */

static void test_phyid_reads_marvell_88e1116r_with_revision(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.phy_rev = 5;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    assert_int_equal(rd(&phy, MII_PHYSID1, 0), 0x0141);
    assert_int_equal(rd(&phy, MII_PHYSID2, 0), 0x0E45);
}

static void test_phyid_writes_are_ignored(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, MII_PHYSID1, 0x1234, 0);
    gl_phy_write(phy, MII_PHYSID2, 0xFFFF, 0);
    assert_int_equal(rd(phy, MII_PHYSID1, 0), 0x0141);
    assert_int_equal(rd(phy, MII_PHYSID2, 0), 0x0E40);
}

static void test_power_on_registers_hold_documented_defaults(void **state)
{
    struct gl_phy *phy = phy_of(state);

    assert_int_equal(rd(phy, MII_BMCR, 0), 0x1140);     /* AN, FD, 1000 */
    assert_int_equal(rd(phy, MII_BMSR, 0), 0x7949);     /* no link */
    assert_int_equal(rd(phy, MII_ADVERTISE, 0), 0x01E1);
    assert_int_equal(rd(phy, MII_LPA, 0), 0);
    assert_int_equal(rd(phy, MII_EXPANSION, 0), 0x0004);
    assert_int_equal(rd(phy, MII_NPAGE_TX, 0), 0x2001);
    assert_int_equal(rd(phy, MII_NPAGE_LP, 0), 0);
    assert_int_equal(rd(phy, MII_CTRL1000, 0), 0x0300);
    assert_int_equal(rd(phy, MII_STAT1000, 0), 0);
    assert_int_equal(rd(phy, MII_ESTATUS, 0), 0x3000);
    /* auto MDI-X; params default: downshift off, 4 attempts -> counter 3 */
    assert_int_equal(rd(phy, M88E1116R_CSCR, 0), 0x0060 | 3u << 12);
    assert_int_equal(rd(phy, M88E1116R_SSR, 0), 0);
    assert_int_equal(rd(phy, M88E1116R_IER, 0), 0);
    assert_int_equal(rd(phy, M88E1116R_ISR, 0), 0);
    assert_int_equal(rd(phy, M88E1116R_EXT_CR, 0), 0);
    assert_int_equal(rd(phy, M88E1116R_PAGE, 0), 0);
}

static void test_cscr_power_on_reflects_downshift_params(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.downshift_enable = true;
    p.downshift_attempts = 8;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    assert_int_equal(rd(&phy, M88E1116R_CSCR, 0),
                     M88E1116R_CSCR_AUTO_CROSS | M88E1116R_CSCR_DS_ENABLE | (7u << 12));
    assert_int_equal(rd(&phy, M88E1116R_EXT_CR, 0), 0);
}

static void test_anar_read_only_bits_keep_their_value(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, MII_ADVERTISE, 0xFFFF, 0);
    /* 14, 12, 9 (T4) and the selector cannot change. */
    assert_int_equal(rd(phy, MII_ADVERTISE, 0), 0xADE1);
    gl_phy_write(phy, MII_ADVERTISE, 0x0000, 0);
    assert_int_equal(rd(phy, MII_ADVERTISE, 0), 0x0001);
}

static void test_status_registers_ignore_writes(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, MII_BMSR, 0x0000, 0);
    gl_phy_write(phy, MII_ESTATUS, 0x0000, 0);
    gl_phy_write(phy, M88E1116R_SSR, 0xFFFF, 0);
    assert_int_equal(rd(phy, MII_BMSR, 0), 0x7949);
    assert_int_equal(rd(phy, MII_ESTATUS, 0), 0x3000);
    assert_int_equal(rd(phy, M88E1116R_SSR, 0), 0);
}

static void test_out_of_range_register_reads_ffff_and_ignores_write(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy before;

    memcpy(&before, phy, sizeof(before));
    assert_int_equal(rd(phy, 32, 0), 0xFFFF);
    assert_int_equal(gl_phy_peek(phy, 99), 0xFFFF);
    gl_phy_write(phy, 32, 0x1234, 0);
    assert_memory_equal(&before, phy, sizeof(before));
}

static void test_reserved_registers_read_0_and_ignore_writes(void **state)
{
    struct gl_phy *phy = phy_of(state);
    static const unsigned regs[] = { 11, 12, 13, 14, 21, 23, 25, 27, 31 };

    for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
        gl_phy_write(phy, regs[i], 0xFFFF, 0);
        assert_int_equal(rd(phy, regs[i], 0), 0);
    }
}

static void test_ier_reserved_bits_read_0(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, M88E1116R_IER, 0xFFFF, 0);
    assert_int_equal(rd(phy, M88E1116R_IER, 0), M88E1116R_INT_VALID_MASK);
}

/* ---- latching and clear-on-read --------------------------------------- */

static void test_bmsr_link_latched_low_until_read_after_link_up(void **state)
{
    struct gl_phy *phy = phy_of(state);

    /* Link is up at 100 ms (AN 50 ms + 1000BASE-T training 50 ms), but
     * the link was down since power-on and nobody read BMSR. */
    gl_phy_step(phy, MS(100));
    assert_true(phy->up);
    assert_int_equal(rd(phy, MII_BMSR, MS(100)) & BMSR_LSTATUS, 0);
    assert_int_equal(rd(phy, MII_BMSR, MS(100)), 0x796D);
    assert_int_equal(rd(phy, MII_BMSR, MS(101)), 0x796D);
}

static void test_bmsr_short_link_drop_is_seen_by_first_read_only(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_step(phy, MS(100));
    rd(phy, MII_BMSR, MS(100));
    assert_int_equal(rd(phy, MII_BMSR, MS(100)) & BMSR_LSTATUS, BMSR_LSTATUS);

    /* A flap nobody polled: down at 200 ms, back at 300 ms. */
    gl_phy_set_link_forced_down(phy, true, MS(200));
    gl_phy_set_link_forced_down(phy, false, MS(200) + 1);
    gl_phy_step(phy, MS(301));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(rd(phy, MII_BMSR, MS(301)) & BMSR_LSTATUS, 0);
    assert_int_equal(rd(phy, MII_BMSR, MS(301)) & BMSR_LSTATUS, BMSR_LSTATUS);
}

static void test_isr_latches_events_and_clears_on_read(void **state)
{
    struct gl_phy *phy = phy_of(state);
    uint16_t isr;

    gl_phy_step(phy, MS(100));
    isr = rd(phy, M88E1116R_ISR, MS(100));
    assert_int_equal(isr, M88E1116R_INT_LINK | M88E1116R_INT_AN_COMPLETE |
                          M88E1116R_INT_SPEED | M88E1116R_INT_DUPLEX |
                          M88E1116R_INT_PAGE_RCVD);
    assert_int_equal(rd(phy, M88E1116R_ISR, MS(100)), 0);
}

static void test_irq_pending_only_for_enabled_latched_events(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_step(phy, MS(100));
    assert_false(gl_phy_irq_pending(phy));           /* nothing enabled */
    gl_phy_write(phy, M88E1116R_IER, M88E1116R_INT_DOWNSHIFT, MS(100));
    assert_false(gl_phy_irq_pending(phy));           /* not that event */
    gl_phy_write(phy, M88E1116R_IER, M88E1116R_IMASK_LINUX, MS(100));
    assert_true(gl_phy_irq_pending(phy));
    rd(phy, M88E1116R_ISR, MS(100));
    assert_false(gl_phy_irq_pending(phy));
    gl_phy_set_link_forced_down(phy, true, MS(150));
    assert_true(gl_phy_irq_pending(phy));
}

static void test_peek_has_no_side_effects(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_step(phy, MS(100));
    assert_int_equal(gl_phy_peek(phy, MII_BMSR) & BMSR_LSTATUS, 0);
    assert_int_equal(gl_phy_peek(phy, MII_BMSR) & BMSR_LSTATUS, 0);
    assert_int_not_equal(gl_phy_peek(phy, M88E1116R_ISR), 0);
    assert_int_not_equal(gl_phy_peek(phy, M88E1116R_ISR), 0);
    rd(phy, MII_BMSR, MS(100));
    assert_int_equal(gl_phy_peek(phy, MII_BMSR) & BMSR_LSTATUS, BMSR_LSTATUS);
}

static void test_peek_does_not_advance_time(void **state)
{
    struct gl_phy *phy = phy_of(state);

    /* Reading at 100 ms would bring the link up; peeking must not. */
    assert_int_equal(gl_phy_peek(phy, M88E1116R_SSR), 0);
    assert_false(phy->up);
    assert_int_equal(rd(phy, M88E1116R_SSR, MS(100)) & M88E1116R_SSR_LINK,
                     M88E1116R_SSR_LINK);
}

/* ---- BMCR self-clearing bits and soft reset ----------------------------*/

static void test_soft_reset_self_clears_and_reloads_status(void **state)
{
    struct gl_phy *phy = phy_of(state);
    uint16_t bmcr;
    struct gl_phy_link l;

    gl_phy_step(phy, MS(100));
    gl_phy_write(phy, M88E1116R_IER, M88E1116R_IMASK_LINUX, MS(100));
    gl_phy_write(phy, MII_ADVERTISE, ADVERTISE_100FULL | ADVERTISE_CSMA,
                 MS(100));
    gl_phy_write(phy, MII_CTRL1000, 0, MS(100));
    bmcr = rd(phy, MII_BMCR, MS(100));
    gl_phy_write(phy, MII_BMCR, bmcr | BMCR_RESET, MS(100));

    assert_int_equal(rd(phy, MII_BMCR, MS(100)), 0x1140);    /* SC */
    gl_phy_get_link(phy, &l);
    assert_false(l.up);
    assert_int_equal(rd(phy, MII_BMSR, MS(100)), 0x7949);
    assert_int_equal(rd(phy, MII_LPA, MS(100)), 0);
    assert_int_equal(rd(phy, MII_EXPANSION, MS(100)), 0x0004);
    assert_int_equal(rd(phy, MII_STAT1000, MS(100)), 0);
    assert_int_equal(rd(phy, M88E1116R_SSR, MS(100)), 0);
    assert_int_equal(rd(phy, M88E1116R_ISR, MS(100)), 0);
    /* Marvell "Retain" registers keep the configuration. */
    assert_int_equal(rd(phy, MII_ADVERTISE, MS(100)),
                     ADVERTISE_100FULL | ADVERTISE_CSMA);
    assert_int_equal(rd(phy, MII_CTRL1000, MS(100)), 0);
    assert_int_equal(rd(phy, M88E1116R_IER, MS(100)), M88E1116R_IMASK_LINUX);
}

static void test_soft_reset_renegotiates_with_retained_advertisement(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_write(phy, MII_ADVERTISE, ADVERTISE_100FULL | ADVERTISE_CSMA, 0);
    gl_phy_write(phy, MII_CTRL1000, 0, 0);
    gl_phy_write(phy, MII_BMCR, rd(phy, MII_BMCR, 0) | BMCR_RESET, MS(10));
    gl_phy_step(phy, MS(60) - 1);
    gl_phy_get_link(phy, &l);
    assert_false(l.up);
    gl_phy_step(phy, MS(60));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 100);
    assert_true(l.full_duplex);
}

static void test_soft_reset_clears_loopback(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, MII_BMCR, BMCR_LOOPBACK | BMCR_SPEED_100 |
                 BMCR_FULLDPLX, 0);
    assert_int_equal(gl_phy_state(phy), GL_PHY_ST_LOOPBACK);
    gl_phy_write(phy, MII_BMCR, BMCR_RESET | BMCR_LOOPBACK | BMCR_ANENABLE |
                 BMCR_SPEED_1000 | BMCR_FULLDPLX, MS(1));
    assert_int_equal(rd(phy, MII_BMCR, MS(1)), 0x1140);
    assert_int_equal(gl_phy_state(phy), GL_PHY_ST_ANEG);
}

static void test_restart_an_self_clears_and_renegotiates(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_step(phy, MS(100));
    gl_phy_write(phy, MII_BMCR, 0x1140 | BMCR_ANRESTART, MS(200));
    assert_int_equal(rd(phy, MII_BMCR, MS(200)), 0x1140);
    gl_phy_get_link(phy, &l);
    assert_false(l.up);
    assert_int_equal(l.link_changes, 2);
    assert_int_equal(gl_phy_step(phy, MS(200)), MS(250));
    gl_phy_step(phy, MS(300));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(l.link_changes, 3);
    assert_int_equal(l.aneg_rounds, 2);
}

static void test_restart_an_is_ignored_while_an_disabled(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_write(phy, MII_BMCR, BMCR_SPEED_100 | BMCR_FULLDPLX, 0);
    gl_phy_step(phy, MS(50));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    gl_phy_write(phy, MII_BMCR, BMCR_SPEED_100 | BMCR_FULLDPLX |
                 BMCR_ANRESTART, MS(60));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(l.link_changes, 1);
    assert_int_equal(rd(phy, MII_BMCR, MS(60)), BMCR_SPEED_100 | BMCR_FULLDPLX);
}

static void test_anar_change_takes_effect_only_after_restart(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_step(phy, MS(100));
    gl_phy_write(phy, MII_ADVERTISE, ADVERTISE_10HALF | ADVERTISE_CSMA,
                 MS(100));
    gl_phy_write(phy, MII_CTRL1000, 0, MS(100));
    gl_phy_step(phy, MS(1000));
    gl_phy_get_link(phy, &l);
    assert_int_equal(l.speed_mbps, 1000);
    gl_phy_write(phy, MII_BMCR, 0x1140 | BMCR_ANRESTART, MS(1000));
    gl_phy_step(phy, MS(1050));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 10);
    assert_false(l.full_duplex);
}

static void test_power_down_drops_link_and_power_up_renegotiates(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_step(phy, MS(100));
    gl_phy_write(phy, MII_BMCR, 0x1140 | BMCR_PDOWN, MS(100));
    gl_phy_get_link(phy, &l);
    assert_false(l.up);
    assert_false(l.partner_up);
    assert_int_equal(gl_phy_state(phy), GL_PHY_ST_POWER_DOWN);
    assert_int_equal(gl_phy_step(phy, MS(5000)), GL_NEVER);
    gl_phy_write(phy, MII_BMCR, 0x1140, MS(5000));
    gl_phy_step(phy, MS(5100));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
}

/* ---- loopback ----------------------------------------------------------*/

static void test_loopback_is_up_at_once_at_forced_speed(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;
    uint16_t ssr;

    gl_phy_write(phy, MII_BMCR, BMCR_LOOPBACK | BMCR_SPEED_100 |
                 BMCR_FULLDPLX, MS(5));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_true(l.loopback);
    assert_false(l.partner_up);
    assert_int_equal(l.speed_mbps, 100);
    assert_true(l.full_duplex);
    ssr = rd(phy, M88E1116R_SSR, MS(5));
    assert_int_equal(ssr, M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX |
                          M88E1116R_SSR_RESOLVED | M88E1116R_SSR_LINK);
    rd(phy, MII_BMSR, MS(5));
    /* Link up, AN not complete: the link did not come from clause 28. */
    assert_int_equal(rd(phy, MII_BMSR, MS(5)), 0x7949 | BMSR_LSTATUS);
    assert_int_equal(gl_phy_step(phy, MS(10000)), GL_NEVER);
}

static void test_loopback_ignores_cable_and_leaving_it_renegotiates(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_link l;

    gl_phy_write(phy, MII_BMCR, BMCR_LOOPBACK | BMCR_SPEED_1000 |
                 BMCR_FULLDPLX, 0);
    assert_int_equal(gl_phy_set_cable(phy, GL_CABLE_NONE, MS(1), NULL), 0);
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 1000);
    assert_int_equal(gl_phy_set_cable(phy, GL_CABLE_4PAIR, MS(2), NULL), 0);
    gl_phy_write(phy, MII_BMCR, 0x1140, MS(10));
    gl_phy_get_link(phy, &l);
    assert_false(l.up);
    assert_false(l.loopback);
    gl_phy_step(phy, MS(110));
    gl_phy_get_link(phy, &l);
    assert_true(l.up);
    assert_false(l.loopback);
}

/* ---- pages --------------------------------------------------------------*/

static void test_page_2_and_3_registers_store_values(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_MSCR, 0);
    gl_phy_write(phy, 21, M88E1116R_MSCR_RX_DELAY | M88E1116R_MSCR_TX_DELAY, 0);
    assert_int_equal(rd(phy, 21, 0), 0x0030);
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_LED, 0);
    gl_phy_write(phy, 16, 0x0030, 0);
    assert_int_equal(rd(phy, 16, 0), 0x0030);
    assert_int_equal(rd(phy, 21, 0), 0);
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_COPPER, 0);
    /* Page 0 registers 16 and 21 were not touched. */
    assert_int_equal(rd(phy, 16, 0), 0x0060 | 3u << 12);  /* its power-on value */
    assert_int_equal(rd(phy, 21, 0), 0);
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_MSCR, 0);
    assert_int_equal(rd(phy, 21, 0), 0x0030);
}

static void test_unknown_page_reads_0_and_keeps_clause22_regs(void **state)
{
    struct gl_phy *phy = phy_of(state);

    gl_phy_write(phy, M88E1116R_PAGE, 0xFF05, 0);
    assert_int_equal(rd(phy, M88E1116R_PAGE, 0), 0x0005);
    gl_phy_write(phy, 17, 0xFFFF, 0);
    gl_phy_write(phy, 19, 0xFFFF, 0);
    gl_phy_step(phy, MS(100));              /* link up: events latched */
    for (unsigned r = 16; r <= 21; r++) {
        assert_int_equal(rd(phy, r, MS(100)), 0);
    }
    assert_int_equal(rd(phy, MII_BMCR, MS(100)), 0x1140);
    assert_int_equal(rd(phy, MII_PHYSID1, MS(100)), 0x0141);
    /* Reading "19" on another page did not consume the page-0 events. */
    gl_phy_write(phy, M88E1116R_PAGE, 0, MS(100));
    assert_int_not_equal(rd(phy, M88E1116R_ISR, MS(100)), 0);
}

/* ---- RGMII timing (page 2 register 21 + the board's PCB delays) -------- */

static void mscr(struct gl_phy *phy, uint16_t v)
{
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_MSCR, 0);
    gl_phy_write(phy, M88E1116R_MSCR, v, 0);
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_COPPER, 0);
}

static void expect_skew(struct gl_phy *phy, bool rx, bool tx)
{
    struct gl_phy_link lk;

    gl_phy_get_link(phy, &lk);
    assert_int_equal(lk.rgmii_rx_skewed, rx);
    assert_int_equal(lk.rgmii_tx_skewed, tx);
}

/* ZC702 (no PCB delay): Linux's phy-mode mapping (marvell.c
 * m88e1121_config_aneg_rgmii_delays) decides which directions work. */
static void test_rgmii_board_without_pcb_delay_needs_both_phy_delays(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;
    struct gl_phy_link lk;

    (void)state;
    gl_phy_params_default(&p);
    p.rgmii_timing = true;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    expect_skew(&phy, true, true);              /* power-on: 0 = "rgmii" */
    mscr(&phy, M88E1116R_MSCR_RX_DELAY | M88E1116R_MSCR_TX_DELAY);
    expect_skew(&phy, false, false);            /* "rgmii-id" */
    gl_phy_get_link(&phy, &lk);
    assert_true(lk.rgmii_rx_delay && lk.rgmii_tx_delay);
    mscr(&phy, M88E1116R_MSCR_RX_DELAY);
    expect_skew(&phy, false, true);             /* "rgmii-rxid" */
    mscr(&phy, M88E1116R_MSCR_TX_DELAY);
    expect_skew(&phy, true, false);             /* "rgmii-txid" */
    mscr(&phy, 0);
    expect_skew(&phy, true, true);              /* "rgmii" */
}

/* A PCB delay plus the PHY's is two delays: as wrong as none. */
static void test_rgmii_pcb_delay_plus_phy_delay_is_skewed(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.rgmii_timing = true;
    p.pcb_rx_delay = p.pcb_tx_delay = true;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    expect_skew(&phy, false, false);            /* "rgmii" is right here */
    mscr(&phy, M88E1116R_MSCR_RX_DELAY | M88E1116R_MSCR_TX_DELAY);
    expect_skew(&phy, true, true);
    p.pcb_tx_delay = false;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    mscr(&phy, M88E1116R_MSCR_TX_DELAY);
    expect_skew(&phy, false, false);
}

/* Not modelled (the default, e.g. a bare qtest GEM): never skewed. */
static void test_rgmii_timing_off_is_never_skewed(void **state)
{
    struct gl_phy *phy = phy_of(state);

    expect_skew(phy, false, false);
    mscr(phy, M88E1116R_MSCR_TX_DELAY);
    expect_skew(phy, false, false);
}

/* ---- a 10/100 PHY (max_speed_mbps 100) ---------------------------------- */

static void test_100_only_phy_has_no_1000baset_registers(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;
    struct gl_phy_link lk;

    (void)state;
    gl_phy_params_default(&p);
    p.aneg_ns = ANEG;
    p.train_1000_ns = TRAIN;
    p.max_speed_mbps = 100;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    /* BMSR: 10/100 abilities, no extended status (22.2.4.2.16) */
    assert_int_equal(rd(&phy, MII_BMSR, 0) & BMSR_ESTATEN, 0);
    assert_int_not_equal(rd(&phy, MII_BMSR, 0) & BMSR_100FULL, 0);
    assert_int_equal(rd(&phy, MII_ESTATUS, 0), 0);
    assert_int_equal(rd(&phy, MII_CTRL1000, 0), 0);
    gl_phy_write(&phy, MII_CTRL1000, CTRL1000_FULL | CTRL1000_HALF, 0);
    assert_int_equal(rd(&phy, MII_CTRL1000, 0), 0);
    /* a 1000-capable partner (the default switch port): 100 full */
    gl_phy_step(&phy, MS(1000));
    gl_phy_get_link(&phy, &lk);
    assert_true(lk.up);
    assert_int_equal(lk.speed_mbps, 100);
    assert_true(lk.full_duplex);
    assert_false(lk.downshifted);
    assert_int_equal(rd(&phy, MII_STAT1000, MS(1000)), 0);
    /* the partner saw no 1000BASE-T next pages from us either */
    p.max_speed_mbps = 1000;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    assert_int_not_equal(rd(&phy, MII_BMSR, 0) & BMSR_ESTATEN, 0);
    gl_phy_step(&phy, MS(1000));
    gl_phy_get_link(&phy, &lk);
    assert_int_equal(lk.speed_mbps, 1000);
}

/* 22.2.4.1.3: a 10/100 PHY's BMCR shows 100 at power-on (0x3100) and
 * ignores a write of 1000; loopback then runs at 100, not 1000. */
static void test_100_only_phy_bmcr_never_says_1000(void **state)
{
    struct gl_phy phy;
    struct gl_phy_params p;
    struct gl_phy_link lk;

    (void)state;
    gl_phy_params_default(&p);
    p.max_speed_mbps = 100;
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    assert_int_equal(rd(&phy, MII_BMCR, 0), BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED_100);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_1000 | BMCR_FULLDPLX, 0);
    assert_int_equal(rd(&phy, MII_BMCR, 0), BMCR_SPEED_100 | BMCR_FULLDPLX);
    gl_phy_write(&phy, MII_BMCR, BMCR_LOOPBACK | BMCR_SPEED_1000 | BMCR_FULLDPLX, 0);
    gl_phy_get_link(&phy, &lk);
    assert_true(lk.up);
    assert_int_equal(lk.speed_mbps, 100);
    gl_phy_write(&phy, MII_BMCR, BMCR_LOOPBACK | BMCR_SPEED_10, 0);
    gl_phy_get_link(&phy, &lk);
    assert_int_equal(lk.speed_mbps, 10);
}

static void test_params_max_speed_must_be_100_or_1000(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.max_speed_mbps = 10;
    expect_params_error(&p, "phy.max_speed_mbps");
    p.max_speed_mbps = 0;
    expect_params_error(&p, "phy.max_speed_mbps");
}

/* ---- state size -------------------------------------------------------- */

static void test_model_state_is_small_plain_data(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy copy;
    struct gl_phy_link a, b;

    assert_true(sizeof(struct gl_phy) <= 320);
    /* A byte copy is a working model (no self pointers). */
    memcpy(&copy, phy, sizeof(copy));
    gl_phy_step(phy, MS(100));
    gl_phy_step(&copy, MS(100));
    gl_phy_get_link(phy, &a);
    gl_phy_get_link(&copy, &b);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_true(b.up);
}

/* ---- configuration errors ---------------------------------------------- */

static void expect_params_error(const struct gl_phy_params *p,
                                const char *field)
{
    struct gl_err err = { { 0 } };
    struct gl_phy phy;

    assert_int_equal(gl_phy_params_validate(p, &err), -EINVAL);
    assert_non_null(strstr(err.msg, field));
    memset(&err, 0, sizeof(err));
    assert_int_equal(gl_phy_init(&phy, p, &err), -EINVAL);
    assert_non_null(strstr(err.msg, field));
    /* A failed init leaves a powered-down model that never links. */
    assert_int_equal(gl_phy_state(&phy), GL_PHY_ST_POWER_DOWN);
    assert_int_equal(gl_phy_step(&phy, MS(100000)), GL_NEVER);
    assert_false(phy.up);
}

static void test_params_default_are_valid(void **state)
{
    struct gl_phy_params p;
    struct gl_err err = { { 0 } };

    (void)state;
    gl_phy_params_default(&p);
    assert_int_equal(gl_phy_params_validate(&p, &err), 0);
    assert_int_equal(p.aneg_ns + p.train_1000_ns, 2500 * GL_NS_PER_MS);
}

static void test_params_aneg_ns_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;
    struct gl_err err = { { 0 } };

    (void)state;
    gl_phy_params_default(&p);
    p.aneg_ns = MS(1) - 1;
    expect_params_error(&p, "phy.aneg_ns");
    assert_int_equal(gl_phy_params_validate(&p, &err), -EINVAL);
    assert_string_equal(err.msg, "phy.aneg_ns: 999999 is out of range "
                        "[1000000, 60000000000] ns");
    p.aneg_ns = 60 * GL_NS_PER_S + 1;
    expect_params_error(&p, "phy.aneg_ns");
    p.aneg_ns = MS(1);
    assert_int_equal(gl_phy_params_validate(&p, NULL), 0);
}

static void test_params_train_1000_ns_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.train_1000_ns = 60 * GL_NS_PER_S + 1;
    expect_params_error(&p, "phy.train_1000_ns");
    p.train_1000_ns = 0;
    assert_int_equal(gl_phy_params_validate(&p, NULL), 0);
}

static void test_params_phy_rev_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.phy_rev = 16;
    expect_params_error(&p, "phy.phy_rev");
}

static void test_params_downshift_attempts_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.downshift_attempts = 0;
    expect_params_error(&p, "phy.downshift_attempts");
    p.downshift_attempts = 9;
    expect_params_error(&p, "phy.downshift_attempts");
}

static void test_params_cable_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.cable = (enum gl_cable)3;
    expect_params_error(&p, "phy.cable");
}

static void test_params_partner_unknown_ability_bits_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.partner.abilities |= 1u << 7;
    expect_params_error(&p, "phy.partner.abilities");
    p.partner.abilities = 1u << 31;
    expect_params_error(&p, "phy.partner.abilities");
}

static void test_params_partner_forced_speed_must_be_10_or_100(void **state)
{
    struct gl_phy_params p;
    static const unsigned bad[] = { 0, 1000, 55, 10000 };

    (void)state;
    gl_phy_params_default(&p);
    p.partner.autoneg = false;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        p.partner.forced_speed_mbps = bad[i];
        expect_params_error(&p, "phy.partner.forced_speed_mbps");
    }
    /* Ignored while the partner negotiates. */
    p.partner.autoneg = true;
    p.partner.forced_speed_mbps = 1000;
    assert_int_equal(gl_phy_params_validate(&p, NULL), 0);
}

static void test_params_partner_ms_out_of_range_rejected(void **state)
{
    struct gl_phy_params p;

    (void)state;
    gl_phy_params_default(&p);
    p.partner.ms = GL_MS__COUNT;
    expect_params_error(&p, "phy.partner.ms");
}

static void test_null_arguments_are_rejected_not_crashed(void **state)
{
    struct gl_err err = { { 0 } };
    struct gl_phy_params p;
    struct gl_phy phy;

    (void)state;
    gl_phy_params_default(&p);
    assert_int_equal(gl_phy_params_validate(NULL, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "phy"));
    assert_int_equal(gl_phy_init(&phy, NULL, &err), -EINVAL);
    assert_int_equal(gl_phy_init(NULL, &p, &err), -EINVAL);
    assert_int_equal(gl_phy_partner_validate(NULL, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "phy.partner"));
    assert_int_equal(gl_phy_init(&phy, &p, NULL), 0);
    assert_int_equal(gl_phy_set_partner(&phy, NULL, 0, &err), -EINVAL);
    assert_int_equal(gl_phy_set_partner(NULL, &p.partner, 0, &err), -EINVAL);
    assert_int_equal(gl_phy_set_cable(NULL, GL_CABLE_4PAIR, 0, &err), -EINVAL);
}

static void test_set_partner_invalid_leaves_model_unchanged(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_phy_partner bad;
    struct gl_err err = { { 0 } };
    struct gl_phy before;

    gl_phy_step(phy, MS(100));
    memcpy(&before, phy, sizeof(before));
    gl_phy_partner_default(&bad);
    bad.autoneg = false;
    bad.forced_speed_mbps = 1000;
    assert_int_equal(gl_phy_set_partner(phy, &bad, MS(200), &err), -EINVAL);
    assert_non_null(strstr(err.msg, "phy.partner.forced_speed_mbps"));
    assert_memory_equal(&before, phy, sizeof(before));
}

static void test_set_cable_invalid_leaves_model_unchanged(void **state)
{
    struct gl_phy *phy = phy_of(state);
    struct gl_err err = { { 0 } };
    struct gl_phy before;

    gl_phy_step(phy, MS(100));
    memcpy(&before, phy, sizeof(before));
    assert_int_equal(gl_phy_set_cable(phy, (enum gl_cable)7, MS(200), &err),
                     -EINVAL);
    assert_string_equal(err.msg, "phy.cable: 7 is out of range [0, 2] "
                        "(none, 4pair, 2pair)");
    assert_memory_equal(&before, phy, sizeof(before));
}

/* ---- parsing and names ---------------------------------------------------*/

static void test_parse_abilities_accepts_tokens_any_case_and_spaces(void **state)
{
    uint32_t a = 0;

    (void)state;
    assert_int_equal(gl_phy_parse_abilities("1000FD, 100fd ,Pause", &a, NULL),
                     0);
    assert_int_equal(a, GL_ABIL_1000FD | GL_ABIL_100FD | GL_ABIL_PAUSE);
    assert_int_equal(gl_phy_parse_abilities(
        "10HD,10FD,100HD,100FD,100T4,1000HD,1000FD,PAUSE,ASYM_PAUSE", &a,
        NULL), 0);
    assert_int_equal(a, GL_ABIL_ALL_MASK);
    a = 123;
    assert_int_equal(gl_phy_parse_abilities("none", &a, NULL), 0);
    assert_int_equal(a, 0);
}

static void test_parse_abilities_names_the_bad_token(void **state)
{
    uint32_t a = 77;
    struct gl_err err = { { 0 } };

    (void)state;
    assert_int_equal(gl_phy_parse_abilities("1000FD,100,10HD", &a, &err),
                     -EINVAL);
    assert_non_null(strstr(err.msg, "\"100\""));
    assert_int_equal(a, 77);            /* untouched on error */
    assert_int_equal(gl_phy_parse_abilities("1000FDX", &a, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "\"1000FDX\""));
}

static void test_parse_abilities_rejects_empty_and_mixed_none(void **state)
{
    uint32_t a = 0;
    struct gl_err err = { { 0 } };

    (void)state;
    assert_int_equal(gl_phy_parse_abilities("", &a, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "empty"));
    assert_int_equal(gl_phy_parse_abilities("10HD,,10FD", &a, &err), -EINVAL);
    assert_int_equal(gl_phy_parse_abilities("10HD, ", &a, &err), -EINVAL);
    assert_int_equal(gl_phy_parse_abilities("none,10HD", &a, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "none"));
    assert_int_equal(gl_phy_parse_abilities(NULL, &a, &err), -EINVAL);
    assert_int_equal(gl_phy_parse_abilities("10HD", NULL, &err), -EINVAL);
}

static void test_format_abilities_round_trips_and_truncates(void **state)
{
    char buf[80];
    uint32_t back = 0;
    uint32_t a = GL_ABIL_1000FD | GL_ABIL_100HD | GL_ABIL_ASYM_PAUSE;

    (void)state;
    assert_int_equal(gl_phy_format_abilities(a, buf, sizeof(buf)),
                     (int)strlen("100HD,1000FD,ASYM_PAUSE"));
    assert_string_equal(buf, "100HD,1000FD,ASYM_PAUSE");
    assert_int_equal(gl_phy_parse_abilities(buf, &back, NULL), 0);
    assert_int_equal(back, a);
    assert_int_equal(gl_phy_format_abilities(0, buf, sizeof(buf)), 4);
    assert_string_equal(buf, "none");
    assert_int_equal(gl_phy_format_abilities(a, buf, 6), 23);
    assert_string_equal(buf, "100HD");
    assert_int_equal(gl_phy_format_abilities(a, NULL, 0), 23);
}

static void test_parse_cable_and_ms_round_trip_their_names(void **state)
{
    struct gl_err err = { { 0 } };

    (void)state;
    for (unsigned c = 0; c < GL_CABLE__COUNT; c++) {
        enum gl_cable out = GL_CABLE__COUNT;
        assert_int_equal(gl_phy_parse_cable(gl_phy_cable_name(
            (enum gl_cable)c), &out, NULL), 0);
        assert_int_equal(out, c);
    }
    for (unsigned m = 0; m < GL_MS__COUNT; m++) {
        enum gl_phy_ms out = GL_MS__COUNT;
        assert_int_equal(gl_phy_parse_ms(gl_phy_ms_name((enum gl_phy_ms)m),
                                         &out, NULL), 0);
        assert_int_equal(out, m);
    }
    enum gl_cable c;
    assert_int_equal(gl_phy_parse_cable("3pair", &c, &err), -EINVAL);
    assert_string_equal(err.msg, "cable: unknown value \"3pair\" "
                        "(allowed: none, 4pair, 2pair)");
    enum gl_phy_ms m;
    assert_int_equal(gl_phy_parse_ms("boss", &m, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "\"boss\""));
    assert_int_equal(gl_phy_parse_ms(NULL, &m, &err), -EINVAL);
    assert_string_equal(gl_phy_cable_name((enum gl_cable)9), "?");
    assert_string_equal(gl_phy_ms_name((enum gl_phy_ms)9), "?");
}

static void test_state_names_are_distinct_and_out_of_range_is_question(void **state)
{
    (void)state;
    for (unsigned a = 0; a < GL_PHY_ST__COUNT; a++) {
        const char *na = gl_phy_state_name((enum gl_phy_state)a);
        assert_string_not_equal(na, "?");
        for (unsigned b = a + 1; b < GL_PHY_ST__COUNT; b++) {
            assert_string_not_equal(na, gl_phy_state_name((enum gl_phy_state)b));
        }
    }
    assert_string_equal(gl_phy_state_name(GL_PHY_ST_LINK_UP), "link-up");
    assert_string_equal(gl_phy_state_name(GL_PHY_ST__COUNT), "?");
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_rgmii_board_without_pcb_delay_needs_both_phy_delays),
        T(test_rgmii_pcb_delay_plus_phy_delay_is_skewed),
        T(test_rgmii_timing_off_is_never_skewed),
        T(test_100_only_phy_has_no_1000baset_registers),
        T(test_100_only_phy_bmcr_never_says_1000),
        T(test_params_max_speed_must_be_100_or_1000),
        T(test_phyid_reads_marvell_88e1116r_with_revision),
        T(test_phyid_writes_are_ignored),
        T(test_power_on_registers_hold_documented_defaults),
        T(test_cscr_power_on_reflects_downshift_params),
        T(test_anar_read_only_bits_keep_their_value),
        T(test_status_registers_ignore_writes),
        T(test_out_of_range_register_reads_ffff_and_ignores_write),
        T(test_reserved_registers_read_0_and_ignore_writes),
        T(test_ier_reserved_bits_read_0),
        T(test_bmsr_link_latched_low_until_read_after_link_up),
        T(test_bmsr_short_link_drop_is_seen_by_first_read_only),
        T(test_isr_latches_events_and_clears_on_read),
        T(test_irq_pending_only_for_enabled_latched_events),
        T(test_peek_has_no_side_effects),
        T(test_peek_does_not_advance_time),
        T(test_soft_reset_self_clears_and_reloads_status),
        T(test_soft_reset_renegotiates_with_retained_advertisement),
        T(test_soft_reset_clears_loopback),
        T(test_restart_an_self_clears_and_renegotiates),
        T(test_restart_an_is_ignored_while_an_disabled),
        T(test_anar_change_takes_effect_only_after_restart),
        T(test_power_down_drops_link_and_power_up_renegotiates),
        T(test_loopback_is_up_at_once_at_forced_speed),
        T(test_loopback_ignores_cable_and_leaving_it_renegotiates),
        T(test_page_2_and_3_registers_store_values),
        T(test_unknown_page_reads_0_and_keeps_clause22_regs),
        T(test_model_state_is_small_plain_data),
        T(test_params_default_are_valid),
        T(test_params_aneg_ns_out_of_range_rejected),
        T(test_params_train_1000_ns_out_of_range_rejected),
        T(test_params_phy_rev_out_of_range_rejected),
        T(test_params_downshift_attempts_out_of_range_rejected),
        T(test_params_cable_out_of_range_rejected),
        T(test_params_partner_unknown_ability_bits_rejected),
        T(test_params_partner_forced_speed_must_be_10_or_100),
        T(test_params_partner_ms_out_of_range_rejected),
        T(test_null_arguments_are_rejected_not_crashed),
        T(test_set_partner_invalid_leaves_model_unchanged),
        T(test_set_cable_invalid_leaves_model_unchanged),
        T(test_parse_abilities_accepts_tokens_any_case_and_spaces),
        T(test_parse_abilities_names_the_bad_token),
        T(test_parse_abilities_rejects_empty_and_mixed_none),
        T(test_format_abilities_round_trips_and_truncates),
        T(test_parse_cable_and_ms_round_trip_their_names),
        T(test_state_names_are_distinct_and_out_of_range_is_question),
    };
    return cmocka_run_group_tests_name("phy", tests, NULL, NULL);
}
