/* mdio.c - GEM PHY maintenance (UG585 sec. 16.3.4, phy_maint B.18).
 *
 * One frame takes 64 MDC cycles (~26 us at 2.5 MHz).  We wait for
 * net_status.phy_mgmt_idle with a bounded poll (MDIO_TIMEOUT_US, plus an
 * iteration cap in case the timer is not running) and return -ETIMEDOUT.
 * This short spin is the only busy wait in the network path; the PHY state
 * machine spaces its MDIO accesses out in time.
 * Stock QEMU: MDEN is ignored, NWSR always reads idle and the transfer is
 * instantaneous, so the poll exits on the first read there.
 */
#include <errno.h>
#include <stdbool.h>
#include "mdio.h"
#include "gem_regs.h"
#include "bsp.h"

#define MDIO_TIMEOUT_US   1000u
#define MDIO_SPIN_CAP     200000u
#define MDC_MAX_HZ        2500000u

static uintptr_t base;
static uint32_t timeouts;

static const unsigned mdc_div_table[8] = { 8, 16, 32, 48, 64, 96, 128, 224 };

static inline uint32_t rd(uint32_t off) { return *(volatile uint32_t *)(base + off); }
static inline void wr(uint32_t off, uint32_t v) { *(volatile uint32_t *)(base + off) = v; }

int mdio_init(uintptr_t gem_base, uint32_t pclk_hz)
{
    unsigned sel;
    for (sel = 0; sel < 8; sel++)
        if (pclk_hz / mdc_div_table[sel] <= MDC_MAX_HZ)
            break;
    if (sel == 8 || gem_base == 0)
        return -EINVAL;
    base = gem_base;
    uint32_t cfg = rd(GEM_NWCFG) & ~GEM_NWCFG_MDC_DIV_MASK;
    wr(GEM_NWCFG, cfg | ((uint32_t)sel << GEM_NWCFG_MDC_DIV_SHIFT));
    wr(GEM_NWCTRL, rd(GEM_NWCTRL) | GEM_NWCTRL_MGMT_PORT_EN);
    return 0;
}

static int wait_idle(void)
{
    uint64_t t0 = timer_now_us();
    for (uint32_t i = 0; i < MDIO_SPIN_CAP; i++) {
        if (rd(GEM_NWSR) & GEM_NWSR_MGMT_IDLE)
            return 0;
        if (timer_now_us() - t0 > MDIO_TIMEOUT_US)
            break;
    }
    timeouts++;
    return -ETIMEDOUT;
}

static int xfer(uint32_t op, uint8_t addr, uint8_t reg, uint16_t wval, uint16_t *rval)
{
    if (!base)
        return -ENODEV;
    if (addr > MDIO_ADDR_MAX || reg > MDIO_REG_MAX)
        return -EINVAL;
    int err = wait_idle();
    if (err)
        return err;
    wr(GEM_PHYMNTNC, GEM_PHYMNTNC_CLAUSE22 | op | GEM_PHYMNTNC_MUST10 |
       ((uint32_t)addr << GEM_PHYMNTNC_ADDR_SHIFT) |
       ((uint32_t)reg << GEM_PHYMNTNC_REG_SHIFT) | wval);
    err = wait_idle();
    if (err)
        return err;
    if (rval)
        *rval = (uint16_t)(rd(GEM_PHYMNTNC) & GEM_PHYMNTNC_DATA_MASK);
    return 0;
}

int mdio_read(uint8_t addr, uint8_t reg, uint16_t *val)
{
    return xfer(GEM_PHYMNTNC_OP_READ, addr, reg, 0, val);
}

int mdio_write(uint8_t addr, uint8_t reg, uint16_t val)
{
    return xfer(GEM_PHYMNTNC_OP_WRITE, addr, reg, val, 0);
}

uint32_t mdio_timeouts(void)
{
    return timeouts;
}
