/*
 * gemlab/mii.h - IEEE 802.3 clause 22 management registers.
 *
 * Register numbers are MII_<REG>; fields are <REG>_<FIELD> as BIT(n) or
 * <REG>_<FIELD>_MASK / _SHIFT.  Each register carries a bit map citing the
 * clause that defines it (IEEE Std 802.3-2018: 22.2.4 for registers 0-8 and
 * 15, 28.2.4.1 for the autonegotiation pages, 40.5.1.1 for registers 9 and
 * 10, Annex 28B for the priority resolution).
 *
 * Access codes used below, as in the standard: RW read/write, RO read-only,
 * SC self-clearing, LL latching low, LH latching high.
 *
 * QEMU's include/net/mii.h uses the same MII_<REG> names: a file must not
 * include both.  BIT() is spelled exactly like QEMU's qemu/bitops.h so the
 * two definitions are identical if both are seen.
 */
#ifndef GEMLAB_MII_H
#define GEMLAB_MII_H

#ifndef BIT
#define BIT(nr) (1UL << (nr))
#endif

#define MII_NUM_REGS 32u

/*
 * Register 0: Control (BMCR), 22.2.4.1
 *  15 reset RW/SC | 14 loopback | 13 speed select (LSB) | 12 AN enable
 *  11 power down | 10 isolate | 9 restart AN RW/SC | 8 duplex mode
 *   7 collision test | 6 speed select (MSB) | 5 unidirectional enable
 *  4:0 reserved
 * Speed (bit 6, bit 13): 00 = 10 Mb/s, 01 = 100 Mb/s, 10 = 1000 Mb/s.
 */
#define MII_BMCR            0u
#define BMCR_RESET          BIT(15)
#define BMCR_LOOPBACK       BIT(14)
#define BMCR_SPEED_LSB      BIT(13)
#define BMCR_ANENABLE       BIT(12)
#define BMCR_PDOWN          BIT(11)
#define BMCR_ISOLATE        BIT(10)
#define BMCR_ANRESTART      BIT(9)
#define BMCR_FULLDPLX       BIT(8)
#define BMCR_CTST           BIT(7)
#define BMCR_SPEED_MSB      BIT(6)
#define BMCR_UNIDIR         BIT(5)
#define BMCR_SPEED_MASK     (BMCR_SPEED_MSB | BMCR_SPEED_LSB)
#define BMCR_SPEED_10       0u
#define BMCR_SPEED_100      BMCR_SPEED_LSB
#define BMCR_SPEED_1000     BMCR_SPEED_MSB

/*
 * Register 1: Status (BMSR), 22.2.4.2; all bits RO
 *  15 100BASE-T4 | 14 100BASE-X FD | 13 100BASE-X HD | 12 10 Mb/s FD
 *  11 10 Mb/s HD | 10 100BASE-T2 FD | 9 100BASE-T2 HD | 8 extended status
 *   7 unidirectional ability | 6 MF preamble suppression | 5 AN complete
 *   4 remote fault (LH) | 3 AN ability | 2 link status (LL)
 *   1 jabber detect (LH) | 0 extended capability
 */
#define MII_BMSR            1u
#define BMSR_100T4          BIT(15)
#define BMSR_100FULL        BIT(14)
#define BMSR_100HALF        BIT(13)
#define BMSR_10FULL         BIT(12)
#define BMSR_10HALF         BIT(11)
#define BMSR_100T2FULL      BIT(10)
#define BMSR_100T2HALF      BIT(9)
#define BMSR_ESTATEN        BIT(8)
#define BMSR_UNIDIR         BIT(7)
#define BMSR_MFPS           BIT(6)
#define BMSR_ANEGCOMPLETE   BIT(5)
#define BMSR_RFAULT         BIT(4)
#define BMSR_ANEGCAPABLE    BIT(3)
#define BMSR_LSTATUS        BIT(2)
#define BMSR_JCD            BIT(1)
#define BMSR_ERCAP          BIT(0)

/*
 * Registers 2 and 3: PHY identifier, 22.2.4.3.1; RO
 *  reg 2 15:0 = OUI bits 3..18
 *  reg 3 15:10 = OUI bits 19..24 | 9:4 model number | 3:0 revision
 */
#define MII_PHYSID1         2u
#define MII_PHYSID2         3u
#define PHYSID2_REV_MASK    0x000Fu
#define PHYSID2_MODEL_MASK  0x03F0u
#define PHYSID2_MODEL_SHIFT 4

/*
 * Register 4: AN advertisement (ANAR), 22.2.4.3.1 / 28.2.1.2 base page
 *  15 next page | 14 reserved (ack in the received page) | 13 remote fault
 *  12 extended next page | 11 asymmetric pause | 10 pause | 9 100BASE-T4
 *   8 100BASE-TX FD | 7 100BASE-TX | 6 10BASE-T FD | 5 10BASE-T
 *  4:0 selector (00001 = IEEE 802.3)
 * The technology bits 9:5 follow Annex 28B.2 (technology ability field).
 */
#define MII_ADVERTISE       4u
#define ADVERTISE_NPAGE     BIT(15)
#define ADVERTISE_RESV      BIT(14)
#define ADVERTISE_RFAULT    BIT(13)
#define ADVERTISE_XNP       BIT(12)
#define ADVERTISE_PAUSE_ASYM BIT(11)
#define ADVERTISE_PAUSE_CAP BIT(10)
#define ADVERTISE_100BASE4  BIT(9)
#define ADVERTISE_100FULL   BIT(8)
#define ADVERTISE_100HALF   BIT(7)
#define ADVERTISE_10FULL    BIT(6)
#define ADVERTISE_10HALF    BIT(5)
#define ADVERTISE_SLCT_MASK 0x001Fu
#define ADVERTISE_CSMA      0x0001u
#define ADVERTISE_ALL       (ADVERTISE_10HALF | ADVERTISE_10FULL | \
                             ADVERTISE_100HALF | ADVERTISE_100FULL)

/*
 * Register 5: link partner base page ability (ANLPAR), 22.2.4.3.2; RO
 *  Same layout as register 4; bit 14 is the partner's acknowledge.
 */
#define MII_LPA             5u
#define LPA_NPAGE           BIT(15)
#define LPA_LPACK           BIT(14)
#define LPA_RFAULT          BIT(13)
#define LPA_PAUSE_ASYM      BIT(11)
#define LPA_PAUSE_CAP       BIT(10)
#define LPA_100BASE4        BIT(9)
#define LPA_100FULL         BIT(8)
#define LPA_100HALF         BIT(7)
#define LPA_10FULL          BIT(6)
#define LPA_10HALF          BIT(5)
#define LPA_SLCT_MASK       0x001Fu

/*
 * Register 6: AN expansion (ANER), 28.2.4.1.5; RO
 *  15:5 reserved | 4 parallel detection fault (LH) | 3 LP next page able
 *   2 next page able | 1 page received (LH) | 0 LP AN able
 */
#define MII_EXPANSION       6u
#define EXPANSION_MFAULTS   BIT(4)
#define EXPANSION_LPNPAGE   BIT(3)
#define EXPANSION_ENABLENPAGE BIT(2)
#define EXPANSION_LCWP      BIT(1)
#define EXPANSION_NWAY      BIT(0)

/*
 * Register 7: AN next page transmit, 28.2.4.1.6; RW
 *  15 next page | 14 reserved | 13 message page | 12 acknowledge 2
 *  11 toggle (RO) | 10:0 message / unformatted code field
 * Register 8: link partner received next page, 28.2.4.1.7; RO, same layout
 * with bit 14 the partner's acknowledge.
 */
#define MII_NPAGE_TX        7u
#define MII_NPAGE_LP        8u
#define NPAGE_NEXT          BIT(15)
#define NPAGE_ACK           BIT(14)
#define NPAGE_MSG           BIT(13)
#define NPAGE_ACK2          BIT(12)
#define NPAGE_TOGGLE        BIT(11)
#define NPAGE_CODE_MASK     0x07FFu
#define NPAGE_CODE_NULL     0x0001u   /* Annex 28C.2 null message */

/*
 * Register 9: 1000BASE-T control (CTRL1000), 40.5.1.1; RW
 *  15:13 test mode | 12 MASTER-SLAVE manual config enable
 *  11 MASTER-SLAVE config value (1 = MASTER) | 10 port type (1 = multiport,
 *  prefers MASTER; 0 = single port, prefers SLAVE) | 9 advertise 1000BASE-T
 *  FD | 8 advertise 1000BASE-T HD | 7:0 reserved
 */
#define MII_CTRL1000        9u
#define CTRL1000_TEST_MASK  0xE000u
#define CTRL1000_MS_MANUAL  BIT(12)
#define CTRL1000_MS_MASTER  BIT(11)
#define CTRL1000_PORT_MULTI BIT(10)
#define CTRL1000_FULL       BIT(9)
#define CTRL1000_HALF       BIT(8)

/*
 * Register 10: 1000BASE-T status (STAT1000), 40.5.1.1; RO
 *  15 MASTER-SLAVE config fault (LH, cleared on read) | 14 MASTER-SLAVE
 *  config resolution (1 = local is MASTER) | 13 local receiver status OK
 *  12 remote receiver status OK | 11 LP 1000BASE-T FD | 10 LP 1000BASE-T HD
 *  9:8 reserved | 7:0 idle error count (SC)
 */
#define MII_STAT1000        10u
#define STAT1000_MS_FAULT   BIT(15)
#define STAT1000_MS_MASTER  BIT(14)
#define STAT1000_LRXOK      BIT(13)
#define STAT1000_RRXOK      BIT(12)
#define STAT1000_LP_FULL    BIT(11)
#define STAT1000_LP_HALF    BIT(10)
#define STAT1000_IDLE_ERR_MASK 0x00FFu

/* Registers 13 and 14: MMD access (22.2.4.3.11/12); not modelled. */
#define MII_MMD_CTRL        13u
#define MII_MMD_DATA        14u

/*
 * Register 15: extended status (ESTATUS), 22.2.4.4; RO
 *  15 1000BASE-X FD | 14 1000BASE-X HD | 13 1000BASE-T FD | 12 1000BASE-T HD
 *  11:0 reserved
 */
#define MII_ESTATUS         15u
#define ESTATUS_1000X_FULL  BIT(15)
#define ESTATUS_1000X_HALF  BIT(14)
#define ESTATUS_1000T_FULL  BIT(13)
#define ESTATUS_1000T_HALF  BIT(12)

#endif /* GEMLAB_MII_H */
