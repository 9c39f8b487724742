/* phy.h - clause 22 PHY management: a non-blocking link state machine.
 *
 * The main loop calls phy_step(now_ms) whenever it likes; the step never
 * waits and returns the time at which it next wants to run.  MDIO is used
 * through split transactions (mdio_begin/mdio_end): when a frame is still
 * on the bus the step returns "call me again now" and, next time, replays
 * the state's logic with the results collected so far (a per-pass
 * transaction log), so each state reads as straight-line code.  Commands (restart autoneg, force speed/duplex, reset)
 * only set a request; the next step acts on it.  Link changes and other
 * events are reported through the callback given to phy_init().
 *
 * Known limitations:
 *  - clause 22 only (no clause 45, no fibre/SGMII pages);
 *  - no PHY interrupt line is used (stock QEMU has none): link is polled;
 *  - pause is advertised but flow control is not programmed into the GEM.
 */
#ifndef PHY_H
#define PHY_H

#include <stdbool.h>
#include <stdint.h>

/* States and their exits (see phy.c for the details):
 *  PROBE       one address per pass.    -> RESET_WAIT (found; configured on the
 *                                          next pass) | PROBE (next address at
 *                                          once; after a full scan, retry 1 s)
 *  RESET_WAIT  BMCR.RESET set, waiting. -> AN_WAIT | LINK_WAIT (reset done)
 *                                       -> PROBE (timeout, MDIO error)
 *  AN_WAIT     autoneg running.         -> UP (link + AN complete + resolved)
 *                                       -> RESET_WAIT (no result in 5 s: restart)
 *  LINK_WAIT   forced mode, no link.    -> UP (link)
 *  UP          link up, polled.         -> AN_WAIT | LINK_WAIT (link lost)
 *  Any state   on a command             -> RESET_WAIT (reconfigure) */
enum phy_state {
    PHY_STATE_PROBE,
    PHY_STATE_RESET_WAIT,
    PHY_STATE_AN_WAIT,
    PHY_STATE_LINK_WAIT,
    PHY_STATE_UP,
    PHY_STATE_COUNT
};

enum phy_event {
    PHY_EVENT_FOUND,          /* PHY identified (addr, id, name valid) */
    PHY_EVENT_NOT_FOUND,      /* scan found nothing; retrying */
    PHY_EVENT_LINK_UP,        /* link valid */
    PHY_EVENT_LINK_DOWN,
    PHY_EVENT_INCONSISTENT,   /* vendor status disagrees with the std regs */
    PHY_EVENT_DOWNSHIFT,      /* PHY downshifted below the best common mode */
    PHY_EVENT_ERROR,          /* MDIO error or reset timeout (err valid) */
};

struct phy_link {
    bool up;
    uint16_t speed_mbps;      /* 10, 100, 1000 */
    bool full_duplex;
    bool autoneg;
    bool downshift;
};

struct phy;
typedef void (*phy_event_fn)(struct phy *phy, enum phy_event ev, void *ctx);

struct phy_driver {
    uint32_t id, mask;
    const char *name;
    unsigned flags;
    /* Vendor setup before the reset that applies it; 0 or negative errno. */
    int (*config)(struct phy *phy);
};
#define PHY_F_VENDOR_SSR   0x1u   /* has Marvell reg 17 resolution */
#define PHY_F_SSR_TRUSTED  0x2u   /* ... and it is the source of truth */
#define PHY_F_DOWNSHIFT    0x4u   /* reports downshift in reg 17 bit 5 */

/* One MDIO transaction of the current pass (see phy.c). */
struct phy_txn {
    uint8_t reg;
    bool write;
    bool done;
    uint16_t val;
};
#define PHY_TXN_MAX 16

struct phy {
    /* configuration */
    int fixed_addr;           /* < 0: scan 0..31 */
    phy_event_fn cb;
    void *ctx;
    /* identity */
    uint8_t addr;
    uint32_t id;
    const struct phy_driver *drv;
    /* state machine */
    enum phy_state state;
    uint32_t deadline_ms;     /* next step due */
    uint32_t entered_ms;      /* when the current state was entered */
    bool forced;              /* forced mode requested */
    uint16_t forced_speed;
    bool forced_full;
    uint16_t advertise;       /* PHY_ADV_* to advertise in autoneg mode;
                                 0 = everything we can (the default) */
    bool reconfigure;         /* command pending */
    uint8_t scan_addr;        /* PROBE: next address to try */
    uint8_t downshift_attempts; /* 1000BASE-T attempts before the PHY
                                   downshifts by itself; 0 = no downshift */
    uint8_t downshift_req;    /* PHY_DS_*: what `phy downshift` asked for */
    uint8_t downshift_req_attempts;
    uint8_t rgmii_req;        /* PHY_RGMII_*: what `phy rgmii` asked for */
    /* MDIO transaction log of the pass in progress */
    struct phy_txn txn[PHY_TXN_MAX];
    uint8_t txn_n, txn_pos;
    /* results */
    struct phy_link link;
    int err;                  /* last error (negative errno) */
    uint16_t inconsistent_ssr;/* the reg 17 value that disagreed */
    uint32_t link_changes, inconsistencies, mdio_errors, an_restarts;
    uint32_t mdio_replays;    /* passes that had to wait for the bus */
};

#define PHY_POLL_MS        100u
#define PHY_PROBE_RETRY_MS 1000u
#define PHY_RESET_TIMEOUT_MS 500u
#define PHY_AN_TIMEOUT_MS  5000u
/* With downshift enabled the PHY retries 1000BASE-T on its own (on a 2-pair
 * cable each failed attempt is a full FLP exchange plus training, ~2.5 s)
 * and only then links at 100.  Restarting autoneg meanwhile resets its
 * attempt counter, so the link never comes up: AN_WAIT waits
 * PHY_AN_TIMEOUT_MS + attempts * PHY_DOWNSHIFT_ATTEMPT_MS before restarting. */
#define PHY_DOWNSHIFT_ATTEMPT_MS 3000u
/* Counter written when the PHY came up with downshift disabled (a counter
 * already enabled by strap or by an earlier boot stage is kept). */
enum { PHY_DS_DEFAULT, PHY_DS_OFF, PHY_DS_ON };   /* phy.downshift_req */
/* phy.rgmii_req: the MAC-PHY interface mode, in the device tree's words
 * (ethernet-controller.yaml phy-mode); DEFAULT is rgmii-id (the ZC702 and
 * ZC706 route RGMII without PCB delay, so the PHY adds both). */
enum { PHY_RGMII_DEFAULT, PHY_RGMII, PHY_RGMII_ID, PHY_RGMII_RXID, PHY_RGMII_TXID, PHY_RGMII_COUNT };
#define PHY_DOWNSHIFT_ATTEMPTS_MAX 8u   /* 3-bit counter, n + 1 attempts */
#ifndef PHY_DOWNSHIFT_ATTEMPTS
#define PHY_DOWNSHIFT_ATTEMPTS 4u
#endif

void phy_init(struct phy *phy, int fixed_addr, phy_event_fn cb, void *ctx, uint32_t now_ms);
/* Run the state machine; returns the absolute time (ms) of the next step. */
uint32_t phy_step(struct phy *phy, uint32_t now_ms);
/* Commands: take effect at the next phy_step(). */
void phy_cmd_autoneg(struct phy *phy);            /* enable + restart autoneg */
int phy_cmd_force(struct phy *phy, unsigned speed_mbps, bool full_duplex); /* 0 / -EINVAL */
/* Downshift as the board's PHY driver is told to configure it (Linux:
 * `ethtool --set-phy-tunable eth0 downshift on count N|off`).  With
 * @restart the PHY is reconfigured and soft-reset at once (the bits take
 * effect at the next reset, as m88e1111_set_downshift() in Linux
 * drivers/net/phy/marvell.c does); without it they are written at the next
 * configure.  0 / -EINVAL (attempts outside 1..8) / -ENOTSUP (PHY without
 * downshift). */
int phy_cmd_downshift(struct phy *phy, bool enable, unsigned attempts, bool restart);
/* The RGMII clock delays the PHY adds, as Linux's marvell driver derives
 * them from phy-mode (m88e1121_config_aneg_rgmii_delays: rgmii none,
 * rgmii-id both, rgmii-rxid RX, rgmii-txid TX; page 2 register 21 bits
 * 5/4).  @mode is a PHY_RGMII_* value or a name (phy_rgmii_parse).  With
 * @restart the PHY is reconfigured and soft-reset at once (the bits take
 * effect at the reset); otherwise at the next configure.  0 / -EINVAL /
 * -ENOTSUP (a PHY without the register). */
int phy_cmd_rgmii(struct phy *phy, unsigned mode, bool restart);
/* "rgmii", "rgmii-id", "rgmii-rxid", "rgmii-txid" -> PHY_RGMII_*, or -1. */
int phy_rgmii_parse(const char *s);
const char *phy_rgmii_name(unsigned mode);
/* Page 2 register 21 delay bits (bit 5 RX, bit 4 TX) for @mode. */
uint16_t phy_rgmii_mscr_bits(unsigned mode);
/* Advertise only @modes (PHY_ADV_*; 0 = all) and restart autoneg, as
 * `ethtool -s eth0 advertise MASK` does.  -EINVAL when no speed is in it. */
int phy_cmd_advertise(struct phy *phy, unsigned modes);
const char *phy_state_name(enum phy_state st);

/* Our advertisement, in ethtool's ADVERTISED_* bit order (ethtool(8)
 * "advertise N": 0x001 10HD ... 0x020 1000FD, 0x2000 Pause, 0x4000 Asym). */
#define PHY_ADV_10HD       0x0001u
#define PHY_ADV_10FD       0x0002u
#define PHY_ADV_100HD      0x0004u
#define PHY_ADV_100FD      0x0008u
#define PHY_ADV_1000HD     0x0010u
#define PHY_ADV_1000FD     0x0020u
#define PHY_ADV_PAUSE      0x2000u
#define PHY_ADV_ASYM_PAUSE 0x4000u
#define PHY_ADV_SPEEDS     0x003Fu

/* Pure helpers (unit tested). */
/* "1000FD,100FD,100HD,10FD,10HD,PAUSE,ASYM_PAUSE" (any subset, any order,
 * case-insensitive; the scenario's [link] partner words) -> PHY_ADV_*.
 * Returns 0, or -EINVAL for an unknown word, an empty item, or no speed. */
int phy_parse_advertise(const char *list, unsigned *modes);
/* PHY_ADV_* -> ANAR (reg 4, 28.2.4.1.3) and 1000BASE-T control (reg 9,
 * 40.5.1.1) advertisement bits; the selector (IEEE 802.3) is always set. */
void phy_advertise_regs(unsigned modes, uint16_t *anar, uint16_t *ctrl1000);
/* Best common mode from ANAR/ANLPAR and 1000BASE-T ctrl/status; returns 0 or
 * -ENOLINK when the two sides share no mode. */
int phy_resolve_std(uint16_t adv, uint16_t lpa, uint16_t ctrl1000,
                    uint16_t stat1000, struct phy_link *out);
/* Marvell reg 17; returns 0, or -EAGAIN when not resolved yet. */
int phy_resolve_mrvl_ssr(uint16_t ssr, struct phy_link *out);

#endif
