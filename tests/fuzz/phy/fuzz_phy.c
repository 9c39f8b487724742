/*
 * fuzz_phy.c - libFuzzer target for the PHY model.
 *
 * The input is a byte program: configuration from the first bytes, then
 * 4-byte operations (MDIO read/write, time step, partner/cable/forced-down
 * changes, including invalid values).  After every operation the same
 * invariants as tests/unit/phy_props are checked; a violation aborts.
 *
 * Build and run (not part of `make test`; no Makefile owns tests/fuzz yet):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Imodels/include \
 *     models/src/phy.c models/src/phy_aneg.c models/src/phy_regs.c \
 *     models/src/err.c models/src/prng.c tests/fuzz/phy/fuzz_phy.c \
 *     -o build/fuzz_phy && build/fuzz_phy -max_total_time=60
 */
#include "gemlab/m88e1116r.h"
#include "gemlab/mii.h"
#include "gemlab/phy.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void invariants(struct gl_phy *phy, uint64_t now)
{
    struct gl_phy_link l;
    uint16_t page = gl_phy_peek(phy, M88E1116R_PAGE);

    gl_phy_write(phy, M88E1116R_PAGE, 0, now);
    gl_phy_get_link(phy, &l);
    uint16_t ssr = gl_phy_peek(phy, M88E1116R_SSR);
    if (l.up != !!(ssr & M88E1116R_SSR_LINK)) {
        abort();
    }
    if (l.up && l.speed_mbps != 10 && l.speed_mbps != 100 &&
        l.speed_mbps != 1000) {
        abort();
    }
    if (l.up && !!(ssr & M88E1116R_SSR_DUPLEX) != l.full_duplex) {
        abort();
    }
    gl_phy_read(phy, MII_BMSR, now);
    if (!!(gl_phy_read(phy, MII_BMSR, now) & BMSR_LSTATUS) != l.up) {
        abort();
    }
    if (gl_phy_read(phy, MII_BMCR, now) & (BMCR_RESET | BMCR_ANRESTART)) {
        abort();
    }
    if (gl_phy_irq_pending(phy) != ((gl_phy_peek(phy, M88E1116R_ISR) &
                                     gl_phy_peek(phy, M88E1116R_IER)) != 0)) {
        abort();
    }
    uint64_t next = gl_phy_step(phy, now);
    if (next != GL_NEVER && next <= now) {
        abort();
    }
    gl_phy_write(phy, M88E1116R_PAGE, page, now);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gl_phy_params p;
    struct gl_phy phy;
    struct gl_err err;
    uint64_t now = 0;

    if (size < 8) {
        return 0;
    }
    gl_phy_params_default(&p);
    p.aneg_ns = (1 + (data[0] % 64)) * GL_NS_PER_MS;
    p.train_1000_ns = (data[1] % 64) * GL_NS_PER_MS;
    p.cable = (enum gl_cable)(data[2] % 4);          /* 3 is invalid */
    p.downshift_enable = data[3] & 1;
    p.downshift_attempts = data[3] >> 4;             /* 0, 9.. invalid */
    p.partner.abilities = (uint32_t)data[4] | ((uint32_t)data[5] << 8);
    p.partner.autoneg = data[6] & 1;
    p.partner.forced_speed_mbps = (data[6] & 2) ? 100 : 10;
    p.partner.ms = (enum gl_phy_ms)(data[7] % 5);
    p.seed = data[7];
    if (gl_phy_init(&phy, &p, &err) != 0) {
        if (gl_phy_step(&phy, GL_NEVER - 1) != GL_NEVER || phy.up) {
            abort();
        }
        return 0;
    }
    for (size_t i = 8; i + 4 <= size; i += 4) {
        uint8_t op = data[i], a = data[i + 1];
        uint16_t v = (uint16_t)(data[i + 2] | (data[i + 3] << 8));
        now += (uint64_t)(op >> 4) * GL_NS_PER_MS * 4;
        switch (op & 0x7) {
        case 0:
            gl_phy_read(&phy, a % 40, now);
            break;
        case 1:
            gl_phy_write(&phy, a % 40, v, now);
            break;
        case 2:
            gl_phy_step(&phy, now);
            break;
        case 3: {
            struct gl_phy_partner pt;
            gl_phy_partner_default(&pt);
            pt.autoneg = a & 1;
            pt.abilities = v;
            pt.forced_speed_mbps = (a & 2) ? 100 : (a & 4) ? 1000 : 10;
            pt.forced_full_duplex = a & 8;
            pt.ms = (enum gl_phy_ms)((a >> 4) % 5);
            gl_phy_set_partner(&phy, &pt, now, &err);
            break;
        }
        case 4:
            gl_phy_set_cable(&phy, (enum gl_cable)(a % 5), now, &err);
            break;
        case 5:
            gl_phy_set_link_forced_down(&phy, a & 1, now);
            break;
        case 6:
            gl_phy_write(&phy, MII_BMCR, v, now);
            break;
        default:
            gl_phy_reset(&phy, now);
            break;
        }
        invariants(&phy, now);
    }
    return 0;
}
