/* zynq7000.h - Zynq-7000 PS memory map and the registers the BSP touches.
 *
 * Addresses and layouts: Zynq-7000 TRM UG585 (v1.13) chapter 4 (system
 * addresses), appendix B (register details); Cortex-A9 MPCore TRM r3p0 for the
 * private peripherals (SCU, GIC, timers) and the PL310 (L2C-310) TRM r3p2.
 * Only what the BSP uses is named here; the GEM has its own header.
 */
#ifndef ZYNQ7000_H
#define ZYNQ7000_H

#include <stdint.h>

#define BIT(n)              (1u << (n))

static inline uint32_t reg_read(uintptr_t a)  { return *(volatile uint32_t *)a; }
static inline void reg_write(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

/* ---- Address map (UG585 table 4-1) ---- */
#define ZYNQ_DDR_BASE        0x00000000u
#define ZYNQ_PL_AXI0_BASE    0x40000000u  /* M_AXI_GP0/GP1 .. 0xBFFFFFFF */
#define ZYNQ_PL_AXI_END      0xC0000000u
#define ZYNQ_IOP_BASE        0xE0000000u  /* I/O peripherals .. 0xE02FFFFF */
#define ZYNQ_SMC_BASE        0xE1000000u  /* static memory ctrl .. 0xE5FFFFFF */
#define ZYNQ_SLCR_BASE       0xF8000000u  /* SLCR, PS system, CPU private .. 0xF8FFFFFF */
#define ZYNQ_QSPI_LIN_BASE   0xFC000000u  /* QSPI linear .. 0xFDFFFFFF */
#define ZYNQ_OCM_HIGH_BASE   0xFFF00000u  /* OCM when mapped high (last MiB) */

#define ZYNQ_UART0_BASE      0xE0000000u
#define ZYNQ_UART1_BASE      0xE0001000u
#define ZYNQ_GEM0_BASE       0xE000B000u
#define ZYNQ_GEM1_BASE       0xE000C000u

/* ---- Interrupt IDs (UG585 table 7-3) ---- */
#define ZYNQ_IRQ_GLOBAL_TIMER   27u  /* PPI */
#define ZYNQ_IRQ_PRIV_TIMER     29u  /* PPI */
#define ZYNQ_IRQ_GEM0           54u
#define ZYNQ_IRQ_UART0          59u
#define ZYNQ_IRQ_GEM1           77u
#define ZYNQ_IRQ_UART1          82u
#define ZYNQ_IRQ_MAX            96u

/* ---- SLCR (UG585 B.28) ---- */
#define SLCR_LOCK               (ZYNQ_SLCR_BASE + 0x004u)
#define SLCR_LOCK_KEY           0x767Bu
#define SLCR_UNLOCK             (ZYNQ_SLCR_BASE + 0x008u)
#define SLCR_UNLOCK_KEY         0xDF0Du
/* GEMx_RCLK_CTRL: [4] SRCSEL (0 = MIO RX clock)  [0] CLKACT */
#define SLCR_GEM0_RCLK_CTRL     (ZYNQ_SLCR_BASE + 0x138u)
#define SLCR_GEM1_RCLK_CTRL     (ZYNQ_SLCR_BASE + 0x13Cu)
#define SLCR_GEM_RCLK_CLKACT    BIT(0)
/* GEMx_CLK_CTRL: [25:20] DIVISOR1  [13:8] DIVISOR0  [6:4] SRCSEL  [0] CLKACT
 * SRCSEL 0b0xx = IO PLL, 0b100 = ARM PLL, 0b110 = DDR PLL, 0b111 = EMIO. */
#define SLCR_GEM0_CLK_CTRL      (ZYNQ_SLCR_BASE + 0x140u)
#define SLCR_GEM1_CLK_CTRL      (ZYNQ_SLCR_BASE + 0x144u)
#define SLCR_GEM_CLK_CLKACT     BIT(0)
#define SLCR_GEM_CLK_SRCSEL_SHIFT 4
#define SLCR_GEM_CLK_SRCSEL_MASK  (0x7u << 4)
#define SLCR_GEM_CLK_SRCSEL_IOPLL 0u
#define SLCR_GEM_CLK_DIV0_SHIFT 8
#define SLCR_GEM_CLK_DIV0_MASK  (0x3Fu << 8)
#define SLCR_GEM_CLK_DIV1_SHIFT 20
#define SLCR_GEM_CLK_DIV1_MASK  (0x3Fu << 20)
/* PSS_RST_CTRL: [0] SOFT_RST - resets the whole PS */
#define SLCR_PSS_RST_CTRL       (ZYNQ_SLCR_BASE + 0x200u)
#define SLCR_PSS_RST_SOFT       BIT(0)
/* L2C RAM timing: UG585 sec. 3.4.10 requires 0x00020202 here before L2 use */
#define SLCR_L2C_RAM            (ZYNQ_SLCR_BASE + 0xA1Cu)
#define SLCR_L2C_RAM_VALUE      0x00020202u

/* ---- Cortex-A9 MPCore private region ---- */
#define MPCORE_BASE             0xF8F00000u
#define SCU_BASE                (MPCORE_BASE + 0x0000u)
#define GIC_CPU_BASE            (MPCORE_BASE + 0x0100u)
#define GTIMER_BASE             (MPCORE_BASE + 0x0200u)
#define PTIMER_BASE             (MPCORE_BASE + 0x0600u)
#define GIC_DIST_BASE           (MPCORE_BASE + 0x1000u)
#define L2C_BASE                (MPCORE_BASE + 0x2000u)

/* GIC (PL390 / GICv1 in the A9 MPCore TRM ch.3) */
#define GICD_CTLR               (GIC_DIST_BASE + 0x000u)  /* [0] enable */
#define GICD_ISENABLER(n)       (GIC_DIST_BASE + 0x100u + 4u * (n))
#define GICD_ICENABLER(n)       (GIC_DIST_BASE + 0x180u + 4u * (n))
#define GICD_ICPENDR(n)         (GIC_DIST_BASE + 0x280u + 4u * (n))
#define GICD_IPRIORITYR(id)     (GIC_DIST_BASE + 0x400u + (id))   /* byte */
#define GICD_ITARGETSR(id)      (GIC_DIST_BASE + 0x800u + (id))   /* byte */
#define GICC_CTLR               (GIC_CPU_BASE + 0x00u)    /* [0] enable */
#define GICC_PMR                (GIC_CPU_BASE + 0x04u)    /* priority mask */
#define GICC_IAR                (GIC_CPU_BASE + 0x0Cu)    /* [9:0] ID */
#define GICC_EOIR               (GIC_CPU_BASE + 0x10u)
#define GICC_IAR_ID_MASK        0x3FFu
#define GIC_SPURIOUS_ID         1023u

/* Global timer (A9 MPCore TRM 4.3): 64-bit up counter on PERIPHCLK */
#define GTIMER_COUNT_LO         (GTIMER_BASE + 0x00u)
#define GTIMER_COUNT_HI         (GTIMER_BASE + 0x04u)
#define GTIMER_CTRL             (GTIMER_BASE + 0x08u)     /* [0] timer enable */
#define GTIMER_CTRL_ENABLE      BIT(0)

/* Private timer (A9 MPCore TRM 4.1): 32-bit down counter on PERIPHCLK
 * CTRL: [15:8] prescaler  [2] IRQ enable  [1] auto reload  [0] enable */
#define PTIMER_LOAD             (PTIMER_BASE + 0x00u)
#define PTIMER_COUNTER          (PTIMER_BASE + 0x04u)
#define PTIMER_CTRL             (PTIMER_BASE + 0x08u)
#define PTIMER_ISR              (PTIMER_BASE + 0x0Cu)     /* [0] event, w1c */
#define PTIMER_CTRL_ENABLE      BIT(0)
#define PTIMER_CTRL_AUTORELOAD  BIT(1)
#define PTIMER_CTRL_IRQ         BIT(2)
#define PTIMER_ISR_EVENT        BIT(0)

/* PL310 L2 cache controller (L2C-310 TRM r3p2 ch.3) */
#define L2C_CTRL                (L2C_BASE + 0x100u)       /* [0] L2 enable */
#define L2C_AUX_CTRL            (L2C_BASE + 0x104u)
#define L2C_TAG_RAM_CTRL        (L2C_BASE + 0x108u)
#define L2C_DATA_RAM_CTRL       (L2C_BASE + 0x10Cu)
#define L2C_INT_CLEAR           (L2C_BASE + 0x220u)
#define L2C_CACHE_SYNC          (L2C_BASE + 0x730u)       /* [0] busy */
#define L2C_INV_PA              (L2C_BASE + 0x770u)
#define L2C_INV_WAY             (L2C_BASE + 0x77Cu)       /* one bit per way */
#define L2C_CLEAN_PA            (L2C_BASE + 0x7B0u)
#define L2C_CLEAN_INV_PA        (L2C_BASE + 0x7F0u)
#define L2C_CLEAN_INV_WAY       (L2C_BASE + 0x7FCu)
#define L2C_CTRL_ENABLE         BIT(0)
/* AUX_CTRL: [30] early BRESP  [29] I prefetch  [28] D prefetch
 *           [22] shared attribute override  [19:17] way size (011 = 64 KiB) */
#define L2C_AUX_EARLY_BRESP     BIT(30)
#define L2C_AUX_IPREFETCH       BIT(29)
#define L2C_AUX_DPREFETCH       BIT(28)
#define L2C_AUX_SHARED_OVERRIDE BIT(22)
#define L2C_AUX_WAYSIZE_64K     (3u << 17)
/* Latencies recommended by UG585 table 3-11: tag 1/1/1, data 1/2/1 (+1 each) */
#define L2C_TAG_RAM_LATENCY     0x111u
#define L2C_DATA_RAM_LATENCY    0x121u
#define L2C_ALL_WAYS            0xFFu
#define L2C_INT_ALL             0x1FFu

#define CACHE_LINE              32u
#endif /* ZYNQ7000_H */
