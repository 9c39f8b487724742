/* gic.c - GIC distributor + CPU interface (Cortex-A9 MPCore TRM ch.3) and
 * the C side of the IRQ entry.  One handler per interrupt ID; no nesting. */
#include "bsp.h"
#include "zynq7000.h"

#define GIC_PRIO_MASK_ALL  0xF0u   /* accept priorities 0x00..0xE0 */

static struct {
    irq_handler_t fn;
    void *arg;
} handlers[ZYNQ_IRQ_MAX];
static uint32_t spurious;

void gic_init(void)
{
    reg_write(GICD_CTLR, 0);
    for (unsigned n = 0; n < ZYNQ_IRQ_MAX / 32; n++) {
        reg_write(GICD_ICENABLER(n), 0xFFFFFFFFu);
        reg_write(GICD_ICPENDR(n), 0xFFFFFFFFu);
    }
    reg_write(GICD_CTLR, 1);
    reg_write(GICC_PMR, GIC_PRIO_MASK_ALL);
    reg_write(GICC_CTLR, 1);
}

void gic_enable(unsigned id, irq_handler_t fn, void *arg, uint8_t prio)
{
    if (id >= ZYNQ_IRQ_MAX)
        return;
    handlers[id].fn = fn;
    handlers[id].arg = arg;
    *(volatile uint8_t *)GICD_IPRIORITYR(id) = prio;
    if (id >= 32)   /* SPIs: target CPU0; SGI/PPI targets are read-only */
        *(volatile uint8_t *)GICD_ITARGETSR(id) = 0x01;
    reg_write(GICD_ISENABLER(id / 32), BIT(id % 32));
}

void gic_disable(unsigned id)
{
    if (id < ZYNQ_IRQ_MAX)
        reg_write(GICD_ICENABLER(id / 32), BIT(id % 32));
}

void irq_dispatch(void)
{
    uint32_t iar = reg_read(GICC_IAR);
    uint32_t id = iar & GICC_IAR_ID_MASK;
    if (id == GIC_SPURIOUS_ID) {
        spurious++;
        return;
    }
    if (id < ZYNQ_IRQ_MAX && handlers[id].fn)
        handlers[id].fn(handlers[id].arg);
    reg_write(GICC_EOIR, iar);
}

void bsp_idle(bool (*work_pending)(void))
{
    irq_disable();
    if (!work_pending || !work_pending())
        __asm__ volatile("dsb\n wfi" ::: "memory");
    irq_enable();
}
