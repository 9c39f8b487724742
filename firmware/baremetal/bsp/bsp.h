/* bsp.h - board support: init, time, interrupts, console, caches, clocks. */
#ifndef BSP_H
#define BSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- init (bsp.c) ---- */
void bsp_early_init(void);              /* called from startup.S before main */
void bsp_reboot(void) __attribute__((noreturn));
void bsp_fault(uint32_t kind, uint32_t pc, uint32_t spsr);

/* ---- time (timer.c): global timer, never wraps in practice (64 bit) ---- */
void timer_init(void);
uint64_t timer_ticks(void);             /* raw PERIPHCLK ticks */
uint64_t timer_now_us(void);
uint32_t timer_now_ms(void);            /* wraps after 49 days */
uint32_t timer_tick_count(void);        /* private-timer 1 kHz ticks */

/* ---- interrupts (gic.c) ---- */
typedef void (*irq_handler_t)(void *arg);
void gic_init(void);
/* Route an interrupt to CPU0 at `prio` (0 = highest) and enable it. */
void gic_enable(unsigned id, irq_handler_t fn, void *arg, uint8_t prio);
void gic_disable(unsigned id);
void irq_dispatch(void);                /* from startup.S */
static inline void irq_enable(void)  { __asm__ volatile("cpsie i" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cpsid i" ::: "memory"); }
static inline uint32_t irq_save(void)
{
    uint32_t cpsr;
    __asm__ volatile("mrs %0, cpsr\n cpsid i" : "=r"(cpsr) :: "memory");
    return cpsr;
}
static inline void irq_restore(uint32_t cpsr)
{
    __asm__ volatile("msr cpsr_c, %0" :: "r"(cpsr) : "memory");
}
/* Sleep until the next interrupt, unless `work_pending` says otherwise.
 * Safe against the check-then-sleep race (WFI wakes on a pending IRQ even
 * with CPSR.I set). */
void bsp_idle(bool (*work_pending)(void));

/* ---- console (uart.c) ---- */
void uart_init(void);
void uart_putc(char c);
void uart_write(const char *s, size_t n);
int uart_getc(void);                    /* -1 when nothing is buffered */
bool uart_rx_pending(void);
uint32_t uart_rx_overruns(void);
uint32_t uart_tx_drops(void);           /* characters dropped (console stuck) */

/* ---- caches (mmu_cache.c) ---- */
void mmu_init(void);
void l2_init(void);
void cache_enable(void);
/* DMA maintenance by address range (any alignment; whole lines touched). */
void dcache_clean_range(const void *p, size_t n);     /* before device reads  */
void dcache_invalidate_range(const void *p, size_t n);/* before CPU reads DMA */
void dcache_flush_all(void);

/* ---- clocks (slcr.c) ---- */
/* Program GEMx_CLK_CTRL for 1000/100/10 Mb/s (125/25/2.5 MHz TX clock).
 * Returns 0, or -EINVAL for an unsupported speed. */
int slcr_gem_set_clock(unsigned speed_mbps);
uint32_t slcr_gem_clock_hz(void);       /* what we last programmed */

static inline void dsb(void) { __asm__ volatile("dsb" ::: "memory"); }
static inline void dmb(void) { __asm__ volatile("dmb" ::: "memory"); }
static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }
#endif
