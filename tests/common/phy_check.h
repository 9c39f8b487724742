/*
 * phy_check.h - PHY model invariants shared by the seeded property test
 * (tests/unit/phy_props) and the libFuzzer target (tests/fuzz/phy).
 *
 * gl_test_phy_check() looks at the PHY the way firmware would (page 0,
 * BMSR read twice) and restores the firmware's page afterwards.  It does
 * read registers, so latches re-arm and register 19 clears: call it from
 * a sequence that tolerates those side effects.  Invariants:
 *  - register 17 link/speed/duplex/resolved/pause/downshift agree with
 *    gl_phy_get_link(), and a link that is up has a legal speed;
 *  - BMSR read twice: the second read shows the live link state;
 *  - a link up through clause 28 (BMSR AN complete) runs a technology the
 *    partner's pages advertise: ANLPAR (reg 5) for 10/100, 1000BASE-T
 *    status (reg 10) for 1000; MASTER in reg 10 agrees with the link;
 *  - duplex_mismatch is exactly "both up with different duplex"; the
 *    partner is never up in loopback;
 *  - the self-clearing BMCR bits never read back as 1, PHYID is constant;
 *  - irq_pending is exactly (reg 19 & reg 18) != 0;
 *  - registers above 31 read 0xFFFF (read and peek);
 *  - gl_phy_step() returns GL_NEVER or a deadline after now.
 *
 * Header-only (static functions) so that neither test links the other.
 */
#ifndef GEMLAB_TESTS_PHY_CHECK_H
#define GEMLAB_TESTS_PHY_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

__attribute__((format(printf, 3, 4)))
static int gl_test_phy_fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;

    if (why && len) {
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Speed of a register 17 value whose resolved bit is set. */
static unsigned gl_test_ssr_speed(uint16_t ssr)
{
    switch (ssr & M88E1116R_SSR_SPEED_MASK) {
    case M88E1116R_SSR_SPEED_1000:
        return 1000;
    case M88E1116R_SSR_SPEED_100:
        return 100;
    case M88E1116R_SSR_SPEED_10:
        return 10;
    default:
        return 0;   /* reserved 11 */
    }
}

/* The resolved technology is one the partner's pages advertised. */
static bool gl_test_partner_has(uint16_t lpa, uint16_t stat1000,
                                unsigned speed, bool full)
{
    switch (speed) {
    case 1000:
        return stat1000 & (full ? STAT1000_LP_FULL : STAT1000_LP_HALF);
    case 100:
        return lpa & (full ? LPA_100FULL : (LPA_100HALF | LPA_100BASE4));
    case 10:
        return lpa & (full ? LPA_10FULL : LPA_10HALF);
    default:
        return false;
    }
}

/* Check every invariant above at @now.  Returns 0, or -1 with the first
 * broken invariant described in @why (@len bytes, may be 0). */
static int gl_test_phy_check(struct gl_phy *phy, uint64_t now, char *why,
                             size_t len)
{
    struct gl_phy_link l;
    uint16_t page = gl_phy_peek(phy, M88E1116R_PAGE);
    int rc = -1;

    /* Look at page 0 without disturbing the firmware's page afterwards. */
    gl_phy_write(phy, M88E1116R_PAGE, M88E1116R_PAGE_COPPER, now);
    gl_phy_get_link(phy, &l);
    uint16_t ssr = gl_phy_peek(phy, M88E1116R_SSR);
    if (l.up != !!(ssr & M88E1116R_SSR_LINK)) {
        gl_test_phy_fail(why, len, "reg 17 link %d vs link %d",
                         !!(ssr & M88E1116R_SSR_LINK), l.up);
        goto out;
    }
    if (l.up) {
        if (l.speed_mbps != 10 && l.speed_mbps != 100 &&
            l.speed_mbps != 1000) {
            gl_test_phy_fail(why, len, "speed %u", l.speed_mbps);
            goto out;
        }
        if (!(ssr & M88E1116R_SSR_RESOLVED) ||
            gl_test_ssr_speed(ssr) != l.speed_mbps ||
            !!(ssr & M88E1116R_SSR_DUPLEX) != l.full_duplex) {
            gl_test_phy_fail(why, len, "reg 17 0x%04x vs %u/%d", ssr,
                             l.speed_mbps, l.full_duplex);
            goto out;
        }
        if (!!(ssr & M88E1116R_SSR_TX_PAUSE) != l.tx_pause ||
            !!(ssr & M88E1116R_SSR_RX_PAUSE) != l.rx_pause ||
            !!(ssr & M88E1116R_SSR_DOWNSHIFT) != l.downshifted) {
            gl_test_phy_fail(why, len, "reg 17 0x%04x pause/downshift vs "
                             "%d/%d/%d", ssr, l.tx_pause, l.rx_pause,
                             l.downshifted);
            goto out;
        }
        if ((l.tx_pause || l.rx_pause) && !l.full_duplex) {
            gl_test_phy_fail(why, len, "pause resolved in half duplex");
            goto out;
        }
    }
    if (l.duplex_mismatch !=
        (l.up && l.partner_up && l.full_duplex != l.partner_full_duplex)) {
        gl_test_phy_fail(why, len, "duplex_mismatch inconsistent");
        goto out;
    }
    if (l.loopback && l.partner_up) {
        gl_test_phy_fail(why, len, "partner up in loopback");
        goto out;
    }
    /* Latching low: the first read may show an old drop, the second
     * shows the live state. */
    gl_phy_read(phy, MII_BMSR, now);
    uint16_t bmsr = gl_phy_read(phy, MII_BMSR, now);
    if (!!(bmsr & BMSR_LSTATUS) != l.up) {
        gl_test_phy_fail(why, len, "BMSR 0x%04x link disagrees with %d",
                         bmsr, l.up);
        goto out;
    }
    if ((bmsr & BMSR_ANEGCOMPLETE) && !l.up) {
        gl_test_phy_fail(why, len, "BMSR AN complete without link");
        goto out;
    }
    uint16_t stat1000 = gl_phy_peek(phy, MII_STAT1000);
    if (l.up && (bmsr & BMSR_ANEGCOMPLETE) &&
        !gl_test_partner_has(gl_phy_peek(phy, MII_LPA), stat1000,
                             l.speed_mbps, l.full_duplex)) {
        gl_test_phy_fail(why, len, "AN resolved %u/%d but ANLPAR 0x%04x "
                         "1000BT status 0x%04x do not advertise it",
                         l.speed_mbps, l.full_duplex,
                         gl_phy_peek(phy, MII_LPA), stat1000);
        goto out;
    }
    if (l.up && l.speed_mbps == 1000 &&
        !!(stat1000 & STAT1000_MS_MASTER) != l.master) {
        gl_test_phy_fail(why, len, "reg 10 MASTER 0x%04x vs master %d",
                         stat1000, l.master);
        goto out;
    }
    if (gl_phy_read(phy, MII_BMCR, now) & (BMCR_RESET | BMCR_ANRESTART)) {
        gl_test_phy_fail(why, len, "self-clearing bit reads 1");
        goto out;
    }
    if (gl_phy_read(phy, MII_PHYSID1, now) != M88E1116R_PHYSID1 ||
        (gl_phy_read(phy, MII_PHYSID2, now) & 0xFFF0u) != M88E1116R_PHYSID2) {
        gl_test_phy_fail(why, len, "PHYID changed");
        goto out;
    }
    static const unsigned beyond[] = { MII_NUM_REGS, 33u, 255u, 0xFFFFu,
                                       0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
        if (gl_phy_read(phy, beyond[i], now) != 0xFFFFu ||
            gl_phy_peek(phy, beyond[i]) != 0xFFFFu) {
            gl_test_phy_fail(why, len, "reg %u does not read 0xFFFF",
                             beyond[i]);
            goto out;
        }
    }
    bool want = (gl_phy_peek(phy, M88E1116R_ISR) &
                 gl_phy_peek(phy, M88E1116R_IER)) != 0;
    if (gl_phy_irq_pending(phy) != want) {
        gl_test_phy_fail(why, len, "irq_pending disagrees with reg 18/19");
        goto out;
    }
    uint64_t next = gl_phy_step(phy, now);
    if (next != GL_NEVER && next <= now) {
        gl_test_phy_fail(why, len, "deadline %llu not after now %llu",
                         (unsigned long long)next, (unsigned long long)now);
        goto out;
    }
    if (next != gl_phy_next_deadline(phy)) {
        gl_test_phy_fail(why, len, "next_deadline disagrees with step");
        goto out;
    }
    rc = 0;
out:
    gl_phy_write(phy, M88E1116R_PAGE, page, now);
    return rc;
}

#endif /* GEMLAB_TESTS_PHY_CHECK_H */
