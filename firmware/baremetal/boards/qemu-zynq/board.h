/* board.h - qemu-zynq: Debian's stock `qemu-system-arm -M xilinx-zynq-a9`
 * (and gemlab's patched QEMU).  Constants only; runtime state lives in the
 * drivers.  See boards/README in firmware/baremetal/README.md. */
#ifndef BOARD_H
#define BOARD_H

#include "zynq7000.h"

#define BOARD_NAME            "qemu-zynq"
/* Console: QEMU's `-serial` 0 is UART0. */
#define BOARD_UART_BASE       ZYNQ_UART0_BASE
#define BOARD_UART_IRQ        ZYNQ_IRQ_UART0
#define BOARD_UART_REF_HZ     100000000u   /* QEMU ignores the baud divisors */
#define BOARD_UART_BAUD       115200u
/* PERIPHCLK (global + private timer).  QEMU's A9 timers tick at 100 MHz
 * (hw/timer/a9gtimer.c and arm_mptimer.c, clocked by hw/arm/xilinx_zynq.c);
 * silicon uses CPU_3x2x (UG585 25.2, "CPU Clock"). */
#define BOARD_PERIPH_CLK_HZ   100000000u
/* Ethernet: GEM0 on IRQ 54; the stock PHY answers at MDIO address 7, but we
 * scan (BOARD_PHY_ADDR < 0) and identify it by ID. */
#define BOARD_GEM_BASE        ZYNQ_GEM0_BASE
#define BOARD_GEM_IRQ         ZYNQ_IRQ_GEM0
#define BOARD_GEM_CLK_CTRL    SLCR_GEM0_CLK_CTRL
#define BOARD_GEM_RCLK_CTRL   SLCR_GEM0_RCLK_CTRL
#define BOARD_PHY_ADDR        (-1)
/* IO PLL feeding the GEM reference clock.  No FSBL runs under QEMU, so this
 * is nominal; the SLCR writes are harmless there. */
#define BOARD_IOPLL_HZ        1000000000u
/* CPU_1x clock: the GEM's MDC divider input (pclk). */
#define BOARD_CPU1X_HZ        111111111u
/* Memory: -m 256 in the QEMU command line (boards/qemu-zynq/qemu.sh). */
#define BOARD_DDR_SIZE        (256u << 20)
/* Default MAC: Xilinx OUI, locally chosen suffix. */
#define BOARD_MAC             { 0x00, 0x0a, 0x35, 0x00, 0x01, 0x22 }
/* Default static IPv4 config: QEMU user-mode (slirp) network. */
#define BOARD_IP_ADDR         "10.0.2.15"
#define BOARD_IP_NETMASK      "255.255.255.0"
#define BOARD_IP_GW           "10.0.2.2"
#endif
