/* board.h - ZC706 (XC7Z045, Marvell 88E1116R PHY at MDIO address 7).
 * Values after the board's ps7_init (Vivado default preset): CPU 666.67 MHz,
 * IO PLL 1000 MHz, UART ref 50 MHz, GEM0 on MIO 16-27 in RGMII.
 * The same ELF runs after FSBL/ps7_init has set up clocks, MIO and DDR. */
#ifndef BOARD_H
#define BOARD_H

#include "zynq7000.h"

#define BOARD_NAME            "zc706"
/* Console: the USB-UART bridge is wired to PS UART1 (MIO 48/49). */
#define BOARD_UART_BASE       ZYNQ_UART1_BASE
#define BOARD_UART_IRQ        ZYNQ_IRQ_UART1
#define BOARD_UART_REF_HZ     50000000u
#define BOARD_UART_BAUD       115200u
/* PERIPHCLK = CPU_3x2x = 666.67 MHz / 2 (UG585 sec. 25.2). */
#define BOARD_PERIPH_CLK_HZ   333333333u
#define BOARD_GEM_BASE        ZYNQ_GEM0_BASE
#define BOARD_GEM_IRQ         ZYNQ_IRQ_GEM0
#define BOARD_GEM_CLK_CTRL    SLCR_GEM0_CLK_CTRL
#define BOARD_GEM_RCLK_CTRL   SLCR_GEM0_RCLK_CTRL
#define BOARD_PHY_ADDR        7
#define BOARD_IOPLL_HZ        1000000000u
#define BOARD_CPU1X_HZ        111111111u
#define BOARD_DDR_SIZE        (1024u << 20)
#define BOARD_MAC             { 0x00, 0x0a, 0x35, 0x00, 0x01, 0x22 }
#define BOARD_IP_ADDR         "192.168.1.10"
#define BOARD_IP_NETMASK      "255.255.255.0"
#define BOARD_IP_GW           "192.168.1.1"
#endif
