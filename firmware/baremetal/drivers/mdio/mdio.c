/* mdio.c - GEM PHY maintenance (UG585 sec. 16.3.4, phy_maint B.18).
 *
 * One frame takes 64 MDC cycles (~26 us at 2.5 MHz).  Completion is
 * net_status.phy_mgmt_idle going back to 1; read data is then in the low 16
 * bits of phy_maint.
 * Split transactions (mdio_begin/mdio_end) never wait.  The whole-transaction
 * calls poll with a bound of MDIO_TIMEOUT_US (plus an iteration cap in case
 * the timer is not running), pausing between reads.
 * The bound is generous: under emulation on a loaded 2-core host a timed
 * MDIO frame (gemlab's QEMU) was measured at 11-20 ms of wall time, because
 * QEMU's I/O thread that ends the frame waits for a CPU.
 * Stock QEMU: MDEN is ignored, NWSR always reads idle and the transfer is
 * instantaneous.
 */
#include <errno.h>
#include "mdio.h"
#include "gem_regs.h"
#include "bsp.h"

#define MDIO_TIMEOUT_US   50000u   /* silicon: 26 us; an emulator may be slow */
#define MDIO_SPIN_CAP     1000000u
#define MDIO_PAUSE_LOOPS  200u
#define MDC_MAX_HZ        2500000u

static uintptr_t base;
static uint32_t timeouts, max_wait_us;

/* The open split transaction. */
struct mdio_split {
    bool open;          /* begun, not yet collected by mdio_end() */
    bool done;          /* finished early by a whole transaction */
    bool write;
    uint16_t val;
    uint64_t t0_us;
};
static struct mdio_split split;

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
    split.open = false;
    uint32_t cfg = rd(GEM_NWCFG) & ~GEM_NWCFG_MDC_DIV_MASK;
    wr(GEM_NWCFG, cfg | ((uint32_t)sel << GEM_NWCFG_MDC_DIV_SHIFT));
    wr(GEM_NWCTRL, rd(GEM_NWCTRL) | GEM_NWCTRL_MGMT_PORT_EN);
    return 0;
}

static bool idle(void)
{
    return (rd(GEM_NWSR) & GEM_NWSR_MGMT_IDLE) != 0;
}

static void note_wait(uint64_t t0)
{
    uint32_t w = (uint32_t)(timer_now_us() - t0);
    if (w > max_wait_us)
        max_wait_us = w;
}

/* CPU-only pause between status reads: in QEMU every MMIO read takes the
 * big lock, and back-to-back reads starve the I/O thread. */
static void pause_short(void)
{
    for (volatile unsigned i = 0; i < MDIO_PAUSE_LOOPS; i++)
        ;
}

static int wait_idle(void)
{
    uint64_t t0 = timer_now_us();
    for (uint32_t i = 0; i < MDIO_SPIN_CAP; i++) {
        if (idle())
            return 0;
        if (timer_now_us() - t0 > MDIO_TIMEOUT_US)
            break;
        pause_short();
    }
    timeouts++;
    return -ETIMEDOUT;
}

static int check(uint8_t addr, uint8_t reg)
{
    if (!base)
        return -ENODEV;
    if (addr > MDIO_ADDR_MAX || reg > MDIO_REG_MAX)
        return -EINVAL;
    return 0;
}

static void start(uint8_t addr, uint8_t reg, bool write, uint16_t val)
{
    wr(GEM_PHYMNTNC, GEM_PHYMNTNC_CLAUSE22 | GEM_PHYMNTNC_MUST10 |
       (write ? GEM_PHYMNTNC_OP_WRITE : GEM_PHYMNTNC_OP_READ) |
       ((uint32_t)addr << GEM_PHYMNTNC_ADDR_SHIFT) |
       ((uint32_t)reg << GEM_PHYMNTNC_REG_SHIFT) | val);
}

int mdio_begin(uint8_t addr, uint8_t reg, bool write, uint16_t val)
{
    int err = check(addr, reg);
    if (err)
        return err;
    if (split.open || !idle())
        return -EBUSY;
    split = (struct mdio_split){ .open = true, .write = write, .val = val,
                             .t0_us = timer_now_us() };
    start(addr, reg, write, val);
    return 0;
}

int mdio_end(uint16_t *val)
{
    if (!split.open)
        return -EINVAL;
    if (!split.done) {
        if (!idle()) {
            if (timer_now_us() - split.t0_us > MDIO_TIMEOUT_US) {
                split.open = false;
                timeouts++;
                return -ETIMEDOUT;
            }
            return -EINPROGRESS;
        }
        note_wait(split.t0_us);
        if (!split.write)
            split.val = (uint16_t)(rd(GEM_PHYMNTNC) & GEM_PHYMNTNC_DATA_MASK);
    }
    split.open = false;
    *val = split.val;
    return 0;
}

/* A whole transaction.  An open split transaction is finished first and its
 * result kept, because ours would overwrite phy_maint. */
static int xfer(uint8_t addr, uint8_t reg, bool write, uint16_t wval, uint16_t *rval)
{
    int err = check(addr, reg);
    if (err)
        return err;
    if (split.open && !split.done) {
        if ((err = wait_idle()) != 0) {
            split.open = false;
            return err;
        }
        if (!split.write)
            split.val = (uint16_t)(rd(GEM_PHYMNTNC) & GEM_PHYMNTNC_DATA_MASK);
        split.done = true;
    } else if ((err = wait_idle()) != 0) {
        return err;
    }
    uint64_t t0 = timer_now_us();
    start(addr, reg, write, wval);
    if ((err = wait_idle()) != 0)
        return err;
    note_wait(t0);
    if (rval)
        *rval = (uint16_t)(rd(GEM_PHYMNTNC) & GEM_PHYMNTNC_DATA_MASK);
    return 0;
}

int mdio_read(uint8_t addr, uint8_t reg, uint16_t *val)
{
    return xfer(addr, reg, false, 0, val);
}

int mdio_write(uint8_t addr, uint8_t reg, uint16_t val)
{
    return xfer(addr, reg, true, val, 0);
}

uint32_t mdio_timeouts(void)
{
    return timeouts;
}

uint32_t mdio_max_wait_us(void)
{
    return max_wait_us;
}
