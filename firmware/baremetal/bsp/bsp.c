/* bsp.c - bring-up order, fault reporting and reboot. */
#include <stdio.h>
#include "bsp.h"
#include "board.h"
#include "zynq7000.h"

void uart_irq_enable(void);

/* Order matters: the MMU table must exist before caches are enabled, and the
 * GIC before any gic_enable().  Runs with IRQs masked (startup.S). */
void bsp_early_init(void)
{
    uart_init();
    mmu_init();
    cache_enable();
    l2_init();
    gic_init();
    timer_init();
    uart_irq_enable();
    irq_enable();
}

void bsp_reboot(void)
{
    irq_disable();
    dcache_flush_all();
    reg_write(SLCR_UNLOCK, SLCR_UNLOCK_KEY);
    reg_write(SLCR_PSS_RST_CTRL, SLCR_PSS_RST_SOFT);
    for (;;)
        __asm__ volatile("wfi");
}

/* Fault report straight to the UART (no printf: the heap or stack may be
 * the thing that broke). */
static void put_hex(uint32_t v)
{
    static const char hex[] = "0123456789abcdef";
    for (int s = 28; s >= 0; s -= 4)
        uart_putc(hex[(v >> s) & 0xF]);
}

static void put_str(const char *s)
{
    while (*s)
        uart_putc(*s++);
}

void bsp_fault(uint32_t kind, uint32_t pc, uint32_t spsr)
{
    static const char *const names[] = { "undef", "svc", "prefetch_abort", "data_abort" };
    uint32_t dfsr, dfar;
    __asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
    __asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
    put_str("\r\n@gemlab {\"v\":1,\"src\":\"baremetal\",\"type\":\"fault\",\"kind\":\"");
    put_str(kind < 4 ? names[kind] : "?");
    put_str("\",\"pc\":\"0x"); put_hex(pc);
    put_str("\",\"spsr\":\"0x"); put_hex(spsr);
    put_str("\",\"dfsr\":\"0x"); put_hex(dfsr);
    put_str("\",\"dfar\":\"0x"); put_hex(dfar);
    put_str("\"}\r\nFATAL: CPU exception, halted\r\n");
    for (;;)
        __asm__ volatile("wfi");
}
