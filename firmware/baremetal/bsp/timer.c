/* timer.c - time base: the 64-bit global timer for timestamps (sys_now,
 * latency probes) and the private timer as a 1 kHz tick that wakes the
 * main loop from WFI.  Both run on PERIPHCLK (BOARD_PERIPH_CLK_HZ). */
#include "bsp.h"
#include "board.h"
#include "zynq7000.h"

#define TICK_HZ 1000u

static volatile uint32_t ticks;

static void ptimer_isr(void *arg)
{
    (void)arg;
    reg_write(PTIMER_ISR, PTIMER_ISR_EVENT);
    ticks++;
}

void timer_init(void)
{
    reg_write(GTIMER_CTRL, 0);
    reg_write(GTIMER_COUNT_LO, 0);
    reg_write(GTIMER_COUNT_HI, 0);
    reg_write(GTIMER_CTRL, GTIMER_CTRL_ENABLE);

    reg_write(PTIMER_CTRL, 0);
    reg_write(PTIMER_ISR, PTIMER_ISR_EVENT);
    reg_write(PTIMER_LOAD, BOARD_PERIPH_CLK_HZ / TICK_HZ - 1u);
    gic_enable(ZYNQ_IRQ_PRIV_TIMER, ptimer_isr, 0, 0xA0);
    reg_write(PTIMER_CTRL, PTIMER_CTRL_ENABLE | PTIMER_CTRL_AUTORELOAD | PTIMER_CTRL_IRQ);
}

/* Read hi, lo, hi until hi is stable (A9 MPCore TRM 4.4.1). */
uint64_t timer_ticks(void)
{
    uint32_t hi, lo, hi2;
    for (int i = 0; i < 4; i++) {
        hi = reg_read(GTIMER_COUNT_HI);
        lo = reg_read(GTIMER_COUNT_LO);
        hi2 = reg_read(GTIMER_COUNT_HI);
        if (hi == hi2)
            return ((uint64_t)hi << 32) | lo;
    }
    return (uint64_t)hi2 << 32;
}

/* @t ticks of BOARD_PERIPH_CLK_HZ in units of 1/@per_s seconds, exact:
 * 333333333 Hz (ZC702/ZC706, CPU_3x2x at a 667 MHz CPU) is not a whole
 * number of ticks per microsecond, and 333 per us ran the clock 0.1 %
 * fast.  A clock that divides evenly (QEMU's 100 MHz) keeps the one
 * division. */
static uint64_t ticks_to(uint64_t t, uint32_t per_s)
{
#if BOARD_PERIPH_CLK_HZ % 1000000u == 0
    return t / (BOARD_PERIPH_CLK_HZ / per_s);
#else
    return t / BOARD_PERIPH_CLK_HZ * per_s + t % BOARD_PERIPH_CLK_HZ * per_s / BOARD_PERIPH_CLK_HZ;
#endif
}

uint64_t timer_now_us(void)
{
    return ticks_to(timer_ticks(), 1000000u);
}

uint32_t timer_now_ms(void)
{
    return (uint32_t)ticks_to(timer_ticks(), 1000u);
}

uint32_t timer_tick_count(void)
{
    return ticks;
}
