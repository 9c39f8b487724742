/* phy.c - clause 22 PHY state machine with Marvell 88E1116R specifics.
 *
 * Speed/duplex resolution, and how the stock QEMU PHY is handled:
 *  - 88E1116R (ZC702/ZC706, and gemlab's patched QEMU): reg 17 is the truth
 *    once bit 11 (speed and duplex resolved) is set; it also reflects
 *    downshift (bit 5), which the standard registers cannot show.
 *  - Stock QEMU presents an 88E1111 whose reg 17 is a constant 0x7C00
 *    ("100/Full, resolved") while regs 9/10 say both sides do 1000FD, and
 *    whose BMCR drops AN-enable on write.  For that ID we resolve from the
 *    standard registers (ANAR & ANLPAR, reg 9 & reg 10) and report the
 *    disagreement as a PHY_EVENT_INCONSISTENT (logged as "phy_inconsistent")
 *    instead of believing reg 17.  Forced mode is tracked in our own state,
 *    never read back from BMCR.
 *  - Anything else: generic clause 22, standard-register resolution.
 * Link status latches low (22.2.4.2.13): in UP a single BMSR read that shows
 * 0 means the link dropped since the last poll; while waiting we read twice
 * and use the second (current) value.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "phy.h"
#include "phy_regs.h"
#include "mdio.h"

static int m88e1116r_config(struct phy *phy);

static const struct phy_driver phy_drivers[] = {
    { PHY_ID_MARVELL_88E1116R, PHY_ID_MASK_MODEL, "Marvell 88E1116R",
      PHY_F_VENDOR_SSR | PHY_F_SSR_TRUSTED | PHY_F_DOWNSHIFT, m88e1116r_config },
    { PHY_ID_MARVELL_88E1111, PHY_ID_MASK_MODEL, "Marvell 88E1111",
      PHY_F_VENDOR_SSR, NULL },
    { 0, 0, "generic clause 22", 0, NULL },   /* matches everything: last */
};

static const char *const state_names[PHY_STATE_COUNT] = {
    [PHY_STATE_PROBE] = "probe",
    [PHY_STATE_RESET_WAIT] = "reset_wait",
    [PHY_STATE_AN_WAIT] = "an_wait",
    [PHY_STATE_LINK_WAIT] = "link_wait",
    [PHY_STATE_UP] = "up",
};

const char *phy_state_name(enum phy_state st)
{
    return (unsigned)st < PHY_STATE_COUNT ? state_names[st] : "?";
}

static bool time_reached(uint32_t now, uint32_t t)
{
    return (int32_t)(now - t) >= 0;
}

static void emit(struct phy *phy, enum phy_event ev)
{
    if (phy->cb)
        phy->cb(phy, ev, phy->ctx);
}

static void enter(struct phy *phy, enum phy_state st, uint32_t now, uint32_t delay)
{
    phy->state = st;
    phy->entered_ms = now;
    phy->deadline_ms = now + delay;
}

/* MDIO through the pass's transaction log.
 * A pass is one run of a state's logic.  The n-th MDIO access of a pass is
 * the n-th log entry: if it is complete, its result is returned; if it is
 * still on the bus, the access (and the pass) returns -EINPROGRESS; if the
 * pass gets further than the log, a new transaction is started.  Because
 * results are replayed, a pass that is re-run takes the same path up to the
 * point where it stopped.  The log is cleared when a pass ends. */
static int xfer(struct phy *phy, bool write, uint8_t reg, uint16_t *v)
{
    int err;
    if (phy->txn_pos == phy->txn_n) {
        if (phy->txn_n == PHY_TXN_MAX)
            return -ENOBUFS;            /* a pass does too many accesses */
        err = mdio_begin(phy->addr, reg, write, write ? *v : 0);
        if (err)
            goto fail;
        phy->txn[phy->txn_n++] = (struct phy_txn){ .reg = reg, .write = write,
                                                   .val = write ? *v : 0 };
    }
    struct phy_txn *t = &phy->txn[phy->txn_pos];
    if (t->reg != reg || t->write != write || (write && t->val != *v))
        return -EPROTO;                 /* replay diverged: restart the pass */
    if (!t->done) {
        err = mdio_end(&t->val);
        if (err == -EINPROGRESS)
            return err;
        t->done = true;                 /* finished or abandoned: off the bus */
        if (err)
            goto fail;
    }
    phy->txn_pos++;
    if (!write)
        *v = t->val;
    return 0;
fail:
    phy->mdio_errors++;
    phy->err = err;
    return err;
}

static int rd(struct phy *phy, uint8_t reg, uint16_t *v)
{
    return xfer(phy, false, reg, v);
}

static int wr(struct phy *phy, uint8_t reg, uint16_t v)
{
    return xfer(phy, true, reg, &v);
}

/* Forget the pass's log.  A transaction still on the bus is collected (or
 * abandoned) first so the next pass can start one. */
static void log_clear(struct phy *phy)
{
    if (phy->txn_n && !phy->txn[phy->txn_n - 1].done) {
        uint16_t dummy;
        if (mdio_end(&dummy) == -EINPROGRESS)
            return;                     /* keep it; cleared next time */
    }
    phy->txn_n = phy->txn_pos = 0;
}

void phy_init(struct phy *phy, int fixed_addr, phy_event_fn cb, void *ctx, uint32_t now_ms)
{
    *phy = (struct phy){ .fixed_addr = fixed_addr, .cb = cb, .ctx = ctx };
    enter(phy, PHY_STATE_PROBE, now_ms, 0);
}

void phy_cmd_autoneg(struct phy *phy)
{
    phy->forced = false;
    phy->reconfigure = true;
}

int phy_cmd_force(struct phy *phy, unsigned speed_mbps, bool full_duplex)
{
    if (speed_mbps != 10 && speed_mbps != 100 && speed_mbps != 1000)
        return -EINVAL;
    /* 1000BASE-T requires autoneg (40.5.1): forcing it is only meaningful
     * for PHYs that fake it (Marvell "forced 1000" = AN with one mode). */
    phy->forced = true;
    phy->forced_speed = (uint16_t)speed_mbps;
    phy->forced_full = full_duplex;
    phy->reconfigure = true;
    return 0;
}

int phy_cmd_advertise(struct phy *phy, unsigned modes)
{
    if (modes & ~(PHY_ADV_SPEEDS | PHY_ADV_PAUSE | PHY_ADV_ASYM_PAUSE))
        return -EINVAL;
    if (modes && !(modes & PHY_ADV_SPEEDS))
        return -EINVAL;                 /* nothing to negotiate */
    phy->advertise = (uint16_t)modes;
    phy->forced = false;
    phy->reconfigure = true;
    return 0;
}

static char upcase(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

int phy_parse_advertise(const char *list, unsigned *modes)
{
    static const struct { const char *w; unsigned m; } words[] = {
        { "10HD", PHY_ADV_10HD }, { "10FD", PHY_ADV_10FD },
        { "100HD", PHY_ADV_100HD }, { "100FD", PHY_ADV_100FD },
        { "1000HD", PHY_ADV_1000HD }, { "1000FD", PHY_ADV_1000FD },
        { "PAUSE", PHY_ADV_PAUSE }, { "ASYM_PAUSE", PHY_ADV_ASYM_PAUSE },
    };
    unsigned m = 0;
    const char *p = list;
    if (!list)
        return -EINVAL;
    for (;;) {
        size_t n = 0;
        while (p[n] && p[n] != ',')
            n++;
        size_t i;
        for (i = 0; i < sizeof words / sizeof words[0]; i++) {
            const char *w = words[i].w;
            size_t k = 0;
            while (k < n && w[k] && upcase(p[k]) == w[k])
                k++;
            if (k == n && w[k] == '\0')
                break;
        }
        if (n == 0 || i == sizeof words / sizeof words[0])
            return -EINVAL;
        m |= words[i].m;
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    if (!(m & PHY_ADV_SPEEDS))
        return -EINVAL;
    *modes = m;
    return 0;
}

void phy_advertise_regs(unsigned modes, uint16_t *anar, uint16_t *ctrl1000)
{
    uint16_t a = ADVERTISE_CSMA, c = 0;
    if (modes == 0)
        modes = PHY_ADV_SPEEDS | PHY_ADV_PAUSE | PHY_ADV_ASYM_PAUSE;
    /* ANAR technology ability field, 28.2.4.1.3 / Annex 28B.2 */
    if (modes & PHY_ADV_10HD)       a |= ADVERTISE_10HALF;
    if (modes & PHY_ADV_10FD)       a |= ADVERTISE_10FULL;
    if (modes & PHY_ADV_100HD)      a |= ADVERTISE_100HALF;
    if (modes & PHY_ADV_100FD)      a |= ADVERTISE_100FULL;
    if (modes & PHY_ADV_PAUSE)      a |= ADVERTISE_PAUSE_CAP;
    if (modes & PHY_ADV_ASYM_PAUSE) a |= ADVERTISE_PAUSE_ASYM;
    /* 1000BASE-T control register 9 bits 9:8, 40.5.1.1 */
    if (modes & PHY_ADV_1000HD)     c |= ADVERTISE_1000HALF;
    if (modes & PHY_ADV_1000FD)     c |= ADVERTISE_1000FULL;
    *anar = a;
    *ctrl1000 = c;
}

int phy_cmd_downshift(struct phy *phy, bool enable, unsigned attempts, bool restart)
{
    if (enable && (attempts < 1 || attempts > PHY_DOWNSHIFT_ATTEMPTS_MAX))
        return -EINVAL;
    if (phy->drv && !(phy->drv->flags & PHY_F_DOWNSHIFT))
        return -ENOTSUP;                /* before the probe: kept for configure */
    phy->downshift_req = enable ? PHY_DS_ON : PHY_DS_OFF;
    phy->downshift_req_attempts = (uint8_t)attempts;
    if (restart)
        phy->reconfigure = true;
    else
        phy->downshift_attempts = enable ? (uint8_t)attempts : 0;
    return 0;
}

static const char *const rgmii_names[PHY_RGMII_COUNT] = {
    [PHY_RGMII_DEFAULT] = "rgmii-id", [PHY_RGMII] = "rgmii", [PHY_RGMII_ID] = "rgmii-id",
    [PHY_RGMII_RXID] = "rgmii-rxid", [PHY_RGMII_TXID] = "rgmii-txid",
};

int phy_rgmii_parse(const char *s)
{
    for (unsigned m = PHY_RGMII; m < PHY_RGMII_COUNT; m++)
        if (strcmp(s, rgmii_names[m]) == 0)
            return (int)m;
    return -1;
}

const char *phy_rgmii_name(unsigned mode)
{
    return mode < PHY_RGMII_COUNT ? rgmii_names[mode] : "?";
}

uint16_t phy_rgmii_mscr_bits(unsigned mode)
{
    switch (mode) {
    case PHY_RGMII:      return 0;
    case PHY_RGMII_RXID: return MRVL_MSCR2_RGMII_RX_DELAY;
    case PHY_RGMII_TXID: return MRVL_MSCR2_RGMII_TX_DELAY;
    default:             return MRVL_MSCR2_RGMII_RX_DELAY | MRVL_MSCR2_RGMII_TX_DELAY;
    }
}

int phy_cmd_rgmii(struct phy *phy, unsigned mode, bool restart)
{
    if (mode >= PHY_RGMII_COUNT)
        return -EINVAL;
    if (phy->drv && !phy->drv->config)
        return -ENOTSUP;                /* before the probe: kept for configure */
    phy->rgmii_req = (uint8_t)mode;
    if (restart)
        phy->reconfigure = true;
    return 0;
}

int phy_resolve_std(uint16_t adv, uint16_t lpa, uint16_t ctrl1000,
                    uint16_t stat1000, struct phy_link *out)
{
    uint16_t common = adv & lpa;
    out->autoneg = true;
    out->downshift = false;
    if ((ctrl1000 & ADVERTISE_1000FULL) && (stat1000 & LPA_1000FULL)) {
        out->speed_mbps = 1000; out->full_duplex = true;
    } else if ((ctrl1000 & ADVERTISE_1000HALF) && (stat1000 & LPA_1000HALF)) {
        out->speed_mbps = 1000; out->full_duplex = false;
    } else if (common & ADVERTISE_100FULL) {
        out->speed_mbps = 100; out->full_duplex = true;
    } else if (common & ADVERTISE_100HALF) {
        out->speed_mbps = 100; out->full_duplex = false;
    } else if (common & ADVERTISE_10FULL) {
        out->speed_mbps = 10; out->full_duplex = true;
    } else if (common & ADVERTISE_10HALF) {
        out->speed_mbps = 10; out->full_duplex = false;
    } else {
        return -ENOLINK;
    }
    return 0;
}

int phy_resolve_mrvl_ssr(uint16_t ssr, struct phy_link *out)
{
    if (!(ssr & MRVL_PSSR_RESOLVED))
        return -EAGAIN;
    switch (ssr & MRVL_PSSR_SPEED_MASK) {
    case MRVL_PSSR_SPEED_1000: out->speed_mbps = 1000; break;
    case MRVL_PSSR_SPEED_100:  out->speed_mbps = 100;  break;
    case MRVL_PSSR_SPEED_10:   out->speed_mbps = 10;   break;
    default:                   return -EAGAIN;   /* 11 is reserved */
    }
    out->full_duplex = (ssr & MRVL_PSSR_DUPLEX) != 0;
    out->downshift = (ssr & MRVL_PSSR_DOWNSHIFT) != 0;
    return 0;
}

/* 88E1116R, as Linux's marvell driver configures it
 * (m88e1116r_config_init): auto MDI-X, downshift enabled in reg 16
 * (m88e1011_set_downshift: bit 11 + counter, so a 2-pair cable still
 * links at 100), RGMII RX/TX clock delays in the PHY (ZC702/ZC706 route
 * RGMII without skew; `phy rgmii MODE` picks others, phy_cmd_rgmii).
 * Takes effect at the soft reset that configure() writes next.  A counter
 * already enabled at power-on (strap, FSBL) is kept; otherwise
 * PHY_DOWNSHIFT_ATTEMPTS.  After `phy downshift off|on N`
 * (phy_cmd_downshift) the enable bit and counter are what was asked, as
 * after `ethtool --set-phy-tunable eth0 downshift ...` on Linux. */
static int m88e1116r_config(struct phy *phy)
{
    uint16_t v;
    unsigned n = phy->downshift_req == PHY_DS_ON ? phy->downshift_req_attempts : PHY_DOWNSHIFT_ATTEMPTS;
    int err = rd(phy, MRVL_PSCR, &v);
    if (err)
        return err;
    v &= (uint16_t)~MRVL_PSCR_MDIX_MASK;
    v |= MRVL_PSCR_MDIX_AUTO;
    if (phy->downshift_req == PHY_DS_OFF) {
        v &= (uint16_t)~MRVL_PSCR_DOWNSHIFT_EN;
    } else if (phy->downshift_req == PHY_DS_ON || !(v & MRVL_PSCR_DOWNSHIFT_EN)) {
        v &= (uint16_t)~MRVL_PSCR_DOWNSHIFT_CNT_MASK;
        v |= (uint16_t)(((n - 1u) << MRVL_PSCR_DOWNSHIFT_CNT_SHIFT) | MRVL_PSCR_DOWNSHIFT_EN);
    }
    if ((err = wr(phy, MRVL_PSCR, v)) != 0)
        return err;
    phy->downshift_attempts = !(v & MRVL_PSCR_DOWNSHIFT_EN) ? 0 :
        (uint8_t)(((v & MRVL_PSCR_DOWNSHIFT_CNT_MASK) >> MRVL_PSCR_DOWNSHIFT_CNT_SHIFT) + 1u);
    if ((err = wr(phy, MRVL_PAGE, MRVL_MSCR2_PAGE)) != 0)
        return err;
    if ((err = rd(phy, MRVL_MSCR2, &v)) == 0)
        err = wr(phy, MRVL_MSCR2, (uint16_t)((v & ~(MRVL_MSCR2_RGMII_RX_DELAY | MRVL_MSCR2_RGMII_TX_DELAY)) |
                                             phy_rgmii_mscr_bits(phy->rgmii_req)));
    int err2 = wr(phy, MRVL_PAGE, 0);
    return err ? err : err2;
}

static const struct phy_driver *match_driver(uint32_t id)
{
    for (size_t i = 0; i < sizeof(phy_drivers) / sizeof(phy_drivers[0]); i++)
        if ((id & phy_drivers[i].mask) == phy_drivers[i].id)
            return &phy_drivers[i];
    return &phy_drivers[sizeof(phy_drivers) / sizeof(phy_drivers[0]) - 1];
}

/* PROBE: one address per pass.  Returns 0 (found), -EAGAIN (nothing at
 * this address, try the next), -ENODEV (scan complete, nothing found). */
static int probe(struct phy *phy)
{
    uint16_t id1, id2;
    int err;
    phy->addr = phy->fixed_addr >= 0 ? (uint8_t)phy->fixed_addr : phy->scan_addr;
    if ((err = rd(phy, MII_PHYSID1, &id1)) || (err = rd(phy, MII_PHYSID2, &id2)))
        return err;
    if (!((id1 == 0xFFFF && id2 == 0xFFFF) || (id1 == 0 && id2 == 0))) {
        phy->id = ((uint32_t)id1 << 16) | id2;
        phy->drv = match_driver(phy->id);
        phy->scan_addr = 0;
        return 0;
    }
    if (phy->fixed_addr >= 0 || phy->scan_addr == MDIO_ADDR_MAX) {
        phy->scan_addr = 0;
        return -ENODEV;
    }
    phy->scan_addr++;
    return -EAGAIN;
}

/* Write the advertisement or forced mode and reset the PHY to apply it. */
static int configure(struct phy *phy)
{
    int err;
    if (phy->drv->config && (err = phy->drv->config(phy)) != 0)
        return err;
    uint16_t bmcr = BMCR_RESET;
    uint16_t adv = ADVERTISE_CSMA | ADVERTISE_PAUSE_CAP | ADVERTISE_PAUSE_ASYM;
    uint16_t ctrl1000 = 0;
    if (!phy->forced) {
        /* what phy_cmd_advertise() chose; by default everything */
        phy_advertise_regs(phy->advertise, &adv, &ctrl1000);
        bmcr |= BMCR_ANENABLE | BMCR_ANRESTART;
    } else if (phy->forced_speed == 1000) {
        /* 1000BASE-T has no forced mode: advertise only the chosen mode. */
        ctrl1000 = phy->forced_full ? ADVERTISE_1000FULL : ADVERTISE_1000HALF;
        bmcr |= BMCR_ANENABLE | BMCR_ANRESTART;
    } else {
        bmcr |= (phy->forced_speed == 100 ? BMCR_SPEED_LSB : 0) |
                (phy->forced_full ? BMCR_FULLDPLX : 0);
    }
    if ((err = wr(phy, MII_ADVERTISE, adv)) != 0 ||
        (err = wr(phy, MII_CTRL1000, ctrl1000)) != 0 ||
        (err = wr(phy, MII_BMCR, bmcr)) != 0)
        return err;
    if (bmcr & BMCR_ANRESTART)
        phy->an_restarts++;
    return 0;
}

static bool autoneg_mode(const struct phy *phy)
{
    return !phy->forced || phy->forced_speed == 1000;
}

/* Resolve the link once the PHY says it is up.  Returns 0 (link filled),
 * -EAGAIN (not resolved yet) or an MDIO error. */
static int resolve(struct phy *phy, struct phy_link *l)
{
    int err;
    *l = (struct phy_link){ .up = true };
    if (phy->forced && phy->forced_speed != 1000) {
        l->speed_mbps = phy->forced_speed;
        l->full_duplex = phy->forced_full;
        l->autoneg = false;
        return 0;
    }
    uint16_t adv, lpa, c1000, s1000, ssr = 0;
    if ((err = rd(phy, MII_ADVERTISE, &adv)) || (err = rd(phy, MII_LPA, &lpa)) ||
        (err = rd(phy, MII_CTRL1000, &c1000)) || (err = rd(phy, MII_STAT1000, &s1000)))
        return err;
    struct phy_link std = { .up = true }, ven = { .up = true };
    int std_err = phy_resolve_std(adv, lpa, c1000, s1000, &std);
    int ven_err = -EAGAIN;
    if (phy->drv->flags & PHY_F_VENDOR_SSR) {
        if ((err = rd(phy, MRVL_PSSR, &ssr)) != 0)
            return err;
        ven_err = phy_resolve_mrvl_ssr(ssr, &ven);
    }
    if (phy->drv->flags & PHY_F_SSR_TRUSTED) {
        if (ven_err)
            return -EAGAIN;
        *l = ven;
    } else {
        if (std_err)
            return std_err == -ENOLINK ? -EAGAIN : std_err;
        *l = std;
        l->downshift = false;
    }
    l->up = true;
    l->autoneg = true;
    if (!ven_err && !std_err &&
        (ven.speed_mbps != std.speed_mbps || ven.full_duplex != std.full_duplex)) {
        phy->inconsistencies++;
        phy->inconsistent_ssr = ssr;
        emit(phy, PHY_EVENT_INCONSISTENT);
    }
    if (!(phy->drv->flags & PHY_F_DOWNSHIFT))
        l->downshift = false;
    return 0;
}

static void fail(struct phy *phy, int err, uint32_t now)
{
    phy->err = err;
    emit(phy, PHY_EVENT_ERROR);
    if (phy->link.up) {
        phy->link.up = false;
        phy->link_changes++;
        emit(phy, PHY_EVENT_LINK_DOWN);
    }
    enter(phy, PHY_STATE_PROBE, now, PHY_PROBE_RETRY_MS);
}

static void link_lost(struct phy *phy)
{
    if (phy->link.up) {
        phy->link.up = false;
        phy->link_changes++;
        emit(phy, PHY_EVENT_LINK_DOWN);
    }
}

/* One pass of the current state.  Returns 0 when the pass is over (state
 * and deadline updated), -EINPROGRESS when it waits for the bus, or an
 * error for the caller to handle.  Events are emitted only once the pass's
 * MDIO accesses have all completed, so a replayed pass never repeats them. */
static int pass(struct phy *phy, uint32_t now)
{
    uint16_t bmcr, bmsr;
    int err;

    if (phy->reconfigure && phy->state != PHY_STATE_PROBE) {
        if ((err = configure(phy)) != 0)
            return err;
        phy->reconfigure = false;
        link_lost(phy);
        enter(phy, PHY_STATE_RESET_WAIT, now, 0);
        return 0;
    }

    switch (phy->state) {
    case PHY_STATE_PROBE:
        err = probe(phy);
        if (err == -EAGAIN) {
            phy->deadline_ms = now;     /* next address on the next pass */
            return 0;
        }
        if (err == -ENODEV) {
            phy->err = err;
            emit(phy, PHY_EVENT_NOT_FOUND);
            enter(phy, PHY_STATE_PROBE, now, PHY_PROBE_RETRY_MS);
            return 0;
        }
        if (err)
            return err;
        emit(phy, PHY_EVENT_FOUND);
        phy->reconfigure = true;        /* configure on the next pass */
        phy->state = PHY_STATE_RESET_WAIT;
        phy->deadline_ms = now;
        return 0;

    case PHY_STATE_RESET_WAIT:
        if ((err = rd(phy, MII_BMCR, &bmcr)) != 0)
            return err;
        if (!(bmcr & BMCR_RESET))
            enter(phy, autoneg_mode(phy) ? PHY_STATE_AN_WAIT : PHY_STATE_LINK_WAIT, now, 0);
        else if (time_reached(now, phy->entered_ms + PHY_RESET_TIMEOUT_MS))
            return -ETIMEDOUT;
        else
            phy->deadline_ms = now + PHY_POLL_MS / 10;
        return 0;

    case PHY_STATE_AN_WAIT:
    case PHY_STATE_LINK_WAIT:
        /* First read returns the latched-low value; the second is current. */
        if ((err = rd(phy, MII_BMSR, &bmsr)) || (err = rd(phy, MII_BMSR, &bmsr)))
            return err;
        if ((bmsr & BMSR_LSTATUS) &&
            (phy->state == PHY_STATE_LINK_WAIT || (bmsr & BMSR_ANEGCOMPLETE))) {
            struct phy_link l;
            err = resolve(phy, &l);
            if (err == 0) {
                phy->link = l;
                phy->link_changes++;
                enter(phy, PHY_STATE_UP, now, PHY_POLL_MS);
                emit(phy, PHY_EVENT_LINK_UP);
                if (l.downshift)
                    emit(phy, PHY_EVENT_DOWNSHIFT);
                return 0;
            }
            if (err != -EAGAIN)
                return err;
        }
        if (phy->state == PHY_STATE_AN_WAIT &&
            time_reached(now, phy->entered_ms + PHY_AN_TIMEOUT_MS +
                                  phy->downshift_attempts * PHY_DOWNSHIFT_ATTEMPT_MS)) {
            /* No result: restart autoneg (the partner may have come back).
             * Not before a downshifting PHY has had time for all its
             * 1000BASE-T attempts: a restart resets its counter. */
            phy->reconfigure = true;
            phy->deadline_ms = now;
            return 0;
        }
        phy->deadline_ms = now + PHY_POLL_MS;
        return 0;

    case PHY_STATE_UP:
        if ((err = rd(phy, MII_BMSR, &bmsr)) != 0)
            return err;
        if (!(bmsr & BMSR_LSTATUS)) {
            link_lost(phy);
            enter(phy, autoneg_mode(phy) ? PHY_STATE_AN_WAIT : PHY_STATE_LINK_WAIT,
                  now, PHY_POLL_MS);
            return 0;
        }
        phy->deadline_ms = now + PHY_POLL_MS;
        return 0;

    default:
        /* Unreachable: every state is handled above. */
        enter(phy, PHY_STATE_PROBE, now, PHY_PROBE_RETRY_MS);
        return 0;
    }
}

uint32_t phy_step(struct phy *phy, uint32_t now)
{
    bool command = phy->reconfigure && phy->state != PHY_STATE_PROBE;
    if (!command && !time_reached(now, phy->deadline_ms))
        return phy->deadline_ms;

    phy->txn_pos = 0;
    int err = pass(phy, now);
    if (err == -EINPROGRESS) {
        phy->mdio_replays++;
        phy->deadline_ms = now;         /* come back on the next loop */
        return phy->deadline_ms;
    }
    log_clear(phy);
    if (err == -EPROTO)                 /* a command changed the path */
        phy->deadline_ms = now;
    else if (err)
        fail(phy, err, now);
    return phy->deadline_ms;
}
