/* test_phy_fsm.c - PHY link state machine (drivers/phy/phy.c) against a
 * register-file PHY behind mocked MDIO (--wrap=mdio_begin/mdio_end, with an
 * optional bus latency in polls).
 * Profiles: stock QEMU 7.2's contradictory 88E1111 (QEMU 7.2 hw/net/cadence_gem.c gem_phy_reset) and a
 * well-behaved 88E1116R.  Time is an argument; nothing sleeps. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "phy.h"
#include "phy_regs.h"

int __wrap_mdio_begin(uint8_t addr, uint8_t reg, bool write, uint16_t val);
int __wrap_mdio_end(uint16_t *val);

/* ---- fake PHY ---- */
static struct {
    uint8_t addr;
    uint16_t regs[32];
    bool present;
    bool link;             /* current link */
    bool link_dropped;     /* latched-low BMSR link pending */
    unsigned reset_reads;  /* BMCR reads until RESET self-clears */
    bool reset_stuck;
    bool fail;             /* MDIO times out */
    unsigned accesses;     /* transactions started */
    uint16_t last_bmcr_write;
    bool qemu_bmcr;        /* stock QEMU: AN enable bits dropped on write */
    unsigned latency;      /* mdio_end polls that report -EINPROGRESS */
    /* the open transaction */
    bool open;
    unsigned left;
    uint8_t op_addr, op_reg;
    bool op_write;
    uint16_t op_val;
} f;

static struct {
    enum phy_event ev[32];
    unsigned n;
} events;

static void on_event(struct phy *phy, enum phy_event ev, void *ctx)
{
    (void)phy; (void)ctx;
    if (events.n < 32)
        events.ev[events.n++] = ev;
}

static bool saw(enum phy_event ev)
{
    for (unsigned i = 0; i < events.n; i++)
        if (events.ev[i] == ev)
            return true;
    return false;
}

static uint16_t fake_read(uint8_t addr, uint8_t reg)
{
    if (!f.present || addr != f.addr)
        return 0xFFFF;
    uint16_t v = f.regs[reg];
    if (reg == MII_BMSR) {
        v &= (uint16_t)~BMSR_LSTATUS;
        if (f.link && !f.link_dropped)
            v |= BMSR_LSTATUS;
        f.link_dropped = false;          /* latch clears on read */
    } else if (reg == MII_BMCR && (v & BMCR_RESET) && !f.reset_stuck) {
        if (f.reset_reads == 0)
            f.regs[MII_BMCR] &= (uint16_t)~BMCR_RESET;
        else
            f.reset_reads--;
    }
    return v;
}

static void fake_write(uint8_t addr, uint8_t reg, uint16_t val)
{
    if (!f.present || addr != f.addr)
        return;
    if (reg == MII_BMCR) {
        f.last_bmcr_write = val;
        if (f.qemu_bmcr)
            val &= (uint16_t)~(BMCR_RESET | BMCR_ANENABLE | BMCR_ANRESTART);
        else
            f.reset_reads = 2;
    }
    f.regs[reg] = val;
}

int __wrap_mdio_begin(uint8_t addr, uint8_t reg, bool write, uint16_t val)
{
    assert_false(f.open);              /* one transaction on the bus at a time */
    f.accesses++;
    f.open = true;
    f.left = f.latency;
    f.op_addr = addr;
    f.op_reg = reg;
    f.op_write = write;
    f.op_val = val;
    return 0;
}

int __wrap_mdio_end(uint16_t *val)
{
    assert_true(f.open);
    if (f.fail) {
        f.open = false;
        return -ETIMEDOUT;
    }
    if (f.left) {
        f.left--;
        return -EINPROGRESS;
    }
    f.open = false;
    if (f.op_write) {
        fake_write(f.op_addr, f.op_reg, f.op_val);
        *val = f.op_val;
    } else {
        *val = fake_read(f.op_addr, f.op_reg);
    }
    return 0;
}

/* Stock QEMU 7.2 register file (QEMU 7.2 hw/net/cadence_gem.c gem_phy_reset). */
static void fake_stock_qemu(void)
{
    memset(&f, 0, sizeof f);
    f.present = true;
    f.addr = 7;
    f.link = true;
    f.qemu_bmcr = true;
    f.regs[MII_BMCR] = 0x1140;
    f.regs[MII_BMSR] = 0x796D;
    f.regs[MII_PHYSID1] = 0x0141;
    f.regs[MII_PHYSID2] = 0x0CC2;
    f.regs[MII_ADVERTISE] = 0x01E1;
    f.regs[MII_LPA] = 0xCDE1;
    f.regs[MII_CTRL1000] = 0x0300;
    f.regs[MII_STAT1000] = 0x7C00;
    f.regs[MRVL_PSSR] = 0x7C00;
}

/* 88E1116R linked at `ssr` with a partner advertising `lpa`/`stat1000`. */
static void fake_88e1116r(uint16_t ssr, uint16_t lpa, uint16_t stat1000)
{
    memset(&f, 0, sizeof f);
    f.present = true;
    f.addr = 7;
    f.link = true;
    f.regs[MII_BMCR] = 0x1140;
    f.regs[MII_BMSR] = 0x7969 | BMSR_ANEGCOMPLETE;
    f.regs[MII_PHYSID1] = 0x0141;
    f.regs[MII_PHYSID2] = 0x0E41;      /* revision 1 */
    f.regs[MII_LPA] = lpa;
    f.regs[MII_STAT1000] = stat1000;
    f.regs[MRVL_PSSR] = ssr;
}

static int setup(void **state)
{
    (void)state;
    memset(&events, 0, sizeof events);
    return 0;
}

/* Step every millisecond (the main loop's rate) from `*now` for `ms`. */
static void run(struct phy *p, uint32_t *now, uint32_t ms)
{
    for (uint32_t end = *now + ms; (int32_t)(*now - end) < 0; *now += 1)
        phy_step(p, *now);
}

#define SSR_1000FD (MRVL_PSSR_SPEED_1000 | MRVL_PSSR_DUPLEX | MRVL_PSSR_RESOLVED | MRVL_PSSR_LINK)
#define SSR_100FD  (MRVL_PSSR_SPEED_100 | MRVL_PSSR_DUPLEX | MRVL_PSSR_RESOLVED | MRVL_PSSR_LINK)

static void test_scan_finds_stock_phy_at_addr7_as_88e1111(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 20);
    assert_true(saw(PHY_EVENT_FOUND));
    assert_int_equal(p.addr, 7);
    assert_int_equal(p.id, 0x01410CC2);
    assert_string_equal(p.drv->name, "Marvell 88E1111");
}

static void test_stock_qemu_resolves_1000_full_from_std_regs_and_flags_reg17(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(p.state, PHY_STATE_UP);
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 1000);
    assert_true(p.link.full_duplex);
    assert_true(p.link.autoneg);
    assert_false(p.link.downshift);
    assert_true(saw(PHY_EVENT_INCONSISTENT));
    assert_int_equal(p.inconsistent_ssr, 0x7C00);
}

static void test_88e1116r_trusts_reg17_100_full_over_std_regs(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    /* std regs would say 1000FD; reg 17 says it downshifted to 100FD */
    fake_88e1116r(SSR_100FD | MRVL_PSSR_DOWNSHIFT, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 100);
    assert_true(p.link.full_duplex);
    assert_true(p.link.downshift);
    assert_true(saw(PHY_EVENT_DOWNSHIFT));
    assert_true(saw(PHY_EVENT_INCONSISTENT));
}

static void test_88e1116r_config_enables_downshift_and_rgmii_delays(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 20);
    /* reg 16: downshift enabled with the default counter; reg 20 (the
     * 88E1111's downshift bits) untouched */
    assert_true(f.regs[MRVL_PSCR] & MRVL_PSCR_DOWNSHIFT_EN);
    assert_int_equal(f.regs[MRVL_ECR], 0);
    assert_int_equal((f.regs[MRVL_PSCR] & MRVL_PSCR_DOWNSHIFT_CNT_MASK) >> MRVL_PSCR_DOWNSHIFT_CNT_SHIFT,
                     PHY_DOWNSHIFT_ATTEMPTS - 1u);
    assert_int_equal(p.downshift_attempts, PHY_DOWNSHIFT_ATTEMPTS);
    assert_int_equal(f.regs[MRVL_PSCR] & MRVL_PSCR_MDIX_MASK, MRVL_PSCR_MDIX_AUTO);
    assert_int_equal(f.regs[MRVL_PAGE], 0);                 /* page restored */
    assert_int_equal(f.last_bmcr_write & (BMCR_RESET | BMCR_ANENABLE | BMCR_ANRESTART),
                     BMCR_RESET | BMCR_ANENABLE | BMCR_ANRESTART);
}

/* `phy rgmii MODE` (runner: [board] phy_mode on bare metal): page 2
 * register 21 bits 5/4 follow Linux's phy-mode mapping
 * (m88e1121_config_aneg_rgmii_delays), written at a PHY reset, and the
 * choice survives later reconfigures. */
static void test_88e1116r_rgmii_mode_sets_delay_bits(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    const uint16_t both = MRVL_MSCR2_RGMII_RX_DELAY | MRVL_MSCR2_RGMII_TX_DELAY;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_MSCR2] & both, both);          /* rgmii-id */
    f.last_bmcr_write = 0;
    assert_int_equal(phy_cmd_rgmii(&p, PHY_RGMII, true), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_MSCR2] & both, 0);
    assert_true(f.last_bmcr_write & BMCR_RESET);                 /* applied by a reset */
    assert_int_equal(f.regs[MRVL_PAGE], 0);
    phy_cmd_autoneg(&p);                                         /* a later configure */
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_MSCR2] & both, 0);
    assert_int_equal(phy_cmd_rgmii(&p, PHY_RGMII_RXID, true), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_MSCR2] & both, MRVL_MSCR2_RGMII_RX_DELAY);
    assert_int_equal(phy_cmd_rgmii(&p, PHY_RGMII_TXID, true), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_MSCR2] & both, MRVL_MSCR2_RGMII_TX_DELAY);
    assert_int_equal(phy_cmd_rgmii(&p, PHY_RGMII_COUNT, true), -EINVAL);
    assert_int_equal(phy_rgmii_parse("rgmii"), PHY_RGMII);
    assert_int_equal(phy_rgmii_parse("rgmii-id"), PHY_RGMII_ID);
    assert_int_equal(phy_rgmii_parse("rgmii-rxid"), PHY_RGMII_RXID);
    assert_int_equal(phy_rgmii_parse("rgmii-txid"), PHY_RGMII_TXID);
    assert_int_equal(phy_rgmii_parse("gmii"), -1);
    assert_string_equal(phy_rgmii_name(PHY_RGMII_TXID), "rgmii-txid");
}

static void test_88e1116r_unresolved_reg17_keeps_waiting(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(MRVL_PSSR_SPEED_1000 | MRVL_PSSR_LINK, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 1000);
    assert_int_equal(p.state, PHY_STATE_AN_WAIT);
    assert_false(p.link.up);
    f.regs[MRVL_PSSR] = SSR_1000FD;
    run(&p, &now, 200);
    assert_int_equal(p.state, PHY_STATE_UP);
    assert_int_equal(p.link.speed_mbps, 1000);
    assert_false(saw(PHY_EVENT_INCONSISTENT));
}

static void test_latched_link_drop_in_up_reports_down_then_up_again(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_true(p.link.up);
    f.link_dropped = true;              /* short drop, already back */
    run(&p, &now, 300);                 /* <= 100 ms to see it, 100 ms to re-resolve */
    unsigned downs = 0, ups = 0;
    for (unsigned i = 0; i < events.n; i++) {
        downs += events.ev[i] == PHY_EVENT_LINK_DOWN;
        ups += events.ev[i] == PHY_EVENT_LINK_UP;
    }
    assert_int_equal(downs, 1);
    assert_int_equal(ups, 2);
    assert_true(p.link.up);
    assert_int_equal(p.link_changes, 3);
}

static void test_link_loss_goes_to_an_wait_without_restarting_aneg(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    uint32_t restarts = p.an_restarts;
    f.link = false;
    run(&p, &now, 300);
    assert_int_equal(p.state, PHY_STATE_AN_WAIT);
    assert_false(p.link.up);
    assert_int_equal(p.an_restarts, restarts);
}

static void test_no_link_for_5s_restarts_autoneg(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();                  /* 88E1111 profile: no downshift */
    f.link = false;
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 4000);
    assert_int_equal(p.an_restarts, 1);
    run(&p, &now, 2000);
    assert_int_equal(p.an_restarts, 2);
}

static void test_88e1116r_power_on_downshift_counter_is_kept(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    /* enabled at power-on with 2 attempts (strap / earlier boot stage) */
    f.regs[MRVL_PSCR] = MRVL_PSCR_DOWNSHIFT_EN | (1u << MRVL_PSCR_DOWNSHIFT_CNT_SHIFT);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 20);
    assert_int_equal(f.regs[MRVL_PSCR], MRVL_PSCR_MDIX_AUTO | MRVL_PSCR_DOWNSHIFT_EN |
                                         (1u << MRVL_PSCR_DOWNSHIFT_CNT_SHIFT));
    assert_int_equal(p.downshift_attempts, 2);
}

/* `phy downshift off` (as `ethtool --set-phy-tunable eth0 downshift off`,
 * Linux m88e1011_set_downshift(phydev, 0)): reg 16 bit 11 ends up clear,
 * and stays clear through a later autoneg restart - the driver's
 * Linux-like default (enable) must not come back. */
static void test_88e1116r_downshift_off_stays_off(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.link = false;                     /* 2-pair cable: never links */
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_true(f.regs[MRVL_PSCR] & MRVL_PSCR_DOWNSHIFT_EN);     /* the default */
    assert_int_equal(phy_cmd_downshift(&p, false, 0, true), 0);
    run(&p, &now, 200);
    assert_false(f.regs[MRVL_PSCR] & MRVL_PSCR_DOWNSHIFT_EN);
    assert_int_equal(p.downshift_attempts, 0);
    assert_int_equal(p.an_restarts, 2);
    phy_cmd_autoneg(&p);
    run(&p, &now, 200);
    assert_int_equal(p.an_restarts, 3);
    assert_false(f.regs[MRVL_PSCR] & MRVL_PSCR_DOWNSHIFT_EN);
    /* no downshift budget to wait for: autoneg restarts after the plain timeout */
    run(&p, &now, PHY_AN_TIMEOUT_MS + 200);
    assert_int_equal(p.an_restarts, 4);
    assert_false(p.link.up);
}

static void test_88e1116r_downshift_on_sets_counter_and_bad_counts_fail(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(phy_cmd_downshift(&p, true, 0, true), -EINVAL);
    assert_int_equal(phy_cmd_downshift(&p, true, PHY_DOWNSHIFT_ATTEMPTS_MAX + 1u, true), -EINVAL);
    assert_int_equal(phy_cmd_downshift(&p, true, 2, true), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_PSCR] & (MRVL_PSCR_DOWNSHIFT_EN | MRVL_PSCR_DOWNSHIFT_CNT_MASK),
                     MRVL_PSCR_DOWNSHIFT_EN | (1u << MRVL_PSCR_DOWNSHIFT_CNT_SHIFT));
    assert_int_equal(p.downshift_attempts, 2);
    /* without restart nothing is written until the next configure */
    uint16_t scr = f.regs[MRVL_PSCR];
    unsigned restarts = p.an_restarts;
    assert_int_equal(phy_cmd_downshift(&p, false, 0, false), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MRVL_PSCR], scr);
    assert_int_equal(p.an_restarts, restarts);
}

static void test_downshift_command_on_phy_without_downshift_is_enotsup(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(phy_cmd_downshift(&p, false, 0, true), -ENOTSUP);
}

/* A 2-pair cable: the 88E1116R keeps trying 1000BASE-T, then downshifts by
 * itself.  The driver must not restart autoneg (which resets the PHY's
 * attempt counter) while those attempts can still be running. */
static void test_88e1116r_downshift_no_restart_while_phy_retries(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_100FD | MRVL_PSSR_DOWNSHIFT, 0xCDE1, LPA_1000FULL);
    f.link = false;
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(p.an_restarts, 1);
    /* 4 attempts x ~2.5 s + the 100 link-up: about 11.5 s without link */
    run(&p, &now, 11500);
    assert_int_equal(p.an_restarts, 1);
    assert_int_equal(p.state, PHY_STATE_AN_WAIT);
    f.link = true;                      /* downshifted to 100 */
    run(&p, &now, 200);
    assert_int_equal(p.state, PHY_STATE_UP);
    assert_int_equal(p.link.speed_mbps, 100);
    assert_true(p.link.downshift);
    assert_true(saw(PHY_EVENT_DOWNSHIFT));
    assert_int_equal(p.an_restarts, 1);
}

static void test_88e1116r_no_link_restarts_after_downshift_budget(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.link = false;                     /* no partner at all */
    phy_init(&p, 7, on_event, NULL, now);
    uint32_t budget = PHY_AN_TIMEOUT_MS + PHY_DOWNSHIFT_ATTEMPTS * PHY_DOWNSHIFT_ATTEMPT_MS;
    run(&p, &now, budget - 100);
    assert_int_equal(p.an_restarts, 1);
    run(&p, &now, 300);
    assert_int_equal(p.an_restarts, 2);
}

static void test_force_during_slow_autoneg_configure_rewrites_advertisement(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.latency = 5;
    phy_init(&p, 7, on_event, NULL, now);
    /* 2 ID reads, 6 vendor accesses, then the ANAR write goes on the bus */
    while (f.accesses < 9)
        phy_step(&p, now++);
    assert_true(f.open);
    assert_int_equal(f.op_reg, MII_ADVERTISE);
    assert_true(f.op_val & ADVERTISE_100FULL);      /* the autoneg value */
    assert_int_equal(phy_cmd_force(&p, 100, true), 0);
    run(&p, &now, 300);
    assert_int_equal(f.regs[MII_ADVERTISE] & ADVERTISE_ALL, 0);
    assert_int_equal(f.last_bmcr_write, BMCR_RESET | BMCR_SPEED_LSB | BMCR_FULLDPLX);
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 100);
    assert_false(p.link.autoneg);
}

static void test_force_100_full_writes_bmcr_without_aneg_and_reports_forced(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(phy_cmd_force(&p, 100, true), 0);
    run(&p, &now, 200);
    assert_int_equal(f.last_bmcr_write, BMCR_RESET | BMCR_SPEED_LSB | BMCR_FULLDPLX);
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 100);
    assert_true(p.link.full_duplex);
    assert_false(p.link.autoneg);
    assert_int_equal(p.state, PHY_STATE_UP);
}

static void test_force_then_autoneg_command_returns_to_1000_autoneg(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    phy_cmd_force(&p, 10, false);
    run(&p, &now, 200);
    assert_int_equal(p.link.speed_mbps, 10);
    assert_false(p.link.full_duplex);
    phy_cmd_autoneg(&p);
    run(&p, &now, 200);
    assert_int_equal(p.link.speed_mbps, 1000);
    assert_true(p.link.autoneg);
}

/* `phy advertise` (issue 20): ANAR (28.2.4.1.3) and 1000BASE-T control
 * (40.5.1.1) carry only the chosen modes, autoneg restarts, and a later
 * `phy restart` keeps them. */
static void test_advertise_writes_anar_and_ctrl1000_and_restarts_aneg(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    unsigned modes;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MII_ADVERTISE], ADVERTISE_CSMA | ADVERTISE_ALL | ADVERTISE_PAUSE_CAP |
                                            ADVERTISE_PAUSE_ASYM);
    assert_int_equal(f.regs[MII_CTRL1000], ADVERTISE_1000FULL | ADVERTISE_1000HALF);
    uint32_t restarts = p.an_restarts;
    assert_int_equal(phy_parse_advertise("100fd,100HD", &modes), 0);
    assert_int_equal(modes, PHY_ADV_100FD | PHY_ADV_100HD);
    assert_int_equal(phy_cmd_advertise(&p, modes), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MII_ADVERTISE], ADVERTISE_CSMA | ADVERTISE_100FULL | ADVERTISE_100HALF);
    assert_int_equal(f.regs[MII_CTRL1000], 0);
    assert_true(f.last_bmcr_write & BMCR_ANRESTART);
    assert_int_equal(p.an_restarts, restarts + 1);
    assert_true(saw(PHY_EVENT_LINK_DOWN));
    phy_cmd_autoneg(&p);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MII_ADVERTISE], ADVERTISE_CSMA | ADVERTISE_100FULL | ADVERTISE_100HALF);
    assert_int_equal(f.regs[MII_CTRL1000], 0);
    assert_int_equal(phy_parse_advertise("1000FD,PAUSE", &modes), 0);
    assert_int_equal(phy_cmd_advertise(&p, modes), 0);
    run(&p, &now, 200);
    assert_int_equal(f.regs[MII_ADVERTISE], ADVERTISE_CSMA | ADVERTISE_PAUSE_CAP);
    assert_int_equal(f.regs[MII_CTRL1000], ADVERTISE_1000FULL);
}

static void test_advertise_rejects_bad_lists(void **state)
{
    (void)state;
    struct phy p;
    unsigned modes = 0x55;
    static const char *const bad[] = { "", ",", "100FD,", ",100FD", "100FD,,10HD", "2500FD",
                                       "100T4", "PAUSE", "100FDX", "100F", "none" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(phy_parse_advertise(bad[i], &modes), -EINVAL);
    assert_int_equal(modes, 0x55);
    assert_int_equal(phy_parse_advertise(NULL, &modes), -EINVAL);
    assert_int_equal(phy_parse_advertise("10HD,10FD,100HD,100FD,1000HD,1000FD,PAUSE,ASYM_PAUSE",
                                         &modes), 0);
    assert_int_equal(modes, PHY_ADV_SPEEDS | PHY_ADV_PAUSE | PHY_ADV_ASYM_PAUSE);
    memset(&p, 0, sizeof p);
    assert_int_equal(phy_cmd_advertise(&p, PHY_ADV_PAUSE), -EINVAL);
    assert_int_equal(phy_cmd_advertise(&p, 0x80), -EINVAL);
    assert_false(p.reconfigure);
}

static void test_force_unsupported_speed_returns_einval(void **state)
{
    (void)state;
    struct phy p;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, 0);
    assert_int_equal(phy_cmd_force(&p, 42, true), -EINVAL);
    assert_false(p.reconfigure);
}

static void test_no_phy_reports_not_found_and_retries_after_1s(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    f.present = false;
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 50);                  /* one address per pass: 32 passes */
    assert_true(saw(PHY_EVENT_NOT_FOUND));
    assert_int_equal(p.err, -ENODEV);
    assert_int_equal(f.accesses, 64);   /* ID1 + ID2 at each address, once */
    f.present = true;
    run(&p, &now, 900);
    assert_false(saw(PHY_EVENT_FOUND));
    run(&p, &now, 300);
    assert_true(saw(PHY_EVENT_FOUND));
}

static void test_slow_mdio_never_blocks_and_link_still_comes_up(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.latency = 3;                      /* each frame: 3 polls on the bus */
    phy_init(&p, 7, on_event, NULL, now);
    /* every step returns at once; at most one transaction is open (mock) */
    for (int i = 0; i < 400; i++, now++) {
        unsigned before = f.accesses;
        phy_step(&p, now);
        assert_true(f.accesses - before <= 1);
    }
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 1000);
    assert_true(p.mdio_replays > 0);
    assert_int_equal(events.n, 2);      /* FOUND, LINK_UP: replays repeat nothing */
}

static void test_command_during_slow_pass_restarts_with_new_mode(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.latency = 5;
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 300);
    assert_true(p.link.up);
    /* step into an UP poll, leave its BMSR read on the bus, then command */
    while (!f.open)
        phy_step(&p, now++);
    assert_int_equal(phy_cmd_force(&p, 100, true), 0);
    run(&p, &now, 300);
    assert_true(p.link.up);
    assert_int_equal(p.link.speed_mbps, 100);
    assert_false(p.link.autoneg);
    assert_int_equal(f.last_bmcr_write, BMCR_RESET | BMCR_SPEED_LSB | BMCR_FULLDPLX);
}

static void test_step_before_deadline_does_no_mdio(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    uint32_t due = phy_step(&p, now);
    unsigned before = f.accesses;
    assert_int_equal(phy_step(&p, due - 1), due);
    assert_int_equal(f.accesses, before);
}

static void test_mdio_timeout_while_up_reports_error_and_link_down(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_stock_qemu();
    phy_init(&p, -1, on_event, NULL, now);
    run(&p, &now, 200);
    f.fail = true;
    run(&p, &now, 200);
    assert_true(saw(PHY_EVENT_ERROR));
    assert_true(saw(PHY_EVENT_LINK_DOWN));
    assert_false(p.link.up);
    assert_int_equal(p.state, PHY_STATE_PROBE);
    assert_int_equal(p.err, -ETIMEDOUT);
    f.fail = false;
    run(&p, &now, 1500);
    assert_true(p.link.up);
}

static void test_reset_that_never_clears_times_out_to_probe(void **state)
{
    (void)state;
    struct phy p;
    uint32_t now = 0;
    fake_88e1116r(SSR_1000FD, 0xCDE1, LPA_1000FULL);
    f.reset_stuck = true;
    phy_init(&p, 7, on_event, NULL, now);
    run(&p, &now, 600);
    assert_true(saw(PHY_EVENT_ERROR));
    assert_int_equal(p.err, -ETIMEDOUT);
    assert_int_equal(p.state, PHY_STATE_PROBE);
}

/* Resolution table (IEEE 802.3 annex 28B priority). */
struct res_row {
    uint16_t adv, lpa, c1000, s1000;
    int rc;
    uint16_t speed;
    bool full;
};

static void test_resolve_std_table(void **state)
{
    (void)state;
    static const struct res_row rows[] = {
        { 0x01E1, 0x01E1, ADVERTISE_1000FULL, LPA_1000FULL, 0, 1000, true },
        { 0x01E1, 0x01E1, ADVERTISE_1000HALF, LPA_1000HALF, 0, 1000, false },
        { 0x01E1, 0x01E1, ADVERTISE_1000FULL, LPA_1000HALF, 0, 100, true },  /* no common 1000 */
        { 0x01E1, ADVERTISE_100FULL | 1, 0, 0, 0, 100, true },   /* partner 100 only */
        { 0x01E1, ADVERTISE_100HALF | 1, 0, 0, 0, 100, false },
        { 0x01E1, ADVERTISE_10FULL | 1, 0, 0, 0, 10, true },
        { 0x01E1, ADVERTISE_10HALF | 1, 0, 0, 0, 10, false },
        { ADVERTISE_10HALF | 1, 0x01E1, 0, LPA_1000FULL, 0, 10, false },
        { ADVERTISE_100FULL | 1, ADVERTISE_10FULL | 1, 0, 0, -ENOLINK, 0, false },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct phy_link l = { 0 };
        int rc = phy_resolve_std(rows[i].adv, rows[i].lpa, rows[i].c1000, rows[i].s1000, &l);
        assert_int_equal(rc, rows[i].rc);
        if (rc == 0) {
            assert_int_equal(l.speed_mbps, rows[i].speed);
            assert_int_equal(l.full_duplex, rows[i].full);
        }
    }
}

static void test_resolve_mrvl_ssr_unresolved_or_reserved_speed_is_eagain(void **state)
{
    (void)state;
    struct phy_link l;
    assert_int_equal(phy_resolve_mrvl_ssr(MRVL_PSSR_SPEED_1000 | MRVL_PSSR_DUPLEX, &l), -EAGAIN);
    assert_int_equal(phy_resolve_mrvl_ssr(MRVL_PSSR_SPEED_MASK | MRVL_PSSR_RESOLVED, &l), -EAGAIN);
    assert_int_equal(phy_resolve_mrvl_ssr(MRVL_PSSR_SPEED_10 | MRVL_PSSR_RESOLVED, &l), 0);
    assert_int_equal(l.speed_mbps, 10);
    assert_false(l.full_duplex);
}

static void test_state_names_cover_every_state(void **state)
{
    (void)state;
    for (int s = 0; s < PHY_STATE_COUNT; s++)
        assert_string_not_equal(phy_state_name((enum phy_state)s), "?");
    assert_string_equal(phy_state_name(PHY_STATE_COUNT), "?");
}

#define T(fn) cmocka_unit_test_setup(fn, setup)
int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_scan_finds_stock_phy_at_addr7_as_88e1111),
        T(test_stock_qemu_resolves_1000_full_from_std_regs_and_flags_reg17),
        T(test_88e1116r_trusts_reg17_100_full_over_std_regs),
        T(test_88e1116r_config_enables_downshift_and_rgmii_delays),
        T(test_88e1116r_rgmii_mode_sets_delay_bits),
        T(test_88e1116r_power_on_downshift_counter_is_kept),
        T(test_88e1116r_downshift_off_stays_off),
        T(test_88e1116r_downshift_on_sets_counter_and_bad_counts_fail),
        T(test_downshift_command_on_phy_without_downshift_is_enotsup),
        T(test_88e1116r_downshift_no_restart_while_phy_retries),
        T(test_88e1116r_no_link_restarts_after_downshift_budget),
        T(test_88e1116r_unresolved_reg17_keeps_waiting),
        T(test_latched_link_drop_in_up_reports_down_then_up_again),
        T(test_link_loss_goes_to_an_wait_without_restarting_aneg),
        T(test_no_link_for_5s_restarts_autoneg),
        T(test_force_during_slow_autoneg_configure_rewrites_advertisement),
        T(test_force_100_full_writes_bmcr_without_aneg_and_reports_forced),
        T(test_force_then_autoneg_command_returns_to_1000_autoneg),
        T(test_advertise_writes_anar_and_ctrl1000_and_restarts_aneg),
        T(test_advertise_rejects_bad_lists),
        T(test_force_unsupported_speed_returns_einval),
        T(test_no_phy_reports_not_found_and_retries_after_1s),
        T(test_slow_mdio_never_blocks_and_link_still_comes_up),
        T(test_command_during_slow_pass_restarts_with_new_mode),
        T(test_step_before_deadline_does_no_mdio),
        T(test_mdio_timeout_while_up_reports_error_and_link_down),
        T(test_reset_that_never_clears_times_out_to_probe),
        T(test_resolve_std_table),
        T(test_resolve_mrvl_ssr_unresolved_or_reserved_speed_is_eagain),
        T(test_state_names_cover_every_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
