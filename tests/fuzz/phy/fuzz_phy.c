/*
 * fuzz_phy.c - libFuzzer target: the PHY model under arbitrary sequences
 * of MDIO accesses, time steps and environment changes.
 *
 * Input: 16 bytes of parameters (any values, invalid ones included), then
 * 4-byte operations [op, arg, value lo, value hi].  The high nibble of op
 * advances time (monotonic: 0..14 x 2 ms, 15 = 100 ms); the low nibble picks
 * the operation.  After every operation the invariants of
 * tests/common/phy_check.h hold (the property test checks the same ones),
 * and every configuration call agrees with its validator: an invalid value
 * returns -EINVAL and leaves the model byte-for-byte unchanged.
 */
#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

#include "../../common/phy_check.h"
#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A partner from four bytes; invalid speeds, abilities and MS values are
 * produced on purpose. */
static void partner_from(struct fz *f, struct gl_phy_partner *pt)
{
    static const unsigned speeds[] = { 10, 100, 1000, 0, 10, 100, 7, 100 };
    uint8_t a = fz_u8(f);

    gl_phy_partner_default(pt);
    pt->autoneg = (a & 3u) != 0;            /* mostly negotiating */
    pt->forced_speed_mbps = speeds[(a >> 2) & 7u];
    pt->forced_full_duplex = a & 0x20u;
    pt->abilities = fz_u16(f);
    if (a & 0x40u) {
        pt->abilities &= GL_ABIL_ALL_MASK;  /* mostly valid */
    }
    pt->ms = (enum gl_phy_ms)(fz_u8(f) % (GL_MS__COUNT + 2));
}

static void check(struct gl_phy *phy, uint64_t now)
{
    char why[160];

    if (gl_test_phy_check(phy, now, why, sizeof(why)) != 0) {
        fz_fail("phy at %llu ns: %s", (unsigned long long)now, why);
    }
}

static void expect_config(int rc, int valid, const struct gl_phy *before,
                          const struct gl_phy *after, const char *what)
{
    if (valid) {
        if (rc != 0) {
            fz_fail("%s: valid value rejected (%d)", what, rc);
        }
    } else if (rc != -EINVAL) {
        fz_fail("%s: invalid value returned %d", what, rc);
    } else if (memcmp(before, after, sizeof(*before)) != 0) {
        fz_fail("%s: rejected value changed the model", what);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned hot_regs[] = {
        MII_BMCR, MII_BMSR, MII_ADVERTISE, MII_LPA, MII_CTRL1000,
        MII_STAT1000, M88E1116R_SSR, M88E1116R_IER, M88E1116R_ISR,
        M88E1116R_EXT_CR, M88E1116R_PAGE, MII_EXPANSION,
    };
    struct gl_phy_params p;
    struct gl_phy phy, before;
    struct gl_err err;
    struct fz f;
    uint64_t now = 0;

    fz_init(&f, data, size);
    gl_phy_params_default(&p);
    uint8_t b0 = fz_u8(&f), b1 = fz_u8(&f), b2 = fz_u8(&f);
    p.aneg_ns = (uint64_t)(b0 & 0x3Fu) * GL_NS_PER_MS;      /* 0 invalid */
    if (b0 & 0x40u) {
        p.aneg_ns += fz_u8(&f) * GL_NS_PER_US;               /* off-grid */
    }
    p.train_1000_ns = (uint64_t)(b1 & 0x3Fu) * GL_NS_PER_MS;
    if (b1 & 0x80u) {
        p.train_1000_ns = fz_u64(&f);                        /* anything */
        p.aneg_ns = GL_NS_PER_MS + (b0 & 0x3Fu);
    }
    p.phy_rev = b2 & 0x1Fu;                                  /* >15 invalid */
    p.cable = (enum gl_cable)((b2 >> 5) % (GL_CABLE__COUNT + 1));
    uint8_t b3 = fz_u8(&f);
    p.downshift_enable = b3 & 1u;
    p.downshift_attempts = b3 >> 4;                          /* 0, 9.. invalid */
    p.seed = fz_u8(&f);
    partner_from(&f, &p.partner);

    int valid = gl_phy_params_validate(&p, NULL) == 0;
    int rc = gl_phy_init(&phy, &p, &err);
    if (!valid) {
        struct gl_phy zero;
        memset(&zero, 0, sizeof(zero));
        zero.state = GL_PHY_ST_POWER_DOWN;
        zero.deadline = GL_NEVER;
        if (rc != -EINVAL || memcmp(&phy, &zero, sizeof(phy)) != 0 ||
            err.msg[0] == '\0') {
            fz_fail("init: invalid params gave %d / model not zeroed", rc);
        }
        return 0;
    }
    if (rc != 0) {
        fz_fail("init: valid params rejected: %s", err.msg);
    }
    check(&phy, now);

    while (!fz_empty(&f)) {
        uint8_t op = fz_u8(&f), a = fz_u8(&f);
        uint16_t v = fz_u16(&f);
        unsigned dt = op >> 4;

        now += dt == 15 ? 100u * GL_NS_PER_MS : (uint64_t)dt * 2u * GL_NS_PER_MS;
        switch (op & 0xFu) {
        case 0:
            gl_phy_read(&phy, a, now);               /* 32..255: no device */
            break;
        case 1:
            gl_phy_write(&phy, a, v, now);
            break;
        case 2:
            gl_phy_read(&phy, hot_regs[a % 12u], now);
            break;
        case 3:
            gl_phy_write(&phy, hot_regs[a % 12u], v, now);
            break;
        case 4:
            gl_phy_step(&phy, now);
            break;
        case 5: {
            struct gl_phy_partner pt;
            struct fz pf;
            uint8_t pb[4] = { a, (uint8_t)v, (uint8_t)(v >> 8), fz_u8(&f) };
            fz_init(&pf, pb, sizeof(pb));
            partner_from(&pf, &pt);
            int ok = gl_phy_partner_validate(&pt, NULL) == 0;
            memcpy(&before, &phy, sizeof(before));
            rc = gl_phy_set_partner(&phy, &pt, now, &err);
            expect_config(rc, ok, &before, &phy, "set_partner");
            break;
        }
        case 6: {
            enum gl_cable c = (enum gl_cable)(a % (GL_CABLE__COUNT + 2));
            memcpy(&before, &phy, sizeof(before));
            rc = gl_phy_set_cable(&phy, c, now, &err);
            expect_config(rc, (unsigned)c < GL_CABLE__COUNT, &before, &phy,
                          "set_cable");
            break;
        }
        case 7:
            gl_phy_set_link_forced_down(&phy, a & 1u, now);
            break;
        case 8:
            /* BMCR with the bits firmware actually toggles. */
            gl_phy_write(&phy, MII_BMCR, (uint16_t)(v & (BMCR_RESET |
                         BMCR_LOOPBACK | BMCR_SPEED_MASK | BMCR_ANENABLE |
                         BMCR_PDOWN | BMCR_ANRESTART | BMCR_FULLDPLX)), now);
            break;
        case 9:
            gl_phy_reset(&phy, now);
            break;
        case 10:
            /* Read-modify-write soft reset, as Linux genphy_soft_reset. */
            gl_phy_write(&phy, MII_BMCR, (uint16_t)(gl_phy_read(&phy,
                         MII_BMCR, now) | BMCR_RESET), now);
            break;
        case 11:
            (void)gl_phy_peek(&phy, a);
            (void)gl_phy_irq_pending(&phy);
            break;
        default:
            /* Jump straight to the next deadline (what a QEMU timer does),
             * if it is not too far: a long idle walks every retry round. */
            if (gl_phy_next_deadline(&phy) != GL_NEVER &&
                gl_phy_next_deadline(&phy) > now &&
                gl_phy_next_deadline(&phy) - now < GL_NS_PER_S) {
                now = gl_phy_next_deadline(&phy);
            }
            gl_phy_step(&phy, now);
            break;
        }
        check(&phy, now);
    }
    return 0;
}
