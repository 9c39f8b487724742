/* mmu_cache.c - flat (VA == PA) section MMU, L1 and PL310 L2 caches, and
 * range maintenance for DMA.
 *
 * Section descriptor (ARMv7-A ARM B3.5.1, short descriptor format):
 *   [19:0]  type 0b10 | B[2] | C[3] | XN[4] | domain[8:5] | AP[11:10]
 *           | TEX[14:12] | AP2[15] | S[16] | nG[17]
 * Memory types used (TEX C B):
 *   normal write-back write-allocate  001 1 1  - DDR, OCM
 *   normal non-cacheable              001 0 0  - .dma_nc (GEM descriptors)
 *   normal inner WB-WA, outer NC      100 0 1  - .dma_buf (GEM frame buffers)
 *   shareable device                  000 0 1  - peripherals, PL AXI, QSPI
 * Unpopulated holes fault.  Non-shareable normal memory: we run on CPU0 only
 * with ACTLR.SMP clear.
 */
#include "bsp.h"
#include "board.h"
#include "zynq7000.h"

#define SECT_TYPE      0x2u
#define SECT_B         BIT(2)
#define SECT_C         BIT(3)
#define SECT_XN        BIT(4)
#define SECT_AP_RW     (0x3u << 10)
#define SECT_TEX(x)    ((uint32_t)(x) << 12)
#define SECT_NORMAL_WBWA  (SECT_TYPE | SECT_AP_RW | SECT_TEX(1) | SECT_C | SECT_B)
#define SECT_NORMAL_NC    (SECT_TYPE | SECT_AP_RW | SECT_TEX(1))
/* TEX[2] = 1: TEX[1:0] is the outer policy (00 non-cacheable), C:B the inner
 * one (01 write-back write-allocate): ARMv7-A ARM B3.8.2, "Memory region
 * attributes", TEX remap off.  Outer non-cacheable accesses bypass the
 * L2C-310 (ARM DDI 0246, L2C-310 TRM), so frame buffers need no L2
 * maintenance: on silicon that saves one L2C-310 register write per
 * 32-byte line per frame (48 for a 1536-byte buffer), and under QEMU 10.0,
 * which models the L2C-310's registers, 48 MMIO exits. */
#define SECT_NORMAL_IWB_ONC (SECT_TYPE | SECT_AP_RW | SECT_TEX(4) | SECT_B)
#define SECT_DEVICE       (SECT_TYPE | SECT_AP_RW | SECT_B | SECT_XN)
#define SECT_FAULT        0u
#define MiB            (1u << 20)

/* SCTLR bits (ARMv7-A B4.1.130) */
#define SCTLR_M        BIT(0)
#define SCTLR_C        BIT(2)
#define SCTLR_Z        BIT(11)
#define SCTLR_I        BIT(12)

#define L2_POLL_LIMIT  100000u

static uint32_t tt[4096] __attribute__((section(".mmu_tbl"), aligned(16384)));
static bool l2_on;

extern char __dma_nc_start[], __dma_nc_end[];
extern char __dma_buf_start[], __dma_buf_end[];

/* True when [a, end) lies in .dma_buf (outer non-cacheable). */
static bool outer_nc(uintptr_t a, uintptr_t end)
{
    return a >= (uintptr_t)__dma_buf_start && end <= (uintptr_t)__dma_buf_end;
}

static void map(uint32_t base, uint32_t end, uint32_t attr)
{
    for (uint32_t a = base; a < end && a >= base; a += MiB)
        tt[a >> 20] = (a & 0xFFF00000u) | attr;
}

void mmu_init(void)
{
    for (unsigned i = 0; i < 4096; i++)
        tt[i] = SECT_FAULT;
    map(ZYNQ_DDR_BASE, ZYNQ_DDR_BASE + BOARD_DDR_SIZE, SECT_NORMAL_WBWA);
    map((uint32_t)__dma_nc_start, (uint32_t)__dma_nc_end, SECT_NORMAL_NC);
    map((uint32_t)__dma_buf_start, (uint32_t)__dma_buf_end, SECT_NORMAL_IWB_ONC);
    map(ZYNQ_PL_AXI0_BASE, ZYNQ_PL_AXI_END, SECT_DEVICE);
    map(ZYNQ_IOP_BASE, ZYNQ_IOP_BASE + 3 * MiB, SECT_DEVICE);
    map(ZYNQ_SMC_BASE, 0xE6000000u, SECT_DEVICE);
    map(ZYNQ_SLCR_BASE, 0xF9000000u, SECT_DEVICE);
    map(ZYNQ_QSPI_LIN_BASE, 0xFE000000u, SECT_DEVICE);
    tt[ZYNQ_OCM_HIGH_BASE >> 20] = ZYNQ_OCM_HIGH_BASE | SECT_NORMAL_WBWA;

    dsb();
    __asm__ volatile(
        "mcr p15, 0, %0, c2, c0, 2\n"   /* TTBCR = 0: TTBR0 only */
        "mcr p15, 0, %1, c2, c0, 0\n"   /* TTBR0: walks non-cacheable */
        "mcr p15, 0, %2, c3, c0, 0\n"   /* DACR: all client */
        "mcr p15, 0, %0, c8, c7, 0\n"   /* TLBIALL */
        "dsb\n isb\n"
        :: "r"(0u), "r"((uint32_t)tt), "r"(0x55555555u) : "memory");
}

void cache_enable(void)
{
    uint32_t sctlr;
    __asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
    sctlr |= SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z;
    __asm__ volatile("mcr p15, 0, %0, c1, c0, 0\n isb" :: "r"(sctlr) : "memory");
}

static int l2_wait(uintptr_t reg, uint32_t mask)
{
    for (uint32_t i = 0; i < L2_POLL_LIMIT; i++)
        if (!(reg_read(reg) & mask))
            return 0;
    return -1;
}

static void l2_sync(void)
{
    reg_write(L2C_CACHE_SYNC, 0);
    (void)l2_wait(L2C_CACHE_SYNC, BIT(0));
}

void l2_init(void)
{
    if (reg_read(L2C_CTRL) & L2C_CTRL_ENABLE) {
        l2_on = true;           /* FSBL left it on: keep its setup, and */
        return;                 /* do its maintenance (bsp_reboot's flush) */
    }
    reg_write(SLCR_UNLOCK, SLCR_UNLOCK_KEY);
    reg_write(SLCR_L2C_RAM, SLCR_L2C_RAM_VALUE);
    reg_write(SLCR_LOCK, SLCR_LOCK_KEY);
    reg_write(L2C_TAG_RAM_CTRL, L2C_TAG_RAM_LATENCY);
    reg_write(L2C_DATA_RAM_CTRL, L2C_DATA_RAM_LATENCY);
    reg_write(L2C_AUX_CTRL, reg_read(L2C_AUX_CTRL) | L2C_AUX_EARLY_BRESP |
              L2C_AUX_IPREFETCH | L2C_AUX_DPREFETCH |
              L2C_AUX_SHARED_OVERRIDE | L2C_AUX_WAYSIZE_64K);
    reg_write(L2C_INV_WAY, L2C_ALL_WAYS);
    if (l2_wait(L2C_INV_WAY, L2C_ALL_WAYS) != 0)
        return;                 /* leave L2 off rather than enable garbage */
    l2_sync();
    reg_write(L2C_INT_CLEAR, L2C_INT_ALL);
    reg_write(L2C_CTRL, L2C_CTRL_ENABLE);
    dsb();
    /* A machine without the L2C-310 model reads 0 here: no L2 maintenance. */
    l2_on = (reg_read(L2C_CTRL) & L2C_CTRL_ENABLE) != 0;
}

/* Clean: L1 first (to the PoU/L2), then L2 to memory. */
void dcache_clean_range(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(CACHE_LINE - 1);
    uintptr_t end = (uintptr_t)p + n;
    for (uintptr_t l = a; l < end; l += CACHE_LINE)
        __asm__ volatile("mcr p15, 0, %0, c7, c10, 1" :: "r"(l) : "memory"); /* DCCMVAC */
    dsb();
    if (l2_on && !outer_nc(a, end)) {
        for (uintptr_t l = a; l < end; l += CACHE_LINE)
            reg_write(L2C_CLEAN_PA, l);
        l2_sync();
    }
}

/* Invalidate: L2 first, then L1, so L1 cannot refill stale data from L2.
 * Partial lines at either end are cleaned+invalidated so neighbouring data
 * is not lost (our DMA buffers are line aligned, so this is a safety net). */
void dcache_invalidate_range(const void *p, size_t n)
{
    uintptr_t start = (uintptr_t)p, end = start + n;
    uintptr_t a = start & ~(uintptr_t)(CACHE_LINE - 1);
    if (start & (CACHE_LINE - 1))
        dcache_clean_range((const void *)a, 1);
    if (end & (CACHE_LINE - 1))
        dcache_clean_range((const void *)(end & ~(uintptr_t)(CACHE_LINE - 1)), 1);
    if (l2_on && !outer_nc(a, end)) {
        for (uintptr_t l = a; l < end; l += CACHE_LINE)
            reg_write(L2C_INV_PA, l);
        l2_sync();
    }
    for (uintptr_t l = a; l < end; l += CACHE_LINE)
        __asm__ volatile("mcr p15, 0, %0, c7, c6, 1" :: "r"(l) : "memory"); /* DCIMVAC */
    dsb();
}

extern void l1_dcache_clean_invalidate_all(void);

void dcache_flush_all(void)
{
    l1_dcache_clean_invalidate_all();
    if (l2_on) {
        reg_write(L2C_CLEAN_INV_WAY, L2C_ALL_WAYS);
        (void)l2_wait(L2C_CLEAN_INV_WAY, L2C_ALL_WAYS);
        l2_sync();
    }
}
