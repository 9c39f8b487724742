/*
 * phy_internal.h - what the phy*.c files share and nothing else sees.
 *
 * phy_regs.c  register table and MDIO access (the hot path)
 * phy_aneg.c  the link state machine: autonegotiation, parallel detection,
 *             MASTER-SLAVE, downshift, loopback
 * phy.c       configuration, validation, environment, names and parsing
 */
#ifndef GEMLAB_PHY_INTERNAL_H
#define GEMLAB_PHY_INTERNAL_H

#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

/* Per-register flags of the access table. */
#define GL_REG_COR    0x01u  /* the whole register clears when read */
#define GL_REG_RETAIN 0x02u  /* keeps its value over a soft reset
                                (Marvell "Retain"); others reload reset */

/*
 * One row of the register table: everything the access function needs.
 * reset  power-on value (registers whose value is computed from the model
 *        state hold their link-down value here)
 * ro     bits a write cannot change
 * sc     self-clearing bits: they act when written 1 and read back 0
 * ll     latching-low status bits: a 0 sticks until read (22.2.4.2.13)
 * lh     latching-high status bits: a 1 sticks until read
 */
struct gl_phy_reg_desc {
    uint16_t reset;
    uint16_t ro;
    uint16_t sc;
    uint16_t ll;
    uint16_t lh;
    uint8_t flags;
};

/* The page-0 table, indexed by register number 0..31. */
extern const struct gl_phy_reg_desc gl_phy__regs[MII_NUM_REGS];

/* BMSR abilities of the 88E1116R (constant part of register 1). */
#define GL_PHY_BMSR_CAPS (BMSR_100FULL | BMSR_100HALF | BMSR_10FULL | \
                          BMSR_10HALF | BMSR_ESTATEN | BMSR_MFPS | \
                          BMSR_ANEGCAPABLE | BMSR_ERCAP)

/* phy_regs.c */
/* Load power-on values (hardware reset) into the register file. */
void gl_phy__regs_power_on(struct gl_phy *phy);
/* Soft reset: status registers reload, GL_REG_RETAIN registers keep. */
void gl_phy__regs_soft_reset(struct gl_phy *phy);
/* Set the real-time value of a status register; latches apply. */
void gl_phy__set_status(struct gl_phy *phy, unsigned reg, uint16_t live);
/* Latch event bits: the latching-high bits of a register (ANER, reg 10),
 * or any bit of a clear-on-read event register (reg 19). */
void gl_phy__latch(struct gl_phy *phy, unsigned reg, uint16_t bits);
/* BMSR's constant part for this PHY (no extended status on 10/100). */
uint16_t gl_phy__bmsr_caps(const struct gl_phy *phy);
/* Page 2 register 21 (MAC specific control: RGMII delays, bits 5/4). */
uint16_t gl_phy__mscr(const struct gl_phy *phy);
/* Recompute registers 1, 10 and 17 from the model state. */
void gl_phy__refresh(struct gl_phy *phy);

/* phy_aneg.c */
/* Start the link over at @t (after reset, restart request, configuration
 * change, cable or partner change). */
void gl_phy__restart(struct gl_phy *phy, uint64_t t);
/* Advertised abilities (GL_ABIL_*) of the current round: registers 4 and
 * 9 as they were when it began. */
uint32_t gl_phy__local_abilities(const struct gl_phy *phy);

/* Saturating addition of a duration to a time. */
static inline uint64_t gl_phy__after(uint64_t t, uint64_t d)
{
    return (t > GL_NEVER - 1 - d) ? GL_NEVER - 1 : t + d;
}

#endif /* GEMLAB_PHY_INTERNAL_H */
