/*
 * gemlab/m88e1116r.h - Marvell 88E1116R vendor registers (copper page 0).
 *
 * The PHY on the ZC702/ZC706 boards.  The public 88E1116R datasheet is not
 * at hand; bit positions follow the 88E1111 datasheet register map, which
 * the 88E1116R shares for these registers, as used by Linux
 * drivers/net/phy/marvell.c (names in brackets) and OpenBSD
 * sys/dev/mii/eephyreg.h.  Registers 16-21 are paged through register 22;
 * registers 0-15 and 22 are the same on every page.
 */
#ifndef GEMLAB_M88E1116R_H
#define GEMLAB_M88E1116R_H

#include "gemlab/mii.h"

/* PHY identifier [MARVELL_PHY_ID_88E1116R 0x01410e40, mask 0xfffffff0]. */
#define M88E1116R_PHYSID1       0x0141u
#define M88E1116R_PHYSID2       0x0E40u   /* OR the 4-bit revision */

/*
 * Register 16: copper specific control 1 [MII_M1011_PHY_SCR]
 *  14:12 downshift counter: attempts at 1000 before downshifting = value
 *        + 1 [MII_M1011_PHY_SCR_DOWNSHIFT_MASK] | 11 downshift enable
 *        [MII_M1011_PHY_SCR_DOWNSHIFT_EN]: the 88E1116R's downshift
 *        control.  Linux m88e1116r_config_init() sets 8 attempts here
 *        (m88e1011_set_downshift(phydev, 8)) and its ethtool tunable
 *        (m88e1011_set_tunable) writes here; both soft-reset after.
 *  10 force link good | 6:5 MDI crossover mode (00 MDI, 01 MDIX, 11 auto)
 *   3 disable CLK125 | 2 power down (copper) | 1 polarity reversal disable
 *   0 disable jabber
 */
#define M88E1116R_CSCR              16u
#define M88E1116R_CSCR_DS_COUNT_MASK  (0x7u << 12)
#define M88E1116R_CSCR_DS_COUNT_SHIFT 12
#define M88E1116R_CSCR_DS_ENABLE      BIT(11)
#define M88E1116R_CSCR_FORCE_LINK   BIT(10)
#define M88E1116R_CSCR_MDIX_MASK    (0x3u << 5)
#define M88E1116R_CSCR_MDIX_SHIFT   5
#define M88E1116R_CSCR_MDI          (0x0u << 5)  /* [MII_M1011_PHY_SCR_MDI] */
#define M88E1116R_CSCR_MDIX         (0x1u << 5)  /* [..._MDI_X] */
#define M88E1116R_CSCR_AUTO_CROSS   (0x3u << 5)  /* [..._AUTO_CROSS] */
#define M88E1116R_CSCR_PDOWN        BIT(2)
#define M88E1116R_CSCR_JABBER_DIS   BIT(0)

/*
 * Register 17: copper specific status [MII_M1011_PHY_STATUS]; RO
 *  15:14 speed (10 = 1000, 01 = 100, 00 = 10; valid when bit 11 set)
 *  13 duplex (1 = full) | 12 page received | 11 speed and duplex resolved
 *  10 link (real time) | 9:7 cable length | 6 MDI crossover status (1 = MDIX)
 *   5 downshift status [MII_M1011_PHY_SSR_DOWNSHIFT] | 4 energy detect
 *   3 transmit pause enabled | 2 receive pause enabled
 *   1 polarity (real time) | 0 jabber (real time)
 */
#define M88E1116R_SSR               17u
#define M88E1116R_SSR_SPEED_MASK    (0x3u << 14)
#define M88E1116R_SSR_SPEED_SHIFT   14
#define M88E1116R_SSR_SPEED_10      (0x0u << 14)
#define M88E1116R_SSR_SPEED_100     (0x1u << 14)
#define M88E1116R_SSR_SPEED_1000    (0x2u << 14)
#define M88E1116R_SSR_DUPLEX        BIT(13)
#define M88E1116R_SSR_PAGE_RCVD     BIT(12)
#define M88E1116R_SSR_RESOLVED      BIT(11)
#define M88E1116R_SSR_LINK          BIT(10)
#define M88E1116R_SSR_CABLE_LEN_MASK (0x7u << 7)
#define M88E1116R_SSR_MDIX          BIT(6)
#define M88E1116R_SSR_DOWNSHIFT     BIT(5)
#define M88E1116R_SSR_ENERGY        BIT(4)
#define M88E1116R_SSR_TX_PAUSE      BIT(3)
#define M88E1116R_SSR_RX_PAUSE      BIT(2)
#define M88E1116R_SSR_POLARITY      BIT(1)
#define M88E1116R_SSR_JABBER        BIT(0)

/*
 * Register 18: interrupt enable [MII_M1011_IMASK]; RW
 * Register 19: interrupt status [MII_M1011_IEVENT]; RO, cleared on read
 * Same bit layout (88E1111 datasheet; eephyreg.h E1000_IER/E1000_ISR):
 *  15 AN error | 14 speed changed | 13 duplex changed | 12 page received
 *  11 AN completed | 10 link status changed | 9 symbol error
 *   8 false carrier | 7 FIFO over/underflow | 6 MDI crossover changed
 *   5 downshift | 4 energy detect changed | 3:2 reserved
 *   1 polarity changed | 0 jabber
 * Linux enables 0x6400 [MII_M1011_IMASK_INIT]: speed, duplex, link.
 */
#define M88E1116R_IER               18u
#define M88E1116R_ISR               19u
#define M88E1116R_INT_AN_ERROR      BIT(15)
#define M88E1116R_INT_SPEED         BIT(14)
#define M88E1116R_INT_DUPLEX        BIT(13)
#define M88E1116R_INT_PAGE_RCVD     BIT(12)
#define M88E1116R_INT_AN_COMPLETE   BIT(11)
#define M88E1116R_INT_LINK          BIT(10)
#define M88E1116R_INT_SYMBOL_ERR    BIT(9)
#define M88E1116R_INT_FALSE_CARRIER BIT(8)
#define M88E1116R_INT_FIFO          BIT(7)
#define M88E1116R_INT_MDIX          BIT(6)
#define M88E1116R_INT_DOWNSHIFT     BIT(5)
#define M88E1116R_INT_ENERGY        BIT(4)
#define M88E1116R_INT_POLARITY      BIT(1)
#define M88E1116R_INT_JABBER        BIT(0)
#define M88E1116R_INT_VALID_MASK    0xFFF3u
#define M88E1116R_IMASK_LINUX       (M88E1116R_INT_SPEED | \
                                     M88E1116R_INT_DUPLEX | \
                                     M88E1116R_INT_LINK)

/*
 * Register 20: extended PHY specific control [MII_M1111_PHY_EXT_CR]; RW.
 * On the 88E1111 bits 11:8 are its downshift control
 * (m88e1111_set_downshift); Linux's 88E1116R driver never writes this
 * register (its downshift is register 16's, its RGMII delays page 2
 * register 21's), so the model keeps it as plain storage with no effect.
 */
#define M88E1116R_EXT_CR                20u
#define M88E1116R_DS_ATTEMPTS_MAX       8u

/* Register 21: receive error counter (page 0); RO. */
#define M88E1116R_RX_ERR_CNT        21u

/*
 * Register 22: page address [MII_MARVELL_PHY_PAGE]; RW, 7:0 page number.
 * Pages named by Linux: 0 copper, 2 MAC specific control (register 21
 * holds the RGMII delays [MII_88E1121_PHY_MSCR_REG]), 3 LED control.
 */
#define M88E1116R_PAGE              22u
#define M88E1116R_PAGE_MASK         0x00FFu
#define M88E1116R_PAGE_COPPER       0u
#define M88E1116R_PAGE_MSCR         2u
#define M88E1116R_PAGE_LED          3u
#define M88E1116R_MSCR              21u      /* on page 2 */
#define M88E1116R_MSCR_RX_DELAY     BIT(5)   /* page 2 register 21 */
#define M88E1116R_MSCR_TX_DELAY     BIT(4)

#endif /* GEMLAB_M88E1116R_H */
