/*
 * test_phy_aneg.c - PHY model link outcomes: Annex 28B resolution over all
 * single-ability pairs and common multi-ability sets (registers 1, 5, 10
 * and 17 asserted per row), MASTER-SLAVE, timing, downshift on a 2-pair
 * cable, parallel detection and duplex mismatch, cable and link flaps.
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

#define MS(x) ((uint64_t)(x) * GL_NS_PER_MS)
#define ANEG MS(50)
#define TRAIN MS(50)
#define SETTLED MS(400)

#define DEF_ANAR  0x01E1u   /* 10/100 HD+FD, selector 1 */
#define DEF_C1000 0x0300u   /* 1000 HD+FD, auto MASTER-SLAVE, single port */

#define BMSR_DOWN 0x7949u
#define BMSR_UP   0x796Du   /* + link status + AN complete */

#define SSR_UP (M88E1116R_SSR_PAGE_RCVD | M88E1116R_SSR_RESOLVED | \
                M88E1116R_SSR_LINK)

static void init_phy(struct gl_phy *phy, const struct gl_phy_params *p)
{
    struct gl_err err = { { 0 } };

    assert_int_equal(gl_phy_init(phy, p, &err), 0);
}

static void test_params(struct gl_phy_params *p)
{
    gl_phy_params_default(p);
    p->aneg_ns = ANEG;
    p->train_1000_ns = TRAIN;
}

/* Set our advertisement and restart AN at @t, as firmware would. */
static void advertise(struct gl_phy *phy, uint16_t anar, uint16_t c1000,
                      uint64_t t)
{
    gl_phy_write(phy, MII_ADVERTISE, anar, t);
    gl_phy_write(phy, MII_CTRL1000, c1000, t);
    gl_phy_write(phy, MII_BMCR, BMCR_ANENABLE | BMCR_ANRESTART, t);
}

/* BMSR as a "read twice" driver sees it: the current state. */
static uint16_t bmsr_now(struct gl_phy *phy, uint64_t t)
{
    gl_phy_read(phy, MII_BMSR, t);
    return gl_phy_read(phy, MII_BMSR, t);
}

/*
 * The vendor register must agree with the standard ones: resolve speed and
 * duplex the way a generic clause 22 driver does (Linux genphy) from
 * registers 4/5 and 9/10, and compare with register 17.
 */
static void assert_vendor_agrees_with_standard(struct gl_phy *phy, uint64_t t)
{
    uint16_t bmsr = bmsr_now(phy, t);
    uint16_t ssr = gl_phy_peek(phy, M88E1116R_SSR);
    uint16_t anar = gl_phy_peek(phy, MII_ADVERTISE);
    uint16_t lpa = gl_phy_peek(phy, MII_LPA);
    uint16_t c1000 = gl_phy_peek(phy, MII_CTRL1000);
    uint16_t s1000 = gl_phy_peek(phy, MII_STAT1000);
    struct gl_phy_link l;
    unsigned speed;
    bool full;

    gl_phy_get_link(phy, &l);
    assert_int_equal(!!(bmsr & BMSR_LSTATUS), !!(ssr & M88E1116R_SSR_LINK));
    assert_int_equal(l.up, !!(ssr & M88E1116R_SSR_LINK));
    if (!(bmsr & BMSR_ANEGCOMPLETE) || !(bmsr & BMSR_LSTATUS)) {
        return;
    }
    uint16_t common1000 = (uint16_t)(c1000 & (s1000 >> 2));
    uint16_t common = anar & lpa;
    if (common1000 & CTRL1000_FULL) {
        speed = 1000, full = true;
    } else if (common1000 & CTRL1000_HALF) {
        speed = 1000, full = false;
    } else if (common & ADVERTISE_100FULL) {
        speed = 100, full = true;
    } else if (common & ADVERTISE_100HALF) {
        speed = 100, full = false;
    } else if (common & ADVERTISE_10FULL) {
        speed = 10, full = true;
    } else {
        assert_true(common & ADVERTISE_10HALF);
        speed = 10, full = false;
    }
    unsigned ssr_speed = (ssr & M88E1116R_SSR_SPEED_MASK) ==
                         M88E1116R_SSR_SPEED_1000 ? 1000 :
                         (ssr & M88E1116R_SSR_SPEED_MASK) ==
                         M88E1116R_SSR_SPEED_100 ? 100 : 10;
    assert_true(ssr & M88E1116R_SSR_RESOLVED);
    assert_int_equal(ssr_speed, speed);
    assert_int_equal(!!(ssr & M88E1116R_SSR_DUPLEX), full);
    assert_int_equal(l.speed_mbps, speed);
    assert_int_equal(l.full_duplex, full);
}

/* ---- table: Annex 28B resolution ----------------------------------------*/

struct aneg_row {
    uint16_t anar, c1000;       /* our advertisement */
    uint32_t partner;           /* partner's GL_ABIL_* */
    bool up;
    unsigned speed;
    bool full;
    uint16_t bmsr, lpa, stat1000, ssr;
    bool tx_pause, rx_pause;
};

static void run_aneg_row(void **state)
{
    const struct aneg_row *r = *state;
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    test_params(&p);
    p.partner.abilities = r->partner;
    init_phy(&phy, &p);
    advertise(&phy, r->anar, r->c1000, 0);
    gl_phy_step(&phy, SETTLED);

    gl_phy_get_link(&phy, &l);
    assert_int_equal(l.up, r->up);
    assert_int_equal(l.speed_mbps, r->up ? r->speed : 0);
    assert_int_equal(l.full_duplex, r->up && r->full);
    assert_int_equal(l.partner_up, r->up);
    assert_false(l.duplex_mismatch);
    assert_int_equal(l.tx_pause, r->tx_pause);
    assert_int_equal(l.rx_pause, r->rx_pause);
    assert_int_equal(bmsr_now(&phy, SETTLED), r->bmsr);
    assert_int_equal(gl_phy_read(&phy, MII_LPA, SETTLED), r->lpa);
    assert_int_equal(gl_phy_read(&phy, MII_STAT1000, SETTLED), r->stat1000);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, SETTLED), r->ssr);
    assert_vendor_agrees_with_standard(&phy, SETTLED);
}

/* Every (our single ability, partner single ability) pair. */
enum { N_SINGLE = 6 };
static const struct {
    const char *name;
    uint16_t anar, c1000;
    uint32_t abil;
    unsigned speed;
    bool full;
    uint16_t lpa, lp1000, ssr_speed;
} single[N_SINGLE] = {
    { "10HD", 0x0021, 0, GL_ABIL_10HD, 10, false, 0x4021, 0,
      M88E1116R_SSR_SPEED_10 },
    { "10FD", 0x0041, 0, GL_ABIL_10FD, 10, true, 0x4041, 0,
      M88E1116R_SSR_SPEED_10 },
    { "100HD", 0x0081, 0, GL_ABIL_100HD, 100, false, 0x4081, 0,
      M88E1116R_SSR_SPEED_100 },
    { "100FD", 0x0101, 0, GL_ABIL_100FD, 100, true, 0x4101, 0,
      M88E1116R_SSR_SPEED_100 },
    { "1000HD", 0x0001, CTRL1000_HALF, GL_ABIL_1000HD, 1000, false, 0xC001,
      STAT1000_LP_HALF, M88E1116R_SSR_SPEED_1000 },
    { "1000FD", 0x0001, CTRL1000_FULL, GL_ABIL_1000FD, 1000, true, 0xC001,
      STAT1000_LP_FULL, M88E1116R_SSR_SPEED_1000 },
};
static struct aneg_row single_rows[N_SINGLE * N_SINGLE];
static char single_names[N_SINGLE * N_SINGLE][96];

static void build_single_rows(void)
{
    for (unsigned i = 0; i < N_SINGLE; i++) {
        for (unsigned j = 0; j < N_SINGLE; j++) {
            struct aneg_row *r = &single_rows[i * N_SINGLE + j];
            bool same = i == j;

            r->anar = single[i].anar;
            r->c1000 = single[i].c1000;
            r->partner = single[j].abil;
            r->up = same;
            r->speed = same ? single[i].speed : 0;
            r->full = same && single[i].full;
            r->bmsr = same ? BMSR_UP : BMSR_DOWN;
            r->lpa = single[j].lpa;
            r->stat1000 = single[j].lp1000;
            r->ssr = M88E1116R_SSR_PAGE_RCVD;
            if (same) {
                r->ssr = (uint16_t)(SSR_UP | single[i].ssr_speed |
                                    (single[i].full ? M88E1116R_SSR_DUPLEX : 0));
                if (single[i].speed == 1000) {
                    r->stat1000 |= STAT1000_LRXOK | STAT1000_RRXOK;
                }
            }
            snprintf(single_names[i * N_SINGLE + j], sizeof(single_names[0]),
                     "test_aneg_we_%s_partner_%s_%s%s", single[i].name,
                     single[j].name, same ? "resolves_" : "no_link",
                     same ? single[i].name : "");
        }
    }
}

#define LRX (STAT1000_LRXOK | STAT1000_RRXOK)
#define LP1000 (STAT1000_LP_FULL | STAT1000_LP_HALF)

static struct aneg_row row_all_vs_all = {
    DEF_ANAR, DEF_C1000, GL_ABIL_ALL_SPEEDS, true, 1000, true,
    BMSR_UP, 0xC1E1, LP1000 | LRX,
    SSR_UP | M88E1116R_SSR_SPEED_1000 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_partner_100_only = {
    DEF_ANAR, DEF_C1000, GL_ABIL_100FD | GL_ABIL_100HD, true, 100, true,
    BMSR_UP, 0x4181, 0,
    SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_partner_half_only = {
    DEF_ANAR, DEF_C1000, GL_ABIL_10HD | GL_ABIL_100HD, true, 100, false,
    BMSR_UP, 0x40A1, 0, SSR_UP | M88E1116R_SSR_SPEED_100, false, false,
};
static struct aneg_row row_1000hd_beats_100fd = {
    DEF_ANAR, DEF_C1000, GL_ABIL_1000HD | GL_ABIL_100FD, true, 1000, false,
    BMSR_UP, 0xC101, STAT1000_LP_HALF | LRX,
    SSR_UP | M88E1116R_SSR_SPEED_1000, false, false,
};
static struct aneg_row row_partner_t4_ignored = {
    DEF_ANAR, DEF_C1000, GL_ABIL_100T4 | GL_ABIL_100HD | GL_ABIL_10FD, true,
    100, false, BMSR_UP, 0x42C1, 0, SSR_UP | M88E1116R_SSR_SPEED_100,
    false, false,
};
static struct aneg_row row_partner_10_only = {
    DEF_ANAR, DEF_C1000, GL_ABIL_10FD | GL_ABIL_10HD, true, 10, true,
    BMSR_UP, 0x4061, 0,
    SSR_UP | M88E1116R_SSR_SPEED_10 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_we_10_100_only = {
    DEF_ANAR, 0, GL_ABIL_ALL_SPEEDS, true, 100, true,
    BMSR_UP, 0xC1E1, LP1000,
    SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_we_1000fd_only_partner_100 = {
    ADVERTISE_CSMA, CTRL1000_FULL, GL_ABIL_100FD | GL_ABIL_100HD, false, 0,
    false, BMSR_DOWN, 0x4181, 0, M88E1116R_SSR_PAGE_RCVD, false, false,
};
static struct aneg_row row_partner_nothing = {
    DEF_ANAR, DEF_C1000, 0, false, 0, false,
    BMSR_DOWN, 0x4001, 0, M88E1116R_SSR_PAGE_RCVD, false, false,
};
/* Table 28B-3 PAUSE rows, at 100 FD. */
static struct aneg_row row_pause_both = {
    DEF_ANAR | ADVERTISE_PAUSE_CAP, 0, GL_ABIL_100FD | GL_ABIL_PAUSE, true,
    100, true, BMSR_UP, 0x4501,
    0, SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX |
    M88E1116R_SSR_TX_PAUSE | M88E1116R_SSR_RX_PAUSE, true, true,
};
static struct aneg_row row_pause_asym_tx_only = {
    DEF_ANAR | ADVERTISE_PAUSE_ASYM, 0,
    GL_ABIL_100FD | GL_ABIL_PAUSE | GL_ABIL_ASYM_PAUSE, true, 100, true,
    BMSR_UP, 0x4D01, 0, SSR_UP | M88E1116R_SSR_SPEED_100 |
    M88E1116R_SSR_DUPLEX | M88E1116R_SSR_TX_PAUSE, true, false,
};
static struct aneg_row row_pause_asym_rx_only = {
    DEF_ANAR | ADVERTISE_PAUSE_CAP | ADVERTISE_PAUSE_ASYM, 0,
    GL_ABIL_100FD | GL_ABIL_ASYM_PAUSE, true, 100, true,
    BMSR_UP, 0x4901, 0, SSR_UP | M88E1116R_SSR_SPEED_100 |
    M88E1116R_SSR_DUPLEX | M88E1116R_SSR_RX_PAUSE, false, true,
};
static struct aneg_row row_pause_asym_both_none = {
    DEF_ANAR | ADVERTISE_PAUSE_ASYM, 0, GL_ABIL_100FD | GL_ABIL_ASYM_PAUSE,
    true, 100, true, BMSR_UP, 0x4901, 0,
    SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_pause_asym_vs_symmetric_only_none = {
    DEF_ANAR | ADVERTISE_PAUSE_ASYM, 0, GL_ABIL_100FD | GL_ABIL_PAUSE,
    true, 100, true, BMSR_UP, 0x4501, 0,
    SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX, false, false,
};
static struct aneg_row row_pause_not_in_half_duplex = {
    0x00A1 | ADVERTISE_PAUSE_CAP, 0, GL_ABIL_100HD | GL_ABIL_PAUSE, true,
    100, false, BMSR_UP, 0x4481, 0, SSR_UP | M88E1116R_SSR_SPEED_100,
    false, false,
};

#define ROW(name, row) { name, run_aneg_row, NULL, NULL, &row }

static const struct CMUnitTest multi_tests[] = {
    ROW("test_aneg_partner_all_speeds_resolves_1000_full", row_all_vs_all),
    ROW("test_aneg_partner_100_only_resolves_100_full", row_partner_100_only),
    ROW("test_aneg_partner_half_only_resolves_100_half",
        row_partner_half_only),
    ROW("test_aneg_partner_1000hd_100fd_resolves_1000_half_by_priority",
        row_1000hd_beats_100fd),
    ROW("test_aneg_partner_t4_is_ignored_resolves_100_half",
        row_partner_t4_ignored),
    ROW("test_aneg_partner_10_only_resolves_10_full", row_partner_10_only),
    ROW("test_aneg_we_10_100_only_resolves_100_full_shows_lp_1000",
        row_we_10_100_only),
    ROW("test_aneg_we_1000fd_only_partner_100_no_link",
        row_we_1000fd_only_partner_100),
    ROW("test_aneg_partner_advertises_nothing_no_link", row_partner_nothing),
    ROW("test_aneg_pause_both_symmetric_enables_tx_rx", row_pause_both),
    ROW("test_aneg_pause_we_asym_partner_both_enables_tx_only",
        row_pause_asym_tx_only),
    ROW("test_aneg_pause_we_both_partner_asym_enables_rx_only",
        row_pause_asym_rx_only),
    ROW("test_aneg_pause_both_asym_only_enables_nothing",
        row_pause_asym_both_none),
    ROW("test_aneg_pause_we_asym_partner_symmetric_only_enables_nothing",
        row_pause_asym_vs_symmetric_only_none),
    ROW("test_aneg_pause_half_duplex_enables_nothing",
        row_pause_not_in_half_duplex),
};

/* ---- timing ------------------------------------------------------------ */

static void test_aneg_1000_not_complete_before_duration_complete_after(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    assert_int_equal(gl_phy_step(&phy, 0), ANEG);
    assert_int_equal(gl_phy_step(&phy, ANEG - 1), ANEG);
    assert_int_equal(gl_phy_state(&phy), GL_PHY_ST_ANEG);
    /* Pages exchanged at 50 ms: resolved, training, not yet linked. */
    assert_int_equal(gl_phy_step(&phy, ANEG), ANEG + TRAIN);
    assert_int_equal(gl_phy_state(&phy), GL_PHY_ST_TRAIN_1000);
    assert_int_equal(bmsr_now(&phy, ANEG), BMSR_DOWN);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, ANEG),
                     M88E1116R_SSR_SPEED_1000 | M88E1116R_SSR_DUPLEX |
                     M88E1116R_SSR_PAGE_RCVD | M88E1116R_SSR_RESOLVED);
    assert_int_equal(bmsr_now(&phy, ANEG + TRAIN - 1), BMSR_DOWN);
    assert_int_equal(bmsr_now(&phy, ANEG + TRAIN), BMSR_UP);
    assert_int_equal(gl_phy_step(&phy, ANEG + TRAIN), GL_NEVER);
}

/* 22.2.4.1.3, 22.2.4.1.8: with AN enabled, BMCR's speed and duplex bits
 * can be written but do not touch the link; with AN off they force it. */
static void test_bmcr_speed_bits_do_nothing_while_aneg_is_on(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_step(&phy, SETTLED);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    uint32_t changes = l.link_changes, rounds = l.aneg_rounds;
    gl_phy_write(&phy, MII_BMCR, BMCR_ANENABLE | BMCR_SPEED_100 | BMCR_FULLDPLX, SETTLED);
    gl_phy_write(&phy, MII_BMCR, BMCR_ANENABLE, SETTLED + MS(1));
    gl_phy_step(&phy, SETTLED + MS(2));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 1000);
    assert_int_equal(l.link_changes, changes);
    assert_int_equal(l.aneg_rounds, rounds);
    assert_int_equal(gl_phy_read(&phy, MII_BMCR, SETTLED + MS(2)), BMCR_ANENABLE);
    /* AN off: the same bits force 100 full, the link drops at once */
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_100 | BMCR_FULLDPLX, SETTLED + MS(3));
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
}

/* Entering loopback from a line link is a drop and a rise: BMSR's
 * latching-low link status shows the drop at the first read, as
 * register 19 and link_changes do (22.2.4.2.13). */
static void test_loopback_entry_latches_the_line_drop_in_bmsr(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    assert_int_equal(bmsr_now(&phy, SETTLED), BMSR_UP);
    gl_phy_read(&phy, M88E1116R_ISR, SETTLED);
    gl_phy_write(&phy, MII_BMCR, BMCR_ANENABLE | BMCR_LOOPBACK | BMCR_SPEED_1000 | BMCR_FULLDPLX,
                 SETTLED);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_false(gl_phy_read(&phy, MII_BMSR, SETTLED) & BMSR_LSTATUS);
    assert_true(gl_phy_read(&phy, MII_BMSR, SETTLED) & BMSR_LSTATUS);
    assert_true(gl_phy_read(&phy, M88E1116R_ISR, SETTLED) & M88E1116R_INT_LINK);
}

/* 28.3.1: a round sends the advertisement registers 4 and 9 held when it
 * began; written during the round without a restart, they wait for the
 * next one (and a restart then uses them). */
static void test_advertisement_written_mid_round_waits_for_restart(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_ADVERTISE, ADVERTISE_CSMA | ADVERTISE_10HALF, ANEG / 2);
    gl_phy_write(&phy, MII_CTRL1000, 0, ANEG / 2);
    gl_phy_step(&phy, SETTLED);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 1000);
    gl_phy_write(&phy, MII_BMCR, BMCR_ANENABLE | BMCR_ANRESTART, SETTLED);
    gl_phy_step(&phy, SETTLED + ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 10);
    assert_false(l.full_duplex);
}

static void test_aneg_100_complete_exactly_at_aneg_duration(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;

    (void)state;
    test_params(&p);
    p.partner.abilities = GL_ABIL_100FD;
    init_phy(&phy, &p);
    assert_int_equal(bmsr_now(&phy, ANEG - 1), BMSR_DOWN);
    assert_int_equal(bmsr_now(&phy, ANEG), BMSR_UP);
}

static void test_aneg_default_durations_link_1000_at_2500_ms(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    gl_phy_params_default(&p);
    init_phy(&phy, &p);
    gl_phy_step(&phy, MS(2500) - 1);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    gl_phy_step(&phy, MS(2500));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 1000);
}

static void test_aneg_outcome_independent_of_step_granularity(void **state)
{
    struct gl_phy_params p;
    struct gl_phy a, b;
    struct gl_phy_link la, lb;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.downshift_enable = true;
    p.downshift_attempts = 3;
    init_phy(&a, &p);
    init_phy(&b, &p);
    for (uint64_t t = 0; t <= MS(1000); t += MS(1) / 3) {
        gl_phy_step(&a, t);
    }
    gl_phy_step(&b, MS(1000));
    gl_phy_get_link(&a, &la);
    gl_phy_get_link(&b, &lb);
    assert_memory_equal(&la, &lb, sizeof(la));
    assert_int_equal(a.state_since, b.state_since);
    assert_int_equal(a.state_since, MS(350));
}

/* ---- MASTER-SLAVE ------------------------------------------------------ */

static bool ms_master(enum gl_phy_ms partner_ms, uint16_t c1000, uint64_t seed,
                      bool *up)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    test_params(&p);
    p.partner.ms = partner_ms;
    p.seed = seed;
    init_phy(&phy, &p);
    advertise(&phy, DEF_ANAR, c1000, 0);
    gl_phy_step(&phy, SETTLED);
    gl_phy_get_link(&phy, &l);
    *up = l.up;
    bool reg = gl_phy_read(&phy, MII_STAT1000, SETTLED) & STAT1000_MS_MASTER;
    if (l.up) {
        assert_int_equal(reg, l.master);
    }
    return reg;
}

static void test_ms_single_port_vs_switch_resolves_slave(void **state)
{
    bool up;

    (void)state;
    assert_false(ms_master(GL_MS_PREFER_MASTER, DEF_C1000, 1, &up));
    assert_true(up);
}

static void test_ms_multiport_vs_nic_resolves_master(void **state)
{
    bool up;

    (void)state;
    assert_true(ms_master(GL_MS_PREFER_SLAVE,
                          DEF_C1000 | CTRL1000_PORT_MULTI, 1, &up));
    assert_true(up);
}

static void test_ms_manual_beats_port_type(void **state)
{
    bool up;

    (void)state;
    /* We are forced master; the partner is a switch preferring master. */
    assert_true(ms_master(GL_MS_PREFER_MASTER, DEF_C1000 | CTRL1000_MS_MANUAL |
                          CTRL1000_MS_MASTER, 1, &up));
    assert_true(up);
    /* The partner is forced slave: we take MASTER. */
    assert_true(ms_master(GL_MS_FORCE_SLAVE, DEF_C1000, 1, &up));
    assert_true(up);
    /* Partner forced master, we forced slave: consistent. */
    assert_false(ms_master(GL_MS_FORCE_MASTER, DEF_C1000 | CTRL1000_MS_MANUAL,
                           1, &up));
    assert_true(up);
}

static void test_ms_both_forced_master_faults_without_link(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.ms = GL_MS_FORCE_MASTER;
    init_phy(&phy, &p);
    advertise(&phy, DEF_ANAR, DEF_C1000 | CTRL1000_MS_MANUAL |
              CTRL1000_MS_MASTER, 0);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    /* Register 10 bit 15 latches high and clears on read (40.5.1.1). */
    assert_int_equal(gl_phy_read(&phy, MII_STAT1000, SETTLED),
                     STAT1000_MS_FAULT | LP1000);
    assert_int_equal(gl_phy_read(&phy, MII_STAT1000, SETTLED), LP1000);
    assert_true(gl_phy_read(&phy, M88E1116R_ISR, SETTLED) &
                M88E1116R_INT_AN_ERROR);
    assert_int_equal(bmsr_now(&phy, SETTLED), BMSR_DOWN);
}

static void test_ms_seed_tie_break_is_deterministic_and_uses_the_seed(void **state)
{
    unsigned masters = 0;
    bool up, up2;

    (void)state;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        bool m = ms_master(GL_MS_PREFER_SLAVE, DEF_C1000, seed, &up);
        assert_true(up);
        assert_int_equal(ms_master(GL_MS_PREFER_SLAVE, DEF_C1000, seed, &up2),
                         m);
        masters += m;
    }
    /* Both outcomes occur: the seeds decide, not a constant. */
    assert_true(masters > 10 && masters < 54);
    /* ... and the higher seed is MASTER (IEEE 802.3 40.5.2): the model
     * draws its seed, then the partner's, from its PRNG (phy.c seeds it
     * with the params' seed), 11 bits each (the 1000BASE-T seed range),
     * again on a tie. */
    for (uint64_t seed = 1; seed <= 64; seed++) {
        struct gl_prng r;
        uint64_t ls, ps;
        gl_prng_seed(&r, seed);
        do {
            ls = gl_prng_below(&r, 2048);
            ps = gl_prng_below(&r, 2048);
        } while (ls == ps);
        assert_int_equal(ms_master(GL_MS_PREFER_SLAVE, DEF_C1000, seed, &up), ls > ps);
    }
}

/* ---- downshift on a 2-pair cable --------------------------------------- */

static void test_downshift_2pair_after_3_attempts_links_at_100(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.downshift_enable = true;
    p.downshift_attempts = 3;
    init_phy(&phy, &p);

    /* Attempts end at 100, 200 and 300 ms; the 100 Mb/s round ends at 350. */
    gl_phy_step(&phy, MS(350) - 1);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_int_equal(l.aneg_rounds, 4);
    gl_phy_step(&phy, MS(350));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_true(l.downshifted);
    assert_int_equal(l.speed_mbps, 100);
    assert_true(l.full_duplex);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, MS(350)),
                     SSR_UP | M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX |
                     M88E1116R_SSR_DOWNSHIFT);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_CSCR, MS(350)),
                     M88E1116R_CSCR_AUTO_CROSS | M88E1116R_CSCR_DS_ENABLE | (2u << 12));
    assert_true(gl_phy_read(&phy, M88E1116R_ISR, MS(350)) &
                M88E1116R_INT_DOWNSHIFT);
    /* Register 9 still advertises 1000: the downshift is internal.  No
     * 1000BASE-T pages were exchanged, so register 10 shows none of the
     * partner's, and registers 4/5/9/10 resolve 100 full as register 17
     * says (Linux genphy_read_status). */
    assert_int_equal(gl_phy_read(&phy, MII_CTRL1000, MS(350)), DEF_C1000);
    assert_int_equal(gl_phy_read(&phy, MII_STAT1000, MS(350)), 0);
    assert_vendor_agrees_with_standard(&phy, MS(350));
}

static void test_downshift_enabled_by_firmware_like_linux(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;
    uint16_t scr;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    init_phy(&phy, &p);
    /* m88e1116r_config_init -> m88e1011_set_downshift(phydev, 8): register
     * 16 bits 14:12 = 7, bit 11 set, then a soft reset (marvell.c). */
    scr = gl_phy_read(&phy, M88E1116R_CSCR, MS(10));
    scr = (uint16_t)((scr & ~M88E1116R_CSCR_DS_COUNT_MASK) |
                     M88E1116R_CSCR_DS_ENABLE | (7u << 12));
    gl_phy_write(&phy, M88E1116R_CSCR, scr, MS(10));
    gl_phy_write(&phy, MII_BMCR, gl_phy_read(&phy, MII_BMCR, MS(10)) |
                 BMCR_RESET, MS(10));
    assert_int_equal(gl_phy_read(&phy, M88E1116R_CSCR, MS(10)), scr);
    gl_phy_step(&phy, MS(10) + MS(850) - 1);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    gl_phy_step(&phy, MS(10) + MS(850));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_true(l.downshifted);
    assert_int_equal(l.speed_mbps, 100);
}

/* The 88E1111's downshift bits (register 20 bits 11:8,
 * m88e1111_set_downshift) are not the 88E1116R's: set there, a 2-pair
 * cable still never links. */
static void test_downshift_in_register_20_does_nothing(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    init_phy(&phy, &p);
    gl_phy_write(&phy, M88E1116R_EXT_CR, (uint16_t)(BIT(8) | 7u << 9), MS(10));
    gl_phy_write(&phy, MII_BMCR, gl_phy_read(&phy, MII_BMCR, MS(10)) |
                 BMCR_RESET, MS(10));
    assert_int_equal(gl_phy_read(&phy, M88E1116R_EXT_CR, MS(10)), BIT(8) | 7u << 9);
    gl_phy_step(&phy, MS(5000));
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_false(l.downshifted);
}

/* A 2-pair cable without downshift retries AN forever; its deadlines
 * saturate near the end of time (gl_phy__after) and a step to UINT64_MAX
 * must return instead of spinning on the same deadline. */
static void test_retrying_at_the_end_of_time_returns(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    init_phy(&phy, &p);
    gl_phy_reset(&phy, UINT64_MAX - MS(3000));    /* hardware reset */
    assert_int_equal(gl_phy_step(&phy, UINT64_MAX), UINT64_MAX - 1);
    gl_phy_read(&phy, MII_BMSR, UINT64_MAX);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
}

static void test_downshift_disabled_2pair_never_links(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    init_phy(&phy, &p);
    uint64_t next = gl_phy_step(&phy, MS(10000));
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_false(l.downshifted);
    assert_int_equal(l.link_changes, 0);
    assert_int_equal(l.aneg_rounds, 101);       /* one per 100 ms, retrying */
    assert_true(next > MS(10000) && next != GL_NEVER);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, MS(10000)) &
                     (M88E1116R_SSR_LINK | M88E1116R_SSR_DOWNSHIFT), 0);
    assert_true(gl_phy_read(&phy, M88E1116R_ISR, MS(10000)) &
                M88E1116R_INT_AN_ERROR);
}

static void test_2pair_links_at_100_when_1000_is_not_in_common(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.partner.abilities = GL_ABIL_100FD | GL_ABIL_100HD;
    init_phy(&phy, &p);
    gl_phy_step(&phy, ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 100);
    assert_false(l.downshifted);
}

static void test_downshift_against_1000_only_partner_never_links(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.downshift_enable = true;
    p.downshift_attempts = 1;
    p.partner.abilities = GL_ABIL_1000FD;
    init_phy(&phy, &p);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
}

static void test_restart_after_downshift_tries_1000_again(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.downshift_enable = true;
    p.downshift_attempts = 1;
    init_phy(&phy, &p);
    gl_phy_step(&phy, MS(150));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up && l.downshifted);
    /* A good cable and a restart: back to 1000 without downshift. */
    assert_int_equal(gl_phy_set_cable(&phy, GL_CABLE_4PAIR, MS(200), NULL), 0);
    gl_phy_step(&phy, MS(300));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_false(l.downshifted);
    assert_int_equal(l.speed_mbps, 1000);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, MS(300)) &
                     M88E1116R_SSR_DOWNSHIFT, 0);
}

/* ---- parallel detection and duplex mismatch --------------------------- */

static void test_forced_100fd_vs_autoneg_partner_gives_duplex_mismatch(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_100 | BMCR_FULLDPLX, 0);
    gl_phy_step(&phy, ANEG - 1);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    gl_phy_step(&phy, ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 100);
    assert_true(l.full_duplex);
    assert_true(l.partner_up);
    assert_false(l.partner_full_duplex);     /* partner parallel-detected */
    assert_true(l.duplex_mismatch);
    /* AN is off: link up, no AN complete; reg 17 says 100 full. */
    assert_int_equal(bmsr_now(&phy, ANEG), BMSR_DOWN | BMSR_LSTATUS);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, ANEG),
                     M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_DUPLEX |
                     M88E1116R_SSR_RESOLVED | M88E1116R_SSR_LINK);
    assert_int_equal(gl_phy_read(&phy, MII_LPA, ANEG), 0);
}

static void test_autoneg_vs_forced_100fd_partner_we_resolve_half(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.autoneg = false;
    p.partner.forced_speed_mbps = 100;
    p.partner.forced_full_duplex = true;
    init_phy(&phy, &p);
    gl_phy_step(&phy, ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 100);
    assert_false(l.full_duplex);
    assert_true(l.partner_full_duplex);
    assert_true(l.duplex_mismatch);
    assert_int_equal(bmsr_now(&phy, ANEG), BMSR_UP);
    assert_int_equal(gl_phy_read(&phy, MII_LPA, ANEG), LPA_100HALF);
    assert_int_equal(gl_phy_read(&phy, MII_EXPANSION, ANEG),
                     EXPANSION_ENABLENPAGE);       /* LP not AN able */
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, ANEG),
                     M88E1116R_SSR_SPEED_100 | M88E1116R_SSR_RESOLVED |
                     M88E1116R_SSR_LINK);
    assert_vendor_agrees_with_standard(&phy, ANEG);
}

static void test_autoneg_vs_forced_10hd_partner_no_mismatch(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.autoneg = false;
    p.partner.forced_speed_mbps = 10;
    p.partner.forced_full_duplex = false;
    init_phy(&phy, &p);
    gl_phy_step(&phy, ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 10);
    assert_false(l.full_duplex);
    assert_false(l.duplex_mismatch);
}

static void test_autoneg_without_that_speed_does_not_parallel_detect(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.autoneg = false;
    p.partner.forced_speed_mbps = 100;
    init_phy(&phy, &p);
    advertise(&phy, ADVERTISE_10FULL | ADVERTISE_10HALF | ADVERTISE_CSMA, 0, 0);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
}

static void test_both_forced_same_speed_link_with_own_duplex(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.autoneg = false;
    p.partner.forced_speed_mbps = 10;
    p.partner.forced_full_duplex = true;
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_10 | BMCR_FULLDPLX, 0);
    gl_phy_step(&phy, ANEG);
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 10);
    assert_true(l.full_duplex && l.partner_full_duplex);
    assert_false(l.duplex_mismatch);
    /* Forced half against forced full: the mismatch the other way. */
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_10, MS(100));
    gl_phy_step(&phy, MS(150));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_false(l.full_duplex);
    assert_true(l.duplex_mismatch);
}

static void test_forced_speeds_that_differ_never_link(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.autoneg = false;
    p.partner.forced_speed_mbps = 10;
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_100 | BMCR_FULLDPLX, 0);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_int_equal(gl_phy_state(&phy), GL_PHY_ST_FORCED_WAIT);
}

static void test_forced_10_vs_partner_without_10_never_links(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.partner.abilities = GL_ABIL_100FD | GL_ABIL_1000FD;
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_10 | BMCR_FULLDPLX, 0);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_false(l.partner_up);
}

static void test_forced_1000_never_links(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_write(&phy, MII_BMCR, BMCR_SPEED_1000 | BMCR_FULLDPLX, 0);
    assert_int_equal(gl_phy_step(&phy, SETTLED), GL_NEVER);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
}

/* ---- cable, flaps, partner changes -------------------------------------*/

static void test_no_cable_no_link_until_plugged(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_NONE;
    init_phy(&phy, &p);
    assert_int_equal(gl_phy_step(&phy, MS(1000)), GL_NEVER);
    assert_int_equal(gl_phy_state(&phy), GL_PHY_ST_NO_SIGNAL);
    assert_int_equal(gl_phy_set_cable(&phy, GL_CABLE_4PAIR, MS(1000), NULL), 0);
    assert_int_equal(gl_phy_step(&phy, MS(1000)), MS(1050));
    gl_phy_step(&phy, MS(1100));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 1000);
}

static void test_unplug_drops_link_at_once_and_latches_events(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_step(&phy, SETTLED);
    gl_phy_read(&phy, M88E1116R_ISR, SETTLED);
    bmsr_now(&phy, SETTLED);
    assert_int_equal(gl_phy_set_cable(&phy, GL_CABLE_NONE, SETTLED + 1, NULL),
                     0);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_false(l.partner_up);
    assert_int_equal(l.link_changes, 2);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_ISR, SETTLED + 1),
                     M88E1116R_INT_LINK);
    assert_int_equal(bmsr_now(&phy, SETTLED + 1), BMSR_DOWN);
    assert_int_equal(gl_phy_read(&phy, M88E1116R_SSR, SETTLED + 1), 0);
}

static void test_forced_link_down_and_release_relinks_after_aneg(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_step(&phy, SETTLED);
    gl_phy_set_link_forced_down(&phy, true, MS(500));
    gl_phy_set_link_forced_down(&phy, true, MS(510));     /* idempotent */
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    assert_int_equal(l.link_changes, 2);
    assert_int_equal(gl_phy_step(&phy, MS(5000)), GL_NEVER);
    gl_phy_set_link_forced_down(&phy, false, MS(5000));
    gl_phy_step(&phy, MS(5100) - 1);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    gl_phy_step(&phy, MS(5100));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.link_changes, 3);
}

static void test_new_partner_renegotiates_and_raises_speed_change(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_phy_link l;
    struct gl_phy_partner np;

    (void)state;
    test_params(&p);
    init_phy(&phy, &p);
    gl_phy_step(&phy, SETTLED);
    gl_phy_read(&phy, M88E1116R_ISR, SETTLED);
    gl_phy_partner_default(&np);
    np.abilities = GL_ABIL_100FD;
    assert_int_equal(gl_phy_set_partner(&phy, &np, MS(1000), NULL), 0);
    gl_phy_get_link(&phy, &l);
    assert_false(l.up);
    gl_phy_step(&phy, MS(1050));
    gl_phy_get_link(&phy, &l);
    assert_true(l.up);
    assert_int_equal(l.speed_mbps, 100);
    /* Full duplex both times: speed changed, duplex did not. */
    assert_int_equal(gl_phy_read(&phy, M88E1116R_ISR, MS(1050)),
                     M88E1116R_INT_LINK | M88E1116R_INT_AN_COMPLETE |
                     M88E1116R_INT_SPEED | M88E1116R_INT_PAGE_RCVD);
}

static void test_vendor_status_agrees_with_bmsr_at_every_ms(void **state)
{
    struct gl_phy_params p;
    struct gl_phy phy;

    (void)state;
    test_params(&p);
    p.cable = GL_CABLE_2PAIR;
    p.downshift_enable = true;
    p.downshift_attempts = 2;
    init_phy(&phy, &p);
    for (uint64_t t = 0; t <= MS(600); t += MS(1)) {
        if (t == MS(400)) {
            gl_phy_set_link_forced_down(&phy, true, t);
        } else if (t == MS(420)) {
            gl_phy_set_link_forced_down(&phy, false, t);
        }
        assert_vendor_agrees_with_standard(&phy, t);
    }
}

#define T(f) cmocka_unit_test(f)

static const struct CMUnitTest other_tests[] = {
    T(test_aneg_1000_not_complete_before_duration_complete_after),
    T(test_bmcr_speed_bits_do_nothing_while_aneg_is_on),
    T(test_loopback_entry_latches_the_line_drop_in_bmsr),
    T(test_advertisement_written_mid_round_waits_for_restart),
    T(test_aneg_100_complete_exactly_at_aneg_duration),
    T(test_aneg_default_durations_link_1000_at_2500_ms),
    T(test_aneg_outcome_independent_of_step_granularity),
    T(test_ms_single_port_vs_switch_resolves_slave),
    T(test_ms_multiport_vs_nic_resolves_master),
    T(test_ms_manual_beats_port_type),
    T(test_ms_both_forced_master_faults_without_link),
    T(test_ms_seed_tie_break_is_deterministic_and_uses_the_seed),
    T(test_downshift_2pair_after_3_attempts_links_at_100),
    T(test_downshift_enabled_by_firmware_like_linux),
    T(test_downshift_in_register_20_does_nothing),
    T(test_retrying_at_the_end_of_time_returns),
    T(test_downshift_disabled_2pair_never_links),
    T(test_2pair_links_at_100_when_1000_is_not_in_common),
    T(test_downshift_against_1000_only_partner_never_links),
    T(test_restart_after_downshift_tries_1000_again),
    T(test_forced_100fd_vs_autoneg_partner_gives_duplex_mismatch),
    T(test_autoneg_vs_forced_100fd_partner_we_resolve_half),
    T(test_autoneg_vs_forced_10hd_partner_no_mismatch),
    T(test_autoneg_without_that_speed_does_not_parallel_detect),
    T(test_both_forced_same_speed_link_with_own_duplex),
    T(test_forced_speeds_that_differ_never_link),
    T(test_forced_10_vs_partner_without_10_never_links),
    T(test_forced_1000_never_links),
    T(test_no_cable_no_link_until_plugged),
    T(test_unplug_drops_link_at_once_and_latches_events),
    T(test_forced_link_down_and_release_relinks_after_aneg),
    T(test_new_partner_renegotiates_and_raises_speed_change),
    T(test_vendor_status_agrees_with_bmsr_at_every_ms),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    static struct CMUnitTest singles[N_SINGLE * N_SINGLE];
    int failed = 0;

    build_single_rows();
    for (unsigned i = 0; i < COUNT(singles); i++) {
        singles[i].name = single_names[i];
        singles[i].test_func = run_aneg_row;
        singles[i].setup_func = NULL;
        singles[i].teardown_func = NULL;
        singles[i].initial_state = &single_rows[i];
    }
    failed += _cmocka_run_group_tests("phy_aneg_single_pairs", singles,
                                      COUNT(singles), NULL, NULL);
    failed += cmocka_run_group_tests_name("phy_aneg_multi", multi_tests,
                                          NULL, NULL);
    failed += cmocka_run_group_tests_name("phy_aneg", other_tests, NULL, NULL);
    return failed;
}
