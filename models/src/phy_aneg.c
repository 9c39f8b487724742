/*
 * phy_aneg.c - the link state machine of the PHY model.
 *
 * One enum (enum gl_phy_state) and one step function.  Every state, what
 * it means and how it is left:
 *
 * POWER_DOWN   BMCR power down (22.2.4.1.5).  No link, no signal on the
 *              line.  Exit: a BMCR write clearing power down, or a soft or
 *              hardware reset -> gl_phy__restart().  No deadline.
 * NO_SIGNAL    No cable, or the line is forced down (QMP set_link off).
 *              Exit: gl_phy_set_cable()/gl_phy_set_link_forced_down()
 *              restoring the signal, a reset or a BMCR change -> restart.
 *              No deadline.
 * ANEG         Clause 28 FLP exchange, or parallel detection when the
 *              partner does not negotiate.  Deadline: entry + aneg_ns.
 *              At the deadline the partner's pages are in registers 5, 6
 *              and 10 and Annex 28B.3 picks the highest common technology:
 *              1000BASE-T -> MASTER-SLAVE resolution (40.5.2) -> TRAIN_1000,
 *                  or on a MASTER-SLAVE fault stay here: a manual clash
 *                  never resolves (no deadline), a seed tie retries;
 *              10/100 -> LINK_UP;
 *              nothing in common -> stay with no deadline (AN error).
 *              Parallel detection: the partner's forced speed, if we
 *              advertise it, -> LINK_UP at half duplex (28.2.3.1);
 *              otherwise stay with no deadline.
 *              Also left by any restart (BMCR, reset, cable, partner).
 * TRAIN_1000   Pages resolved 1000BASE-T; PMA training.  Deadline: entry
 *              + train_1000_ns.  4-pair cable -> LINK_UP.  2-pair cable ->
 *              the attempt fails (AN error); with register 16 downshift
 *              enabled and the attempt count reached, 1000BASE-T is
 *              dropped from our advertisement (downshift); either way ->
 *              ANEG for another round.
 * FORCED_WAIT  AN disabled, forced speed/duplex from BMCR.  Deadline:
 *              entry + aneg_ns, then LINK_UP if the partner can link at
 *              that speed (a negotiating partner parallel-detects it at
 *              half duplex), otherwise stay with no deadline.  Forced
 *              1000 Mb/s never links: 1000BASE-T needs autonegotiation.
 * LINK_UP      Link up.  No deadline.  Exit: any restart.
 * LOOPBACK     BMCR loopback: up at the BMCR speed and duplex at once, the
 *              line idle.  No deadline.  Exit: a BMCR change or reset.
 *
 * A restart (gl_phy__restart) drops the link and picks the first state
 * from BMCR, cable and forced-down: POWER_DOWN, LOOPBACK, NO_SIGNAL, ANEG
 * or FORCED_WAIT.
 *
 * Known limitations:
 *  - Next pages other than the implicit 1000BASE-T ones are not exchanged
 *    (register 8 stays 0); remote fault and the parallel detection fault
 *    are never raised.
 *  - Parallel detection requires our ANAR to advertise the detected speed
 *    (either duplex); real PHYs differ here.  ANLPAR then shows the
 *    detected technology's half-duplex bit so ANAR & ANLPAR resolves the
 *    same as register 17.
 *  - A 2-pair cable without downshift retries forever, one round per
 *    aneg_ns + train_1000_ns; stepping across a long idle time walks
 *    every round (bounded by aneg_ns >= 1 ms).
 */
#include "phy_internal.h"

#include <assert.h>

/* Annex 28B.3 priority resolution, highest first (the technologies this
 * model knows; 100BASE-T2 would sit between 1000HD and 100TX FD). */
static const struct {
    uint32_t abil;
    uint16_t speed_mbps;
    bool full_duplex;
} priority[] = {
    { GL_ABIL_1000FD, 1000, true },
    { GL_ABIL_1000HD, 1000, false },
    { GL_ABIL_100FD, 100, true },
    { GL_ABIL_100T4, 100, false },
    { GL_ABIL_100HD, 100, false },
    { GL_ABIL_10FD, 10, true },
    { GL_ABIL_10HD, 10, false },
};
#define PRIORITY_COUNT (sizeof(priority) / sizeof(priority[0]))
#define NO_HCD PRIORITY_COUNT

#define ABIL_1000 (GL_ABIL_1000HD | GL_ABIL_1000FD)

/* 40.5.2: seeds are 11 bits; a tie restarts with new seeds. */
#define MS_SEED_RANGE 2048u
#define MS_SEED_TRIES 7u

uint32_t gl_phy__local_abilities(const struct gl_phy *phy)
{
    uint16_t anar = phy->adv_anar;
    uint16_t c1000 = phy->adv_c1000;
    uint32_t a = 0;

    a |= (anar & ADVERTISE_10HALF) ? GL_ABIL_10HD : 0;
    a |= (anar & ADVERTISE_10FULL) ? GL_ABIL_10FD : 0;
    a |= (anar & ADVERTISE_100HALF) ? GL_ABIL_100HD : 0;
    a |= (anar & ADVERTISE_100FULL) ? GL_ABIL_100FD : 0;
    a |= (anar & ADVERTISE_PAUSE_CAP) ? GL_ABIL_PAUSE : 0;
    a |= (anar & ADVERTISE_PAUSE_ASYM) ? GL_ABIL_ASYM_PAUSE : 0;
    a |= (c1000 & CTRL1000_HALF) ? GL_ABIL_1000HD : 0;
    a |= (c1000 & CTRL1000_FULL) ? GL_ABIL_1000FD : 0;
    if (phy->p.max_speed_mbps < 1000) {
        a &= ~ABIL_1000;    /* a 10/100 PHY sends no 1000BASE-T pages */
    }
    return a;
}

/* The partner's base page as register 5 shows it (28.2.1.2). */
static uint16_t partner_base_page(uint32_t abil)
{
    uint16_t v = ADVERTISE_CSMA | LPA_LPACK;

    v |= (abil & GL_ABIL_10HD) ? LPA_10HALF : 0;
    v |= (abil & GL_ABIL_10FD) ? LPA_10FULL : 0;
    v |= (abil & GL_ABIL_100HD) ? LPA_100HALF : 0;
    v |= (abil & GL_ABIL_100FD) ? LPA_100FULL : 0;
    v |= (abil & GL_ABIL_100T4) ? LPA_100BASE4 : 0;
    v |= (abil & GL_ABIL_PAUSE) ? LPA_PAUSE_CAP : 0;
    v |= (abil & GL_ABIL_ASYM_PAUSE) ? LPA_PAUSE_ASYM : 0;
    /* 1000BASE-T abilities travel in next pages (40.5.1.2). */
    v |= (abil & ABIL_1000) ? LPA_NPAGE : 0;
    return v;
}

static unsigned highest_common(uint32_t common)
{
    for (unsigned i = 0; i < PRIORITY_COUNT; i++) {
        if (common & priority[i].abil) {
            return i;
        }
    }
    return NO_HCD;
}

/* Table 28B-3: PAUSE resolution; only meaningful in full duplex. */
static void resolve_pause(struct gl_phy *phy, uint32_t local, uint32_t lp)
{
    bool lp_pause = lp & GL_ABIL_PAUSE, lp_asym = lp & GL_ABIL_ASYM_PAUSE;
    bool l_pause = local & GL_ABIL_PAUSE, l_asym = local & GL_ABIL_ASYM_PAUSE;

    phy->tx_pause = phy->rx_pause = false;
    if (!phy->full_duplex) {
        return;
    }
    if (l_pause && lp_pause) {
        phy->tx_pause = phy->rx_pause = true;
    } else if (!l_pause && l_asym && lp_pause && lp_asym) {
        phy->tx_pause = true;
    } else if (l_pause && l_asym && !lp_pause && lp_asym) {
        phy->rx_pause = true;
    }
}

enum ms_result { MS_OK, MS_FAULT_MANUAL, MS_FAULT_SEED };

/* 40.5.2 MASTER-SLAVE resolution from register 9 and the partner. */
static enum ms_result resolve_ms(struct gl_phy *phy, bool *local_master)
{
    uint16_t c1000 = phy->regs[MII_CTRL1000];
    enum gl_phy_ms pms = phy->p.partner.ms;
    bool l_manual = c1000 & CTRL1000_MS_MANUAL;
    bool l_value = c1000 & CTRL1000_MS_MASTER;
    bool p_manual = pms == GL_MS_FORCE_MASTER || pms == GL_MS_FORCE_SLAVE;
    bool p_value = pms == GL_MS_FORCE_MASTER;

    if (l_manual && p_manual) {
        *local_master = l_value;
        return l_value == p_value ? MS_FAULT_MANUAL : MS_OK;
    }
    if (l_manual) {
        *local_master = l_value;
        return MS_OK;
    }
    if (p_manual) {
        *local_master = !p_value;
        return MS_OK;
    }
    bool l_multi = c1000 & CTRL1000_PORT_MULTI;
    bool p_multi = pms == GL_MS_PREFER_MASTER;
    if (l_multi != p_multi) {
        *local_master = l_multi;    /* a multiport device is MASTER */
        return MS_OK;
    }
    for (unsigned i = 0; i < MS_SEED_TRIES; i++) {
        uint64_t ls = gl_prng_below(&phy->prng, MS_SEED_RANGE);
        uint64_t ps = gl_prng_below(&phy->prng, MS_SEED_RANGE);
        if (ls != ps) {
            *local_master = ls > ps;
            return MS_OK;
        }
    }
    *local_master = false;
    return MS_FAULT_SEED;
}

static void enter(struct gl_phy *phy, enum gl_phy_state st, uint64_t t,
                  uint64_t deadline)
{
    phy->state = (uint8_t)st;
    phy->state_since = t;
    phy->deadline = deadline;
}

static void link_up(struct gl_phy *phy, uint16_t speed_mbps, bool full,
                    bool partner_up, bool partner_full, bool via_an)
{
    uint16_t ev = 0;

    phy->speed_mbps = speed_mbps;
    phy->full_duplex = full;
    phy->partner_up = partner_up;
    phy->partner_full_duplex = partner_full;
    if (!phy->up) {
        phy->up = true;
        phy->link_changes++;
        ev |= M88E1116R_INT_LINK;
    }
    if (via_an) {
        ev |= M88E1116R_INT_AN_COMPLETE;
    }
    if (speed_mbps != phy->last_speed_mbps) {
        ev |= M88E1116R_INT_SPEED;
    }
    if (full != phy->last_full_duplex) {
        ev |= M88E1116R_INT_DUPLEX;
    }
    phy->last_speed_mbps = speed_mbps;
    phy->last_full_duplex = full;
    gl_phy__latch(phy, M88E1116R_ISR, ev);
    gl_phy__refresh(phy);
}

static void link_down(struct gl_phy *phy)
{
    if (phy->up) {
        phy->up = false;
        phy->link_changes++;
        gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_LINK);
    }
    phy->partner_up = false;
    phy->partner_full_duplex = false;
    phy->speed_mbps = 0;
    phy->full_duplex = false;
    phy->master = false;
    phy->tx_pause = phy->rx_pause = false;
}

static void clear_partner_pages(struct gl_phy *phy)
{
    phy->lp_1000 = 0;
    phy->pages_rcvd = false;
    gl_phy__set_status(phy, MII_LPA, 0);
    gl_phy__set_status(phy, MII_EXPANSION, EXPANSION_ENABLENPAGE);
}

static void begin_aneg(struct gl_phy *phy, uint64_t t)
{
    /* 28.3.1 (arbitration, ABILITY DETECT): the round sends the
     * advertisement registers hold now; later writes wait for a restart */
    phy->adv_anar = phy->regs[MII_ADVERTISE];
    phy->adv_c1000 = phy->regs[MII_CTRL1000];
    phy->aneg_rounds++;
    phy->speed_mbps = 0;
    phy->master = false;
    phy->full_duplex = false;
    enter(phy, GL_PHY_ST_ANEG, t, gl_phy__after(t, phy->p.aneg_ns));
    gl_phy__refresh(phy);
}

static unsigned bmcr_speed_mbps(uint16_t bmcr)
{
    switch (bmcr & BMCR_SPEED_MASK) {
    case BMCR_SPEED_10:
        return 10;
    case BMCR_SPEED_100:
        return 100;
    default:
        /* 1000, and the reserved 11 which this model treats as 1000. */
        return 1000;
    }
}

void gl_phy__restart(struct gl_phy *phy, uint64_t t)
{
    uint16_t bmcr = phy->regs[MII_BMCR];

    link_down(phy);
    clear_partner_pages(phy);
    phy->attempts_1000 = 0;
    phy->downshifted = false;
    phy->ms_fault = 0;

    if (bmcr & BMCR_PDOWN) {
        enter(phy, GL_PHY_ST_POWER_DOWN, t, GL_NEVER);
    } else if (bmcr & BMCR_LOOPBACK) {
        bool full = bmcr & BMCR_FULLDPLX;
        enter(phy, GL_PHY_ST_LOOPBACK, t, GL_NEVER);
        /* the line link dropped (reg 19 and link_changes say so): BMSR's
         * latching-low link status must hold that drop too (22.2.4.2.13) */
        gl_phy__refresh(phy);
        link_up(phy, (uint16_t)bmcr_speed_mbps(bmcr), full, false, full,
                false);
    } else if (phy->p.cable == GL_CABLE_NONE || phy->forced_down) {
        enter(phy, GL_PHY_ST_NO_SIGNAL, t, GL_NEVER);
    } else if (bmcr & BMCR_ANENABLE) {
        begin_aneg(phy, t);
    } else {
        enter(phy, GL_PHY_ST_FORCED_WAIT, t,
              gl_phy__after(t, phy->p.aneg_ns));
    }
    gl_phy__refresh(phy);
}

/* We negotiate, the partner is forced: 28.2.3.1 parallel detection. */
static void parallel_detect(struct gl_phy *phy, uint64_t d)
{
    const struct gl_phy_partner *pt = &phy->p.partner;
    uint32_t local = gl_phy__local_abilities(phy);
    uint32_t want = pt->forced_speed_mbps == 100 ?
                    (GL_ABIL_100HD | GL_ABIL_100FD) :
                    (GL_ABIL_10HD | GL_ABIL_10FD);

    if (!(local & want)) {
        gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_AN_ERROR);
        enter(phy, GL_PHY_ST_ANEG, d, GL_NEVER);
        gl_phy__refresh(phy);
        return;
    }
    gl_phy__set_status(phy, MII_LPA, pt->forced_speed_mbps == 100 ?
                       LPA_100HALF : LPA_10HALF);
    gl_phy__set_status(phy, MII_EXPANSION, EXPANSION_ENABLENPAGE);
    enter(phy, GL_PHY_ST_LINK_UP, d, GL_NEVER);
    link_up(phy, (uint16_t)pt->forced_speed_mbps, false, true,
            pt->forced_full_duplex, true);
}

static void aneg_deadline(struct gl_phy *phy, uint64_t d)
{
    const struct gl_phy_partner *pt = &phy->p.partner;

    if (!pt->autoneg) {
        parallel_detect(phy, d);
        return;
    }

    /* The pages are exchanged: registers 5, 6 and 10 show the partner. */
    gl_phy__set_status(phy, MII_LPA, partner_base_page(pt->abilities));
    gl_phy__set_status(phy, MII_EXPANSION,
                       EXPANSION_ENABLENPAGE | EXPANSION_NWAY |
                       ((pt->abilities & ABIL_1000) ? EXPANSION_LPNPAGE : 0));
    gl_phy__latch(phy, MII_EXPANSION, EXPANSION_LCWP);
    /* A downshifted PHY leaves 1000BASE-T out of its pages, so no
     * 1000BASE-T message pages are exchanged (28.2.3.4: both ends must
     * set NP; 40.5.1.2) and register 10 shows no partner 1000 abilities.
     * A driver resolving from registers 4/5/9/10 (Linux
     * genphy_read_status, which the 88E1116R's entry in marvell.c uses)
     * then finds the speed register 17 shows. */
    phy->lp_1000 = phy->downshifted ? 0 :
                   (uint16_t)(((pt->abilities & GL_ABIL_1000FD) ?
                               STAT1000_LP_FULL : 0) |
                              ((pt->abilities & GL_ABIL_1000HD) ?
                               STAT1000_LP_HALF : 0));
    phy->pages_rcvd = true;
    gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_PAGE_RCVD);

    uint32_t local = gl_phy__local_abilities(phy);
    if (phy->downshifted) {
        local &= ~ABIL_1000;
    }
    unsigned hcd = highest_common(local & pt->abilities & GL_ABIL_TECH_MASK);
    if (hcd == NO_HCD) {
        gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_AN_ERROR);
        enter(phy, GL_PHY_ST_ANEG, d, GL_NEVER);
        gl_phy__refresh(phy);
        return;
    }

    phy->full_duplex = priority[hcd].full_duplex;
    resolve_pause(phy, local, pt->abilities);
    if (priority[hcd].speed_mbps == 1000) {
        bool master = false;
        enum ms_result r = resolve_ms(phy, &master);
        if (r != MS_OK) {
            phy->ms_fault = 1;
            phy->full_duplex = false;
            gl_phy__latch(phy, MII_STAT1000, STAT1000_MS_FAULT);
            gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_AN_ERROR);
            if (r == MS_FAULT_SEED) {
                begin_aneg(phy, d);
            } else {
                enter(phy, GL_PHY_ST_ANEG, d, GL_NEVER);
                gl_phy__refresh(phy);
            }
            return;
        }
        phy->master = master;
        phy->speed_mbps = 1000;
        enter(phy, GL_PHY_ST_TRAIN_1000, d,
              gl_phy__after(d, phy->p.train_1000_ns));
        gl_phy__refresh(phy);
        return;
    }
    enter(phy, GL_PHY_ST_LINK_UP, d, GL_NEVER);
    link_up(phy, priority[hcd].speed_mbps, priority[hcd].full_duplex, true,
            priority[hcd].full_duplex, true);
}

static void train_deadline(struct gl_phy *phy, uint64_t d)
{
    if (phy->p.cable == GL_CABLE_2PAIR) {
        uint16_t cscr = phy->regs[M88E1116R_CSCR];
        unsigned n = ((cscr & M88E1116R_CSCR_DS_COUNT_MASK) >>
                      M88E1116R_CSCR_DS_COUNT_SHIFT) + 1u;

        if (phy->attempts_1000 < UINT8_MAX) {
            phy->attempts_1000++;
        }
        gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_AN_ERROR);
        if ((cscr & M88E1116R_CSCR_DS_ENABLE) && phy->attempts_1000 >= n &&
            !phy->downshifted) {
            phy->downshifted = true;
            gl_phy__latch(phy, M88E1116R_ISR, M88E1116R_INT_DOWNSHIFT);
        }
        begin_aneg(phy, d);
        return;
    }
    bool full = phy->full_duplex;
    enter(phy, GL_PHY_ST_LINK_UP, d, GL_NEVER);
    link_up(phy, 1000, full, true, full, true);
}

/* AN disabled: the partner sees our forced speed. */
static void forced_deadline(struct gl_phy *phy, uint64_t d)
{
    const struct gl_phy_partner *pt = &phy->p.partner;
    uint16_t bmcr = phy->regs[MII_BMCR];
    unsigned speed = bmcr_speed_mbps(bmcr);
    bool ok, partner_full;

    if (speed == 1000) {
        ok = false;
        partner_full = false;
    } else if (pt->autoneg) {
        /* The partner parallel-detects us: half duplex (28.2.3.1). */
        uint32_t want = speed == 100 ? (GL_ABIL_100HD | GL_ABIL_100FD) :
                                       (GL_ABIL_10HD | GL_ABIL_10FD);
        ok = (pt->abilities & want) != 0;
        partner_full = false;
    } else {
        ok = pt->forced_speed_mbps == speed;
        partner_full = pt->forced_full_duplex;
    }
    if (!ok) {
        enter(phy, GL_PHY_ST_FORCED_WAIT, d, GL_NEVER);
        gl_phy__refresh(phy);
        return;
    }
    enter(phy, GL_PHY_ST_LINK_UP, d, GL_NEVER);
    link_up(phy, (uint16_t)speed, bmcr & BMCR_FULLDPLX, true, partner_full,
            false);
}

uint64_t gl_phy_step(struct gl_phy *phy, uint64_t now_ns)
{
    while (phy->deadline != GL_NEVER && phy->deadline <= now_ns) {
        uint64_t d = phy->deadline;

        switch ((enum gl_phy_state)phy->state) {
        case GL_PHY_ST_ANEG:
            aneg_deadline(phy, d);
            break;
        case GL_PHY_ST_TRAIN_1000:
            train_deadline(phy, d);
            break;
        case GL_PHY_ST_FORCED_WAIT:
            forced_deadline(phy, d);
            break;
        case GL_PHY_ST_POWER_DOWN:
        case GL_PHY_ST_NO_SIGNAL:
        case GL_PHY_ST_LINK_UP:
        case GL_PHY_ST_LOOPBACK:
            /* No timers in these states. */
            phy->deadline = GL_NEVER;
            break;
        default:
            assert(!"gl_phy: state out of range");
            phy->deadline = GL_NEVER;
            break;
        }
        if (d == GL_NEVER - 1 && phy->deadline == d) {
            /* saturated at the end of time (gl_phy__after): a retrying
             * state cannot move on; stop instead of spinning */
            break;
        }
    }
    return phy->deadline;
}

uint64_t gl_phy_next_deadline(const struct gl_phy *phy)
{
    return phy->deadline;
}
