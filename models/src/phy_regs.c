/*
 * phy_regs.c - the 88E1116R register file and MDIO access.
 *
 * One table (gl_phy__regs) says, per register, its power-on value and which
 * bits are read-only, self-clearing, latching low or latching high, whether
 * the register clears on read and whether it survives a soft reset.  One
 * read and one write function apply those rules; the switch in
 * gl_phy_write() is only for side effects.
 *
 * Latches: phy->live[] holds the real-time value of status registers and
 * phy->regs[] what the next read returns.  A latching-low bit that goes 0
 * stays 0 in regs[] until read (IEEE 802.3 22.2.4.2.13: "remain cleared
 * until it is read via the management interface"), a latching-high bit
 * that goes 1 stays 1 until read; a read re-arms both from live[].
 *
 * Known limitations:
 *  - Soft reset follows the Marvell "Retain"/"Update" convention: control
 *    registers (4, 7, 9, 16, 18, 20, 22 and the paged ones) keep their
 *    value, BMCR keeps the value written with the reset bit except
 *    loopback, status registers reload.  Firmware must therefore reset with
 *    a read-modify-write (as Linux genphy_soft_reset does); writing a bare
 *    0x8000 selects forced 10 Mb/s half duplex, as on the real part.
 *  - BMCR speed/duplex/AN-enable changes take effect immediately; the real
 *    part commits them only at the next soft reset (see marvell.c
 *    marvell_config_aneg).  Doing it immediately serves both driver styles.
 *  - Isolate, collision test, test modes, MMD (13/14), cable length,
 *    polarity, MDI-X status, error counters and energy detect are plain or
 *    constant bits without behaviour.
 *  - Pages 2 and 3 registers 16..21 are plain read/write storage (reset 0);
 *    other pages read 0 there and ignore writes.  Page 2 register 21's
 *    RGMII delay bits 5/4 act at once (gl_phy_link.rgmii_*), not at the
 *    next soft reset as on the real part; Linux and our firmware reset
 *    after writing them anyway (marvell.c m88e1116r_config_init).
 *  - A 10/100 PHY (max_speed_mbps 100) keeps the 88E1116R's identifier
 *    and vendor registers; only the 1000BASE-T registers go, and BMCR's
 *    speed bits never say 1000.
 */
#include "phy_internal.h"

#define RO_ALL 0xFFFFu

/* Registers that change meaning with the page in register 22. */
#define PAGED_FIRST 16u
#define PAGED_LAST  21u

const struct gl_phy_reg_desc gl_phy__regs[MII_NUM_REGS] = {
    /* BMCR: reserved 5:0 read 0; reset and restart AN self-clear.  Power-on
     * 0x1140: AN enabled, full duplex, speed bits 1000 (88E1111/116R). */
    [MII_BMCR] = {
        .reset = BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED_1000,
        .ro = BMCR_UNIDIR | 0x001Fu,
        .sc = BMCR_RESET | BMCR_ANRESTART,
    },
    [MII_BMSR] = {
        .reset = GL_PHY_BMSR_CAPS, .ro = RO_ALL,
        .ll = BMSR_LSTATUS, .lh = BMSR_RFAULT | BMSR_JCD,
    },
    [MII_PHYSID1] = { .reset = M88E1116R_PHYSID1, .ro = RO_ALL },
    /* The revision nibble comes from the params (gl_phy__regs_power_on). */
    [MII_PHYSID2] = { .reset = M88E1116R_PHYSID2, .ro = RO_ALL },
    /* ANAR: 10/100 HD+FD, IEEE selector; T4, the reserved bits and the
     * selector cannot be written. */
    [MII_ADVERTISE] = {
        .reset = ADVERTISE_ALL | ADVERTISE_CSMA,
        .ro = ADVERTISE_RESV | ADVERTISE_XNP | ADVERTISE_100BASE4 |
              ADVERTISE_SLCT_MASK,
        .flags = GL_REG_RETAIN,
    },
    [MII_LPA] = { .reset = 0, .ro = RO_ALL },
    /* ANER: we are next-page able (1000BASE-T needs next pages, 40.5.1.2). */
    [MII_EXPANSION] = {
        .reset = EXPANSION_ENABLENPAGE, .ro = RO_ALL,
        .lh = EXPANSION_LCWP | EXPANSION_MFAULTS,
    },
    /* Next page transmit: the null message page (Annex 28C.2). */
    [MII_NPAGE_TX] = {
        .reset = NPAGE_MSG | NPAGE_CODE_NULL,
        .ro = NPAGE_ACK | NPAGE_TOGGLE,
        .flags = GL_REG_RETAIN,
    },
    [MII_NPAGE_LP] = { .reset = 0, .ro = RO_ALL },
    /* 1000BASE-T control: advertise FD and HD, automatic MASTER-SLAVE,
     * single-port device. */
    [MII_CTRL1000] = {
        .reset = CTRL1000_FULL | CTRL1000_HALF, .ro = 0x00FFu,
        .flags = GL_REG_RETAIN,
    },
    [MII_STAT1000] = { .reset = 0, .ro = RO_ALL, .lh = STAT1000_MS_FAULT },
    [11] = { .ro = RO_ALL },
    [12] = { .ro = RO_ALL },
    [MII_MMD_CTRL] = { .ro = RO_ALL },
    [MII_MMD_DATA] = { .ro = RO_ALL },
    [MII_ESTATUS] = {
        .reset = ESTATUS_1000T_FULL | ESTATUS_1000T_HALF, .ro = RO_ALL,
    },
    /* Copper specific control: automatic MDI/MDI-X crossover; the
     * downshift bits come from the params (gl_phy__regs_power_on). */
    [M88E1116R_CSCR] = {
        .reset = M88E1116R_CSCR_AUTO_CROSS, .flags = GL_REG_RETAIN,
    },
    [M88E1116R_SSR] = { .reset = 0, .ro = RO_ALL },
    [M88E1116R_IER] = {
        .reset = 0, .ro = (uint16_t)~M88E1116R_INT_VALID_MASK,
        .flags = GL_REG_RETAIN,
    },
    /* Events are latched by gl_phy__latch() and cleared by the read. */
    [M88E1116R_ISR] = { .reset = 0, .ro = RO_ALL, .flags = GL_REG_COR },
    [M88E1116R_EXT_CR] = { .reset = 0, .flags = GL_REG_RETAIN },
    [M88E1116R_RX_ERR_CNT] = { .ro = RO_ALL },
    [M88E1116R_PAGE] = {
        .reset = M88E1116R_PAGE_COPPER, .ro = (uint16_t)~M88E1116R_PAGE_MASK,
        .flags = GL_REG_RETAIN,
    },
    [23] = { .ro = RO_ALL }, [24] = { .ro = RO_ALL }, [25] = { .ro = RO_ALL },
    [26] = { .ro = RO_ALL }, [27] = { .ro = RO_ALL }, [28] = { .ro = RO_ALL },
    [29] = { .ro = RO_ALL }, [30] = { .ro = RO_ALL }, [31] = { .ro = RO_ALL },
};

static uint16_t cscr_power_on(const struct gl_phy_params *p)
{
    uint16_t v = (uint16_t)(gl_phy__regs[M88E1116R_CSCR].reset |
                            (((p->downshift_attempts - 1u)
                              << M88E1116R_CSCR_DS_COUNT_SHIFT)
                             & M88E1116R_CSCR_DS_COUNT_MASK));
    if (p->downshift_enable) {
        v |= M88E1116R_CSCR_DS_ENABLE;
    }
    return v;
}

/* A 10/100 PHY (params.max_speed_mbps 100) has no 1000BASE-T control,
 * status or extended status register: they read 0, writes are ignored,
 * and BMSR bit 8 says so (22.2.4.2.16). */
static bool absent_reg(const struct gl_phy *phy, unsigned reg)
{
    return phy->p.max_speed_mbps < 1000 &&
           (reg == MII_CTRL1000 || reg == MII_STAT1000 || reg == MII_ESTATUS);
}

uint16_t gl_phy__bmsr_caps(const struct gl_phy *phy)
{
    return (uint16_t)(GL_PHY_BMSR_CAPS &
                      ~(phy->p.max_speed_mbps < 1000 ? BMSR_ESTATEN : 0u));
}

uint16_t gl_phy__mscr(const struct gl_phy *phy)
{
    return phy->paged[M88E1116R_PAGE_MSCR - M88E1116R_PAGE_MSCR]
                     [M88E1116R_MSCR - PAGED_FIRST];
}

static uint16_t power_on_value(const struct gl_phy *phy, unsigned reg)
{
    if (absent_reg(phy, reg)) {
        return 0;
    }
    switch (reg) {
    case MII_BMCR:
        /* 22.2.4.1.3: a 10/100 PHY shows a speed it has, its highest */
        return phy->p.max_speed_mbps < 1000
                   ? (uint16_t)((gl_phy__regs[reg].reset & ~BMCR_SPEED_MASK) | BMCR_SPEED_100)
                   : gl_phy__regs[reg].reset;
    case MII_BMSR:
        return gl_phy__bmsr_caps(phy);
    case MII_PHYSID2:
        return (uint16_t)(gl_phy__regs[reg].reset |
                          (phy->p.phy_rev & PHYSID2_REV_MASK));
    case M88E1116R_CSCR:
        return cscr_power_on(&phy->p);
    default:
        return gl_phy__regs[reg].reset;
    }
}

void gl_phy__regs_power_on(struct gl_phy *phy)
{
    for (unsigned r = 0; r < MII_NUM_REGS; r++) {
        phy->regs[r] = phy->live[r] = power_on_value(phy, r);
    }
    for (unsigned pg = 0; pg < 2; pg++) {
        for (unsigned i = 0; i <= PAGED_LAST - PAGED_FIRST; i++) {
            phy->paged[pg][i] = 0;
        }
    }
}

void gl_phy__regs_soft_reset(struct gl_phy *phy)
{
    for (unsigned r = 0; r < MII_NUM_REGS; r++) {
        if (r == MII_BMCR || (gl_phy__regs[r].flags & GL_REG_RETAIN)) {
            continue;
        }
        phy->regs[r] = phy->live[r] = power_on_value(phy, r);
    }
}

void gl_phy__set_status(struct gl_phy *phy, unsigned reg, uint16_t live)
{
    const struct gl_phy_reg_desc *d = &gl_phy__regs[reg];
    uint16_t shown = phy->regs[reg];
    uint16_t plain = (uint16_t)~(d->ll | d->lh);

    phy->regs[reg] = (uint16_t)((live & plain) |
                                (shown & live & d->ll) |
                                ((shown | live) & d->lh));
    phy->live[reg] = live;
}

void gl_phy__latch(struct gl_phy *phy, unsigned reg, uint16_t bits)
{
    const struct gl_phy_reg_desc *d = &gl_phy__regs[reg];
    uint16_t may = (d->flags & GL_REG_COR) ? 0xFFFFu : d->lh;

    phy->regs[reg] |= (uint16_t)(bits & may);
}

/* Register 17: always derived from the same fields as registers 0/1/10,
 * so it cannot disagree with them (stock QEMU's does). */
static uint16_t ssr_value(const struct gl_phy *phy)
{
    uint16_t v = 0;

    if (phy->speed_mbps) {
        v |= M88E1116R_SSR_RESOLVED;
        if (phy->speed_mbps == 1000) {
            v |= M88E1116R_SSR_SPEED_1000;
        } else if (phy->speed_mbps == 100) {
            v |= M88E1116R_SSR_SPEED_100;
        } else {
            v |= M88E1116R_SSR_SPEED_10;
        }
        if (phy->full_duplex) {
            v |= M88E1116R_SSR_DUPLEX;
        }
    }
    if (phy->pages_rcvd) {
        v |= M88E1116R_SSR_PAGE_RCVD;
    }
    if (phy->up) {
        v |= M88E1116R_SSR_LINK;
        if (phy->tx_pause) {
            v |= M88E1116R_SSR_TX_PAUSE;
        }
        if (phy->rx_pause) {
            v |= M88E1116R_SSR_RX_PAUSE;
        }
    }
    if (phy->downshifted) {
        v |= M88E1116R_SSR_DOWNSHIFT;
    }
    return v;
}

void gl_phy__refresh(struct gl_phy *phy)
{
    uint16_t bmsr = gl_phy__bmsr_caps(phy);
    uint16_t stat1000 = phy->lp_1000;

    if (phy->up) {
        bmsr |= BMSR_LSTATUS;
        /* AN complete only when the link came up through clause 28
         * (negotiation or parallel detection), 28.2.4.1.4 / 22.2.4.2.10. */
        if (phy->state == GL_PHY_ST_LINK_UP &&
            (phy->regs[MII_BMCR] & BMCR_ANENABLE)) {
            bmsr |= BMSR_ANEGCOMPLETE;
        }
    }
    if (phy->speed_mbps == 1000 && phy->master) {
        stat1000 |= STAT1000_MS_MASTER;
    }
    if (phy->up && phy->speed_mbps == 1000 && !phy->downshifted &&
        phy->state == GL_PHY_ST_LINK_UP) {
        stat1000 |= STAT1000_LRXOK | STAT1000_RRXOK;
    }
    gl_phy__set_status(phy, MII_BMSR, bmsr);
    gl_phy__set_status(phy, MII_STAT1000, stat1000);
    gl_phy__set_status(phy, M88E1116R_SSR, ssr_value(phy));
}

static unsigned current_page(const struct gl_phy *phy)
{
    return phy->regs[M88E1116R_PAGE] & M88E1116R_PAGE_MASK;
}

/* Storage for a paged register, or NULL when the page has none. */
static uint16_t *paged_slot(struct gl_phy *phy, unsigned page, unsigned reg)
{
    if (page == M88E1116R_PAGE_MSCR || page == M88E1116R_PAGE_LED) {
        return &phy->paged[page - M88E1116R_PAGE_MSCR][reg - PAGED_FIRST];
    }
    return NULL;
}

static bool is_paged_access(const struct gl_phy *phy, unsigned reg)
{
    return reg >= PAGED_FIRST && reg <= PAGED_LAST &&
           current_page(phy) != M88E1116R_PAGE_COPPER;
}

uint16_t gl_phy_peek(const struct gl_phy *phy, unsigned reg)
{
    if (reg >= MII_NUM_REGS) {
        return 0xFFFFu;
    }
    if (absent_reg(phy, reg)) {
        return 0;
    }
    if (is_paged_access(phy, reg)) {
        unsigned page = current_page(phy);
        if (page == M88E1116R_PAGE_MSCR || page == M88E1116R_PAGE_LED) {
            return phy->paged[page - M88E1116R_PAGE_MSCR][reg - PAGED_FIRST];
        }
        return 0;
    }
    return phy->regs[reg];
}

uint16_t gl_phy_read(struct gl_phy *phy, unsigned reg, uint64_t now_ns)
{
    if (reg >= MII_NUM_REGS) {
        return 0xFFFFu;
    }
    if (now_ns >= phy->deadline) {
        gl_phy_step(phy, now_ns);
    }
    if (absent_reg(phy, reg)) {
        return 0;
    }
    if (is_paged_access(phy, reg)) {
        uint16_t *slot = paged_slot(phy, current_page(phy), reg);
        return slot ? *slot : 0;
    }

    const struct gl_phy_reg_desc *d = &gl_phy__regs[reg];
    uint16_t v = phy->regs[reg];
    uint16_t latched = d->ll | d->lh;

    if (latched) {
        phy->regs[reg] = (uint16_t)((v & ~latched) |
                                    (phy->live[reg] & latched));
    }
    if (d->flags & GL_REG_COR) {
        phy->regs[reg] = 0;
    }
    return v;
}

static void bmcr_written(struct gl_phy *phy, uint16_t old, uint16_t val,
                         uint64_t now_ns)
{
    uint16_t now_bmcr = phy->regs[MII_BMCR];
    uint16_t restart_bits = BMCR_ANENABLE | BMCR_LOOPBACK | BMCR_PDOWN;

    /* 22.2.4.1.3, 22.2.4.1.8: with AN enabled the speed and duplex bits
     * have no effect on the link (loopback does run at them). */
    if (!(old & now_bmcr & BMCR_ANENABLE) || (now_bmcr & BMCR_LOOPBACK)) {
        restart_bits |= BMCR_SPEED_MASK | BMCR_FULLDPLX;
    }

    if (val & BMCR_RESET) {
        /* Loopback does not survive a soft reset (88E1111: SWRst = 0). */
        phy->regs[MII_BMCR] = (uint16_t)(now_bmcr & ~BMCR_LOOPBACK);
        phy->live[MII_BMCR] = phy->regs[MII_BMCR];
        gl_phy__regs_soft_reset(phy);
        gl_phy__restart(phy, now_ns);
        /* The reset itself is not an event: register 19 reads clear. */
        phy->regs[M88E1116R_ISR] = phy->live[M88E1116R_ISR] = 0;
    } else if ((old ^ now_bmcr) & restart_bits) {
        gl_phy__restart(phy, now_ns);
    } else if ((val & BMCR_ANRESTART) && (now_bmcr & BMCR_ANENABLE)) {
        /* 22.2.4.1.7: restart has no effect while AN is disabled. */
        gl_phy__restart(phy, now_ns);
    }
}

void gl_phy_write(struct gl_phy *phy, unsigned reg, uint16_t val,
                  uint64_t now_ns)
{
    if (reg >= MII_NUM_REGS) {
        return;
    }
    if (now_ns >= phy->deadline) {
        gl_phy_step(phy, now_ns);
    }
    if (absent_reg(phy, reg)) {
        return;
    }
    if (is_paged_access(phy, reg)) {
        uint16_t *slot = paged_slot(phy, current_page(phy), reg);
        if (slot) {
            *slot = val;
        }
        return;
    }

    const struct gl_phy_reg_desc *d = &gl_phy__regs[reg];
    uint16_t old = phy->regs[reg];
    uint16_t nv = (uint16_t)((old & d->ro) | (val & ~d->ro));

    /* 22.2.4.1.3: a 10/100 PHY ignores a write of a speed it does not
     * have (1000, or the reserved 11): the speed bits keep their value */
    if (reg == MII_BMCR && phy->p.max_speed_mbps < 1000 && (nv & BMCR_SPEED_MSB)) {
        nv = (uint16_t)((nv & ~BMCR_SPEED_MASK) | (old & BMCR_SPEED_MASK));
    }

    phy->regs[reg] = (uint16_t)(nv & ~d->sc);
    if (d->ro != RO_ALL) {
        phy->live[reg] = phy->regs[reg];
    }

    /* Side effects only; the table did the bit semantics. */
    switch (reg) {
    case MII_BMCR:
        bmcr_written(phy, old, val, now_ns);
        break;
    default:
        /* ANAR and 1000BASE-T control take effect at the next
         * negotiation (28.2.4.1.3); register 16's downshift bits at the
         * next 1000BASE-T attempt. */
        break;
    }
}

bool gl_phy_irq_pending(const struct gl_phy *phy)
{
    return (phy->regs[M88E1116R_ISR] & phy->regs[M88E1116R_IER]) != 0;
}
