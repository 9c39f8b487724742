/* slcr.c - GEM reference clock per negotiated speed.
 *
 * RGMII needs a 125 / 25 / 2.5 MHz TX clock for 1000 / 100 / 10 Mb/s.  It is
 * IO PLL / DIVISOR0 / DIVISOR1 (GEMx_CLK_CTRL, UG585 B.28).  Required on
 * silicon after every speed change; QEMU stores the write and ignores it.
 */
#include <errno.h>
#include "bsp.h"
#include "board.h"
#include "zynq7000.h"

static uint32_t gem_clk_hz;

/* Smallest DIVISOR0 (<= 63) with DIVISOR1 (<= 63) giving exactly `hz`. */
static int find_divisors(uint32_t src_hz, uint32_t hz, uint32_t *d0, uint32_t *d1)
{
    for (uint32_t a = 1; a <= 63; a++) {
        for (uint32_t b = 1; b <= 63; b++) {
            if ((uint64_t)hz * a * b == src_hz) {
                *d0 = a;
                *d1 = b;
                return 0;
            }
        }
    }
    return -EINVAL;
}

int slcr_gem_set_clock(unsigned speed_mbps)
{
    uint32_t hz;
    switch (speed_mbps) {
    case 1000: hz = 125000000u; break;
    case 100:  hz = 25000000u;  break;
    case 10:   hz = 2500000u;   break;
    default:   return -EINVAL;
    }
    uint32_t d0, d1;
    if (find_divisors(BOARD_IOPLL_HZ, hz, &d0, &d1) != 0)
        return -EINVAL;
    uint32_t v = reg_read(BOARD_GEM_CLK_CTRL);
    v &= ~(SLCR_GEM_CLK_DIV0_MASK | SLCR_GEM_CLK_DIV1_MASK | SLCR_GEM_CLK_SRCSEL_MASK);
    v |= (d0 << SLCR_GEM_CLK_DIV0_SHIFT) | (d1 << SLCR_GEM_CLK_DIV1_SHIFT) |
         (SLCR_GEM_CLK_SRCSEL_IOPLL << SLCR_GEM_CLK_SRCSEL_SHIFT) | SLCR_GEM_CLK_CLKACT;
    reg_write(SLCR_UNLOCK, SLCR_UNLOCK_KEY);
    reg_write(BOARD_GEM_CLK_CTRL, v);
    reg_write(BOARD_GEM_RCLK_CTRL, SLCR_GEM_RCLK_CLKACT);  /* RX clock from MIO */
    reg_write(SLCR_LOCK, SLCR_LOCK_KEY);
    gem_clk_hz = hz;
    return 0;
}

uint32_t slcr_gem_clock_hz(void)
{
    return gem_clk_hz;
}
