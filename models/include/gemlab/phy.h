/*
 * gemlab/phy.h - a Marvell 88E1116R copper PHY as a pure-C model.
 *
 * What it models: the IEEE 802.3 clause 22 register file (mii.h) with the
 * 88E1116R vendor registers (m88e1116r.h), table-driven access semantics
 * (read-only, self-clearing, latching-low/high, clear-on-read), clause 28
 * autonegotiation against a configurable link partner with Annex 28B
 * priority resolution, clause 40 1000BASE-T MASTER-SLAVE resolution,
 * parallel detection (the origin of duplex mismatch), a cable model
 * (none / 4-pair / 2-pair with Marvell downshift), externally forced link
 * down, PHY loopback and the interrupt registers.
 *
 * Time is an input: MDIO accesses, gl_phy_step() and the environment
 * calls take now_ns and first advance the state machine to that time;
 * gl_phy_peek() and gl_phy_get_link() report the state as of the last such
 * call.  Nothing blocks.  The host arms a timer for the deadline
 * gl_phy_step() returns.
 *
 * Firmware-visible behaviour worth knowing (details and the full list of
 * approximations open phy_regs.c and phy_aneg.c):
 *  - BMSR link status latches low: read it twice for the current state.
 *  - Register 19 clears on read; register 10 bit 15 and ANER bit 1 latch
 *    high until read.
 *  - Soft reset follows the Marvell convention: configuration registers
 *    (4, 7, 9, 16, 18, 20, 22) keep their values, status registers reload,
 *    BMCR keeps what was written with the reset bit (loopback excepted).
 *    Reset with a read-modify-write as Linux does; a bare 0x8000 selects
 *    forced 10 Mb/s half duplex, as on the real part.
 *  - ANAR/register 9 changes take effect at the next AN restart, even
 *    when written during a round (28.3.1: the link codeword is loaded as
 *    the round starts); BMCR AN-enable/loopback/power-down changes at
 *    once, speed/duplex only with AN off or in loopback (22.2.4.1.3).
 *
 * struct gl_phy is plain data (no pointers, no handles): QEMU may keep it
 * in device state and copy it.  sizeof(struct gl_phy) is 304 bytes on
 * x86-64 (tests/unit/phy checks it stays <= 320).
 *
 * Errors follow gemlab/err.h: configuration calls return 0 or -EINVAL and
 * fill an optional struct gl_err naming the field and its allowed range.
 * Register accesses never fail.
 */
#ifndef GEMLAB_PHY_H
#define GEMLAB_PHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gemlab/err.h"
#include "gemlab/prng.h"
#include "gemlab/time.h"

/* ---- Abilities (partner configuration and results) ----------------------
 * One bit per technology of Annex 28B.3's priority list that this model
 * knows, plus the two pause bits of the base page (28B.2 / Annex 31B).
 */
#define GL_ABIL_10HD        (1u << 0)
#define GL_ABIL_10FD        (1u << 1)
#define GL_ABIL_100HD       (1u << 2)
#define GL_ABIL_100FD       (1u << 3)
#define GL_ABIL_100T4       (1u << 4)   /* partner only: we are not T4 */
#define GL_ABIL_1000HD      (1u << 5)
#define GL_ABIL_1000FD      (1u << 6)
#define GL_ABIL_PAUSE       (1u << 8)   /* symmetric PAUSE */
#define GL_ABIL_ASYM_PAUSE  (1u << 9)   /* asymmetric PAUSE direction */
#define GL_ABIL_TECH_MASK   0x007Fu
#define GL_ABIL_PAUSE_MASK  (GL_ABIL_PAUSE | GL_ABIL_ASYM_PAUSE)
#define GL_ABIL_ALL_MASK    (GL_ABIL_TECH_MASK | GL_ABIL_PAUSE_MASK)
/* 10/100/1000 in both duplexes: a typical switch port. */
#define GL_ABIL_ALL_SPEEDS  (GL_ABIL_10HD | GL_ABIL_10FD | GL_ABIL_100HD | \
                             GL_ABIL_100FD | GL_ABIL_1000HD | GL_ABIL_1000FD)

/* ---- Cable ---------------------------------------------------------------
 * NONE: no partner signal at all.  4PAIR: a good category 5 cable.
 * 2PAIR: only pairs A and B wired (old 100BASE-TX cabling): autonegotiation
 * works, 1000BASE-T training never does (40.1.3 needs all four pairs).
 */
enum gl_cable {
    GL_CABLE_NONE = 0,
    GL_CABLE_4PAIR,
    GL_CABLE_2PAIR,
    GL_CABLE__COUNT
};

/* ---- 1000BASE-T MASTER-SLAVE preference of the partner (40.5.2) ---------
 * PREFER_SLAVE  automatic, single-port device (a NIC/DTE)
 * PREFER_MASTER automatic, multiport device (a switch)
 * FORCE_MASTER / FORCE_SLAVE  manual configuration (reg 9 bits 12:11)
 */
enum gl_phy_ms {
    GL_MS_PREFER_SLAVE = 0,
    GL_MS_PREFER_MASTER,
    GL_MS_FORCE_MASTER,
    GL_MS_FORCE_SLAVE,
    GL_MS__COUNT
};

/* The device at the other end of the cable. */
struct gl_phy_partner {
    bool autoneg;                /* true: clause 28 autonegotiation */
    uint32_t abilities;          /* GL_ABIL_* it advertises when autoneg */
    unsigned forced_speed_mbps;  /* !autoneg: 10 or 100 (1000BASE-T cannot
                                    be forced, 40.5.1) */
    bool forced_full_duplex;     /* !autoneg: its fixed duplex */
    enum gl_phy_ms ms;           /* 1000BASE-T MASTER-SLAVE config */
};

/* Configuration, validated once by gl_phy_init(). */
struct gl_phy_params {
    /* FLP exchange until the 10/100 link is up; also the parallel
     * detection and forced-mode link-up time.  Real: ~1.5 s.
     * Range [1 ms, 60 s]. */
    uint64_t aneg_ns;
    /* Additional 1000BASE-T PMA training after the pages resolved 1000.
     * Real 1000BASE-T link-up is aneg_ns + train_1000_ns, ~2.5 s.
     * Range [0, 60 s]. */
    uint64_t train_1000_ns;
    /* Revision nibble of PHYID2 (register 3 bits 3:0), [0, 15]. */
    unsigned phy_rev;
    /* Power-on value of register 16 downshift enable (bit 11) and of its
     * counter (bits 14:12 = attempts - 1); attempts in [1, 8]. */
    bool downshift_enable;
    unsigned downshift_attempts;
    /* Seed of the instance's PRNG (MASTER-SLAVE seeds, 40.5.2). */
    uint64_t seed;
    struct gl_phy_partner partner;
    enum gl_cable cable;
    /* The PHY's top speed: 1000, or 100 for a 10/100 PHY (no 1000BASE-T,
     * as the LAN8742A of the NUCLEO-H743ZI2 in docs/SOURCES.md, "a 100 Mb/s
     * MCU board"): BMSR bit 8 (extended
     * status, 22.2.4.2.16) reads 0, registers 9, 10 and 15 read 0 and
     * 1000BASE-T is never advertised or resolved. */
    unsigned max_speed_mbps;
    /* RGMII timing between the MAC and this PHY (RGMII v2.0 section 3.3:
     * at 1000 Mb/s the receiver needs its clock ~2 ns after the data, a
     * delay added by the PCB traces or by the PHY, page 2 register 21
     * bits 5/4).  false: not modelled (every frame crosses intact).
     * true: pcb_rx_delay / pcb_tx_delay say which delays the board's
     * traces provide (ZC702: neither, UG850), and a direction whose
     * delays do not add up to exactly one is reported skewed in
     * gl_phy_link. */
    bool rgmii_timing;
    bool pcb_rx_delay, pcb_tx_delay;
};

/* ---- State machine ----------------------------------------------------
 * See phy_aneg.c for every state's exits.
 */
enum gl_phy_state {
    GL_PHY_ST_POWER_DOWN = 0, /* BMCR power down: no link, no AN */
    GL_PHY_ST_NO_SIGNAL,      /* no cable, or link forced down externally */
    GL_PHY_ST_ANEG,           /* clause 28 FLP exchange (or parallel
                                 detection) in progress */
    GL_PHY_ST_TRAIN_1000,     /* pages resolved 1000BASE-T; PMA training */
    GL_PHY_ST_FORCED_WAIT,    /* AN disabled: waiting for link at the
                                 forced speed */
    GL_PHY_ST_LINK_UP,        /* link is up */
    GL_PHY_ST_LOOPBACK,       /* BMCR loopback: up at the forced speed */
    GL_PHY_ST__COUNT
};

/* The resolved link as the host (and the wire model) needs it. */
struct gl_phy_link {
    bool up;                   /* our link status */
    unsigned speed_mbps;       /* 10, 100, 1000 when up; 0 when down */
    bool full_duplex;          /* our duplex when up */
    bool partner_up;           /* the partner's link status (false in
                                  loopback: the line is idle) */
    bool partner_full_duplex;  /* the partner's duplex when partner_up */
    bool duplex_mismatch;      /* up && partner_up && duplexes differ */
    bool loopback;             /* BMCR loopback: frames loop in the PHY */
    bool downshifted;          /* link came up at a lower speed after
                                  failed 1000BASE-T attempts */
    bool master;               /* 1000BASE-T: we are MASTER */
    bool tx_pause, rx_pause;   /* 28B.3 / Table 28B-3 pause resolution */
    bool rgmii_rx_delay;       /* page 2 reg 21 bit 5: the PHY delays RXC */
    bool rgmii_tx_delay;       /* page 2 reg 21 bit 4: the PHY delays TXC */
    bool rgmii_rx_skewed;      /* rgmii_timing: PCB + PHY RX delays != 1 */
    bool rgmii_tx_skewed;      /* rgmii_timing: PCB + PHY TX delays != 1 */
    unsigned link_changes;     /* link up/down transitions since init */
    unsigned aneg_rounds;      /* autonegotiation rounds since init */
};

/* The model.  Plain data; fields are private to models/src/phy*.c. */
struct gl_phy {
    struct gl_phy_params p;     /* validated configuration */
    struct gl_prng prng;
    uint64_t deadline;          /* next step time or GL_NEVER */
    uint64_t state_since;       /* when the current state was entered */
    uint16_t regs[32];          /* page-0 registers as firmware reads them */
    uint16_t live[32];          /* real-time value of latching bits */
    uint16_t paged[2][6];       /* pages 2 and 3, registers 16..21 */
    uint8_t state;              /* enum gl_phy_state */
    uint8_t ms_fault;           /* MASTER-SLAVE fault in last resolution */
    bool up, full_duplex, partner_up, partner_full_duplex, master;
    bool tx_pause, rx_pause, downshifted, forced_down, pages_rcvd;
    uint16_t lp_1000;           /* partner's 1000BASE-T abilities as
                                   register 10 bits 11:10 */
    uint16_t adv_anar, adv_c1000; /* registers 4 and 9 as this round's
                                     pages carry them (its start) */
    uint16_t speed_mbps;        /* resolved speed, 0 when unresolved */
    uint16_t last_speed_mbps;   /* for speed/duplex-changed events */
    bool last_full_duplex;
    uint8_t attempts_1000;      /* failed 1000BASE-T trainings this round */
    uint32_t link_changes;
    uint32_t aneg_rounds;
};

/* ---- Configuration -------------------------------------------------------*/

/* Fill @p with realistic defaults: 1.5 s AN, +1.0 s 1000BASE-T training,
 * downshift disabled (4 attempts), seed 1, 4-pair cable, partner = an
 * autonegotiating switch port advertising 10/100/1000 HD+FD and preferring
 * MASTER; a 1000BASE-T PHY; RGMII timing not modelled. */
void gl_phy_params_default(struct gl_phy_params *p);
void gl_phy_partner_default(struct gl_phy_partner *partner);

/* Validate every field; 0 or -EINVAL with the field named in @err. */
int gl_phy_params_validate(const struct gl_phy_params *p, struct gl_err *err);
int gl_phy_partner_validate(const struct gl_phy_partner *partner,
                            struct gl_err *err);

/* Validate @p, then power the PHY on at time 0 (hardware reset: every
 * register at its power-on value, autonegotiation starts).  On error @phy
 * is left zeroed (state POWER_DOWN) and -EINVAL is returned. */
int gl_phy_init(struct gl_phy *phy, const struct gl_phy_params *p,
                struct gl_err *err);

/* Hardware reset at @now_ns (QEMU device reset): power-on register values
 * from the stored params; the partner and cable are kept. */
void gl_phy_reset(struct gl_phy *phy, uint64_t now_ns);

/* ---- MDIO register access (the hot path) ---------------------------------
 * @reg is the 5-bit register address 0..31; larger values read 0xFFFF
 * (no device) and writes are ignored.  Registers 16..21 follow the page in
 * register 22; pages other than 0, 2 and 3 read 0 and ignore writes. */

/* Read with side effects: latched bits re-arm, clear-on-read registers
 * clear.  Advances time to @now_ns first. */
uint16_t gl_phy_read(struct gl_phy *phy, unsigned reg, uint64_t now_ns);

/* The value gl_phy_read would return, without side effects and without
 * advancing time (debug, qom-get). */
uint16_t gl_phy_peek(const struct gl_phy *phy, unsigned reg);

/* Write: read-only bits keep their value, self-clearing bits act and read
 * back 0, side effects (reset, restart AN, loopback, power down, forced
 * speed/duplex change) take effect at @now_ns. */
void gl_phy_write(struct gl_phy *phy, unsigned reg, uint16_t val,
                  uint64_t now_ns);

/* ---- Time -----------------------------------------------------------------*/

/* Advance the state machine to @now_ns (every expired deadline is handled
 * at its own time, so the result does not depend on how often step is
 * called).  Returns the next deadline, or GL_NEVER. */
uint64_t gl_phy_step(struct gl_phy *phy, uint64_t now_ns);

/* The deadline step last reported, without advancing. */
uint64_t gl_phy_next_deadline(const struct gl_phy *phy);

/* ---- Environment (what happens at the other end) --------------------------*/

/* Replace the partner: the link drops and negotiation starts over at
 * @now_ns.  -EINVAL (model unchanged) if @partner is invalid. */
int gl_phy_set_partner(struct gl_phy *phy, const struct gl_phy_partner *partner,
                       uint64_t now_ns, struct gl_err *err);

/* Plug a different cable at @now_ns; the link drops and renegotiates. */
int gl_phy_set_cable(struct gl_phy *phy, enum gl_cable cable, uint64_t now_ns,
                     struct gl_err *err);

/* Force the line down (QMP set_link off, link flaps) or release it. */
void gl_phy_set_link_forced_down(struct gl_phy *phy, bool down,
                                 uint64_t now_ns);

/* ---- Observation ----------------------------------------------------------*/

void gl_phy_get_link(const struct gl_phy *phy, struct gl_phy_link *out);

/* True when an enabled interrupt (reg 18) is latched in reg 19: the level
 * of the PHY's INTn pin, active high here.  It can change on any read,
 * write, step or environment call, so a host re-evaluates it after each. */
bool gl_phy_irq_pending(const struct gl_phy *phy);

enum gl_phy_state gl_phy_state(const struct gl_phy *phy);
/* "power-down", "no-signal", "aneg", "train-1000", "forced-wait",
 * "link-up", "loopback"; "?" for a value outside the enum. */
const char *gl_phy_state_name(enum gl_phy_state st);
/* "none", "4pair", "2pair"; "?" otherwise. */
const char *gl_phy_cable_name(enum gl_cable cable);
/* "prefer-slave", "prefer-master", "master", "slave"; "?" otherwise. */
const char *gl_phy_ms_name(enum gl_phy_ms ms);

/* ---- Parsing (scenario files, QEMU properties) ----------------------------*/

/* Comma-separated, case-insensitive tokens: 10HD 10FD 100HD 100FD 100T4
 * 1000HD 1000FD PAUSE ASYM_PAUSE, or "none" for an empty set; spaces around
 * tokens are allowed.  A bad token gives -EINVAL naming it. */
int gl_phy_parse_abilities(const char *s, uint32_t *out, struct gl_err *err);
/* "none", "4pair", "2pair". */
int gl_phy_parse_cable(const char *s, enum gl_cable *out, struct gl_err *err);
/* "prefer-slave", "prefer-master", "master", "slave". */
int gl_phy_parse_ms(const char *s, enum gl_phy_ms *out, struct gl_err *err);

/* Format @abil as the tokens above into @buf (always NUL-terminated when
 * @len > 0).  Returns the length the full string needs, like snprintf. */
int gl_phy_format_abilities(uint32_t abil, char *buf, size_t len);

#endif /* GEMLAB_PHY_H */
