/* phy_regs.h - IEEE 802.3 clause 22 registers (22.2.4, 28.2.4, 40.5.1.1)
 * and the Marvell 88E1116R / 88E1111 vendor registers we use (Marvell
 * 88E1116R datasheet, "Copper Specific" page 0 registers). */
#ifndef PHY_REGS_H
#define PHY_REGS_H

#define PHY_BIT(n) ((uint16_t)(1u << (n)))

/* Reg 0 BMCR (22.2.4.1): 15 reset | 14 loopback | 13 speed lsb | 12 AN enable
 *  11 power down | 10 isolate | 9 restart AN | 8 duplex | 7 collision test
 *  6 speed msb  (speed: 6,13 = 00 10M, 01 100M, 10 1000M) */
#define MII_BMCR              0u
#define BMCR_RESET            PHY_BIT(15)
#define BMCR_LOOPBACK         PHY_BIT(14)
#define BMCR_SPEED_LSB        PHY_BIT(13)
#define BMCR_ANENABLE         PHY_BIT(12)
#define BMCR_PDOWN            PHY_BIT(11)
#define BMCR_ISOLATE          PHY_BIT(10)
#define BMCR_ANRESTART        PHY_BIT(9)
#define BMCR_FULLDPLX         PHY_BIT(8)
#define BMCR_SPEED_MSB        PHY_BIT(6)

/* Reg 1 BMSR (22.2.4.2): 15 100BASE-T4 | 14 100FD | 13 100HD | 12 10FD
 *  11 10HD | 8 extended status | 5 AN complete | 4 remote fault
 *  3 AN ability | 2 link status (latching low) | 1 jabber | 0 extended caps */
#define MII_BMSR              1u
#define BMSR_ESTATEN          PHY_BIT(8)
#define BMSR_ANEGCOMPLETE     PHY_BIT(5)
#define BMSR_RFAULT           PHY_BIT(4)
#define BMSR_ANEGCAPABLE      PHY_BIT(3)
#define BMSR_LSTATUS          PHY_BIT(2)

#define MII_PHYSID1           2u
#define MII_PHYSID2           3u

/* Reg 4 ANAR / reg 5 ANLPAR (28.2.4.1.3, annex 28B): 11 asym pause
 *  10 pause | 8 100FD | 7 100HD | 6 10FD | 5 10HD | 4..0 selector (00001) */
#define MII_ADVERTISE         4u
#define MII_LPA               5u
#define ADVERTISE_PAUSE_ASYM  PHY_BIT(11)
#define ADVERTISE_PAUSE_CAP   PHY_BIT(10)
#define ADVERTISE_100FULL     PHY_BIT(8)
#define ADVERTISE_100HALF     PHY_BIT(7)
#define ADVERTISE_10FULL      PHY_BIT(6)
#define ADVERTISE_10HALF      PHY_BIT(5)
#define ADVERTISE_CSMA        0x0001u   /* selector field: IEEE 802.3 */
#define ADVERTISE_ALL         (ADVERTISE_100FULL | ADVERTISE_100HALF | \
                               ADVERTISE_10FULL | ADVERTISE_10HALF)

#define MII_EXPANSION         6u

/* Reg 9 1000BASE-T control (40.5.1.1): 9 advertise 1000FD | 8 1000HD */
#define MII_CTRL1000          9u
#define ADVERTISE_1000FULL    PHY_BIT(9)
#define ADVERTISE_1000HALF    PHY_BIT(8)
/* Reg 10 1000BASE-T status: 11 partner 1000FD | 10 partner 1000HD */
#define MII_STAT1000          10u
#define LPA_1000FULL          PHY_BIT(11)
#define LPA_1000HALF          PHY_BIT(10)

#define MII_ESTATUS           15u

/* Marvell reg 16, page 0: Copper Specific Control 1 [MII_M1011_PHY_SCR]
 *  14..12 downshift counter (n+1 attempts at 1000BASE-T) | 11 downshift
 *  enable: the 88E1116R's downshift control (Linux marvell.c
 *  m88e1011_set_downshift); takes effect at the next soft reset
 *  6..5 MDI crossover mode (11 = auto) */
#define MRVL_PSCR             16u
#define MRVL_PSCR_DOWNSHIFT_CNT_SHIFT 12
#define MRVL_PSCR_DOWNSHIFT_CNT_MASK  (0x7u << 12)
#define MRVL_PSCR_DOWNSHIFT_EN        PHY_BIT(11)
#define MRVL_PSCR_MDIX_SHIFT          5
#define MRVL_PSCR_MDIX_MASK           (0x3u << 5)
#define MRVL_PSCR_MDIX_AUTO           (0x3u << 5)

/* Marvell reg 17, page 0: Copper Specific Status 1
 *  15..14 speed (10 1000, 01 100, 00 10) | 13 duplex | 12 page received
 *  11 speed and duplex resolved | 10 link (real time) | 5 downshift status */
#define MRVL_PSSR             17u
#define MRVL_PSSR_SPEED_SHIFT 14
#define MRVL_PSSR_SPEED_MASK  (0x3u << 14)
#define MRVL_PSSR_SPEED_1000  (0x2u << 14)
#define MRVL_PSSR_SPEED_100   (0x1u << 14)
#define MRVL_PSSR_SPEED_10    (0x0u << 14)
#define MRVL_PSSR_DUPLEX      PHY_BIT(13)
#define MRVL_PSSR_RESOLVED    PHY_BIT(11)
#define MRVL_PSSR_LINK        PHY_BIT(10)
#define MRVL_PSSR_DOWNSHIFT   PHY_BIT(5)

/* Marvell reg 20, page 0: Extended PHY Specific Control; only dumped in
 * `stats` (its bits 11..8 are the 88E1111's downshift control, which
 * Linux's 88E1116R driver leaves alone, and so does this one) */
#define MRVL_ECR              20u

/* Marvell reg 19: interrupt status (clear on read on silicon) */
#define MRVL_IEVENT           19u
/* Marvell reg 22: page address */
#define MRVL_PAGE             22u
/* Marvell reg 21, page 2: MAC specific control 2
 *  5 RGMII RX timing (add delay) | 4 RGMII TX timing (add delay) */
#define MRVL_MSCR2            21u
#define MRVL_MSCR2_PAGE       2u
#define MRVL_MSCR2_RGMII_RX_DELAY PHY_BIT(5)
#define MRVL_MSCR2_RGMII_TX_DELAY PHY_BIT(4)

#define PHY_ID_MARVELL_88E1116R  0x01410E40u
#define PHY_ID_MARVELL_88E1111   0x01410CC0u
#define PHY_ID_MASK_MODEL        0xFFFFFFF0u   /* ignore revision nibble */

#endif
